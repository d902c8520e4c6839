"""Moves of the autopilot a player would call a waste, counted as it plays: a missed blow
(the step ended, or a choice made that aims at no foe, while an offered blow had at least
even odds), a wander (a healthy figure moving away from every foe, aiming at none: out of
a foe's hex to the next, still at grips with it, is none), a blind stand (a move that
says it ends next to a foe with no foe in front, or a side done with the step leaving such
a figure unturned while it may turn where it stands or step beside a foe, where the
ruleset's ``facing`` hint says facing decides whom it may strike), a pick-up of another
figure's weapon while its own was offered in the same choice, and a move that does nothing
useful whose reason does not say so (or whom it waits for).

:class:`Watched` wraps a policy and counts its decisions into a :class:`Waste`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import candidates, enemies, hex_of
from hexcombat.autopilot.policy import Decision, Policy, Turn, aims_at_foe
from hexcombat.autopilot.scoring import health
from hexcombat.autopilot.stream import Stream
from hexcombat.figures import Figure, figure_distance
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
        "pickup": "picked up another's weapon over its own",
        "silent": "did nothing useful without saying so",
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
    if decision is not None and action is not None:
        if _picks_up_another_weapon(turn, state, action):
            found.append("pickup")
        if _silent(state, decision, aimed):
            found.append("silent")
    foes = enemies(state, turn.side)
    if decision is None:  # the side is done with the step: who stands blind now
        found += ["blind" for fid in turn.actors() if _blind_and_may_turn(turn, state, fid)]
    me = state.figures.get(action.figure) if action and action.figure else None
    to = hex_of(action.params.get("to")) if action else None
    if action is None or me is None or to is None or not foes:
        return found
    nearest = min(figure_distance(me, f) for f in foes)
    after = min(distance(to, h) for f in foes for h in f.hexes())
    if not aimed and after > max(nearest, 1) and health(state, me) >= HEALTHY:
        found.append("wander")  # out of a foe's hex to the next is still at grips
    facing = action.params.get("facing")
    near = [f for f in foes if any(h in neighbors(to) for h in f.hexes())]
    faced = isinstance(facing, int) and any(in_front_arc(to, facing, f.position) for f in near)
    if near and isinstance(facing, int) and not faced and _strikes_by_facing(state, me):
        found.append("blind")  # a move that says where it faces
    return found


def _blind_and_may_turn(turn: Turn, state: GameState, figure_id: str) -> bool:
    """Whether the figure stands next to a foe with none in front while it is offered an
    action that sets its facing where a foe is next to it (turning where it stands, or a
    step to a hex beside a foe): a turn it leaves unmade."""
    me = state.figures[figure_id]
    foes = enemies(state, turn.side)
    near = [f for f in foes if figure_distance(me, f) <= 1]
    if not near or not _strikes_by_facing(state, me):
        return False
    if any(in_front_arc(me.position, me.facing, f.position) for f in near):
        return False
    beside = {h for f in foes for h in neighbors(f.position)} - {h for f in foes for h in f.hexes()}
    for spec in turn.enc.legal_actions(figure_id):
        if not any(p.type == "facing" for p in spec.params):
            continue
        where = next((p for p in spec.params if p.type == "hex"), None)
        ends = [hex_of(c.value) for c in where.choices] if where else [me.position]
        if beside & set(ends):
            return True
    return False


def _strikes_by_facing(state: GameState, me: Figure) -> bool:
    """Whether turning may let ``me`` strike a foe it cannot strike as it faces: its
    ruleset's ``facing`` hint (default 1) says facing decides whom it may strike."""
    return state.ruleset.autopilot_hints(state, me).get("facing", 1.0) > 0


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


def _picks_up_another_weapon(turn: Turn, state: GameState, action: Action) -> bool:
    """Whether ``action`` takes an item that is none of the figure's own while the same
    choice offered one of its own weapons (its own is the one it is ranked with)."""
    me = state.figures.get(action.figure) if action.figure else None
    if me is None:
        return False
    own = {i.name for i in me.equipment if i.kind == "weapon"}
    carried = {i.name for i in me.equipment}
    others = {
        text
        for f in state.figures.values()
        if f.id != me.id
        for i in f.equipment
        for text in (i.name, f"{f.id}/{i.name}")
    }
    for spec in turn.enc.legal_actions(me.id):
        if spec.kind != action.kind:
            continue
        for param in spec.params:
            chosen = action.params.get(param.name)
            offered = {c.value for c in param.offered(action.params)}
            if not isinstance(chosen, str) or chosen in carried or chosen not in offered:
                continue
            if chosen not in others:  # no item (a 'none'), or no one else's
                continue
            if param.type == "choice" and own & offered:
                return True
    return False


def _silent(state: GameState, decision: Decision, aimed: bool) -> bool:
    """Whether ``decision`` gains nothing over leaving things be, rolls nothing and aims at
    no foe, and its reason says neither that it is no useful action nor whom it waits for
    (a plan made at once that leaves a contested hex to a foe: the contest module)."""
    if aimed or decision.numbers.get("score", 1.0) > 1e-9:
        return False
    if state.ruleset.preview(state, decision.action).rollables:
        return False
    return not any(said in decision.reason for said in ("nothing useful", "waits for"))
