"""The order-free action step (G-19, G-3) and held spells (G-26) of ``fig-percentile``.

Every figure that can act chooses its action hidden; the last choice reveals all of them
together; dodgers pick the attack they dodge and attackers roll, each asked by a prompt in
setup order; results apply at once. Entering the same choices in any order gives the same
state, events and odds.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from fig_percentile_fixtures import (
    act,
    add,
    answer_prompts,
    arena,
    choices,
    end_round,
    kinds,
    last,
    play_round,
    roll,
    strike,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import LONG_MODE

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.document import from_document, to_document
from hexcombat.encounter import MoreDiceNeededError
from hexcombat.validation import Json
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

SWORD = {"skills": {"Sword": 50}, "items": ["Sword"], "ready": "Sword"}


def duel(
    options: dict[str, object] | None = None, dodge: int = 40, play: bool = True, **a: Json
) -> Encounter:
    """A and B, adjacent sword fighters; B may dodge (dodge skill ``dodge``); with ``play``,
    at the action step of round 1."""
    enc = arena(dict(options or {}))
    enc = add(enc, "a", (3, 4), side="A", **SWORD, **a)  # type: ignore[arg-type]
    enc = add(enc, "b", (4, 4), side="B", dodge_skill=dodge, **SWORD)  # type: ignore[arg-type]
    if play:
        play_round(enc, {})
    return enc


# ---- G-19: hidden choices ----------------------------------------------------------------------
def test_g_19_fp_24_the_action_step_asks_everyone_for_a_hidden_choice() -> None:
    enc = duel()
    time = encounter_view(enc)["time"]
    assert time["acting"]["hidden"] is True and time["acting"]["waiting"] == ["a", "b"]
    assert time["acting"]["text"] == "Waiting for hidden choices from A and B"
    assert kinds(enc, "a") == ["attack", "hold"] and kinds(enc, "b") == ["attack", "dodge", "hold"]
    assert enc.ruleset.next_step_blocked(enc.state) == (
        "Waiting for A, B to choose an action (G-19)"
    )
    events = act(enc, "attack", "a", target="b")
    assert [e.text for e in events] == ["A has declared (hidden until everyone has)"]
    assert kinds(enc, "a") == [] and enc.state.prompt is None
    assert encounter_view(enc)["time"]["acting"]["waiting"] == ["b"]
    events = act(enc, "hold", "b")
    assert [e.text for e in events] == [
        "B has declared (hidden until everyone has)",
        "A chose to strike at B with the Sword",
        "B chose to take no action this round",
        "A: roll to hit B with the Sword",
    ]
    assert [e.rule for e in events[1:3]] == ["G-19", "G-19"]


def test_g_19_the_first_attacker_no_longer_decides_whether_its_target_can_dodge_regression() -> (
    None
):
    """Ruling, case 3: before, A's attack spent A's action at once, so A could not dodge
    B's reply, while B, attacked first, could dodge and then not reply. Now both choose
    first: the one that chooses to dodge dodges, whoever enters first."""
    for first in ("a", "b"):
        enc = duel(dodge_skill=40)
        entries = {"a": ("dodge", {}), "b": ("attack", {"target": "a"})}
        for fid in (first, "b" if first == "a" else "a"):
            kind, params = entries[fid]
            act(enc, kind, fid, **params)  # type: ignore[arg-type]
        events = answer_prompts(enc, {"b": [10], "a": [25]})
        assert [e.kind for e in events] == ["dodge_pick", "attack", "reaction", "dodge"]
        assert last(enc, "dodge").data["dodged"] is True


def test_g_19_fp_25_every_roll_uses_the_numbers_after_movement_and_results_apply_at_once() -> None:
    enc = duel({"fp.damage_model": "hp"}, play=False)
    b = enc.setup_figure("b")
    b.stats["hp"] = 5
    enc = enc.with_figure(b)
    play_round(enc, {})
    act(enc, "attack", "b", target="a")  # B enters first; A rolls first anyway (setup order)
    act(enc, "attack", "a", target="b")
    assert [p.figure for p in enc.state.prompts] == ["a", "b"]
    events = answer_prompts(enc, {"a": [10, 8], "b": [40, 3]})
    assert [(e.kind, e.figure) for e in events if e.kind in ("attack", "hit")] == [
        ("attack", "a"),
        ("hit", "b"),
        ("attack", "b"),
        ("hit", "a"),
    ]
    end_round(enc)
    assert enc.state.figures["b"].has_status("down")


def test_g_19_a_choice_the_engine_would_refuse_is_refused_when_made() -> None:
    enc = duel()
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match="from -50 to 50"):
        enc.perform(Action("attack", "a", {"target": "b", "modifier": 51}))
    with pytest.raises(IllegalActionError, match="must be one of B"):
        enc.perform(Action("attack", "a", {"target": "a"}))
    assert to_document(enc) == before


def test_g_19_undo_and_replay_go_through_choices_and_prompts() -> None:
    enc = duel()
    act(enc, "dodge", "b")
    act(enc, "attack", "a", target="b")
    roll(enc, [], "pick_dodge", "b", attacker="a")
    roll(enc, [10], "roll_attack", "a")
    enc.undo()
    assert kinds(enc, "a") == ["roll_attack"] and kinds(enc, None) == []
    enc.redo()
    assert kinds(enc, "b") == ["roll_dodge"]
    roll(enc, [90], "roll_dodge", "b")
    doc = to_document(enc)
    again = from_document(doc)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]


# ---- G-3: the dodge -----------------------------------------------------------------------------
def test_g_3_fp_10_a_dodge_is_chosen_then_aimed_at_one_attack_and_cancels_its_hit() -> None:
    enc = duel()
    preview = enc.preview(Action("attack", "a", {"target": "b"}))
    no_dodge, dodge = preview.rollables[0].variants
    assert (no_dodge.label, dodge.label) == ("No dodge", "Dodge (needs 40 or lower)")
    p = preview.rollables[0].chance()
    assert no_dodge.rollable.headline().chance == p == Fraction(1, 2)
    chances = {o.id: o.chance for o in dodge.rollable.outcomes()}
    assert chances == {
        "hit.failure": 1 - p,
        "dodge.success": p * Fraction(40, 100),
        "dodge.failure": p * Fraction(60, 100),  # the hit lands against a dodge
    }
    dodge_preview = enc.preview(Action("dodge", "b"))
    assert dodge_preview.rollables[0].target == 40 and dodge_preview.cost == 1
    act(enc, "dodge", "b")
    act(enc, "attack", "a", target="b")
    prompt = enc.state.prompt
    assert prompt is not None and prompt.question == "B: which attack do you dodge?"
    assert prompt.rule == "G-3, G-19"
    assert kinds(enc, "b") == ["pick_dodge"] and kinds(enc, "a") == kinds(enc, None) == []
    view = encounter_view(enc)["prompt"]
    assert view is not None and view["figure_name"] == "B"
    roll(enc, [], "pick_dodge", "b", attacker="a")
    assert last(enc, "dodge_pick").text == "B will dodge A's attack"
    roll_preview = enc.preview(Action("roll_attack", "a"))
    (aimed,) = roll_preview.rollables[0].variants  # B dodges this very attack
    assert aimed.label == "B dodges (needs 40 or lower)"
    assert {o.id: o.chance for o in aimed.rollable.outcomes()} == chances
    roll(enc, [10], "roll_attack", "a")
    assert enc.state.prompt is not None
    assert enc.state.prompt.question == "B: roll to dodge A's Sword"
    events = roll(enc, [25], "roll_dodge", "b")
    assert (
        events[0].text == "B dodges A's Sword: needs 40 or lower, rolled 25: the hit is cancelled"
    )
    assert enc.state.figures["b"].memory.get("hits_taken", 0) == 0
    assert kinds(enc, "b") == []  # the dodge was B's only action


def test_g_2_g_3_with_hit_points_each_preview_shows_the_damage_its_roll_deals() -> None:
    """G-2 option: the attack's preview is to hit, then damage on a hit, and its dodge variant
    to hit, dodge, then damage when the dodge fails; the attack roll and the dodge roll
    preview the same chains and roll exactly them (the damage dice included)."""
    enc = duel({"fp.damage_model": "hp"})
    p, d8 = Fraction(1, 2), {f"damage.{n}": Fraction(1, 8) for n in range(1, 9)}
    plain, dodged = enc.preview(Action("attack", "a", {"target": "b"})).rollables[0].variants
    assert {o.id: o.chance for o in plain.rollable.outcomes()} == {
        "hit.failure": 1 - p,
        **{k: p * c for k, c in d8.items()},
    }
    when_dodged = {
        "hit.failure": 1 - p,
        "dodge.success": p * Fraction(40, 100),
        **{k: p * Fraction(60, 100) * c for k, c in d8.items()},
    }
    assert {o.id: o.chance for o in dodged.rollable.outcomes()} == when_dodged
    act(enc, "hold", "b")
    act(enc, "attack", "a", target="b")
    (chain,) = enc.preview(Action("roll_attack", "a")).rollables
    assert {o.id: o.chance for o in chain.outcomes()} == {
        o.id: o.chance for o in plain.rollable.outcomes()
    }
    events = roll(enc, [10, 6], "roll_attack", "a")
    assert last(enc, "hit").text == "B takes 6 damage from the Sword (14/20 hit points left)"
    assert [e.kind for e in events][:2] == ["attack", "hit"]

    enc = duel({"fp.damage_model": "hp"})
    act(enc, "dodge", "b")
    act(enc, "attack", "a", target="b")
    roll(enc, [], "pick_dodge", "b", attacker="a")
    (aimed,) = enc.preview(Action("roll_attack", "a")).rollables[0].variants
    assert {o.id: o.chance for o in aimed.rollable.outcomes()} == when_dodged
    roll(enc, [10], "roll_attack", "a")  # the hit asks B to dodge: no damage rolled yet
    assert not [e for e in enc.events if e.kind == "hit"]
    (dodge,) = enc.preview(Action("roll_dodge", "b")).rollables
    assert {o.id: o.chance for o in dodge.outcomes()} == {
        "dodge.success": Fraction(40, 100),
        **{k: Fraction(60, 100) * c for k, c in d8.items()},
    }
    roll(enc, [90, 7], "roll_dodge", "b")
    assert last(enc, "hit").text == "B takes 7 damage from the Sword (13/20 hit points left)"


def test_g_3_a_dodger_picks_one_of_two_attacks_and_the_other_lands() -> None:
    enc = arena()
    enc = add(enc, "a", (3, 4), side="A", **SWORD)  # type: ignore[arg-type]
    enc = add(enc, "c", (4, 5), side="A", **SWORD)  # type: ignore[arg-type]
    enc = add(enc, "b", (4, 4), side="B", dodge_skill=40, **SWORD)  # type: ignore[arg-type]
    play_round(enc, {})
    act(enc, "attack", "a", target="b")
    act(enc, "attack", "c", target="b")
    act(enc, "dodge", "b")
    assert choices(enc, "b", "pick_dodge", "attacker") == ["a", "c"]
    events = answer_prompts(enc, {"a": [10], "c": [10], "b": [5]}, picks={"b": "c"})
    hits = [e for e in events if e.kind == "hit"]
    assert [h.target for h in hits] == ["a"]  # A's blow lands; C's is dodged
    assert last(enc, "dodge").data["dodged"] is True


def test_g_3_a_dodge_with_no_attack_against_it_is_spent() -> None:
    enc = duel()
    act(enc, "dodge", "b")
    events = act(enc, "hold", "a")
    assert events[-1].text == "B was ready to dodge, but no attack comes at it: the action is spent"
    assert events[-1].rule == "G-3" and enc.state.prompt is None


def test_g_3_fp_10_dodge_is_offered_only_when_allowed_and_someone_can_attack() -> None:
    off = duel({"fp.dodge": False})
    assert "dodge" not in kinds(off, "b")
    assert [e.kind for e in strike(off, "a", [10], target="b")] == ["attack", "hit"]
    unskilled = duel(dodge=0)
    assert "dodge" not in kinds(unskilled, "b")
    alone = arena()
    alone = add(alone, "b", (4, 4), side="B", dodge_skill=40, **SWORD)  # type: ignore[arg-type]
    alone = add(alone, "far", (9, 4), side="A", **SWORD)  # type: ignore[arg-type]
    play_round(alone, {})
    assert kinds(alone, "b") == [] and kinds(alone, None) == ["next_step"]


def test_g_3_no_dodge_detail_says_why_a_hit_was_not_dodged() -> None:
    enc = duel()
    events = strike(enc, "a", [10], target="b")
    assert events[0].details[-1] == "No dodge: B did not choose to dodge this attack (G-3)"


# ---- property: no result depends on the order of entry -----------------------------------------
def _trio() -> Encounter:
    enc = arena({"fp.damage_model": "hp"}, width=10, height=8)
    enc = add(enc, "a", (3, 4), side="A", dodge_skill=30, hp=6, **SWORD)  # type: ignore[arg-type]
    enc = add(enc, "c", (4, 5), side="A", skills={"Bow": 55}, items=["Short bow"],
              ready="Short bow", dodge_skill=50)  # fmt: skip
    enc = add(enc, "b", (4, 4), side="B", dodge_skill=45, hp=6, **SWORD)  # type: ignore[arg-type]
    enc = add(enc, "d", (6, 3), side="B", skills={"Bow": 40}, items=["Short bow"],
              ready="Short bow", max_actions=2)  # fmt: skip
    play_round(enc, {})
    return enc


def _outcome(enc: Encounter, order: tuple[str, ...], picks: dict[str, Action]) -> tuple[Json, ...]:
    chosen: dict[str, Json] = {}  # the odds each player saw when choosing
    for fid in order:
        chosen[fid] = enc.preview(picks[fid]).to_json()
        enc.perform(picks[fid])
    odds: list[Json] = [chosen]
    while (prompt := enc.state.prompt) is not None:
        spec = prompt.answers[0]
        params: dict[str, Json] = {}
        if spec.kind == "pick_dodge":
            params["attacker"] = spec.params[0].choices[-1].value
        answer = Action(spec.kind, prompt.figure, params)
        odds.append(enc.preview(answer).to_json())
        faces = [37]
        while spec.kind != "pick_dodge":
            try:
                enc.perform(answer, faces=faces)
                break
            except MoreDiceNeededError:
                faces.append(4)
        else:
            enc.perform(answer)
    events = [e.to_json() for e in enc.events if e.kind != "hidden"]
    figures = {f.id: f.to_json() for f in enc.state.figures.values()}
    return figures, events, odds


@settings(max_examples=40 if LONG_MODE else 4, deadline=None)
@given(data=st.data())
def test_g_19_g_3_any_order_of_entry_gives_the_same_state_events_and_odds(
    data: st.DataObject,
) -> None:
    base = _trio()
    picks: dict[str, Action] = {}
    for fid in base.ruleset.who_acts(base.state).waiting:
        spec = data.draw(st.sampled_from(base.legal_actions(fid)))
        params = {p.name: data.draw(st.sampled_from([c.value for c in p.choices]))
                  for p in spec.params if p.choices}  # fmt: skip
        picks[fid] = Action(spec.kind, fid, params)
    results = []
    for order in permutations(picks):
        enc = base.copy()
        results.append(_outcome(enc, order, picks))
        assert enc.ruleset.invariant_problems(enc.state) == []
    assert all(r == results[0] for r in results[1:])


# ---- G-26: held spells --------------------------------------------------------------------------
def _caster(options: dict[str, object] | None = None) -> Encounter:
    enc = arena(dict(options or {}), width=14)
    skills = {"Spellcasting": 50, "Sword": 40}
    enc = add(enc, "mage", (1, 4), side="A", fig=40, facing=2, skills=skills,
              items=["Spark", "Sword"])  # fmt: skip
    enc = add(enc, "foe", (5, 4), side="B")
    play_round(enc, {}, post={"mage": {"spell": "Spark"}})
    end_round(enc)
    play_round(enc, {})
    return enc


def test_g_26_fp_26_a_finished_spell_stays_ready_until_released_regression() -> None:
    """Ruling, case 4: the spell was lost after one action step, citing FP-26 for a house
    reading. Now it is kept (the default) and events cite G-26."""
    enc = _caster()
    assert last(enc, "spell_ready").rule == "FP-26"  # "may now release": the text's round
    act(enc, "hold", "mage")
    end_round(enc)
    assert [e for e in enc.events if e.kind == "fizzle"] == []
    play_round(enc, {})
    ready = last(enc, "spell_ready")
    assert (ready.text, ready.rule) == ("Mage still holds Spark ready to release", "G-26")
    events = strike(enc, "mage", [10], "release_spell", target="foe")
    assert events[0].text == "Mage casts Spark at Foe: needs 40 or lower, rolled 10: hit"
    assert enc.ruleset.figure_view(enc.state, enc.state.figures["mage"]).get("spell_ready") is None


def test_g_26_option_lost_after_the_next_step_cites_its_gap() -> None:
    enc = _caster({"fp.unreleased_spell": "lost_after_next_step"})
    end_round(enc)
    fizzle = last(enc, "fizzle")
    assert fizzle.rule == "G-26" and fizzle.text.startswith("Mage's Spark is lost")
    assert all("FP-26" not in d for d in fizzle.details)
    play_round(enc, {})
    assert "release_spell" not in kinds(enc, "mage")


def test_g_26_g5_readying_a_weapon_loses_a_ready_spell() -> None:
    enc = _caster()
    end_round(enc)
    play_round(enc, {"mage": {"mode": "stationary", "ready": "Sword"}})
    fizzle = last(enc, "fizzle")
    assert fizzle.rule == "G-26" and "before readying the Sword" in fizzle.text
    assert "release_spell" not in kinds(enc, "mage")


def test_g_26_g6_beginning_another_spell_loses_the_ready_one() -> None:
    enc = _caster()
    end_round(enc)
    play_round(enc, {}, post={"mage": {"spell": "Spark"}})
    assert "before beginning Spark" in last(enc, "fizzle").text
    assert last(enc, "cast").data["spell"] == "Spark"
