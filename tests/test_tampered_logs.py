"""A tampered log is refused on open with the entry's path, whatever opening remembers: every
logged action is checked again against what was offered (faster opening keeps it)."""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from playouts import random_action

import hexcombat.encounter as encounter_module
from hexcombat import Encounter, HexcombatError, InvalidDocumentError
from hexcombat.document import from_document, to_document
from hexcombat.encounter import CHECKPOINT_EVERY

DEMOS = Path(__file__).resolve().parent.parent / "static" / "demos"


@functools.cache
def skirmish_game(actions: int = 3 * CHECKPOINT_EVERY + 10) -> Encounter:
    """The skirmish demo's set-up and ``actions`` random legal actions (past a few checkpoints);
    played once per test process (the tests only read it)."""
    doc = json.loads((DEMOS / "skirmish.json").read_text(encoding="utf-8"))
    doc["log"] = []
    doc.pop("cursor", None)
    enc = from_document(doc)
    rng = random.Random(11)
    while len(enc.log) < actions and (action := random_action(enc, rng.randrange)):
        try:
            enc.perform(action)
        except HexcombatError:
            continue
    return enc


LONG_GAME = pytest.mark.xdist_group("tampered:skirmish_game")
"""The tests that read the default ``skirmish_game``: one worker plays it."""


def refusal(doc: dict[str, Any]) -> tuple[str, str]:
    """The first problem's path and message when ``doc`` is opened (it must be refused)."""
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(copy.deepcopy(doc))
    first = caught.value.problems[0]
    return first.path, first.message


def moves_after(doc: dict[str, Any], start: int) -> int:
    """The index of the first logged move at or after ``start``."""
    return next(i for i, e in enumerate(doc["log"]) if i >= start and e["action"]["kind"] == "move")


@LONG_GAME
def test_an_unreachable_destination_is_refused_after_the_same_fight_was_opened() -> None:
    """The fight's replay and its searches are remembered; the tampered entry is still found."""
    enc = skirmish_game()
    doc = to_document(enc)
    i = moves_after(doc, 2 * CHECKPOINT_EVERY + 1)
    action = enc.log[i].action
    before = Encounter(enc.setup, enc.log, i)
    offered = {
        c.value
        for spec in before.legal_actions(action.figure)
        if spec.kind == "move"
        for c in spec.params[0].choices
    }
    figure = before.state.figure(action.figure)
    far = next(
        h
        for h in enc.setup.board.hexes()
        if str(h) not in offered and h != figure.position and enc.setup.board.contains(h)
    )
    from_document(copy.deepcopy(doc))  # opened once: its replay and searches are kept
    doc["log"][i]["action"]["params"]["to"] = str(far)
    path, message = refusal(doc)
    assert path == f"log[{i}]"
    assert message.startswith("move cannot be replayed")


@LONG_GAME
@pytest.mark.parametrize(
    "tamper",
    ["an action nobody is offered", "a figure that is not there", "a face beyond its die"],
)
def test_a_tampered_entry_deep_in_a_long_log_is_refused_with_its_path(tamper: str) -> None:
    doc = to_document(skirmish_game())
    encounter_module._REPLAYS.clear()
    from_document(copy.deepcopy(doc))
    rolled = [i for i, e in enumerate(doc["log"]) if e.get("rolls")]
    i = rolled[-1] if tamper == "a face beyond its die" else len(doc["log"]) - 7
    entry = doc["log"][i]
    if tamper == "an action nobody is offered":
        entry["action"]["kind"] = "fly"
        where, words = f"log[{i}]", "fly cannot be replayed"
    elif tamper == "a figure that is not there":
        entry["action"]["figure"] = "nobody"
        where, words = f"log[{i}]", "there is no figure 'nobody'"
    else:
        entry["rolls"][0]["faces"][0] = 99
        where, words = f"log[{i}].rolls[0]", "99"
    path, message = refusal(doc)
    assert path == where
    assert words in message


@LONG_GAME
def test_actions_a_handler_would_carry_out_but_were_not_offered_are_refused() -> None:
    """A second move by a figure that has moved, and an attack on a figure out of reach: the
    handlers would do them; the check of what was offered refuses them, at their entry."""
    enc = skirmish_game()
    doc = to_document(enc)
    i = moves_after(doc, CHECKPOINT_EVERY + 1)
    twice = copy.deepcopy(doc)
    twice["log"].insert(i + 1, copy.deepcopy(doc["log"][i]))
    path, message = refusal(twice)
    assert path == f"log[{i + 1}]" and "cannot move now" in message
    for j, entry in enumerate(doc["log"]):
        if entry["action"]["kind"] != "attack":
            continue
        before = Encounter(enc.setup, enc.log, j)
        attacker = entry["action"]["figure"]
        offered = {c.value for s in before.legal_actions(attacker) for c in s.params[0].choices}
        side = before.state.figure(attacker).side
        far = [f.id for f in before.state.living() if f.side != side and f.id not in offered]
        if far:
            wild = copy.deepcopy(doc)
            wild["log"][j]["action"]["params"]["target"] = far[0]
            path, message = refusal(wild)
            assert path == f"log[{j}]" and "attack cannot be replayed" in message
            return
    pytest.fail("the game has no attack with an enemy out of reach")


@pytest.mark.parametrize("name", sorted(p.name for p in DEMOS.glob("*.json") if p.stem != "index"))
def test_every_demo_with_an_entry_taken_out_or_swapped_is_refused_at_an_entry(name: str) -> None:
    doc = json.loads((DEMOS / name).read_text(encoding="utf-8"))
    if len(doc.get("log", [])) < 4:
        pytest.skip("the demo has no log to tamper with")
    from_document(copy.deepcopy(doc))
    doc.pop("cursor", None)
    cut = copy.deepcopy(doc)
    del cut["log"][len(cut["log"]) // 2 :]
    cut["log"] += [doc["log"][0]] * 3  # the first action three more times, where it never was
    path, message = refusal(cut)
    assert path.startswith("log[") and int(path[4:].split("]")[0]) >= len(doc["log"]) // 2
    assert "cannot be replayed" in message or "rolled" in message


def test_a_refused_document_leaves_the_good_one_opening_to_the_same_state() -> None:
    enc = skirmish_game(CHECKPOINT_EVERY + 20)
    doc = to_document(enc)
    bad = copy.deepcopy(doc)
    bad["log"][-3]["action"]["kind"] = "fly"
    refusal(bad)
    again = from_document(copy.deepcopy(doc))
    assert to_document(again) == doc
    assert [f.to_json() for f in again.state.figures.values()] == [
        f.to_json() for f in enc.state.figures.values()
    ]


@pytest.mark.parametrize("name", sorted(p.name for p in DEMOS.glob("*.json") if p.stem != "index"))
def test_the_offers_of_one_kind_a_replay_checks_against_equal_the_full_offers(name: str) -> None:
    """``legal_actions(state, figure, kind)`` (a ruleset may make those alone, as skirmish does
    for a face without its reach) gives exactly the full offers of that kind, in every state."""
    doc = json.loads((DEMOS / name).read_text(encoding="utf-8"))
    enc = skirmish_game(2 * CHECKPOINT_EVERY) if name == "skirmish.json" else from_document(doc)
    rs = enc.ruleset
    compared = 0
    walker = Encounter(enc.setup, enc.log, 0)
    for _ in range(len(enc.log) + 1):
        state = walker.state
        if walker.can_redo:
            walker.redo()
        for figure in (None, *state.figures):  # the table too
            full = rs.legal_actions(state, figure)
            for kind in {s.kind for s in full} | {"move", "face", "attack", "fly"}:
                assert rs.legal_actions(state, figure, kind) == [s for s in full if s.kind == kind]
                compared += bool(full)
    assert compared > 0
