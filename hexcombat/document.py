"""The encounter document: versioned JSON for saving, exporting, importing and sharing.

Loading checks everything and reports every problem with its path
(``figures[2].facing: must be 0-5, got 7``). A document from a newer
hexcombat is refused, never guessed at; older versions are migrated step by
step through :data:`MIGRATIONS`.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Callable, Generator, Mapping

from hexcombat.actions import read_action
from hexcombat.board import Board
from hexcombat.dice import Roll
from hexcombat.encounter import (
    MAX_SEED,
    NOTE_LIMIT,
    Encounter,
    LogEntry,
    Setup,
    drained,
    end_seal,
)
from hexcombat.errors import HexcombatError, InvalidDocumentError, Problem, UnsupportedVersionError
from hexcombat.figures import Figure, figure_from_json, parse_hex
from hexcombat.geometry import Hex
from hexcombat.map_picture import MapPicture, map_picture_from_json
from hexcombat.rulesets import Ruleset, get_ruleset
from hexcombat.setup_checks import figure_problems, option_problems, placement_problems
from hexcombat.validation import Json, Reader, describe, limit_problems, text_depth_problem

FORMAT = "hexcombat-encounter"
VERSION = 5
MAX_BOARD = 200
MAX_DOCUMENT_CHARS = 5_000_000
MAX_FIGURES = 500
MAX_LOG = 20_000

Migration = Callable[[dict[str, Json]], dict[str, Json]]


def _to_2(doc: dict[str, Json]) -> dict[str, Json]:
    """Version 2 adds ``autopilot`` (the sides the app plays) and log notes: none before."""
    return {**doc, "autopilot": {}}


def _to_3(doc: dict[str, Json]) -> dict[str, Json]:
    """Version 3 adds ``rolled`` to log entries (which rollable made which rolls, and its
    outcome): the replay records it, so an older log needs nothing added."""
    return doc


def _to_4(doc: dict[str, Json]) -> dict[str, Json]:
    """Version 4 lets the board name a map picture (``board.picture``): none before."""
    return dict(doc)


def _to_5(doc: dict[str, Json]) -> dict[str, Json]:
    """Version 5 lets a figure name a portrait for its token (``portrait``): none before."""
    return dict(doc)


MIGRATIONS: dict[int, Migration] = {1: _to_2, 2: _to_3, 3: _to_4, 4: _to_5}
"""``MIGRATIONS[n]`` turns a version-``n`` document into a version ``n + 1`` one."""


def to_document(encounter: Encounter, rolled: bool = True) -> dict[str, Json]:
    """The encounter as a JSON-ready document (setup, log with rolls, cursor); with
    ``rolled``, each entry says which rollable made which rolls and how it came out (what
    a replay records again: a share code leaves it out)."""
    return {
        **setup_document(encounter.setup),
        "log": [e.to_json(rolled) for e in encounter.log],
        "cursor": encounter.cursor,
    }


def setup_document(setup: Setup) -> dict[str, Json]:
    """The document without its ``log`` and ``cursor``: what a set-up edit changes."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": setup.name,
        "notes": setup.notes,
        "ruleset": {"id": setup.ruleset, "options": dict(setup.options)},
        "board": _board_json(setup),
        "data": dict(setup.data),
        "figures": [f.to_json() for f in setup.figures],
        "dice": {"seed": setup.seed},
        "autopilot": dict(setup.autopilot),
    }


def _board_json(setup: Setup) -> dict[str, Json]:
    """The board, with the map picture it lies over (by digest and alignment) if any."""
    board = setup.board.to_json()
    if setup.picture is not None:
        board["picture"] = setup.picture.to_json()
    return board


def dumps(encounter: Encounter) -> str:
    """The encounter document as JSON text."""
    return json.dumps(to_document(encounter), ensure_ascii=False, indent=1)


def loads(text: str) -> Encounter:
    """Read an encounter from JSON text (InvalidDocumentError listing every problem).

    The text's size and nesting depth are checked before it is parsed.
    """
    return drained(loads_in_steps(text))


def loads_in_steps(text: str) -> Generator[None, None, Encounter]:
    """:func:`loads` in steps of one log entry (see :meth:`Encounter.in_steps`), its text's
    checks and parse in steps of their own."""
    data = yield from read_json_in_steps(text)
    yield
    return (yield from from_document_in_steps(data))


def read_json(text: str, max_chars: int = MAX_DOCUMENT_CHARS) -> Json:
    """Untrusted JSON text parsed, or InvalidDocumentError saying why not.

    Every JSON text the app reads goes through here: its size (at most ``max_chars``) and
    nesting depth are checked before it is parsed, so a hostile file is refused with a
    message instead of exhausting the parser's stack; NaN, Infinity and integers of
    thousands of digits are refused too.
    """
    return drained(read_json_in_steps(text, max_chars))


def read_json_in_steps(
    text: str, max_chars: int = MAX_DOCUMENT_CHARS
) -> Generator[None, None, Json]:
    """:func:`read_json` in two steps: the checks, then the parse."""
    if not isinstance(text, str):
        raise InvalidDocumentError([Problem("", f"must be JSON text, got {describe(text)}")])
    if len(text) > max_chars:
        raise InvalidDocumentError(
            [
                Problem(
                    "",
                    f"the file is too large ({len(text)} characters; "
                    f"at most {max_chars} are allowed)",
                )
            ]
        )
    deep = text_depth_problem(text)
    if deep is not None:
        raise InvalidDocumentError([deep], "this is not an encounter file")
    yield
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidDocumentError(
            [Problem("", f"not valid JSON ({exc.msg}) at line {exc.lineno}, column {exc.colno}")],
            "this is not an encounter file",
        ) from None
    except (ValueError, RecursionError) as exc:
        # An integer of thousands of digits (the int-to-text limit), NaN or Infinity.
        raise InvalidDocumentError(
            [Problem("", f"holds a value JSON documents may not: {exc}")],
            "this is not an encounter file",
        ) from None


def _refuse_constant(name: str) -> Json:
    raise ValueError(f"{name} is not a number (only finite numbers are allowed)")


def from_document(data: Json, *, end_seal: str = "") -> Encounter:
    """Build an encounter from a parsed document, migrating older versions.

    ``end_seal`` only for a document this device saved itself, with the
    :func:`~hexcombat.encounter.end_seal` it kept beside it (a replay that skips the checks
    of each action and is kept only when it ends in the sealed state; see :class:`Encounter`).
    """
    return drained(from_document_in_steps(data, end_seal=end_seal))


def from_document_in_steps(data: Json, *, end_seal: str = "") -> Generator[None, None, Encounter]:
    """:func:`from_document` in steps of one log entry (see :meth:`Encounter.in_steps`)."""
    reader = Reader()
    reader.problems += limit_problems(data)
    reader.raise_if_any("this document is beyond hexcombat's limits")
    yield
    doc = reader.object(data, "")
    reader.raise_if_any("this is not an encounter file")
    assert doc is not None
    doc = _migrated(doc)
    setup, log, cursor = yield from _read(doc, reader)
    reader.raise_if_any()
    assert setup is not None and cursor is not None
    yield
    return (yield from Encounter.in_steps(setup, log, cursor, end_seal=end_seal))


def _semantic_problems(
    ruleset: Ruleset | None,
    options: dict[str, Json],
    board: Board | None,
    figures: list[tuple[int, Figure]],
    data: dict[str, Json],
) -> list[Problem]:
    """The set-up checks that can run on the parts that were read, so one pass reports all."""
    if ruleset is None:
        return []
    problems = option_problems(options, ruleset) + figure_problems(figures, ruleset, data)
    if board is not None:
        limit = ruleset.stacking({**ruleset.default_options(), **options})
        problems += placement_problems(figures, board, limit)
    return problems


def to_share_code(encounter: Encounter) -> str:
    """A compact URL-safe code carrying the whole document (for share links)."""
    document = to_document(encounter, rolled=False)
    raw = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def from_share_code(code: str) -> Encounter:
    """Read an encounter from a share code made by :func:`to_share_code`."""
    try:
        padded = code.strip() + "=" * (-len(code.strip()) % 4)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(base64.urlsafe_b64decode(padded), MAX_DOCUMENT_CHARS)
        if not inflater.eof:
            raise ValueError("truncated")
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise InvalidDocumentError(
            [Problem("", "the share code is damaged or incomplete")]
        ) from None
    return loads(text)


def _migrated(doc: dict[str, Json]) -> dict[str, Json]:
    return migrated(doc, FORMAT, VERSION, MIGRATIONS, "encounter")


def migrated(
    doc: dict[str, Json],
    fmt: str,
    latest: int,
    migrations: Mapping[int, Migration],
    what: str,
) -> dict[str, Json]:
    """``doc``, a file of format ``fmt`` (``what`` it holds, for its errors), brought up to
    version ``latest`` one migration at a time; refused when it is another format, its
    version is no version, or a newer hexcombat wrote it."""
    found = doc.get("format")
    if found != fmt:
        article = "an" if what[0] in "aeiou" else "a"
        raise InvalidDocumentError(
            [Problem("format", f"must be {fmt!r}, got {describe(found)}")],
            f"this is not {article} {what} file",
        )
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidDocumentError(
            [Problem("version", f"must be a whole number from 1, got {describe(version)}")]
        )
    if version > latest:
        raise UnsupportedVersionError(
            [
                Problem(
                    "version",
                    f"{version} was written by a newer hexcombat; this one reads up to {latest}",
                )
            ],
            f"update hexcombat to open this {what}",
        )
    while version < latest:
        migration = migrations.get(version)
        if migration is None:
            raise UnsupportedVersionError(
                [Problem("version", f"no migration from version {version}")]
            )
        doc = {**migration(doc), "version": version + 1}
        version += 1
    return doc


def _read(
    doc: dict[str, Json], reader: Reader
) -> Generator[None, None, tuple[Setup | None, list[LogEntry], int | None]]:
    """The set-up, log and cursor of ``doc`` (its problems noted by ``reader``), in steps of
    one log entry."""
    name = reader.string(doc, "name", "")
    notes = doc.get("notes", "")
    if not isinstance(notes, str):
        reader.problem("notes", f"must be text, got {describe(notes)}")
    rs_obj = reader.object(doc.get("ruleset"), "ruleset")
    ruleset = None
    options: dict[str, Json] = {}
    if rs_obj is not None:
        rs_id = reader.string(rs_obj, "id", "ruleset")
        if rs_id is not None:
            try:
                ruleset = get_ruleset(rs_id)
            except HexcombatError as exc:
                reader.problem("ruleset.id", str(exc))
        options = reader.object(rs_obj.get("options", {}), "ruleset.options") or {}
    board = _board(doc.get("board"), ruleset, reader)
    picture = _picture(doc.get("board"), reader)
    figures = [
        (i, fig)
        for i, raw in enumerate(_limited(doc, "figures", MAX_FIGURES, reader))
        if (fig := figure_from_json(raw, f"figures[{i}]", reader)) is not None
    ]
    data = reader.object(doc.get("data", {}), "data") or {}
    if reader.problems:
        reader.problems += _semantic_problems(ruleset, options, board, figures, data)
    dice = reader.object(doc.get("dice", {}), "dice") or {}
    seed = reader.integer(dice, "seed", "dice", minimum=0, maximum=MAX_SEED, default=1)
    log = []
    for i, raw in enumerate(_limited(doc, "log", MAX_LOG, reader)):
        entry = _entry(raw, f"log[{i}]", ruleset.default_die if ruleset else None, reader)
        if entry is not None:
            log.append(entry)
        yield
    cursor = reader.integer(doc, "cursor", "", minimum=0, maximum=len(log), default=len(log))
    autopilot = reader.object(doc.get("autopilot", {}), "autopilot") or {}
    for side, temper in autopilot.items():
        if not isinstance(temper, str):
            reader.problem(f"autopilot.{side}", f"must be text, got {describe(temper)}")
    if (
        name is None
        or ruleset is None
        or board is None
        or seed is None
        or not isinstance(notes, str)
    ):
        return None, log, cursor
    sides = {k: v for k, v in autopilot.items() if isinstance(v, str)}
    chosen = tuple(f for _, f in figures)
    setup = Setup(name, ruleset.id, options, board, chosen, data, seed, notes, sides, picture)
    return setup, log, cursor


def _limited(doc: dict[str, Json], key: str, limit: int, reader: Reader) -> list[Json]:
    """The list ``doc[key]`` (empty when absent), refused when longer than ``limit``."""
    items = reader.list(doc.get(key, []), key) or []
    if len(items) > limit:
        reader.problem(key, f"has {len(items)} entries; at most {limit} are allowed")
        return []
    return items


def _board(data: Json, ruleset: Ruleset | None, reader: Reader) -> Board | None:
    obj = reader.object(data, "board")
    if obj is None:
        return None
    width = reader.integer(obj, "width", "board", minimum=1, maximum=MAX_BOARD)
    height = reader.integer(obj, "height", "board", minimum=1, maximum=MAX_BOARD)
    if width is None or height is None or ruleset is None:
        return None
    table = ruleset.terrain
    empty = Board(width, height, table)
    terrain: dict[Hex, str] = {}
    for key, value in (reader.object(obj.get("terrain", {}), "board.terrain") or {}).items():
        path = f"board.terrain.{key}"
        h = _board_hex(key, path, empty, reader)
        if not isinstance(value, str) or value not in table:
            reader.problem(
                path, f"unknown terrain {describe(value)}; known: {', '.join(table.ids())}"
            )
        elif h is not None:
            terrain[h] = value
    features: dict[Hex, tuple[str, ...]] = {}
    for key, value in (reader.object(obj.get("features", {}), "board.features") or {}).items():
        path = f"board.features.{key}"
        h = _board_hex(key, path, empty, reader)
        if not isinstance(value, list) or not all(isinstance(n, str) and n for n in value):
            reader.problem(path, f"must be a list of feature names, got {describe(value)}")
        elif h is not None:
            features[h] = tuple(value)
    for key in sorted(set(obj) - {"width", "height", "terrain", "features", "picture"}):
        reader.problem(
            f"board.{key}", "is not a board field (width, height, terrain, features, picture)"
        )
    # With problems recorded the document is refused anyway; the board of the valid entries
    # still lets the figures' positions be checked in the same pass.
    return Board(width, height, table, terrain, features)


def _picture(data: Json, reader: Reader) -> MapPicture | None:
    """The board's map picture, if it names one (its problems recorded)."""
    if not isinstance(data, dict) or "picture" not in data:
        return None
    return map_picture_from_json(data["picture"], "board.picture", reader)


def _board_hex(key: str, path: str, board: Board, reader: Reader) -> Hex | None:
    h = parse_hex(key, path, reader)
    if h is not None and not board.contains(h):
        reader.problem(path, f"{h} is off the {board.width}x{board.height} board")
        return None
    return h


def _entry(data: Json, path: str, default_sides: int | None, reader: Reader) -> LogEntry | None:
    obj = reader.object(data, path)
    if obj is None:
        return None
    before = len(reader.problems)
    action = read_action(obj.get("action"), f"{path}.action", reader)
    rolls = []
    for i, raw in enumerate(reader.list(obj.get("rolls", []), f"{path}.rolls") or []):
        try:
            rolls.append(Roll.from_json(raw, default_sides))
        except (ValueError, KeyError, TypeError) as exc:
            reader.problem(f"{path}.rolls[{i}]", str(exc))
    note = obj.get("note", "")
    if not isinstance(note, str) or len(note) > NOTE_LIMIT:
        reader.problem(f"{path}.note", f"must be text of at most {NOTE_LIMIT} characters")
    if action is None or len(reader.problems) > before or not isinstance(note, str):
        return None
    return LogEntry(action, tuple(rolls), note)


__all__ = [
    "FORMAT",
    "MAX_FIGURES",
    "MAX_LOG",
    "MAX_SEED",
    "MIGRATIONS",
    "VERSION",
    "dumps",
    "end_seal",
    "from_document",
    "from_share_code",
    "loads",
    "to_document",
    "to_share_code",
]
