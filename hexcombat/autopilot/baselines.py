"""The baselines the autopilot is measured against: a uniformly random legal player, a
'rush the nearest foe and attack' player and a one-step greedy player that reads the
previews' expected harm."""

from __future__ import annotations

from fractions import Fraction

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import candidates, enemies, hex_of, nearest_enemy
from hexcombat.autopilot.explain import expected_damage
from hexcombat.autopilot.policy import Decision, Policy, Turn, aims_at_foe
from hexcombat.autopilot.scoring import imagine
from hexcombat.autopilot.stream import Stream
from hexcombat.errors import HexcombatError
from hexcombat.figures import figure_distance
from hexcombat.geometry import distance
from hexcombat.state import GameState


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


GREEDY_CANDIDATES = 12
"""Candidates the greedy player weighs per offered action."""
GREEDY_SAMPLES = 6
"""Imagined rolls of each answer to a prompt the greedy player weighs."""


class GreedyPolicy(Policy):
    """One step ahead, from its own side's view: the offered attack whose preview gives the
    highest expected harm (its damage amounts, else its chance to hit), else the offered
    hex nearest the nearest foe, else, asked to answer, the answer that leaves its side the
    least harm over a few imagined rolls; it lets the step end when none of these helps."""

    name = "greedy"

    def choose(self, turn: Turn) -> Decision | None:
        rng = turn.rng(self.name)
        seen = turn.seen()
        side = turn.side
        offered = [
            a
            for fid in turn.actors()
            for s in turn.enc.legal_actions(fid)
            for a in candidates(seen, s, rng, GREEDY_CANDIDATES)
        ]
        accepted = [a for a in offered if _allowed(seen, a)]
        if seen.prompt is not None and accepted:
            return _safest_answer(seen, accepted, side, rng)
        attack = _most_harm(seen, accepted, side)
        if attack is not None:
            return attack
        move = _nearest_the_foe(seen, accepted)
        if move is not None:
            return move
        if turn.must_act and accepted:
            return Decision(accepted[0], "Greedy: the first thing offered")
        return self.fallback(turn) if turn.must_act else None


def _allowed(seen: GameState, action: Action) -> bool:
    """Whether the rules allow ``action`` now: its preview does, and a choice made in secret
    passes the check it meets when it is made (as the encounter's own preview asks; a
    declared shot with nothing loaded is refused there, not by the ruleset's preview)."""
    if not seen.ruleset.preview(seen, action).allowed:
        return False
    try:
        seen.ruleset.check_choice(seen, action)
    except (HexcombatError, ValueError):
        return False
    return True


def _harm(seen: GameState, action: Action) -> Fraction:
    """What the action's preview promises: its expected damage where it names damage, else
    the chance of its first headline outcome."""
    preview = seen.ruleset.preview(seen, action)
    damage = [d for r in preview.rollables if (d := expected_damage(r)) is not None]
    if damage:
        return sum(damage, Fraction(0))
    heads = [h for r in preview.rollables if (h := r.headline()) is not None]
    return heads[0].chance if heads else Fraction(0)


def _most_harm(seen: GameState, actions: list[Action], side: str) -> Decision | None:
    """The attack on a foe with the highest expected harm (None when none promises any)."""
    aimed = [a for a in actions if aims_at_foe(seen, a, side)]
    scored = [(h, i, a) for i, a in enumerate(aimed) if (h := _harm(seen, a)) > 0]
    if not scored:
        return None
    harm, _i, best = max(scored, key=lambda t: (t[0], -t[1]))
    return Decision(best, f"Greedy: the most harm expected ({float(harm):.2f})")


def _nearest_the_foe(seen: GameState, actions: list[Action]) -> Decision | None:
    """The move whose hex is nearest a foe, when it comes nearer than the figure stands."""
    best: tuple[int, int, Action] | None = None
    for i, action in enumerate(actions):
        to = hex_of(action.params.get("to"))
        me = seen.figures.get(action.figure) if action.figure else None
        if to is None or me is None:
            continue
        foes = enemies(seen, me.side)
        if not foes:
            continue
        gap = min(distance(to, h) for f in foes for h in f.hexes())
        now = min(figure_distance(me, f) for f in foes)
        if gap < now and (best is None or (gap, i) < best[:2]):
            best = (gap, i, action)
    return None if best is None else Decision(best[2], "Greedy: close in on the nearest foe")


def _safest_answer(seen: GameState, answers: list[Action], side: str, rng: Stream) -> Decision:
    """The answer to a prompt that leaves the side's pools the fullest, on average over
    :data:`GREEDY_SAMPLES` imagined rolls each (the same luck for every answer)."""
    luck = [rng.randrange(1 << 30) for _ in range(GREEDY_SAMPLES)]
    best: tuple[float, int, Action] | None = None
    for i, action in enumerate(answers):
        kept = []
        for k in luck:
            after = imagine(seen, action, side, Stream(f"greedy:{k}"))
            if after is not None:
                kept.append(_pools(after[0], side))
        if kept:
            mean = sum(kept) / len(kept)
            if best is None or (-mean, i) < best[:2]:
                best = (-mean, i, action)
    if best is None:
        return Decision(answers[0], "Greedy: the first answer offered")
    return Decision(best[2], "Greedy: the answer that leaves its side the least harm")


def _pools(state: GameState, side: str) -> int:
    """The side's pool points left, figures out of the fight counting none."""
    return sum(
        p.current
        for f in state.figures.values()
        if f.side == side and not state.ruleset.is_out(state, f)
        for p in f.pools.values()
    )
