"""Long fights under CPython: open, undo, redo, a jump in the log, every view and a
preview, each timed at 1,000 and 5,000 logged actions of a random skirmish game, so that the
growth shows. Rows for ``tests/bench --only longengine`` (``long_rows``); standard library and
hexcombat only, plus the tests' random playouts.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # playouts
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's hexcombat

from playouts import played_at_random, random_action

import hexcombat.encounter as encounter_module
from hexcombat import Encounter, from_document, loads, to_document
from hexcombat.geometry import Hex
from hexcombat.view import (
    actions_view,
    encounter_view,
    fight_summary,
    reach_view,
    ruleset_view,
    sight_view,
)

DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"
SIZES = (1000, 5000)
STEPS = 20
"""Undo, redo and jump are timed as the mean of this many in a row, from a freshly opened fight."""


def long_fight(ruleset: str, actions: int, seed: int = 3) -> Encounter:
    """The ruleset's demo set-up, then ``actions`` random legal actions (refusals skipped)."""
    doc = json.loads((DEMOS / f"{ruleset}.json").read_text(encoding="utf-8"))
    doc["log"] = []
    doc.pop("cursor", None)
    enc = loads(json.dumps(doc))
    return played_at_random(enc, random.Random(seed).randrange, actions)


def opened(doc: dict[str, Any]) -> Encounter:
    """The fight opened from its document with nothing remembered (a first visit)."""
    encounter_module._REPLAYS.clear()
    return from_document(doc)


def per_step(doc: dict[str, Any], move: Callable[[Encounter, int], None]) -> float:
    """Milliseconds per step of ``move(enc, i)`` then reading the state, STEPS in a row."""
    enc = opened(doc)
    start = time.process_time()
    for i in range(STEPS):
        move(enc, i)
        enc.state  # noqa: B018 - reading the state is what the page does next
    return (time.process_time() - start) * 1000 / STEPS


def jump(enc: Encounter, i: int) -> None:
    """Go to a cursor far from the last one, as a log slider or a replay viewer does."""
    target = (len(enc.log) * (2 * i + 1) // (2 * STEPS) + 37 * i) % (len(enc.log) + 1)
    while enc.cursor > target:
        enc.undo()
    while enc.cursor < target:
        enc.redo()


def timings(enc: Encounter, runs: int) -> dict[str, float]:
    """Milliseconds for each measure on one fight (medians of ``runs``; CPU time)."""
    doc = to_document(enc)
    out: dict[str, float] = {}
    out["open (from_document, nothing remembered)"] = median(lambda: opened(doc), runs)
    out["undo (then the state)"] = statistics.median(
        per_step(doc, lambda e, i: e.undo()) for _ in range(runs)
    )

    def redo(e: Encounter, i: int) -> None:
        if i == 0:
            for _ in range(STEPS):
                e.undo()
            e._near.clear()  # as after opening the fight with the cursor STEPS back
        e.redo()

    out["redo (then the state)"] = statistics.median(per_step(doc, redo) for _ in range(runs))
    out["jump in the log (then the state)"] = statistics.median(
        per_step(doc, jump) for _ in range(runs)
    )
    enc = opened(doc)
    figure = next(iter(enc.state.figures))
    far = Hex(enc.setup.board.width - 1, 0)
    action = random_action(enc, random.Random(1).randrange)
    views: dict[str, Callable[[], object]] = {
        "encounter_view": lambda: encounter_view(enc),
        "actions_view (every figure and the table)": lambda: [
            actions_view(enc, f) for f in (None, *enc.state.figures)
        ],
        "reach_view": lambda: reach_view(enc, figure),
        "sight_view": lambda: sight_view(enc, figure, far),
        "ruleset_view": lambda: ruleset_view(enc.ruleset),
        "fight_summary": lambda: fight_summary(enc),
        "preview (a random offered action)": lambda: action and enc.preview(action).to_json(),
    }
    for name, view in views.items():
        out[name] = median(view, runs)
    return out


def median(fn: Callable[[], object], runs: int) -> float:
    """Median CPU milliseconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def rows(runs: int, ruleset: str = "skirmish") -> list[dict[str, Any]]:
    """One row per measure: its time at each of :data:`SIZES` actions and the growth."""
    measured = {n: timings(long_fight(ruleset, n), runs) for n in SIZES}
    small, large = SIZES
    out = []
    for measure in measured[small]:
        a, b = measured[small][measure], measured[large][measure]
        out.append({"measure": measure, "ms": {small: a, large: b}, "growth": b / a if a else 0})
    return out


def long_rows(table: Any, runs: int) -> None:
    """The long-fight rows of the benchmark table (CPython; the page's are beside them)."""
    import platform

    from engine import load

    small, large = SIZES
    for r in rows(runs):
        a, b = r["ms"][small], r["ms"][large]
        table.add(
            f"long fight, {r['measure']}, CPython {platform.python_version()}, "
            f"{small:,} / {large:,} actions",
            f"{a:.2f} ms / {b:.2f} ms cpu (growth {b / a if a else 0:.2f}x for 5x the log)",
            "linear (a replay)" if r["measure"].startswith("open") else "independent of log length",
            load(),
        )


if __name__ == "__main__":
    for r in rows(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        small, large = SIZES
        print(
            f"{r['measure']:<45} {r['ms'][small]:8.2f} ms {r['ms'][large]:8.2f} ms "
            f"growth {r['growth']:.2f}x"
        )
