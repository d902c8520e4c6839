"""Benchmark: performing, saving, loading (full replay) and undoing a long skirmish fight.

Run: ``.venv/bin/python tests/benchmarks/bench_encounter.py [ACTIONS]``; prints figures only.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from factories import skirmish_duel
from playouts import random_action

from hexcombat import Hex
from hexcombat.document import dumps, loads


def main(actions: int) -> None:
    """Play ``actions`` random legal actions on a 30x30 board with 12 figures and time each part."""
    enc = skirmish_duel().resized(30, 30)
    rs = enc.ruleset
    for i in range(10):
        side = "Blue" if i % 2 else "Red"
        enc = enc.with_figure(
            rs.new_figure(f"f{i}", f"Figure {i}", side, Hex(2 + 2 * i, 10 + i % 3))
        )
    rng = random.Random(5)
    done = 0
    start = time.perf_counter()
    while done < actions:
        action = random_action(enc, lambda n: rng.randrange(n))
        if action is None:
            break
        enc.perform(action)
        done += 1
    perform = time.perf_counter() - start
    t = time.perf_counter()
    text = dumps(enc)
    save = time.perf_counter() - t
    t = time.perf_counter()
    again = loads(text)
    load = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(min(50, again.cursor)):
        again.undo()
    undo = (time.perf_counter() - t) / max(1, min(50, again.cursor))
    print(f"{done} actions, 12 figures, 30x30 board, document {len(text) / 1024:.0f} KiB")
    print(f"perform: {perform * 1000 / max(done, 1):.2f} ms/action")
    print(f"save (dumps): {save * 1000:.1f} ms   load with full replay: {load * 1000:.0f} ms")
    print(f"undo: {undo * 1e6:.1f} µs/step")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
