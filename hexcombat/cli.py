"""The ``hexcombat`` command: validate, replay and render encounter files; list rulesets."""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from hexcombat import __version__
from hexcombat.autoplay_cli import add_autoplay_arguments, autoplay
from hexcombat.document import loads
from hexcombat.encounter import Encounter
from hexcombat.errors import HexcombatError, InvalidDocumentError
from hexcombat.map_picture import digest_of
from hexcombat.rulesets import all_rulesets
from hexcombat.share import board_svg
from hexcombat.view import ruleset_view


def _parser() -> argparse.ArgumentParser:
    """The command line's commands and their arguments."""
    parser = argparse.ArgumentParser(prog="hexcombat", description=__doc__)
    parser.add_argument("--version", action="version", version=f"hexcombat {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("validate", help="check an encounter file and list every problem")
    p.add_argument("file", type=Path)
    p = commands.add_parser(
        "replay", help="replay an encounter's action log and print the combat log"
    )
    p.add_argument("file", type=Path)
    p.add_argument("--details", action="store_true", help="print every modifier and roll")
    p.add_argument(
        "--saved",
        action="store_true",
        help="stop where the file was saved (default: the whole log, undone actions too)",
    )
    p = commands.add_parser(
        "render", help="write a static SVG of the board (for wikis without JavaScript)"
    )
    p.add_argument("file", type=Path)
    p.add_argument(
        "-o", "--output", type=Path, required=True, help="SVG file to write ('-' for stdout)"
    )
    p.add_argument(
        "--coords",
        action="store_true",
        help="print hex labels (column letter, row number) on the board",
    )
    p.add_argument(
        "--picture",
        type=Path,
        help="the board's map picture (PNG, JPEG or WebP file) to draw under the hexes",
    )
    p.add_argument(
        "--portrait",
        type=Path,
        action="append",
        default=[],
        help="a figure's portrait file to draw on its token (repeat for each figure)",
    )
    p = commands.add_parser(
        "autoplay", help="pit two policies against each other for N seeded games"
    )
    add_autoplay_arguments(p)
    p = commands.add_parser("rulesets", help="list the rulesets and their options")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 invalid input, 2 usage)."""
    args = _parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        # Text from a file is printed as it is; a terminal that cannot show a character
        # gets an escape instead of a traceback.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if args.command == "rulesets":
        return _rulesets(args.json)
    try:
        encounter = _load(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"hexcombat: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    except InvalidDocumentError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    if args.command == "autoplay":
        return autoplay(encounter, args)
    if args.command == "validate":
        state = encounter.state
        print(
            f"{args.file}: ok: {encounter.setup.name!r}, {encounter.ruleset.id}, "
            f"{state.board.width}x{state.board.height} board, {len(state.figures)} figures, "
            f"{encounter.cursor} of {len(encounter.log)} actions applied, "
            f"now {encounter.ruleset.time.label(state.clock)}"
        )
        return 0
    if args.command == "replay":
        return _replay(encounter, args.details, args.saved)
    return _render(encounter, args.output, args.coords, args.picture, args.portrait)


def _render(
    encounter: Encounter,
    output: Path,
    coords: bool,
    picture: Path | None,
    portraits: Sequence[Path] = (),
) -> int:
    """Write the board's SVG (with its map picture and the figures' portraits when given
    their files)."""
    try:
        svg = board_svg(
            encounter,
            show_coords=coords,
            picture=_picture_bytes(picture),
            portraits=_portrait_bytes(encounter, portraits),
        )
    except (OSError, ValueError) as exc:
        print(f"hexcombat: {exc}", file=sys.stderr)
        return 1
    if str(output) == "-":
        sys.stdout.write(svg)
    else:
        output.write_text(svg, encoding="utf-8")
        print(f"wrote {output}")
    return 0


def _picture_bytes(path: Path | None) -> bytes | None:
    """The map picture file's bytes, when one is given."""
    if path is None:
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        raise OSError(f"cannot read the map picture {path}: {exc.strerror or exc}") from None


def _portrait_bytes(encounter: Encounter, paths: Sequence[Path]) -> dict[str, bytes]:
    """The portrait files' bytes by digest, each the portrait of a figure of ``encounter``."""
    named = {f.portrait.digest for f in encounter.setup.figures if f.portrait is not None}
    found: dict[str, bytes] = {}
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise OSError(f"cannot read the portrait {path}: {exc.strerror or exc}") from None
        if digest_of(data) not in named:
            raise ValueError(f"{path} is not the portrait of any figure of this encounter")
        found[digest_of(data)] = data
    return found


def _load(path: Path) -> Encounter:
    try:
        return loads(path.read_text(encoding="utf-8"))
    except HexcombatError:
        raise
    except ValueError as exc:
        raise InvalidDocumentError([], str(exc)) from exc


def _replay(saved: Encounter, details: bool, stop_at_saved: bool) -> int:
    """Print the combat log: the whole log, or with ``stop_at_saved`` up to the saved step."""
    encounter = saved.copy()
    while encounter.can_redo and not stop_at_saved:
        encounter.redo()
    print(f"{encounter.setup.name} ({encounter.ruleset.name})")
    time = encounter.ruleset.time
    for event in encounter.events:
        counters = event.data.get("time")
        when = ".".join(map(str, counters)) if isinstance(counters, list) else ""
        uncited = _uncited_rules(event.text, event.rule)
        shown_rule = f"  ({', '.join(uncited)})" if uncited else ""
        print(f"[{'.'.join(time.units)} {when}] {event.text}{shown_rule}")
        if details:
            for line in event.details:
                print(f"    {line}")
            for roll in event.rolls:
                print(f"    rolled {roll.get('expr')}: {roll.get('faces')}")
    print(f"now: {time.label(encounter.state.clock)}")
    total = len(saved.log)
    if saved.cursor < total:
        print(
            f"saved at action {saved.cursor} of {total} (the app opens it there); "
            + (
                "without --saved the whole log is printed"
                if stop_at_saved
                else "--saved stops there"
            )
        )
    return 0


def _uncited_rules(text: str, rules: str) -> list[str]:
    """The rule ids of ``rules`` (comma-separated) that ``text`` does not already name."""
    ids = [r.strip() for r in rules.split(",") if r.strip()]
    return [r for r in ids if not re.search(rf"(?<![\w-]){re.escape(r)}(?![\w-])", text)]


def _rulesets(as_json: bool) -> int:
    views = [ruleset_view(r) for r in all_rulesets()]
    if as_json:
        print(json.dumps(views, indent=1))
        return 0
    for v in views:
        print(f"{v['id']}: {v['name']} — {v['summary']}")
        for o in v["options"]:
            rule = f" [{o['rule']}]" if o.get("rule") else ""
            print(f"    {o['name']} = {json.dumps(o['default'])}{rule}: {o['label']}")
    return 0
