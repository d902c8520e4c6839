"""A planned move's preview, the same in every ruleset that plans paths: its cost, the hexes
it enters, each step in the ruleset's words and the hexes still in reach."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hexcombat.actions import Action
from hexcombat.figures import Figure
from hexcombat.movement import Reach, Step
from hexcombat.rulesets.base import Preview


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
