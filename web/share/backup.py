"""Export all / Import all: the whole library as one JSON file (pure, tested under CPython).

The file holds every encounter's document as stored, every ruleset's roster document
(``web/library/roster.py``), and the pictures of the picture store
(``web/library/pictures.py``) in base64 under their digests; importing adds each encounter as
a new entry and never overwrites one, adds each roster's characters to the ruleset's roster,
and keeps each picture whose bytes match its digest.
Documents already in the library (same fingerprint) are skipped. The file is read by the
engine's reader (:func:`hexcombat.document.read_json`): a file nested too deep or too large
is refused with a message before it is parsed.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexcombat.document import MAX_DOCUMENT_CHARS, read_json
from hexcombat.errors import InvalidDocumentError, Problem
from hexcombat.map_picture import MEDIA_TYPES, digest_of
from hexcombat.share import fingerprint
from web.library.pictures import MAX_PICTURE_BYTES, StoredPicture

FORMAT = "hexcombat-library"
VERSION = 1
MAX_BACKUP_PICTURES = 16
"""The most picture files' worth of base64 text a backup may hold."""
MAX_BACKUP_CHARS = 4 * MAX_DOCUMENT_CHARS + MAX_BACKUP_PICTURES * (MAX_PICTURE_BYTES * 4 // 3)
"""A backup holds a whole library: more than one document's worth of text and its pictures,
but not without end."""


@dataclass(frozen=True, slots=True)
class Backup:
    """What a backup file holds: encounter documents, pictures (or why one was refused), and
    roster documents (read by the engine when they are imported)."""

    encounters: list[Any]
    pictures: list[StoredPicture]
    refused_pictures: list[str]
    rosters: list[Any] = field(default_factory=list)


def bundle(
    documents: Sequence[Mapping[str, Any]],
    saved_at: str,
    pictures: Sequence[StoredPicture] = (),
    rosters: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The backup file's text."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "saved": saved_at,
        "encounters": list(documents),
        "rosters": list(rosters),
        "pictures": [
            {"digest": p.digest, "type": p.type, "data": base64.b64encode(p.data).decode("ascii")}
            for p in pictures
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def unbundle(text: str) -> Backup:
    """The documents and pictures of a backup file (InvalidDocumentError when it is not one).
    A single encounter file is accepted too, as a library of one."""
    try:
        data = read_json(text, MAX_BACKUP_CHARS)
    except InvalidDocumentError as exc:
        raise InvalidDocumentError(exc.problems, "this is not a Hex Combat backup") from None
    if isinstance(data, dict) and data.get("format") == "hexcombat-encounter":
        return Backup([data], [], [])
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
    rosters = data.get("rosters", [])
    if not isinstance(rosters, list):
        raise InvalidDocumentError([Problem("rosters", "must be a list")], "damaged backup")
    pictures, refused = _pictures(data.get("pictures", []))
    return Backup(encounters, pictures, refused, rosters)


def _pictures(found: Any) -> tuple[list[StoredPicture], list[str]]:
    """The backup's pictures whose bytes are the ones their digest names, and why each other
    one was left out."""
    if not isinstance(found, list):
        return [], ["pictures: must be a list"]
    kept: list[StoredPicture] = []
    refused: list[str] = []
    for i, item in enumerate(found):
        where = f"pictures[{i}]"
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) for k in ("digest", "type", "data")
        ):
            refused.append(f"{where}: must have a digest, a type and data")
            continue
        if item["type"] not in MEDIA_TYPES:
            refused.append(f"{where}: {item['type']} is not a PNG, JPEG or WebP picture")
            continue
        try:
            data = base64.b64decode(item["data"], validate=True)
        except (binascii.Error, ValueError):
            refused.append(f"{where}: its data is not base64")
            continue
        if digest_of(data) != item["digest"]:
            refused.append(f"{where}: its bytes are not the picture its digest names")
            continue
        kept.append(StoredPicture(item["digest"], item["type"], data))
    return kept, refused


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
