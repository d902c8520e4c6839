"""Searches kept for the board in play, by everything else they read.

A movement search is asked for again and again on equal states: a move is offered from its
figure's reach, checked against it when previewed and again when done, the page asks on
every tap, and the autopilot imagines each move. A ruleset keeps its searches in a
:class:`KeptSearches`, keyed by everything the search reads besides the board; a state on
another board (a new encounter, an edited map) starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from hexcombat.board import Board

Found = TypeVar("Found")

KEPT_PER_BOARD = 64
"""How many searches are kept for one board before they are all dropped (a fight's states
move on; the ones asked for again are the latest)."""


class KeptSearches(Generic[Found]):
    """The searches made on the last board seen, by their key."""

    def __init__(self, limit: int = KEPT_PER_BOARD) -> None:
        self.limit = limit
        """Searches kept before all are dropped; 0 walks every search afresh."""
        self._board: Board | None = None
        self._found: dict[Hashable, Found] = {}

    def get(self, board: Board, key: Hashable, search: Callable[[], Found]) -> Found:
        """The search kept for ``board`` and ``key``, or ``search()`` made and kept."""
        if board is not self._board or len(self._found) >= self.limit:
            self._board, self._found = board, {}
        if key in self._found:
            return self._found[key]
        found = self._found[key] = search()
        return found
