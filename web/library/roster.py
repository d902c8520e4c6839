"""The rosters in the browser's storage: per ruleset, the characters kept from fight to fight.

A roster (:mod:`hexcombat.roster`) is kept under ``hexcombat:roster:<ruleset>:r<revision>``
as the roster document's JSON. A save names the revision it started from and is refused
(:class:`RosterChangedError`) when another tab saved since; it writes the
new revision completely before removing the older one, so a failed write (storage full)
leaves the previous roster in place. A stored roster that cannot be read is listed with its
problems and never overwritten: it is removed only when the user asks. Every text goes
through the engine's reader, so a damaged or hostile one is a problem, never an exception.

Imports (a backup's rosters) add characters and never replace one: a character already in
the roster (the same JSON) is skipped, one whose id is taken comes in under a new id.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from hexcombat.document import read_json
from hexcombat.errors import HexcombatError, InvalidDocumentError, Problem
from hexcombat.roster import MAX_CHARACTERS, Roster, from_document, new_roster, to_document
from web.library.entries import PREFIX, DamagedEntryError, LibraryError
from web.library.stores import Store
from web.ui.words import problems_text

ROSTER_KEY = re.compile(r"^hexcombat:roster:([a-z0-9-]{1,40}):r([1-9][0-9]{0,9})$")


def roster_key(ruleset: str, revision: int) -> str:
    """The storage key of one revision of a ruleset's roster."""
    return f"{PREFIX}roster:{ruleset}:r{revision}"


class RosterChangedError(LibraryError):
    """Another tab saved the roster since the revision this change started from; nothing
    was written."""


@dataclass(frozen=True)
class Kept:
    """A ruleset's roster as stored: the revision (0: none yet), the roster, or its problems."""

    ruleset: str
    revision: int
    roster: Roster | None
    problems: tuple[Problem, ...] = ()


class Rosters:
    """Every ruleset's roster in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def kept(self, ruleset: str) -> Kept:
        """The ruleset's roster at its newest revision (an empty one when none is stored)."""
        revisions = self._revisions().get(ruleset, [])
        if not revisions:
            return Kept(ruleset, 0, new_roster(ruleset))
        revision = revisions[-1]
        text = self.store.get(roster_key(ruleset, revision))
        try:
            roster = from_document(_parsed(text))
        except InvalidDocumentError as exc:
            return Kept(ruleset, revision, None, exc.problems or (Problem("", str(exc)),))
        if roster.ruleset != ruleset:
            problem = Problem("ruleset", f"is {roster.ruleset!r}, stored as {ruleset!r}'s")
            return Kept(ruleset, revision, None, (problem,))
        return Kept(ruleset, revision, roster)

    def every(self) -> list[Kept]:
        """The stored rosters (readable or not), in ruleset order."""
        return [self.kept(ruleset) for ruleset in sorted(self._revisions())]

    def save(self, roster: Roster, base: int) -> Kept:
        """Write ``roster`` as the next revision after ``base``, the one it was read at
        (RosterChangedError when another tab saved since; DamagedEntryError when the stored one
        cannot be read; StorageFullError leaves the stored one as it was)."""
        now = self.kept(roster.ruleset)
        if now.roster is None:
            raise DamagedEntryError(
                f"the {roster.ruleset} roster is damaged in storage and was left as it is",
                now.problems,
            )
        if now.revision != base:
            raise RosterChangedError(
                f"the {roster.ruleset} roster was changed in another tab or window, so this "
                "change was not saved over it"
            )
        revision = now.revision + 1
        text = json.dumps(to_document(roster), ensure_ascii=False, separators=(",", ":"))
        self.store.set(roster_key(roster.ruleset, revision), text)
        for old in self._revisions().get(roster.ruleset, []):
            if old < revision:
                self.store.remove(roster_key(roster.ruleset, old))
        return Kept(roster.ruleset, revision, roster)

    def remove(self, ruleset: str) -> None:
        """Remove a ruleset's roster, every revision (the user asked: a damaged one too)."""
        for revision in self._revisions().get(ruleset, []):
            self.store.remove(roster_key(ruleset, revision))

    def documents(self) -> list[dict[str, Any]]:
        """The readable rosters with a character, as documents (for a backup)."""
        return [to_document(k.roster) for k in self.every() if k.roster and k.roster.characters]

    def import_documents(self, documents: list[Any]) -> tuple[int, list[str]]:
        """Add the characters of a backup's rosters: (how many were added, why each roster
        that was left out was refused, with the place of each problem)."""
        added, refused = 0, []
        for i, doc in enumerate(documents):
            try:
                incoming = from_document(doc)
                kept = self.kept(incoming.ruleset)
                if kept.roster is None:
                    raise DamagedEntryError("the roster stored here is damaged", kept.problems)
                merged, count = merged_in(kept.roster, incoming)
                if count:
                    self.save(merged, kept.revision)
                added += count
            except HexcombatError as exc:
                refused.append(f"rosters[{i}]: {problems_text(exc)}")
            except LibraryError as exc:
                refused.append(f"rosters[{i}]: {exc}")
        return added, refused

    def _revisions(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        keys = self.store.keys()
        for key in keys:
            match = ROSTER_KEY.match(key)
            if match:
                found.setdefault(match.group(1), []).append(int(match.group(2)))
        return {k: sorted(v) for k, v in found.items()}


def merged_in(roster: Roster, incoming: Roster) -> tuple[Roster, int]:
    """``roster`` with the characters of ``incoming`` it does not hold (the same JSON is
    skipped; a taken id gets a new one), and how many came in (LibraryError past the most a
    roster holds)."""
    have = {json.dumps(c.to_json(), sort_keys=True) for c in roster.characters}
    taken = {c.id for c in roster.characters}
    added = []
    for character in incoming.characters:
        if json.dumps(character.to_json(), sort_keys=True) in have:
            continue
        new_id, n = character.id, 2
        while new_id in taken:
            new_id, n = f"{character.id}-{n}", n + 1
        taken.add(new_id)
        figure = replace(character.figure, id=new_id)
        added.append(replace(character, id=new_id, figure=figure))
    if len(roster.characters) + len(added) > MAX_CHARACTERS:
        raise LibraryError(f"the {roster.ruleset} roster would hold more than {MAX_CHARACTERS}")
    return replace(roster, characters=(*roster.characters, *added)), len(added)


def _parsed(text: str | None) -> Any:
    if text is None:
        raise InvalidDocumentError([Problem("", "its saved data is missing")])
    return read_json(text)


__all__ = ["ROSTER_KEY", "Kept", "RosterChangedError", "Rosters", "merged_in", "roster_key"]
