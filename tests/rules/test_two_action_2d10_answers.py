"""Two-action-2d10: the preview is the roll. After the attack is rolled, each
answer to the defence prompt (Parry, Block, Dodge, no defensive roll) previews the odds of
the dice still to roll, given the attack's known total, and is resolved by rolling the very
rollables it previewed (TA-7, TA-9, D-2, I-4)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from two_action_2d10_fixtures import act, arena, declare, duel, make, of, roll, to_step

from hexcombat import Action, Encounter, Hex
from hexcombat.checks import Amount, Chain, OpposedCheck
from hexcombat.dice import ScriptedDice

pytestmark = pytest.mark.pyodide

ADJUST = {"parry": 0, "block": 2, "dodge": 2}
"""The spec's adjustments: Parry +0, Block +2, Dodge +2 unarmoured (D-2)."""

ANSWER = {"parry": "parry", "block": "shield_block", "dodge": "dodge"}


def _prompted(
    defences: tuple[str, str], bo_faces: list[int], options: dict | None = None
) -> Encounter:
    """Ann (shield, passive 13, defence skills 3) declared two defences against Bo; Bo's
    blow is rolled with ``bo_faces`` (+4 skill) and Ann is asked, every answer offered (the
    Block kept at choice, R-13)."""
    enc = duel(options={"ta.block_timing": "at_choice", **(options or {})}, shield=False)
    ann = enc.setup_figure("ann")
    ann.stats["shield"] = True
    enc = enc.with_figure(ann)
    declare(enc, "ann", *defences, guard="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    enc.perform(Action("strike", "bo", {}), faces=bo_faces)
    assert enc.state.prompt is not None
    return enc


def _hit_chance(chain: Chain) -> Fraction:
    headline = chain.stages[0].rollable.headline()
    assert headline is not None
    return headline.chance


def _enumerated(kind: str | None, attack: int, passive: int = 13) -> Fraction:
    """Exact: over the defensive 2d10, the defence is the higher of passive and roll + 3 +
    adjustment (D-2); the blow hits when the attack meets it (TA-9)."""
    if kind is None:
        return Fraction(int(attack >= passive))
    hits = sum(
        attack >= max(passive, a + b + 3 + ADJUST[kind]) for a, b in product(range(1, 11), repeat=2)
    )
    return Fraction(hits, 100)


@pytest.mark.parametrize("bo_faces", [[7, 7], [9, 9], [3, 6], [10, 10]])
@pytest.mark.parametrize("defences", [("parry", "dodge"), ("block", "parry")])
def test_ta_7_d2_each_answer_previews_the_odds_of_the_dice_left_given_the_attack(
    defences: tuple[str, str], bo_faces: list[int]
) -> None:
    enc = _prompted(defences, bo_faces)
    attack = sum(bo_faces) + 4
    for kind in (*defences, None):
        action = Action(ANSWER[kind] if kind else "take", "ann", {})
        (chain,) = enc.preview(action).rollables
        assert isinstance(chain, Chain)
        assert _hit_chance(chain) == _enumerated(kind, attack), (kind, attack)
        assert sum(o.chance for o in chain.outcomes()) == 1


def test_ta_9_no_defensive_roll_against_a_known_attack_is_certain() -> None:
    """The case seen: 'No defensive roll' showed 79/100 when the hit was certain."""
    enc = _prompted(("parry", "dodge"), [9, 9])  # 22 against passive 13
    (chain,) = enc.preview(Action("take", "ann", {})).rollables
    assert isinstance(chain, Chain)
    assert _hit_chance(chain) == 1
    damage = next(s.rollable for s in chain.stages if s.id.startswith("damage"))
    assert isinstance(damage, Amount) and damage.dice == "2d8 min 0"  # surplus 9: +1 die


@pytest.mark.parametrize("kind", ["parry", "dodge"])
def test_ta_7_every_defensive_roll_resolves_as_its_preview_said(kind: str) -> None:
    """For each of the 100 defensive rolls, the answer hits exactly when the previewed hit
    stage resolves to 'hit' with those faces, and the hit frequency is the previewed odds."""
    enc = _prompted(("parry", "dodge"), [7, 7])  # 18
    action = Action(ANSWER[kind], "ann", {})
    (chain,) = enc.preview(action).rollables
    assert isinstance(chain, Chain)
    hits = 0
    for a, b in product(range(1, 11), repeat=2):
        defence = max(13, a + b + 3 + ADJUST[kind])
        # then d8 damage below the first threshold, or 2d8, a location and a save at it
        more = 0 if defence > 18 else (1 if 18 - defence < 5 else 5)
        events = enc.copy().perform(action, faces=[a, b] + [1] * more)
        hit = of(events, "attack")[0].data["hit"]
        hits += bool(hit)
        assert hit == (defence <= 18)
    assert Fraction(hits, 100) == _hit_chance(chain)


def test_i4_the_reducing_parry_previews_a_known_hit_then_its_roll() -> None:
    """Under ``parry_reduces_surplus`` the hit against the standing defence is known once the
    attack is rolled; the parry is a roll that reduces the surplus (I-4)."""
    enc = _prompted(("parry", "dodge"), [7, 7], {"ta.defence_mode": "parry_reduces_surplus"})
    (chain,) = enc.preview(Action("parry", "ann", {})).rollables
    assert isinstance(chain, Chain)
    # the surplus 5 left whole reaches threshold 1 (TA-11); a parry of 15 or more keeps it under
    after_parry = {s.id for s in chain.stages if s.after == "parry"}
    assert [s.id for s in chain.stages][:2] == ["hit", "parry"]
    assert after_parry == {"damage", "damage1"}
    assert _hit_chance(chain) == 1
    events = enc.perform(Action("parry", "ann", {}), faces=[6, 5, 2])  # parry 11 + 3 = 14
    assert of(events, "attack")[0].data["surplus"] == 18 - 13 - 1


def test_ta_25_the_sprint_rolls_the_amount_its_preview_shows() -> None:
    """Two movement actions preview 2d6kh1 +1 (TA-25, D-12) and roll exactly that: the
    same dice expression, faces and total (it rolled two separate d6 before)."""
    enc = make(arena(14, 20), "ann", "Ann", "Blue", Hex(5, 12), 0, armour="leather")
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "move", "move")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    action = Action("sprint", "ann", {"adjust": 1})
    (amount,) = enc.preview(action).rollables
    assert isinstance(amount, Amount) and amount.dice == "2d6kh1"
    shown = amount.roll(ScriptedDice([2, 5]))
    events = enc.perform(action, faces=[2, 5])
    assert events[0].rolls == (shown.roll.to_json(),)
    assert events[0].data["extra"] == shown.total == 6


def test_d17_a_closed_figure_s_movement_action_previews_the_break_away() -> None:
    """A closed figure's movement action is a break-away roll (D-17): its preview is that
    opposed roll, not the movement die."""
    enc = duel()
    declare(enc, "ann", "brawl", "other", target="bo", style="grapple")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    roll(enc, [9, 9, 9, 9], "strike", "ann")
    act(enc, "next_step")
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "move", "parry", guard="ann")
    act(enc, "next_step")
    (check,) = enc.preview(Action("sprint", "bo", {})).rollables
    assert isinstance(check, OpposedCheck) and check.label == "Break away"
    shown = check.roll(ScriptedDice([8, 8, 2, 2]))
    events = enc.perform(Action("sprint", "bo", {}), faces=[8, 8, 2, 2])
    assert events[0].rolls == tuple(r.to_json() for r in shown.rolls)
    assert shown.attacker_wins and "breaks away" in events[0].text
