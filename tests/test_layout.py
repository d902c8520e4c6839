"""Screen layout: the spec's pixel formula, pixel picking and odd-q offsets."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcombat.geometry import DIRECTIONS, Hex, distance, neighbors
from hexcombat.layout import Layout, from_offset, to_offset

pytestmark = pytest.mark.pyodide

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
sizes = st.floats(min_value=0.5, max_value=100.0)


def test_d1_centre_is_up_and_right() -> None:
    # README §1: the centre of D1 is at (1.5·s, -0.87·s).
    x, y = Layout().to_pixel(DIRECTIONS[1])
    assert x == pytest.approx(1.5)
    assert y == pytest.approx(-0.866, abs=1e-3)
    x, y = Layout(size=30.0).to_pixel(DIRECTIONS[1])
    assert (x, y) == pytest.approx((45.0, -30.0 * math.sqrt(3) / 2))


@given(hexes, sizes)
def test_to_pixel_matches_spec_cube_formula(h: Hex, size: float) -> None:
    x, y, _ = h.cube
    px = 1.5 * size * (x + y)
    py = math.sqrt(3) / 2 * size * (y - x)
    assert Layout(size=size).to_pixel(h) == pytest.approx((px, py))


def test_north_is_up_and_origin_shifts() -> None:
    layout = Layout(size=10.0, origin=(100.0, 50.0))
    assert layout.to_pixel(Hex(0, 0)) == (100.0, 50.0)
    x, y = layout.to_pixel(DIRECTIONS[0])
    assert x == pytest.approx(100.0)
    assert y < 50.0
    _, y_south = layout.to_pixel(DIRECTIONS[3])
    assert y_south > 50.0


def test_layout_rejects_bad_size() -> None:
    with pytest.raises(ValueError, match="size"):
        Layout(size=0.0)


@given(hexes, sizes)
def test_from_pixel_inverts_to_pixel(h: Hex, size: float) -> None:
    layout = Layout(size=size, origin=(3.5, -7.0))
    assert layout.from_pixel(*layout.to_pixel(h)) == h


@given(hexes, st.floats(min_value=0.0, max_value=0.85), st.integers(min_value=0, max_value=5))
def test_from_pixel_inside_the_hex(h: Hex, frac: float, corner: int) -> None:
    # points strictly inside the hexagon, towards any corner, pick that hex
    layout = Layout(size=20.0)
    cx, cy = layout.to_pixel(h)
    kx, ky = layout.corners(h)[corner]
    assert layout.from_pixel(cx + frac * (kx - cx), cy + frac * (ky - cy)) == h


def test_corners_are_on_the_circle_and_shared_with_neighbours() -> None:
    layout = Layout(size=10.0)
    h = Hex(2, -1)
    cs = layout.corners(h)
    assert len(cs) == 6
    cx, cy = layout.to_pixel(h)
    assert all(math.hypot(x - cx, y - cy) == pytest.approx(10.0) for x, y in cs)
    # flat-topped: two corners at the centre's height (east and west)
    assert cs[0] == pytest.approx((cx + 10.0, cy))
    assert cs[3] == pytest.approx((cx - 10.0, cy))
    # each neighbour shares exactly two corners
    for n in neighbors(h):
        shared = [c for c in cs if any(c == pytest.approx(d) for d in layout.corners(n))]
        assert len(shared) == 2


def test_offset_examples_odd_columns_shoved_down() -> None:
    assert to_offset(Hex(0, 0)) == (0, 0)
    assert to_offset(Hex(1, 0)) == (1, 0)
    assert to_offset(Hex(1, -1)) == (1, -1)
    assert to_offset(Hex(2, -1)) == (2, 0)
    assert from_offset(3, 2) == Hex(3, 1)
    assert from_offset(-1, 0) == Hex(-1, 1)
    # odd column 1 row 0 is drawn lower than column 0 row 0
    layout = Layout()
    assert layout.to_pixel(from_offset(1, 0))[1] > layout.to_pixel(from_offset(0, 0))[1]
    # same parity columns share the row's height
    assert layout.to_pixel(from_offset(2, 3))[1] == pytest.approx(
        layout.to_pixel(from_offset(0, 3))[1]
    )


@given(hexes)
def test_offset_round_trip(h: Hex) -> None:
    assert from_offset(*to_offset(h)) == h


@given(coords, coords)
def test_offset_rows_are_vertical_neighbours(col: int, row: int) -> None:
    assert distance(from_offset(col, row), from_offset(col, row + 1)) == 1
    assert to_offset(from_offset(col, row)) == (col, row)
