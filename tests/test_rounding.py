"""Rounding helpers: half up (never half to even), halves, clamped step bonuses."""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcombat import rounding
from hexcombat.rounding import (
    ceil_half,
    every_n_above,
    floor_half,
    half_up,
    round_half_up,
)

pytestmark = pytest.mark.pyodide


def test_doctests_pass() -> None:
    result = doctest.testmod(rounding)
    assert result.attempted > 0
    assert result.failed == 0


def test_fp_23_half_skill_97_gives_49() -> None:
    assert half_up(97) == 49
    assert round_half_up(Fraction(97, 2)) == 49
    assert round_half_up(48.5) == 49


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (Fraction(1, 2), 1),
        (Fraction(3, 2), 2),
        (Fraction(5, 2), 3),
        (Fraction(-1, 2), 0),
        (Fraction(-3, 2), -1),
        (Fraction(29, 20), 1),  # FIG 29 / 20 = 1.45
        (Fraction(52, 20), 3),  # FIG 52 / 20 = 2.6
        (Fraction(29, 10), 3),
        (Fraction(52, 10), 5),
        (Fraction(25, 10), 3),  # FIG 25 -> 3 (I-2, half up)
        (7, 7),
        (-7, -7),
        (2.5, 3),
        (-2.5, -2),
    ],
)
def test_round_half_up_examples(x: Fraction | int | float, expected: int) -> None:
    assert round_half_up(x) == expected


@given(st.fractions())
def test_round_half_up_is_floor_of_x_plus_half(x: Fraction) -> None:
    r = round_half_up(x)
    assert r - Fraction(1, 2) <= x < r + Fraction(1, 2)


@given(st.integers(-(10**6), 10**6))
def test_half_up_matches_round_half_up_of_half(n: int) -> None:
    assert half_up(n) == round_half_up(Fraction(n, 2))


def test_round_half_up_converts_floats_exactly() -> None:
    # 0.49999999999999994 + 0.5 == 1.0 in float arithmetic; exactly it is below 1.
    assert round_half_up(0.49999999999999994) == 0


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_round_half_up_rejects_non_finite(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        round_half_up(bad)


@given(st.integers(0, 10**6))
def test_halves_add_up(m: int) -> None:
    assert ceil_half(m) + floor_half(m) == m
    assert 0 <= ceil_half(m) - floor_half(m) <= 1


def test_csp_half_phase_split() -> None:
    assert (ceil_half(5), floor_half(5)) == (3, 2)
    assert (ceil_half(1), floor_half(1)) == (1, 0)
    assert (ceil_half(0), floor_half(0)) == (0, 0)


@pytest.mark.parametrize(
    ("ps", "bonus"),
    [(13, 0), (14, 0), (15, 0), (17, 0), (18, 1), (20, 1), (21, 2), (30, 5)],
)
def test_scp_44_every_three_points_above_15(ps: int, bonus: int) -> None:
    assert every_n_above(ps, 15, 3) == bonus


def test_every_n_above_rejects_non_positive_step() -> None:
    with pytest.raises(ValueError, match="positive"):
        every_n_above(20, 15, 0)
