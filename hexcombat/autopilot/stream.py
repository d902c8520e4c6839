"""The autopilot's own reproducible stream of choices, apart from the encounter's dice.

SplitMix64 (as :class:`~hexcombat.dice.SeededDice`) under a seed made from a text, so the
same view gives the same stream on every Python; imagined rolls use child streams of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from hexcombat.dice import SeededDice

T = TypeVar("T")


class Stream(SeededDice):
    """Random choices for the autopilot, seeded from ``text`` (never the encounter's seed)."""

    def __init__(self, text: str) -> None:
        digest = hashlib.sha256(text.encode()).digest()
        super().__init__(int.from_bytes(digest[:8], "big"))

    def randrange(self, n: int) -> int:
        """A whole number in ``range(n)`` (n > 0)."""
        return self._next_face(n) - 1

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items`` (not empty)."""
        return items[self.randrange(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct picks of ``items``, in the order drawn."""
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def child(self) -> SeededDice:
        """Fresh dice for one imagined roll, seeded from this stream."""
        return SeededDice(self._next_face(1 << 62))
