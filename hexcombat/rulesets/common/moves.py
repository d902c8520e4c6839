"""Moves, the same in every ruleset that plans paths: the hexes a figure may move to, a
planned move's preview (its cost, the hexes it enters, each step in the ruleset's words and
the hexes still in reach) and a planned move as walked among figures moving together."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from hexcombat.actions import Action
from hexcombat.figures import Figure
from hexcombat.geometry import Hex
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Reach, Step
from hexcombat.rulesets.base import Preview
from hexcombat.schema import Choice
from hexcombat.validation import Json


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (the rest untouched)."""
    return text[:1].upper() + text[1:]


def path_preview(
    action: Action,
    figure: Figure,
    path: Sequence[Step],
    words: Callable[[Step], str],
    reach: Reach | None,
) -> Preview:
    """The preview of ``figure`` walking ``path``: each step told by ``words``, as a sentence;
    no reach highlight when ``reach`` is None."""
    return Preview(
        action,
        True,
        cost=sum(s.cost for s in path),
        path=(figure.position, *(s.pose.hex for s in path if s.kind == "move")),
        notes=tuple(sentence(words(s)) for s in path),
        highlights={"reach": tuple(reach.hex_costs())} if reach is not None else {},
    )


def destinations(figure: Figure, reach: Reach | None, *, here: str = "") -> tuple[Choice, ...]:
    """The hexes of ``reach`` as a move's choices, in hex order, each labelled with its cost in
    movement points; the figure's own hex only when ``here`` says what choosing it does."""
    costs = reach.hex_costs() if reach is not None else {}
    return tuple(
        Choice(str(h), f"{hex_label(h)} ({here if h == figure.position else f'{cost} MP'})")
        for h, cost in sorted(costs.items())
        if here or h != figure.position
    )


@dataclass(frozen=True)
class WalkedMove:
    """A planned move as walked among figures that move together (``movement.lockstep``):
    from ``start``, the planned ``poses`` tick by tick, and the hexes it ``walked``, which stop
    short of the plan where another figure is in the way."""

    start: Hex
    poses: Sequence[Pose]
    walked: Sequence[Hex]

    @property
    def ticks(self) -> int:
        """How many ticks of the plan it walked."""
        return len(self.walked) - 1

    @property
    def end(self) -> Pose:
        """Where it stands and faces at the end."""
        return self.poses[self.ticks]

    @property
    def cut(self) -> bool:
        """Whether another figure stopped it short of its plan."""
        return self.ticks < len(self.poses) - 1

    @property
    def entered(self) -> int:
        """How many hexes it entered (a tick in place enters none)."""
        return sum(1 for a, b in pairwise(self.walked) if a != b)

    def data(self, **more: Json) -> dict[str, Json]:
        """The move event's data: where from and to, the facing at the end, the hexes of the
        way and how many it entered, then the ruleset's own keys."""
        return {
            "from": str(self.start),
            "to": str(self.end.hex),
            "facing": self.end.facing,
            "path": [str(h) for h in self.walked],
            "hexes": self.entered,
            **more,
        }
