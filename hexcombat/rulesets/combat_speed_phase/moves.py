"""Half-phase movement steps for the core search (CSP-5, CSP-6, CSP-7, CSP-11, CSP-15).

A pose's ``tag`` is the figure's direction of motion relative to its facing
(``F``, ``FR``, ``BR``, ``B``, ``BL``, ``FL``; empty after a standstill, C-4),
then ``:k`` when backward and oblique hexes are counted (C-6 'count_hexes'),
then ``!d`` on a change that takes ``d`` more hexes from the next half (C-10).

Steps: a hex step in the direction of motion (any direction from a standstill:
starting is free, CSP-7) costs 1; a facing change costs N per hexside (C-3) and
keeps the relative direction of motion (so turning and then stepping forward is
charged once, E-1 option 2); a change of direction of motion costs N and moves
nothing (CSP-6, CSP-15), so it can be made in one half and the step in the next
(E-1 option 3, E-2 phase 3).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from hexcombat.board import Board
from hexcombat.geometry import DIRECTION_NAMES, Hex, neighbors
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Step, StepFunction
from hexcombat.rulesets.combat_speed_phase.speed import MAX_OBLIQUE_MULTIPLE, change_cost

RELATIVE = ("F", "FR", "BR", "B", "BL", "FL")
"""Directions relative to facing, in the order of :class:`~hexcombat.geometry.RelativeDirection`."""
RELATIVE_WORDS = dict(
    zip(
        RELATIVE,
        ("front", "front-right", "back-right", "back", "back-left", "front-left"),
        strict=True,
    )
)
"""The relative directions as a player reads them (never single letters)."""
FACING_NAMES = DIRECTION_NAMES


def motion_words(direction: str) -> str:
    """A direction of motion in words: 'front', 'back-left'; 'none' after a standstill."""
    return RELATIVE_WORDS.get(direction, "none")


@dataclass(frozen=True)
class Motion:
    """A pose tag read: direction of motion, backward/oblique hexes so far, debt (C-10)."""

    direction: str = ""
    oblique: int = 0
    debt: int = 0

    @classmethod
    def read(cls, tag: str) -> Motion:
        """Parse a pose tag."""
        rest, _, debt = tag.partition("!")
        direction, _, count = rest.partition(":")
        return cls(direction, int(count or 0), int(debt or 0))

    def tag(self, counting: bool) -> str:
        """The pose tag (the count only when counting, C-6)."""
        text = self.direction + (f":{self.oblique}" if counting and self.oblique else "")
        return text + (f"!{self.debt}" if self.debt else "")


@dataclass(frozen=True)
class MoveRules:
    """What a figure's steps in one half-phase depend on.

    ``n``/``cs``: the declared multiple and Combat Speed; ``facing_cost`` (C-3);
    ``forward``: relative directions that are forward (C-5); ``mixed`` (C-6);
    ``span_room``: hexes a change may take from the next half (C-10, 0: none);
    ``span_into``: that half in words (the next phase's first half with R-5).
    """

    n: int
    cs: int
    facing_cost: str = "per_hexside"
    forward: frozenset[str] = field(default_factory=lambda: frozenset({"F"}))
    mixed: str = "n_at_most_2"
    span_room: int = 0
    span_into: str = "the second half (C-10)"

    @property
    def counting(self) -> bool:
        """True when backward and oblique hexes are counted per phase (C-6 'count_hexes')."""
        return self.mixed == "count_hexes"

    def allows(self, direction: str, oblique: int) -> bool:
        """CSP-11, C-5, C-6: may the figure move in ``direction`` (relative) now?"""
        if direction in self.forward:
            return True
        if self.counting:
            return oblique + 1 <= MAX_OBLIQUE_MULTIPLE * self.cs
        return self.n <= MAX_OBLIQUE_MULTIPLE


def _change(
    rules: MoveRules, poses: tuple[Pose, Pose], cost: int, left: int, note: str
) -> Step | None:
    """A turn or a change of direction of motion costing ``cost`` with ``left`` hexes of the
    half: paid now, or begun now and finished from the start of the next half (C-10), or
    None when it cannot be made."""
    pose, after = poses
    if cost <= left:
        return Step("turn" if after.facing != pose.facing else "change", after, cost, note=note)
    more = cost - left
    if left >= 1 and more <= rules.span_room:
        m = Motion.read(after.tag)
        tagged = Pose(
            after.hex, after.facing, Motion(m.direction, m.oblique, more).tag(rules.counting)
        )
        kind = "turn" if after.facing != pose.facing else "change"
        return Step(
            kind,
            tagged,
            left,
            ends_movement=True,
            note=f"{note}; {left} now and {more} from the start of {rules.span_into}",
        )
    return None


def step_function(board: Board, blocked: Collection[Hex], rules: MoveRules) -> StepFunction:
    """The steps a figure may take from a pose in this half-phase (for the core search)."""
    blocked = frozenset(blocked)
    unit = change_cost(rules.n)
    counting = rules.counting

    def steps(pose: Pose, spent: int, allowance: int) -> Iterator[Step]:
        m = Motion.read(pose.tag)
        here = pose.hex
        if rules.facing_cost == "per_change":
            turns = [((pose.facing + k) % 6, unit) for k in (1, 5, 2, 4, 3)]
        else:
            turns = [((pose.facing + 1) % 6, unit), ((pose.facing + 5) % 6, unit)]
        for facing, cost in turns:
            after = Pose(here, facing, pose.tag)
            note = _turn_note(rules, pose.facing, facing)
            step = _change(rules, (pose, after), cost, allowance - spent, note)
            if step is not None:
                yield step
        if m.direction:
            for d in RELATIVE:
                if d != m.direction and rules.allows(d, m.oblique):
                    after = Pose(here, pose.facing, Motion(d, m.oblique).tag(counting))
                    note = (
                        f"direction of motion {motion_words(m.direction)} → {motion_words(d)}, "
                        f"{_hexes(unit)} at N = {rules.n}"
                    )
                    note += " (CSP-6)" if rules.n <= 1 else " (CSP-15)"
                    step = _change(rules, (pose, after), unit, allowance - spent, note)
                    if step is not None:
                        yield step
        if allowance - spent < 1:
            return
        around = neighbors(here)
        for i, d in enumerate(RELATIVE):
            if m.direction not in ("", d) or not rules.allows(d, m.oblique):
                continue
            nxt = around[(pose.facing + i) % 6]
            if nxt in blocked or not board.contains(nxt) or board.terrain_at(nxt).impassable:
                continue
            oblique = m.oblique + (0 if d in rules.forward else 1)
            start = " from a standstill, starting is free (CSP-7)" if not m.direction else ""
            yield Step(
                "move",
                Pose(nxt, pose.facing, Motion(d, oblique).tag(counting)),
                1,
                note=f"step to the {motion_words(d)}{start}",
            )

    return steps


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _turn_note(rules: MoveRules, before: int, after: int) -> str:
    unit = change_cost(rules.n)
    rule = "CSP-6" if rules.n <= 1 else "CSP-15"
    how = "per change" if rules.facing_cost == "per_change" else "one hexside"
    return (
        f"facing {FACING_NAMES[before]} → {FACING_NAMES[after]} ({how}), {_hexes(unit)} "
        f"at N = {rules.n} ({rule}, C-3)"
    )


def tick_poses(
    start: Pose, path: Sequence[Step], *, per_step: bool = False, wait: int = 0
) -> list[Pose]:
    """The pose at each tick of a half-phase (C-11, R-4): one tick per hex of movement spent.

    A step costing ``c`` waits ``c - 1`` ticks and then takes effect, so a turn at N = 3
    holds the figure in place for three ticks while others move; ``wait`` ticks go first
    (a turn finishing from the half before, C-10). ``per_step`` (R-4 'per_step'): every
    step takes one tick, whatever it costs, and nothing waits.

    >>> a, turn = Pose(Hex(0, 0), 0), [Step("turn", Pose(Hex(0, 0), 1), 3)]
    >>> len(tick_poses(a, turn)), len(tick_poses(a, turn, per_step=True))
    (4, 2)
    """
    poses = [start] * (1 + (0 if per_step else wait))
    for step in path:
        if not per_step:
            poses.extend([poses[-1]] * (step.cost - 1))
        poses.append(step.pose)
    return poses


def ticks_of(step: Step, per_step: bool) -> int:
    """Ticks a step takes (R-4): its cost, or one with ``per_step``."""
    return 1 if per_step else step.cost


def describe_step(step: Step) -> str:
    """A step in plain words, e.g. ``enters D5 (step to the front, 1 hex)``."""
    if step.kind == "move":
        return f"enters {hex_label(step.pose.hex)} ({step.note}, 1 hex)"
    if step.kind == "turn":
        return f"turns to {FACING_NAMES[step.pose.facing]}: {step.note}"
    return f"changes direction of motion: {step.note}"
