"""The autopilot: every candidate imagined once on the side's view with its own dice, then
the best few played out to the end of the step and the next (the foes replying plainly), the
best of those played if it does better than letting the step end."""

from __future__ import annotations

import time

from hexcombat.actions import Action, ActionSpec
from hexcombat.autopilot.blows import invited_blows
from hexcombat.autopilot.candidates import PER_SPEC, candidates
from hexcombat.autopilot.contest import destination, rival, staying, waits
from hexcombat.autopilot.exact import exact_shift
from hexcombat.autopilot.explain import Imagined, numbers, reason
from hexcombat.autopilot.lookahead import Look, follow_up, play_out
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.policy import Decision, Policy, Turn, aims_at_foe, view_text
from hexcombat.autopilot.scoring import TEMPERAMENTS, THREAT, Guesses, Temperament, settled, value
from hexcombat.autopilot.stream import Stream
from hexcombat.figures import Figure
from hexcombat.layout import hex_label
from hexcombat.state import GameState

BUDGET = 240
"""Engine calls per decision (imagined resolutions and offers worked out, :class:`~.memo.Memo`):
the anytime budget, counted and not timed, so a decision is the same on every machine."""
FIRST_SHARE = 0.5
"""The share of the budget the first look (every candidate once) may spend; the second look
(the best few played out) spends the rest."""
HIDDEN = 24
"""Candidates tried for a hidden choice (one figure's at a time)."""
HIDDEN_BUDGET = 2
"""A hidden choice's budget, in budgets: each candidate of its first look is judged by a
play-out, and its second look keeps its share (a first look that spent the whole budget left
one candidate to play out, so the second look compared nothing)."""
SECOND_LOOK = 3
"""Candidates (the best by the first look) played out to the end of the next step."""
SAMPLES = 2
"""Imagined play-outs of each of those (under the same luck for every candidate)."""
LOOK_STEPS = 2
"""Step ends a play-out goes through (this step's, then the next one's)."""
HIDDEN_STEPS = 6
"""Step ends a play-out after a hidden choice goes through (the choice acts later)."""
PASS_MARGIN = 0.05
"""How much better letting the step end must look than the best move for the side to pass:
a missed blow and a pass differ only by the play-outs' noise, and that noise must not
throw a free blow away. A hidden choice that is no blow (it rolls nothing and aims at no
foe: beginning a spell that cannot reach, say) that the step may end without is made only
when it looks better than passing, since it may spend what the next step's blow needs."""
GOOD_BLOW = 0.5
"""The chance to hit from which a blow at a foe is never passed up for a move that aims at
no foe (a hold, a dodge, the step's end) while its harm expected back is no greater than the
harm it is expected to deal: the play-outs' noise must not throw such a blow away."""
LOOK_LIMIT = 16
"""Engine calls in one play-out at most. 32 (longer play-outs, more of them the foes' plain
replies and the side's own guesses) lost skirmish's demo to the rush baseline: 0/3/1 on
seeds 1-4 where 16 wins 4/0/0."""

PLAY_OUT_FLOOR = 8
"""Engine calls a hidden choice's first-look play-out may always spend; the first look keeps
that many for the next candidate, so a small budget still compares two (with 20, the first
of combat-speed-phase's speeds, N = 0, spent it all: figures back to back that must turn to
strike declared N = 0, under which nobody turns, phase after phase)."""

Tried = tuple[ActionSpec, Action, list[Imagined]]


class Autopilot(Policy):
    """Scores every candidate by imagining it (own dice, the side's view), plays the best
    few out against the foes' plain replies and plays the best if it beats letting the step
    end; prompts and hidden choices the same way."""

    def __init__(
        self, temperament: str = "aggressive", budget: int = BUDGET, seconds: float | None = None
    ) -> None:
        self.temper: Temperament = TEMPERAMENTS[temperament]
        self.name = temperament
        self.budget = budget
        self.seconds = seconds
        """A time budget (anytime): once spent, no new candidate is imagined and the best so
        far is played. None (the default): the counted budget alone, the same everywhere."""

    def choose(self, turn: Turn) -> Decision | None:
        enc, side = turn.enc, turn.side
        text = view_text(enc, side, self.name)
        rng = Stream(text)
        seen = turn.seen()
        hidden = seen.prompt is None and seen.ruleset.who_acts(seen).hidden
        who = turn.actors()
        # hidden choices are made one figure at a time (each judged by what follows)
        specs = [s for fid in who[:1] if hidden for s in enc.legal_actions(fid)] or [
            s for fid in who for s in enc.legal_actions(fid)
        ]
        pool = [
            (s, a) for s in specs for a in candidates(seen, s, rng, HIDDEN if hidden else PER_SPEC)
        ]
        if not pool:
            return None
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        memo = Memo(self.budget * (HIDDEN_BUDGET if hidden else 1))
        tried = self._first_look(
            seen, side, text, _interleaved(pool, specs), hidden, memo, deadline
        )
        if not tried:
            return self.fallback(turn) if turn.must_act else None
        stay = value(settled(seen, side, Stream(f"{text}:0"), None, memo), side, self.temper, memo)
        ranked = sorted(tried, key=lambda t: -_mean(t[2]).score)
        blow = None if seen.prompt is not None else _good_blow(seen, side, tried)
        if not turn.must_act:  # what rolled no dice and gained nothing is not worth a look
            ranked = [t for t in ranked if t[2][0].samples or _mean(t[2]).score > stay + 1e-9]
            if not ranked:
                return self._decided(seen, side, blow, stay) if blow else None
        best: Tried = ranked[0]
        steps = HIDDEN_STEPS if hidden else LOOK_STEPS
        looked = self._second_look(seen, side, text, ranked[:SECOND_LOOK], steps, memo, deadline)
        if looked:
            best = max(looked, key=lambda t: _mean(t[2]).score)
            if not turn.must_act and not _past(deadline):
                passing = self._passing(seen, side, text, memo)
                score = _mean(best[2]).score
                if score < passing - PASS_MARGIN or (
                    hidden
                    and score <= passing + 1e-9
                    and not _blow(seen, best[1], side)
                    and any(s.kind == "next_step" for s in enc.legal_actions(None))
                ):
                    return self._decided(seen, side, blow, stay) if blow else None
        if blow is not None and not aims_at_foe(seen, best[1], side):
            best = blow
        met = rival(seen, best[0], best[1], side, memo, Stream(f"{text}:contest"))
        if met is not None:
            return self._met(
                seen,
                side,
                best,
                met,
                stay,
                Look(side, self.temper, Stream(f"{text}:stay"), {}, memo),
            )
        return self._decided(seen, side, best, stay)

    def _met(
        self, seen: GameState, side: str, best: Tried, foe: Figure, stay: float, look: Look
    ) -> Decision:
        """``best`` plans a move into the hex ``foe`` plainly plans to enter
        (:func:`~.contest.rival`): made when the draw both sides make alike has the foe wait
        (:func:`~.contest.waits`), else the figure stays, turned to meet the foe there (its
        numbers are the move's: the meeting is what waiting aims at)."""
        spec, action = best[0], best[1]
        me = seen.figures[str(action.figure)]
        to = destination(spec, action)
        chosen = self._decided(seen, side, best, stay)
        if to is None or not waits(seen, me, foe, to):
            return chosen
        kept = staying(seen, spec, me, to, look)
        if kept is None:
            return chosen
        why = (
            f"{spec.label} (stays at {hex_label(me.position)}): waits for {foe.name} to come "
            f"to {hex_label(to)}, which both may plan to enter (moves made together stop "
            "at a collision)"
        )
        return Decision(kept, why, chosen.numbers)

    def _decided(self, seen: GameState, side: str, best: Tried, stay: float) -> Decision:
        """The decision to play ``best``, explained, with its numbers (one that gains
        nothing over leaving things as they are, rolls nothing and aims at no foe is said
        to be no useful action)."""
        spec, action, runs = best
        seen_avg = _mean(runs)
        preview = seen.ruleset.preview(seen, action)
        gain = seen_avg.score - stay
        idle = gain <= 1e-9 and not preview.rollables and not aims_at_foe(seen, action, side)
        return Decision(
            action,
            reason(seen, spec, action, preview, seen_avg, idle),
            {**numbers(preview, seen_avg), "score": gain},
        )

    def _first_look(
        self,
        seen: GameState,
        side: str,
        text: str,
        pool: list[tuple[ActionSpec, Action]],
        hidden: bool,
        memo: Memo,
        deadline: float | None,
    ) -> list[Tried]:
        """Each candidate imagined once (within :data:`FIRST_SHARE` of the budget), all
        under the same luck (common random numbers): the candidates the rules accept, with
        what they showed."""
        tried: list[Tried] = []
        guesses: Guesses = {}
        budget = int(self.budget * FIRST_SHARE * (HIDDEN_BUDGET if hidden else 1))
        for i, (spec, action) in enumerate(pool):
            if tried and (memo.spent >= budget or _past(deadline)):
                break
            look = Look(side, self.temper, Stream(f"{text}:0"), guesses, memo)
            kept = PLAY_OUT_FLOOR if i + 1 < len(pool) else 0  # for the next candidate
            one = self._imagine(seen, action, look, hidden, budget - memo.spent - kept)
            if one is not None:
                tried.append((spec, action, [one]))
        return tried

    def _second_look(
        self,
        seen: GameState,
        side: str,
        text: str,
        best: list[Tried],
        steps: int,
        memo: Memo,
        deadline: float | None,
    ) -> list[Tried]:
        """The best candidates each played out :data:`SAMPLES` times through ``steps`` step
        ends (while the budget lasts), the k-th play-out of every one under the same luck
        (and the same guesses)."""
        looked: list[Tried] = []
        guesses: list[Guesses] = [{} for _ in range(SAMPLES)]
        for spec, action, _runs in best:
            if _past(deadline) or (looked and memo.left() <= 0):
                break
            runs = []
            for k in range(SAMPLES):
                look = Look(side, self.temper, Stream(f"{text}:{k}"), guesses[k], memo)
                one = self._played(seen, action, look, steps, steps == HIDDEN_STEPS)
                if one is not None:
                    runs.append(one)
            if runs:
                looked.append((spec, action, runs))
        return looked

    def _passing(self, seen: GameState, side: str, text: str, memo: Memo) -> float:
        """The value of letting the step end for the side, played out as the candidates are
        (the same luck)."""
        runs = [
            self._played(seen, None, Look(side, self.temper, Stream(f"{text}:{k}"), {}, memo))
            for k in range(SAMPLES)
        ]
        return _mean([r for r in runs if r is not None]).score

    def _played(
        self,
        seen: GameState,
        action: Action | None,
        look: Look,
        steps: int = LOOK_STEPS,
        hidden: bool = False,
    ) -> Imagined | None:
        """``action`` (None: letting the step end for the side) imagined and played out
        through ``steps`` step ends; a hidden choice also by the blows it invites."""
        if action is None:
            look.rng.child()  # what imagining an action would draw: the same luck afterwards
            start, rolled = seen, False
        else:
            after = look.imagine(seen, action)
            if after is None:
                return None
            start, rolled = after
        blows = invited_blows(look, start) if hidden else None
        end = play_out(look, start, LOOK_LIMIT, steps, action is None)[0]
        score = look.value(end) + (blows or 0.0)
        if action is not None:
            score += _shift(seen, action, start, end, look)
        return _exchange(seen, end, look.side, score, int(rolled))

    def _imagine(
        self, seen: GameState, action: Action, look: Look, hidden: bool, left: int
    ) -> Imagined | None:
        """One imagined outcome of ``action``; a hidden choice is judged by what follows
        (within ``left`` more engine calls) and by the blows it invites at their exact odds
        (:func:`~.blows.invited_blows`; none in sight: its own preview's chance against a
        foe)."""
        after = look.imagine(seen, action)
        if after is None:
            return None
        state, rolled = after
        if hidden:
            limit = max(PLAY_OUT_FLOOR, min(LOOK_LIMIT, left))
            blows = invited_blows(look, state)
            score, extra = follow_up(look, state, limit, HIDDEN_STEPS)
            if blows is None:  # no blows in sight: what the choice's own attack promises
                blows = self.temper.harm_done * THREAT * 2 * _aimed_chance(seen, action, look.side)
            score += blows
            return _exchange(seen, state, look.side, score, int(extra > 0))
        end = look.settled(state)
        score = look.value(end) + _shift(seen, action, state, end, look)
        return _exchange(seen, state, look.side, score, int(rolled))


def _exchange(seen: GameState, state: GameState, side: str, score: float, samples: int) -> Imagined:
    """What happened between ``seen`` and ``state``: pool points dealt and taken, whether a
    foe was put out of the fight, and the value reached."""
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
    return Imagined(dealt, taken, min(downs, 1.0), score, samples)


def _shift(seen: GameState, action: Action, after: GameState, end: GameState, look: Look) -> float:
    """:func:`~.exact.exact_shift` of the roll that made ``after``, while the fight goes on
    at ``end`` (a won or lost fight is worth the same whatever the roll)."""
    if look.memo.outcome(end) is not None:
        return 0.0
    return exact_shift(seen, action, after, look.side, look.temper, look.memo)


def _aimed_chance(seen: GameState, action: Action, side: str) -> float:
    """The chance its preview gives an action aimed at a foe (0 when it aims at none): what
    a declared attack promises before the step that strikes it."""
    if not aims_at_foe(seen, action, side):
        return 0.0
    heads = [r.headline() for r in seen.ruleset.preview(seen, action).rollables]
    return max((float(h.chance) for h in heads if h is not None), default=0.0)


def _good_blow(seen: GameState, side: str, tried: list[Tried]) -> Tried | None:
    """The best tried blow (by its first look) at a foe of at least :data:`GOOD_BLOW` to hit
    whose harm expected back is no greater than the harm it is expected to deal: what a
    player never passes up for a hold, a dodge or the step's end. None when there is none."""
    good = []
    for t in tried:
        if not aims_at_foe(seen, t[1], side):
            continue
        found = numbers(seen.ruleset.preview(seen, t[1]), t[2][0])
        if found.get("chance", 0.0) >= GOOD_BLOW and found["taken"] <= found["damage"]:
            good.append(t)
    return max(good, key=lambda t: t[2][0].score, default=None)


def _blow(seen: GameState, action: Action, side: str) -> bool:
    """Whether ``action`` rolls dice now or aims at a foe."""
    return aims_at_foe(seen, action, side) or bool(seen.ruleset.preview(seen, action).rollables)


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
