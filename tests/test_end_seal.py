"""The end seal: a fight this device saved reopens without checking each logged
action again, only when the replay ends in the state sealed; any other set-up, log, engine
code or end state is replayed with the checks, so a tampered entry is still refused with
its path."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_tampered_logs import moves_after, skirmish_game

import hexcombat
import hexcombat.encounter as encounter_module
import hexcombat.version
from hexcombat import Encounter, InvalidDocumentError
from hexcombat.document import end_seal, from_document, to_document


@pytest.fixture(scope="module")
def game() -> Encounter:
    return skirmish_game()


def opened(
    doc: dict[str, Any], seal: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Encounter, int]:
    """The fight opened with nothing remembered, and how many actions were checked."""
    checks: list[int] = []
    real = Encounter._check_offered
    with monkeypatch.context() as m:
        m.setattr(Encounter, "_check_offered", lambda *a: checks.append(1) or real(*a))
        encounter_module._REPLAYS.clear()
        enc = from_document(copy.deepcopy(doc), end_seal=seal)
    return enc, len(checks)


def test_a_sealed_fight_opens_unchecked_to_the_same_events_and_states(
    game: Encounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = to_document(game)
    checked, n = opened(doc, "", monkeypatch)
    assert n == len(game.log)
    sealed, n = opened(doc, end_seal(game), monkeypatch)
    assert n == 0
    assert to_document(sealed) == to_document(checked)
    for i in range(len(game.log)):
        assert sealed.entry_events(i) == checked.entry_events(i)
    for cursor in range(len(game.log), -1, -7):
        sealed._cursor = checked._cursor = cursor
        assert sealed.state.figures == checked.state.figures, cursor
        assert (
            sealed.state.memory == checked.state.memory
            and sealed.state.clock == checked.state.clock
        )
    assert end_seal(sealed) == end_seal(game) == end_seal(checked)


def test_a_wrong_seal_or_other_engine_code_means_the_checked_replay(
    game: Encounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = to_document(game)
    seal = end_seal(game)
    _, n = opened(doc, "0" * 32, monkeypatch)
    assert n == len(game.log)
    monkeypatch.setattr(hexcombat.version, "BUILD_DIGEST", "other code")  # a rules fix, say
    _, n = opened(doc, seal, monkeypatch)
    assert n == len(game.log)


def test_a_tampered_entry_is_refused_with_its_path_even_with_the_seal_of_the_fight(
    game: Encounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = to_document(game)
    seal = end_seal(game)
    i = moves_after(doc, 60)
    before = Encounter(game.setup, game.log, i)
    figure = before.state.figure(game.log[i].action.figure)
    offered = {
        c.value
        for spec in before.legal_actions(figure.id)
        if spec.kind == "move"
        for c in spec.params[0].choices
    }
    far = next(
        h for h in game.setup.board.hexes() if str(h) not in offered and h != figure.position
    )
    wild = copy.deepcopy(doc)
    wild["log"][i]["action"]["params"]["to"] = str(far)
    with pytest.raises(InvalidDocumentError) as caught:
        opened(wild, seal, monkeypatch)
    assert caught.value.problems[0].path == f"log[{i}]"
    twice = copy.deepcopy(doc)  # the same move logged twice
    twice["log"].insert(i + 1, copy.deepcopy(doc["log"][i]))
    with pytest.raises(InvalidDocumentError) as caught:
        opened(twice, seal, monkeypatch)
    assert caught.value.problems[0].path == f"log[{i + 1}]"


def test_the_seal_follows_the_log_not_the_name_or_the_cursor(game: Encounter) -> None:
    enc = game.copy()
    seal = end_seal(enc)
    enc.undo()
    assert end_seal(enc) == seal
    assert end_seal(enc.renamed("Another name")) == seal
    enc.perform(enc.log[enc.cursor].action, enc.log[enc.cursor].faces)
    assert end_seal(enc) == seal  # the same action with the same dice: the same fight
    enc.undo()
    enc.undo()
    enc.perform(hexcombat.Action("gm_note", None, {"note": "a ruling"}))
    assert end_seal(enc) != seal
    encounter_module._REPLAYS.clear()
    assert end_seal(from_document(to_document(enc))) == end_seal(enc)  # worked out afresh
    enc.perform(hexcombat.Action("gm_note", None, {"note": "another"}))
    encounter_module._REPLAYS.clear()
    assert end_seal(from_document(to_document(enc))) == end_seal(enc)  # added to
    assert end_seal(game) == seal
