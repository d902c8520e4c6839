"""Screen layout of hexes: pixel centres, corners and rectangular offset coordinates.

Flat-topped hexes, screen y pointing down (``shared/rules/README.md`` §1). The
centre of ``Hex(q, r)`` is ``x = 1.5·size·q``, ``y = √3·size·(r + q/2)``, the
spec's ``px``/``py`` written in axial coordinates.

Rectangular boards use "odd-q" offset coordinates: ``col = q`` and odd columns
are shoved half a hex down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from hexcombat.geometry import Hex

_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class Layout:
    """Maps hexes to screen pixels: hex ``size`` (centre to corner) and the origin's pixel."""

    size: float = 1.0
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not self.size > 0:
            raise ValueError(f"hex size must be > 0, got {self.size}")

    def to_pixel(self, h: Hex) -> tuple[float, float]:
        """The pixel centre of ``h``.

        >>> x, y = Layout().to_pixel(Hex(1, -1))
        >>> (x, f"{y:.3f}")
        (1.5, '-0.866')
        """
        x = 1.5 * self.size * h.q
        y = _SQRT3 * self.size * (h.r + h.q / 2)
        return (x + self.origin[0], y + self.origin[1])

    def from_pixel(self, x: float, y: float) -> Hex:
        """The hex containing the pixel ``(x, y)`` (the nearest centre)."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        fq = px * 2.0 / 3.0
        fr = -px / 3.0 + py / _SQRT3
        fs = -fq - fr
        q = math.floor(fq + 0.5)
        r = math.floor(fr + 0.5)
        s = math.floor(fs + 0.5)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(q, r)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corner pixels of ``h``, clockwise from the east corner (y down)."""
        cx, cy = self.to_pixel(h)
        result: list[tuple[float, float]] = []
        for i in range(6):
            angle = math.pi / 3.0 * i
            result.append((cx + self.size * math.cos(angle), cy + self.size * math.sin(angle)))
        return result


def to_offset(h: Hex) -> tuple[int, int]:
    """The odd-q offset ``(col, row)`` of ``h``.

    >>> to_offset(Hex(1, 0)), to_offset(Hex(2, -1))
    ((1, 0), (2, 0))
    """
    return (h.q, h.r + (h.q - (h.q & 1)) // 2)


def from_offset(col: int, row: int) -> Hex:
    """The hex at odd-q offset ``(col, row)``."""
    return Hex(col, row - (col - (col & 1)) // 2)


def column_letters(col: int) -> str:
    """A column number as printed hex maps letter it: 0 -> 'A', 25 -> 'Z', 26 -> 'AA'.

    >>> column_letters(0), column_letters(25), column_letters(26), column_letters(701)
    ('A', 'Z', 'AA', 'ZZ')
    """
    if col < 0:
        raise ValueError(f"a column number must be 0 or more, got {col}")
    letters = ""
    n = col + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@lru_cache(maxsize=4096)  # offers label every reachable hex, per figure and state
def hex_label(h: Hex) -> str:
    """The friendly name of ``h`` a person reads: column letter and row number (from 1), as
    printed hex maps show them (odd-q offset). Axial ``q,r`` stays in documents and keys.

    >>> hex_label(Hex(0, 0)), hex_label(Hex(2, -1)), hex_label(Hex(3, 2))
    ('A1', 'C1', 'D4')

    A hex left or above the board's first column or row (never on a board) keeps its axial
    text in brackets: ``hex_label(Hex(-1, 0)) == '(-1,0)'``.
    """
    col, row = to_offset(h)
    if col < 0 or row < 0:
        return f"({h.q},{h.r})"
    return f"{column_letters(col)}{row + 1}"


def hex_labels(hexes: Iterable[Hex]) -> str:
    """Several hexes by their friendly names, comma-separated."""
    return ", ".join(hex_label(h) for h in hexes)
