"""Rounding helpers that never round half to even.

Python's ``round()`` rounds 48.5 to 48, but the ``fig-percentile`` example
halves a skill of 97 to 49 (see ``shared/rules/README.md``, "Rounding
helpers"). Every helper here is exact: integers stay integers and fractions
are compared with exact arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction

_HALF = Fraction(1, 2)


def round_half_up(x: Fraction | int | float) -> int:
    """Round to the nearest integer, halves upwards: ``floor(x + 1/2)``.

    Floats are converted exactly (``Fraction(x)``), so no binary rounding
    error can push a value across a half.

    >>> round_half_up(Fraction(97, 2))
    49
    >>> round_half_up(Fraction(-5, 2))
    -2
    >>> round_half_up(14.5)
    15
    >>> round_half_up(0.49999999999999994)
    0
    """
    if isinstance(x, int):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"cannot round {x}: only finite numbers have a nearest integer")
    return math.floor(Fraction(x) + _HALF)


def half_up(n: int) -> int:
    """Half of an integer, rounded half up: ``(n + 1) // 2``.

    >>> half_up(97)
    49
    >>> half_up(96)
    48
    """
    return (n + 1) // 2


def ceil_half(m: int) -> int:
    """The larger half of ``m`` (the first half-phase): ``(m + 1) // 2``.

    >>> ceil_half(5), ceil_half(4)
    (3, 2)
    """
    return (m + 1) // 2


def floor_half(m: int) -> int:
    """The smaller half of ``m`` (the second half-phase): ``m // 2``.

    >>> floor_half(5), floor_half(4)
    (2, 2)
    """
    return m // 2


def every_n_above(value: int, threshold: int, n: int) -> int:
    """How many whole steps of ``n`` ``value`` lies above ``threshold``, never negative.

    This is ``max(0, value - threshold) // n``: the clamp comes first, so a value
    just below the threshold gives 0, not -1 (SCP-44's every-3-points bonus).

    >>> every_n_above(20, 15, 3)
    1
    >>> every_n_above(14, 15, 3)
    0
    """
    if n <= 0:
        raise ValueError(f"step size must be a positive integer, got {n}")
    return max(0, value - threshold) // n
