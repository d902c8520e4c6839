"""Games of the autopilot against the random, rush and greedy baselines, from every ruleset's
demo (its set-up, no action played), a symmetric start and fresh starts it never saw
(:mod:`hexcombat.autopilot.starts`: three shapes of figures made from the ruleset's fields
and catalogue on scattered terrain), sides swapped game by game.

``python tests/autopilot_games.py [GAMES] [RULESET...] [--starts S,...] [--against O,...]
[--sides drawn|mirrored]``
is the long mode (``tests/fuzz`` runs it with ``HEXCOMBAT_AUTOPILOT`` games): GAMES games
(default 50) per ruleset, start and opponent, printing won/lost/drawn, the autopilot's share
of the decided games, the draws that were stand-offs (not cut at the limit of actions), its
decision times and the seeds of the games it lost or drew (and of the draws cut) per
cell as each cell ends, then per ruleset and opponent, with the counts of its moves a player
would call a waste (:func:`wasted`) per ruleset and opponent. ``--starts`` picks the starts
(``demo``, ``symmetric``, ``fresh`` for every fresh shape, or a shape: ``pair``, ...; default
all), ``--against`` the opponents (default all of :data:`OPPONENTS`) and ``--sides`` how the
fresh starts' sides are made (:data:`~hexcombat.autopilot.starts.SIDES`: ``drawn``, the
default, or ``mirrored``, side B side A turned half round). The games are shared
out to ``HEXCOMBAT_AUTOPILOT_JOBS`` processes (default 2), in even runs of seeds so that
sides still swap game by game; the figures are the same for any number of processes. The
normal suite plays a few of them (``tests/test_autopilot_play.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from autopilot_waste import Waste, Watched  # noqa: E402

from hexcombat import Encounter, loads  # noqa: E402
from hexcombat.autopilot.play import (  # noqa: E402
    MAX_ACTIONS,
    MatchResult,
    play_match,
    restarted,
    symmetric_start,
)
from hexcombat.autopilot.players import make_policy  # noqa: E402
from hexcombat.autopilot.policy import Policy  # noqa: E402
from hexcombat.autopilot.starts import SHAPES, SIDES, fresh_start  # noqa: E402
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


def starts(ruleset_id: str, sides: str = "drawn") -> dict[str, Callable[[int], Encounter]]:
    """The starts games are played from, by name: the demo's set-up, the symmetric one and
    each fresh shape (``fresh pair``, ...), its sides made as ``sides`` says."""
    template = demo(ruleset_id)
    options = OPTIONS.get(ruleset_id, {})
    found: dict[str, Callable[[int], Encounter]] = {
        "demo": lambda seed: restarted(template, seed, options),
        "symmetric": lambda seed: symmetric_start(template, seed, options),
    }
    for shape in SHAPES:
        found[f"fresh {shape}"] = lambda seed, shape=shape: fresh_start(
            ruleset_id, shape, seed, options, sides
        )
    return found


CHUNK = 4
"""Games one process plays at a time (even: the autopilot plays both sides equally)."""


def _cell(job: tuple[str, str, str, str, int, int, str]) -> tuple[MatchResult, Waste]:
    """One run of a cell's games (for a worker process): ``(ruleset, start, policy,
    opponent, games, seed, sides)``, with the autopilot's wasted moves counted."""
    ruleset_id, name, policy, opponent, games, seed, sides = job
    waste = Waste()

    def make(which: str) -> Policy:
        made = make_policy(which)
        return Watched(made, waste) if which == policy else made

    result = play_match(starts(ruleset_id, sides)[name], policy, opponent, games, seed, make=make)
    return result, waste


def chosen_starts(ruleset_id: str, names: list[str] | None) -> list[str]:
    """The names of ``ruleset_id``'s starts that ``names`` picks (None: every start):
    ``fresh`` stands for every fresh shape and a shape's own name for its start."""
    known = list(starts(ruleset_id))
    if names is None:
        return known
    picked: list[str] = []
    for name in names:
        matches = [k for k in known if name in (k, k.split()[0], k.split()[-1])]
        if not matches:
            raise SystemExit(
                f"unknown start {name!r}; choose from demo, symmetric, fresh, {', '.join(SHAPES)}"
            )
        picked += [k for k in matches if k not in picked]
    return picked


def run(
    ruleset_id: str,
    games: int,
    policy: str = "aggressive",
    seed: int = 1,
    jobs: int = 1,
    names: list[str] | None = None,
    opponents: tuple[str, ...] = OPPONENTS,
    sides: str = "drawn",
) -> Iterator[tuple[str, str, MatchResult, Waste]]:
    """Every (start, opponent, result, wasted moves) match of ``policy`` in ``ruleset_id``
    from the starts ``names`` picks (:func:`chosen_starts`, their sides made as ``sides``
    says) against ``opponents``, its games played by ``jobs`` processes, each yielded as
    soon as its games are played."""
    cells = [(name, o) for name in chosen_starts(ruleset_id, names) for o in opponents]
    work = [
        (ruleset_id, name, policy, opponent, min(CHUNK, games - k), seed + k, sides)
        for name, opponent in cells
        for k in range(0, games, CHUNK)
    ]
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    parts = iter(pool.map(_cell, work) if pool else map(_cell, work))
    try:
        for name, opponent in cells:
            total, waste = MatchResult(policy, opponent), Waste()
            for _k in range(0, games, CHUNK):
                part, part_waste = next(parts)
                total.wins, total.losses = total.wins + part.wins, total.losses + part.losses
                total.draws += part.draws
                total.lost += part.lost
                total.drawn += part.drawn
                total.cut += part.cut
                for who, times in part.timings.items():
                    total.timings.setdefault(who, []).extend(times)
                waste.add(part_waste)
            yield name, opponent, total, waste
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)


def share(results: list[MatchResult]) -> str:
    """The share of the decided games won, over ``results``, as 'W/L/D (P%, S stood off)':
    the draws that were not cut at the limit of actions (:attr:`MatchResult.stood_off`)."""
    won = sum(r.wins for r in results)
    lost = sum(r.losses for r in results)
    drawn = sum(r.draws for r in results)
    stood = sum(r.stood_off for r in results)
    decided = won + lost
    percent = f"{100 * won / decided:.0f}%" if decided else "none decided"
    return f"{won}/{lost}/{drawn} ({percent}, {stood} stood off)"


def _listed(text: str) -> list[str]:
    """A comma-separated option's items."""
    return [item.strip() for item in text.split(",") if item.strip()]


def main(argv: list[str]) -> None:
    """``[GAMES] [RULESET...] [--starts S,...] [--against O,...] [--sides S]``: GAMES games
    a cell (default 50)."""
    parser = argparse.ArgumentParser(prog="autopilot_games.py")
    parser.add_argument("games", nargs="?", type=int, default=50)
    parser.add_argument("rulesets", nargs="*", metavar="ruleset")
    parser.add_argument(
        "--starts", type=_listed, default=None, help="demo,symmetric,fresh,pair,..."
    )
    parser.add_argument(
        "--against", type=_listed, default=list(OPPONENTS), help=",".join(OPPONENTS)
    )
    parser.add_argument("--sides", choices=SIDES, default="drawn", help="how fresh sides are made")
    args = parser.parse_args(argv)
    unknown = [o for o in args.against if o not in OPPONENTS]
    if unknown:
        parser.error(f"unknown opponent {unknown[0]!r}; choose from {', '.join(OPPONENTS)}")
    against = tuple(args.against)
    games: int = args.games
    ids = args.rulesets or [r.id for r in all_rulesets()]
    jobs = int(os.environ.get("HEXCOMBAT_AUTOPILOT_JOBS", "2"))
    print(
        "| ruleset | start | opponent | won/lost/drawn (share of decided, stood off) | decision "
        "| seeds |"
    )
    print("|---|---|---|---|---|---|")
    wastes: dict[tuple[str, str], Waste] = {}
    for ruleset_id in ids:
        began = time.monotonic()
        rows = []
        for start, opponent, r, waste in run(
            ruleset_id, games, jobs=jobs, names=args.starts, opponents=against, sides=args.sides
        ):
            rows.append((start, opponent, r))
            wastes.setdefault((ruleset_id, opponent), Waste()).add(waste)
            ms = sorted(t * 1000 for t in r.timings.get(r.a, [0.0]))
            print(
                f"| {ruleset_id} | {start} | {opponent} | {share([r])} | "
                f"median {statistics.median(ms):.0f} ms, worst {ms[-1]:.0f} ms | "
                f"lost {r.lost}, drawn {r.drawn}, cut at {MAX_ACTIONS} actions {r.cut} |",
                flush=True,
            )
        for opponent in against:
            for label, rule in (("all", ""), ("fresh", "fresh")):
                picked = [r for s, o, r in rows if o == opponent and s.startswith(rule)]
                ms = sorted(t * 1000 for r in picked for t in r.timings.get(r.a, []))
                times = (
                    f"median {statistics.median(ms):.0f} ms, worst {ms[-1]:.0f} ms" if ms else ""
                )
                if picked:
                    print(f"| {ruleset_id} | {label} | {opponent} | {share(picked)} | {times} | |")
        print(f"<!-- {ruleset_id}: {len(rows) * games} games, {time.monotonic() - began:.0f} s -->")
    print()
    print(f"| ruleset | opponent | decisions | {' | '.join(Waste.LABELS.values())} |")
    print(f"|---|---|---|{'---|' * len(Waste.LABELS)}")
    for (ruleset_id, opponent), waste in wastes.items():
        counts = " | ".join(str(waste.counts.get(k, 0)) for k in Waste.LABELS)
        print(f"| {ruleset_id} | {opponent} | {waste.decisions} | {counts} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
