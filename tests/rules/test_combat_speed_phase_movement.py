"""combat-speed-phase movement rules by rule id: CS, allowances, half-phases, turn costs,
acceleration and stopping, direction limits, and the gap options that shape them."""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import (
    act,
    add,
    arena,
    choices,
    declare,
    half,
    kinds,
    last,
    next_step,
    run_phase,
)

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.board import Board
from hexcombat.geometry import neighbors
from hexcombat.layout import from_offset
from hexcombat.movement import Pose, validate_path
from hexcombat.rulesets.combat_speed_phase import (
    MoveRules,
    PhaseRecord,
    allowance,
    change_cost,
    half_allowance,
    half_split,
    max_running_speed,
    may_run,
    moved_multiple,
    offered_multiples,
    step_function,
)
from hexcombat.rulesets.combat_speed_phase.speed import why_not
from hexcombat.rulesets.registry import get_ruleset
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

RS = get_ruleset("combat-speed-phase")
BOARD = Board(9, 9, RS.terrain, {})
START = Pose(Hex(4, 4), 0)  # facing north: F is Hex(4, 3)


def cell(c: int, r: int) -> str:
    return str(from_offset(c, r))


def plan(rules: MoveRules, allowance_: int, *poses: Pose, start: Pose = START) -> int:
    """The cost of a planned chain of poses (ValueError when it cannot be made)."""
    steps = validate_path(start, step_function(BOARD, [], rules), allowance_, list(poses))
    return sum(s.cost for s in steps)


def solo(options: dict[str, object] | None = None, **stats: object) -> Encounter:
    """One figure (CS 3 unless given) at offset (4, 6) facing north, an enemy far away."""
    enc = arena(options, width=9, height=12)  # type: ignore[arg-type]
    enc = add(enc, "ann", (4, 6), side="A", **stats)  # type: ignore[arg-type]
    return add(enc, "foe", (0, 0), side="B", facing=3)


def qualified(enc: Encounter) -> Encounter:
    """Ann spends phase 1 at N = 1 moving 3 hexes north (CSP-13); the foe stands still."""
    run_phase(enc, {"ann": 1, "foe": 0}, {"ann": cell(4, 4)}, {"ann": cell(4, 3)})
    next_step(enc)
    return enc


# ---- CS, M and the half-phase split ------------------------------------------------------------


def test_csp_1_combat_speed_is_a_figure_field_shown_in_the_panel() -> None:
    field = next(f for f in RS.figure_fields if f.name == "cs")
    assert (field.default, field.minimum, field.rule) == (3, 1, "CSP-1")
    enc = solo(cs=4)
    ann = next(f for f in encounter_view(enc)["figures"] if f["id"] == "ann")
    assert ann["extra"]["cs_hexes"] == 4


def test_csp_2_maximum_running_speed_is_six_times_cs() -> None:
    assert [max_running_speed(cs) for cs in (1, 2, 3)] == [6, 12, 18]
    assert allowance(6, 3) == 18
    with pytest.raises(ValueError):
        allowance(7, 3)
    enc = qualified(solo())
    spec = next(a for a in enc.legal_actions("ann") if a.kind == "declare_speed")
    labels = [c.label for c in spec.param("n").choices]
    assert labels[-1] == "6 x CS = 18 hexes (9 + 9)"


def test_csp_4_at_combat_speed_up_to_cs_hexes_a_phase() -> None:
    enc = solo()
    declare(enc, ann=1, foe=0)
    assert cell(4, 4) in choices(enc, "ann", "plan_half", "to")  # 2 in the first half
    assert cell(4, 3) not in choices(enc, "ann", "plan_half", "to")
    half(enc, ann=cell(4, 4))
    next_step(enc)
    second = choices(enc, "ann", "plan_half", "to")
    assert cell(4, 3) in second and cell(4, 2) not in second  # 1 in the second: 3 in all


@pytest.mark.parametrize(
    ("m", "split"),
    [(1, (1, 0)), (2, (1, 1)), (3, (2, 1)), (4, (2, 2)), (5, (3, 2)), (6, (3, 3)),
     (7, (4, 3)), (8, (4, 4)), (9, (5, 4)), (10, (5, 5)), (11, (6, 5)), (12, (6, 6))],
)  # fmt: skip
def test_csp_9_half_split_first_half_rounds_up_second_down(m: int, split: tuple[int, int]) -> None:
    assert half_split(m) == split
    assert (half_allowance(m, 1), half_allowance(m, 2)) == split
    assert sum(split) == m


def test_csp_9_i1_nine_hexes_split_five_and_four() -> None:
    assert half_split(allowance(3, 3)) == (5, 4)  # "9/2 = 5" rounded up (I-1)
    assert half_split(allowance(1, 3)) == (2, 1)  # "3/2 = 2"
    assert half_split(allowance(1, 2)) == (1, 1)  # "2/2 = 1"


def test_csp_10_i2_unused_first_half_is_lost() -> None:
    enc = solo(cs=2)
    declare(enc, ann=1, foe=0)
    events = half(enc, ann=cell(4, 6))  # stays in H1
    assert last(enc, "move", "ann").data["allowance"] == 1
    assert "lost, CSP-10" in next(e.text for e in events if e.kind == "move")
    next_step(enc)
    assert cell(4, 5) in choices(enc, "ann", "plan_half", "to")
    assert cell(4, 4) not in choices(enc, "ann", "plan_half", "to")  # only H2's 1 hex


# ---- direction and facing ---------------------------------------------------------------


def test_csp_5_from_a_standstill_any_direction_costs_one() -> None:
    rules = MoveRules(1, 3)
    for d in range(6):
        target = (
            Hex(4, 4) + [Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0)][d]
        )
        assert plan(rules, 3, Pose(target, 0)) == 1


def test_csp_6_e1_three_legal_ways_to_spend_cs_3() -> None:
    rules = MoveRules(1, 3)
    f1 = Hex(4, 3)
    # 1) F, F, F
    assert plan(rules, 3, Pose(f1, 0), Pose(Hex(4, 2), 0), Pose(Hex(4, 1), 0)) == 3
    # 2) F, turn one hexside, F (forward relative to the new facing: no direction cost)
    assert plan(rules, 3, Pose(f1, 0), Pose(f1, 1), Pose(Hex(5, 2), 1)) == 3
    # 3) F, change direction to the rear, B
    assert plan(rules, 3, Pose(f1, 0), Pose(f1, 0, "B"), Pose(Hex(4, 4), 0, "B")) == 3


def test_csp_6_c3_e1_negative_sequences_and_the_per_change_option() -> None:
    rules = MoveRules(1, 3)
    f1 = Hex(4, 3)
    with pytest.raises(ValueError, match="0 points left"):
        plan(rules, 3, Pose(f1, 0), Pose(f1, 1), Pose(Hex(5, 2), 1), Pose(Hex(6, 1), 1))
    turn2 = (Pose(f1, 0), Pose(f1, 1), Pose(f1, 2), Pose(Hex(5, 3), 2))
    with pytest.raises(ValueError):
        plan(rules, 3, *turn2)  # 1 + 2 + 1 = 4 per hexside
    assert plan(rules, 4, *turn2) == 4
    per_change = MoveRules(1, 3, facing_cost="per_change")
    assert plan(per_change, 3, Pose(f1, 0), Pose(f1, 2), Pose(Hex(5, 3), 2)) == 3


def test_csp_7_starting_and_stopping_are_free() -> None:
    rules = MoveRules(1, 3)
    assert plan(rules, 3, Pose(Hex(4, 5), 0, "B")) == 1  # a B step from a standstill
    moving = Pose(Hex(4, 4), 0, "F")
    assert plan(rules, 3, Pose(Hex(4, 5), 0, "B"), start=START) == 1
    with pytest.raises(ValueError):  # once moving F, B needs the change first
        plan(rules, 1, Pose(Hex(4, 5), 0, "B"), start=moving)


def test_csp_7_c4_direction_memory_crosses_phases_until_a_standstill() -> None:
    enc = solo()
    run_phase(enc, {"ann": 1, "foe": 0}, {"ann": cell(4, 5)})  # F
    next_step(enc)
    declare(enc, ann=1, foe=0)
    assert cell(4, 6) in choices(enc, "ann", "plan_half", "to")  # change 1 + B 1 = 2 = H1
    act(enc, "plan_half", "ann", to=cell(4, 6))
    assert last(enc, "move", "ann").data["spent"] == 2  # 1 extra for the change (C-4)
    next_step(enc)
    act(enc, "plan_half", "ann", to=cell(4, 6))
    next_step(enc)
    next_step(enc)  # phase 3: a standstill clears the memory
    run_phase(enc, {"ann": 0, "foe": 0})
    next_step(enc)
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 5))  # F first: free start, 1 hex
    assert last(enc, "move", "ann").data["spent"] == 1


def test_csp_7_c14_turning_while_standing_costs_one_and_counts_as_stationary() -> None:
    enc = solo()
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 6), facing=1)
    assert last(enc, "move", "ann").data["spent"] == 1
    next_step(enc)
    act(enc, "plan_half", "ann", to=cell(4, 6))
    next_step(enc)
    next_step(enc)
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1]  # no hex entered: stationary


def test_csp_7_c14_a_turn_in_place_is_logged_as_a_turn() -> None:
    enc = solo()
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 6), facing=1)
    text = last(enc, "move", "ann").text  # it was logged as a change of direction of motion
    assert text == "Ann stays at E7 and turns to face north-east (1 of 2 in half-phase 1)"


# ---- speed limits -------------------------------------------------------------------------


def test_csp_13_c8_a_stationary_figure_may_not_run_until_a_phase_at_cs() -> None:
    enc = solo()
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1]
    with pytest.raises(IllegalActionError, match="phase moving at Combat Speed"):
        act(enc, "declare_speed", "ann", n=3)
    assert choices(qualified(enc), "ann", "declare_speed", "n") == [0, 1, 2, 3, 4, 5, 6]
    assert may_run(PhaseRecord(1, 1), 3) and not may_run(PhaseRecord(1, 0), 3)
    assert "phase moving at Combat Speed" in why_not(3, PhaseRecord(), 3, on_knees=False, rule="")
    assert "(CSP-16)" in why_not(0, PhaseRecord(3, 9), 3, on_knees=False, rule="")
    assert "CSP-12)" in why_not(3, PhaseRecord(1, 3), 3, on_knees=True, rule="")


def test_csp_13_c8_exactly_cs_option_needs_cs_hexes() -> None:
    assert not may_run(PhaseRecord(1, 2), 3, "exactly_cs")
    assert may_run(PhaseRecord(1, 3), 3, "exactly_cs")
    enc = solo({"csp.cs_phase_rule": "exactly_cs"})
    run_phase(enc, {"ann": 1, "foe": 0}, {"ann": cell(4, 4)})  # 2 of 3 hexes
    next_step(enc)
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1]


def test_csp_14_once_qualified_any_multiple_no_build_up() -> None:
    assert offered_multiples(PhaseRecord(1, 3), 3, on_knees=False)[-1] == 6
    assert offered_multiples(PhaseRecord(3, 9), 3, on_knees=False) == [1, 2, 3, 4, 5, 6]
    enc = qualified(solo())
    declare(enc, ann=6, foe=0)
    assert cell(4, 0) in choices(enc, "ann", "plan_half", "to")


def test_csp_12_on_its_knees_n_is_at_most_one() -> None:
    assert offered_multiples(PhaseRecord(1, 3), 3, on_knees=True) == [0, 1]
    assert offered_multiples(PhaseRecord(3, 9), 3, on_knees=True) == [1]
    enc = qualified(solo(on_knees=True))
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1]


def test_csp_16_after_a_fast_phase_no_stop_then_a_phase_at_cs_then_stop() -> None:
    enc = qualified(solo())
    run_phase(enc, {"ann": 3, "foe": 0}, {"ann": cell(4, 0)})
    next_step(enc)
    assert choices(enc, "ann", "declare_speed", "n") == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalActionError):
        act(enc, "declare_speed", "ann", n=0)
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 1))  # back 1 needs a change: 2 = H1
    next_step(enc)
    act(enc, "plan_half", "ann", to=cell(4, 1))
    next_step(enc)
    next_step(enc)
    assert choices(enc, "ann", "declare_speed", "n")[0] == 0


def test_csp_16_r2_the_slowing_phase_must_enter_a_hex() -> None:
    enc = qualified(solo())
    run_phase(enc, {"ann": 3, "foe": 0}, {"ann": cell(4, 0)})
    next_step(enc)
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 0), facing=2)  # turns only: no hex in H1
    next_step(enc)
    assert cell(4, 0) not in choices(enc, "ann", "plan_half", "to")
    enc2 = qualified(solo({"csp.slowing_phase_must_move": False}))
    run_phase(enc2, {"ann": 3, "foe": 0}, {"ann": cell(4, 0)})
    next_step(enc2)
    declare(enc2, ann=1, foe=0)
    act(enc2, "plan_half", "ann", to=cell(4, 0))
    next_step(enc2)
    assert cell(4, 0) in choices(enc2, "ann", "plan_half", "to")


def test_csp_16_c7_speed_basis_declared_or_moved() -> None:
    assert [moved_multiple(h, 3) for h in (0, 1, 3, 4, 9)] == [0, 1, 1, 2, 3]
    for basis, may_stop in (("declared", False), ("moved", True)):
        enc = qualified(solo({"csp.speed_basis": basis}))
        run_phase(enc, {"ann": 3, "foe": 0}, {"ann": cell(4, 1)})  # 2 hexes at N = 3
        assert enc.state.figures["ann"].has_status("impaired")  # C-7: declared N impairs
        next_step(enc)
        assert (0 in choices(enc, "ann", "declare_speed", "n")) is may_stop


def test_csp_11_c6_all_forward_at_6_oblique_only_up_to_2() -> None:
    enc = qualified(solo())
    declare(enc, ann=3, foe=0)
    bl = str(Hex(4, 1) + Hex(-1, 1))  # BL of 4,1 facing north
    reach = choices(enc, "ann", "plan_half", "to")
    assert bl not in reach and cell(4, 0) in reach
    enc = qualified(solo())
    declare(enc, ann=2, foe=0)
    assert bl in choices(enc, "ann", "plan_half", "to")  # change 2 + BL 1 = 3 = H1
    rules = MoveRules(3, 3)
    assert not rules.allows("BL", 0) and MoveRules(2, 3).allows("BL", 0)


def test_csp_11_c6_count_hexes_option_counts_backward_and_oblique_hexes() -> None:
    rules = MoveRules(3, 1, mixed="count_hexes")
    assert rules.allows("B", 1) and not rules.allows("B", 2)  # at most 2 x CS = 2
    enc = qualified(solo({"csp.mixed_direction_rule": "count_hexes"}))
    declare(enc, ann=3, foe=0)
    bl = str(Hex(4, 1) + Hex(-1, 1))
    assert bl in choices(enc, "ann", "plan_half", "to")  # change 3 + BL 1 = 4 <= 5


def test_csp_11_c5_front_obliques_count_as_forward_with_the_option() -> None:
    assert not MoveRules(3, 3).allows("FL", 0)
    assert MoveRules(3, 3, forward=frozenset({"F", "FL", "FR"})).allows("FL", 0)
    enc = qualified(solo({"csp.forward_dirs": "F_FL_FR"}))
    declare(enc, ann=3, foe=0)
    fl = str(Hex(4, 1) + Hex(-1, 0))
    assert fl in choices(enc, "ann", "plan_half", "to")


def test_csp_15_at_n_3_a_facing_change_costs_3() -> None:
    assert [change_cost(n) for n in (1, 2, 3, 6)] == [1, 2, 3, 6]
    enc = qualified(solo())
    declare(enc, ann=3, foe=0)
    pv = enc.preview(Action("plan_half", "ann", {"to": cell(4, 3), "facing": 1}))
    assert pv.allowed and pv.cost == 3
    assert "3 hexes at N = 3 (CSP-15, C-3)" in pv.notes[0]
    half(enc, ann={"to": cell(4, 3), "facing": 1})  # N is shown with the first half (C-7)
    ann = next(f for f in encounter_view(enc)["figures"] if f["id"] == "ann")
    assert ann["extra"]["turn_cost"] == "3 hexes"


def test_csp_15_c10_a_cs_1_figure_at_n_2_turns_across_the_halves() -> None:
    rules = MoveRules(2, 1, span_room=1)
    assert plan(rules, 1, Pose(Hex(4, 4), 1)) == 1  # 1 now, 1 from the second half
    with pytest.raises(ValueError):
        plan(MoveRules(2, 1), 1, Pose(Hex(4, 4), 1))
    enc = solo(cs=1)
    run_phase(enc, {"ann": 1, "foe": 0}, {"ann": cell(4, 5)})
    next_step(enc)
    declare(enc, ann=2, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 5), facing=1)
    move = last(enc, "move", "ann")
    assert (move.data["spent"], move.data["debt"], move.data["facing"]) == (1, 1, 1)
    next_step(enc)
    assert "plan_half" not in kinds(enc, "ann")  # H2 = 1, all taken by the turn
    enc = solo({"csp.turn_cost_split": "no_borrow"}, cs=1)
    run_phase(enc, {"ann": 1, "foe": 0}, {"ann": cell(4, 5)})
    next_step(enc)
    declare(enc, ann=2, foe=0)
    with pytest.raises(IllegalActionError, match="cannot reach"):
        act(enc, "plan_half", "ann", to=cell(4, 5), facing=1)


# ---- simultaneous movement ----------------------------------------------------------------


def two_into_one(options: dict[str, object] | None = None, bob_cs: int = 3) -> Encounter:
    enc = arena(options)  # type: ignore[arg-type]
    enc = add(enc, "ann", (2, 4), side="A", facing=2)
    return add(enc, "bob", (4, 4), side="B", facing=5, cs=bob_cs)


def test_csp_8_c11_two_figures_stepping_into_one_hex_both_stop() -> None:
    enc = two_into_one()
    declare(enc, ann=1, bob=1)
    mid = str(from_offset(2, 4) + Hex(1, 0))
    assert mid in choices(enc, "ann", "plan_half", "to") and mid in choices(
        enc, "bob", "plan_half", "to"
    )
    half(enc, ann=mid, bob=mid)
    assert last(enc, "move", "ann").data["stopped"] and last(enc, "move", "bob").data["stopped"]
    assert str(enc.state.figures["ann"].position) == cell(2, 4)


def test_csp_8_c11_priority_option_lets_the_faster_figure_on() -> None:
    enc = two_into_one({"csp.collision_rule": "priority"}, bob_cs=4)
    declare(enc, ann=1, bob=1)
    mid = str(from_offset(2, 4) + Hex(1, 0))
    half(enc, ann=mid, bob=mid)
    assert str(enc.state.figures["bob"].position) == mid
    assert str(enc.state.figures["ann"].position) == cell(2, 4)


# ---- ticks inside a half-phase (R-4) ---------------------------------------------------------


def turn_race(options: dict[str, object] | None = None) -> tuple[Encounter, str, str]:
    """Ann (qualified, N = 2) turns one hexside (2 hexes) and steps into X; Bob (N = 1) steps
    twice into X from a standstill. Returns the encounter in half-phase 1, Ann's and Bob's
    starting hexes."""
    enc = arena(options, width=9, height=12)  # type: ignore[arg-type]
    enc = add(enc, "ann", (4, 6), side="A")
    x = neighbors(from_offset(4, 5))[1]  # north-east of the hex Ann walks to in phase 1
    bob = neighbors(neighbors(x)[2])[2]  # two hexes south-east of X, facing north-west
    enc = enc.with_figure(RS.new_figure("bob", "Bob", "B", bob, 5))
    run_phase(enc, {"ann": 1, "bob": 0}, {"ann": cell(4, 5)})
    next_step(enc)
    declare(enc, ann=2, bob=1)
    act(enc, "plan_half", "ann", to=str(x), facing=1)
    act(enc, "plan_half", "bob", to=str(x))
    return enc, cell(4, 5), str(bob)


def test_csp_15_r4_a_turn_at_n_2_holds_the_figure_two_ticks_by_default() -> None:
    enc, ann, _ = turn_race()
    x = last(enc, "move", "bob").data["to"]
    assert last(enc, "move", "ann").data["stopped"]  # X was Bob's at tick 2
    assert str(enc.state.figures["ann"].position) == ann
    assert enc.state.figures["ann"].facing == 1  # the turn itself was made
    assert str(enc.state.figures["bob"].position) == x
    assert not last(enc, "move", "bob").data["stopped"]


def test_csp_15_r4_one_tick_a_step_lets_the_turner_reach_x_with_bob() -> None:
    enc, ann, bob = turn_race({"csp.tick_timing": "per_step"})
    assert last(enc, "move", "ann").data["stopped"] and last(enc, "move", "bob").data["stopped"]
    assert str(enc.state.figures["ann"].position) == ann  # both entered X at tick 2: both stop
    assert enc.state.figures["bob"].position == neighbors(Hex.parse(bob))[5]


def finish_race(options: dict[str, object] | None = None) -> tuple[Encounter, Hex]:
    """Ann (qualified, CS 3, N = 2: 3 + 3 hexes) runs 2 north and turns north-east in
    half-phase 1 (1 hex now, 1 from the second half, C-10), then steps into Y; Bob (CS 4,
    N = 1: 2 + 2) waits out half-phase 1 and steps twice into Y. Returns the encounter after
    half-phase 2, and Y."""
    enc = arena(options, width=9, height=12)  # type: ignore[arg-type]
    enc = add(enc, "ann", (4, 6), side="A")
    y = neighbors(from_offset(4, 3))[1]
    bob = neighbors(neighbors(y)[2])[2]
    figure = RS.new_figure("bob", "Bob", "B", bob, 5)
    figure.stats["cs"] = 4
    enc = enc.with_figure(figure)
    run_phase(enc, {"ann": 1, "bob": 0}, {"ann": cell(4, 5)})
    next_step(enc)
    declare(enc, ann=2, bob=1)
    half(enc, ann={"to": cell(4, 3), "facing": 1}, bob=str(bob))
    assert last(enc, "move", "ann").data["debt"] == 1
    next_step(enc)
    half(enc, ann=str(y), bob=str(y))
    return enc, y


def test_csp_15_c10_r4_a_turn_finished_in_the_second_half_holds_the_figure_first() -> None:
    enc, y = finish_race()
    assert last(enc, "move", "ann").data["stopped"] and last(enc, "move", "bob").data["stopped"]
    assert str(enc.state.figures["ann"].position) == cell(4, 3)  # both entered Y at tick 2
    enc, y = finish_race({"csp.tick_timing": "per_step"})
    assert enc.state.figures["ann"].position == y  # the turn was its step in half-phase 1
    assert last(enc, "move", "bob").data["stopped"]


# ---- a turn begun in the second half (R-5) -----------------------------------------------------


def turn_late(options: dict[str, object] | None = None) -> Encounter:
    """Ann, qualified, declares N = 2 (3 + 3 hexes), stands in half-phase 1 and is in
    half-phase 2, where turning two hexsides costs 4."""
    enc = qualified(solo(options))
    declare(enc, ann=2, foe=0)
    half(enc, ann=cell(4, 3))
    next_step(enc)
    return enc


def test_csp_15_c10_r5_by_default_a_turn_must_fit_in_the_second_half() -> None:
    enc = turn_late()
    with pytest.raises(IllegalActionError, match="cannot reach"):
        act(enc, "plan_half", "ann", to=cell(4, 3), facing=2)


def test_csp_15_c10_r5_option_a_turn_finishes_at_the_start_of_the_next_phase() -> None:
    enc = turn_late({"csp.turn_into_next_phase": True})
    act(enc, "plan_half", "ann", to=cell(4, 3), facing=2)
    move = last(enc, "move", "ann")
    assert (move.data["spent"], move.data["debt"], move.data["facing"]) == (3, 1, 2)
    assert any("next phase" in d for d in move.details)
    next_step(enc)
    next_step(enc)  # the combat step ends the phase
    assert (
        "finishes its turn with the first 1 hex of next phase (R-5)"
        in last(enc, "phase_end", "ann").text
    )
    assert choices(enc, "ann", "declare_speed", "n") == [1]  # it may not stand still
    declare(enc, ann=1, foe=0)
    assert RS.half_left(enc.state, enc.state.figures["ann"]) == 1  # 2 less the 1 owed
    half(enc, ann=cell(4, 2))
    assert last(enc, "move", "ann").data["allowance"] == 1
    next_step(enc)
    assert RS.half_left(enc.state, enc.state.figures["ann"]) == 1  # the second half is whole
    enc = turn_late({"csp.turn_into_next_phase": True, "csp.turn_cost_split": "no_borrow"})
    with pytest.raises(IllegalActionError, match="cannot reach"):
        act(enc, "plan_half", "ann", to=cell(4, 3), facing=2)


# ---- how figures start (R-6) ---------------------------------------------------------------------


def test_csp_13_r6_figures_start_still_by_default() -> None:
    enc = solo()
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1]  # CSP-13: not yet qualified
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 7))  # a first step backward: starting is free
    assert last(enc, "move", "ann").data["spent"] == 1


def test_csp_13_csp_16_r6_figures_may_start_at_combat_speed_or_running() -> None:
    enc = solo({"csp.starting_motion": "combat_speed"})
    assert choices(enc, "ann", "declare_speed", "n") == [0, 1, 2, 3, 4, 5, 6]
    assert RS.figure_view(enc.state, enc.state.figures["ann"])["motion_dir"] == "front"
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 7))  # backward after moving forward: a change
    assert last(enc, "move", "ann").data["spent"] == 2
    enc = solo({"csp.starting_motion": "running"})
    assert choices(enc, "ann", "declare_speed", "n") == [1, 2, 3, 4, 5, 6]  # no stop yet
    enc = solo({"csp.starting_motion": "running", "csp.direction_memory_across_phases": False})
    declare(enc, ann=1, foe=1)
    half(enc, ann=cell(4, 7), foe=cell(0, 0))
    assert last(enc, "move", "ann").data["spent"] == 1  # C-4 off: every phase starts afresh
