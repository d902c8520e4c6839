"""Time: units and steps, the clock that walks them, who acts now, hidden choices."""

from __future__ import annotations

import pytest

from hexcombat.actions import Action
from hexcombat.errors import IllegalActionError
from hexcombat.time import Acting, Clock, Declarations, StepDef, Time

pytestmark = pytest.mark.pyodide

PHASE = Time(
    ("phase", "half-phase"),
    (
        StepDef("declare", "Declare speed", "declare", unit="phase"),
        StepDef("move", "Movement", "move"),
        StepDef("combat", "Combat", "act", unit="phase"),
    ),
)


def test_following_walks_the_steps_and_rolls_the_innermost_unit_over() -> None:
    clock = PHASE.start()
    assert clock == Clock((1, 1), "declare")
    assert PHASE.following(Clock((2, 1), "move")) == [
        Clock((2, 1), "combat"),
        Clock((2, 2), "declare"),
        Clock((2, 2), "move"),
    ]


def test_rolling_an_outer_unit_restarts_the_inner_ones() -> None:
    assert Clock((2, 2), "combat").rolled(0, "declare") == Clock((3, 1), "declare")


def test_label_counts_the_units_down_to_the_step_s_own() -> None:
    assert PHASE.label(Clock((3, 2), "move")) == "Phase 3 · Half-phase 2 · Movement"
    assert PHASE.label(Clock((3, 2), "declare")) == "Phase 3 · Declare speed"


def test_time_needs_distinct_step_ids_known_units_and_known_kinds() -> None:
    with pytest.raises(ValueError, match="distinct"):
        Time(("round",), (StepDef("a", "A", "act"), StepDef("a", "B", "act")))
    with pytest.raises(ValueError, match="unknown unit"):
        Time(("round",), (StepDef("a", "A", "act", unit="pulse"),))
    with pytest.raises(ValueError, match="kind must be one of"):
        StepDef("a", "A", "simultaneous")


def test_acting_says_who_may_act_now_in_each_mode() -> None:
    order = Acting("figure", ("spear", "sword"), waiting=("sword",))
    assert order.now() == ("sword",) and not order.may_act("spear")
    assert Acting("all", ("a", "b"), waiting=("b",)).now() == ("a", "b")
    assert Acting("all", ("a", "b"), hidden=True, waiting=("b",)).now() == ("b",)
    assert Acting("table").now() == ()
    with pytest.raises(ValueError, match="mode"):
        Acting("everyone")


def test_acting_text_names_the_figures_and_why_they_come_in_this_order() -> None:
    names = {"ann": "Ann", "bo": "Bo", "cy": "Cy"}
    engaged = Acting("all", ("ann", "bo"), waiting=("ann", "bo"), order_notes=("engaged first",))
    assert engaged.text(names) == "Ann and Bo act (engaged first)"
    hidden = Acting("all", ("ann", "bo", "cy"), hidden=True, waiting=("bo", "cy"))
    assert hidden.text(names) == "Waiting for hidden choices from Bo and Cy"
    assert Acting("figure", ("ann", "bo"), waiting=("bo",)).text(names) == "Bo acts"


def test_declarations_wait_for_everyone_and_come_out_in_a_fixed_order() -> None:
    decl = Declarations()
    expected = ["ann", "bo"]
    decl.declare(Action("declare", "bo", {"speed": 2}))
    assert decl.waiting_for(expected) == ["ann"]
    decl.declare(Action("declare", "ann", {"speed": 1}))
    assert decl.waiting_for(expected) == []
    assert [a.figure for a in decl.in_order(expected)] == ["ann", "bo"]
    assert [a.figure for a in decl.in_order(["bo"])] == ["bo", "ann"]


def test_declarations_refuse_a_second_choice_or_one_after_the_reveal() -> None:
    decl = Declarations()
    decl.declare(Action("declare", "ann"))
    with pytest.raises(IllegalActionError, match="already chosen"):
        decl.declare(Action("declare", "ann"))
    decl.revealed = True
    assert decl.waiting_for(["bo"]) == []
    with pytest.raises(IllegalActionError, match="already revealed"):
        decl.declare(Action("declare", "bo"))
