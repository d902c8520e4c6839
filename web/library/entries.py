"""The library's keys, entries and errors: what a stored encounter is called (its keys in
the store, its index row), an entry as the list shows it, the reasons a library operation
fails, and small helpers (file names, times, ids, JSON read within the engine's limits)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hexcombat.document import read_json
from hexcombat.errors import HexcombatError, Problem
from web.library import stored

PREFIX = "hexcombat:"
INDEX_KEY = PREFIX + "index"
LAST_KEY = PREFIX + "last"
INDEX_FORMAT = "hexcombat-library"
INDEX_VERSION = 1
DOC_KEY = re.compile(r"^hexcombat:enc:([a-z0-9-]{1,40}):r([1-9][0-9]{0,9})$")
ID_PATTERN = re.compile(r"^[a-z0-9-]{1,40}$")
PICTURE_DIGEST = re.compile(r"[0-9a-f]{64}")
"""A map picture's digest (``hexcombat.map_picture.digest_of``), as an index row names it."""
UNSAFE_FILENAME = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')
NUMBERED = re.compile(r"^(.*?) \((\d+)\)$")
FILENAME_LIMIT = 80


class LibraryError(Exception):
    """A library operation that cannot be done; the message says why in plain words."""


class StorageFullError(LibraryError):
    """The browser refused a write because its storage for this site is full."""


class UnknownEntryError(LibraryError, KeyError):
    """No encounter with that id is in the library."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such encounter"


class ConflictError(LibraryError):
    """Another tab saved the entry since the revision this save started from.

    ``entry`` is the entry as stored now (its ``revision`` is theirs); nothing was written.
    """

    def __init__(self, message: str, entry: Entry) -> None:
        self.entry = entry
        super().__init__(message)


class EntryGoneError(LibraryError):
    """The entry was deleted (``entry`` is in the trash) or removed for good (``entry`` is None)
    since this save's revision was read: it is not written, and never re-created silently."""

    def __init__(self, message: str, entry: Entry | None) -> None:
        self.entry = entry
        super().__init__(message)


class DamagedEntryError(LibraryError):
    """The entry cannot be read, so it was left exactly as it is (``problems`` say why)."""

    def __init__(self, message: str, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        super().__init__(message)


@dataclass(frozen=True)
class Entry:
    """One encounter of the library as the list shows it.

    ``changed`` is an ISO 8601 UTC time ('' when unknown); ``problems`` is empty
    for a readable entry; ``deleted`` is the time it went to the trash ('' if not); ``map``
    is the digest of its map picture ('' without one), which ``index.html``'s start-up
    reads from the picture store while Python starts when it opens the entry.
    """

    id: str
    name: str
    ruleset: str
    changed: str
    revision: int
    problems: tuple[Problem, ...] = ()
    deleted: str = ""
    map: str = ""

    @property
    def readable(self) -> bool:
        """True when the entry opens without problems."""
        return not self.problems

    @property
    def key(self) -> str:
        """The storage key of the entry's current revision."""
        return doc_key(self.id, self.revision)

    def to_json(self) -> dict[str, Any]:
        """The entry as the index stores it."""
        data: dict[str, Any] = {
            "name": self.name,
            "ruleset": self.ruleset,
            "changed": self.changed,
            "revision": self.revision,
        }
        if self.deleted:
            data["deleted"] = self.deleted
        if self.map:
            data["map"] = self.map
        return data


def doc_key(entry_id: str, revision: int) -> str:
    """The storage key of one revision of an encounter."""
    return f"{PREFIX}enc:{entry_id}:r{revision}"


def safe_filename(name: str, suffix: str = ".json") -> str:
    """A download file name made from an encounter name ('Ford: day 2' -> 'Ford- day 2.json')."""
    base = UNSAFE_FILENAME.sub("-", name).strip(" .-")
    base = re.sub(r"\s+", " ", base)[:FILENAME_LIMIT].strip(" .-")
    return (base or "encounter") + suffix


def utc_now() -> str:
    """The current time as ISO 8601 UTC, to the second ('2025-05-01T12:00:00Z')."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def when_words(year: int, month: int, day: int, hour: int, minute: int) -> str:
    """A time in the list's words, ``month`` counted from 0 as a JS ``Date`` does
    ('7 Dec 2026, 09:05'): the browser's own date formats cost a slow tablet half a second
    the first time, which a tap on Library would wait for."""
    return f"{day} {MONTHS[month]} {year}, {hour:02d}:{minute:02d}"


def random_id() -> str:
    """A new short random entry id (``os.urandom``: ``secrets`` costs the start its imports)."""
    return os.urandom(6).hex()


def parse_json(text: str) -> Any:
    """``text`` parsed by the engine's reader (:func:`hexcombat.document.read_json`), or None
    when it is not JSON or breaks its limits (too large, or nested deep enough to exhaust
    the browser's stack)."""
    try:
        return read_json(text)
    except HexcombatError:
        return None


def summary_of_damaged(
    entry_id: str, text: str, get: Callable[[str], str | None]
) -> dict[str, str]:
    """Name and ruleset id of a document the engine refused, when its JSON still shows them
    (a manifest's in its set-up part)."""
    data = parse_json(text)
    if stored.is_manifest(data) and stored.DIGEST.match(str(data.get("head"))):
        head = get(stored.part_key(entry_id, str(data.get("head"))))
        data = parse_json(head) if head is not None else None
    summary: dict[str, str] = {}
    if isinstance(data, dict):
        if isinstance(data.get("name"), str) and data["name"].strip():
            summary["name"] = data["name"]
        ruleset = data.get("ruleset")
        if isinstance(ruleset, dict) and isinstance(ruleset.get("id"), str):
            summary["ruleset"] = ruleset["id"]
    return summary


def entry_from_index(entry_id: object, meta: object) -> Entry | None:
    """An index row, or None when it is malformed (the documents still list the entry)."""
    if not (isinstance(entry_id, str) and ID_PATTERN.match(entry_id) and isinstance(meta, dict)):
        return None
    name, ruleset, changed = meta.get("name"), meta.get("ruleset"), meta.get("changed", "")
    revision, deleted = meta.get("revision"), meta.get("deleted", "")
    named = meta.get("map", "")
    if not (
        isinstance(name, str)
        and isinstance(ruleset, str)
        and isinstance(changed, str)
        and isinstance(deleted, str)
        and isinstance(revision, int)
        and not isinstance(revision, bool)
        and revision >= 1
    ):
        return None
    shown = named if isinstance(named, str) and PICTURE_DIGEST.fullmatch(named) else ""
    return Entry(entry_id, name, ruleset, changed, revision, (), deleted, shown)


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """The entries, the one changed last first."""
    return sorted(entries, key=lambda e: (e.changed, e.name), reverse=True)


def full_message(name: str) -> str:
    """What a save refused for want of space says."""
    return (
        f"“{name}” could not be saved: the browser's storage for this site is full. "
        "The previous version is still saved. Free some space by emptying the trash or "
        "deleting encounters you no longer need (export them to files first), then try again."
    )
