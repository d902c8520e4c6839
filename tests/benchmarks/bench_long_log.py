"""Benchmark: set-up edits, opening and undo on a 2,000-action log of each ruleset with a demo
(issues 14, 21).

Run: ``.venv/bin/python tests/benchmarks/bench_long_log.py [ACTIONS]``; prints figures only.
Each figure is the best of three, as CPU time of this process and as wall time: on a shared
machine the wall time grows with the load average (printed too), the CPU time much less.
"The share in legality checks" is the part of a replay spent checking that each logged
action was offered (for a move, the figure's reach: skirmish keeps it for the handler).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from long_fight import DEMOS, long_fight

import hexcombat.encounter as encounter_module
from hexcombat import Encounter, HexcombatError, dumps, loads


def best(make: Callable[[], object]) -> tuple[float, float]:
    """(CPU s, wall s) of the fastest of three runs, each replaying from scratch."""
    runs = []
    for _ in range(3):
        encounter_module._REPLAYS.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        with contextlib.suppress(HexcombatError):  # a refused edit replayed up to where it broke
            make()
        runs.append((time.process_time() - cpu, time.perf_counter() - wall))
    return min(runs)


def legality_share(text: str) -> float:
    """The share of a full replay spent in the legality check of each logged action."""
    spent = [0.0]
    original = Encounter._check_offered

    def timed(self: Encounter, *args: object) -> None:
        start = time.process_time()
        try:
            original(self, *args)  # type: ignore[arg-type]
        finally:
            spent[0] += time.process_time() - start

    Encounter._check_offered = timed  # type: ignore[method-assign]
    try:
        encounter_module._REPLAYS.clear()
        start = time.process_time()
        loads(text)
        return spent[0] / (time.process_time() - start)
    finally:
        Encounter._check_offered = original  # type: ignore[method-assign]


def edits(enc: Encounter, text: str) -> dict[str, Callable[[], object]]:
    """The timed operations: opening, set-up edits (each replays the log), rename, undo."""
    last = enc.setup.figures[-1]
    corner = enc.setup.board.hexes()[0]
    terrain = enc.setup.board.terrain_at(corner).id
    return {
        "open (loads)": lambda: loads(text),
        "paint a hex": lambda: enc.painted([corner], terrain),
        "edit a figure": lambda: enc.with_figure(replace(last, name=last.name + " II")),
        "turn a figure": lambda: enc.with_figure(replace(last, facing=(last.facing + 1) % 6)),
        "options": lambda: enc.with_options(dict(enc.setup.options)),
        "rename": lambda: enc.renamed("Renamed"),
        "undo + redo": lambda: (enc.undo(), enc.redo(), enc.state),
    }


def main(actions: int) -> None:
    """Print the figures for every ruleset with a demo."""
    print(f"load average {os.getloadavg()[0]:.1f}; Python {sys.version.split()[0]}")
    for ruleset in sorted(p.stem for p in DEMOS.glob("*.json") if p.stem != "index"):
        enc = long_fight(ruleset, actions)
        text = dumps(enc)
        print(f"{ruleset}: {len(enc.log)} logged actions")
        for label, make in edits(enc, text).items():
            cpu, wall = best(make)
            print(f"  {label:<14} cpu {cpu:5.2f} s   wall {wall:5.2f} s")
        print(f"  share in legality checks: {legality_share(text):.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
