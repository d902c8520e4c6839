"""A ruleset's typed options, made once per options table: every state of an encounter shares
the table and it never changes during play, while the rules ask for the options thousands of
times a replay."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Generic, TypeVar

from hexcombat.state import GameState
from hexcombat.validation import Json

T = TypeVar("T")


class SettingsCache(Generic[T]):
    """``settings(state) -> T``: ``make(state.options)``, remade only for another table (the
    last table is held, so it is never another's)."""

    def __init__(self, make: Callable[[dict[str, Json]], T]) -> None:
        self._make = make
        self._last: list[tuple[dict[str, Json], T]] = []

    def __call__(self, state: GameState) -> T:
        """The typed options of ``state``."""
        if self._last and self._last[0][0] is state.options:
            return self._last[0][1]
        made = self._make(state.options)
        self._last[:] = [(state.options, made)]
        return made


def option_values(
    fields: Iterable[str], options: Mapping[str, Json], prefix: str, core: Collection[str] = ()
) -> dict[str, Json]:
    """A settings class's field values from ``options``: ``<prefix>.<field>``, or
    ``core.<field>`` for the engine-wide options named in ``core`` (every option has a value
    in a state's table)."""
    return {f: options[f"core.{f}" if f in core else f"{prefix}.{f}"] for f in fields}
