"""The board: shape, terrain, JSON, and line of sight (README §2, FP-19, FP-20, SCP-9, G-15)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcombat.board import Board
from hexcombat.geometry import Hex, distance, neighbor
from hexcombat.layout import from_offset, hex_label, to_offset
from hexcombat.terrain import Terrain, TerrainTable

pytestmark = pytest.mark.pyodide

TABLE = TerrainTable(
    [
        Terrain("clear", "Clear", 1),
        Terrain("woods", "Heavy trees", 2, soft_cover=1, pattern="trees"),
        Terrain("hill", "Hill", 1, blocks_sight=True),
        Terrain("structure", "Structure", None, blocks_sight=True),
        Terrain("smoke", "Smoke", 1, obscures=True),
        Terrain("marsh", "Marsh", 2),
    ]
)

# An origin well inside the board so spec cube offsets stay on it.
BASE = from_offset(6, 6)


def at(x: int, y: int, z: int) -> Hex:
    """The board hex at spec cube offset (x, y, z) from BASE."""
    return BASE + Hex.from_cube(x, y, z)


def board(**paint: list[Hex]) -> Board:
    b = Board(14, 14, TABLE)
    for terrain_id, hs in paint.items():
        b = b.painted(hs, terrain_id)
    return b


# --- shape ---------------------------------------------------------------------


def test_contains_matches_offset_rectangle() -> None:
    b = Board(5, 3, TABLE)
    inside = {from_offset(c, r) for c in range(5) for r in range(3)}
    assert all(b.contains(h) for h in inside)
    for h in [from_offset(-1, 0), from_offset(5, 0), from_offset(0, -1), from_offset(0, 3)]:
        assert not b.contains(h)
    assert not b.contains(Hex(1, -1))  # odd column shoved down: its row 0 is Hex(1, 0)


def test_hexes_in_row_col_order() -> None:
    b = Board(3, 2, TABLE)
    hs = b.hexes()
    assert len(hs) == 6
    assert [to_offset(h) for h in hs] == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]


@pytest.mark.parametrize(("w", "h"), [(0, 3), (3, 0), (-1, 2), (1001, 2), (2.5, 3), (True, 3)])
def test_size_is_validated(w: object, h: object) -> None:
    with pytest.raises(ValueError, match=r"board (width|height)"):
        Board(w, h, TABLE)  # type: ignore[arg-type]


def test_board_is_immutable() -> None:
    b = Board(3, 3, TABLE)
    with pytest.raises(AttributeError, match="immutable"):
        b._width = 4
    with pytest.raises(TypeError):
        b.terrain[Hex(0, 0)] = "woods"  # type: ignore[index]


# --- terrain ---------------------------------------------------------------------


def test_default_terrain_and_painting() -> None:
    b = Board(4, 4, TABLE)
    h = from_offset(1, 2)
    assert b.terrain_at(h).id == "clear"
    p = b.painted([h, from_offset(0, 0)], "woods")
    assert p.terrain_id_at(h) == "woods"
    assert p.terrain_at(h).name == "Heavy trees"
    assert b.terrain_id_at(h) == "clear"  # the original is untouched
    assert p != b


def test_painting_default_is_normalised_away() -> None:
    h = from_offset(1, 1)
    b = Board(4, 4, TABLE).painted([h], "woods").painted([h], "clear")
    assert dict(b.terrain) == {}
    assert b == Board(4, 4, TABLE)
    assert dict(Board(4, 4, TABLE, {h: "clear"}).terrain) == {}


def test_painting_is_validated() -> None:
    b = Board(4, 4, TABLE)
    with pytest.raises(ValueError, match="unknown terrain id 'lava'; known: clear, woods"):
        b.painted([Hex(0, 0)], "lava")
    with pytest.raises(ValueError, match="hex 9,9 is off the 4x4 board"):
        b.painted([Hex(0, 0), Hex(9, 9)], "woods")
    with pytest.raises(ValueError, match="off the 4x4 board"):
        b.terrain_at(Hex(-1, 0))
    with pytest.raises(ValueError, match="off the"):
        Board(2, 2, TABLE, {Hex(5, 5): "woods"})


def test_features() -> None:
    h = from_offset(2, 1)
    b = Board(4, 4, TABLE, features={h: ["door", "rubble"], Hex(0, 0): []})
    assert b.features_at(h) == ("door", "rubble")
    assert b.features_at(Hex(0, 1)) == ()
    assert dict(b.features) == {h: ("door", "rubble")}
    assert b.painted([h], "woods").features_at(h) == ("door", "rubble")
    with pytest.raises(ValueError, match="non-empty strings"):
        Board(4, 4, TABLE, features={h: "door"})
    with pytest.raises(ValueError, match="non-empty strings"):
        Board(4, 4, TABLE, features={h: [""]})


def test_resized_drops_what_falls_off() -> None:
    inside, outside = from_offset(1, 1), from_offset(5, 5)
    b = Board(8, 8, TABLE, {inside: "woods", outside: "hill"}, {outside: ("door",)})
    small = b.resized(3, 3)
    assert (small.width, small.height) == (3, 3)
    assert dict(small.terrain) == {inside: "woods"}
    assert dict(small.features) == {}
    assert small.resized(8, 8).terrain_id_at(outside) == "clear"


def test_equality_and_hash() -> None:
    h = from_offset(1, 1)
    a = Board(4, 4, TABLE, {h: "woods"})
    b = Board(4, 4, TABLE).painted([h], "woods")
    assert a == b
    assert hash(a) == hash(b)
    assert a != Board(4, 5, TABLE, {h: "woods"})
    assert a != "board"


# --- JSON ------------------------------------------------------------------------


def test_to_json_shape() -> None:
    b = Board(3, 2, TABLE, {Hex(1, 0): "woods"}, {Hex(0, 0): ("door",)})
    assert b.to_json() == {
        "width": 3,
        "height": 2,
        "terrain": {"1,0": "woods"},
        "features": {"0,0": ["door"]},
    }


terrain_ids = st.sampled_from(TABLE.ids())


@st.composite
def boards(draw: st.DrawFn) -> Board:
    w = draw(st.integers(min_value=1, max_value=9))
    h = draw(st.integers(min_value=1, max_value=9))
    cells = st.builds(from_offset, st.integers(0, w - 1), st.integers(0, h - 1))
    terrain = draw(st.dictionaries(cells, terrain_ids, max_size=20))
    names = st.lists(st.text(min_size=1, max_size=5), max_size=3)
    features = draw(st.dictionaries(cells, names, max_size=5))
    return Board(w, h, TABLE, terrain, features)


@given(boards())
def test_json_round_trip(b: Board) -> None:
    text = json.dumps(b.to_json())
    assert Board.from_json(json.loads(text), TABLE) == b
    assert json.dumps(Board.from_json(json.loads(text), TABLE).to_json()) == text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "board must be an object"),
        ({"width": 3}, "missing required key 'height'"),
        ({"width": 3, "height": 3, "size": 9}, r"unknown key\(s\) size"),
        ({"width": "3", "height": 3}, "board width"),
        ({"width": 3, "height": 3, "terrain": []}, "board.terrain must be an object"),
        ({"width": 3, "height": 3, "terrain": {"x": "woods"}}, r"board.terrain\['x'\]"),
        ({"width": 3, "height": 3, "terrain": {"0,0": "lava"}}, r"\['0,0'\]: unknown terrain"),
        ({"width": 3, "height": 3, "terrain": {"7,0": "woods"}}, r"\['7,0'\]: hex 7,0 is off"),
        ({"width": 3, "height": 3, "features": {"0,0": "door"}}, r"features\['0,0'\]"),
        ({"width": 3, "height": 3, "features": {"0,9": ["door"]}}, r"features\['0,9'\].*off"),
    ],
)
def test_from_json_errors_name_the_bad_key(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_json(data, TABLE)


# --- line of sight -------------------------------------------------------------------


def test_open_ground_is_clear() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    sight = board().line_of_sight(a, b)
    assert sight.clear
    assert sight.reason == "clear"
    assert len(sight.steps) == 4
    assert len(sight.intervening) == 2
    assert sight.blocking == sight.soft == ()


def test_same_and_adjacent_hexes_see_each_other() -> None:
    a = at(0, 0, 0)
    b = board(hill=[a])
    assert b.line_of_sight(a, a).clear
    assert b.line_of_sight(a, neighbor(a, 2)).clear
    assert b.line_of_sight(a, neighbor(a, 2)).intervening == ()


def test_fp_20_hill_blocks() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    middle = board().line_of_sight(a, b).intervening[0]
    sight = board(hill=[middle]).line_of_sight(a, b)
    assert not sight.clear
    assert sight.blocking == (middle,)
    assert sight.reason == f"blocked by Hill at {hex_label(middle)}"


def test_fp_19_one_heavy_tree_hex_is_see_through() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    first = board().line_of_sight(a, b).intervening[0]
    sight = board(woods=[first, a, b]).line_of_sight(a, b)
    assert sight.clear
    assert sight.soft == (first,)
    assert sight.soft_total == 1
    assert "soft cover 1" in sight.reason


def test_fp_19_two_heavy_tree_hexes_block() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    inter = board().line_of_sight(a, b).intervening
    sight = board(woods=list(inter)).line_of_sight(a, b)
    assert not sight.clear
    assert sight.soft_total == 2
    assert sight.blocking == ()
    assert sight.reason.startswith("soft cover 2 in between (2 blocks): Heavy trees at")
    assert board(woods=list(inter)).line_of_sight(a, b, soft_limit=3).clear


def test_count_ends_includes_the_figures_own_hexes() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    first = board().line_of_sight(a, b).intervening[0]
    woods = board(woods=[first, a])
    assert woods.line_of_sight(a, b).clear
    assert not woods.line_of_sight(a, b, count_ends=True).clear
    assert not board(hill=[b]).line_of_sight(a, b, count_ends=True).clear


def test_scp_9_obscured_hex_may_be_entered_but_not_passed() -> None:
    a, b = at(0, 0, 0), at(3, -1, -2)
    first = board().line_of_sight(a, b).intervening[0]
    into = board(smoke=[b]).line_of_sight(a, b, count_ends=True)
    assert into.clear
    through = board(smoke=[first]).line_of_sight(a, b)
    assert not through.clear
    assert through.blocking == (first,)
    assert through.reason.startswith(f"cannot pass through Smoke at {hex_label(first)}")


def test_fp_19_g15_tied_pair_blocks_only_if_both_block() -> None:
    # README §2: (0,0,0) -> (2,-1,-1) runs along the side of (1,0,-1) and (1,-1,0).
    a, b = at(0, 0, 0), at(2, -1, -1)
    left, right = at(1, 0, -1), at(1, -1, 0)
    one = board(hill=[left])
    assert one.line_of_sight(a, b).clear
    assert not one.line_of_sight(a, b, tie_policy="either_blocks").clear
    both = board(hill=[left, right]).line_of_sight(a, b)
    assert not both.clear
    assert both.blocking == (left, right)
    assert both.reason == f"blocked by Hill at {hex_label(left)} and Hill at {hex_label(right)}"
    assert both.intervening == (left, right)


def test_fp_19_g15_tied_trees_count_once_only_if_both_are_trees() -> None:
    # (0,0,0) -> (4,-2,-2) has ties at steps 1 and 3.
    a, b = at(0, 0, 0), at(4, -2, -2)
    steps = board().line_of_sight(a, b).steps
    tie1, tie3 = steps[1].hexes, steps[3].hexes
    one_side = board(woods=[tie1[0], tie3[0]])
    assert one_side.line_of_sight(a, b).soft_total == 0
    assert one_side.line_of_sight(a, b).clear
    assert one_side.line_of_sight(a, b, tie_policy="either_blocks").soft_total == 2
    assert not one_side.line_of_sight(a, b, tie_policy="either_blocks").clear
    both_sides = board(woods=[*tie1, *tie3]).line_of_sight(a, b)
    assert both_sides.soft_total == 2
    assert not both_sides.clear


def test_fp_19_g15_tie_of_hill_and_trees_passes_on_the_tree_side() -> None:
    a, b = at(0, 0, 0), at(2, -1, -1)
    left, right = at(1, 0, -1), at(1, -1, 0)
    sight = board(hill=[left], woods=[right]).line_of_sight(a, b)
    assert sight.clear
    assert sight.soft == (right,)


def test_line_of_sight_validates_arguments() -> None:
    b = board()
    with pytest.raises(ValueError, match="off the 14x14 board"):
        b.line_of_sight(Hex(0, 0), Hex(-3, 0))
    with pytest.raises(ValueError, match="unknown tie policy 'random'"):
        b.line_of_sight(Hex(0, 0), Hex(1, 0), tie_policy="random")
    with pytest.raises(ValueError, match="soft_limit"):
        b.line_of_sight(Hex(0, 0), Hex(1, 0), soft_limit=0)


@given(
    st.builds(from_offset, st.integers(0, 13), st.integers(0, 13)),
    st.builds(from_offset, st.integers(0, 13), st.integers(0, 13)),
)
def test_open_board_sight_is_always_clear_and_symmetric(a: Hex, b: Hex) -> None:
    open_board = board()
    forward, backward = open_board.line_of_sight(a, b), open_board.line_of_sight(b, a)
    assert forward.clear
    assert backward.clear
    assert set(forward.intervening) == set(backward.intervening)
    assert len(forward.steps) == distance(a, b) + 1


def test_line_along_the_zigzag_edge_ignores_off_board_hexes() -> None:
    # Hex(0,0) -> Hex(2,-1) runs along the top edge: the tie is (1,0) and the off-board (1,-1).
    a, b = Hex(0, 0), Hex(2, -1)
    steps = board().line_of_sight(a, b).steps
    assert set(steps[1].hexes) == {Hex(1, 0), Hex(1, -1)}
    assert board().line_of_sight(a, b).intervening == (Hex(1, 0),)
    assert board(hill=[Hex(1, 0)]).line_of_sight(a, b).clear
    assert not board(hill=[Hex(1, 0)]).line_of_sight(a, b, tie_policy="either_blocks").clear
    assert board(woods=[Hex(1, 0)]).line_of_sight(a, b).soft_total == 0
