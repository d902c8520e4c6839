"""Hex geometry: the spec's cube tests converted to axial, plus geometric laws."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcombat.geometry import (
    DIRECTIONS,
    Hex,
    LineStep,
    RelativeDirection,
    direction_to,
    distance,
    front_hexes,
    in_front_arc,
    in_front_half,
    line,
    line_steps,
    neighbor,
    neighbors,
    rear_hexes,
    relative_direction,
    relative_position,
    ring,
    rotate,
    side,
    within,
)

pytestmark = pytest.mark.pyodide

coords = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coords, coords)
facings = st.integers(min_value=0, max_value=5)
radii = st.integers(min_value=0, max_value=12)

ORIGIN = Hex(0, 0)

# The spec's direction vectors D0..D5 in cube coordinates (README §1).
SPEC_DIRECTIONS = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]


# --- Hex -------------------------------------------------------------------


def test_directions_match_spec_cube_vectors() -> None:
    assert [d.cube for d in DIRECTIONS] == SPEC_DIRECTIONS
    assert [Hex.from_cube(*c) for c in SPEC_DIRECTIONS] == list(DIRECTIONS)


@given(hexes)
def test_cube_round_trip(h: Hex) -> None:
    x, y, z = h.cube
    assert x + y + z == 0
    assert Hex.from_cube(x, y, z) == h


def test_from_cube_rejects_off_plane() -> None:
    with pytest.raises(ValueError, match="sum to 0"):
        Hex.from_cube(1, 1, 1)


def test_spec_r_maps_each_direction_counterclockwise() -> None:
    # R(x,y,z) = (-z,-x,-y) maps D_k to D_(k-1); our rotate(-1) must agree.
    for k, (x, y, z) in enumerate(SPEC_DIRECTIONS):
        assert Hex.from_cube(-z, -x, -y) == DIRECTIONS[(k - 1) % 6]
        assert rotate(DIRECTIONS[k], -1) == DIRECTIONS[(k - 1) % 6]


@given(hexes)
def test_str_parse_round_trip(h: Hex) -> None:
    assert Hex.parse(str(h)) == h


def test_str_and_parse_format() -> None:
    assert str(Hex(3, -4)) == "3,-4"
    assert Hex.parse(" -2 , 7 ") == Hex(-2, 7)
    assert Hex.parse("+1,0") == Hex(1, 0)


@pytest.mark.parametrize("text", ["", "1", "1,2,3", "a,b", "1.5,2", "1;2", "1,"])
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a hex coordinate"):
        Hex.parse(text)


def test_hex_arithmetic_and_s() -> None:
    assert Hex(1, 2) + Hex(3, -1) == Hex(4, 1)
    assert Hex(1, 2) - Hex(3, -1) == Hex(-2, 3)
    assert Hex(1, 2).s == -3


# --- neighbours, distance, direction ----------------------------------------


def test_neighbors_in_direction_order() -> None:
    h = Hex(3, -2)
    assert neighbors(h) == tuple(neighbor(h, k) for k in range(6))
    assert neighbor(h, 7) == neighbor(h, 1)
    assert neighbor(h, -1) == neighbor(h, 5)


def test_distance_examples() -> None:
    assert distance(ORIGIN, ORIGIN) == 0
    assert all(distance(ORIGIN, d) == 1 for d in DIRECTIONS)
    assert distance(Hex.from_cube(0, 0, 0), Hex.from_cube(4, -2, -2)) == 4
    assert distance(Hex(-3, 0), Hex(2, 1)) == 6


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_direction_to() -> None:
    h = Hex(2, 2)
    for k in range(6):
        assert direction_to(h, neighbor(h, k)) == k
    assert direction_to(h, h) is None
    assert direction_to(h, Hex(4, 2)) is None


# --- rotate, ring, within ----------------------------------------------------


def test_rotate_directions_clockwise() -> None:
    for k in range(6):
        assert rotate(DIRECTIONS[k], 1) == DIRECTIONS[(k + 1) % 6]
        assert rotate(DIRECTIONS[k], 2) == DIRECTIONS[(k + 2) % 6]
    assert rotate(Hex(2, -1), 0) == Hex(2, -1)


@given(hexes, st.integers(min_value=-20, max_value=20))
def test_rotate_six_times_is_identity(h: Hex, steps: int) -> None:
    assert rotate(h, 6) == h
    r = h
    for _ in range(6):
        r = rotate(r, steps)
    assert r == h
    assert rotate(rotate(h, steps), -steps) == h
    assert distance(ORIGIN, rotate(h, steps)) == distance(ORIGIN, h)


def test_ring_examples() -> None:
    assert ring(Hex(5, 5), 0) == [Hex(5, 5)]
    assert ring(ORIGIN, 1) == [DIRECTIONS[k] for k in (0, 1, 2, 3, 4, 5)]
    assert ring(ORIGIN, 2)[0] == Hex(0, -2)
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)


@given(hexes, radii)
def test_ring_has_6n_hexes_at_distance_n(center: Hex, n: int) -> None:
    hs = ring(center, n)
    assert len(hs) == (6 * n if n else 1)
    assert len(set(hs)) == len(hs)
    assert all(distance(center, h) == n for h in hs)
    if n:
        # walked clockwise: consecutive ring hexes are adjacent, and it closes
        assert all(distance(a, b) == 1 for a, b in zip(hs, hs[1:] + hs[:1], strict=True))


@given(hexes, radii)
def test_within_holds_3n_n_plus_1_hexes(center: Hex, n: int) -> None:
    hs = within(center, n)
    assert len(hs) == 3 * n * (n + 1) + 1
    assert set(hs) == {h for k in range(n + 1) for h in ring(center, k)}
    assert hs == sorted(hs)


def test_within_rejects_negative_radius() -> None:
    with pytest.raises(ValueError):
        within(ORIGIN, -2)


# --- facing, relative directions, zones --------------------------------------


def test_relative_direction_names() -> None:
    assert [relative_direction(0, k).short for k in range(6)] == ["F", "FR", "BR", "B", "BL", "FL"]
    assert relative_direction(2, 1) is RelativeDirection.FRONT_LEFT
    assert relative_direction(5, 0) is RelativeDirection.FRONT_RIGHT
    assert relative_direction(4, 1) is RelativeDirection.BACK


def test_relative_position() -> None:
    h = Hex(1, 1)
    assert relative_position(h, 3, neighbor(h, 3)) is RelativeDirection.FRONT
    assert relative_position(h, 3, neighbor(h, 0)) is RelativeDirection.BACK
    assert relative_position(h, 0, neighbor(h, 1)) is RelativeDirection.FRONT_RIGHT
    assert relative_position(h, 0, Hex(9, 9)) is None
    assert relative_position(h, 0, h) is None


def test_front_and_rear_hexes() -> None:
    assert front_hexes(ORIGIN, 0) == (DIRECTIONS[0], DIRECTIONS[1], DIRECTIONS[5])
    assert rear_hexes(ORIGIN, 0) == (DIRECTIONS[2], DIRECTIONS[3], DIRECTIONS[4])
    h = Hex(4, -1)
    for facing in range(6):
        f, fr, fl = front_hexes(h, facing)
        br, b, bl = rear_hexes(h, facing)
        assert relative_position(h, facing, f) is RelativeDirection.FRONT
        assert relative_position(h, facing, fr) is RelativeDirection.FRONT_RIGHT
        assert relative_position(h, facing, fl) is RelativeDirection.FRONT_LEFT
        assert relative_position(h, facing, br) is RelativeDirection.BACK_RIGHT
        assert relative_position(h, facing, b) is RelativeDirection.BACK
        assert relative_position(h, facing, bl) is RelativeDirection.BACK_LEFT


def test_front_arc_spec_examples() -> None:
    # README §1: facing 0 -> neighbours in directions {0, 1, 5}; facing 2 -> {1, 2, 3}.
    assert {k for k in range(6) if in_front_arc(ORIGIN, 0, DIRECTIONS[k])} == {0, 1, 5}
    assert {k for k in range(6) if in_front_arc(ORIGIN, 2, DIRECTIONS[k])} == {1, 2, 3}
    assert not in_front_arc(ORIGIN, 0, ORIGIN)
    # straight ahead and along both boundary lines, far away
    assert in_front_arc(ORIGIN, 0, Hex(0, -7))
    assert in_front_arc(ORIGIN, 0, Hex(5, -5))
    assert in_front_arc(ORIGIN, 0, Hex(-5, 0))
    assert not in_front_arc(ORIGIN, 0, Hex(5, -4))


@given(hexes, facings, st.integers(min_value=1, max_value=10))
def test_front_arc_holds_2n_plus_1_hexes_at_distance_n(h: Hex, facing: int, n: int) -> None:
    in_arc = [x for x in ring(h, n) if in_front_arc(h, facing, x)]
    assert len(in_arc) == 2 * n + 1


@given(hexes, facings, st.integers(min_value=1, max_value=10))
def test_front_half_sizes_and_contains_arc(h: Hex, facing: int, n: int) -> None:
    ring_n = ring(h, n)
    in_half = [x for x in ring_n if in_front_half(h, facing, x)]
    assert len(in_half) == (3 * n + 1 if n % 2 == 0 else 3 * n)
    assert all(in_front_half(h, facing, x) for x in ring_n if in_front_arc(h, facing, x))
    assert not in_front_half(h, facing, h)


def test_front_half_neighbours_and_abeam() -> None:
    assert {k for k in range(6) if in_front_half(ORIGIN, 0, DIRECTIONS[k])} == {0, 1, 5}
    # hexes exactly abeam (centre on the perpendicular) count as in front
    assert in_front_half(ORIGIN, 0, Hex(2, -1))
    assert in_front_half(ORIGIN, 0, Hex(-2, 1))
    assert not in_front_half(ORIGIN, 0, Hex(2, 0))


# --- lines and ties ------------------------------------------------------------


def _cube_steps(a: tuple[int, int, int], b: tuple[int, int, int]) -> list[LineStep]:
    return line_steps(Hex.from_cube(*a), Hex.from_cube(*b))


def test_line_tie_spec_example_2_1_1() -> None:
    steps = _cube_steps((0, 0, 0), (2, -1, -1))
    assert [s.is_tie for s in steps] == [False, True, False]
    assert steps[1].hexes == (Hex.from_cube(1, 0, -1), Hex.from_cube(1, -1, 0))


def test_line_tie_spec_example_4_2_2() -> None:
    steps = _cube_steps((0, 0, 0), (4, -2, -2))
    assert [i for i, s in enumerate(steps) if s.is_tie] == [1, 3]
    assert steps[2].hexes == (Hex.from_cube(2, -1, -1),)


def test_line_no_tie_spec_example_3_1_2() -> None:
    steps = _cube_steps((0, 0, 0), (3, -1, -2))
    assert not any(s.is_tie for s in steps)
    assert len(steps) == 4


def test_line_follows_plus_eps_run() -> None:
    a, b = Hex.from_cube(0, 0, 0), Hex.from_cube(2, -1, -1)
    assert line(a, b) == [s.hexes[0] for s in line_steps(a, b)]
    assert line(a, a) == [a]
    assert line_steps(a, a) == [LineStep((a,))]


@given(hexes, hexes)
def test_line_length_and_adjacency(a: Hex, b: Hex) -> None:
    hs = line(a, b)
    assert len(hs) == distance(a, b) + 1
    assert hs[0] == a
    assert hs[-1] == b
    assert all(distance(x, y) == 1 for x, y in itertools.pairwise(hs))


@given(hexes, hexes)
def test_line_steps_ties_are_adjacent_and_equidistant(a: Hex, b: Hex) -> None:
    steps = line_steps(a, b)
    n = distance(a, b)
    assert len(steps) == n + 1
    assert not steps[0].is_tie
    assert not steps[-1].is_tie
    for i, step in enumerate(steps):
        assert 1 <= len(step.hexes) <= 2
        for h in step.hexes:
            assert distance(a, h) == i
            assert distance(h, b) == n - i
        if step.is_tie:
            x, y = step.hexes
            assert distance(x, y) == 1
            # the two hexes lie on opposite sides of the line
            assert side(a, b, x) == -side(a, b, y) != 0


@given(hexes, hexes)
def test_line_is_symmetric_up_to_ties(a: Hex, b: Hex) -> None:
    forward = [set(s.hexes) for s in line_steps(a, b)]
    backward = [set(s.hexes) for s in line_steps(b, a)]
    assert forward == backward[::-1]


def test_side_spec_example() -> None:
    s, t = Hex.from_cube(0, 0, 0), Hex.from_cube(2, -1, -1)
    assert side(s, t, Hex.from_cube(1, 0, -1)) == 1
    assert side(s, t, Hex.from_cube(1, -1, 0)) == -1
    assert side(s, t, Hex.from_cube(2, -1, -1)) == 0


def test_side_right_is_clockwise_as_drawn() -> None:
    # Looking north (D0), the north-east neighbour is on the right.
    assert side(ORIGIN, DIRECTIONS[0] + DIRECTIONS[0], DIRECTIONS[1]) == 1
    assert side(ORIGIN, DIRECTIONS[0] + DIRECTIONS[0], DIRECTIONS[5]) == -1
