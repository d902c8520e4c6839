"""Movement steps for the core search: terrain costs, turning limits and "remainder wasted".

The step function answers, for a pose and the movement points spent so far,
which steps a figure may take (``shared/rules/fig-percentile.md`` FP-8, FP-9,
FP-11 ... FP-13, G-12, G-17, G-18). A pose's ``tag`` remembers a turn made
since the last hex step: a figure that is not Slow may turn once between two
hex steps, one hexside free or two hexsides for 1 movement point (or, with the
``per_round`` reading of G-12, once in the whole round: the tag then stays on).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence

from hexcombat.board import Board
from hexcombat.geometry import DIRECTION_SHORT, Hex, neighbors
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Step, StepFunction

FACING_NAMES = DIRECTION_SHORT
"""Directions 0-5 as players read them on the flat-topped board."""

TURN_POLICIES = ("per_step", "per_round", "free")
"""``fp.turn_policy`` (G-12): the FP-9 limits per hex step, once a round, or no limits."""

TERRAIN_ENTRY = ("need_full_cost", "literal_one_left")
"""``fp.terrain_entry`` (G-17): need the full cost, or only "1 point left" stops entry."""

TURNED = ("t1", "t2")
"""Tags of a pose turned since the last hex step; such a pose is no place to end a move unless
the figure is Slow (G-12: a turn belongs to the step it precedes)."""

ROUND_TURNED = "r"
"""Tag of a pose after the round's one turn (``per_round``): no further turn this round."""


def _entering(
    board: Board, blocked: frozenset[Hex], terrain_entry: str, min_one_hex: bool, top: int
) -> Callable[[Pose, int, Hex, int, int, str], Iterator[Step]]:
    """The step into a neighbouring hex, if any: at its terrain cost (FP-13), or with the
    points left under the G-17 and G-18 options (see :func:`step_function`)."""

    def enter(
        pose: Pose, direction: int, nxt: Hex, spent: int, allowance: int, tag: str
    ) -> Iterator[Step]:
        if nxt in blocked or not board.contains(nxt):
            return
        terrain = board.terrain_at(nxt)
        cost = terrain.move_cost
        if cost is None:
            return
        left = allowance - spent
        after = Pose(nxt, direction, tag)
        if cost <= left:
            yield Step("move", after, cost, note=f"{terrain.name}, {cost} MP")
        elif terrain_entry == "literal_one_left" and left >= 2:
            yield Step(
                "move",
                after,
                left,
                ends_movement=True,
                note=f"{terrain.name} costs {cost}; enters with the {left} MP left (G-17)",
            )
        elif min_one_hex and spent == 0 and 1 <= top < cost and left >= 1:
            yield Step(
                "move",
                after,
                left,
                ends_movement=True,
                note=f"{terrain.name} costs {cost}, more than top speed {top}: "
                "enters with the whole allowance and stops (G-18)",
            )

    return enter


def step_function(
    board: Board,
    blocked: Collection[Hex],
    *,
    free_turns: bool,
    turn_once: bool = False,
    terrain_entry: str = "need_full_cost",
    min_one_hex: bool = True,
    top: int = 0,
) -> StepFunction:
    """The steps a figure may take from a pose (for :func:`hexcombat.movement.search`).

    ``blocked`` hexes cannot be entered (other figures, when the hex is full).
    ``free_turns``: the figure is Slow (FP-8) or turning is not limited, so it
    may face any way at no cost. Otherwise (FP-9, G-12) it steps only into its
    front hex and may turn before each step: one hexside free, two for 1 point;
    with ``turn_once`` (G-12 ``per_round``) only before one step of the round.
    A hex costing more than the points left cannot be entered (FP-13, G-17);
    ``terrain_entry="literal_one_left"`` lets a figure with 2 or more points
    left enter anyway, spending them all. ``min_one_hex`` (G-18) lets a figure
    whose top speed ``top`` is below a hex's cost enter one such hex with its
    whole allowance when it has spent nothing yet; both end its movement.
    """
    if terrain_entry not in TERRAIN_ENTRY:
        raise ValueError(
            f"unknown terrain entry rule {terrain_entry!r}; allowed: {', '.join(TERRAIN_ENTRY)}"
        )
    blocked = frozenset(blocked)

    enter = _entering(board, blocked, terrain_entry, min_one_hex, top)

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        around = neighbors(pose.hex)
        if free_turns:
            for direction, nxt in enumerate(around):
                yield from enter(pose, direction, nxt, spent, allowance, "")
            for facing in range(6):
                if facing != pose.facing:
                    yield Step("turn", Pose(pose.hex, facing), 0, note="free turn (Slow, FP-8)")
            return
        if pose.tag not in (*TURNED, ROUND_TURNED):
            for delta, tag, cost in ((1, "t1", 0), (-1, "t1", 0), (2, "t2", 1), (-2, "t2", 1)):
                facing = (pose.facing + delta) % 6
                note = "one hexside, free (FP-9)" if cost == 0 else "two hexsides, 1 MP (FP-9)"
                yield Step("turn", Pose(pose.hex, facing, tag), cost, note=note)
        turned = turn_once and pose.tag in (*TURNED, ROUND_TURNED)
        tag = ROUND_TURNED if turned else ""
        yield from enter(pose, pose.facing, around[pose.facing], spent, allowance, tag)

    return steps


def tick_poses(start: Pose, path: Sequence[Step]) -> list[Pose]:
    """The pose at each tick of simultaneous movement: one tick per movement point spent.

    A free turn happens within the current tick; a step costing ``c`` points
    waits ``c - 1`` ticks and then takes effect, so costly terrain is slow.
    """
    poses = [start]
    for step in path:
        if step.cost == 0:
            poses[-1] = step.pose
            continue
        poses.extend([poses[-1]] * (step.cost - 1))
        poses.append(step.pose)
    return poses


def describe_step(step: Step) -> str:
    """A step in plain words, e.g. ``enters D6 (Heavy woods, 2 MP)``."""
    if step.kind == "turn":
        return f"turns to {FACING_NAMES[step.pose.facing]} ({step.note})"
    return f"enters {hex_label(step.pose.hex)} ({step.note})"
