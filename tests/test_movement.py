"""Movement engine: exact search, A*, plan validation and lockstep movement (README §5, §6)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexcombat.board import Board
from hexcombat.geometry import Hex, distance, neighbor, neighbors
from hexcombat.layout import from_offset
from hexcombat.movement import (
    Pose,
    Reach,
    Room,
    Step,
    StepFunction,
    TerrainWalk,
    find_path,
    lockstep,
    search,
    validate_path,
)
from hexcombat.terrain import Terrain, TerrainTable

pytestmark = pytest.mark.pyodide

TABLE = TerrainTable(
    [
        Terrain("clear", "Clear", 1),
        Terrain("woods", "Heavy trees", 2, soft_cover=1),
        Terrain("snow", "Deep snow", 3),
        Terrain("structure", "Structure", None, blocks_sight=True),
    ]
)


def free_facing_steps(board: Board) -> StepFunction:
    """Move to any neighbour at its terrain cost, facing the way moved (no turn cost)."""

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        for direction, h in enumerate(neighbors(pose.hex)):
            if board.contains(h):
                cost = board.terrain_at(h).move_cost
                if cost is not None:
                    yield Step("move", Pose(h, direction), cost)

    return steps


def facing_steps(board: Board) -> StepFunction:
    """Forward into the front hex at terrain cost; once per hex turn 1 side free or 2 for 1."""

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        ahead = neighbor(pose.hex, pose.facing)
        if board.contains(ahead):
            cost = board.terrain_at(ahead).move_cost
            if cost is not None:
                yield Step("move", Pose(ahead, pose.facing), cost)
        if pose.tag != "turned":
            for turn, cost in ((1, 0), (-1, 0), (2, 1), (-2, 1)):
                yield Step("turn", Pose(pose.hex, (pose.facing + turn) % 6, "turned"), cost)

    return steps


def fp_steps(board: Board, top_speed: int) -> StepFunction:
    """fig-percentile style: enter a hex only with its full cost left (FP-13, G-17), except
    that a figure whose top speed is below the cost may enter one such hex with its whole
    allowance if it has spent nothing yet, and then stops (G-18)."""

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        for direction, h in enumerate(neighbors(pose.hex)):
            if not board.contains(h):
                continue
            cost = board.terrain_at(h).move_cost
            if cost is None:
                continue
            if spent == 0 and 1 <= top_speed < cost and allowance >= 1:
                yield Step("move", Pose(h, direction), allowance, True, "G-18: one hex, then stop")
            else:
                yield Step("move", Pose(h, direction), cost)

    return steps


def bfs_costs(board: Board, start: Hex, allowance: int) -> dict[Hex, int]:
    """Plain breadth-first distances over passable hexes (uniform cost 1)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if seen[h] == allowance:
            continue
        for n in neighbors(h):
            if n not in seen and board.contains(n) and not board.terrain_at(n).impassable:
                seen[n] = seen[h] + 1
                queue.append(n)
    return seen


def path_cost(path: list[Step]) -> int:
    return sum(step.cost for step in path)


def chain_is_legal(start: Pose, steps: StepFunction, allowance: int, path: list[Step]) -> bool:
    pose, spent = start, 0
    for step in path:
        if step not in list(steps(pose, spent, allowance)):
            return False
        pose, spent = step.pose, spent + step.cost
    return spent <= allowance


# --- value objects -------------------------------------------------------------------


def test_pose_and_step_values() -> None:
    p = Pose(Hex(1, 2), 3)
    assert p.tag == ""
    assert str(p) == "1,2 facing 3"
    assert str(Pose(Hex(0, 0), 5, "turned")) == "0,0 facing 5 [turned]"
    assert Pose(Hex(0, 0), 1) < Pose(Hex(0, 0), 2) < Pose(Hex(0, 1), 0)
    assert hash(Pose(Hex(1, 2), 3)) == hash(p)
    s = Step("turn", p, 0)
    assert (s.ends_movement, s.note) == (False, "")
    assert s == Step("turn", Pose(Hex(1, 2), 3), 0)
    with pytest.raises(AttributeError):
        p.facing = 4  # type: ignore[misc]


# --- search ----------------------------------------------------------------------------


def open_board(w: int = 9, h: int = 9) -> Board:
    return Board(w, h, TABLE)


def test_search_uniform_cost_reaches_a_hexagon() -> None:
    board = open_board(15, 15)
    centre = from_offset(7, 7)
    reach = search(Pose(centre, 0), free_facing_steps(board), 3)
    costs = reach.hex_costs()
    assert len(costs) == 37
    assert all(c == distance(centre, h) for h, c in costs.items())
    assert costs[centre] == 0
    assert reach.path_to(centre) == []
    assert reach.cost(Pose(centre, 0)) == 0
    assert reach.start == Pose(centre, 0)
    assert reach.allowance == 3


def test_fp_11_terrain_costs_are_paid() -> None:
    board = open_board().painted([from_offset(4, 3)], "woods").painted([from_offset(4, 2)], "snow")
    start = Pose(from_offset(4, 4), 0)
    reach = search(start, free_facing_steps(board), 10)
    assert reach.hex_costs()[from_offset(4, 3)] == 2
    # through the woods (2 + 3) or around it (1 + 1 + 3): 5 either way
    assert reach.hex_costs()[from_offset(4, 2)] == 5
    assert path_cost(reach.path_to(from_offset(4, 2))) == 5
    assert reach.hex_costs()[from_offset(4, 1)] == 4  # around both: 4 clear hexes, not 3


def test_fp_13_g17_cannot_enter_with_too_few_points_left() -> None:
    # 1 MP left cannot enter cost-2 woods: the remainder is wasted (FP-13, G-17).
    board = open_board().painted([from_offset(4, 2)], "woods")
    start = Pose(from_offset(4, 4), 0)
    reach = search(start, fp_steps(board, top_speed=5), 2)
    costs = reach.hex_costs()
    assert from_offset(4, 2) not in costs  # 1 + 2 > 2
    assert costs[from_offset(4, 3)] == 1
    assert all(c <= 2 for c in costs.values())


def test_fp_13_g18_min_one_hex_enters_costly_terrain_and_stops() -> None:
    # G-18: top speed 1 below the cost 2; with nothing spent the figure may enter one woods hex.
    woods = from_offset(4, 3)
    board = open_board().painted([woods], "woods")
    start = Pose(from_offset(4, 4), 0)
    reach = search(start, fp_steps(board, top_speed=1), 1)
    assert reach.hex_costs()[woods] == 1
    path = reach.path_to(woods)
    assert len(path) == 1
    assert path[0].ends_movement
    assert path[0].note.startswith("G-18")
    # movement ended there: nothing beyond the woods is reachable
    assert from_offset(4, 2) not in reach.hex_costs()


def test_ended_pose_is_not_expanded_but_cheaper_open_arrival_is() -> None:
    # A pose reached cheaply by an ending step and dearer by a normal step: both kept.
    a, b, c = Hex(0, 0), Hex(0, 1), Hex(0, 2)

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        if pose.hex == a:
            yield Step("move", Pose(b, 3), 1, ends_movement=True)
            yield Step("move", Pose(b, 3), 2)
        elif pose.hex == b:
            yield Step("move", Pose(c, 3), 1)

    reach = search(Pose(a, 3), steps, 5)
    assert reach.cost(Pose(b, 3)) == 1
    assert reach.cost(Pose(c, 3)) == 3
    assert reach.poses() == {Pose(a, 3): 0, Pose(b, 3): 1, Pose(c, 3): 3}
    assert [s.cost for s in reach.path_to(c)] == [2, 1]
    assert reach.path_to(b)[0].ends_movement


def test_allowance_is_never_exceeded_and_zero_allowance_stays_put() -> None:
    board = open_board().painted([from_offset(4, 3)], "snow")
    start = Pose(from_offset(4, 4), 0)
    assert search(start, free_facing_steps(board), 0).hex_costs() == {start.hex: 0}
    for allowance in range(5):
        reach = search(start, facing_steps(board), allowance)
        assert max(reach.poses().values()) <= allowance


def test_facing_costs_are_part_of_the_state() -> None:
    board = open_board()
    start = Pose(from_offset(4, 4), 0)
    reach = search(start, facing_steps(board), 6)
    behind = neighbor(start.hex, 3)
    # turning round: 2 sides for 1 point, then (new hex) 1 more side free; or go round
    assert reach.cost(Pose(start.hex, 2, "turned")) == 1
    assert reach.cost(Pose(start.hex, 1, "turned")) == 0
    # one turn per hex: facing about needs a round trip of 3 moves
    assert search(start, facing_steps(board), 2).cost(Pose(start.hex, 3, "turned")) is None
    assert reach.hex_costs()[behind] == 4
    path = reach.path_to(behind)
    assert path_cost(path) == 4
    assert chain_is_legal(start, facing_steps(board), 6, path)


def test_path_to_out_of_reach_raises() -> None:
    board = open_board()
    reach = search(Pose(from_offset(0, 0), 2), free_facing_steps(board), 2)
    with pytest.raises(ValueError, match="out of reach from 0,0 facing 2 with 2 movement points"):
        reach.path_to(from_offset(8, 8))
    with pytest.raises(ValueError, match="out of reach"):
        reach.path_to(Pose(from_offset(0, 1), 1))


def test_path_to_hex_tie_breaks_on_facing_then_tag() -> None:
    a = Hex(0, 0)

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        if pose.hex == a:
            yield Step("move", Pose(Hex(1, 0), 4, "z"), 1)
            yield Step("move", Pose(Hex(1, 0), 2, "b"), 1, note="second")
            yield Step("move", Pose(Hex(1, 0), 2, "a"), 1, note="third")

    reach = search(Pose(a, 0), steps, 3)
    assert reach.path_to(Hex(1, 0))[0].note == "third"


def test_search_is_deterministic() -> None:
    board = open_board().painted([from_offset(3, 3), from_offset(5, 2)], "woods")
    start = Pose(from_offset(4, 4), 1)
    first = search(start, facing_steps(board), 8)
    second = search(start, facing_steps(board), 8)
    assert first.poses() == second.poses()
    for h in first.hex_costs():
        assert first.path_to(h) == second.path_to(h)


def test_search_rejects_bad_input() -> None:
    board = open_board()
    steps = free_facing_steps(board)
    with pytest.raises(ValueError, match="facing must be an integer 0-5"):
        search(Pose(Hex(0, 0), 6), steps, 3)
    with pytest.raises(ValueError, match="allowance must be an integer >= 0"):
        search(Pose(Hex(0, 0), 0), steps, -1)

    def negative(pose: Pose, spent: int, allowance: int) -> list[Step]:
        return [Step("move", Pose(Hex(0, 1), 3), -1)]

    with pytest.raises(ValueError, match="negative cost -1"):
        search(Pose(Hex(0, 0), 0), negative, 3)
    with pytest.raises(ValueError, match="negative cost"):
        find_path(Pose(Hex(0, 0), 0), Hex(5, 5), negative, 3)


@st.composite
def small_boards(draw: st.DrawFn) -> tuple[Board, Hex]:
    w = draw(st.integers(min_value=1, max_value=7))
    h = draw(st.integers(min_value=1, max_value=7))
    cells = [from_offset(c, r) for r in range(h) for c in range(w)]
    walls = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    start = draw(st.sampled_from(cells))
    walls.discard(start)
    return Board(w, h, TABLE).painted(walls, "structure"), start


@settings(max_examples=60, deadline=None)
@given(small_boards(), st.integers(min_value=0, max_value=8))
def test_search_matches_brute_force_bfs_on_uniform_cost(
    case: tuple[Board, Hex], allowance: int
) -> None:
    board, start = case
    reach = search(Pose(start, 0), free_facing_steps(board), allowance)
    assert reach.hex_costs() == bfs_costs(board, start, allowance)


@st.composite
def mixed_boards(draw: st.DrawFn) -> tuple[Board, Hex]:
    w = draw(st.integers(min_value=1, max_value=6))
    h = draw(st.integers(min_value=1, max_value=6))
    cells = [from_offset(c, r) for r in range(h) for c in range(w)]
    terrain = draw(st.dictionaries(st.sampled_from(cells), st.sampled_from(TABLE.ids())))
    start = draw(st.sampled_from(cells))
    terrain.pop(start, None)
    return Board(w, h, TABLE, terrain), start


@settings(max_examples=40, deadline=None)
@given(mixed_boards(), st.integers(min_value=0, max_value=7), st.integers(min_value=0, max_value=5))
def test_every_path_costs_what_is_reported_and_is_legal(
    case: tuple[Board, Hex], allowance: int, facing: int
) -> None:
    board, start_hex = case
    start = Pose(start_hex, facing)
    steps = facing_steps(board)
    reach = search(start, steps, allowance)
    for pose, cost in reach.poses().items():
        path = reach.path_to(pose)
        assert path_cost(path) == cost <= allowance
        assert chain_is_legal(start, steps, allowance, path)
        assert (path[-1].pose if path else start) == pose
    for h, cost in reach.hex_costs().items():
        assert path_cost(reach.path_to(h)) == cost
        found = find_path(start, h, steps, allowance)
        assert found is not None
        assert path_cost(found) == cost
        assert chain_is_legal(start, steps, allowance, found)
    for h in board.hexes():
        if h not in reach.hex_costs():
            assert find_path(start, h, steps, allowance) is None


# --- find_path -------------------------------------------------------------------------


def test_find_path_examples() -> None:
    board = open_board().painted([from_offset(4, 3)], "structure")
    start = Pose(from_offset(4, 4), 0)
    steps = free_facing_steps(board)
    assert find_path(start, start.hex, steps, 5) == []
    path = find_path(start, from_offset(4, 2), steps, 5)
    assert path is not None
    assert path_cost(path) == 3  # around the structure
    assert path[-1].pose.hex == from_offset(4, 2)
    assert find_path(start, from_offset(4, 2), steps, 2) is None
    assert find_path(start, from_offset(4, 3), steps, 9) is None


def test_find_path_through_a_movement_ending_step() -> None:
    woods = from_offset(4, 3)
    board = open_board().painted([woods], "woods")
    start = Pose(from_offset(4, 4), 0)
    path = find_path(start, woods, fp_steps(board, top_speed=1), 1)
    assert path is not None
    assert len(path) == 1
    assert path[0].ends_movement
    # the ending step cannot be used to go beyond
    assert find_path(start, from_offset(4, 2), fp_steps(board, top_speed=1), 1) is None


# --- validate_path -----------------------------------------------------------------------


def test_validate_path_accepts_a_legal_plan() -> None:
    board = open_board()
    start = Pose(from_offset(4, 4), 0)
    ahead = neighbor(start.hex, 0)
    plan = [Pose(ahead, 0), Pose(ahead, 1), Pose(neighbor(ahead, 1), 1)]
    steps = validate_path(start, facing_steps(board), 5, plan)
    assert [s.kind for s in steps] == ["move", "turn", "move"]
    assert steps[1].pose == Pose(ahead, 1, "turned")  # empty planned tag matches any tag
    assert path_cost(steps) == 2
    assert validate_path(start, facing_steps(board), 5, []) == []


def test_validate_path_picks_the_cheapest_matching_chain() -> None:
    a, b = Hex(0, 0), Hex(0, 1)

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        if pose.hex == a:
            yield Step("move", Pose(b, 3, "slow"), 3)
            yield Step("move", Pose(b, 3, "fast"), 1)

    assert validate_path(Pose(a, 3), steps, 5, [Pose(b, 3)])[0].pose.tag == "fast"
    assert validate_path(Pose(a, 3), steps, 5, [Pose(b, 3, "slow")])[0].cost == 3


def test_validate_path_explains_an_illegal_step() -> None:
    board = open_board()
    start = Pose(from_offset(4, 4), 0)
    steps = facing_steps(board)
    sideways = neighbor(start.hex, 2)
    with pytest.raises(ValueError, match=r"step 1 to .*: not a step allowed from .* allowed: move"):
        validate_path(start, steps, 5, [Pose(sideways, 2)])
    with pytest.raises(ValueError, match="step 2 to"):
        validate_path(start, steps, 5, [Pose(start.hex, 1), Pose(start.hex, 2)])


def test_validate_path_explains_too_few_points() -> None:
    board = open_board().painted([from_offset(4, 3)], "snow")
    start = Pose(from_offset(4, 4), 0)
    with pytest.raises(ValueError, match="move costs 3 but only 2 of 2 points are left"):
        validate_path(start, facing_steps(board), 2, [Pose(from_offset(4, 3), 0)])


def test_fp_13_g18_validate_path_after_movement_ended() -> None:
    woods = from_offset(4, 3)
    board = open_board().painted([woods], "woods")
    start = Pose(from_offset(4, 4), 0)
    steps = fp_steps(board, top_speed=1)
    assert validate_path(start, steps, 1, [Pose(woods, 0)])[0].ends_movement
    with pytest.raises(ValueError, match=r"step 2 .*movement already ended .*\(G-18"):
        validate_path(start, steps, 1, [Pose(woods, 0), Pose(from_offset(4, 2), 0)])


def test_validate_path_rejects_non_poses() -> None:
    with pytest.raises(ValueError, match="expected a Pose"):
        validate_path(Pose(Hex(0, 0), 0), free_facing_steps(open_board()), 3, [Hex(0, 1)])  # type: ignore[list-item]


# --- lockstep ------------------------------------------------------------------------------


def straight(start: Hex, direction: int, n: int) -> list[Hex]:
    hs = [start]
    for _ in range(n):
        hs.append(neighbor(hs[-1], direction))
    return hs


def test_lockstep_free_movers_walk_their_paths() -> None:
    a = straight(Hex(0, 0), 3, 3)
    b = straight(Hex(5, 0), 3, 2)
    assert lockstep({"a": a, "b": b}) == {"a": a, "b": b}


def test_lockstep_same_hex_same_tick_both_stop() -> None:
    # a and b both want Hex(1,0) at tick 1
    a = [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    b = [Hex(2, -1), Hex(1, 0), Hex(0, 1)]
    out = lockstep({"a": a, "b": b})
    assert out == {"a": [Hex(0, 0)], "b": [Hex(2, -1)]}


def test_lockstep_priority_lets_the_first_go() -> None:
    a = [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    b = [Hex(2, -1), Hex(1, 0), Hex(0, 1)]
    out = lockstep({"a": a, "b": b}, policy="priority", priority=["b", "a"])
    assert out == {"a": [Hex(0, 0)], "b": b}
    # when no contender is listed, both stop
    out = lockstep({"a": a, "b": b, "c": [Hex(9, 9)]}, policy="priority", priority=["c"])
    assert out["a"] == [Hex(0, 0)]
    assert out["b"] == [Hex(2, -1)]


def test_lockstep_entering_a_hex_held_by_a_stayer_stops_the_mover() -> None:
    wall = Hex(0, 2)
    a = straight(Hex(0, 0), 3, 3)  # 0,0 -> 0,1 -> 0,2 -> 0,3
    out = lockstep({"a": a, "guard": [wall]})
    assert out == {"a": [Hex(0, 0), Hex(0, 1)], "guard": [wall]}
    # a mover that has finished its path also holds its hex
    out = lockstep({"a": a, "b": [Hex(1, 1), wall]})
    assert out["a"] == [Hex(0, 0), Hex(0, 1)]


def test_lockstep_following_into_a_vacated_hex_is_fine() -> None:
    lead = straight(Hex(0, 1), 3, 3)
    follower = straight(Hex(0, 0), 3, 3)
    assert lockstep({"f": follower, "l": lead}) == {"f": follower, "l": lead}


def test_lockstep_blocked_leader_stops_the_follower_too() -> None:
    lead = straight(Hex(0, 1), 3, 2)
    follower = straight(Hex(0, 0), 3, 2)
    out = lockstep({"f": follower, "l": lead, "rock": [Hex(0, 2)]})
    assert out["l"] == [Hex(0, 1)]
    assert out["f"] == [Hex(0, 0)]


def test_lockstep_swaps_are_collisions() -> None:
    a, b = Hex(0, 0), Hex(0, 1)
    assert lockstep({"x": [a, b], "y": [b, a]}) == {"x": [a], "y": [b]}
    assert lockstep({"x": [a, b], "y": [b, a]}, policy="priority", priority=["x"]) == {
        "x": [a],
        "y": [b],
    }


def test_lockstep_stopped_mover_stays_stopped_and_waits_count() -> None:
    a = [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    b = [Hex(2, -1), Hex(1, 0)]
    out = lockstep({"a": a, "b": b, "w": [Hex(5, 5), Hex(5, 5), Hex(5, 6)]})
    assert out["a"] == [Hex(0, 0)]  # would be free at tick 2, but stays stopped
    assert out["w"] == [Hex(5, 5), Hex(5, 5), Hex(5, 6)]


def test_lockstep_rotation_of_three_goes_ahead() -> None:
    # three mutually adjacent hexes, each mover enters the hex the next one leaves
    p, q, r = Hex(0, 0), Hex(1, 0), Hex(0, 1)
    out = lockstep({"a": [p, q], "b": [q, r], "c": [r, p]})
    assert out == {"a": [p, q], "b": [q, r], "c": [r, p]}


def test_lockstep_validates_input() -> None:
    with pytest.raises(ValueError, match="unknown lockstep policy 'shove'"):
        lockstep({"a": [Hex(0, 0)]}, policy="shove")
    with pytest.raises(ValueError, match="priority names 'z'"):
        lockstep({"a": [Hex(0, 0)]}, policy="priority", priority=["z"])
    with pytest.raises(ValueError, match="path of 'a' is empty"):
        lockstep({"a": []})
    with pytest.raises(ValueError, match="jumps from 0,0 to 2,0 at tick 1"):
        lockstep({"a": [Hex(0, 0), Hex(2, 0)]})
    assert lockstep({}) == {}


@given(
    st.lists(
        st.tuples(
            st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3)),
            st.lists(st.integers(0, 6), max_size=6),
        ),
        max_size=5,
    ),
    st.sampled_from(["stop_before", "priority"]),
)
def test_lockstep_results_are_prefixes_and_never_share_a_hex(
    movers: list[tuple[Hex, list[int]]], policy: str
) -> None:
    paths: dict[str, list[Hex]] = {}
    for i, (start, moves) in enumerate(movers):
        if any(start == p[0] for p in paths.values()):
            continue
        hs = [start]
        for move in moves:
            hs.append(hs[-1] if move == 6 else neighbor(hs[-1], move))
        paths[f"m{i}"] = hs
    out = lockstep(paths, policy=policy, priority=sorted(paths)[::-1])
    assert out.keys() == paths.keys()
    for m, walked in out.items():
        assert walked == paths[m][: len(walked)]
    # replaying tick by tick, no two movers ever stand on one hex
    longest = max((len(p) for p in paths.values()), default=0)
    for t in range(longest):
        where = [w[min(t, len(w) - 1)] for w in out.values()]
        assert len(where) == len(set(where))


def test_reach_type_is_exported() -> None:
    reach = search(Pose(Hex(0, 0), 0), lambda pose, spent, allowance: (), 3)
    assert isinstance(reach, Reach)
    assert reach.poses() == {Pose(Hex(0, 0), 0): 0}


def test_validate_path_explains_from_a_chain_that_can_still_move() -> None:
    a, b, c, d = Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(1, 1)

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        if pose.hex == a:
            yield Step("move", Pose(b, 3), 1, ends_movement=True)
            yield Step("move", Pose(b, 3), 2)
        elif pose.hex == b:
            yield Step("move", Pose(c, 3), 1)

    assert [s.cost for s in validate_path(Pose(a, 3), steps, 5, [Pose(b, 3), Pose(c, 3)])] == [2, 1]
    with pytest.raises(ValueError, match=r"step 2 .*not a step allowed from 0,1 facing 3"):
        validate_path(Pose(a, 3), steps, 5, [Pose(b, 3), Pose(d, 2)])


def test_terrain_walk_ends_the_move_in_a_stop_hex() -> None:
    """A hex of ``stops`` (an enemy's, say) is entered but not walked through: what lies
    beyond it costs the way round."""
    board = Board(7, 1, TABLE)
    start, stop, beyond = from_offset(0, 0), from_offset(2, 0), from_offset(4, 0)
    room = Room(board, {})
    free = TerrainWalk().hex_reach(room, start, 4).hex_costs()
    stopped = TerrainWalk().hex_reach(room, start, 4, {stop}).hex_costs()
    assert free[beyond] == 4 and stopped[stop] == 2
    assert beyond not in stopped, "a one-row board has no way round the stop"
    assert set(stopped) == {from_offset(c, 0) for c in range(3)}
