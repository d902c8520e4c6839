"""Digests of a replay: of everything it depends on, added to entry by entry, and
of a state (:func:`hexcombat.encounter.end_seal` joins them with the digest of the
engine's code, :func:`hexcombat.version.engine_digest`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from hexcombat import version
from hexcombat.state import GameState
from hexcombat.validation import Json

if TYPE_CHECKING:
    from hexcombat.encounter import LogEntry, Setup


def played(setup: Setup, log: Sequence[LogEntry]) -> Any:
    """A digest (a ``hashlib`` object: copy it before adding to it) of everything a replay
    depends on, not the name or notes: the set-up's played parts, then each log entry."""
    played = {
        "ruleset": setup.ruleset,
        "options": setup.options,
        "board": setup.board.to_json(),
        "figures": [f.to_json() for f in setup.figures],
        "data": setup.data,
        "seed": setup.seed,
    }
    digest = hashlib.sha256(canonical(played).encode())
    return played_more(digest, log)


def played_more(digest: Any, entries: Iterable[LogEntry]) -> Any:
    """``digest`` with ``entries`` added, one line each (canonical JSON has no line break)."""
    for entry in entries:
        digest.update(b"\n" + canonical(entry.to_json(rolled=False)).encode())
    return digest


def canonical(data: Json) -> str:
    """JSON text that is the same for equal data (sorted keys, ASCII, no line break)."""
    return json.dumps(data, sort_keys=True, default=repr, ensure_ascii=True)


def state_seal(key: str, state: GameState) -> str:
    """The engine's code (its digest), the replay digest ``key`` and everything ``state``
    holds that play changes, digested together."""
    held = {
        "figures": [f.to_json() for f in state.figures.values()],
        "clock": [list(state.clock.counters), state.clock.step],
        "memory": state.memory,
        "declarations": repr(state.declarations),
        "prompts": repr(state.prompts),
        "asked": state.asked,
        "secrets": [e.to_json() for e in state.secrets],
    }
    text = json.dumps(held, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(f"{version.engine_digest()}\n{key}\n{text}".encode()).hexdigest()[:32]
