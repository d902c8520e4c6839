"""Moves of the autopilot a player would call a waste, counted as it plays: a missed blow
(the step ended, or a choice made that aims at no foe, while an offered blow had at least
even odds), a wander (a healthy figure moving away from every foe) and a blind stand (a move
that ends next to a foe with no foe in front).

:class:`Watched` wraps a policy and counts its decisions into a :class:`Waste`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from hexcombat.autopilot.candidates import candidates, enemies, hex_of
from hexcombat.autopilot.policy import Decision, Policy, Turn, aims_at_foe
from hexcombat.autopilot.scoring import health
from hexcombat.autopilot.stream import Stream
from hexcombat.figures import figure_distance
from hexcombat.geometry import distance, in_front_arc, neighbors
from hexcombat.state import GameState

EVEN = 0.5
"""The chance to hit at which passing up a blow counts as a waste."""
HEALTHY = 0.75
"""The health at which moving away from every foe counts as wandering."""


@dataclass
class Waste:
    """Counts of wasted decisions, by kind (:attr:`LABELS`), over ``decisions``."""

    LABELS: ClassVar[dict[str, str]] = {
        "missed_blow": "blow of 50%+ passed up",
        "wander": "healthy figure moved away from every foe",
        "blind": "ended next to a foe facing none",
    }
    decisions: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        """One more wasted decision of ``kind``."""
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def add(self, other: Waste) -> None:
        """Fold ``other``'s counts into these."""
        self.decisions += other.decisions
        for kind, n in other.counts.items():
            self.counts[kind] = self.counts.get(kind, 0) + n


class Watched(Policy):
    """``inner``'s decisions, each judged into ``waste`` before it is played."""

    def __init__(self, inner: Policy, waste: Waste) -> None:
        self.inner = inner
        self.name = inner.name
        self.waste = waste

    def choose(self, turn: Turn) -> Decision | None:
        decision = self.inner.choose(turn)
        self.waste.decisions += 1
        for kind in judged(turn, decision):
            self.waste.count(kind)
        return decision


def judged(turn: Turn, decision: Decision | None) -> list[str]:
    """The kinds of waste ``decision`` (None: the step let end) shows in ``turn``."""
    state = turn.seen()
    if state.prompt is not None:
        return []
    found: list[str] = []
    action = decision.action if decision else None
    aimed = action is not None and aims_at_foe(state, action, turn.side)
    if not aimed and _best_blow(turn, state) >= EVEN:
        found.append("missed_blow")
    me = state.figures.get(action.figure) if action and action.figure else None
    to = hex_of(action.params.get("to")) if action else None
    foes = enemies(state, turn.side)
    if me is None or to is None or not foes:
        return found
    nearest = min(figure_distance(me, f) for f in foes)
    after = min(distance(to, h) for f in foes for h in f.hexes())
    if after > nearest and health(state, me) >= HEALTHY:
        found.append("wander")
    facing = action.params.get("facing", me.facing) if action else me.facing
    near = [f for f in foes if any(h in neighbors(to) for h in f.hexes())]
    faced = isinstance(facing, int) and any(in_front_arc(to, facing, f.position) for f in near)
    if near and not faced:
        found.append("blind")
    return found


def _best_blow(turn: Turn, state: GameState) -> float:
    """The best chance to hit of an offered action aimed at a foe (0 when none is)."""
    rng = Stream("waste")
    best = 0.0
    for fid in turn.actors():
        for spec in turn.enc.legal_actions(fid):
            for action in candidates(state, spec, rng, 6):
                if not aims_at_foe(state, action, turn.side):
                    continue
                preview = state.ruleset.preview(state, action)
                if not preview.allowed:
                    continue
                heads = [h for r in preview.rollables if (h := r.headline()) is not None]
                if heads:
                    best = max(best, float(heads[0].chance))
    return best
