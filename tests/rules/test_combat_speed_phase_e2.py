"""The worked example E-2 (the guard chasing Derek) through the Encounter API, every number.

Spec ``combat-speed-phase.md`` §4 E-2: s = 19 -> 17 -> 15 -> 9 -> 4 -> 2 -> 2 with
the half-phase split of every move, the run at 3 x CS after a phase at Combat
Speed, the slowing phase, Derek's phase-3 change of direction charged in H1
(C-4), and reach 2 against reach 1 at the end.
"""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import (
    E2_SEPARATIONS,
    act,
    choices,
    declare,
    e2_encounter,
    half,
    kinds,
    next_step,
    play_e2,
    row,
    separation,
)

from hexcombat import Action, IllegalActionError
from hexcombat.events import Event

pytestmark = pytest.mark.pyodide


def moves(events: list[Event]) -> dict[str, dict[str, object]]:
    """Each figure's move numbers in one half-phase's events."""
    return {
        str(e.figure): {k: e.data[k] for k in ("hexes", "spent", "allowance", "half")}
        for e in events
        if e.kind == "move"
    }


def speeds(events: list[Event]) -> dict[str | None, dict[str, object]]:
    """Each revealed declaration's numbers (without the clock stamp)."""
    keys = ("n", "m", "h1", "h2", "impaired")
    return {
        e.figure: {k: e.data[k] for k in keys}
        for e in events
        if e.kind == "speed" and e.figure is not None
    }


def seps(events: list[Event]) -> list[object]:
    return [p["separation"] for e in events if e.kind == "separation" for p in e.data["pairs"]]  # type: ignore[index, union-attr]


def test_csp_8_csp_9_csp_10_e2_every_half_phase_of_the_chase() -> None:
    enc = e2_encounter()
    assert separation(enc) == 19  # I-3: derived s0
    # phase 1: both N = 1; guard 3 -> 2 + 1, Derek 2 -> 1 + 1
    assert speeds(declare(enc, guard=1, derek=1)) == {}  # secret until H1's moves (C-7)
    events = half(enc, guard=row(19), derek=row(2))
    speed = speeds(events)
    assert speed["guard"] == {"n": 1, "m": 3, "h1": 2, "h2": 1, "impaired": False}
    assert speed["derek"] == {"n": 1, "m": 2, "h1": 1, "h2": 1, "impaired": False}
    assert moves(events) == {
        "guard": {"hexes": 2, "spent": 2, "allowance": 2, "half": 1},  # 3/2 = 1.5 -> 2
        "derek": {"hexes": 0, "spent": 0, "allowance": 1, "half": 1},  # watches: H1 lost
    }
    assert seps(events) == [17]
    next_step(enc)
    events = half(enc, guard=row(18), derek=row(3))
    assert moves(events) == {
        "guard": {"hexes": 1, "spent": 1, "allowance": 1, "half": 2},
        "derek": {"hexes": 1, "spent": 1, "allowance": 1, "half": 2},  # CSP-10: not 2
    }
    assert seps(events) == [15]  # "This leaves 15 hexes"
    next_step(enc)
    next_step(enc)
    # phase 2: the guard qualified (CSP-13) runs at N = 3: 9 -> 5 + 4, impaired
    assert 3 in choices(enc, "guard", "declare_speed", "n")
    declare(enc, guard=3, derek=1)
    assert not enc.state.figures["guard"].has_status("impaired")  # not shown yet (C-7)
    events = half(enc, guard=row(13), derek=row(4))
    speed = speeds(events)
    assert speed["guard"] == {"n": 3, "m": 9, "h1": 5, "h2": 4, "impaired": True}
    assert enc.state.figures["guard"].has_status("impaired")
    assert moves(events)["guard"] == {"hexes": 5, "spent": 5, "allowance": 5, "half": 1}
    assert moves(events)["derek"]["hexes"] == 1
    assert seps(events) == [9]
    next_step(enc)
    events = half(enc, guard=row(9), derek=row(5))
    assert moves(events)["guard"] == {"hexes": 4, "spent": 4, "allowance": 4, "half": 2}
    assert seps(events) == [4]  # "separated by 4 hexes"
    next_step(enc)
    next_step(enc)
    # phase 3: the guard may not stop (CSP-16) but may drop straight to N = 1 (C-9)
    assert choices(enc, "guard", "declare_speed", "n") == [1, 2, 3, 4, 5, 6]
    declare(enc, guard=1, derek=1)
    assert not enc.state.figures["guard"].has_status("impaired")
    events = half(enc, guard=row(7), derek={"to": row(5), "motion": "B"})
    derek = next(e for e in events if e.kind == "move" and e.figure == "derek")
    assert derek.data["hexes"] == 0 and derek.data["spent"] == 1 and derek.data["motion"] == "B"
    assert "direction of motion front → back" in derek.text  # C-4: last step was F in phase 2
    assert seps(events) == [2]
    next_step(enc)
    events = half(enc, guard=row(6), derek=row(4))
    assert moves(events)["derek"] == {"hexes": 1, "spent": 1, "allowance": 1, "half": 2}
    assert seps(events) == [2]  # "two hexes between them"
    next_step(enc)
    assert enc.state.step.id == "combat"


def test_csp_17_e2_at_two_hexes_the_hand_and_a_half_sword_reaches_and_the_short_sword_not() -> None:
    enc = e2_encounter({"csp.combat_resolver": "gm"})
    assert play_e2(enc) == E2_SEPARATIONS
    assert kinds(enc, "derek") == ["strike"]
    assert choices(enc, "derek", "strike", "target") == ["guard"]
    assert kinds(enc, "guard") == []
    pv = enc.preview(
        Action("strike", "guard", {"weapon": "Short sword", "target": "derek", "outcome": "hit"})
    )
    assert not pv.allowed


def test_csp_16_e2_after_its_slowing_phase_the_guard_may_stop() -> None:
    enc = e2_encounter()
    play_e2(enc)
    next_step(enc)
    assert enc.state.clock.counters == (4, 1)
    assert choices(enc, "guard", "declare_speed", "n")[0] == 0


def test_csp_9_e2_the_demo_of_the_example_replays_the_same_numbers() -> None:
    enc = e2_encounter()
    seen = play_e2(enc)
    assert seen == E2_SEPARATIONS
    texts = [e.text for e in enc.events if e.kind in ("move", "separation")]
    assert texts[:3] == [
        "The guard moves 2 hexes: C22 → C20 (2 of 2 in half-phase 1)",  # axial 2,20 -> 2,18
        "Derek stays at C3 (its 1 hex of half-phase 1 lost, CSP-10)",
        "After half-phase 1: The guard and Derek: 17 hexes apart",
    ]


def test_csp_6_c4_e2_without_direction_memory_derek_may_step_back_in_h1() -> None:
    """C-4 alternative: the first step of each phase is free: H1 Derek B (s = 3), H2 s = 2."""
    enc = e2_encounter({"csp.direction_memory_across_phases": False})
    play_e2(enc, upto_phase=2)
    next_step(enc)
    declare(enc, guard=1, derek=1)
    events = half(enc, guard=row(7), derek=row(4))
    assert seps(events) == [3]
    next_step(enc)
    events = half(enc, guard=row(6), derek=row(4))
    assert seps(events) == [2]


def test_csp_6_c4_e2_by_default_the_back_step_does_not_fit_in_h1() -> None:
    """Default C-4: change (1) + B (1) = 2 > H1 = 1, so stepping back in H1 is refused."""
    enc = e2_encounter()
    play_e2(enc, upto_phase=2)
    next_step(enc)
    declare(enc, guard=1, derek=1)
    assert row(4) not in choices(enc, "derek", "plan_half", "to")
    act(enc, "plan_half", "guard", to=row(7))
    with pytest.raises(IllegalActionError, match=r"^Derek cannot reach \w+ with 1 hex in this"):
        act(enc, "plan_half", "derek", to=row(4))
