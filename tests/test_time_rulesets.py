"""Time, hidden choices and prompts through the encounter API, on the test-only kit rulesets."""

from __future__ import annotations

from itertools import permutations

import pytest
from kit_rulesets import encounter, registered

from hexcombat import Action
from hexcombat.document import dumps, loads
from hexcombat.encounter import Encounter
from hexcombat.errors import IllegalActionError
from hexcombat.view import encounter_view

pytestmark = [pytest.mark.pyodide, pytest.mark.usefixtures(registered.__name__)]


def acting_now(enc: Encounter) -> list[str]:
    """The figures offered anything now."""
    return [f for f in enc.state.figures if enc.legal_actions(f)]


def where(enc: Encounter) -> tuple[tuple[int, ...], str]:
    return enc.state.clock.counters, enc.state.clock.step


def next_step(enc: Encounter) -> None:
    enc.perform(Action("next_step"))


# ---- Pulses ---------------------------------------------------------------------------------
def pulse_trio() -> Encounter:
    return encounter(
        "kit-pulse",
        ("ann", "Ann", "Blue", (2, 2)),
        ("bo", "Bo", "Red", (3, 2)),
        ("cy", "Cy", "Blue", (7, 0)),
    )


def test_an_engaged_pair_acts_before_an_unengaged_figure_in_each_pulse() -> None:
    enc = pulse_trio()
    assert where(enc) == ((1, 1), "engaged")
    assert acting_now(enc) == ["ann", "bo"]
    time = encounter_view(enc)["time"]
    assert time["label"] == "Round 1 · Pulse 1 · Engaged combat"
    assert time["acting"]["text"] == "Ann and Bo act (engaged figures act first (SCP-6))"
    with pytest.raises(IllegalActionError, match="Cy cannot pass now"):
        enc.perform(Action("pass", "cy"))
    enc.perform(Action("pass", "ann"))
    assert time["acting"]["waiting"] == ["ann", "bo"]
    assert encounter_view(enc)["time"]["acting"]["waiting"] == ["bo"]
    next_step(enc)
    assert where(enc) == ((1, 1), "free") and acting_now(enc) == ["cy"]


def test_pulses_roll_over_into_the_next_round() -> None:
    enc = pulse_trio()
    seen = [where(enc)]
    for _ in range(6):
        next_step(enc)
        seen.append(where(enc))
    assert seen == [
        ((1, 1), "engaged"),
        ((1, 1), "free"),
        ((1, 2), "engaged"),
        ((1, 2), "free"),
        ((1, 3), "engaged"),
        ((1, 3), "free"),
        ((2, 1), "engaged"),
    ]
    assert enc.events[-1].text == "Round 2 · Pulse 1 · Engaged combat"


def test_a_step_nobody_can_use_is_skipped() -> None:
    enc = encounter("kit-pulse", ("ann", "Ann", "Blue", (1, 1)), ("bo", "Bo", "Red", (7, 0)))
    assert [s["state"] for s in encounter_view(enc)["time"]["steps"]] == ["current", "next"]
    next_step(enc)
    assert where(enc) == ((1, 1), "free")
    next_step(enc)
    assert where(enc) == ((1, 2), "free")  # no engaged figures: straight to everyone else
    assert [s["state"] for s in encounter_view(enc)["time"]["steps"]] == ["done", "current"]


# ---- half-phases -----------------------------------------------------------------------------
def phase_trio() -> Encounter:
    return encounter(
        "kit-half-phase",
        ("ann", "Ann", "Blue", (0, 1)),
        ("bo", "Bo", "Red", (0, 3)),
        ("cy", "Cy", "Red", (0, 5)),
    )


def most_hexes(enc: Encounter, fid: str) -> int | None:
    spec = next(a for a in enc.legal_actions(fid) if a.kind == "advance")
    return spec.param("hexes").maximum


def test_two_half_phases_of_ceil_and_floor_of_each_declared_speed() -> None:
    enc = phase_trio()
    for fid, speed in (("ann", 9), ("bo", 3), ("cy", 1)):
        enc.perform(Action("declare", fid, {"speed": speed}))
    next_step(enc)
    assert enc.ruleset.time.label(enc.state.clock) == "Phase 1 · Half-phase 1 · Movement"
    assert [most_hexes(enc, f) for f in ("ann", "bo", "cy")] == [5, 2, 1]
    for fid, n in (("ann", 5), ("bo", 2), ("cy", 1)):
        enc.perform(Action("advance", fid, {"hexes": n}))
    next_step(enc)
    assert where(enc) == ((1, 2), "move")
    assert acting_now(enc) == ["ann", "bo"]  # Cy's second half is floor(1/2) = 0
    assert [most_hexes(enc, f) for f in ("ann", "bo")] == [4, 1]
    next_step(enc)
    assert where(enc) == ((1, 2), "combat")
    assert enc.ruleset.time.label(enc.state.clock) == "Phase 1 · Combat"
    next_step(enc)
    assert where(enc) == ((2, 1), "declare")


def test_hidden_speeds_stay_secret_until_the_last_is_in() -> None:
    enc = phase_trio()
    events = enc.perform(Action("declare", "bo", {"speed": 3}))
    assert [(e.kind, e.text) for e in events] == [
        ("hidden", "Bo has declared (hidden until everyone has)")
    ]
    assert "speed" not in enc.state.memory
    assert acting_now(enc) == ["ann", "cy"]
    view = encounter_view(enc)["time"]
    assert view["acting"]["hidden"] and view["acting"]["waiting"] == ["ann", "cy"]
    assert view["next"]["blocked"] == "Waiting for hidden choices from Ann, Cy"
    enc.perform(Action("declare", "cy", {"speed": 1}))
    events = enc.perform(Action("declare", "ann", {"speed": 9}))
    assert [e.text for e in events] == [
        "Ann has declared (hidden until everyone has)",
        "Ann moves 9 this phase",
        "Bo moves 3 this phase",
        "Cy moves 1 this phase",
    ]


CHOICES = {"ann": 9, "bo": 3, "cy": 1}


@pytest.mark.parametrize("order", list(permutations(CHOICES)))
def test_hidden_choices_in_any_order_give_the_same_state_and_events(
    order: tuple[str, ...],
) -> None:
    def play(entry: tuple[str, ...]) -> Encounter:
        enc = phase_trio()
        for fid in entry:
            enc.perform(Action("declare", fid, {"speed": CHOICES[fid]}))
        next_step(enc)
        return enc

    ref, enc = play(tuple(CHOICES)), play(order)
    assert enc.state.memory == ref.state.memory and enc.state.clock == ref.state.clock
    assert enc.state.declarations == ref.state.declarations
    revealed = [[e for e in enc.entry_events(i) if e.kind != "hidden"] for i in range(4)]
    expected = [[e for e in ref.entry_events(i) if e.kind != "hidden"] for i in range(4)]
    assert revealed == expected
    assert sorted(e.text for e in enc.events) == sorted(e.text for e in ref.events)


# ---- strike order and prompts -----------------------------------------------------------------
def strike_trio(cede: bool = True) -> Encounter:
    enc = encounter(
        "kit-strike-order",
        ("ann", "Ann", "Blue", (1, 1)),
        ("bo", "Brie the Oaken", "Red", (2, 1)),
        ("cy", "Cy", "Blue", (1, 2)),
    )
    cy = enc.setup_figure("cy")
    cy.stats["skill"] = 5
    enc = enc.with_figure(cy)
    declare = {"ann": ("spear", cede), "bo": ("sword", False), "cy": ("sword", False)}
    for fid, (weapon, ceding) in declare.items():
        enc.perform(Action("declare", fid, {"weapon": weapon, "cede": ceding}))
    next_step(enc)
    return enc


def test_the_strike_order_comes_from_weapons_and_skill_and_a_ceding_figure_goes_last() -> None:
    enc = strike_trio()
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["mode"] == "figure" and acting["figures"] == ["cy", "bo", "ann"]
    assert acting["order_notes"] == [
        "Cy is more skilled (TA-16)",
        "Ann cedes the initiative (TA-17)",
    ]
    assert acting["text"].startswith("Cy acts")
    assert acting_now(enc) == ["cy"]
    enc.perform(Action("pass", "cy"))
    assert acting_now(enc) == ["bo"]
    enc.perform(Action("pass", "bo"))
    assert acting_now(enc) == ["ann"]


def test_without_ceding_the_spear_strikes_first() -> None:
    enc = strike_trio(cede=False)
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["ann", "cy", "bo"]
    assert acting["order_notes"][0] == "Spear strikes before sword (TA-14)"


def test_while_a_prompt_is_open_only_its_answers_are_legal_and_only_to_its_figure() -> None:
    enc = strike_trio()
    events = enc.perform(Action("strike", "cy", {"target": "bo"}))
    assert [(e.kind, e.text) for e in events] == [("reaction", "Cy strikes at Brie the Oaken")]
    prompt = encounter_view(enc)["prompt"]
    assert prompt is not None
    assert prompt["question"] == "Brie the Oaken: parry this strike?"
    assert prompt["figure"] == "bo" and prompt["figure_name"] == "Brie the Oaken"
    assert [a["kind"] for a in prompt["answers"]] == ["parry", "take"]
    assert [a.kind for a in enc.legal_actions("bo")] == ["parry", "take"]
    assert enc.legal_actions("cy") == enc.legal_actions("ann") == enc.legal_actions(None) == []
    assert encounter_view(enc)["time"]["next"]["blocked"].startswith(
        "Waiting for Brie the Oaken to decide"
    )
    before = dumps(enc)
    for action in (Action("pass", "bo"), Action("next_step"), Action("pass", "ann")):
        with pytest.raises(IllegalActionError):
            enc.perform(action)
    assert dumps(enc) == before
    events = enc.perform(Action("parry", "bo"), faces=[5])
    assert events[0].text == "Brie the Oaken parries (5)"
    assert enc.state.prompt is None and acting_now(enc) == ["bo"]


def test_undo_redo_and_replay_go_through_prompts() -> None:
    enc = strike_trio()
    enc.perform(Action("strike", "cy", {"target": "bo"}))
    enc.perform(Action("take", "bo"))
    assert enc.events[-1].text == "Brie the Oaken is hit by Cy"
    enc.undo()
    assert enc.state.prompt is not None and enc.legal_actions("cy") == []
    enc.undo()
    assert enc.state.prompt is None and acting_now(enc) == ["cy"]
    enc.redo()
    enc.redo()
    assert enc.state.prompt is None and acting_now(enc) == ["bo"]
    again = loads(dumps(enc))
    assert [e.text for e in again.events] == [e.text for e in enc.events]
    again.undo()
    prompt = again.state.prompt
    assert prompt is not None and prompt.id == "prompt-1" and prompt.context == {"attacker": "cy"}
