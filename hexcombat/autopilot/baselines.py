"""The baselines the autopilot is measured against: a uniformly random legal player and a
'rush the nearest foe and attack' player."""

from __future__ import annotations

from ..actions import Action
from ..figures import figure_distance
from ..geometry import distance
from ..state import GameState
from .candidates import candidates, hex_of, nearest_enemy
from .policy import Decision, Policy, Turn, aims_at_foe
from .scoring import imagine


class RandomPolicy(Policy):
    """A uniformly random legal player: any offered action of its figures (random offered
    values), or letting the step end, with equal chances."""

    name = "random"

    def choose(self, turn: Turn) -> Decision | None:
        rng = turn.rng(self.name)
        specs = [s for fid in turn.actors() for s in turn.enc.legal_actions(fid)]
        if not specs:
            return None
        pick = rng.randrange(len(specs) + (0 if turn.must_act else 1))
        if pick == len(specs):
            return None
        spec = specs[pick]
        seen = turn.seen()
        found = [a for a in candidates(seen, spec, rng, 12) if imagine(seen, a, turn.side, rng)]
        if not found:
            return self.fallback(turn) if turn.must_act else None
        return Decision(rng.choice(found), f"{spec.label} (at random)")


class RushPolicy(Policy):
    """Rush the nearest foe and attack: an action aimed at the nearest foe that rolls, else
    the move that closes in most, else (when it must) the first thing offered."""

    name = "rush"

    def choose(self, turn: Turn) -> Decision | None:
        rng = turn.rng(self.name)
        state = turn.seen()
        side = turn.side
        plain: list[Action] = []
        for fid in turn.actors():
            me = state.figures[fid]
            foe = nearest_enemy(state, me)
            firsts = [
                a
                for s in turn.enc.legal_actions(fid)
                for a in candidates(state, s, rng, 1)
                if imagine(state, a, side, rng) is not None
            ]
            plain += firsts
            for action in firsts:  # the plain candidate aims at the nearest foe
                preview = state.ruleset.preview(state, action)
                if preview.allowed and preview.rollables and aims_at_foe(state, action, side):
                    return Decision(action, "Rush: attack the nearest foe")
            if foe is None:
                continue
            gap = figure_distance(me, foe)
            for action in firsts:
                if "to" in action.params and _gap_after(state, action, foe.id) < gap:
                    return Decision(action, f"Rush: close in on {foe.name}")
        if turn.must_act and plain:
            return Decision(plain[0], "Rush: the first thing offered")
        return self.fallback(turn) if turn.must_act else None


def _gap_after(state: GameState, action: Action, foe_id: str) -> int:
    to = hex_of(action.params.get("to"))
    foe = state.figures[foe_id]
    if to is None:
        return 10**6
    return min(distance(to, h) for h in foe.hexes())
