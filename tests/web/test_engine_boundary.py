"""The boundary between the page and the engine's worker (``web/engine_boundary.py``): what the
worker answers is what the engine decides, round-tripped through one serialised, versioned
message each way; bad or foreign messages are refused with a reason; the worker keeps the
encounter it opened while the page only adds actions; a decision is the same however slow
the device (its counted budget, no clock)."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from factories import skirmish_duel
from map_pictures import MapCase, draw_rgba

import hexcombat.document as document_module
from hexcombat import Action, Encounter
from hexcombat.autopilot import pilot as pilot_module
from hexcombat.autopilot.view import app_move, left_by_app, played_by, suggest_view
from hexcombat.map_grid import GridProposal, NoGrid, Picture, find_grid
from web import engine_boundary as boundary


def both_played() -> Encounter:
    enc = played_by(skirmish_duel(), "Red", "aggressive")
    return played_by(enc, "Blue", "careful")


@pytest.fixture(autouse=True)
def fresh_worker() -> None:
    """Each test starts with a worker that opened nothing."""
    boundary.OPENED.document, boundary.OPENED.encounter = None, None


def asked(command: str) -> boundary.Answer:
    """The command through the worker's side and its answer through the page's side."""
    return boundary.read_answer(boundary.serve(command))


def test_the_apps_move_round_trips_the_boundary_as_the_engine_decides_it() -> None:
    enc = both_played()
    for _ in range(4):
        answer = asked(boundary.app_move_command(enc))
        assert answer["kind"] == "app-move"
        expected = app_move(enc.copy())
        assert answer["decision"] == json.loads(json.dumps(expected))
        assert answer["version"] == boundary.VERSION
        assert expected is not None
        enc.perform(Action.from_json(expected["action"]), note=str(expected["note"]))


def test_no_move_answers_the_figures_the_app_leaves() -> None:
    enc = played_by(skirmish_duel(), "Red", "aggressive")
    while (move := app_move(enc)) is not None:  # the app plays Red until the people's turn
        enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
    answer = asked(boundary.app_move_command(enc))
    assert answer == {"version": 1, "kind": "app-move", "decision": None, "left": left_by_app(enc)}


def test_a_suggestion_round_trips_the_boundary() -> None:
    enc = skirmish_duel()
    answer = asked(boundary.suggest_command(enc, "ann"))
    assert answer["kind"] == "suggest"
    assert answer["suggestion"] == json.loads(json.dumps(suggest_view(enc.copy(), "ann")))


def test_a_command_of_another_version_or_unreadable_is_refused_with_a_reason() -> None:
    command = json.loads(boundary.app_move_command(skirmish_duel()))
    answer = asked(json.dumps({**command, "version": 99}))
    assert answer["kind"] == "refused" and "version 1" in answer["message"]
    assert asked("{not json")["kind"] == "refused"
    unknown = asked(json.dumps({**command, "kind": "teleport"}))
    assert unknown["kind"] == "refused" and "teleport" in unknown["message"]


def test_an_answer_of_another_version_or_shape_is_refused_by_the_page() -> None:
    foreign = boundary.read_answer(json.dumps({"version": 2, "kind": "app-move", "left": []}))
    assert foreign["kind"] == "refused" and "version 2" in foreign["message"]
    odd = boundary.read_answer(json.dumps({"version": 1, "kind": "app-move"}))
    assert odd["kind"] == "refused"
    assert boundary.read_answer("[")["kind"] == "refused"


def test_an_illegal_position_is_refused_not_raised() -> None:
    command = json.loads(boundary.suggest_command(skirmish_duel(), "nobody"))
    answer = asked(json.dumps(command))
    assert answer["kind"] == "refused" and answer["message"]


def test_the_worker_keeps_its_encounter_while_the_page_only_adds_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[object] = []
    real = document_module.from_document
    monkeypatch.setattr(
        document_module, "from_document", lambda *a, **k: opened.append(a) or real(*a, **k)
    )
    enc = both_played()
    for _ in range(3):
        answer = asked(boundary.app_move_command(enc))
        assert answer["kind"] == "app-move" and answer["decision"] is not None
        move = answer["decision"]
        enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
    asked(boundary.app_move_command(enc))
    assert len(opened) == 1  # opened once, then the moves were added to it
    kept = boundary.OPENED.encounter
    assert kept is not None and kept.state == enc.state
    enc.undo()  # anything but actions added: opened afresh
    asked(boundary.app_move_command(enc))
    assert len(opened) == 2


def test_an_app_decision_is_the_same_on_a_slow_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """A device whose clock runs a second per look at it (a very slow tablet) decides as a
    fast one: the decision spends its counted budget, never wall time."""
    enc = both_played()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    fast = app_move(enc.copy())
    ticks = itertools.count()
    slow = SimpleNamespace(perf_counter=lambda: float(next(ticks)))
    monkeypatch.setattr(pilot_module, "time", slow)
    assert app_move(enc.copy()) == fast
    assert asked(boundary.app_move_command(enc))["decision"] == json.loads(json.dumps(fast))


# ---- the map picture's grid finder --------------------------------------------------------
GRID_MAP = MapCase("pointed", 30.0, (40.0, 36.0), 400, 300, noise=2, seed=7)
"""A small test map of pointed-topped hexes, as the page hands its pixels over."""


def test_the_grid_finder_round_trips_the_boundary_as_the_engine_finds_it() -> None:
    width, height, rgba = draw_rgba(GRID_MAP)
    expected = find_grid(Picture.from_rgba(width, height, rgba), 0.5)
    assert isinstance(expected, GridProposal)
    answer = boundary.read_answer(
        boundary.serve(boundary.find_grid_command(width, height, 0.5), rgba)
    )
    assert answer["kind"] == "find-grid" and answer["version"] == boundary.VERSION
    assert boundary.found_grid(answer) == expected


def test_a_picture_without_a_grid_answers_no_grid_and_why() -> None:
    width, height = 300, 200
    blank = bytes([200, 190, 180, 255]) * (width * height)
    expected = find_grid(Picture.from_rgba(width, height, blank))
    assert isinstance(expected, NoGrid)
    answer = asked_with(boundary.find_grid_command(width, height, 1.0), blank)
    assert answer == {
        "version": 1,
        "kind": "find-grid",
        "proposal": None,
        "reason": expected.reason,
    }
    assert boundary.found_grid(answer) == expected


def test_the_grid_finder_refuses_missing_or_mismatched_pixels_with_a_reason() -> None:
    command = boundary.find_grid_command(300, 200, 1.0)
    assert asked_with(command, None) == boundary.refused("the grid finder was sent no pixels")
    short = asked_with(command, bytes(4 * 300 * 199))
    assert (
        short["kind"] == "refused" and "300x200 RGBA pixels need 240000 bytes" in short["message"]
    )
    bad = json.loads(command) | {"width": "wide"}
    assert asked_with(json.dumps(bad), bytes(4))["kind"] == "refused"
    found = boundary.found_grid(asked_with(command, None))
    assert found == NoGrid("the grid finder was sent no pixels")


def test_a_grid_answer_of_the_wrong_shape_is_refused_by_the_page() -> None:
    proposal = {"orientation": "flat", "hex_size": 60.0, "offset": [1.0, 2.0], "columns": 8}
    text = json.dumps({"version": 1, "kind": "find-grid", "proposal": proposal, "reason": ""})
    answer = boundary.read_answer(text)
    assert answer["kind"] == "refused" and "not a proposal's shape" in answer["message"]
    whole = proposal | {"rows": 6, "tilt": 0.5, "confidence": 1}
    text = json.dumps({"version": 1, "kind": "find-grid", "proposal": whole, "reason": ""})
    found = boundary.found_grid(boundary.read_answer(text))
    assert found == GridProposal("flat", 60.0, (1.0, 2.0), 8, 6, 0.5, 1.0)


def asked_with(command: str, pixels: bytes | None) -> boundary.Answer:
    """A command and the bytes beside it through the worker's side and back."""
    return boundary.read_answer(boundary.serve(command, pixels))
