"""One revision of an encounter in localStorage: a small manifest over parts that never change.

A revision key ``hexcombat:enc:<id>:r<n>`` holds a manifest::

    {"format": "hexcombat-stored", "version": 1, "head": "<digest>",
     "log": ["<digest>", ...], "cursor": 4999, "seal": "<digest>"}

and each digest names a part, ``hexcombat:enc:<id>:p<digest>``: the head is the encounter
document without its log and cursor (:func:`hexcombat.document.setup_document`), each log
part a JSON list of :data:`CHUNK` log entries (the last may be shorter). A part's key is a
digest of its text, so a part is written once and never changed: undo, redo and a jump in
the log write only a new manifest (under 1 KB at 5,000 actions), an action rewrites the last
log part, a set-up edit the head. A revision is the manifest plus the parts it names, so the
library's guarantees hold as before (write the new revision completely, then point the
index at it).

The ``seal`` is the engine's :func:`~hexcombat.document.end_seal` of the encounter saved:
this device checked that log (every action was checked when it was played or replayed), so
opening it again replays it without the checks and keeps that replay only when it ends in
the sealed state (a different engine, set-up, log or end state: the checked replay, which
names a tampered entry). Only this library passes a seal: a file, a share link, a backup or
another device's fight is always checked (an export holds no seal). A manifest without one
(written before) is checked, and its next save adds it.

A revision written by an older version holds the whole document; it is read as it is, and the
next save writes a manifest (migration on read). Every text goes through the engine's
reader (:func:`hexcombat.document.read_json`), and the assembled document through
:func:`hexcombat.document.from_document`, so a damaged or hostile part is a problem of the
entry, never an exception that stops the library.
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from hexcombat.document import FORMAT, end_seal, read_json, setup_document
from hexcombat.encounter import Encounter, LogEntry, Setup, drained
from hexcombat.errors import InvalidDocumentError, Problem

MANIFEST_FORMAT = "hexcombat-stored"
MANIFEST_VERSION = 1
CHUNK = 250
"""Log entries per log part: an action rewrites at most this many entries' text."""
DIGEST = re.compile(r"^[0-9a-f]{16}$")
SEAL = re.compile(r"^[0-9a-f]{32}$")


def part_key(entry_id: str, digest: str) -> str:
    """The storage key of one part of an encounter."""
    return f"hexcombat:enc:{entry_id}:p{digest}"


PART_KEY = re.compile(r"^hexcombat:enc:([a-z0-9-]{1,40}):p([0-9a-f]{16})$")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Parts:
    """The parts of an encounter as last written or read: reused while its setup and log
    entries are the same objects, so a save serialises only what changed."""

    setup: Setup | None = None
    head: str = ""
    chunks: list[tuple[tuple[LogEntry, ...], str]] = field(default_factory=list)


Split = tuple[str, dict[str, str], Parts]
"""A revision ready to write: its manifest text, {part key: text} of the parts to write, and
the parts it names."""


def split(entry_id: str, enc: Encounter, known: Parts) -> Split:
    """(manifest text, {part key: text} of parts not in ``known``, the parts now)."""
    return drained(split_in_steps(entry_id, enc, known))


def split_in_steps(entry_id: str, enc: Encounter, known: Parts) -> Generator[None, None, Split]:
    """:func:`split` in steps of one new log part (a long fight saved for the first time
    is serialised in slices, see :mod:`web.engine_slices`)."""
    new: dict[str, str] = {}
    head = known.head
    if known.setup is not enc.setup:
        text = _compact(setup_document(enc.setup))
        head = _digest(text)
        new[part_key(entry_id, head)] = text
    log = enc.log
    chunks: list[tuple[tuple[LogEntry, ...], str]] = []
    for n, start in enumerate(range(0, len(log), CHUNK)):
        entries = log[start : start + CHUNK]
        if n < len(known.chunks):
            old, digest = known.chunks[n]
            if len(old) == len(entries) and all(map(operator.is_, old, entries)):
                chunks.append((old, digest))
                continue
        text = _compact([e.to_json() for e in entries])
        digest = _digest(text)
        new[part_key(entry_id, digest)] = text
        chunks.append((entries, digest))
        yield
    manifest = {
        "format": MANIFEST_FORMAT,
        "version": MANIFEST_VERSION,
        "head": head,
        "log": [digest for _, digest in chunks],
        "cursor": enc.cursor,
        "seal": end_seal(enc),
    }
    return _compact(manifest), new, Parts(enc.setup, head, chunks)


def is_manifest(data: Any) -> bool:
    """True when parsed stored text is a manifest (not a whole document)."""
    return isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT


def seal_of(data: dict[str, Any]) -> str:
    """The seal a parsed manifest holds ('' when it has none, or not one of the right form)."""
    seal = data.get("seal")
    return seal if isinstance(seal, str) and SEAL.match(seal) else ""


def referenced(entry_id: str, text: str | None) -> set[str]:
    """The part keys a stored revision's text names (none for a whole document)."""
    try:
        data: Any = read_json(text) if text is not None else None
    except InvalidDocumentError:
        return set()
    if not is_manifest(data):
        return set()
    digests = [data.get("head"), *(data.get("log") or [])]
    return {part_key(entry_id, d) for d in digests if isinstance(d, str) and DIGEST.match(d)}


def document(
    entry_id: str, data: dict[str, Any], get: Callable[[str], str | None]
) -> tuple[Any, list[int]]:
    """The encounter document a parsed manifest stands for, read from its parts, and the
    number of entries in each log part (InvalidDocumentError naming a missing, damaged or
    wrong part)."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > MANIFEST_VERSION:
        raise InvalidDocumentError(
            [Problem("version", "the saved entry was written by a newer Hex Combat")],
            "update Hex Combat to open this encounter",
        )
    head_digest, log_digests = data.get("head"), data.get("log")
    if not isinstance(log_digests, list):
        raise InvalidDocumentError([Problem("log", "the saved entry's log list is damaged")])
    head = _part(entry_id, head_digest, "head", get)
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise InvalidDocumentError([Problem("head", "the saved set-up is not an encounter's")])
    log: list[Any] = []
    sizes: list[int] = []
    for i, digest in enumerate(log_digests):
        part = _part(entry_id, digest, f"log[{i}]", get)
        if not isinstance(part, list):
            raise InvalidDocumentError([Problem(f"log[{i}]", "a saved log part is not a list")])
        log += part
        sizes.append(len(part))
    return {**head, "log": log, "cursor": data.get("cursor")}, sizes


def _part(entry_id: str, digest: Any, where: str, get: Callable[[str], str | None]) -> Any:
    if not isinstance(digest, str) or not DIGEST.match(digest):
        raise InvalidDocumentError([Problem(where, "the saved entry names a part wrongly")])
    key = part_key(entry_id, digest)
    text = get(key)
    if text is None:
        raise InvalidDocumentError(
            [Problem(where, f"its saved data is missing from the browser's storage ({key})")]
        )
    if _digest(text) != digest:
        raise InvalidDocumentError([Problem(where, f"its saved data was changed ({key})")])
    return read_json(text)


def known_parts(enc: Encounter, data: dict[str, Any], sizes: list[int]) -> Parts:
    """The parts of an encounter just read from a manifest, so its next save writes none;
    nothing is known when the parts are not cut as :func:`split` cuts them."""
    if any(n != CHUNK for n in sizes[:-1]) or (sizes and not 0 < sizes[-1] <= CHUNK):
        return Parts()
    log = enc.log
    chunks = [(log[n * CHUNK : (n + 1) * CHUNK], d) for n, d in enumerate(data["log"])]
    return Parts(enc.setup, str(data["head"]), chunks)
