"""Random legal playouts of two-action-2d10, and hidden declarations entered in any order.

Three fighters (spear and shield, axe, bow) are played with random offered actions
under random options: after every action the invariants hold (no figure off the
board or in a wall, one figure a hex, hit and body points within bounds), refused
actions change nothing, and the saved document replays to the same state and
events. Declarations entered in any order give the same state (TA-27).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from two_action_2d10_fixtures import BO_AT, duel, make, play_signature, signature, to_step

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.document import from_document, to_document
from hexcombat.geometry import neighbor
from hexcombat.validation import Json

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared playouts
from playouts import assert_replays_exactly, playout, random_action

pytestmark = pytest.mark.pyodide

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ta.defence_mode": st.sampled_from(["max", "parry_reduces_surplus"]),
        "ta.block_scope": st.sampled_from(["all", "one_attacker"]),
        "ta.guard_scope": st.sampled_from(["one_attacker", "all"]),
        "ta.block_shield_risk": st.booleans(),
        "ta.fumble_rule": st.sampled_from(["double_one", "miss_by_10"]),
        "ta.closed_order": st.sampled_from(["reverse", "normal"]),
        "ta.mutual_wait": st.sampled_from(["explicit_wait_only", "no_attacks"]),
        "ta.move_extra": st.sampled_from(["additive", "total"]),
        "ta.missile_parry": st.booleans(),
        "ta.counter_strike_step": st.sampled_from(["riposte", "immediate"]),
        "ta.simultaneous": st.sampled_from(["both_strike", "setup_order"]),
        "ta.down_at_zero_bp": st.booleans(),
        "ta.hp_base": st.integers(0, 4),
        "core.hidden_declarations": st.booleans(),
    },
)


def melee(options: dict[str, object], seed: int) -> Encounter:
    """Ann (axe) and Bo (spear, shield) face to face, Cy (sword, bow) beside Bo."""
    enc = duel(options=options, seed=seed, shield=True, health=3)  # type: ignore[arg-type]
    return make(enc, "cy", "Cy", "Blue", neighbor(BO_AT, 0), 3, weapon="sword", missile="bow")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ta_27_random_playouts_keep_invariants_and_replay_exactly(data: st.DataObject) -> None:
    options = data.draw(OPTIONS)
    seed = data.draw(st.integers(0, 10**6))
    enc = melee(options, seed)

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    assert playout(enc, pick, 60) == []
    assert_replays_exactly(enc)


def _state(enc: Encounter) -> dict[str, object]:
    figures = {f.id: f.to_json() for f in enc.state.figures.values()}
    revealed = [e.to_json() for e in enc.events if e.kind != "hidden"]
    return {"figures": figures, "events": revealed, "clock": enc.state.clock}


DECLARATIONS = {
    "ann": {"first": "attack", "second": "parry", "target": "bo", "guard": "bo"},
    "bo": {"first": "attack", "second": "attack", "combine": True, "target": "ann"},
    "cy": {"first": "attack", "second": "dodge", "target": "bo", "guard": "bo"},
}


@pytest.mark.parametrize("order", list(itertools.permutations(DECLARATIONS)))
def test_ta_27_declarations_in_any_order_give_the_same_round(order: tuple[str, ...]) -> None:
    """The three declarations entered in each of the 6 orders: the same reveal, the same
    strike order, the same blows with the same seeded dice."""
    reference = melee({}, 5)
    for fid in DECLARATIONS:
        reference.perform(Action("declare", fid, DECLARATIONS[fid]))
    to_step(reference, "combat")
    enc = melee({}, 5)
    for fid in order:
        enc.perform(Action("declare", fid, DECLARATIONS[fid]))
    to_step(enc, "combat")
    assert _state(enc) == _state(reference)
    assert enc.ruleset.acting(enc.state) == reference.ruleset.acting(reference.state)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ta_1_random_declarations_in_any_order_change_nothing(data: st.DataObject) -> None:
    """Random legal declarations for three figures, entered in every order (hidden)."""
    enc = melee({}, data.draw(st.integers(0, 1000)))
    plans = {}
    for fid in ("ann", "bo", "cy"):
        first = data.draw(st.sampled_from(["attack", "parry", "dodge", "move", "other", "wait"]))
        second = data.draw(st.sampled_from(["none", "other", "move"]))
        enemy = "bo" if fid != "bo" else "ann"
        plan: dict[str, Json] = {"first": first, "second": second}
        if first == second == "other":  # one Other activity with both actions (TA-3)
            plan["combine"] = True
        if "attack" in (first, second):  # the form offers a target only then (D-18)
            plan["target"] = enemy
        if {"parry", "dodge"} & {first, second}:  # and a guard only for these (D-2)
            plan["guard"] = enemy
        plans[fid] = plan
    outcomes = []
    for order in itertools.permutations(plans):
        e = enc.copy()
        for fid in order:
            e.perform(Action("declare", fid, plans[fid]))
        e.perform(Action("next_step"))
        outcomes.append(_state(e))
    assert all(o == outcomes[0] for o in outcomes)


def test_ta_13_the_signature_round_replays_from_its_document() -> None:
    enc = signature()
    play_signature(enc)
    again = from_document(to_document(enc))
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ta_8_every_offered_action_previews_with_odds_summing_to_1(data: st.DataObject) -> None:
    """What the page does before each action: preview it (exact odds of every rollable and
    of each variant sum to 1), then perform it."""
    enc = melee(data.draw(OPTIONS), data.draw(st.integers(0, 10**6)))

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    for _ in range(50):
        action = random_action(enc, pick)
        if action is None:
            break
        try:
            preview = enc.preview(action)
        except HexcombatError:
            continue
        for r in preview.rollables:
            for each in (r, *(v.rollable for v in r.variants)):
                assert sum(o.chance for o in each.outcomes()) == 1
            assert preview.to_json()["rollables"]
        try:
            enc.perform(action)
        except HexcombatError:
            continue
