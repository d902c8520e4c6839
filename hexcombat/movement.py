"""The movement engine: exact cheapest-path search over poses (hex + facing + memory).

A ruleset describes movement with a *step function*: given a pose, the
movement points spent so far and the allowance, it yields the steps allowed
from there, each with its cost (``shared/rules/README.md`` §6). Terrain cost,
facing-change cost, "cannot enter, remainder wasted" and any "at least one
hex" exception are the ruleset's business, expressed by what it yields; a step
with ``ends_movement`` ends the figure's movement where it lands.

The engine never lets the spent total exceed the allowance and never continues
from a pose reached by a step that ends movement. It assumes that having spent
less is never worse: a pose is explored once, at its cheapest cost.

A figure covering several hexes searches over the same poses (its anchor and
facing); :func:`body_steps` keeps only the steps after which its whole body
fits in the :class:`Room` left by the other figures, turns included.
"""

from __future__ import annotations

import gc
import heapq
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from hexcombat.board import Board
from hexcombat.figures import Figure, cover, is_standing
from hexcombat.geometry import Hex, distance, neighbors
from hexcombat.terrain import Terrain

__all__ = [
    "LOCKSTEP_POLICIES",
    "Pose",
    "Reach",
    "Room",
    "Step",
    "StepFunction",
    "TerrainWalk",
    "body_steps",
    "find_path",
    "lockstep",
    "search",
    "validate_path",
]


@dataclass(frozen=True, slots=True, order=True)
class Pose:
    """Where a figure stands and faces (0-5), plus ``tag``: ruleset memory such as ``"turned"``."""

    hex: Hex
    facing: int
    tag: str = ""

    def __init__(self, hex: Hex, facing: int, tag: str = "") -> None:
        # Same as the generated frozen __init__, about 2.5x faster (see Hex).
        _set_hex(self, hex)
        _set_facing(self, facing)
        _set_tag(self, tag)

    # Explicit hash and equality on the plain values: the generated ones would
    # call Hex's Python-level methods too, and rulesets key dicts by Pose.
    def __hash__(self) -> int:
        return hash((self.hex.q, self.hex.r, self.facing, self.tag))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pose):
            return NotImplemented
        h, o = self.hex, other.hex
        return h.q == o.q and h.r == o.r and self.facing == other.facing and self.tag == other.tag

    def __str__(self) -> str:
        tag = f" [{self.tag}]" if self.tag else ""
        return f"{self.hex} facing {self.facing}{tag}"


@dataclass(frozen=True, slots=True)
class Step:
    """One movement step: its ``kind`` (``"move"`` or ``"turn"``), the pose after it, its cost.

    ``ends_movement``: the figure may do nothing more after this step (e.g. it
    entered costly terrain under an "at least one hex" exception).
    """

    kind: str
    pose: Pose
    cost: int
    ends_movement: bool = False
    note: str = ""

    def __init__(
        self, kind: str, pose: Pose, cost: int, ends_movement: bool = False, note: str = ""
    ) -> None:
        # Same as the generated frozen __init__, about 2.5x faster (see Hex).
        _set_kind(self, kind)
        _set_pose(self, pose)
        _set_cost(self, cost)
        _set_ends(self, ends_movement)
        _set_note(self, note)


_set_hex: Callable[[Pose, Hex], None] = Pose.__dict__["hex"].__set__
_set_facing: Callable[[Pose, int], None] = Pose.__dict__["facing"].__set__
_set_tag: Callable[[Pose, str], None] = Pose.__dict__["tag"].__set__
_set_kind: Callable[[Step, str], None] = Step.__dict__["kind"].__set__
_set_pose: Callable[[Step, Pose], None] = Step.__dict__["pose"].__set__
_set_cost: Callable[[Step, int], None] = Step.__dict__["cost"].__set__
_set_ends: Callable[[Step, bool], None] = Step.__dict__["ends_movement"].__set__
_set_note: Callable[[Step, str], None] = Step.__dict__["note"].__set__


StepFunction = Callable[[Pose, int, int], Iterable[Step]]
"""``(pose, spent so far, allowance) -> steps the ruleset allows from here``."""


@dataclass(frozen=True)
class Room:
    """Where a body may stand: hexes on the board, passable, and not full of other figures."""

    board: Board
    crowd: Mapping[Hex, int]
    limit: int = 1

    @classmethod
    def around(cls, board: Board, figures: Iterable[Figure], mover: Figure, limit: int) -> Room:
        """The room ``mover`` has among ``figures`` (its riders and mount move with it)."""
        crowd: dict[Hex, int] = {}
        for f in figures:
            if f.id in (mover.id, mover.mounted_on) or f.mounted_on == mover.id:
                continue
            if is_standing(f):
                for h in f.hexes():
                    crowd[h] = crowd.get(h, 0) + 1
        return cls(board, crowd, limit)

    def is_free(self, h: Hex) -> bool:
        """True when a body may cover ``h``: on the board, passable, below the stacking limit."""
        board = self.board
        return (
            board.contains(h)
            and not board.terrain_at(h).impassable
            and self.crowd.get(h, 0) < self.limit
        )

    def fits(self, footprint: tuple[Hex, ...], pose: Pose) -> bool:
        """True when a body with ``footprint`` fits standing in ``pose``."""
        return all(self.is_free(h) for h in cover(pose.hex, pose.facing, footprint))


def body_steps(steps: StepFunction, footprint: tuple[Hex, ...], room: Room) -> StepFunction:
    """``steps`` for a body with ``footprint``: only steps after which the whole body fits.

    A step that changes facing turns the body the short way round (clockwise on
    a tie) at the pose it lands on, so every facing passed on the way must fit
    too: a long figure cannot turn where its body would sweep through a wall.
    One-hex bodies get ``steps`` unchanged (the ruleset already checks their hex).
    """
    if not footprint:
        return steps
    fits = room.fits

    def wrapped(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        for step in steps(pose, spent, allowance):
            after = step.pose
            turn = (after.facing - pose.facing) % 6
            sweep = range(1, turn + 1) if turn <= 3 else range(turn - 6, 0)
            if all(fits(footprint, Pose(after.hex, (pose.facing + k) % 6)) for k in sweep) and (
                turn or fits(footprint, after)
            ):
                yield step

    return wrapped


def _check_start(start: Pose, allowance: int) -> None:
    if not isinstance(start, Pose):
        raise ValueError(f"start must be a Pose, got {start!r}")
    if isinstance(start.facing, bool) or start.facing not in range(6):
        raise ValueError(f"facing must be an integer 0-5, got {start.facing!r}")
    if isinstance(allowance, bool) or not isinstance(allowance, int) or allowance < 0:
        raise ValueError(f"allowance must be an integer >= 0, got {allowance!r}")


def _negative(step: Step, pose: Pose) -> ValueError:
    return ValueError(f"step function gave a negative cost {step.cost} for {step.kind} from {pose}")


_Key = tuple[int, int, int, str]
"""A pose as a plain tuple ``(q, r, facing, tag)``: cheap to hash inside the search."""


def _key(pose: Pose) -> _Key:
    return (pose.hex.q, pose.hex.r, pose.facing, pose.tag)


class Reach:
    """Everything reachable from a start pose within an allowance, at its cheapest cost."""

    __slots__ = ("_ended", "_ended_parent", "_open", "_parent", "allowance", "start")

    def __init__(
        self,
        start: Pose,
        allowance: int,
        open_costs: dict[_Key, int],
        parent: dict[_Key, tuple[_Key, Step]],
        ended_costs: dict[_Key, int],
        ended_parent: dict[_Key, tuple[_Key, Step]],
    ) -> None:
        self.start = start
        """The pose the search started from."""
        self.allowance = allowance
        """The movement points that were available."""
        self._open = open_costs
        self._parent = parent
        self._ended = ended_costs
        self._ended_parent = ended_parent

    def cost(self, pose: Pose) -> int | None:
        """The cheapest cost of reaching ``pose``, or ``None`` if it is out of reach."""
        key = _key(pose)
        a = self._open.get(key)
        b = self._ended.get(key)
        if a is None:
            return b
        return a if b is None else min(a, b)

    def _pose(self, key: _Key, ended: bool) -> Pose:
        if ended:
            return self._ended_parent[key][1].pose
        link = self._parent.get(key)
        return self.start if link is None else link[1].pose

    def poses(self) -> dict[Pose, int]:
        """Every reachable pose with its cheapest cost."""
        result = {self._pose(k, False): c for k, c in self._open.items()}
        for k, c in self._ended.items():
            pose = self._pose(k, True)
            if pose not in result or c < result[pose]:
                result[pose] = c
        return result

    def hex_costs(self) -> dict[Hex, int]:
        """Every reachable hex with its cheapest cost over all facings (the start hex at 0),
        in ``(q, r)`` order (so sorting the hexes again is cheap)."""
        by_qr: dict[tuple[int, int], int] = {}
        for costs in (self._open, self._ended):
            for (q, r, _, _), c in costs.items():
                old = by_qr.get((q, r))
                if old is None or c < old:
                    by_qr[(q, r)] = c
        return {Hex(q, r): c for (q, r), c in sorted(by_qr.items())}

    def ending_only(self, tags: Collection[str]) -> Reach:
        """The same reach where poses tagged with one of ``tags`` are waypoints only.

        They stay on the way to the poses after them but are no longer places a
        move may end (e.g. a turn that must be followed by a step).
        """
        open_costs = {k: c for k, c in self._open.items() if k[3] not in tags}
        ended = {k: c for k, c in self._ended.items() if k[3] not in tags}
        return Reach(
            self.start, self.allowance, open_costs, self._parent, ended, self._ended_parent
        )

    def path_to(self, target: Hex | Pose) -> list[Step]:
        """The steps of a cheapest way to ``target`` (``[]`` for the start itself).

        For a hex, the cheapest pose on it is used; ties go to the lowest facing,
        then tag. ``ValueError`` if the target is out of reach.
        """
        candidates: list[tuple[int, int, str, bool, _Key]] = []
        for ended, costs in ((False, self._open), (True, self._ended)):
            if isinstance(target, Pose):
                key = _key(target)
                if key in costs:
                    candidates.append((costs[key], target.facing, target.tag, ended, key))
            else:
                q, r = target.q, target.r
                candidates.extend(
                    (c, k[2], k[3], ended, k) for k, c in costs.items() if k[0] == q and k[1] == r
                )
        if not candidates:
            raise ValueError(
                f"{target} is out of reach from {self.start} with {self.allowance} movement points"
            )
        _, _, _, ended, key = min(candidates)
        steps: list[Step] = []
        if ended:
            key, step = self._ended_parent[key]
            steps.append(step)
        parent = self._parent
        while key in parent:
            key, step = parent[key]
            steps.append(step)
        steps.reverse()
        return steps


def search(start: Pose, steps: StepFunction, allowance: int) -> Reach:
    """Every pose reachable from ``start`` within ``allowance`` (Dijkstra).

    Ties between equally cheap ways are broken by the order in which the step
    function yields steps, so the result is deterministic.
    """
    _check_start(start, allowance)
    # A search makes tens of thousands of small objects and no reference cycles: the
    # cyclic garbage collector's passes over them cost a third of a large search.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _search(start, steps, allowance)
    finally:
        if paused:
            gc.enable()


def _search(start: Pose, steps: StepFunction, allowance: int) -> Reach:
    # Dijkstra with one first-in-first-out bucket per cost (costs are small
    # integers): the same visiting order as a (cost, insertion) heap, cheaper.
    start_key = _key(start)
    open_costs: dict[_Key, int] = {start_key: 0}
    parent: dict[_Key, tuple[_Key, Step]] = {}
    ended_costs: dict[_Key, int] = {}
    ended_parent: dict[_Key, tuple[_Key, Step]] = {}
    buckets: dict[int, list[tuple[Pose, _Key]]] = {0: [(start, start_key)]}
    pending = [0]
    get = open_costs.get
    while pending:
        spent = heapq.heappop(pending)
        bucket = buckets[spent]
        i = 0
        while i < len(bucket):  # zero-cost steps append to this very bucket
            pose, key = bucket[i]
            i += 1
            if open_costs[key] != spent:
                continue  # reached more cheaply since it was queued
            for step in steps(pose, spent, allowance):
                c = step.cost
                if c < 0:
                    raise _negative(step, pose)
                total = spent + c
                if total > allowance:
                    continue
                nxt = step.pose
                h = nxt.hex
                nkey = (h.q, h.r, nxt.facing, nxt.tag)
                if step.ends_movement:
                    old = ended_costs.get(nkey)
                    if old is None or total < old:
                        ended_costs[nkey] = total
                        ended_parent[nkey] = (key, step)
                    continue
                old = get(nkey)
                if old is None or total < old:
                    open_costs[nkey] = total
                    parent[nkey] = (key, step)
                    queue = buckets.get(total)
                    if queue is None:
                        queue = buckets[total] = []
                        heapq.heappush(pending, total)
                    queue.append((nxt, nkey))
        del buckets[spent]
    return Reach(start, allowance, open_costs, parent, ended_costs, ended_parent)


_StepTable = tuple[Board, dict[tuple[int, int], tuple[tuple[tuple[int, int], Step], ...]]]
"""A board and, by hex, the steps out of it: each with the hex it enters."""


class TerrainWalk:
    """The usual way over a board: one hex at a time at each hex's terrain cost, never into a
    hex the :class:`Room` has no place in.

    A one-hex figure's facing is free, so its search has one pose per hex (facing 0); a body
    covering several hexes faces the way it steps and turns in place for nothing, wherever it
    fits (:func:`body_steps`). ``cost`` gives a terrain's cost to enter (None: impassable);
    the terrain's ``move_cost`` unless a ruleset pays otherwise. Entering a hex of ``stops``
    (say an enemy's, where a ruleset's text ends a move) ends the movement there. The steps
    out of a hex of a one-hex figure depend only on the board, so they are made once per
    board (kept for the last board seen, which every state of an encounter shares) and the
    hexes other figures fill are left out per search.
    """

    def __init__(self, cost: Callable[[Terrain], int | None] = lambda t: t.move_cost) -> None:
        self.cost = cost
        self._table: _StepTable | None = None

    def reach(
        self, room: Room, figure: Figure, allowance: int, stops: Collection[Hex] = ()
    ) -> Reach:
        """Every pose ``figure`` can reach within ``allowance`` from where it stands."""
        if not figure.footprint:
            return self.hex_reach(room, figure.position, allowance, stops)
        board, cost = room.board, self.cost

        def steps(pose: Pose, spent: int, allowance: int) -> Iterable[Step]:
            for direction, nxt in enumerate(neighbors(pose.hex)):
                if not room.is_free(nxt):
                    continue
                paid = cost(board.terrain_at(nxt))
                if paid is not None and spent + paid <= allowance:
                    yield Step("move", Pose(nxt, direction), paid, nxt in stops)
            for turn in (1, -1):
                yield Step("turn", Pose(pose.hex, (pose.facing + turn) % 6), 0)

        start = Pose(figure.position, figure.facing)
        return search(start, body_steps(steps, figure.footprint, room), allowance)

    def hex_reach(self, room: Room, at: Hex, allowance: int, stops: Collection[Hex] = ()) -> Reach:
        """Every hex a one-hex body can reach from ``at`` within ``allowance`` (facing 0)."""
        return search(Pose(at, 0), self._one_hex_steps(room, stops), allowance)

    def _one_hex_steps(self, room: Room, stops: Collection[Hex]) -> StepFunction:
        """The steps of a one-hex figure, from the board's table of steps out of each hex."""
        board = room.board
        if self._table is None or self._table[0] is not board:
            self._table = (board, {})
        table = self._table[1]
        full = {(h.q, h.r) for h, n in room.crowd.items() if n >= room.limit}
        contains, terrain_at, cost = board.contains, board.terrain_at, self.cost

        def steps(pose: Pose, spent: int, allowance: int) -> list[Step]:
            h = pose.hex
            key = (h.q, h.r)
            moves = table.get(key)
            if moves is None:
                made = []
                for nxt in neighbors(h):
                    if contains(nxt):
                        paid = cost(terrain_at(nxt))
                        if paid is not None:
                            made.append(((nxt.q, nxt.r), Step("move", Pose(nxt, 0), paid)))
                moves = table[key] = tuple(made)
            return [step for at, step in moves if at not in full]

        if not stops:
            return steps
        ending = {(h.q, h.r) for h in stops}

        def stopping_steps(pose: Pose, spent: int, allowance: int) -> list[Step]:
            return [
                Step("move", s.pose, s.cost, True) if (s.pose.hex.q, s.pose.hex.r) in ending else s
                for s in steps(pose, spent, allowance)
            ]

        return stopping_steps


def find_path(start: Pose, goal: Hex, steps: StepFunction, allowance: int) -> list[Step] | None:
    """A cheapest way from ``start`` onto ``goal`` within ``allowance`` (A*), or ``None``.

    The heuristic is the hex distance to the goal. It is admissible (and
    consistent) when every step that changes hex moves to an adjacent hex and
    costs at least 1, which holds for every ruleset here; a step function that
    breaks this may get a valid but costlier path. ``[]`` when ``start`` is on
    ``goal``.
    """
    _check_start(start, allowance)
    if start.hex == goal:
        return []
    best: dict[Pose, int] = {start: 0}
    parent: dict[Pose, tuple[Pose, Step]] = {}
    ended_best: dict[Pose, int] = {}
    ended_parent: dict[Pose, tuple[Pose, Step]] = {}
    heap: list[tuple[int, int, int, bool, Pose]] = [(distance(start.hex, goal), 0, 0, False, start)]
    push, pop = heapq.heappush, heapq.heappop
    seq = 1
    while heap:
        _, _, spent, ended, pose = pop(heap)
        if ended:
            if spent > ended_best[pose]:
                continue
            pose, step = ended_parent[pose]
            return [*_chain(parent, pose), step]
        if spent > best[pose]:
            continue
        if pose.hex == goal:
            return _chain(parent, pose)
        for step in steps(pose, spent, allowance):
            c = step.cost
            if c < 0:
                raise _negative(step, pose)
            total = spent + c
            if total > allowance:
                continue
            nxt = step.pose
            if step.ends_movement:
                old = ended_best.get(nxt)
                if nxt.hex == goal and (old is None or total < old):
                    ended_best[nxt] = total
                    ended_parent[nxt] = (pose, step)
                    push(heap, (total, seq, total, True, nxt))
                    seq += 1
                continue
            old = best.get(nxt)
            if old is None or total < old:
                best[nxt] = total
                parent[nxt] = (pose, step)
                push(heap, (total + distance(nxt.hex, goal), seq, total, False, nxt))
                seq += 1
    return None


def _chain(parent: Mapping[Pose, tuple[Pose, Step]], pose: Pose) -> list[Step]:
    steps: list[Step] = []
    while pose in parent:
        pose, step = parent[pose]
        steps.append(step)
    steps.reverse()
    return steps


def _matches(planned: Pose, actual: Pose) -> bool:
    return (
        planned.hex == actual.hex
        and planned.facing == actual.facing
        and (not planned.tag or planned.tag == actual.tag)
    )


def validate_path(
    start: Pose, steps_fn: StepFunction, allowance: int, plan: Sequence[Pose]
) -> list[Step]:
    """Check a planned chain of poses (the start not included) and return its steps.

    Each planned pose must be the result of a step the ruleset allows from the
    previous one, within the allowance, and nothing may follow a step that
    ends movement. A planned pose with an empty tag matches any tag. Where
    several chains fit, the cheapest is returned. ``ValueError`` explains the
    first step that cannot be made and why.
    """
    _check_start(start, allowance)
    # each candidate: pose -> (spent, ended, steps so far); dict order keeps it deterministic
    candidates: dict[tuple[Pose, bool], tuple[int, list[Step]]] = {(start, False): (0, [])}
    for number, target in enumerate(plan, start=1):
        if not isinstance(target, Pose):
            raise ValueError(f"step {number}: expected a Pose, got {target!r}")
        following: dict[tuple[Pose, bool], tuple[int, list[Step]]] = {}
        for (pose, ended), (spent, done) in candidates.items():
            if ended:
                continue
            for step in steps_fn(pose, spent, allowance):
                if step.cost < 0:
                    raise _negative(step, pose)
                total = spent + step.cost
                if total > allowance or not _matches(target, step.pose):
                    continue
                key = (step.pose, step.ends_movement)
                if key not in following or total < following[key][0]:
                    following[key] = (total, [*done, step])
        if not following:
            raise ValueError(
                f"step {number} to {target}: {_why_not(candidates, steps_fn, allowance, target)}"
            )
        candidates = following
    return min(candidates.values(), key=lambda item: item[0])[1]


def _why_not(
    candidates: Mapping[tuple[Pose, bool], tuple[int, list[Step]]],
    steps_fn: StepFunction,
    allowance: int,
    target: Pose,
) -> str:
    # explain from the cheapest chain that may still move, if any
    (pose, ended), (spent, done) = min(
        candidates.items(), key=lambda item: (item[0][1], item[1][0])
    )
    if ended:
        note = f" ({done[-1].note})" if done[-1].note else ""
        return f"movement already ended at {pose}{note}"
    offered = list(steps_fn(pose, spent, allowance))
    left = allowance - spent
    for step in offered:
        if _matches(target, step.pose):
            return f"{step.kind} costs {step.cost} but only {left} of {allowance} points are left"
    options = [s for s in offered if spent + s.cost <= allowance]
    allowed = "; ".join(f"{s.kind} to {s.pose} (cost {s.cost})" for s in options)
    return f"not a step allowed from {pose} with {left} points left; allowed: {allowed or 'none'}"


LOCKSTEP_POLICIES: tuple[str, ...] = ("stop_before", "priority")
"""Collision policies for :func:`lockstep`."""


def lockstep(
    paths: Mapping[str, Sequence[Hex]],
    *,
    policy: str = "stop_before",
    priority: Sequence[str] = (),
) -> dict[str, list[Hex]]:
    """Run simultaneous movement tick by tick and return the hexes each mover really walked.

    ``paths[id]`` starts with the mover's hex; at tick ``t`` it enters
    ``paths[id][t]`` (repeating a hex means waiting there). A mover stops for
    good, where it stands, when it would enter a hex held by a mover that
    stays this tick, when two movers would swap hexes, or when several would
    enter the same hex: with ``"stop_before"`` all of those stop; with
    ``"priority"`` the one listed first in ``priority`` goes on (if none is
    listed, all stop). Longer rotations (three or more movers each entering
    the hex the next one leaves) go ahead. Each result starts with the
    starting hex and is a prefix of the planned path.
    """
    if policy not in LOCKSTEP_POLICIES:
        raise ValueError(
            f"unknown lockstep policy {policy!r}; allowed: {', '.join(LOCKSTEP_POLICIES)}"
        )
    rank: dict[str, int] = {}
    for i, mover in enumerate(priority):
        if mover not in paths:
            raise ValueError(f"priority names {mover!r}, which has no path")
        rank.setdefault(mover, i)
    for mover, path in paths.items():
        if not path:
            raise ValueError(f"path of {mover!r} is empty; it must start with the mover's hex")
        for t in range(1, len(path)):
            if distance(path[t - 1], path[t]) > 1:
                raise ValueError(
                    f"path of {mover!r} jumps from {path[t - 1]} to {path[t]} at tick {t}; "
                    "each tick enters an adjacent hex or waits"
                )
    position = {mover: path[0] for mover, path in paths.items()}
    walked = {mover: [path[0]] for mover, path in paths.items()}
    stopped: set[str] = set()
    ticks = max((len(path) for path in paths.values()), default=0)
    for t in range(1, ticks):
        active = [m for m in paths if m not in stopped and t < len(paths[m])]
        moving = {m: paths[m][t] for m in active if paths[m][t] != position[m]}
        while True:
            held = {position[m] for m in paths if m not in moving}
            blocked = {m for m, target in moving.items() if target in held}
            blocked.update(
                m
                for m, target in moving.items()
                if any(position[o] == target and moving[o] == position[m] for o in moving)
            )
            if not blocked:
                blocked = _contention(moving, policy, rank)
            if not blocked:
                break
            for m in blocked:
                del moving[m]
                stopped.add(m)
        for m in active:
            if m not in stopped:
                position[m] = paths[m][t]
                walked[m].append(paths[m][t])
    return walked


def _contention(moving: Mapping[str, Hex], policy: str, rank: Mapping[str, int]) -> set[str]:
    by_target: dict[Hex, list[str]] = {}
    for m, target in moving.items():
        by_target.setdefault(target, []).append(m)
    losers: set[str] = set()
    for group in by_target.values():
        if len(group) < 2:
            continue
        listed = [m for m in group if m in rank]
        if policy == "priority" and listed:
            winner = min(listed, key=rank.__getitem__)
            losers.update(m for m in group if m != winner)
        else:
            losers.update(group)
    return losers
