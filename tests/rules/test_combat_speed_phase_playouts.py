"""Random legal playouts of combat-speed-phase, and hidden choices entered in any order.

A close duel (and the E-2 chase) is played with random offered actions under
random options: after every action the invariants hold (no figure off the
board or in a wall, one figure a hex, hit points within bounds, N within its
limits, hexes within N x CS), refused actions change nothing, and the saved
document replays to the same state and events. Declarations and half-phase
plans entered in any order give the same state (CSP-8: order-free).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from combat_speed_phase_fixtures import E2_PHASES, add, e2_encounter, next_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexcombat import Action, Encounter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared playouts
from playouts import assert_replays_exactly, playout

pytestmark = pytest.mark.pyodide

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "csp.combat_resolver": st.sampled_from(["gm", "skirmish", "none"]),
        "csp.fast_move_penalty": st.sampled_from(["hook_no_shield", "no_attack_no_shield"]),
        "csp.facing_cost": st.sampled_from(["per_hexside", "per_change"]),
        "csp.direction_memory_across_phases": st.booleans(),
        "csp.half_phase_stop": st.sampled_from(["keeps_motion", "standstill"]),
        "csp.mixed_direction_rule": st.sampled_from(["n_at_most_2", "count_hexes"]),
        "csp.speed_basis": st.sampled_from(["declared", "moved"]),
        "csp.turn_cost_split": st.sampled_from(["span", "no_borrow"]),
        "csp.collision_rule": st.sampled_from(["stop", "priority"]),
        "csp.narrative_distance": st.sampled_from(["distance", "gap"]),
        "csp.hit_points": st.sampled_from(["track", "none"]),
        "csp.tick_timing": st.sampled_from(["per_hex", "per_step"]),
        "csp.turn_into_next_phase": st.booleans(),
        "csp.starting_motion": st.sampled_from(["still", "combat_speed", "running"]),
        "csp.strike_effects": st.sampled_from(["at_once", "end_of_combat"]),
    },
).filter(  # no hit points cannot go with a borrowed roll that deals damage (R-3)
    lambda o: not (o.get("csp.hit_points") == "none" and o.get("csp.combat_resolver") == "skirmish")
)


def melee(options: dict[str, object], seed: int) -> Encounter:
    enc = Encounter.new("combat-speed-phase", 7, 7, name="Melee", options=options, seed=seed)  # type: ignore[arg-type]
    enc = add(enc, "ann", (1, 3), side="A", facing=2, cs=2, weapon="Spear", shield=True)
    enc = add(enc, "bob", (4, 3), side="B", facing=5, cs=3, weapon="Short sword")
    return add(enc, "cy", (3, 5), side="B", facing=0, cs=1, weapon="Pole arm")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_csp_8_random_playouts_keep_invariants_and_replay_exactly(data: st.DataObject) -> None:
    options = data.draw(OPTIONS)
    seed = data.draw(st.integers(0, 10**6))
    enc = melee(options, seed) if data.draw(st.booleans()) else e2_encounter(options, seed=seed)

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    assert playout(enc, pick, 45) == []
    assert_replays_exactly(enc)


def _state(enc: Encounter) -> dict[str, object]:
    figures = {f.id: f.to_json() for f in enc.state.figures.values()}
    revealed = [e.to_json() for e in enc.events if e.kind not in ("hidden",)]
    return {"figures": figures, "events": revealed, "clock": enc.state.clock}


@pytest.mark.parametrize("order", list(itertools.permutations(["guard", "derek"])))
def test_csp_8_c7_e2_entry_order_changes_nothing(order: tuple[str, ...]) -> None:
    """E-2's declarations and every half's plans, entered in either order: the same chase."""
    results = []
    for first in (order, order[::-1]):
        enc = e2_encounter()
        for number, (speeds, halves) in enumerate(E2_PHASES, start=1):
            if number > 1:
                next_step(enc)
            for fid in first:
                enc.perform(Action("declare_speed", fid, {"n": speeds[fid]}))
            next_step(enc)
            for plans in halves:
                for fid in first:
                    plan = plans[fid]
                    params = {"to": plan} if isinstance(plan, str) else dict(plan)
                    enc.perform(Action("plan_half", fid, params))
                next_step(enc)
        results.append(_state(enc))
    assert results[0] == results[1]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_csp_8_c11_three_movers_in_any_order_meet_the_same_fate(data: st.DataObject) -> None:
    """Three figures plan moves (often into the same hexes); any entry order, same result."""
    enc = melee({}, 1)
    enc.perform(Action("declare_speed", "ann", {"n": 1}))
    enc.perform(Action("declare_speed", "bob", {"n": 1}))
    enc.perform(Action("declare_speed", "cy", {"n": 1}))
    next_step(enc)
    plans = {}
    for fid in ("ann", "bob", "cy"):
        spec = next(a for a in enc.legal_actions(fid) if a.kind == "plan_half")
        hexes = [c.value for c in spec.param("to").choices]
        plans[fid] = hexes[data.draw(st.integers(0, len(hexes) - 1))]
    outcomes = []
    for order in itertools.permutations(plans):
        e = enc.copy()
        for fid in order:
            e.perform(Action("plan_half", fid, {"to": plans[fid]}))
        outcomes.append(_state(e))
    assert all(o == outcomes[0] for o in outcomes)
