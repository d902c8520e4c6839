"""Benchmark: movement search on a 100x100 board with mixed terrain (prints figures).

Run: ``.venv/bin/python tests/benchmarks/bench_movement.py``. Not collected by pytest.

The step function is a realistic one: move forward into the front hex at its
terrain cost; once per hex, turn one hexside for free or two for 1 point
(the pose's tag remembers the turn); impassable and off-board hexes are skipped.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from hexcombat.board import Board
from hexcombat.geometry import Hex, distance, neighbor
from hexcombat.layout import from_offset
from hexcombat.movement import Pose, Step, StepFunction, find_path, search
from hexcombat.terrain import Terrain, TerrainTable

TABLE = TerrainTable(
    [
        Terrain("clear", "Clear", 1),
        Terrain("woods", "Heavy trees", 2, soft_cover=1),
        Terrain("marsh", "Marsh", 2),
        Terrain("snow", "Deep snow", 3),
        Terrain("hill", "Hill", 1, blocks_sight=True),
        Terrain("structure", "Structure", None, blocks_sight=True),
    ]
)
WEIGHTS = {"clear": 60, "woods": 12, "marsh": 8, "snow": 6, "hill": 8, "structure": 6}


def make_board(size: int, seed: int = 1) -> Board:
    """A size x size board with randomly mixed terrain (seeded)."""
    rng = random.Random(seed)
    ids, weights = list(WEIGHTS), list(WEIGHTS.values())
    board = Board(size, size, TABLE)
    terrain = {h: rng.choices(ids, weights)[0] for h in board.hexes()}
    return Board(size, size, TABLE, terrain)


def step_function(board: Board) -> StepFunction:
    """Forward moves at terrain cost, one turn per hex (1 hexside free, 2 for 1 point).

    Written the plain way a ruleset would: board look-ups and new Pose and Step
    objects on every call.
    """

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        h, facing = pose.hex, pose.facing
        ahead = neighbor(h, facing)
        if board.contains(ahead):
            cost = board.terrain_at(ahead).move_cost
            if cost is not None:
                yield Step("move", Pose(ahead, facing), cost)
        if pose.tag != "turned":
            yield Step("turn", Pose(h, (facing + 1) % 6, "turned"), 0)
            yield Step("turn", Pose(h, (facing + 5) % 6, "turned"), 0)
            yield Step("turn", Pose(h, (facing + 2) % 6, "turned"), 1)
            yield Step("turn", Pose(h, (facing + 4) % 6, "turned"), 1)

    return steps


def cached_step_function(board: Board) -> StepFunction:
    """The same rules, with the steps from each pose built once and reused.

    Valid because these rules do not depend on the points spent; a ruleset
    whose steps do (e.g. an "at least one hex" exception) must key on that too.
    """
    plain = step_function(board)
    cache: dict[Pose, tuple[Step, ...]] = {}

    def steps(pose: Pose, spent: int, allowance: int) -> tuple[Step, ...]:
        found = cache.get(pose)
        if found is None:
            found = cache[pose] = tuple(plain(pose, spent, allowance))
        return found

    return steps


def timed(fn: Callable[[], object], repeat: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each of ``repeat`` calls; CPU time is less hurt by a busy machine."""
    times = []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - w0, time.process_time() - c0))
    return times


def main() -> None:
    """Print the timings."""
    size, allowance = 100, 60
    board = make_board(size)
    start = Pose(from_offset(size // 2, size // 2), 0)
    near = from_offset(size // 2 + 8, size // 2 - 5)
    print(f"python {sys.version.split()[0]}; board {size}x{size}; allowance {allowance}")
    print(f"start {start}; median wall-clock time (best run, median CPU time)")
    print(f"load average before: {load()}")
    bench("plain step function", step_function(board), start, allowance, near)
    bench("cached step function", cached_step_function(board), start, allowance, near)


def load() -> str:
    """The 1-minute load average, where the platform tells it (other work skews figures)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "unknown"


def bench(label: str, steps: StepFunction, start: Pose, allowance: int, near: Hex) -> None:
    """Time search, path extraction and A* for one step function."""
    reach = search(start, steps, allowance)
    costs = reach.hex_costs()
    far = max(costs.items(), key=lambda item: (item[1], item[0]))[0]
    print(f"{label}: reachable poses {len(reach.poses())}, hexes {len(costs)}")
    report("search()", timed(lambda: search(start, steps, allowance), 7))
    report("search().hex_costs()", timed(lambda: search(start, steps, allowance).hex_costs(), 3))
    report(f"path_to({far}), cost {costs[far]}", timed(lambda: reach.path_to(far), 5))
    report(f"find_path() to {far}", timed(lambda: find_path(start, far, steps, allowance), 3))
    report(
        f"find_path() to {near}, {distance(start.hex, near)} away",
        timed(lambda: find_path(start, near, steps, allowance), 5),
    )


def report(label: str, times: list[tuple[float, float]]) -> None:
    """Print the median and best wall-clock time, and the median CPU time, in milliseconds."""
    wall = statistics.median(t[0] for t in times) * 1000
    best = min(t[0] for t in times) * 1000
    cpu = statistics.median(t[1] for t in times) * 1000
    print(f"  {label:<36} {wall:8.1f} ms (best {best:.1f}, CPU {cpu:.1f})")


if __name__ == "__main__":
    main()
