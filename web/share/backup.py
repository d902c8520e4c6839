"""Export all / Import all: the whole library as one JSON file (pure, tested under CPython).

The file holds every encounter's document as stored; importing adds each as a new entry and
never overwrites one. Documents already in the library (same fingerprint) are skipped. The
file is read by the engine's reader (:func:`hexcombat.document.read_json`): a file nested too
deep or too large is refused with a message before it is parsed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from hexcombat.document import MAX_DOCUMENT_CHARS, read_json
from hexcombat.errors import InvalidDocumentError, Problem
from hexcombat.share import fingerprint

FORMAT = "hexcombat-library"
VERSION = 1
MAX_BACKUP_CHARS = 4 * MAX_DOCUMENT_CHARS
"""A backup holds a whole library: more than one document's worth of text, but not without end
(a browser keeps about 5 MB per site)."""


def bundle(documents: Sequence[Mapping[str, Any]], saved_at: str) -> str:
    """The backup file's text."""
    data = {"format": FORMAT, "version": VERSION, "saved": saved_at, "encounters": list(documents)}
    return json.dumps(data, ensure_ascii=False, indent=1)


def unbundle(text: str) -> list[Any]:
    """The documents of a backup file (InvalidDocumentError when it is not one). A single
    encounter file is accepted too, as a library of one."""
    try:
        data = read_json(text, MAX_BACKUP_CHARS)
    except InvalidDocumentError as exc:
        raise InvalidDocumentError(exc.problems, "this is not a Hex Combat backup") from None
    if isinstance(data, dict) and data.get("format") == "hexcombat-encounter":
        return [data]
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidDocumentError(
            [Problem("format", f"must be {FORMAT!r}")], "this is not a Hex Combat backup"
        )
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise InvalidDocumentError(
            [Problem("version", f"{version!r}: written by a newer Hex Combat")],
            "update Hex Combat to read this backup",
        )
    encounters = data.get("encounters")
    if not isinstance(encounters, list):
        raise InvalidDocumentError([Problem("encounters", "must be a list")], "damaged backup")
    return encounters


def new_ones(documents: Sequence[Any], known: set[str]) -> tuple[list[Any], int]:
    """(documents not in ``known`` fingerprints and not repeated, how many were skipped)."""
    fresh: list[Any] = []
    seen = set(known)
    for doc in documents:
        mark = fingerprint(doc) if isinstance(doc, dict) else ""
        if mark and mark in seen:
            continue
        seen.add(mark)
        fresh.append(doc)
    return fresh, len(documents) - len(fresh)
