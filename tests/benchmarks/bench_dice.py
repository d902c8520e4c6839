"""Benchmark: exact dice distributions and seeded rolling (prints figures).

Run: ``.venv/bin/python tests/benchmarks/bench_dice.py``. Not collected by pytest.

"cold" clears the parse and distribution caches before every call, so it is the
cost a player pays the first time an expression's odds are shown; "cached" is
every later call (a fresh dict of Fractions from the cached integer counts).
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from hexcombat import dice
from hexcombat.dice import SeededDice, distribution
from hexcombat.dice import odds as dice_odds

EXPRESSIONS = ["3d10kh2", "4d6kh3", "10d10", "d100", "2d6kh1", "d10-5 min 1", "40d1000"]


def clear_caches() -> None:
    """Forget every parsed expression and computed distribution."""
    dice.parse.cache_clear()
    dice_odds._outcome_counts.cache_clear()
    dice_odds._probabilities.cache_clear()


def timed(action: Callable[[], object], repeats: int, before: Callable[[], None]) -> list[float]:
    """Seconds per call of ``action`` over ``repeats`` runs, calling ``before`` untimed first."""
    results = []
    for _ in range(repeats):
        before()
        start = time.perf_counter()
        action()
        results.append(time.perf_counter() - start)
    return results


def ms(seconds: float) -> str:
    """Seconds as milliseconds with three decimals."""
    return f"{seconds * 1000:9.3f} ms"


def main() -> None:
    """Print cold and cached distribution timings, then the 10,000-roll timing."""
    print(f"Python {sys.version.split()[0]} ({platform.python_implementation()})")
    print(f"{'expression':14} {'totals':>9} {'cold median':>13} {'cached median':>14}")
    for text in EXPRESSIONS:
        repeats = 3 if text == "40d1000" else 20
        cold = timed(partial(distribution, text), repeats, clear_caches)
        distribution(text)
        cached = timed(partial(distribution, text), repeats, lambda: None)
        totals = len(distribution(text))
        print(
            f"{text:14} {totals:9d} {ms(statistics.median(cold))}  {ms(statistics.median(cached))}"
        )

    def roll_many() -> None:
        seeded = SeededDice(12345)
        for _ in range(10_000):
            seeded.roll("d100")

    runs = timed(roll_many, 5, lambda: None)
    best = min(runs)
    print(
        f"10,000 SeededDice d100 rolls: median {ms(statistics.median(runs))}, best {ms(best)} "
        f"({best / 10_000 * 1e6:.1f} µs per roll)"
    )


if __name__ == "__main__":
    main()
