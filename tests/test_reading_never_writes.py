"""Reading never writes: no view and no preview changes the saved document or the state.

Over every registered ruleset (its demo, then random legal play), each read the page makes
(encounter_view, actions_view, reach_view, sight_view, measure_view, ruleset_view,
fight_summary, the GM's tools, and the preview of every offered action) is made between two
snapshots of the saved document and of the state's memory, figures, clock, hidden choices
and prompts; they must be equal.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from playouts import LONG_MODE, random_action

from hexcombat import Action, Encounter, HexcombatError, loads, to_document
from hexcombat.geometry import Hex
from hexcombat.rulesets.registry import ruleset_entries
from hexcombat.view import (
    actions_view,
    encounter_view,
    fight_summary,
    measure_view,
    reach_view,
    ruleset_view,
    sight_view,
)

pytestmark = pytest.mark.pyodide

DEMO_DIR = Path(__file__).parent.parent / "static" / "demos"
RULESETS = [e.id for e in ruleset_entries() if (DEMO_DIR / f"{e.id}.json").exists()]
STEPS = 30
SEEDS = tuple(range(1, 11)) if LONG_MODE else (1,)


def snapshot(enc: Encounter) -> str:
    """The saved document and everything in the current state that play can change."""
    state = enc.state
    return json.dumps(
        {
            "document": to_document(enc),
            "memory": state.memory,
            "figures": [f.to_json() for f in state.figures.values()],
            "clock": repr(state.clock),
            "declarations": repr(state.declarations),
            "prompts": repr(state.prompts),
            "events": len(state.events),
        },
        sort_keys=True,
        default=repr,
    )


def reads(enc: Encounter) -> dict[str, Callable[[], object]]:
    """Every read the page makes of an encounter, by name."""
    state = enc.state
    figures = list(state.figures)
    corner = Hex(enc.setup.board.width - 1, 0)
    found: dict[str, Callable[[], object]] = {
        "encounter_view": lambda: encounter_view(enc),
        "ruleset_view": lambda: ruleset_view(enc.ruleset),
        "fight_summary": lambda: fight_summary(enc),
        "gm_actions": enc.gm_actions,
        "actions_view(None)": lambda: actions_view(enc, None),
    }
    for fid in figures:
        found[f"actions_view({fid})"] = lambda fid=fid: actions_view(enc, fid)
        found[f"reach_view({fid})"] = lambda fid=fid: reach_view(enc, fid)
        found[f"sight_view({fid})"] = lambda fid=fid: sight_view(enc, fid, corner)
        found[f"measure_view({fid})"] = lambda fid=fid: measure_view(
            enc, state.figures[fid].position, corner, fid
        )
    specs = [*enc.legal_actions(None), *enc.gm_actions()]
    for fid in figures:
        specs += enc.legal_actions(fid)
    for i, spec in enumerate(specs):
        params = {p.name: p.offered()[0].value for p in spec.params if p.offered()}
        action = Action(spec.kind, spec.figure, params)
        found[f"preview {i} {spec.kind}"] = lambda a=action: enc.preview(a).to_json()
    return found


def written_by_reading(enc: Encounter) -> list[str]:
    """The reads that changed the document or the state, by name and cursor."""
    changed = []
    before = snapshot(enc)
    for name, read in reads(enc).items():
        with contextlib.suppress(HexcombatError):
            read()
        after = snapshot(enc)  # (the next read's before)
        if after != before:
            changed.append(f"{name} at cursor {enc.cursor}")
            before = after
    return changed


def playout_reads(ruleset: str, seed: int, *, read_demo: bool) -> list[str]:
    """Step through the demo's worked example (every read at every step when ``read_demo``),
    then play randomly; every read at every step."""
    enc = loads((DEMO_DIR / f"{ruleset}.json").read_text(encoding="utf-8"))
    changed = written_by_reading(enc) if read_demo else []
    while enc.can_redo:
        enc.redo()
        changed += written_by_reading(enc) if read_demo else []
    rng = random.Random(seed)
    for _ in range(STEPS):
        action = random_action(enc, rng.randrange)
        if action is None:
            break
        try:
            enc.perform(action)
        except HexcombatError:
            continue
        changed += written_by_reading(enc)
        if rng.random() < 0.2:
            enc.undo()
            changed += written_by_reading(enc)
    return changed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_and_previews_never_change_the_document_or_the_state(ruleset: str) -> None:
    changed = [c for seed in SEEDS for c in playout_reads(ruleset, seed, read_demo=seed == 1)]
    assert changed == [], f"{len(changed)} reads wrote, first: {changed[:5]}"
