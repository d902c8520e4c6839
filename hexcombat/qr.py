"""QR codes (ISO/IEC 18004, model 2), byte mode, versions 1-40: share links a phone can open.

Written from the standard's description (no copied code): the text is UTF-8 in one byte-mode
segment, split into Reed-Solomon blocks over GF(256) (polynomial 0x11D), interleaved, laid out
in the usual two-column zigzag around the function patterns, and masked with whichever of the
eight masks scores lowest on the standard's four penalty rules.

>>> code = encode("https://example.org/#e=abc")
>>> code.version, code.size
(2, 25)
>>> svg = to_svg(code)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hexcombat.errors import HexcombatError

__all__ = ["LEVELS", "QrCode", "QrTooLongError", "capacity", "encode", "to_svg"]

LEVELS = ("L", "M", "Q", "H")
"""Error correction levels, least (7 % of the code may be damaged) to most (30 %)."""
_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}

# Per version (index 1-40): error correction codewords per block, and the number of blocks.
_ECC_PER_BLOCK = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
          28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
          26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
          28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
          30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}  # fmt: skip
_BLOCKS = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12,
          12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20,
          21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25,
          27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30,
          32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}  # fmt: skip


class QrTooLongError(HexcombatError):
    """The text does not fit in a version-40 code at the asked level."""


@dataclass(frozen=True)
class QrCode:
    """A finished code: ``modules[y][x]`` is True for a dark module."""

    version: int
    level: str
    mask: int
    modules: tuple[tuple[bool, ...], ...]

    @property
    def size(self) -> int:
        """Modules per side (17 + 4 * version)."""
        return len(self.modules)


# ---- GF(256) and Reed-Solomon ---------------------------------------------------------------
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _generator(degree: int) -> list[int]:
    """Coefficients (highest power first, leading 1 dropped) of prod (x - a^i), i < degree."""
    poly = [1]
    for i in range(degree):
        nxt = [0] * (len(poly) + 1)
        for j, c in enumerate(poly):
            nxt[j] ^= c
            nxt[j + 1] ^= _mul(c, _EXP[i])
        poly = nxt
    return poly[1:]


def rs_remainder(data: list[int], degree: int) -> list[int]:
    """The ``degree`` Reed-Solomon check codewords of ``data``."""
    gen = _generator(degree)
    rem = [0] * degree
    for byte in data:
        factor = byte ^ rem[0]
        rem = [*rem[1:], 0]
        for i, g in enumerate(gen):
            rem[i] ^= _mul(g, factor)
    return rem


# ---- sizes ---------------------------------------------------------------------------------
def _raw_modules(version: int) -> int:
    """Modules left for data and error correction (all but the function patterns)."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        n = version // 7 + 2
        result -= (25 * n - 10) * n - 55
        if version >= 7:
            result -= 36
    return result


def _data_codewords(version: int, level: str) -> int:
    blocks = _BLOCKS[level][version]
    return _raw_modules(version) // 8 - _ECC_PER_BLOCK[level][version] * blocks


def _count_bits(version: int) -> int:
    return 8 if version <= 9 else 16


def capacity(version: int, level: str = "L") -> int:
    """How many bytes one byte-mode segment can carry in a code of ``version`` and ``level``."""
    if level not in LEVELS or not 1 <= version <= 40:
        raise ValueError(f"no QR code of version {version!r} and level {level!r}")
    return (_data_codewords(version, level) * 8 - 4 - _count_bits(version)) // 8


def alignment_positions(version: int) -> list[int]:
    """Row and column centres of the alignment patterns."""
    if version == 1:
        return []
    n = version // 7 + 2
    step = (version * 8 + n * 3 + 5) // (n * 4 - 4) * 2
    size = 17 + 4 * version
    return [6, *sorted(size - 7 - i * step for i in range(n - 1))]


# ---- encoding ------------------------------------------------------------------------------
def encode(text: str | bytes, level: str = "L", *, min_version: int = 1) -> QrCode:
    """The smallest code holding ``text`` (UTF-8) at ``level`` (QrTooLongError if none)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if level not in LEVELS:
        raise ValueError(f"error correction level must be one of {', '.join(LEVELS)}")
    version = next(
        (v for v in range(max(1, min_version), 41) if len(data) <= capacity(v, level)), None
    )
    if version is None:
        raise QrTooLongError(
            f"{len(data)} bytes do not fit in a QR code at level {level} "
            f"(at most {capacity(40, level)})"
        )
    codewords = _codewords(_data_bits(data, version, level), version, level)
    grid = _Grid(version)
    grid.place(codewords)
    best = min(range(8), key=lambda m: grid.masked(m, level).penalty())
    final = grid.masked(best, level)
    return QrCode(version, level, best, tuple(tuple(row) for row in final.dark))


def _data_bits(data: bytes, version: int, level: str) -> list[int]:
    """Mode, count, the bytes, terminator and padding: the data codewords."""
    bits: list[int] = []

    def put(value: int, length: int) -> None:
        bits.extend((value >> i) & 1 for i in range(length - 1, -1, -1))

    put(0b0100, 4)
    put(len(data), _count_bits(version))
    for byte in data:
        put(byte, 8)
    room = _data_codewords(version, level) * 8
    put(0, min(4, room - len(bits)))
    put(0, -len(bits) % 8)
    out = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]
    pads = (0xEC, 0x11)
    out += [pads[i % 2] for i in range(room // 8 - len(out))]
    return out


def _codewords(data: list[int], version: int, level: str) -> list[int]:
    """Split into blocks, add each block's check codewords, interleave."""
    blocks = _BLOCKS[level][version]
    ecc = _ECC_PER_BLOCK[level][version]
    raw = _raw_modules(version) // 8
    short = blocks - raw % blocks
    short_len = raw // blocks - ecc
    parts: list[list[int]] = []
    at = 0
    for i in range(blocks):
        length = short_len + (0 if i < short else 1)
        parts.append(data[at : at + length])
        at += length
    checks = [rs_remainder(p, ecc) for p in parts]
    out = [p[i] for i in range(short_len + 1) for p in parts if i < len(p)]
    out += [c[i] for i in range(ecc) for c in checks]
    return out


def format_bits(level: str, mask: int) -> int:
    """The 15 format bits (level and mask, BCH-protected, XOR-masked)."""
    data = _LEVEL_BITS[level] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return (data << 10 | rem) ^ 0x5412


def version_bits(version: int) -> int:
    """The 18 version bits of versions 7 and up (BCH-protected)."""
    rem = version
    for _ in range(12):
        rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
    return version << 12 | rem


MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)
"""Mask conditions by number: where true, a data module is flipped."""


class _Grid:
    """The module grid while it is built: dark modules and which ones are function patterns."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.size = size = 17 + 4 * version
        self.dark = [[False] * size for _ in range(size)]
        self.function = [[False] * size for _ in range(size)]
        for i in range(size):
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < size and 0 <= y < size:
                        self.set(x, y, max(abs(dx), abs(dy)) not in (2, 4))
        centres = alignment_positions(version)
        last = len(centres) - 1
        for i, ay in enumerate(centres):
            for j, ax in enumerate(centres):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        self.set(ax + dx, ay + dy, max(abs(dx), abs(dy)) != 1)
        self.draw_format(0, "L")  # reserves the format areas (and the dark module)
        if version >= 7:
            bits = version_bits(version)
            for i in range(18):
                dark = (bits >> i) & 1 == 1
                a, b = size - 11 + i % 3, i // 3
                self.set(a, b, dark)
                self.set(b, a, dark)

    def set(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.function[y][x] = True

    def draw_format(self, mask: int, level: str) -> None:
        bits = format_bits(level, mask)
        size = self.size

        def bit(i: int) -> bool:
            return (bits >> i) & 1 == 1

        for i in range(6):
            self.set(8, i, bit(i))
        self.set(8, 7, bit(6))
        self.set(8, 8, bit(7))
        self.set(7, 8, bit(8))
        for i in range(9, 15):
            self.set(14 - i, 8, bit(i))
        for i in range(8):
            self.set(size - 1 - i, 8, bit(i))
        for i in range(8, 15):
            self.set(8, size - 15 + i, bit(i))
        self.set(8, size - 8, True)

    def data_positions(self) -> list[tuple[int, int]]:
        """Where codeword bits go, in order: two-column zigzag from the bottom right."""
        size = self.size
        order = []
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5
            upward = (right + 1) & 2 == 0
            for vert in range(size):
                y = size - 1 - vert if upward else vert
                for x in (right, right - 1):
                    if not self.function[y][x]:
                        order.append((x, y))
            right -= 2
        return order

    def place(self, codewords: list[int]) -> None:
        bits = [(c >> (7 - i)) & 1 == 1 for c in codewords for i in range(8)]
        for n, (x, y) in enumerate(self.data_positions()):
            self.dark[y][x] = bits[n] if n < len(bits) else False

    def masked(self, mask: int, level: str) -> _Grid:
        twin = object.__new__(_Grid)
        twin.version, twin.size = self.version, self.size
        twin.function = [row[:] for row in self.function]
        cond = MASKS[mask]
        twin.dark = [
            [d != (not f and cond(x, y)) for x, (d, f) in enumerate(zip(drow, frow, strict=True))]
            for y, (drow, frow) in enumerate(zip(self.dark, self.function, strict=True))
        ]
        twin.draw_format(mask, level)
        return twin

    def penalty(self) -> int:
        """The standard's score (lower is better): runs, 2x2 blocks, finder look-alikes, balance."""
        rows = ["".join("1" if d else "0" for d in row) for row in self.dark]
        cols = ["".join(r[x] for r in rows) for x in range(self.size)]
        score = 0
        for line in rows + cols:
            run, prev = 0, ""
            for ch in line:
                if ch == prev:
                    run += 1
                else:
                    if run >= 5:
                        score += run - 2
                    run, prev = 1, ch
            if run >= 5:
                score += run - 2
            padded = "0000" + line + "0000"
            for pattern in ("00001011101", "10111010000"):
                at = padded.find(pattern)
                while at != -1:
                    score += 40
                    at = padded.find(pattern, at + 1)
        for y in range(self.size - 1):
            upper, lower = rows[y], rows[y + 1]
            for x in range(self.size - 1):
                if upper[x] == upper[x + 1] == lower[x] == lower[x + 1]:
                    score += 3
        dark = sum(r.count("1") for r in rows)
        total = self.size * self.size
        score += (abs(dark * 20 - total * 10) + total - 1) // total * 10 - 10
        return score


def to_svg(code: QrCode, *, module: int = 4, border: int = 4, label: str = "QR code") -> str:
    """The code as a standalone SVG (one path of dark squares, quiet zone included)."""
    size = code.size + 2 * border
    parts = []
    for y, row in enumerate(code.modules):
        x = 0
        while x < code.size:
            if row[x]:
                start = x
                while x < code.size and row[x]:
                    x += 1
                parts.append(f"M{start + border},{y + border}h{x - start}v1h{start - x}z")
            else:
                x += 1
    side = size * module
    safe = label.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {size} {size}" shape-rendering="crispEdges" role="img" '
        f'aria-label="{safe}"><rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(parts)}"/></svg>'
    )
