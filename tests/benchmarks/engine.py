"""Engine hot paths, timed the same way under CPython and inside Pyodide.

``rows(inputs, runs)`` returns one row per measure: our median time, and where a
peer pure-Python hex library does the same job (``hexutil`` from PyPI, installed
only into the benchmark's environment: ``pip install hexutil==0.2.2``), its median
time measured in the same run and the ratio ours / peer. Without ``hexutil`` the
peer columns say so and the row keeps our figure.

The inputs (a 1,000-action log, the positions of each ruleset's most complex check)
are made once under CPython by ``make_inputs()`` and handed to Pyodide as JSON, so
both interpreters time the same work. Standard library and hexcombat only.
"""

from __future__ import annotations

import functools
import heapq
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from hexcombat.board import Board
from hexcombat.geometry import Hex, distance, neighbors
from hexcombat.layout import from_offset
from hexcombat.movement import Pose, Step, search
from hexcombat.terrain import Terrain, TerrainTable

try:  # the peer: optional, never an app dependency
    import hexutil
except ImportError:  # pragma: no cover - depends on the environment
    hexutil = None

PEER = "hexutil 0.2.2"
PEER_MISSING = "peer row skipped: hexutil is not installed (.venv/bin/pip install hexutil==0.2.2)"

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


def load() -> float:
    """The 1-minute load average (-1 where the platform does not tell it)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return -1.0


def make_board(size: int, seed: int = 1) -> Board:
    """A size x size board with randomly mixed terrain (seeded), as in bench_movement."""
    rng = random.Random(seed)
    ids, weights = list(WEIGHTS), list(WEIGHTS.values())
    board = Board(size, size, TABLE)
    terrain = {h: rng.choices(ids, weights)[0] for h in board.hexes()}
    return Board(size, size, TABLE, terrain)


def clock() -> float:
    """CPU seconds of this process (a busy shared machine skews wall-clock time far more).

    Under Pyodide ``process_time`` is wall-clock time; ``pyodide_engine.mjs`` replaces this
    function with Node's own CPU count of the process.
    """
    return time.process_time() if CPU_CLOCK else time.perf_counter()


CPU_CLOCK = sys.platform != "emscripten"


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Median milliseconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def paired_ms(
    ours: Callable[[], object], peer: Callable[[], object] | None, runs: int
) -> tuple[float, float | None]:
    """Medians of ours and the peer's, run alternately so that both see the same load."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(runs):
        start = clock()
        ours()
        a.append(clock() - start)
        if peer is not None:
            start = clock()
            peer()
            b.append(clock() - start)
    return statistics.median(a) * 1000, statistics.median(b) * 1000 if b else None


def to_peer(h: Hex) -> Any:
    """Our axial hex as a hexutil hex: the lattice map q -> (1, 1), r -> (2, 0) keeps distances."""
    return hexutil.Hex(h.q + 2 * h.r, h.q)


# ---- reachability -------------------------------------------------------------------------
def our_reach(
    board: Board, start: Hex, budget: int, table: dict[tuple[int, int], list[Step]] | None = None
) -> dict[Hex, int]:
    """Cheapest cost to every hex within ``budget`` (movement.search, terrain costs, no facing).

    With ``table`` the step function is written as the skirmish ruleset's: the steps out of
    a hex are made once per board and kept in ``table`` (shared by every search on it);
    without, a plain generator makes new hexes, poses and steps on every call.
    """
    contains, terrain_at = board.contains, board.terrain_at

    def plain(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        for h in neighbors(pose.hex):
            if contains(h):
                cost = terrain_at(h).move_cost
                if cost is not None and spent + cost <= allowance:
                    yield Step("move", Pose(h, 0), cost)

    def kept(pose: Pose, spent: int, allowance: int) -> list[Step]:
        h = pose.hex
        key = (h.q, h.r)
        moves = table.get(key)  # type: ignore[union-attr]
        if moves is None:
            moves = table[key] = list(plain(pose, 0, allowance))  # type: ignore[index]
        return moves

    return search(Pose(start, 0), plain if table is None else kept, budget).hex_costs()


def peer_reach(
    passable: Callable[[Any], bool], cost: Callable[[Any], int], start: Any, budget: int
) -> dict[Any, int]:
    """The same search written with the peer, in its own style (``find_path`` takes
    ``passable`` and ``cost`` functions of a hex): Dijkstra over ``Hex.neighbours()``."""
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        spent, h = heapq.heappop(queue)
        if spent > best[h]:
            continue
        for n in h.neighbours():
            if not passable(n):
                continue
            total = spent + cost(n)
            if total <= budget and total < best.get(n, total + 1):
                best[n] = total
                heapq.heappush(queue, (total, n))
    return best


# ---- the rows ------------------------------------------------------------------------------
def rows(inputs: dict[str, Any], runs: int = 5) -> list[dict[str, Any]]:
    """Every hot-path row: name, ours (ms), peer (ms or None), ratio, load average."""
    out: list[dict[str, Any]] = []

    def row(name: str, ours: float, peer: float | None = None, note: str = "") -> None:
        entry: dict[str, Any] = {
            "measure": name,
            "ours_ms": round(ours, 2),
            "load": load(),
            "clock": "cpu" if CPU_CLOCK else "wall",
        }
        if peer is not None:
            entry.update(peer_ms=round(peer, 2), ratio=round(ours / peer, 2), peer=PEER)
        elif note:
            entry["note"] = note
        out.append(entry)

    board = make_board(100)
    start = from_offset(50, 50)
    peer_costs: dict[Any, int] = {}
    if hexutil is not None:
        for h in board.hexes():
            c = board.terrain_at(h).move_cost
            if c is not None:
                peer_costs[to_peer(h)] = c
    passable, cost = peer_costs.__contains__, peer_costs.__getitem__
    table: dict[tuple[int, int], list[Step]] = {}
    for budget in (6, 20, 60):
        peer_fn = None
        if hexutil is not None:
            assert len(peer_reach(passable, cost, to_peer(start), budget)) == len(
                our_reach(board, start, budget)
            )
            peer_fn = functools.partial(peer_reach, passable, cost, to_peer(start), budget)
        assert our_reach(board, start, budget, table) == our_reach(board, start, budget)
        ours, peer = paired_ms(
            functools.partial(our_reach, board, start, budget, table), peer_fn, runs
        )
        row(
            f"reachability, budget {budget}, 100x100 mixed terrain (steps kept per board)",
            ours,
            peer,
            PEER_MISSING,
        )
        ours, peer = paired_ms(functools.partial(our_reach, board, start, budget), peer_fn, runs)
        row(
            f"reachability, budget {budget}, 100x100 mixed terrain (plain step function)",
            ours,
            peer,
            PEER_MISSING,
        )

    rng = random.Random(3)
    figures = rng.sample(board.hexes(), 50)
    pairs = [(a, b) for i, a in enumerate(figures) for b in figures[i + 1 :]]
    peer_los = None
    if hexutil is not None:
        opaque = {to_peer(h) for h in board.hexes() if board.terrain_at(h).blocks_sight}
        on_board = {to_peer(h) for h in board.hexes()}

        def peer_los() -> list[bool]:
            seen = {
                a: to_peer(a).field_of_view(lambda p: p in on_board and p not in opaque, 200)
                for a in figures
            }
            return [to_peer(b) in seen[a] for a, b in pairs]

    ours, peer = paired_ms(
        lambda: [board.line_of_sight(a, b).clear for a, b in pairs], peer_los, runs
    )
    row(f"line of sight, {len(pairs)} pairs of 50 figures, 100x100", ours, peer, PEER_MISSING)
    ours, peer = paired_ms(
        lambda: [board.line_of_sight(a, b).reason for a, b in pairs], peer_los, runs
    )
    row(
        f"line of sight with the full evidence (reason, blocking hexes), {len(pairs)} pairs",
        ours,
        peer,
        PEER_MISSING,
    )

    many = [(rng.choice(figures), rng.choice(figures)) for _ in range(1000)] * 1000
    peer_dist = None
    if hexutil is not None:
        peer_many = [(to_peer(a), to_peer(b)) for a, b in many[:1000]] * 1000
        peer_dist = lambda: [a.distance(b) for a, b in peer_many]  # noqa: E731
    ours, peer = paired_ms(lambda: [distance(a, b) for a, b in many], peer_dist, max(3, runs // 2))
    row("1,000,000 hex distances", ours, peer, PEER_MISSING)

    from hexcombat import Action, dice
    from hexcombat import encounter as encounter_module
    from hexcombat.dice import odds as dice_odds
    from hexcombat.document import loads

    for ruleset_id, case in sorted(inputs["checks"].items()):
        enc = loads(case["document"])
        action = Action.from_json(case["action"])

        def odds(enc: Any = enc, action: Action = action) -> list[Any]:
            dice.parse.cache_clear()
            dice_odds._outcome_counts.cache_clear()
            dice_odds._probabilities.cache_clear()
            preview = enc.preview(action)
            assert preview.allowed, preview.reason
            rollables = getattr(preview, "rollables", None) or getattr(preview, "checks", ())
            return [r.outcomes() if hasattr(r, "outcomes") else r.chance() for r in rollables]

        row(f"exact odds, {ruleset_id}: {case['label']}", median_ms(odds, runs))

    text = inputs["replay"]
    count = len(loads(text).log)

    def replay() -> object:
        replays = getattr(encounter_module, "_REPLAYS", None)
        if replays is not None:
            replays.clear()  # a remembered replay would make this a look-up
        return loads(text)

    row(f"replay of a {count}-action log (load)", median_ms(replay, max(3, runs // 2)))
    for ruleset_id, doc in inputs.get("autopilot", {}).items():
        times = decision_times(doc, AUTOPILOT_MOVES)
        median = statistics.median(times)
        row(
            f"autopilot decision, {ruleset_id} demo (median of {len(times)})",
            median,
            note=f"worst {max(times):.0f} ms; target < 300 ms in Pyodide",
        )
    return out


AUTOPILOT_MOVES = 40
"""Moves played from each demo's start (the aggressive autopilot against rush) when timing
the autopilot's decisions."""


def decision_times(document: str, moves: int) -> list[float]:
    """Milliseconds of each of the aggressive autopilot's decisions over ``moves`` moves of
    its game against rush (it plays the demo's first side)."""
    from hexcombat.autopilot import Autopilot, Referee, RushPolicy, play_game
    from hexcombat.document import loads

    enc = loads(document)
    times: list[float] = []

    class Timed(Autopilot):
        def decide(self, *args: Any, **kwargs: Any) -> Any:
            start = clock()
            found = super().decide(*args, **kwargs)
            times.append((clock() - start) * 1000)
            return found

    sides = list(dict.fromkeys(f.side for f in enc.state.figures.values()))
    policies = {s: (Timed() if i == 0 else RushPolicy()) for i, s in enumerate(sides)}
    play_game(enc, Referee(policies), moves)
    return times or [0.0]


# ---- inputs (CPython) ----------------------------------------------------------------------
def make_inputs() -> dict[str, Any]:
    """The documents the odds and replay rows use (made under CPython, with the test helpers)."""
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here.parent), str(here.parent / "rules")]
    from factories import skirmish_duel
    from fig_percentile_fixtures import e3_encounter, e3_round_1_to_actions
    from playouts import random_action

    from hexcombat import Action
    from hexcombat.document import dumps

    checks: dict[str, Any] = {}
    e3 = e3_encounter()
    e3_round_1_to_actions(e3)
    checks["fig-percentile"] = most_complex(e3, "E-3 round 1")
    duel = skirmish_duel()
    duel.perform(Action("move", "ann", {"to": "3,1"}))
    duel.perform(Action("next_step"))
    checks["skirmish"] = most_complex(duel, "duel, attack step")

    enc = skirmish_duel().resized(30, 30)
    rs = enc.ruleset
    for i in range(10):
        side = "Blue" if i % 2 else "Red"
        enc = enc.with_figure(
            rs.new_figure(f"f{i}", f"Figure {i}", side, Hex(2 + 2 * i, 10 + i % 3))
        )
    rng = random.Random(5)
    for _ in range(1000):
        action = random_action(enc, lambda n: rng.randrange(n))
        if action is None:
            break
        enc.perform(action)
    from autopilot_games import OPTIONS, demo

    from hexcombat.autopilot.play import restarted
    from hexcombat.rulesets import all_rulesets

    pilot = {r.id: dumps(restarted(demo(r.id), 1, OPTIONS.get(r.id, {}))) for r in all_rulesets()}
    return {"checks": checks, "replay": dumps(enc), "autopilot": pilot}


def most_complex(enc: Any, where: str) -> dict[str, Any]:
    """Among the actions offered now, the allowed one whose preview has the most breakdown lines."""
    from hexcombat import Action
    from hexcombat.document import dumps

    best: tuple[int, Any, str] | None = None
    for fid in enc.state.figures:
        for spec in enc.legal_actions(fid):
            for action in candidate_actions(fid, spec):
                preview = enc.preview(action)
                rollables = getattr(preview, "rollables", None) or getattr(preview, "checks", ())
                if not preview.allowed or not rollables:
                    continue
                lines = sum(len(r.breakdown()) for r in rollables)
                if best is None or lines > best[0]:
                    best = (lines, action, f"{spec.kind} by {fid}")
    if best is None:
        raise SystemExit(f"no check offered in {where}")
    lines, action, label = best
    assert isinstance(action, Action)
    return {
        "document": dumps(enc),
        "action": action.to_json(),
        "label": f"{label} ({lines} breakdown lines; {where})",
    }


def candidate_actions(fid: str, spec: Any) -> Iterator[Any]:
    """Actions for ``spec``: the first choice of each parameter, and every choice of a target."""
    from hexcombat import Action

    base: dict[str, Any] = {}
    targets: list[tuple[str, list[Any]]] = []
    for p in spec.params:
        values = [c.value if hasattr(c, "value") else c for c in (p.choices or ())]
        if p.name in ("target", "targets") and values:
            targets.append((p.name, values))
        elif values:
            base[p.name] = values[0]
        elif p.default is not None:
            base[p.name] = p.default
    if not targets:
        yield Action(spec.kind, fid, base)
        return
    name, values = targets[0]
    for v in values:
        yield Action(spec.kind, fid, {**base, name: v})
