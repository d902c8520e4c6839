"""fig-percentile FP-11 ... FP-13 (terrain costs) and FP-19/FP-20 (line of sight)."""

from __future__ import annotations

import pytest
from fig_percentile_fixtures import act, add, arena, goto, hexes, last, next_step

from hexcombat import Action, Encounter
from hexcombat.board import Board
from hexcombat.geometry import Hex, distance, line_steps, neighbor
from hexcombat.layout import from_offset, to_offset
from hexcombat.movement import Pose, search
from hexcombat.rulesets.fig_percentile import FigPercentile, sight
from hexcombat.rulesets.fig_percentile.moves import step_function
from hexcombat.rulesets.fig_percentile.ranges import Sight

pytestmark = pytest.mark.pyodide

TABLE = FigPercentile.terrain


@pytest.mark.parametrize("terrain", ["heavy_woods", "marsh", "stream", "light_snow", "deep_sand"])
def test_fp_11_woods_marsh_stream_light_snow_and_deep_sand_cost_2(terrain: str) -> None:
    assert TABLE[terrain].move_cost == 2


@pytest.mark.parametrize("terrain", ["deep_snow", "deep_marsh", "deep_stream"])
def test_fp_12_deep_snow_deep_marsh_and_deep_streams_cost_3(terrain: str) -> None:
    assert TABLE[terrain].move_cost == 3


def test_fp_12_i12_deep_march_is_the_deep_marsh() -> None:
    assert "Deep March" in TABLE["deep_marsh"].help


def test_fp_20_g14_hills_cost_1_and_structures_are_impassable() -> None:
    assert TABLE["hill"].move_cost == 1 and TABLE["hill"].house_default
    assert TABLE["structure"].impassable and TABLE["structure"].house_default
    assert TABLE["open"].move_cost == 1 and TABLE.default.id == "open"


def _reach(
    cells: dict[str, list[tuple[int, int]]],
    allowance: int,
    *,
    top: int,
    entry: str = "need_full_cost",
    min_one: bool = True,
) -> dict[Hex, int]:
    """Costs from (1,4) facing SE (direction 2), moving free (Slow) across painted cells."""
    terrain = {h: t for t, cs in cells.items() for h in hexes(cs)}
    board = Board(10, 8, TABLE, terrain)
    fn = step_function(
        board, [], free_turns=True, terrain_entry=entry, min_one_hex=min_one, top=top
    )
    return search(Pose(from_offset(1, 4), 2), fn, allowance).hex_costs()


def test_fp_11_fp_12_path_costs_add_terrain_costs() -> None:
    costs = _reach({"heavy_woods": [(2, 4)], "deep_snow": [(3, 4)]}, 6, top=6)
    assert costs[from_offset(2, 4)] == 2  # into the woods
    assert costs[from_offset(2, 5)] == 1  # open field beside it
    # Into the deep snow: 1 (open, around the woods) + 3, cheaper than 2 + 3 through them.
    assert costs[from_offset(3, 4)] == 4


def test_fp_13_one_point_left_cannot_enter_costly_terrain_and_the_rest_is_wasted() -> None:
    woods = [(c, r) for c in range(0, 10) for r in range(0, 8) if (c, r) != (1, 4)]
    costs = _reach({"heavy_woods": woods}, 3, top=6)
    one_away = [h for h in costs if distance(h, from_offset(1, 4)) == 1]
    assert one_away and all(costs[h] == 2 for h in one_away)
    # With 1 point left after entering one woods hex, no second woods hex is reachable.
    assert all(distance(h, from_offset(1, 4)) <= 1 for h in costs)


def test_fp_13_g17_need_the_full_cost_or_only_one_point_left_stops_entry() -> None:
    cells = {"deep_snow": [(2, 4), (2, 3), (1, 3), (1, 5), (0, 3), (0, 4)]}
    strict = _reach(cells, 2, top=6)
    literal = _reach(cells, 2, top=6, entry="literal_one_left")
    snow = from_offset(2, 4)
    assert snow not in strict  # cost 3 with 2 points left: G-17 default refuses
    assert literal[snow] == 2  # literal: only "1 left" stops entry; it spends all that is left


def _one_round(
    fig: int, mode: str, terrain: str, options: dict[str, object] | None = None
) -> Encounter:
    """A figure at (1,4) facing SE, the hex (2,4) painted, ready to plan a ``mode`` move."""
    enc = arena(dict(options or {}), paint={terrain: [(2, 4)]})
    if mode != "top":
        enc = add(enc, "f", (1, 4), side="A", fig=fig, facing=2)
    else:  # an acceleration round that ends at (1,4) (standing still would stop, G-11)
        enc = add(enc, "f", to_offset(neighbor(from_offset(1, 4), 5)), side="A", fig=fig, facing=2)
        act(enc, "declare", "f", mode="accelerate")
        next_step(enc)
        goto(enc, "f", (1, 4))
        next_step(enc)
        act(enc, "stop_or_continue", "f", choice="continue")
        next_step(enc)
        next_step(enc)
    act(enc, "declare", "f", mode=mode)
    next_step(enc)
    return enc


def _offered(enc: Encounter) -> list[str]:
    spec = [a for a in enc.legal_actions("f") if a.kind == "plan_move"]
    return [str(c.value) for c in spec[0].param("to").choices] if spec else []


def test_fp_13_g18_fig_12_enters_woods_with_its_whole_allowance() -> None:
    enc = _one_round(12, "accelerate", "heavy_woods")
    woods = str(from_offset(2, 4))
    assert woods in _offered(enc)
    enc.perform(Action("plan_move", "f", {"to": woods}))
    next_step(enc)
    move = last(enc, "move")
    assert move.data["to"] == woods and move.data["mp"] == 1
    assert any("(G-18)" in d for d in move.details)


def test_fp_13_g18_literal_option_keeps_fig_12_out_of_the_woods() -> None:
    enc = _one_round(12, "accelerate", "heavy_woods", {"fp.min_one_hex_move": False})
    assert str(from_offset(2, 4)) not in _offered(enc)


def test_fp_13_g18_fig_20_waits_for_top_speed_to_enter_woods_but_enters_deep_snow() -> None:
    accelerating = _one_round(20, "accelerate", "heavy_woods")  # 1 hex, top speed 2 = cost
    assert str(from_offset(2, 4)) not in _offered(accelerating)
    running = _one_round(20, "top", "heavy_woods")
    assert str(from_offset(2, 4)) in _offered(running)
    snow = _one_round(20, "top", "deep_snow")  # top speed 2 < cost 3: the G-18 exception
    assert str(from_offset(2, 4)) in _offered(snow)


def test_fp_13_g18_fig_7_accelerating_moves_no_hex() -> None:
    enc = _one_round(7, "accelerate", "heavy_woods")
    reach = enc.ruleset.reach(enc.state, enc.state.figures["f"])
    assert reach is not None and reach.allowance == 0
    assert set(reach.hex_costs()) == {from_offset(1, 4)}


# ---- line of sight -------------------------------------------------------------------


def _sight(trees: list[tuple[int, int]], hills: list[tuple[int, int]] | None = None) -> Sight:
    terrain = {h: "heavy_woods" for h in hexes(trees)}
    terrain.update({h: "hill" for h in hexes(hills or [])})
    board = Board(12, 6, TABLE, terrain)
    return sight(board, from_offset(1, 2), from_offset(6, 2))


def test_fp_19_no_trees_clear() -> None:
    seen = _sight([])
    assert seen.clear and seen.trees == 0 and seen.reason == "clear"


def test_fp_19_one_heavy_tree_hex_between_is_see_through() -> None:
    seen = _sight([(3, 2)])
    assert seen.clear and seen.trees == 1 and seen.rule == "FP-19"


def test_fp_19_two_heavy_tree_hexes_between_block_sight() -> None:
    seen = _sight([(3, 2), (4, 2)])
    assert not seen.clear and seen.trees == 2
    assert seen.reason == "2 heavy-tree hexes in between block sight" and seen.rule == "FP-19"


def test_fp_19_g15_trees_the_figures_stand_in_do_not_count() -> None:
    seen = _sight([(1, 2), (6, 2), (3, 2)])
    assert seen.clear and seen.trees == 1


def test_fp_20_a_hill_between_blocks_sight() -> None:
    seen = _sight([], [(4, 2)])
    assert not seen.clear and seen.rule == "FP-20" and "Hill at" in seen.reason


def test_fp_20_a_structure_between_blocks_sight() -> None:
    board = Board(12, 6, TABLE, {from_offset(3, 2): "structure"})
    seen = sight(board, from_offset(1, 2), from_offset(6, 2))
    assert not seen.clear and "Structure at" in seen.reason


def test_fp_19_g15_a_line_along_a_hexside_is_blocked_only_if_both_sides_block() -> None:
    # README: cube (0,0,0) -> (2,-1,-1) runs along a hexside at step 1.
    a = Hex(3, 3)
    b = a + Hex.from_cube(2, -1, -1)
    (tie,) = [step for step in line_steps(a, b) if step.is_tie]
    one_hill = Board(12, 8, TABLE, {tie.hexes[0]: "hill"})
    assert sight(one_hill, a, b).clear  # both_must_block: the other side is open
    assert not sight(one_hill, a, b, tie_policy="either_blocks").clear
    both = Board(12, 8, TABLE, {h: "hill" for h in tie.hexes})
    assert not sight(both, a, b).clear
    trees = Board(12, 8, TABLE, {h: "heavy_woods" for h in tie.hexes})
    assert sight(trees, a, b).trees == 1  # a pair of tree hexes counts once


def test_fp_20_g22_figures_block_sight_only_with_the_option() -> None:
    board = Board(12, 6, TABLE)
    middle = from_offset(3, 2)
    assert sight(board, from_offset(1, 2), from_offset(6, 2)).clear
    blocked = sight(board, from_offset(1, 2), from_offset(6, 2), figures=[middle])
    assert not blocked.clear and blocked.rule == "G-22"
