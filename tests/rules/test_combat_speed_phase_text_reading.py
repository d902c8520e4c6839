"""combat-speed-phase: the combat step as the chosen resolver plays it, and who is in reach
shown whatever resolves strikes, on the text's own chase (C-1, CSP-17, C-13)."""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import e2_encounter, play_e2

from hexcombat import Action
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
