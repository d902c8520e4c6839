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
from collections.abc import Callable

from .actions import read_action
from .board import Board
from .dice import Roll
from .encounter import Encounter, LogEntry, Setup
from .errors import HexcombatError, InvalidDocumentError, Problem, UnsupportedVersionError
from .figures import figure_from_json
from .rulesets import Ruleset, get_ruleset
from .validation import Json, Reader, describe

FORMAT = "hexcombat-encounter"
VERSION = 1
MAX_BOARD = 200
MAX_DOCUMENT_CHARS = 5_000_000

Migration = Callable[[dict[str, Json]], dict[str, Json]]
MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` turns a version-``n`` document into a version ``n + 1`` one."""


def to_document(encounter: Encounter) -> dict[str, Json]:
    """The encounter as a JSON-ready document (setup, log with rolls, cursor)."""
    setup = encounter.setup
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": setup.name,
        "notes": setup.notes,
        "ruleset": {"id": setup.ruleset, "options": dict(setup.options)},
        "board": setup.board.to_json(),
        "data": dict(setup.data),
        "figures": [f.to_json() for f in setup.figures],
        "dice": {"seed": setup.seed},
        "log": [e.to_json() for e in encounter.log],
        "cursor": encounter.cursor,
    }


def dumps(encounter: Encounter) -> str:
    """The encounter document as JSON text."""
    return json.dumps(to_document(encounter), ensure_ascii=False, indent=1)


def loads(text: str) -> Encounter:
    """Read an encounter from JSON text (InvalidDocumentError listing every problem)."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise InvalidDocumentError([Problem("", f"the file is too large ({len(text)} characters)")])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidDocumentError(
            [Problem("", f"not valid JSON ({exc.msg}) at line {exc.lineno}, column {exc.colno}")],
            "this is not an encounter file",
        ) from None
    return from_document(data)


def from_document(data: Json) -> Encounter:
    """Build an encounter from a parsed document, migrating older versions."""
    reader = Reader()
    doc = reader.object(data, "")
    reader.raise_if_any("this is not an encounter file")
    assert doc is not None
    doc = _migrated(doc)
    setup, log, cursor = _read(doc, reader)
    reader.raise_if_any()
    assert setup is not None and cursor is not None
    return Encounter(setup, log, cursor)


def to_share_code(encounter: Encounter) -> str:
    """A compact URL-safe code carrying the whole document (for share links)."""
    raw = json.dumps(to_document(encounter), separators=(",", ":"), ensure_ascii=False).encode()
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
    fmt = doc.get("format")
    if fmt != FORMAT:
        raise InvalidDocumentError(
            [Problem("format", f"must be {FORMAT!r}, got {describe(fmt)}")],
            "this is not an encounter file",
        )
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidDocumentError(
            [Problem("version", f"must be a whole number from 1, got {describe(version)}")]
        )
    if version > VERSION:
        raise UnsupportedVersionError(
            [
                Problem(
                    "version",
                    f"{version} was written by a newer hexcombat; this one reads up to {VERSION}",
                )
            ],
            "update hexcombat to open this encounter",
        )
    while version < VERSION:
        migration = MIGRATIONS.get(version)
        if migration is None:
            raise UnsupportedVersionError(
                [Problem("version", f"no migration from version {version}")]
            )
        doc = migration(doc)
        version += 1
        doc["version"] = version
    return doc


def _read(doc: dict[str, Json], reader: Reader) -> tuple[Setup | None, list[LogEntry], int | None]:
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
    figures = [
        fig
        for i, raw in enumerate(reader.list(doc.get("figures", []), "figures") or [])
        if (fig := figure_from_json(raw, f"figures[{i}]", reader)) is not None
    ]
    data = reader.object(doc.get("data", {}), "data") or {}
    dice = reader.object(doc.get("dice", {}), "dice") or {}
    seed = reader.integer(dice, "seed", "dice", minimum=0, default=1)
    log = [
        entry
        for i, raw in enumerate(reader.list(doc.get("log", []), "log") or [])
        if (entry := _entry(raw, f"log[{i}]", ruleset.default_die if ruleset else None, reader))
        is not None
    ]
    cursor = reader.integer(doc, "cursor", "", minimum=0, maximum=len(log), default=len(log))
    if (
        name is None
        or ruleset is None
        or board is None
        or seed is None
        or not isinstance(notes, str)
    ):
        return None, log, cursor
    return Setup(name, ruleset.id, options, board, tuple(figures), data, seed, notes), log, cursor


def _board(data: Json, ruleset: Ruleset | None, reader: Reader) -> Board | None:
    obj = reader.object(data, "board")
    if obj is None:
        return None
    width = reader.integer(obj, "width", "board", minimum=1, maximum=MAX_BOARD)
    height = reader.integer(obj, "height", "board", minimum=1, maximum=MAX_BOARD)
    if width is None or height is None or ruleset is None:
        return None
    try:
        return Board.from_json(obj, ruleset.terrain)
    except ValueError as exc:
        reader.problem("board", str(exc))
        return None


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
    if action is None or len(reader.problems) > before:
        return None
    return LogEntry(action, tuple(rolls))


__all__ = [
    "FORMAT",
    "MIGRATIONS",
    "VERSION",
    "dumps",
    "from_document",
    "from_share_code",
    "loads",
    "to_document",
    "to_share_code",
]
