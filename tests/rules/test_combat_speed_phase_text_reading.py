"""combat-speed-phase: the combat step as the chosen resolver plays it, and who is in reach
shown whatever resolves strikes, on the text's own chase (C-1, CSP-17, C-13)."""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import (
    act,
    add,
    arena,
    choices,
    declare,
    e2_encounter,
    last,
    next_step,
    play_e2,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.layout import from_offset
from hexcombat.view import encounter_view, measure_view

pytestmark = pytest.mark.pyodide


def panel(view: dict[str, object], fid: str) -> dict[str, object]:
    figures = view["figures"]
    assert isinstance(figures, list)
    found = next(f for f in figures if f["id"] == fid)
    extra = found["extra"]
    assert isinstance(extra, dict)
    return extra


@pytest.mark.parametrize(
    ("resolver", "says", "never"),
    [
        ("none", "nobody strikes", "the GM enters"),
        ("gm", "the GM enters each strike's outcome", "nobody strikes"),
        ("skirmish", "d20 to hit", "the GM enters"),
    ],
)
def test_c1_the_combat_step_says_what_the_chosen_resolver_does(
    resolver: str, says: str, never: str
) -> None:
    enc = e2_encounter({"csp.combat_resolver": resolver})
    play_e2(enc)
    assert enc.state.step.id == "combat"
    shown = encounter_view(enc)["time"]
    assert isinstance(shown, dict)
    for text in (enc.state.step.help, str(shown["step"]["help"])):  # type: ignore[index]
        assert says in text and never not in text
    finish = enc.preview(Action("next_step", None, {}))
    assert any(says in n for n in finish.notes)


def test_c1_csp_17_c13_movement_only_still_shows_who_is_in_reach_and_arc() -> None:
    """Phase 3 of the text's chase: Derek steps back to leave two hexes, 'taking advantage of
    the 2+ range of his hand and a half sword against the guard's range 1 short sword'. With
    the default (movement only) each panel says who its weapons reach in their front arc."""
    enc = e2_encounter()
    play_e2(enc)
    view = encounter_view(enc)
    assert panel(view, "derek")["in_reach"] == "The guard (Hand-and-a-half sword, 2 away)"
    assert panel(view, "guard")["in_reach"] == "none"
    state = enc.state
    derek, guard = state.figures["derek"].position, state.figures["guard"].position
    assert "within the reach of the Hand-and-a-half sword" in str(
        measure_view(enc, derek, guard)["band"]
    )
    assert "beyond the reach of the Short sword" in str(measure_view(enc, guard, derek)["band"])


def cell(c: int, r: int) -> str:
    return str(from_offset(c, r))


def stop_then_back(option: str) -> Encounter:
    """CS 3 at N = 1 (halves 2 + 1): one hex forward in the first half, then a stop."""
    enc = arena({"csp.half_phase_stop": option}, width=9, height=12)
    enc = add(enc, "ann", (4, 6), side="A")
    enc = add(enc, "foe", (0, 0), side="B", facing=3)
    declare(enc, ann=1, foe=0)
    act(enc, "plan_half", "ann", to=cell(4, 5))  # F 1 of 2: 1 hex unused, a stop
    next_step(enc)
    return enc


def test_c4_csp_7_by_default_a_stop_in_the_first_half_keeps_the_direction_of_motion() -> None:
    """E-1: 'F' in the first half then 'change, B' in the second is illegal for CS 3 (the
    change costs a hex the second half does not have)."""
    enc = stop_then_back("keeps_motion")
    assert cell(4, 6) not in choices(enc, "ann", "plan_half", "to")
    with pytest.raises(IllegalActionError):
        act(enc, "plan_half", "ann", to=cell(4, 6))


def test_c4_csp_7_with_standstill_the_second_half_starts_backward_for_free() -> None:
    """'Starting to move from a stationary position or stopping is free': with the option a
    figure that stopped in the first half starts the second half backward for 1 hex."""
    enc = stop_then_back("standstill")
    assert cell(4, 6) in choices(enc, "ann", "plan_half", "to")
    act(enc, "plan_half", "ann", to=cell(4, 6))
    assert last(enc, "move", "ann").data["spent"] == 1
