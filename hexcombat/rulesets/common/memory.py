"""Typed bookkeeping over the JSON memory the engine stores and replays.

``GameState.memory`` (per round or step) and ``Figure.memory`` (per figure) are plain JSON,
copied with the state and rebuilt by replaying the log, so documents and replays never see
a ruleset's classes. A ruleset's ``state.py`` declares its bookkeeping once as a class over
that JSON (a ``RoundBook`` over :class:`StateMemory`, a ``FigureBook`` over
:class:`FigureMemory`) whose typed properties are the only code that names a memory key;
everything else reads and writes the typed fields, and the JSON stays byte-identical to
what the keys held before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexcombat.errors import IllegalActionError
from hexcombat.rulesets.common.numbers import int_or
from hexcombat.validation import Json

if TYPE_CHECKING:
    from hexcombat.figures import Figure
    from hexcombat.state import GameState


class Memory:
    """Typed access to one JSON memory mapping; subclasses add a property per key."""

    def __init__(self, raw: dict[str, Json]) -> None:
        self._raw = raw

    def _list(self, key: str) -> list[Json]:
        """The list under ``key``, created empty when missing (refused when not a list)."""
        value = self._raw.setdefault(key, [])
        if not isinstance(value, list):
            raise IllegalActionError(f"corrupt memory: {key!r} must be a list")
        return value

    def _table(self, key: str) -> dict[str, Json]:
        """The table under ``key``, created empty when missing (refused when not a table)."""
        value = self._raw.setdefault(key, {})
        if not isinstance(value, dict):
            raise IllegalActionError(f"corrupt memory: {key!r} must be a table")
        return value

    def _int(self, key: str, default: int = 0) -> int:
        """The whole number under ``key`` (``default`` when missing); never writes."""
        return int_or(self._raw.get(key), default)

    def _flag(self, key: str) -> bool:
        """Whether ``key`` holds ``true``; never writes."""
        return self._raw.get(key) is True

    def _text(self, key: str) -> str | None:
        """The text under ``key`` (None when missing or not text); never writes."""
        value = self._raw.get(key)
        return value if isinstance(value, str) else None

    def _get(self, key: str) -> Json:
        """The raw JSON under ``key`` (None when missing); never writes."""
        return self._raw.get(key)

    def _has(self, key: str) -> bool:
        return key in self._raw

    def _set(self, key: str, value: Json) -> None:
        self._raw[key] = value

    def _drop(self, key: str) -> None:
        self._raw.pop(key, None)


class StateMemory(Memory):
    """A state's bookkeeping (``GameState.memory``): the round's or the step's."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state.memory)


class FigureMemory(Memory):
    """A figure's bookkeeping (``Figure.memory``)."""

    def __init__(self, figure: Figure) -> None:
        super().__init__(figure.memory)
