"""``hexcombat autoplay``: two policies play an encounter's sides for N seeded games."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from pathlib import Path

from hexcombat.autopilot import POLICIES
from hexcombat.autopilot.play import MAX_ACTIONS, Watch, play_match, restarted, symmetric_start
from hexcombat.autopilot.policy import Decision
from hexcombat.encounter import Encounter
from hexcombat.errors import HexcombatError
from hexcombat.validation import Json


def add_autoplay_arguments(p: argparse.ArgumentParser) -> None:
    """The ``autoplay`` command's arguments (after the encounter file)."""
    p.add_argument("file", type=Path, help="an encounter document, e.g. static/demos/skirmish.json")
    p.add_argument("--a", default="aggressive", choices=POLICIES, help="the policy scored")
    p.add_argument("--b", default="random", choices=POLICIES, help="its opponent")
    p.add_argument("--games", type=int, default=10, help="games to play (sides swapped)")
    p.add_argument("--seed", type=int, default=1, help="the first game's dice seed")
    p.add_argument(
        "--start",
        choices=("document", "restart", "symmetric"),
        default="restart",
        help="play from the document as saved, from its set-up with no action played "
        "(default), or from two against two copies of its first figure",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a ruleset option for every game (repeatable)",
    )
    p.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help="a draw after this")
    p.add_argument(
        "--watch", action="store_true", help="print every move with its reason, game by game"
    )


def _options(pairs: list[str]) -> dict[str, Json]:
    options: dict[str, Json] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise HexcombatError(f"an option is NAME=VALUE, got {pair!r}")
        try:
            options[name] = json.loads(text)
        except ValueError:
            options[name] = text
    return options


def _watcher(args: argparse.Namespace) -> Callable[[int], Watch] | None:
    """With ``--watch``: for game i, a printer of each move (the side, then why)."""
    if not args.watch:
        return None

    def game(i: int) -> Watch:
        def move(side: str | None, decision: Decision) -> None:
            print(f"game {i + 1}, {side or 'the table'}: {decision.reason}")

        return move

    return game


def autoplay(encounter: Encounter, args: argparse.Namespace) -> int:
    """Play the games and print wins, losses, draws and decision times; 1 on bad input."""
    try:
        if args.games < 1 or args.max_actions < 1:
            raise HexcombatError("--games and --max-actions must be at least 1")
        options = _options(args.option)

        def start(seed: int) -> Encounter:
            if args.start == "symmetric":
                return symmetric_start(encounter, seed, options)
            if args.start == "restart":
                return restarted(encounter, seed, options)
            return encounter.with_setup(seed=seed, options={**encounter.setup.options, **options})

        result = play_match(
            start, args.a, args.b, args.games, args.seed, args.max_actions, _watcher(args)
        )
    except HexcombatError as exc:
        print(f"hexcombat autoplay: {exc}")
        return 1
    print(
        f"{args.a} against {args.b}: {args.games} game{'s' if args.games != 1 else ''} of "
        f"{encounter.setup.name!r} "
        f"({encounter.ruleset.name}, start: {args.start}, sides swapped each game)"
    )
    decided = result.wins + result.losses
    share = f" ({100 * result.decided_share:.0f}% of decided games)" if decided else ""
    print(f"{args.a}: {result.wins} won, {result.losses} lost, {result.draws} drawn{share}")
    for name, times in result.timings.items():
        ms = sorted(t * 1000 for t in times)
        print(
            f"decision time, {name}: median {statistics.median(ms):.0f} ms, "
            f"worst {ms[-1]:.0f} ms over {len(ms)} decisions"
        )
    return 0
