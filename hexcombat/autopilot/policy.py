"""Policies that play a side: the autopilot (with a temperament), a uniformly random legal
player and a 'rush the nearest foe and attack' baseline, each giving a :class:`Decision`."""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from ..actions import Action, ActionSpec
from ..encounter import Encounter
from ..errors import HexcombatError
from ..figures import figure_distance
from ..geometry import distance
from ..state import GameState
from .candidates import candidates, enemies, hex_of, nearest_enemy
from .explain import Imagined, numbers, reason
from .scoring import (
    TEMPERAMENTS,
    THREAT,
    Guesses,
    Temperament,
    follow_up,
    imagine,
    value,
    visible_state,
)
from .stream import Stream

BUDGET = 90
"""Imagined resolutions per decision: the anytime budget (counted, not timed, so a decision
is the same on every machine)."""
SAMPLES = 4
"""Imagined rolls of an action that rolls dice, when the budget allows."""
POLICIES = ("aggressive", "careful", "random", "rush")
"""Every policy by name: the autopilot's temperaments, then the two baselines."""


class UnknownPolicyError(HexcombatError):
    """A policy name that is not one of :data:`POLICIES`."""


@dataclass(frozen=True)
class Decision:
    """What a policy does for its side: one offered action, why, and its numbers."""

    action: Action
    reason: str
    numbers: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """Plain JSON for the page."""
        return {"action": self.action.to_json(), "reason": self.reason, "numbers": self.numbers}


def actors(enc: Encounter, side: str, figures: Collection[str] | None = None) -> list[str]:
    """The side's figures (or the chosen ones among them) offered an action now."""
    return [
        fid
        for fid, f in enc.state.figures.items()
        if f.side == side and (figures is None or fid in figures) and enc.legal_actions(fid)
    ]


def _view_text(enc: Encounter, side: str, name: str) -> str:
    """What the side sees, as text to seed the policy's own streams: the clock, the figures
    and its own hidden choices (never the dice, nor whether or what others chose in secret)."""
    seen = visible_state(enc.state, side)
    own = sorted(repr(a.to_json()) for a in seen.declarations.choices.values())
    figures = [repr(f.to_json()) for f in seen.figures.values()]
    asked = seen.prompt.id if seen.prompt else ""
    return f"{name}:{enc.setup.ruleset}:{side}:{seen.clock}:{asked}:{own}:{figures}"


def _rng(enc: Encounter, side: str, name: str) -> Stream:
    """The policy's own stream for this view."""
    return Stream(_view_text(enc, side, name))


class Policy:
    """Plays one side: :meth:`decide` gives an action, or None to let the step end."""

    name = ""

    def decide(
        self,
        enc: Encounter,
        side: str,
        must_act: bool = False,
        figures: Collection[str] | None = None,
    ) -> Decision | None:
        """The side's next action; None to pass (never None with ``must_act`` while the
        side is offered anything)."""
        raise NotImplementedError

    def fallback(
        self, enc: Encounter, side: str, figures: Collection[str] | None = None
    ) -> Decision | None:
        """Any offered action the rules accept, searched widely: what a side that must act
        does when its own picks were all refused."""
        rng = _rng(enc, side, "fallback")
        seen = visible_state(enc.state, side)
        for fid in actors(enc, side, figures):
            for spec in enc.legal_actions(fid):
                for action in candidates(seen, spec, rng, 60):
                    if imagine(seen, action, side, rng) is not None:
                        return Decision(action, f"{spec.label}: the only move found")
        return None


class Autopilot(Policy):
    """Scores every candidate by imagining it (own dice, the side's view) and plays the best
    if it beats letting the step end; prompts and hidden choices the same way."""

    def __init__(
        self, temperament: str = "aggressive", budget: int = BUDGET, seconds: float | None = None
    ) -> None:
        self.temper: Temperament = TEMPERAMENTS[temperament]
        self.name = temperament
        self.budget = budget
        self.seconds = seconds
        """A time budget (anytime): once spent, no new candidate is imagined and the best so
        far is played. None (the default): the counted budget alone, the same everywhere."""

    def decide(
        self,
        enc: Encounter,
        side: str,
        must_act: bool = False,
        figures: Collection[str] | None = None,
    ) -> Decision | None:
        text = _view_text(enc, side, self.name)
        rng = Stream(text)
        seen = visible_state(enc.state, side)
        hidden = seen.prompt is None and seen.ruleset.who_acts(seen).hidden
        who = actors(enc, side, figures)
        # hidden choices are made one figure at a time (each judged by what follows)
        specs = [s for fid in who[:1] if hidden for s in enc.legal_actions(fid)] or [
            s for fid in who for s in enc.legal_actions(fid)
        ]
        pool = [(s, a) for s in specs for a in candidates(seen, s, rng)]
        if not pool:
            return None
        pool = _interleaved(pool, specs)
        stay = value(seen, side, self.temper)
        tried: list[tuple[ActionSpec, Action, list[Imagined]]] = []
        spent = 0
        guesses: Guesses = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for spec, action in pool:
            if tried and (spent >= self.budget or _past(deadline)):
                break
            spent += 1
            # the k-th imagining of every candidate rolls the same dice (common random
            # numbers): candidates are compared under the same luck
            luck = Stream(f"{text}:0")
            one = self._imagine(seen, action, side, luck, guesses, hidden, self.budget - spent)
            if one is not None:
                spent += one.samples  # imagined follow-up resolutions count too
                tried.append((spec, action, [replace(one, samples=int(one.samples > 0))]))
        ranked = sorted(tried, key=lambda t: -_mean(t[2]).score)
        for _spec, action, runs in ranked[:6]:
            while (
                not hidden
                and len(runs) < SAMPLES
                and runs[0].samples
                and spent < 2 * self.budget
                and not _past(deadline)
            ):
                spent += 1
                luck = Stream(f"{text}:{len(runs)}")
                more = self._imagine(seen, action, side, luck, guesses, False, 0)
                if more is None:
                    break
                runs.append(more)
        if not tried:
            return self.fallback(enc, side, figures) if must_act else None
        spec, action, runs = max(tried, key=lambda t: _mean(t[2]).score)
        seen_avg = _mean(runs)
        if not must_act and seen_avg.score <= stay + 1e-9:
            return None
        preview = seen.ruleset.preview(seen, action)
        return Decision(
            action,
            reason(seen, spec, action, preview, seen_avg),
            {**numbers(preview, seen_avg), "score": seen_avg.score - stay},
        )

    def _imagine(
        self,
        seen: GameState,
        action: Action,
        side: str,
        rng: Stream,
        guesses: Guesses,
        hidden: bool,
        left: int,
    ) -> Imagined | None:
        """One imagined outcome of ``action``; a hidden choice is judged by what follows
        (within ``left`` more resolutions) and by its own preview's chance against a foe."""
        after = imagine(seen, action, side, rng, guesses)
        if after is None:
            return None
        state, rolled = after
        extra = 0
        if hidden:
            score, extra = follow_up(state, side, self.temper, rng, guesses, max(8, left))
            score += self.temper.harm_done * THREAT * 2 * _aimed_chance(seen, action, side)
        dealt = taken = downs = 0.0
        ruleset = seen.ruleset
        for fid, before in seen.figures.items():
            now = state.figures.get(fid)
            if now is None:
                continue
            lost = sum(
                max(0, p.current - now.pools[n].current)
                for n, p in before.pools.items()
                if n in now.pools
            )
            if before.side == side:
                taken += lost
            else:
                dealt += lost
                if not ruleset.is_out(seen, before) and ruleset.is_out(state, now):
                    downs += 1
        if not hidden:
            score = value(state, side, self.temper)
        return Imagined(dealt, taken, min(downs, 1.0), score, extra or int(rolled))


def _aimed_chance(seen: GameState, action: Action, side: str) -> float:
    """The chance its preview gives an action aimed at a foe (0 when it aims at none): what
    a declared attack promises before the step that strikes it."""
    if not _aims_at_foe(seen, action, side):
        return 0.0
    heads = [r.headline() for r in seen.ruleset.preview(seen, action).rollables]
    return max((float(h.chance) for h in heads if h is not None), default=0.0)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _mean(runs: list[Imagined]) -> Imagined:
    n = len(runs)
    return Imagined(
        sum(r.dealt for r in runs) / n,
        sum(r.taken for r in runs) / n,
        sum(r.downs for r in runs) / n,
        sum(r.score for r in runs) / n,
        runs[0].samples,
    )


def _interleaved(
    pool: list[tuple[ActionSpec, Action]], specs: list[ActionSpec]
) -> list[tuple[ActionSpec, Action]]:
    """Each spec's first candidate, then each one's second, ...: a cut budget still tries
    every offered action once."""
    rows: dict[int, list[tuple[ActionSpec, Action]]] = {}
    for spec, action in pool:
        rows.setdefault(id(spec), []).append((spec, action))
    longest = max(len(r) for r in rows.values())
    return [r[i] for i in range(longest) for r in rows.values() if i < len(r)]


class RandomPolicy(Policy):
    """A uniformly random legal player: any offered action of its figures (random offered
    values), or letting the step end, with equal chances."""

    name = "random"

    def decide(
        self,
        enc: Encounter,
        side: str,
        must_act: bool = False,
        figures: Collection[str] | None = None,
    ) -> Decision | None:
        rng = _rng(enc, side, self.name)
        specs = [s for fid in actors(enc, side, figures) for s in enc.legal_actions(fid)]
        if not specs:
            return None
        pick = rng.randrange(len(specs) + (0 if must_act else 1))
        if pick == len(specs):
            return None
        spec = specs[pick]
        seen = visible_state(enc.state, side)
        found = [a for a in candidates(seen, spec, rng, 12) if imagine(seen, a, side, rng)]
        if not found:
            return self.fallback(enc, side, figures) if must_act else None
        return Decision(rng.choice(found), f"{spec.label} (at random)")


class RushPolicy(Policy):
    """Rush the nearest foe and attack: an action aimed at the nearest foe that rolls, else
    the move that closes in most, else (when it must) the first thing offered."""

    name = "rush"

    def decide(
        self,
        enc: Encounter,
        side: str,
        must_act: bool = False,
        figures: Collection[str] | None = None,
    ) -> Decision | None:
        rng = _rng(enc, side, self.name)
        state = visible_state(enc.state, side)
        plain: list[Action] = []
        for fid in actors(enc, side, figures):
            me = state.figures[fid]
            foe = nearest_enemy(state, me)
            specs = enc.legal_actions(fid)
            firsts = [
                a
                for s in specs
                for a in candidates(state, s, rng, 1)
                if imagine(state, a, side, rng) is not None
            ]
            plain += firsts
            for action in firsts:  # the plain candidate aims at the nearest foe
                preview = state.ruleset.preview(state, action)
                if preview.allowed and preview.rollables and _aims_at_foe(state, action, side):
                    return Decision(action, "Rush: attack the nearest foe")
            if foe is None:
                continue
            gap = figure_distance(me, foe)
            for action in firsts:
                if "to" in action.params and _gap_after(state, action, foe.id) < gap:
                    return Decision(action, f"Rush: close in on {foe.name}")
        if must_act and plain:
            return Decision(plain[0], "Rush: the first thing offered")
        return self.fallback(enc, side, figures) if must_act else None


def _aims_at_foe(state: GameState, action: Action, side: str) -> bool:
    foes = {f.id for f in enemies(state, side)}
    return any(isinstance(v, str) and v in foes for v in action.params.values())


def _gap_after(state: GameState, action: Action, foe_id: str) -> int:
    to = hex_of(action.params.get("to"))
    foe = state.figures[foe_id]
    if to is None:
        return 10**6
    return min(distance(to, h) for h in foe.hexes())


def make_policy(name: str) -> Policy:
    """A policy by name (:data:`POLICIES`)."""
    if name in TEMPERAMENTS:
        return Autopilot(name)
    if name == "random":
        return RandomPolicy()
    if name == "rush":
        return RushPolicy()
    raise UnknownPolicyError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
