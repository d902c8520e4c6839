"""Hex geometry: free functions over immutable axial coordinates.

Hexes are flat-topped, screen y pointing down. Direction 0 is north (up) and
each next direction is 60 degrees clockwise as drawn, so a facing is an
integer mod 6 (see ``shared/rules/README.md``, "Hex geometry").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial hex coordinate ``(q, r)``; the cube ``s`` is derived."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __str__(self) -> str:
        return f"{self.q},{self.r}"


DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),  # 0 north
    Hex(1, -1),  # 1 north-east
    Hex(1, 0),  # 2 south-east
    Hex(0, 1),  # 3 south
    Hex(-1, 1),  # 4 south-west
    Hex(-1, 0),  # 5 north-west
)


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between ``a`` and ``b``."""
    d = a - b
    return max(abs(d.q), abs(d.r), abs(d.s))


def neighbor(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in ``direction`` (0-5, taken mod 6)."""
    return h + DIRECTIONS[direction % 6]
