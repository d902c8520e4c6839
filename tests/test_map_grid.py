"""The grid finder (``hexcombat.map_grid``) on the project's own test maps (``map_pictures``).

The whole set runs in the benchmark (``tests/bench --only mapgrid``); here a spread of it.
"""

from __future__ import annotations

import math
import random

import pytest
from map_pictures import CASES, SAMPLE, MapCase, board_size, draw, error, turned_back

from hexcombat.map_grid import GridProposal, NoGrid, Picture, find_grid

SIZE_TOLERANCE = 0.02
OFFSET_TOLERANCE = 0.1
"""In hexes (a hex's size, centre to corner)."""


def proposal(case: MapCase) -> GridProposal:
    found = find_grid(draw(case), case.scale)
    assert isinstance(found, GridProposal), f"{case.name()}: {found}"
    return found


def test_sample_of_the_test_maps_within_tolerance_on_nine_in_ten() -> None:
    assert len(SAMPLE) >= 10
    assert {c.orientation for c in SAMPLE} == {"flat", "pointed"}
    assert min(c.hex_size for c in SAMPLE) <= 30 and max(c.hex_size for c in SAMPLE) >= 140
    within = []
    for case in SAMPLE:
        found = find_grid(draw(case), case.scale)
        ok = False
        if isinstance(found, GridProposal):
            size_error, offset_error = error(case, found)
            ok = size_error <= SIZE_TOLERANCE and offset_error <= OFFSET_TOLERANCE
        within.append(ok)
    assert sum(within) >= 0.9 * len(SAMPLE), [
        c.name() for c, ok in zip(SAMPLE, within, strict=True) if not ok
    ]


def test_a_clean_board_is_found_whole_with_its_size_in_hexes() -> None:
    case = next(c for c in CASES if c.board and c.hex_size == 45 and c.orientation == "flat")
    found = proposal(case)
    assert (found.columns, found.rows) == board_size(case)
    assert math.dist(found.offset, case.offset) < OFFSET_TOLERANCE * case.hex_size
    assert found.tilt == 0.0
    assert 0.0 < found.confidence <= 1.0


def test_a_tilted_print_is_found_with_its_tilt() -> None:
    case = next(c for c in CASES if abs(c.tilt) > 1.5)
    found = proposal(case)
    assert found.tilt == pytest.approx(case.tilt, abs=0.2)
    size_error, offset_error = error(case, found)
    assert size_error <= SIZE_TOLERANCE and offset_error <= OFFSET_TOLERANCE


def test_pointed_tops_are_the_flat_board_after_a_quarter_turn() -> None:
    """The same map turned a quarter anticlockwise: pointed-topped, the same size, and the
    same offset once turned back a quarter clockwise, as the proposal measures it."""
    case = next(c for c in CASES if c.board and c.orientation == "flat" and c.scale == 1.0)
    flat = proposal(case)
    pointed = find_grid(turned_back(draw(case)), case.scale)
    assert isinstance(pointed, GridProposal)
    assert pointed.orientation == "pointed" and flat.orientation == "flat"
    assert pointed.hex_size == pytest.approx(flat.hex_size, rel=0.01)
    assert math.dist(pointed.offset, flat.offset) < 0.05 * case.hex_size
    assert (pointed.columns, pointed.rows) == (flat.columns, flat.rows)


def test_a_picture_drawn_smaller_is_measured_in_its_own_pixels() -> None:
    case = next(c for c in CASES if c.scale < 0.5)
    found = proposal(case)
    assert found.hex_size == pytest.approx(case.hex_size, rel=SIZE_TOLERANCE)
    halved = find_grid(draw(case), case.scale / 2)
    assert isinstance(halved, GridProposal)
    assert halved.hex_size == pytest.approx(2 * found.hex_size)
    assert halved.offset == pytest.approx((2 * found.offset[0], 2 * found.offset[1]))


def _blobs(width: int, height: int, seed: int) -> Picture:
    rng = random.Random(seed)
    grey = bytearray(b"\x80" * (width * height))
    for _ in range(60):
        cx, cy, r, v = (
            rng.randrange(width),
            rng.randrange(height),
            rng.randrange(10, 80),
            rng.randrange(256),
        )
        for y in range(max(0, cy - r), min(height, cy + r)):
            dx = math.isqrt(max(0, r * r - (y - cy) ** 2))
            lo, hi = max(0, cx - dx), min(width, cx + dx)
            grey[y * width + lo : y * width + hi] = bytes([v]) * (hi - lo)
    return Picture(width, height, bytes(grey))


@pytest.mark.parametrize(
    "picture",
    [
        Picture(600, 450, random.Random(1).randbytes(600 * 450)),
        Picture(600, 450, b"\x90" * (600 * 450)),
        _blobs(600, 450, 2),
        Picture(10, 10, bytes(100)),
    ],
    ids=["noise", "blank", "blobs", "tiny"],
)
def test_no_grid_is_said_plainly(picture: Picture) -> None:
    found = find_grid(picture)
    assert isinstance(found, NoGrid)
    assert found.reason


def test_rgba_is_read_as_grey() -> None:
    rgba = bytes([255, 0, 0, 255, 0, 255, 0, 7, 10, 20, 30, 255, 255, 255, 255, 0])
    picture = Picture.from_rgba(2, 2, rgba)
    assert picture.grey == bytes([63, 127, 20, 255])


def test_bad_buffers_are_refused_with_what_was_expected() -> None:
    with pytest.raises(ValueError, match="need 16 bytes, got 15"):
        Picture.from_rgba(2, 2, bytes(15))
    with pytest.raises(ValueError, match="need 6 bytes"):
        Picture(3, 2, bytes(5))
    with pytest.raises(ValueError, match="scale must be > 0"):
        find_grid(Picture(40, 40, bytes(1600)), 0.0)


def test_the_test_maps_cover_what_the_measure_asks() -> None:
    sizes = {c.hex_size for c in CASES}
    assert len(sizes) >= 10 and min(sizes) == 24 and max(sizes) == 160
    assert any(c.tilt >= 1.5 for c in CASES) and any(c.tilt <= -1.5 for c in CASES)
    assert all(abs(c.tilt) <= 2.0 for c in CASES)
    assert any(c.blocky for c in CASES) and all(c.noise for c in CASES)
    assert {c.orientation for c in CASES} == {"flat", "pointed"}
    assert {c.board for c in CASES} == {True, False}
