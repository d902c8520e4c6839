"""Opening a fight replays its log on one working state (copied only at checkpoints): every
ruleset's events and states are exactly those seen while the fight was played action by action
(each action on a copy), so no event or kept state is changed by a later entry."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playouts import random_action

import hexcombat.encounter as encounter_module
from hexcombat import Encounter, HexcombatError, from_document, loads, to_document
from hexcombat.encounter import CHECKPOINT_EVERY
from hexcombat.state import GameState

DEMOS = Path(__file__).parent.parent / "static" / "demos"
ACTIONS = 2 * CHECKPOINT_EVERY + 13


def whole_state(state: GameState) -> str:
    """Everything a state holds that play changes, as comparable text."""
    return json.dumps(
        {
            "figures": [f.to_json() for f in state.figures.values()],
            "clock": repr(state.clock),
            "memory": state.memory,
            "declarations": repr(state.declarations),
            "prompts": [repr(p) for p in state.prompts],
            "asked": state.asked,
        },
        sort_keys=True,
        default=repr,
    )


def events_text(enc: Encounter, index: int) -> str:
    return json.dumps([e.to_json() for e in enc.entry_events(index)], sort_keys=True)


def demo_files() -> list[str]:
    listed = json.loads((DEMOS / "index.json").read_text(encoding="utf-8"))
    items = listed.get("demos", []) if isinstance(listed, dict) else listed
    return [str(item["file"]) for item in items]


@pytest.mark.parametrize("file", demo_files())
def test_opening_gives_every_event_and_state_seen_while_playing(file: str) -> None:
    doc = json.loads((DEMOS / file).read_text(encoding="utf-8"))
    doc["log"], doc["cursor"] = [], 0
    enc = loads(json.dumps(doc))
    rng = random.Random(7)
    states = [whole_state(enc.state)]
    events: list[str] = []
    while len(enc.log) < ACTIONS and (action := random_action(enc, rng.randrange)) is not None:
        try:
            enc.perform(action)
        except HexcombatError:  # offered values that do not go together
            continue
        states.append(whole_state(enc.state))
        events.append(events_text(enc, enc.cursor - 1))
    assert len(enc.log) > CHECKPOINT_EVERY, "the playout ended before a checkpoint"
    encounter_module._REPLAYS.clear()
    opened = from_document(to_document(enc))
    assert [events_text(opened, i) for i in range(len(opened.log))] == events
    for index in [*range(len(states) - 1, -1, -1), *range(len(states))]:
        opened._cursor = index
        assert whole_state(opened.state) == states[index], f"state after {index} actions"
    assert to_document(opened) == to_document(enc)
