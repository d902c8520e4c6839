"""Games of the autopilot against the random, rush and greedy baselines, from every ruleset's
demo (its set-up, no action played), a symmetric start and fresh starts it never saw
(:mod:`hexcombat.autopilot.starts`: three shapes of figures made from the ruleset's fields
and catalogue on scattered terrain), sides swapped game by game.

``python tests/autopilot_games.py [GAMES] [RULESET...]`` is the long mode (``tests/fuzz``
runs it with ``HEXCOMBAT_AUTOPILOT`` games): GAMES games (default 50) per ruleset, start and
opponent, printing won/lost/drawn, the autopilot's share of the decided games and its
decision times per cell, then per ruleset and opponent, with the counts of its moves a
player would call a waste (:func:`wasted`). The games are shared
out to ``HEXCOMBAT_AUTOPILOT_JOBS`` processes (default 2), in even runs of seeds so that
sides still swap game by game; the figures are the same for any number of processes. The
normal suite plays a few of them (``tests/test_autopilot_play.py``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from autopilot_waste import Waste, Watched  # noqa: E402

from hexcombat import Encounter, loads  # noqa: E402
from hexcombat.autopilot.play import (  # noqa: E402
    MatchResult,
    play_match,
    restarted,
    symmetric_start,
)
from hexcombat.autopilot.players import make_policy  # noqa: E402
from hexcombat.autopilot.policy import Policy  # noqa: E402
from hexcombat.autopilot.starts import SHAPES, fresh_start  # noqa: E402
from hexcombat.rulesets import all_rulesets  # noqa: E402

OPTIONS = {
    "fig-percentile": {"fp.damage_model": "hp"},
    "combat-speed-phase": {"csp.combat_resolver": "skirmish"},
}
"""Options a ruleset needs for a fight to be won: fig-percentile's placeholder hit points
(G-2) and combat-speed-phase's borrowed resolution (C-1); the texts have no damage rules."""
DEMOS = ROOT / "static" / "demos"


def demo(ruleset_id: str) -> Encounter:
    """The ruleset's demo as saved."""
    return loads((DEMOS / f"{ruleset_id}.json").read_text(encoding="utf-8"))


OPPONENTS = ("random", "rush", "greedy")
"""The baselines the autopilot plays against."""


def starts(ruleset_id: str) -> dict[str, Callable[[int], Encounter]]:
    """The starts games are played from, by name: the demo's set-up, the symmetric one and
    each fresh shape (``fresh pair``, ...)."""
    template = demo(ruleset_id)
    options = OPTIONS.get(ruleset_id, {})
    found: dict[str, Callable[[int], Encounter]] = {
        "demo": lambda seed: restarted(template, seed, options),
        "symmetric": lambda seed: symmetric_start(template, seed, options),
    }
    for shape in SHAPES:
        found[f"fresh {shape}"] = lambda seed, shape=shape: fresh_start(
            ruleset_id, shape, seed, options
        )
    return found


CHUNK = 4
"""Games one process plays at a time (even: the autopilot plays both sides equally)."""


def _cell(job: tuple[str, str, str, str, int, int]) -> tuple[MatchResult, Waste]:
    """One run of a cell's games (for a worker process): ``(ruleset, start, policy,
    opponent, games, seed)``, with the autopilot's wasted moves counted."""
    ruleset_id, name, policy, opponent, games, seed = job
    waste = Waste()

    def make(which: str) -> Policy:
        made = make_policy(which)
        return Watched(made, waste) if which == policy else made

    result = play_match(starts(ruleset_id)[name], policy, opponent, games, seed, make=make)
    return result, waste


def run(
    ruleset_id: str, games: int, policy: str = "aggressive", seed: int = 1, jobs: int = 1
) -> tuple[list[tuple[str, str, MatchResult]], Waste]:
    """Every (start, opponent, result) match of ``policy`` in ``ruleset_id``, its games
    played by ``jobs`` processes, and its wasted moves over them all."""
    cells = [(name, opponent) for name in starts(ruleset_id) for opponent in OPPONENTS]
    work = [
        (ruleset_id, name, policy, opponent, min(CHUNK, games - k), seed + k)
        for name, opponent in cells
        for k in range(0, games, CHUNK)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_cell, work))
    else:
        parts = [_cell(job) for job in work]
    results = []
    waste = Waste()
    for _result, part_waste in parts:
        waste.add(part_waste)
    for name, opponent in cells:
        total = MatchResult(policy, opponent)
        for job, (part, _waste) in zip(work, parts, strict=True):
            if job[1:4] == (name, policy, opponent):
                total.wins, total.losses = total.wins + part.wins, total.losses + part.losses
                total.draws += part.draws
                for who, times in part.timings.items():
                    total.timings.setdefault(who, []).extend(times)
        results.append((name, opponent, total))
    return results, waste


def share(results: list[MatchResult]) -> str:
    """The share of the decided games won, over ``results``, as 'W/L/D (P%)'."""
    won = sum(r.wins for r in results)
    lost = sum(r.losses for r in results)
    drawn = sum(r.draws for r in results)
    decided = won + lost
    percent = f"{100 * won / decided:.0f}%" if decided else "none decided"
    return f"{won}/{lost}/{drawn} ({percent})"


def main(argv: list[str]) -> None:
    """``[GAMES] [RULESET...]``: GAMES games a cell (default 50)."""
    games = int(argv[0]) if argv else 50
    ids = argv[1:] or [r.id for r in all_rulesets()]
    jobs = int(os.environ.get("HEXCOMBAT_AUTOPILOT_JOBS", "2"))
    print("| ruleset | start | opponent | won/lost/drawn (share of decided) | decision |")
    print("|---|---|---|---|---|")
    wastes: dict[str, Waste] = {}
    for ruleset_id in ids:
        began = time.monotonic()
        rows, wastes[ruleset_id] = run(ruleset_id, games, jobs=jobs)
        for start, opponent, r in rows:
            ms = sorted(t * 1000 for t in r.timings.get(r.a, [0.0]))
            print(
                f"| {ruleset_id} | {start} | {opponent} | {share([r])} | "
                f"median {statistics.median(ms):.0f} ms, worst {ms[-1]:.0f} ms |",
                flush=True,
            )
        for opponent in OPPONENTS:
            both = [r for _s, o, r in rows if o == opponent]
            print(f"| {ruleset_id} | all | {opponent} | {share(both)} | |", flush=True)
            fresh = [r for s, o, r in rows if o == opponent and s.startswith("fresh")]
            print(f"| {ruleset_id} | fresh | {opponent} | {share(fresh)} | |", flush=True)
        print(f"<!-- {ruleset_id}: {len(rows) * games} games, {time.monotonic() - began:.0f} s -->")
    print()
    print(f"| ruleset | decisions | {' | '.join(Waste.LABELS.values())} |")
    print(f"|---|---|{'---|' * len(Waste.LABELS)}")
    for ruleset_id, waste in wastes.items():
        counts = " | ".join(str(waste.counts.get(k, 0)) for k in Waste.LABELS)
        print(f"| {ruleset_id} | {waste.decisions} | {counts} |")


if __name__ == "__main__":
    main(sys.argv[1:])
