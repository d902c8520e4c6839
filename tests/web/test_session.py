"""The page's session under CPython: history through the engine's cursor, set-up edits,
a worked example set aside without replay, selection, mode and the autosave decision."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_skirmish import skirmish_demo

from hexcombat import Action, Encounter, loads
from hexcombat.geometry import Hex
from hexcombat.view import empty_encounter
from web.session import Session, entry_words

DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"


def opened(enc: Encounter, mode: str | None = None) -> Session:
    session = Session()
    session.open(enc, "entry-1", mode)
    return session


def test_opening_picks_the_mode_and_starts_a_fresh_history() -> None:
    assert opened(skirmish_demo()).mode == "play"  # figures: play
    assert opened(empty_encounter()).mode == "edit"  # an empty board: set up
    assert opened(skirmish_demo(), "edit").mode == "edit"  # remembered
    assert opened(skirmish_demo(), "nonsense").mode == "play"
    session = opened(skirmish_demo())
    assert not session.can_undo and not session.can_redo and not session.take_unsaved()
    with pytest.raises(AssertionError):
        Session().encounter  # noqa: B018


def test_play_goes_through_the_engines_cursor() -> None:
    session = opened(skirmish_demo())
    enc = session.encounter
    events = session.perform(Action("next_step"))
    assert session.encounter is enc and enc.cursor == 1 and session.set_aside == 0
    assert session.result == [e.to_json() for e in events] and session.take_unsaved()
    assert not session.take_unsaved()  # once per change
    words = entry_words(enc, 0)
    assert session.undo() == f"Undone: {words}" and enc.cursor == 0 and session.result == []
    assert session.take_unsaved() and session.can_redo
    assert session.redo() == f"Redone: {words}" and enc.cursor == 1
    assert session.result == [e.to_json() for e in enc.entry_events(0)]
    assert session.redo() is None  # nothing left to redo


def test_after_a_reload_actions_can_still_be_undone() -> None:
    enc = skirmish_demo()
    enc.perform(Action("next_step"))
    session = opened(enc)
    assert session.can_undo and session.undo() is not None and enc.cursor == 0
    assert session.undo() is None


def test_set_up_edits_keep_the_encounters_to_go_back_to() -> None:
    session = opened(skirmish_demo())
    first = session.encounter
    painted = session.change(lambda e: e.painted([Hex(0, 0)], "water"), "Painted.")
    assert session.encounter is painted and session.take_unsaved()
    assert session.undo() == "Undone: Painted." and session.encounter is first
    assert session.redo() == "Redone: Painted." and session.encounter is painted
    with pytest.raises(ValueError):
        session.change(lambda e: e.painted([Hex(0, 0)], "lava"))
    assert session.encounter is painted and not session.future  # a refusal changes nothing


def test_edits_and_actions_share_one_timeline() -> None:
    session = opened(skirmish_demo())
    first = session.encounter
    session.perform(Action("next_step"))
    renamed = session.change(lambda e: e.renamed("Ford"), "Renamed.")
    assert renamed.cursor == 1
    assert session.undo() == "Undone: Renamed." and session.encounter.cursor == 1
    assert session.undo() is not None and session.encounter.cursor == 0
    assert session.encounter is not first or first.cursor == 0
    assert session.redo() is not None and session.redo() == "Redone: Renamed."
    assert session.encounter is renamed


def test_playing_during_a_worked_example_sets_it_aside_without_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = loads((DEMOS / "fig-percentile.json").read_text(encoding="utf-8"))
    while example.can_undo:
        example.undo()
    steps = len(example.log)
    assert steps > 3
    session = opened(example)
    session.redo()
    session.redo()
    monkeypatch.setattr(Encounter, "_replay", lambda *a: pytest.fail("the log was replayed"))
    waiting = steps - 2
    table = [a.kind for a in session.encounter.legal_actions(None)]
    assert "next_step" in table
    session.perform(Action("next_step"))
    assert session.set_aside == waiting and len(session.encounter.log) == 3
    words = session.undo()
    assert words is not None and words.endswith("The worked example is back: Redo steps through it")
    back = session.encounter
    assert (len(back.log), back.cursor, back.can_redo) == (steps, 2, True)


def test_selection_mode_and_renaming() -> None:
    session = opened(skirmish_demo())
    fid = session.encounter.setup.figures[0].id
    session.select(fid)
    session.keep_selection([fid, "other"])
    assert session.selected == fid
    session.keep_selection(["other"])
    assert session.selected is None
    assert session.set_mode("edit") and not session.set_mode("edit") and session.mode == "edit"
    with pytest.raises(ValueError, match="unknown mode"):
        session.set_mode("library")
    assert session.renamed("Elsewhere") and session.encounter.setup.name == "Elsewhere"
    assert not session.renamed("Elsewhere")
    assert not session.take_unsaved()  # selection, mode and the library's rename: no save
