"""The test maps: board pictures drawn into pixel buffers with the standard library.

Each ``MapCase`` is a printed hex map as the page would hand it to the grid finder: drawn at
most 1024 px on its long side (the scale the page's canvas would use), with hexes of either
orientation, terrain colour fills, tokens, a board on a plain margin or a grid that runs off
the edges, a slight tilt, noise and JPEG-like blockiness. ``CASES`` is the whole set (11 hex
sizes from 24 to 160 px, both orientations, two kinds of picture); ``error`` measures a
proposal against the truth.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from functools import cache

from hexcombat.map_grid import GridProposal, Orientation, Picture

SQRT3 = math.sqrt(3.0)
LONG_SIDE = 1024
TERRAIN = ["#dcd6b8", "#8fb07a", "#9cc3d9", "#c9a878", "#8a8580", "#eef2f5", "#5f8f4f"]
LINE = "#555555"
PAPER = "#ffffff"
TOKEN = "#3366cc"
SIZES = (24, 30, 37, 45, 55, 68, 83, 100, 120, 140, 160)


@dataclass(frozen=True, slots=True)
class MapCase:
    """One test map, its lengths in the full picture's pixels.

    ``offset``: the centre of one hex, in the board's frame (the picture turned a quarter
    clockwise for pointed-topped hexes). ``tilt``: degrees clockwise about the middle.
    ``noise``: low bits flipped at random per pixel (0 for none). ``board``: a board of whole
    hexes on a white margin; otherwise the grid runs off every edge.
    """

    orientation: Orientation
    hex_size: float
    offset: tuple[float, float]
    width: int
    height: int
    tilt: float = 0.0
    noise: int = 0
    blocky: bool = False
    board: bool = True
    seed: int = 0

    @property
    def scale(self) -> float:
        """The page's reduction: the long side at most ``LONG_SIDE`` px."""
        return min(1.0, LONG_SIDE / max(self.width, self.height))

    def name(self) -> str:
        kind = "board" if self.board else "cropped"
        return f"{self.orientation}-{self.hex_size:g}px-{kind}-tilt{self.tilt:+.1f}"


def _rgba(colour: str) -> bytes:
    return bytes.fromhex(colour[1:]) + b"\xff"


def fill_convex(
    buf: bytearray, width: int, height: int, points: list[tuple[float, float]], rgba: bytes
) -> None:
    """Paint the pixels whose centres lie inside the convex polygon ``points``."""
    top = max(0, math.ceil(min(y for _, y in points) - 0.5))
    bottom = min(height - 1, math.floor(max(y for _, y in points) - 0.5))
    edges = list(zip(points, points[1:] + points[:1], strict=True))
    for row in range(top, bottom + 1):
        yc = row + 0.5
        xs = []
        for (x1, y1), (x2, y2) in edges:
            if (y1 <= yc < y2) or (y2 <= yc < y1):
                xs.append(x1 + (yc - y1) * (x2 - x1) / (y2 - y1))
        if len(xs) < 2:
            continue
        first = max(0, math.ceil(min(xs) - 0.5))
        last = min(width - 1, math.floor(max(xs) - 0.5))
        if last >= first:
            start = (row * width + first) * 4
            buf[start : start + (last - first + 1) * 4] = rgba * (last - first + 1)


def _lattice(case: MapCase, frame: tuple[float, float]) -> list[tuple[int, int, float, float]]:
    """The hexes (column, row, centre x, centre y) to draw, in the reduced board frame."""
    s = case.hex_size * case.scale
    pitch, height = 1.5 * s, SQRT3 * s
    x0, y0 = case.offset[0] * case.scale, case.offset[1] * case.scale
    fw, fh = frame
    if case.board:
        columns = int((fw - s - x0) // pitch) + 1
        rows = int((fh - height - y0) // height) + 1
        i_range, j_range = range(columns), range(rows)
    else:
        spread = 2 + int(max(fw, fh) / min(pitch, height))
        i_range = range(-spread, spread)
        j_range = range(-spread, spread)
    out = []
    for i in i_range:
        for j in j_range:
            x = x0 + i * pitch
            y = y0 + j * height + (height / 2.0 if i % 2 else 0.0)
            if -2 * s < x < fw + 2 * s and -2 * s < y < fh + 2 * s:
                out.append((i, j, x, y))
    return out


@cache
def draw(case: MapCase) -> Picture:
    """The test map as the finder receives it (grey, from RGBA, at the page's scale)."""
    width, height, rgba = draw_rgba(case)
    return Picture.from_rgba(width, height, rgba)


def draw_rgba(case: MapCase) -> tuple[int, int, bytes]:
    """The test map's RGBA pixels at the page's scale."""
    rng = random.Random(case.seed)
    scale = case.scale
    w, h = round(case.width * scale), round(case.height * scale)
    frame = (float(w), float(h)) if case.orientation == "flat" else (float(h), float(w))
    s = case.hex_size * scale
    line = max(1.0, case.hex_size / 24.0 * scale)
    inner = s - line / SQRT3
    cos, sin = math.cos(math.radians(case.tilt)), math.sin(math.radians(case.tilt))

    def to_picture(x: float, y: float) -> tuple[float, float]:
        if case.orientation == "pointed":
            x, y = y, h - x
        dx, dy = x - w / 2.0, y - h / 2.0
        return w / 2.0 + dx * cos - dy * sin, h / 2.0 + dx * sin + dy * cos

    def polygon(cx: float, cy: float, radius: float, corners: int) -> list[tuple[float, float]]:
        return [
            to_picture(
                cx + radius * math.cos(2 * math.pi * k / corners),
                cy + radius * math.sin(2 * math.pi * k / corners),
            )
            for k in range(corners)
        ]

    buf = bytearray(_rgba(PAPER if case.board else LINE) * (w * h))
    hexes = _lattice(case, frame)
    if case.board:
        for _, _, x, y in hexes:
            fill_convex(buf, w, h, polygon(x, y, s + line / SQRT3, 6), _rgba(LINE))
    for _, _, x, y in hexes:
        fill_convex(buf, w, h, polygon(x, y, inner, 6), _rgba(rng.choice(TERRAIN)))
        if rng.random() < 0.1:
            fill_convex(buf, w, h, polygon(x, y, 0.45 * s, 16), _rgba(TOKEN))
            fill_convex(buf, w, h, polygon(x, y, 0.35 * s, 16), _rgba(PAPER))
    if case.blocky:
        _blockiness(buf, w, h, rng)
    if case.noise:
        _noise(buf, case.noise, rng)
    buf[3::4] = b"\xff" * (w * h)
    return w, h, bytes(buf)


def _blockiness(buf: bytearray, width: int, height: int, rng: random.Random) -> None:
    """JPEG-like 8x8 blocks: each block's values rounded to steps of 12 at its own phase."""
    step = 12
    tables = [
        bytes(min(255, max(0, round((v - p) / step) * step + p)) for v in range(256))
        for p in range(step)
    ]
    for by in range(0, height, 8):
        for bx in range(0, width, 8):
            table = tables[rng.randrange(step)]
            span = min(8, width - bx) * 4
            for y in range(by, min(by + 8, height)):
                start = (y * width + bx) * 4
                buf[start : start + span] = buf[start : start + span].translate(table)


def _noise(buf: bytearray, bits: int, rng: random.Random) -> None:
    """Flip the lowest ``bits`` bits of every channel at random."""
    mask = bytes(v & ((1 << bits) - 1) for v in range(256))
    noise = rng.randbytes(len(buf)).translate(mask)
    mixed = int.from_bytes(buf, "little") ^ int.from_bytes(noise, "little")
    buf[:] = mixed.to_bytes(len(buf), "little")


def all_cases() -> list[MapCase]:
    """The whole set: every size, both orientations, a clean board and a rough crop."""
    rng = random.Random(38)
    cases = []
    for size in SIZES:
        for orientation in ("flat", "pointed"):
            for rough in (False, True):
                columns = rng.randint(8, 16)
                rows = rng.randint(6, 12)
                along = 1.5 * size * columns + size / 2
                down = SQRT3 * size * (rows + 0.5)
                margin = rng.uniform(0, 0.8) * size
                frame_w, frame_h = round(along + 2 * margin), round(down + 2 * margin)
                width, height = (frame_w, frame_h) if orientation == "flat" else (frame_h, frame_w)
                cases.append(
                    MapCase(
                        orientation=orientation,
                        hex_size=float(size),
                        offset=(
                            margin + size + (rng.uniform(-3, 3) if rough else 0.0),
                            margin + SQRT3 / 2 * size + (rng.uniform(-3, 3) if rough else 0.0),
                        ),
                        width=width,
                        height=height,
                        tilt=rng.uniform(-2.0, 2.0) if rough else 0.0,
                        noise=4 if rough else 2,
                        blocky=rough,
                        board=not rough,
                        seed=rng.randrange(1 << 30),
                    )
                )
    return cases


CASES = all_cases()
SAMPLE = [case for i, case in enumerate(CASES) if i % 4 == (i // 4) % 4]
"""One map of each size, turning through the four kinds (the benchmark runs them all)."""


def board_size(case: MapCase) -> tuple[int, int]:
    """The columns and rows of a ``board`` case's board."""
    w, h = round(case.width * case.scale), round(case.height * case.scale)
    frame = (float(w), float(h)) if case.orientation == "flat" else (float(h), float(w))
    hexes = _lattice(case, frame)
    return max(i for i, _, _, _ in hexes) + 1, max(j for _, j, _, _ in hexes) + 1


def turned_back(picture: Picture) -> Picture:
    """The picture turned a quarter anticlockwise: a flat-topped grid's pointed-topped twin."""
    w, h = picture.width, picture.height
    rows = [picture.grey[w - 1 - y :: w] for y in range(w)]
    return Picture(h, w, b"".join(rows))


def error(case: MapCase, proposal: GridProposal) -> tuple[float, float]:
    """The proposal's error: hex size (relative) and offset (hexes from the nearest true
    centre), or infinities when the orientation is wrong."""
    if proposal.orientation != case.orientation:
        return math.inf, math.inf
    s = case.hex_size
    pitch, height = 1.5 * s, SQRT3 * s
    px, py = proposal.offset
    x0, y0 = case.offset
    near = round((px - x0) / pitch)
    best = math.inf
    for i in (near - 1, near, near + 1):
        x = x0 + i * pitch
        ybase = y0 + (height / 2.0 if i % 2 else 0.0)
        j = round((py - ybase) / height)
        for jj in (j - 1, j, j + 1):
            best = min(best, math.hypot(px - x, py - (ybase + jj * height)))
    return abs(proposal.hex_size - s) / s, best / s


def png_file(width: int, height: int, rgba: bytes) -> bytes:
    """RGBA pixels as a PNG file (a test map as the GM's file)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body).to_bytes(4, "big")
        return len(body).to_bytes(4, "big") + kind + body + crc

    stride = 4 * width
    rows = b"".join(b"\0" + rgba[y * stride : (y + 1) * stride] for y in range(height))
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 6, 0, 0, 0])
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 6))
        + chunk(b"IEND", b"")
    )
