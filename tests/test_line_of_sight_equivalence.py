"""Lines and line of sight are unchanged by the faster implementation.

``reference_*`` below are frozen copies of the implementation before the speed-up
(two float lines nudged by +eps and -eps, compared step by step; a sight line
checked over every step). The engine's ``line``, ``line_steps`` and
``Board.line_of_sight`` must give exactly the same hexes, ties (and their order),
verdicts, reasons and evidence, for many random pairs and boards.
"""

from __future__ import annotations

import math
import os
import random

import pytest

from hexcombat.board import TIE_POLICIES, Board, SightLine
from hexcombat.geometry import Hex, LineStep, distance, line, line_steps
from hexcombat.layout import from_offset, hex_label
from hexcombat.terrain import Terrain, TerrainTable

RANDOM_PAIRS = 2000 if int(os.environ.get("HEXCOMBAT_FUZZ", "0")) else 300
"""Random pairs of the line test: a fast subset, or all in the long mode (HEXCOMBAT_FUZZ=1)."""

pytestmark = pytest.mark.pyodide

_EPS = (1e-6, 2e-6, -3e-6)


def _reference_round(x: float, y: float, z: float) -> Hex:
    rx = math.floor(x + 0.5)
    ry = math.floor(y + 0.5)
    rz = math.floor(z + 0.5)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return Hex.from_cube(rx, ry, rz)


def _reference_nudged(a: Hex, b: Hex, sign: int) -> list[Hex]:
    n = distance(a, b)
    if n == 0:
        return [a]
    ax, ay, az = a.cube
    bx, by, bz = b.cube
    ex, ey, ez = (sign * e for e in _EPS)
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(
            _reference_round(
                ax + (bx - ax) * t + ex, ay + (by - ay) * t + ey, az + (bz - az) * t + ez
            )
        )
    return out


def reference_line_steps(a: Hex, b: Hex) -> list[LineStep]:
    """The line steps as computed before the speed-up."""
    plus = _reference_nudged(a, b, 1)
    minus = _reference_nudged(a, b, -1)
    return [
        LineStep((p,)) if p == m else LineStep((p, m)) for p, m in zip(plus, minus, strict=True)
    ]


def _stops(t: Terrain, at_end: bool) -> bool:
    return t.blocks_sight or (t.obscures and not at_end)


def _block_reason(stoppers: list[tuple[Hex, Terrain]]) -> str:
    parts = " and ".join(f"{t.name} at {hex_label(h)}" for h, t in stoppers)
    if all(t.blocks_sight for _, t in stoppers):
        return f"blocked by {parts}"
    return f"cannot pass through {parts} (fire may end there, not pass through)"


def reference_line_of_sight(
    board: Board,
    a: Hex,
    b: Hex,
    *,
    tie_policy: str = "both_must_block",
    soft_limit: int = 2,
    count_ends: bool = False,
) -> tuple[object, ...]:
    """Every field of the SightLine the board returned before the speed-up."""
    steps = tuple(reference_line_steps(a, b))
    last = len(steps) - 1
    contains = board.contains
    intervening = tuple(h for step in steps[1:last] for h in step.hexes if contains(h))
    checked = range(len(steps)) if count_ends else range(1, last)
    blocking: list[Hex] = []
    first_block = ""
    soft: list[Hex] = []
    soft_total = 0
    best = tie_policy == "both_must_block"
    for i in checked:
        at_end = i in (0, last)
        verdicts = [(h, board.terrain_at(h)) for h in steps[i].hexes if contains(h)]
        stoppers = [(h, t) for h, t in verdicts if _stops(t, at_end)]
        passable = [(h, t) for h, t in verdicts if not _stops(t, at_end)]
        open_sides = len(steps[i].hexes) - len(stoppers)
        if stoppers and (not open_sides or not best):
            blocking.extend(h for h, _ in stoppers)
            if not first_block:
                first_block = _block_reason(stoppers)
            continue
        values = [t.soft_cover for _, t in passable]
        if len(verdicts) < len(steps[i].hexes):
            values.append(0)
        value = min(values) if best else max(values)
        if value > 0:
            soft_total += value
            soft.extend(h for h, t in passable if t.soft_cover > 0)
    soft_names = ", ".join(f"{board.terrain_at(h).name} at {hex_label(h)}" for h in soft)
    if first_block:
        reason = first_block
    elif soft_total >= soft_limit:
        reason = f"soft cover {soft_total} in between ({soft_limit} blocks): {soft_names}"
    elif soft_total:
        reason = f"clear (soft cover {soft_total}, {soft_limit} blocks): {soft_names}"
    else:
        reason = "clear"
    clear = not blocking and soft_total < soft_limit
    return (clear, reason, steps, intervening, tuple(blocking), tuple(soft), soft_total)


def fields(s: SightLine) -> tuple[object, ...]:
    return (s.clear, s.reason, s.steps, s.intervening, s.blocking, s.soft, s.soft_total)


TABLE = TerrainTable(
    [
        Terrain("open", "Open", 1),
        Terrain("trees", "Trees", 2, soft_cover=1),
        Terrain("thicket", "Thicket", 3, soft_cover=2),
        Terrain("hill", "Hill", 1, blocks_sight=True),
        Terrain("smoke", "Smoke", 1, obscures=True),
        Terrain("smoky_trees", "Smoky trees", 2, soft_cover=1, obscures=True),
    ]
)


def random_board(rng: random.Random, width: int, height: int, density: float) -> Board:
    ids = TABLE.ids()
    empty = Board(width, height, TABLE)
    terrain = {h: rng.choice(ids[1:]) for h in empty.hexes() if rng.random() < density}
    return Board(width, height, TABLE, terrain)


def tied_pairs(rng: random.Random, board: Board, count: int) -> list[tuple[Hex, Hex]]:
    """Pairs along the six 'between' directions, where lines run along hexsides."""
    out = []
    hexes = board.hexes()
    for _ in range(count):
        a = rng.choice(hexes)
        d = rng.choice([(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)])
        k = rng.randint(1, 12)
        b = Hex(a.q + d[0] * k, a.r + d[1] * k)
        if board.contains(b):
            out.append((a, b))
    return out


def test_lines_and_steps_match_the_reference_over_many_random_pairs() -> None:
    rng = random.Random(15)
    ties = 0
    for _ in range(RANDOM_PAIRS):
        span = rng.choice([3, 12, 60, 1000])
        a = Hex(rng.randint(-span, span), rng.randint(-span, span))
        b = Hex(rng.randint(-span, span), rng.randint(-span, span))
        expected = reference_line_steps(a, b)
        assert line_steps(a, b) == expected, (a, b)
        assert line(a, b) == [s.hexes[0] for s in expected], (a, b)
        ties += any(s.is_tie for s in expected)
    for a in [Hex(0, 0), Hex(5, -3), Hex(-7, 2)]:
        for b in [Hex(a.q + dq, a.r + dr) for dq in range(-9, 10) for dr in range(-9, 10)]:
            expected = reference_line_steps(a, b)
            assert line_steps(a, b) == expected, (a, b)
            ties += any(s.is_tie for s in expected)
    assert ties > 60  # the tie handling was exercised


@pytest.mark.parametrize("density", [0.1, 0.35, 0.8])
def test_line_of_sight_matches_the_reference_on_random_boards(density: float) -> None:
    rng = random.Random(int(density * 100))
    for width, height in ((7, 5), (16, 12), (40, 30)):
        board = random_board(rng, width, height, density)
        hexes = board.hexes()
        pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(80)]
        pairs += tied_pairs(rng, board, 80)
        # along the zigzag edge, where one side of a tie is off the board
        pairs += [(from_offset(0, r), from_offset(width - 1, r)) for r in range(height)]
        for a, b in pairs:
            for policy in TIE_POLICIES:
                for limit, ends in ((2, False), (1, True), (3, False)):
                    got = board.line_of_sight(
                        a, b, tie_policy=policy, soft_limit=limit, count_ends=ends
                    )
                    want = reference_line_of_sight(
                        board, a, b, tie_policy=policy, soft_limit=limit, count_ends=ends
                    )
                    assert fields(got) == want, (a, b, policy, limit, ends)
                    assert got.clear == want[0]
