"""Draw the app's PNG icons (static/icons/) with the standard library only.

Run ``python web/make_icons.py`` after changing the design; the PNGs are committed. The
picture: a flat-topped hex on the app's green with a round token and its facing wedge. The
maskable icon fills its whole square and keeps the drawing inside the central 80 % circle
that launchers never crop.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (47, 72, 88)
PARCHMENT = (244, 236, 216)
ACCENT = (181, 101, 29)
WHITE = (255, 255, 255)


def inside_hex(x: float, y: float, r: float) -> bool:
    """Point in a flat-topped hexagon of circumradius r centred at 0."""
    ax, ay = abs(x), abs(y)
    h = r * math.sqrt(3) / 2
    return ay <= h and ax * math.sqrt(3) / 2 + ay / 2 <= h


def colour_at(x: float, y: float, scale: float, rounded: bool) -> tuple[int, int, int, int]:
    """The icon's colour at (x, y) in units where the drawing spans -1..1 (times scale)."""
    u, v = x / scale, y / scale
    if rounded and (
        max(abs(x), abs(y)) > 1 or math.hypot(max(abs(x) - 0.78, 0), max(abs(y) - 0.78, 0)) > 0.22
    ):
        return (0, 0, 0, 0)
    if not inside_hex(u, v, 0.92):
        return (*GREEN, 255)
    if math.hypot(u, v) <= 0.42:
        return (*WHITE, 255) if math.hypot(u, v) <= 0.33 else (*ACCENT, 255)
    # the facing wedge, pointing north
    if -0.72 <= v <= -0.38 and abs(u) <= (v + 0.72) * 0.75:
        return (*ACCENT, 255)
    return (*PARCHMENT, 255)


def png(size: int, *, maskable: bool) -> bytes:
    """An RGBA PNG, 4x4 supersampled."""
    scale = 0.78 if maskable else 1.0
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size * 2 - 1
                    y = (py + (sy + 0.5) / n) / size * 2 - 1
                    c = colour_at(x, y, scale, rounded=not maskable)
                    for i in range(4):
                        acc[i] += c[i] * (c[3] if i < 3 else 1)
            alpha = acc[3] / (n * n)
            rgb = [round(acc[i] / acc[3]) if acc[3] else 0 for i in range(3)]
            row += bytes([*rgb, round(alpha)])
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
    ):
        (OUT / name).write_bytes(png(size, maskable=maskable))
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
