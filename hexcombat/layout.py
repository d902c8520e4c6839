"""Screen layout of hexes: pixel centres, corners and rectangular offset coordinates.

Flat-topped hexes, screen y pointing down (``shared/rules/README.md`` §1). The
centre of ``Hex(q, r)`` is ``x = 1.5·size·q``, ``y = √3·size·(r + q/2)``, the
spec's ``px``/``py`` written in axial coordinates.

Rectangular boards use "odd-q" offset coordinates: ``col = q`` and odd columns
are shoved half a hex down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
