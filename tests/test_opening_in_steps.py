"""Opening a fight in steps (``Encounter.in_steps``, ``loads_in_steps``): the same encounter,
events and errors as opening it at once, with a step between any two log entries, so that a
page can open a long fight in slices and answer taps between them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playouts import playout
from test_replay_in_place import demo_files, events_text, whole_state

import hexcombat.encounter as encounter_module
from hexcombat import Encounter, InvalidDocumentError, dumps, loads, to_document
from hexcombat.document import (
    from_document_in_steps,
    loads_in_steps,
    read_json,
    read_json_in_steps,
)
from hexcombat.encounter import CHECKPOINT_EVERY, drained

DEMOS = Path(__file__).parent.parent / "static" / "demos"


def demo_text(file: str) -> str:
    """The demo ``file`` played on by random actions (some undone)."""
    enc = loads((DEMOS / file).read_text(encoding="utf-8"))
    assert playout(enc, random.Random(5).randrange, CHECKPOINT_EVERY + 30) == []
    return dumps(enc)


@pytest.mark.parametrize("file", demo_files())
def test_a_fight_opened_in_steps_is_the_fight_opened_at_once(file: str) -> None:
    text = demo_text(file)
    encounter_module._REPLAYS.clear()
    at_once = loads(text)
    encounter_module._REPLAYS.clear()
    steps = loads_in_steps(text)
    taken = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            in_steps: Encounter = done.value
            break
        taken += 1
    assert at_once.log  # (a playout may end the fight before a checkpoint)
    assert taken >= 2 * len(at_once.log)  # its digest and its replay, entry by entry
    assert to_document(in_steps) == to_document(at_once)
    assert whole_state(in_steps.state) == whole_state(at_once.state)
    assert [events_text(in_steps, i) for i in range(len(in_steps.log))] == [
        events_text(at_once, i) for i in range(len(at_once.log))
    ]


def test_a_fight_opened_in_steps_is_remembered_as_one_opened_at_once() -> None:
    text = demo_text("skirmish.json")
    encounter_module._REPLAYS.clear()
    drained(loads_in_steps(text))
    replays = dict(encounter_module._REPLAYS)
    assert len(replays) == 1
    again = loads(text)  # no second replay: the one made in steps is kept
    assert encounter_module._REPLAYS[next(iter(replays))] is next(iter(replays.values()))
    assert dumps(again) == dumps(loads(text))


def test_a_log_that_does_not_replay_is_refused_in_steps_with_the_same_problems() -> None:
    doc = json.loads(demo_text("skirmish.json"))
    doc["log"][len(doc["log"]) // 2]["action"]["figure"] = "nobody"
    with pytest.raises(InvalidDocumentError) as at_once:
        encounter_module._REPLAYS.clear()
        loads(json.dumps(doc))
    with pytest.raises(InvalidDocumentError) as in_steps:
        encounter_module._REPLAYS.clear()
        drained(from_document_in_steps(doc))
    assert in_steps.value.problems == at_once.value.problems
    assert str(in_steps.value) == str(at_once.value)


def test_a_texts_checks_and_its_parse_are_steps_of_their_own() -> None:
    text = demo_text("skirmish.json")
    steps = read_json_in_steps(text)
    assert next(steps) is None  # checked, not parsed yet
    with pytest.raises(StopIteration) as done:
        next(steps)
    assert done.value.value == read_json(text)
    deep = "[" * 1000 + "]" * 1000
    with pytest.raises(InvalidDocumentError, match="nested"):
        next(read_json_in_steps(deep))  # refused before any parse
