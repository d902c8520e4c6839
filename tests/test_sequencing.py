"""Sequencing: turn steps, the clock, and hidden simultaneous declarations."""

from __future__ import annotations

import pytest

from hexcombat.errors import IllegalActionError
from hexcombat.sequencing import Clock, Declarations, StepDef, TurnSequence

pytestmark = pytest.mark.pyodide

PHASE = TurnSequence(
    "phase",
    (
        StepDef("declare", "Declare speed", "declare", simultaneous=True),
        StepDef("h1", "Half-phase 1", "move"),
        StepDef("h2", "Half-phase 2", "move"),
        StepDef("combat", "Combat", "act"),
    ),
)


def test_clock_walks_steps_and_rolls_over_into_the_next_unit() -> None:
    clock = Clock()
    seen = []
    for _ in range(6):
        seen.append((clock.turn, clock.current(PHASE).id))
        clock = clock.advanced(PHASE)
    assert seen == [(1, "declare"), (1, "h1"), (1, "h2"), (1, "combat"), (2, "declare"), (2, "h1")]


def test_clock_label_and_json_name_the_unit_and_step() -> None:
    clock = Clock(3, 2)
    assert clock.label(PHASE) == "Phase 3 · Half-phase 2"
    data = clock.to_json(PHASE)
    assert data["turn"] == 3 and data["step"]["id"] == "h2" and len(data["steps"]) == 4


def test_sequence_needs_distinct_step_ids() -> None:
    with pytest.raises(ValueError, match="distinct"):
        TurnSequence("round", (StepDef("a", "A", "act"), StepDef("a", "B", "act")))


def test_declarations_stay_hidden_until_everyone_has_declared() -> None:
    store: dict[str, object] = {}
    decl = Declarations(store)
    expected = ["ann", "bo"]
    decl.declare("bo", {"speed": 2}, expected)
    assert decl.waiting_for(expected) == ["ann"]
    assert not decl.complete(expected)
    with pytest.raises(IllegalActionError, match="waiting for ann"):
        decl.revealed(expected)
    decl.declare("ann", {"speed": 1}, expected)
    assert decl.revealed(expected) == {"ann": {"speed": 1}, "bo": {"speed": 2}}
    assert store == {"ann": {"speed": 1}, "bo": {"speed": 2}}


def test_declarations_refuse_a_second_or_unexpected_declaration() -> None:
    decl = Declarations({})
    decl.declare("ann", 1, ["ann"])
    with pytest.raises(IllegalActionError, match="already declared"):
        decl.declare("ann", 2, ["ann"])
    with pytest.raises(IllegalActionError, match="nothing to declare"):
        decl.declare("cy", 2, ["ann"])
