"""Long logs: states kept at checkpoints and rebuilt on demand give exactly the replayed states."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from factories import skirmish_duel
from playouts import random_action

from hexcombat import Encounter, HexcombatError, dumps, loads
from hexcombat.encounter import CHECKPOINT_EVERY
from hexcombat.state import GameState

pytestmark = pytest.mark.pyodide

DEMO = Path(__file__).parent.parent / "static" / "demos" / "fig-percentile.json"


def snapshot(state: GameState) -> str:
    """Everything about a state that play can change, as comparable text."""
    return json.dumps(
        {
            "figures": [f.to_json() for f in state.figures.values()],
            "clock": repr(state.clock),
            "memory": state.memory,
        },
        sort_keys=True,
        default=repr,
    )


def played(enc: Encounter, actions: int, seed: int) -> list[str]:
    """Play random actions; the snapshot after each (index 0: before the first)."""
    rng = random.Random(seed)
    seen = [snapshot(enc.state)]
    while len(seen) <= actions and (action := random_action(enc, rng.randrange)) is not None:
        try:
            enc.perform(action)
        except HexcombatError:  # offered values that do not go together (facing and hex)
            continue
        seen.append(snapshot(enc.state))
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_undo_redo_and_reopening_give_the_states_seen_while_playing(seed: int) -> None:
    enc = loads(DEMO.read_text(encoding="utf-8")) if DEMO.exists() else skirmish_duel()
    while enc.can_undo:
        enc.undo()
    seen = played(enc, 3 * CHECKPOINT_EVERY + 7, seed)
    again = loads(dumps(enc).replace('"name": "', '"name": "Copy of ', 1))
    for index in [*range(len(seen) - 1, -1, -1), *range(len(seen))]:
        again._cursor = index
        assert snapshot(again.state) == seen[index], f"state after {index} actions"
    for _ in range(len(seen) - 1):
        enc.undo()
    assert snapshot(enc.state) == seen[0]
    enc.redo()
    assert snapshot(enc.state) == seen[1]


def test_renaming_a_played_encounter_replays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = skirmish_duel()
    played(enc, 2 * CHECKPOINT_EVERY, 3)
    calls: list[str] = []
    monkeypatch.setattr(enc.ruleset, "resolve", lambda *a: calls.append("resolve"))
    renamed = enc.renamed("Long duel").with_setup(notes="many rounds")
    assert renamed.setup.name == "Long duel" and renamed.cursor == enc.cursor
    assert snapshot(renamed.state) == snapshot(enc.state) and calls == []


def test_encounters_from_one_remembered_replay_do_not_share_changes() -> None:
    enc = skirmish_duel()
    played(enc, 10, 4)
    text = dumps(enc)
    first, second = loads(text), loads(text)
    before = snapshot(second.state)
    first.undo()
    assert played(first, 5, 5)[-1] != before or first.cursor != second.cursor
    assert snapshot(second.state) == before and len(second.log) == len(enc.log)
