"""Ranged attacks: the 10-yard hex, Point Blank / Medium / Long bands and line of sight.

Pure functions for ``shared/rules/fig-percentile.md`` §3.4 (FP-14 ... FP-20).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from hexcombat.board import Board
from hexcombat.geometry import Hex
from hexcombat.layout import hex_label
from hexcombat.rulesets.fig_percentile.speed import Band

HEX_YARDS = 10
"""FP-14: one hex is 10 yards for ranged weapons."""

SIGHT_LIMIT = 2
"""FP-19: two heavy-tree hexes in between block sight; one does not."""

POINT_BLANK = Band("Point Blank", 5, "FP-16")
MEDIUM_RANGE = Band("Medium range", 0, "FP-17")
LONG_RANGE = Band("Long range", -10, "FP-18")

MEASURES = ("distance", "gap")
"""What the range bands count (``fp.range_band_distance``, G-24): hex distance or hexes between."""


def max_range_hexes(yards: int) -> Fraction:
    """FP-14: a maximum range in hexes, kept exact (50 yd -> 5, 45 yd -> 9/2).

    >>> max_range_hexes(60), max_range_hexes(45)
    (Fraction(6, 1), Fraction(9, 2))
    """
    return Fraction(yards, HEX_YARDS)


def range_band(
    distance: int, max_hexes: Fraction | int, *, point_blank: bool = True, measure: str = "distance"
) -> Band | None:
    """FP-16...FP-18: the range band at hex ``distance``, or None beyond the maximum range.

    Point Blank (+5) is the same or an adjacent hex; Medium (0) is up to half
    the maximum range, inclusive (I-7); Long (-10) is up to the maximum. With
    ``measure="gap"`` the hexes between the figures (distance - 1) are compared
    with the range instead (G-24). ``point_blank=False`` (spells when they do
    not count as ranged weapons, G-25) puts the nearest hexes in Medium.

    >>> [range_band(d, 6).name if range_band(d, 6) else None for d in (1, 3, 4, 6, 7)]
    ['Point Blank', 'Medium range', 'Long range', 'Long range', None]
    """
    if measure not in MEASURES:
        raise ValueError(f"unknown range measure {measure!r}; allowed: {', '.join(MEASURES)}")
    if distance < 0:
        raise ValueError(f"a distance cannot be negative, got {distance}")
    x = distance if measure == "distance" else max(0, distance - 1)
    limit = Fraction(max_hexes)
    if x > limit:
        return None
    if distance <= 1 and point_blank:
        return POINT_BLANK
    return MEDIUM_RANGE if x <= limit / 2 else LONG_RANGE


@dataclass(frozen=True)
class Sight:
    """A line-of-sight verdict for FP-15, FP-19, FP-20 and G-22, with a plain-words reason."""

    clear: bool
    reason: str
    rule: str
    trees: int
    between: tuple[Hex, ...]


def sight(
    board: Board,
    a: Hex,
    b: Hex,
    *,
    tie_policy: str = "both_must_block",
    figures: Collection[Hex] = (),
) -> Sight:
    """Whether ``a`` sees ``b``: hills and structures block (FP-20), two heavy-tree hexes block.

    Only the hexes strictly between the two count (G-15). ``figures`` are hexes
    holding other figures, which block when ``fp.figures_block_los`` is on
    (G-22); where the line runs along a hexside, ``tie_policy`` decides.
    """
    line = board.line_of_sight(a, b, tie_policy=tie_policy, soft_limit=SIGHT_LIMIT)
    trees = line.soft_total
    if line.blocking:
        where = ", ".join(f"{board.terrain_at(h).name} at {hex_label(h)}" for h in line.blocking)
        return Sight(False, f"blocked by {where}", "FP-20", trees, line.intervening)
    if trees >= SIGHT_LIMIT:
        return Sight(
            False,
            f"{trees} heavy-tree hexes in between block sight",
            "FP-19",
            trees,
            line.intervening,
        )
    occupied = set(figures)
    for step in line.steps[1:-1]:
        held = [h for h in step.hexes if h in occupied]
        if held and (len(held) == len(step.hexes) or tie_policy != "both_must_block"):
            return Sight(
                False,
                f"a figure at {hex_label(held[0])} is in the way",
                "G-22",
                trees,
                line.intervening,
            )
    if trees:
        return Sight(
            True,
            "clear: one heavy-tree hex in between is see-through",
            "FP-19",
            trees,
            line.intervening,
        )
    return Sight(True, "clear", "FP-15", trees, line.intervening)
