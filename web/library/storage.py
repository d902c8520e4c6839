"""The encounter library: saved encounters in localStorage, safe against failed writes.

Keys, all under the ``hexcombat:`` prefix:

- ``hexcombat:enc:<id>:r<revision>``: one revision of an encounter: a small manifest naming
  its parts ``hexcombat:enc:<id>:p<digest>`` (the set-up, the log in parts of 250 entries;
  ``web/library/stored.py``), or, written by an older version, the whole document (read as it
  is; the next save writes a manifest). Export writes the whole document
  :func:`hexcombat.document.dumps` would;
- ``hexcombat:index``: a small index ``{"format": "hexcombat-library", "version": 1,
  "entries": {id: {"name", "ruleset", "changed", "revision"[, "deleted"][, "map"]}}}``
  (``map``: the digest of the entry's map picture);
- ``hexcombat:last``: the id of the encounter opened last;
- ``hexcombat:conflict:<id>``: a tab's save of that entry was refused because another
  tab saved first (``web/library/sync.py`` writes it so the other tab says so too).

A save that names its ``base`` revision is refused (:class:`ConflictError`,
:class:`EntryGoneError`) when another tab saved, trashed or removed the entry since:
two tabs never overwrite each other, and a deleted entry is never re-created.

A save writes the new revision completely (its new parts, then its manifest), then points
the index at it, and only then removes older revisions and parts no revision names: a
failed write (storage full, a closed tab) leaves the previous version in place and still
listed. Parts are never rewritten, so undo, redo and a jump in a long log write only a
manifest and the index, whatever the log's length. The index is a cache
of the documents: when it is missing or damaged the list is rebuilt from the
document keys. An entry that cannot be read (damaged JSON, a document the
engine refuses, a missing revision) is listed with its problems and never
overwritten or removed unless the user deletes it. Deleting is soft: the
entry goes to the trash (``deleted`` set) and :meth:`Library.restore` brings
it back until :meth:`Library.purge` removes its keys.

Everything here is plain Python over a :class:`Store` (``get``/``set``/
``remove``/``keys``). :class:`LocalStorage` adapts ``js.localStorage`` (imported
only when it is created, so CPython tests use :class:`MemoryStore`);
:func:`browser_library` picks it, or memory when the browser blocks storage. The stores
are in :mod:`web.library.stores`; keys, entries and errors in :mod:`web.library.entries`
(this module still exports the names callers use).

Usage (H5's app controller)::

    library = browser_library()
    entry, enc = library.create(ruleset_id, 12, 10, name="Ambush")
    library.save(entry.id, enc.painted([Hex(1, 1)], "woods"))   # after every change
    enc = library.load(library.last_opened() or entry.id)        # InvalidDocumentError if damaged
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import Any

from hexcombat.document import dumps, from_document_in_steps, loads, read_json
from hexcombat.encounter import NAME_LIMIT, Encounter, drained
from hexcombat.errors import InvalidDocumentError, Problem
from web.library import stored
from web.library.entries import (
    DOC_KEY,
    ID_PATTERN,
    INDEX_FORMAT,
    INDEX_KEY,
    INDEX_VERSION,
    LAST_KEY,
    NUMBERED,
    PREFIX,
    ConflictError,
    DamagedEntryError,
    Entry,
    EntryGoneError,
    LibraryError,
    StorageFullError,
    UnknownEntryError,
    doc_key,
    entry_from_index,
    full_message,
    newest_first,
    parse_json,
    random_id,
    safe_filename,
    summary_of_damaged,
    utc_now,
)
from web.library.stores import LocalStorage, MemoryStore, Store


class Library:
    """The saved encounters: list, open, save, create, rename, duplicate, delete, import, export.

    Every method reads the index afresh, so two tabs do not undo each other's
    list changes. Problems found by the engine are cached per stored text.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], str] = utc_now,
        new_id: Callable[[], str] = random_id,
        persistent: bool = True,
    ) -> None:
        self.store = store
        self.persistent = persistent
        """False when the encounters live only in memory (the browser blocked localStorage)."""
        self._clock = clock
        self._new_id = new_id
        self._checked: dict[str, tuple[int, tuple[Problem, ...], dict[str, str]]] = {}
        self._parts: dict[str, stored.Parts] = {}
        """Per entry id, the parts last written or read (a save writes only new ones)."""
        self._checked_encounter: tuple[str, int, Encounter] | None = None
        """The encounter the last check read or :meth:`add` wrote (key, text hash): the next
        :meth:`load` of the same text takes it instead of reading a long fight again when the
        app opens it (an imported file opened from its toast)."""

    # ---- reading ---------------------------------------------------------
    def entries(self) -> list[Entry]:
        """Every encounter not in the trash, most recently changed first."""
        return newest_first(e for e in self._scan().values() if not e.deleted)

    def trash(self) -> list[Entry]:
        """Deleted encounters that can still be restored, most recently deleted first."""
        found = [e for e in self._scan().values() if e.deleted]
        return sorted(found, key=lambda e: (e.deleted, e.id), reverse=True)

    def entry(self, entry_id: str) -> Entry:
        """The entry ``entry_id`` (UnknownEntryError when there is none)."""
        found = self._find(entry_id)
        if found is None:
            raise UnknownEntryError(f"there is no encounter {entry_id!r} in the library")
        return found

    def load(self, entry_id: str) -> Encounter:
        """Open an encounter (InvalidDocumentError with the engine's problems when damaged)."""
        return drained(self.load_in_steps(entry_id))

    def load_in_steps(self, entry_id: str) -> Generator[None, None, Encounter]:
        """:meth:`load` in steps of one log entry (a long fight opens in slices, see
        :mod:`web.engine_slices`); the entry is read before the first step."""
        entry = self.entry(entry_id)
        text = self.store.get(entry.key)
        if text is None:
            raise InvalidDocumentError(entry.problems, f"“{entry.name}” cannot be opened")
        checked, self._checked_encounter = self._checked_encounter, None
        if checked is not None and checked[:2] == (entry.key, hash(text)):
            encounter = checked[2]
        else:
            encounter = yield from self._decode_in_steps(entry_id, text)
        self._remember_check(entry.key, text, (), encounter)
        return encounter

    def export(self, entry_id: str) -> tuple[str, str]:
        """(file name, JSON text) of an encounter, exactly as stored (also for damaged ones)."""
        entry = self.entry(entry_id)
        text = self.store.get(entry.key)
        if text is None:
            raise DamagedEntryError(
                f"“{entry.name}” has no saved data left to export", entry.problems
            )
        data = parse_json(text)
        if stored.is_manifest(data):
            try:
                doc, _sizes = stored.document(entry_id, data, self.store.get)
            except InvalidDocumentError as exc:
                raise DamagedEntryError(
                    f"“{entry.name}” has lost saved data, so it cannot be exported", exc.problems
                ) from None
            text = json.dumps(doc, ensure_ascii=False, indent=1)
        return safe_filename(entry.name), text

    def last_opened(self) -> str | None:
        """The id of the encounter opened last, if it is still in the library."""
        entry_id = self.store.get(LAST_KEY)
        if entry_id is None:
            return None
        entry = self._find(entry_id)
        return entry_id if entry is not None and not entry.deleted else None

    def remember(self, entry_id: str) -> None:
        """Note ``entry_id`` as the encounter opened last (quietly skipped when storage is full)."""
        with contextlib.suppress(StorageFullError):
            self.store.set(LAST_KEY, entry_id)

    def unique_name(self, name: str, *, ignore: str = "") -> str:
        """``name``, or 'name (2)', 'name (3)'... when another entry (not ``ignore``) has it.

        Entries in the trash do not count: deleting the open encounter and reopening the
        app does not turn its name into 'name (2)' (a restored entry is renamed instead).
        """
        taken = {e.name for e in self._scan().values() if e.id != ignore and not e.deleted}
        if name not in taken:
            return name
        match = NUMBERED.match(name)
        base = match.group(1) if match else name
        n = 2
        while True:
            suffix = f" ({n})"
            candidate = base[: NAME_LIMIT - len(suffix)].rstrip() + suffix
            if candidate not in taken:
                return candidate
            n += 1

    # ---- writing ---------------------------------------------------------
    def create(
        self,
        ruleset: str,
        width: int,
        height: int,
        *,
        name: str = "New encounter",
        options: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> tuple[Entry, Encounter]:
        """A new empty encounter, saved (the engine's InvalidDocumentError if the set-up is bad)."""
        chosen = seed if seed is not None else 1 + random.SystemRandom().randrange(2**31 - 1)
        encounter = Encounter.new(ruleset, width, height, name=name, options=options, seed=chosen)
        return self.add(encounter)

    def add(self, encounter: Encounter) -> tuple[Entry, Encounter]:
        """Save ``encounter`` as a new entry; a name already used gets ' (2)' (returns both)."""
        return drained(self.add_in_steps(encounter))

    def add_in_steps(self, encounter: Encounter) -> Generator[None, None, tuple[Entry, Encounter]]:
        """:meth:`add` in steps of one log part: the parts are serialised first, then the
        revision is written in one step, which reads the library afresh (a name or id
        another tab took meanwhile is chosen again)."""
        named = self._uniquely_named(encounter)
        entry_id = self._fresh_id()
        made: stored.Split | None = yield from stored.split_in_steps(
            entry_id, named, stored.Parts()
        )
        if named.setup.name != self.unique_name(encounter.setup.name) or entry_id in self._ids():
            named, entry_id, made = self._uniquely_named(encounter), self._fresh_id(), None
        entry = self._write(entry_id, named, deleted="", made=made)
        self._checked_encounter = (entry.key, hash(self.store.get(entry.key)), named)
        return entry, named

    def _uniquely_named(self, encounter: Encounter) -> Encounter:
        name = self.unique_name(encounter.setup.name)
        return encounter if name == encounter.setup.name else encounter.renamed(name)

    def save(self, entry_id: str, encounter: Encounter, *, base: int | None = None) -> Entry:
        """Save a new revision of ``entry_id`` (nothing is written when nothing changed).

        ``base`` is the revision the change started from (the one opened or saved last):
        when the stored revision is another, another tab saved in between and
        :class:`ConflictError` is raised; when the entry is in the trash or gone,
        :class:`EntryGoneError`. Nothing is written then: the caller asks the user.
        Raises :class:`StorageFullError` (the previous revision stays) and
        :class:`DamagedEntryError` when the stored revision cannot be read: it is
        never overwritten; save the encounter as a new entry with :meth:`add`.
        """
        current = self._find(entry_id)
        if base is not None:
            if current is None:
                raise EntryGoneError(
                    f"“{encounter.setup.name}” was removed from the library in another tab "
                    "or window, so this change was not saved",
                    None,
                )
            if current.deleted:
                raise EntryGoneError(
                    f"“{current.name}” is in the library's trash, so this change was not saved",
                    current,
                )
            if current.revision != base:
                raise ConflictError(
                    f"“{current.name}” was changed in another tab or window since this one "
                    "opened it, so this change was not saved over it",
                    current,
                )
        if current is None:
            if not ID_PATTERN.match(entry_id):
                raise LibraryError(f"{entry_id!r} is not a library id")
            return self._write(entry_id, encounter, deleted="")
        if not current.readable:
            raise DamagedEntryError(
                f"“{current.name}” is damaged in storage and was left as it is; "
                "save this encounter as a new one instead",
                current.problems,
            )
        return self._write(entry_id, encounter, deleted=current.deleted, label=current.name)

    def rename(self, entry_id: str, name: str) -> Entry:
        """Give an encounter a new name (LibraryError when another one already has it)."""
        entry = self._readable(entry_id)
        if name == entry.name:
            return entry
        if self.unique_name(name, ignore=entry_id) != name:
            raise LibraryError(f"another encounter is already called “{name}”")
        return self.save(entry_id, self.load(entry_id).renamed(name))

    def duplicate(self, entry_id: str) -> tuple[Entry, Encounter]:
        """A copy of an encounter under a new name ('Ambush' -> 'Ambush (2)')."""
        self._readable(entry_id)
        return self.add(self.load(entry_id))

    def import_text(self, text: str) -> tuple[Entry, Encounter]:
        """Add an encounter from JSON text; the engine's InvalidDocumentError changes nothing."""
        return self.add(loads(text))

    def delete(self, entry_id: str) -> Entry:
        """Move an encounter (readable or not) to the trash; :meth:`restore` undoes it."""
        entry = self.entry(entry_id)
        if entry.deleted:
            return entry
        return self._set_index(replace(entry, deleted=self._clock()))

    def restore(self, entry_id: str) -> Entry:
        """Bring an encounter back from the trash ('name (2)' if another one took its name)."""
        entry = self.entry(entry_id)
        if not entry.deleted:
            return entry
        restored = self._set_index(replace(entry, deleted=""))
        name = self.unique_name(entry.name, ignore=entry_id)
        if name != entry.name and restored.readable:
            return self.save(entry_id, self.load(entry_id).renamed(name))
        return restored

    def latest(self) -> str | None:
        """The id of the most recently changed readable entry not in the trash, if any."""
        for entry in self.entries():
            if entry.readable:
                return entry.id
        return None

    def outside_change(self, entry_id: str, base: int, mine: Encounter) -> tuple[str, Entry | None]:
        """What happened to an open entry elsewhere since revision ``base``.

        ('same', entry), ('renamed', entry) when only its name or notes changed,
        ('changed', entry) when its fight or set-up did, ('trashed', entry), or
        ('gone', None) when it was removed for good.
        """
        current = self._find(entry_id)
        if current is None:
            return "gone", None
        if current.deleted:
            return "trashed", current
        if current.revision == base:
            return "same", current
        try:
            theirs = self.load(entry_id)
        except (InvalidDocumentError, LibraryError):
            return "changed", current
        named = mine.with_setup(name=theirs.setup.name, notes=theirs.setup.notes)
        return ("renamed" if dumps(named) == dumps(theirs) else "changed"), current

    def purge(self, entry_id: str) -> None:
        """Remove a trashed encounter for good, every revision (LibraryError if not trashed)."""
        entry = self.entry(entry_id)
        if not entry.deleted:
            raise LibraryError(f"“{entry.name}” is not in the trash; delete it first")
        index = self._read_index()
        index.pop(entry_id, None)
        self._write_index(index, f"“{entry.name}” could not be removed")
        keys = self.store.keys()
        for rev in self._revisions(keys).get(entry_id, []):
            self.store.remove(doc_key(entry_id, rev))
        for key in self._part_keys(entry_id, keys):
            self.store.remove(key)
        self._parts.pop(entry_id, None)
        if self.store.get(LAST_KEY) == entry_id:
            self.store.remove(LAST_KEY)

    # ---- internals -------------------------------------------------------
    def _readable(self, entry_id: str) -> Entry:
        entry = self.entry(entry_id)
        if not entry.readable:
            raise DamagedEntryError(f"“{entry.name}” cannot be read", entry.problems)
        return entry

    def _ids(self) -> set[str]:
        """Every entry id in use (indexed or stored)."""
        return set(self._read_index()) | set(self._revisions())

    def _fresh_id(self) -> str:
        used = self._ids()
        for _ in range(100):
            candidate = self._new_id()
            if ID_PATTERN.match(candidate) and candidate not in used:
                return candidate
        raise LibraryError("could not make a new library id")

    def _write(
        self,
        entry_id: str,
        encounter: Encounter,
        *,
        deleted: str,
        label: str = "",
        made: stored.Split | None = None,
    ) -> Entry:
        """Write a new revision (its new parts, then its manifest), point the index at it,
        then drop older revisions and the parts only they named.

        Nothing is written when the stored revision already says the same; ``label`` names
        the encounter in a storage-full message (its name before a rename); ``made`` is the
        revision already split (:meth:`add_in_steps`).
        """
        name = encounter.setup.name
        index = self._read_index()
        keys = self.store.keys()
        revisions = self._revisions(keys).get(entry_id, [])
        known = index.get(entry_id)
        text, parts, now = made or stored.split(
            entry_id, encounter, self._parts.get(entry_id, stored.Parts())
        )
        if known is not None and self.store.get(known.key) == text:
            self._parts[entry_id] = now
            return known
        revision = max([*revisions, known.revision if known else 0]) + 1
        picture = encounter.setup.picture
        entry = Entry(
            entry_id,
            name,
            encounter.ruleset.id,
            self._clock(),
            revision,
            (),
            deleted,
            picture.digest if picture is not None else "",
        )
        present = set(keys)
        written: list[str] = []
        try:
            for key, part in parts.items():
                if key not in present:
                    self.store.set(key, part)
                    written.append(key)
            self.store.set(entry.key, text)
            written.append(entry.key)
            index[entry_id] = entry
            self._write_index(index, "")
        except StorageFullError:
            for key in written:
                self.store.remove(key)
            raise StorageFullError(full_message(label or name)) from None
        self._parts[entry_id] = now
        self._remember_check(entry.key, text, (), encounter)
        self._drop_older(entry_id, revision, revisions, text, keys)
        return entry

    def _drop_older(
        self, entry_id: str, revision: int, revisions: list[int], text: str, keys: list[str]
    ) -> None:
        """Drop the entry's revisions before ``revision`` and the parts its manifest ``text``
        no longer names (``keys``: the store's keys before the write)."""
        for old in revisions:
            if old < revision:
                self.store.remove(doc_key(entry_id, old))
        named = stored.referenced(entry_id, text)
        for key in self._part_keys(entry_id, keys):
            if key not in named:
                self.store.remove(key)

    def _set_index(self, entry: Entry) -> Entry:
        index = self._read_index()
        index[entry.id] = entry
        self._write_index(index, f"the change to “{entry.name}” could not be saved")
        return entry

    def _write_index(self, index: dict[str, Entry], failure: str) -> None:
        data = {
            "format": INDEX_FORMAT,
            "version": INDEX_VERSION,
            "entries": {i: e.to_json() for i, e in sorted(index.items())},
        }
        try:
            self.store.set(INDEX_KEY, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        except StorageFullError:
            if failure:
                raise StorageFullError(
                    f"{failure}: the browser's storage for this site is full. Nothing was changed."
                ) from None
            raise

    def _read_index(self) -> dict[str, Entry]:
        """The index entries (without problems); {} when the index is missing or damaged."""
        raw = self.store.get(INDEX_KEY)
        data = parse_json(raw) if raw is not None else None
        entries = data.get("entries") if isinstance(data, dict) else None
        found: dict[str, Entry] = {}
        if not isinstance(entries, dict):
            return found
        for entry_id, meta in entries.items():
            entry = entry_from_index(entry_id, meta)
            if entry is not None:
                found[entry_id] = entry
        return found

    def rulesets_listed(self) -> set[str]:
        """The rulesets the library's index names (quick: no stored document is read)."""
        return {entry.ruleset for entry in self._read_index().values()}

    def _revisions(self, keys: list[str] | None = None) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for key in self.store.keys() if keys is None else keys:
            match = DOC_KEY.match(key)
            if match:
                found.setdefault(match.group(1), []).append(int(match.group(2)))
        return {k: sorted(v) for k, v in found.items()}

    def _part_keys(self, entry_id: str, keys: list[str]) -> list[str]:
        """The keys of every part of ``entry_id`` stored (named by a revision or not)."""
        return [k for k in keys if (m := stored.PART_KEY.match(k)) and m.group(1) == entry_id]

    def _decode(self, entry_id: str, text: str) -> Encounter:
        """The encounter a stored revision holds (the engine's InvalidDocumentError if not):
        a manifest read from its parts, or a whole document written by an older version."""
        return drained(self._decode_in_steps(entry_id, text))

    def _decode_in_steps(self, entry_id: str, text: str) -> Generator[None, None, Encounter]:
        data = read_json(text)
        if not stored.is_manifest(data):
            return (yield from from_document_in_steps(data))
        doc, sizes = stored.document(entry_id, data, self.store.get)
        yield
        encounter = yield from from_document_in_steps(doc, end_seal=stored.seal_of(data))
        self._parts[entry_id] = stored.known_parts(encounter, data, sizes)
        return encounter

    def _scan(self) -> dict[str, Entry]:
        """Index and document keys merged: each id at its current revision, with problems."""
        index = self._read_index()
        revisions = self._revisions()
        return {
            entry_id: self._resolve(entry_id, index.get(entry_id), revisions.get(entry_id, []))
            for entry_id in sorted(set(index) | set(revisions))
        }

    def _find(self, entry_id: str) -> Entry | None:
        """One entry, reading only its own document (the autosave path)."""
        meta = self._read_index().get(entry_id)
        revisions = self._revisions().get(entry_id, [])
        if meta is None and not revisions:
            return None
        return self._resolve(entry_id, meta, revisions)

    def _resolve(self, entry_id: str, meta: Entry | None, revs: list[int]) -> Entry:
        """The entry at the revision the index names (or the newest one stored), with problems."""
        if meta is not None and (meta.revision in revs or not revs):
            revision = meta.revision
        else:
            revision = revs[-1]
        key = doc_key(entry_id, revision)
        text = self.store.get(key)
        if text is None:
            problems: tuple[Problem, ...] = (
                Problem("", f"its saved data is missing from the browser's storage ({key})"),
            )
            summary: dict[str, str] = {}
        else:
            problems, summary = self._check(entry_id, key, text)
        if meta is not None:
            return replace(meta, revision=revision, problems=problems)
        name = summary.get("name") or f"Unreadable entry {entry_id}"
        return Entry(entry_id, name, summary.get("ruleset", ""), "", revision, problems)

    def _check(
        self, entry_id: str, key: str, text: str
    ) -> tuple[tuple[Problem, ...], dict[str, str]]:
        """The engine's problems with a stored document (cached per text) and its name/ruleset."""
        cached = self._checked.get(key)
        if cached is not None and cached[0] == hash(text):
            return cached[1], cached[2]
        try:
            encounter = self._decode(entry_id, text)
        except InvalidDocumentError as exc:
            problems = exc.problems or (Problem("", str(exc)),)
            self._remember_check(key, text, problems, None)
        except Exception as exc:  # no stored text may stop the library opening
            self._remember_check(key, text, (Problem("", f"cannot be read: {exc}"),), None)
        else:
            self._remember_check(key, text, (), encounter)
            self._checked_encounter = (key, hash(text), encounter)
        return self._checked[key][1], self._checked[key][2]

    def _remember_check(
        self, key: str, text: str, problems: tuple[Problem, ...], encounter: Encounter | None
    ) -> None:
        summary: dict[str, str] = {}
        if encounter is not None:
            summary = {"name": encounter.setup.name, "ruleset": encounter.ruleset.id}
        else:
            match = DOC_KEY.match(key)
            entry_id = match.group(1) if match else ""
            summary = summary_of_damaged(entry_id, text, self.store.get)
        self._checked[key] = (hash(text), problems, summary)


def browser_library() -> Library:
    """The library in this browser's localStorage, or in memory when the browser blocks it."""
    try:
        store = LocalStorage()
        store.keys()
    except Exception:
        return Library(MemoryStore(), persistent=False)
    return Library(store)


__all__ = [
    "DOC_KEY",
    "INDEX_KEY",
    "LAST_KEY",
    "PREFIX",
    "ConflictError",
    "DamagedEntryError",
    "Entry",
    "EntryGoneError",
    "Library",
    "LibraryError",
    "LocalStorage",
    "MemoryStore",
    "StorageFullError",
    "Store",
    "UnknownEntryError",
    "browser_library",
    "doc_key",
    "safe_filename",
]
