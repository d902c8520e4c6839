"""The messages between a host and a joined device: plain JSON text, checked on arrival.

Every message is an object with ``type`` (one of :data:`TYPES`) and ``v`` (:data:`PROTOCOL`).
A device's requests carry ``ref``, a number it chooses, so a refusal names the request it
answers. Reading checks size, nesting, fields and their types before anything is used; a
message that fails gets :class:`ProtocolError`, a :class:`~hexcombat.errors.HexcombatError`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hexcombat.actions import Action, read_action
from hexcombat.dice import Roll
from hexcombat.document import MAX_DOCUMENT_CHARS, MAX_LOG, read_json, setup_document
from hexcombat.encounter import NOTE_LIMIT, LogEntry, Setup
from hexcombat.errors import InvalidDocumentError, Problem
from hexcombat.validation import Json, Reader, describe

PROTOCOL = 1
TYPES = ("hello", "welcome", "entries", "seats", "sealed", "action", "seal", "reveal", "refused")
"""Host to device: welcome, entries, seats, sealed, refused. Device to host: hello, action,
seal, reveal."""
MAX_NAME = 40
MAX_FACES = 200
MAX_FACE = 1000
SALT = re.compile(r"[0-9a-f]{32,128}")
DIGEST = re.compile(r"[0-9a-f]{64}")
TABLE = re.compile(r"[0-9a-f]{16}")
"""A hosting's id (every host message carries it, with its sequence number ``seq``)."""


class ProtocolError(InvalidDocumentError):
    """A table message that is malformed, or that no host or device may send now."""


@dataclass(frozen=True)
class Message:
    """A message read from text: its type and its checked JSON object."""

    type: str
    body: dict[str, Json]

    def text(self, key: str, pattern: re.Pattern[str] | None = None, limit: int = 0) -> str:
        """The field ``key`` as a non-empty string (matching ``pattern``, at most ``limit``)."""
        value = self.body.get(key)
        if not isinstance(value, str) or not value.strip():
            raise _bad(key, f"must be a non-empty string, got {describe(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            raise _bad(key, f"must match {pattern.pattern}, got {describe(value)}")
        if limit and len(value) > limit:
            raise _bad(key, f"must be at most {limit} characters, got {len(value)}")
        return value

    def number(self, key: str, maximum: int) -> int:
        """The field ``key`` as a whole number 0-``maximum``."""
        reader = Reader()
        found = reader.integer(self.body, key, "", minimum=0, maximum=maximum)
        _raise(reader)
        assert found is not None
        return found

    def names(self, key: str) -> list[str]:
        """The field ``key`` as a list of strings (figure or device ids)."""
        value = self.body.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _bad(key, f"must be a list of ids, got {describe(value)}")
        return [str(v) for v in value]

    def action(self) -> Action:
        """The field ``action`` as an action."""
        reader = Reader()
        found = read_action(self.body.get("action"), "action", reader)
        _raise(reader)
        assert found is not None
        return found

    def faces(self) -> list[int] | None:
        """The optional field ``faces``: the dice a player rolled by hand, or None."""
        value = self.body.get("faces")
        if value is None:
            return None
        ok = isinstance(value, list) and len(value) <= MAX_FACES
        if not ok or not all(_face(v) for v in value):
            raise _bad("faces", f"must be a list of at most {MAX_FACES} faces 1-{MAX_FACE}")
        return [int(v) for v in value]

    def entries(self) -> list[LogEntry]:
        """The field ``entries`` as log entries with their rolls."""
        value = self.body.get("entries")
        if not isinstance(value, list) or len(value) > MAX_LOG:
            raise _bad("entries", f"must be a list of at most {MAX_LOG} log entries")
        return [read_entry(item, f"entries[{i}]") for i, item in enumerate(value)]


def read_entry(data: Json, path: str) -> LogEntry:
    """One log entry (an action and its rolls) read from JSON."""
    reader = Reader()
    obj = reader.object(data, path)
    action = read_action(obj.get("action"), f"{path}.action", reader) if obj else None
    rolls = []
    for i, raw in enumerate(reader.list(obj.get("rolls", []) if obj else [], path) or []):
        try:
            rolls.append(Roll.from_json(raw))
        except (ValueError, KeyError, TypeError) as exc:
            reader.problem(f"{path}.rolls[{i}]", str(exc))
    note = obj.get("note", "") if obj else ""
    if not isinstance(note, str) or len(note) > NOTE_LIMIT:
        reader.problem(f"{path}.note", f"must be a text of at most {NOTE_LIMIT} characters")
    _raise(reader)
    assert action is not None
    return LogEntry(action, tuple(rolls), str(note))


def decode(text: str) -> Message:
    """Read a message from text; ProtocolError when it is not one this protocol knows."""
    try:
        data = read_json(text, MAX_DOCUMENT_CHARS)
    except InvalidDocumentError as exc:
        raise ProtocolError(exc.problems, "this is not a table message") from None
    if not isinstance(data, dict):
        raise _bad("", f"must be a JSON object, got {describe(data)}")
    if data.get("v") != PROTOCOL:
        raise _bad(
            "v", f"this device speaks table protocol {PROTOCOL}, got {describe(data.get('v'))}"
        )
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise _bad("type", f"must be one of {', '.join(TYPES)}, got {describe(kind)}")
    return Message(kind, data)


def encode(kind: str, **fields: Json) -> str:
    """A message as compact JSON text."""
    assert kind in TYPES, kind
    return canonical({"type": kind, "v": PROTOCOL, **fields})


def canonical(data: Json) -> str:
    """JSON text with sorted keys and no spaces: the same data always gives the same text."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def seal_digest(action: Action, salt: str) -> str:
    """The commitment to a hidden choice: SHA-256 of the salt and the action's JSON."""
    return _sha256(salt + "\n" + canonical(action.to_json()))


def token_digest(token: str) -> str:
    """What the host keeps of a device's token (its storage then holds no device's secret)."""
    return _sha256("token\n" + token)


def entry_digest(index: int, entry: LogEntry) -> str:
    """What a device says it has: the digest of its entry ``index`` (0-based)."""
    return _sha256(f"{index}\n" + canonical(entry.to_json()))


def setup_digest(setup: Setup) -> str:
    """The digest of a setup, so a device that comes back knows it has the same fight."""
    return _sha256(canonical(setup_document(setup)))


def entries_json(entries: Sequence[LogEntry]) -> list[Json]:
    """Log entries as JSON for an ``entries`` message."""
    return [e.to_json() for e in entries]


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _face(value: Json) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_FACE


def _bad(path: str, message: str) -> ProtocolError:
    return ProtocolError([Problem(path, message)], "this table message cannot be used")


def _raise(reader: Reader) -> None:
    if reader.problems:
        raise ProtocolError(reader.problems, "this table message cannot be used")
