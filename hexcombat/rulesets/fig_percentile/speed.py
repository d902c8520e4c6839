"""FIG-scaled speed: hexes per round, speed values, combined-speed bands, turning and dodging.

Pure functions of the numbers in ``shared/rules/fig-percentile.md`` §3.1-3.2.
Speeds are exact :class:`~fractions.Fraction` values (FIG 29 accelerating is
14.5); every rounding goes through :func:`rounded`, never Python's ``round()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from hexcombat.rounding import round_half_up

ROUNDINGS = ("half_up", "half_down")
"""How .5 is rounded (``fp.rounding``, I-2): up by default, as 97/2 -> 49 needs."""

MODES = ("stationary", "walk", "accelerate", "top")
"""Move modes of a round (§2.1): S and the hexes allowed follow from the mode."""

RUNNING = ("accelerate", "top")

MODE_SHOWN = {
    "stationary": "standing still",
    "walk": "walking",
    "accelerate": "starting to run",
    "top": "running at top speed",
}
"""The figure panel's words for this round's move mode (its ids are for programs)."""
"""The modes in which a figure runs: it must declare stop or continue (FP-27)."""

WALK_HEXES = 1
"""A walker moves at most one hex per round (G-11)."""

SLOW_LIMIT = 15
"""Speeds below this are Slow (FP-7), which also makes turning free (FP-8, G-23)."""


def rounded(x: Fraction | int, rounding: str = "half_up") -> int:
    """``x`` to the nearest whole number, halves up (default) or down.

    >>> rounded(Fraction(97, 2)), rounded(Fraction(97, 2), "half_down")
    (49, 48)
    """
    if rounding == "half_up":
        return round_half_up(Fraction(x))
    if rounding == "half_down":
        return math.ceil(Fraction(x) - Fraction(1, 2))
    raise ValueError(f"unknown rounding {rounding!r}; allowed: {', '.join(ROUNDINGS)}")


def top_speed(fig: int, rounding: str = "half_up") -> int:
    """FP-1: hexes per round at top speed, FIG/10 rounded (62 -> 6, 29 -> 3, 25 -> 3).

    >>> [top_speed(f) for f in (62, 29, 52, 14, 4, 25, 15)]
    [6, 3, 5, 1, 0, 3, 2]
    """
    return rounded(Fraction(fig, 10), rounding)


def accel_speed(fig: int, rounding: str = "half_up") -> int:
    """FP-2: hexes in an acceleration round, FIG/20 rounded (not half the rounded top speed).

    >>> [accel_speed(f) for f in (62, 52, 29)]
    [3, 3, 1]
    """
    return rounded(Fraction(fig, 20), rounding)


def half_skill(skill: int, rounding: str = "half_up") -> int:
    """FP-23: a skill halved after readying a weapon (97 -> 49).

    >>> half_skill(97), half_skill(38)
    (49, 19)
    """
    return rounded(Fraction(skill, 2), rounding)


def allowance(mode: str, fig: int, rounding: str = "half_up") -> int:
    """Hexes (movement points) a figure may spend this round in ``mode`` (FP-1, FP-2, G-11)."""
    if mode == "stationary":
        return 0
    if mode == "walk":
        return WALK_HEXES
    if mode == "accelerate":
        return accel_speed(fig, rounding)
    if mode == "top":
        return top_speed(fig, rounding)
    raise ValueError(f"unknown move mode {mode!r}; allowed: {', '.join(MODES)}")


def speed_value(mode: str, fig: int, hexes_moved: int = 0, walk_speed: int | str = 7) -> Fraction:
    """FP-5: the speed value S this round, on the FIG scale (not a hex count).

    Stationary 0, accelerating FIG/2 (unrounded), top speed FIG. A walker has
    ``walk_speed`` per hex moved, capped at FIG/2 (G-11); with the
    ``"slow_band"`` walk option a walker's S is 0 and :func:`combined_band`
    makes the pair Slow instead.

    >>> speed_value("accelerate", 29), speed_value("top", 52), speed_value("walk", 29, 1)
    (Fraction(29, 2), Fraction(52, 1), Fraction(7, 1))
    """
    if mode == "stationary":
        return Fraction(0)
    if mode == "walk":
        if isinstance(walk_speed, str):  # "slow_band"
            return Fraction(0)
        return min(Fraction(walk_speed * hexes_moved), Fraction(fig, 2))
    if mode == "accelerate":
        return Fraction(fig, 2)
    if mode == "top":
        return Fraction(fig)
    raise ValueError(f"unknown move mode {mode!r}; allowed: {', '.join(MODES)}")


@dataclass(frozen=True)
class Band:
    """A band of a table with its to-hit modifier and the rule that gives it."""

    name: str
    modifier: int
    rule: str

    @property
    def label(self) -> str:
        """E.g. ``Fast (-15)``; the modifier is shown with its sign."""
        sign = "+" if self.modifier > 0 else ""
        return f"{self.name} ({sign}{self.modifier})"


NO_SPEED = Band("Stationary", 0, "G-10")
SLOW = Band("Slow", -5, "FP-7")
MEDIUM = Band("Medium", -10, "FP-7")
FAST = Band("Fast", -15, "FP-7")
HYPER = Band("Hyper", -20, "FP-7")

_POINT_LIMITS = ((15, SLOW), (35, MEDIUM), (95, FAST))
_HEX_LIMITS = ((2, SLOW), (4, MEDIUM), (10, FAST))


def speed_band(combined: Fraction | int, unit: str = "points", zero: str = "none") -> Band:
    """FP-7: the band of a combined speed and its to-hit modifier for both opponents.

    Points (default): 0 none (G-10), 0 < Sc < 15 Slow -5, 15 <= Sc < 35 Medium
    -10, 35 <= Sc < 95 Fast -15, Sc >= 95 Hyper -20 (I-6). With ``unit="hexes"``
    (I-4) the limits are 0-1, 2-3, 4-9 and 10+ hexes. ``zero="slow"`` gives
    two stationary figures the Slow band instead of none (G-10).

    >>> [speed_band(Fraction(x)).name for x in ("40.5", "29", "14.5", "34.5", "95")]
    ['Fast', 'Medium', 'Slow', 'Medium', 'Hyper']
    """
    value = Fraction(combined)
    if value < 0:
        raise ValueError(f"a combined speed cannot be negative, got {value}")
    if value == 0:
        return SLOW if zero == "slow" else NO_SPEED
    for limit, band in _HEX_LIMITS if unit == "hexes" else _POINT_LIMITS:
        if value < limit:
            return band
    return HYPER


@dataclass(frozen=True)
class Motion:
    """How one figure moves this round, as the speed rules need it."""

    mode: str
    fig: int
    speed: Fraction
    hexes: int
    """Hexes for the combined speed in hexes (I-4): the mode's allowance, or a walker's hexes."""

    @property
    def running(self) -> bool:
        """True in an acceleration or top-speed round."""
        return self.mode in RUNNING

    @property
    def walking(self) -> bool:
        """True for a walker that moved this round."""
        return self.mode == "walk" and self.hexes > 0


def combined_speed(a: Motion, b: Motion, unit: str = "points") -> Fraction:
    """FP-6: Sc = S_A + S_T, in speed points (default) or in hexes (I-4)."""
    if unit == "hexes":
        return Fraction(a.hexes + b.hexes)
    return a.speed + b.speed


def combined_band(
    a: Motion, b: Motion, unit: str = "points", walk_speed: int | str = 7, zero: str = "none"
) -> Band:
    """FP-7 for one attacker-target pair (G-20), with the ``"slow_band"`` walk rule (G-11)."""
    if walk_speed == "slow_band" and not (a.running or b.running) and (a.walking or b.walking):
        return SLOW
    return speed_band(combined_speed(a, b, unit), unit, zero)


def is_slow(speed: Fraction | int) -> bool:
    """FP-8/G-23: a speed below 15 is Slow, so turning is free."""
    return Fraction(speed) < SLOW_LIMIT


def can_dodge(speed: Fraction | int, fig: int) -> bool:
    """FP-10: a dodge is allowed only at S <= FIG/2 (inclusive: 14.5 <= 29/2).

    >>> can_dodge(Fraction(29, 2), 29), can_dodge(29, 29), can_dodge(26, 52)
    (True, False, True)
    """
    return Fraction(speed) <= Fraction(fig, 2)


def show(value: Fraction | int) -> str:
    """A number for display, exact: ``40.5``, ``29``, ``1.45``; a non-decimal fraction as a/b.

    >>> show(Fraction(81, 2)), show(Fraction(29, 20)), show(Fraction(-5, 2)), show(Fraction(1, 3))
    ('40.5', '1.45', '-2.5', '1/3')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 7):
        scaled = value * 10**places
        if scaled.denominator == 1:
            digits = f"{abs(scaled.numerator):0{places + 1}d}"
            sign = "-" if value < 0 else ""
            return f"{sign}{digits[:-places]}.{digits[-places:]}"
    return f"{value.numerator}/{value.denominator}"
