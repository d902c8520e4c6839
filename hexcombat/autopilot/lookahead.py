"""Looking ahead from an imagined state: the step (or a few) played out with the side's best
plain actions and the foes' plain replies, on the autopilot's own dice.

A foe is modelled as a plain player (its first offered action aimed at a figure of another
side that rolls dice, the first answer offered to a prompt): what it may do is read from what
it is offered in the imagined state, never from its real hidden choices, so the look ahead
is as fair as the rest. Foes answer first in a step, the side's figures after (the worse
order for the side: it does not count on striking first).
"""

from __future__ import annotations

from dataclasses import dataclass

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import candidates, enemies
from hexcombat.autopilot.exact import exact_shift
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.scoring import (
    THREAT,
    Guesses,
    Temperament,
    guess_choice,
    imagine,
    settled,
    value,
)
from hexcombat.autopilot.stream import Stream
from hexcombat.state import GameState

FOLLOW_UP = 3
"""Candidates per offered action a figure of the side tries in a look ahead."""
OWN_TRIES = 8
"""Candidates one figure of the side tries for one action of a look ahead at most."""
PER_STEP = 3
"""Actions one figure takes in one step of a look ahead at most."""


@dataclass(frozen=True)
class Look:
    """Who looks ahead and how: the side, its temperament, its own dice, its guesses of
    the hidden choices of others and the decision's :class:`~.memo.Memo`."""

    side: str
    temper: Temperament
    rng: Stream
    guesses: Guesses
    memo: Memo

    def imagine(self, state: GameState, action: Action) -> tuple[GameState, bool] | None:
        """:func:`~.scoring.imagine` with this look's dice and guesses."""
        return imagine(state, action, self.side, self.rng, self.guesses, self.memo)

    def value(self, state: GameState) -> float:
        """How good ``state`` is for the side."""
        return value(state, self.side, self.temper, self.memo)

    def settled(self, state: GameState) -> GameState:
        """:func:`~.scoring.settled` with this look's dice and guesses."""
        return settled(state, self.side, self.rng, self.guesses, self.memo)


def plain_reply(look: Look, state: GameState, figure_id: str) -> GameState | None:
    """The state after ``figure_id``'s plain action (a foe's model): the first offered action
    aimed at another side's figure that rolls dice, else (for a prompt) the first answer the
    rules accept; None when it has nothing of the kind."""
    figure = state.figures[figure_id]
    foes = {f.id for f in enemies(state, figure.side)}
    answer = state.prompt is not None and state.prompt.figure == figure_id
    for spec in look.memo.legal(state, figure_id):
        for action in candidates(state, spec, look.rng, 1):
            aimed = any(isinstance(v, str) and v in foes for v in action.params.values())
            if not answer and not (aimed and look.memo.preview(state, action).rollables):
                continue
            after = look.imagine(state, action)
            if after is not None:
                return after[0]
    return None


def best_own(
    look: Look, state: GameState, figure_id: str, limit: int, hidden: bool = False
) -> GameState | None:
    """The side's figure's best action by the value it reaches (a hidden choice: once the
    step has ended; None: nothing better than standing, unless it must answer a prompt or
    choose), within about ``limit`` engine calls."""
    must = hidden or state.prompt is not None
    best: tuple[float, GameState] | None = None
    stay = -1e9 if must else look.value(state)
    start = look.memo.spent
    limit = min(limit, OWN_TRIES * (1 + hidden))
    for spec in look.memo.legal(state, figure_id):
        for action in candidates(state, spec, look.rng, FOLLOW_UP):
            if look.memo.spent - start >= limit:
                break
            tried = look.imagine(state, action)
            if tried is not None:
                score = look.value(tried[0])
                if look.memo.outcome(tried[0]) is None:
                    score += exact_shift(state, action, tried[0], look.side, look.temper, look.memo)
                if hidden or (not must and abs(score - stay) < 1e-9):
                    # a hidden choice, or what changed nothing yet (a planned move, carried
                    # out at the step's end): judged once the step has ended
                    score = look.value(look.settled(tried[0]))
                if score > stay + 1e-9 and (best is None or score > best[0]):
                    best = (score, tried[0])
    return best[1] if best else None


def play_out(
    look: Look, state: GameState, limit: int, steps: int = 1, passing: bool = False
) -> tuple[GameState, int]:
    """``state`` once up to ``steps`` step ends have passed with every figure acting (foes
    plainly, first; the side's figures at their best, none of them in this step when
    ``passing``), stopping at a new step of hidden choices, the fight's end or about
    ``limit`` engine calls; and the engine calls spent."""
    memo = look.memo
    start = memo.spent
    work, ended = state, 0
    acted: dict[str, int] = {}
    while memo.spent - start < limit and memo.outcome(work) is None:
        left = limit - (memo.spent - start)
        prompt = work.prompt
        if prompt is not None:
            fid = prompt.figure
            if work.figures[fid].side == look.side:
                after = best_own(look, work, fid, left)
            else:
                after = plain_reply(look, work, fid)
            if after is None:
                break
            work = after
            continue
        who = memo.acting(work)
        own = not (passing and not ended)
        if who.hidden:
            moved = _choose_hidden(look, work, who.waiting, left)
        else:
            moved = _one_each(look, work, left, acted, own)
        if moved is not None:
            work = moved
            continue
        if ended >= steps or not any(s.kind == "next_step" for s in memo.legal(work, None)):
            break
        ended_step = look.imagine(work, Action("next_step"))
        if ended_step is None:
            break
        work, ended, acted = ended_step[0], ended + 1, {}
    return work, memo.spent - start


def _choose_hidden(
    look: Look, state: GameState, waiting: tuple[str, ...], limit: int
) -> GameState | None:
    """A step of hidden choices in a play-out: the side's first figure still to choose
    makes its best choice (the others' guessed, so the step reveals), or, when only foes
    are left to choose, one of them makes a guessed plain choice; None when nobody waits."""
    mine = [fid for fid in waiting if state.figures[fid].side == look.side]
    if mine:
        return best_own(look, state, mine[0], limit, True)
    for fid in waiting:
        choice = guess_choice(state, fid, look.rng, look.memo)
        tried = look.imagine(state, choice) if choice is not None else None
        if tried is not None:
            return tried[0]
    return None


def _one_each(
    look: Look, state: GameState, limit: int, acted: dict[str, int], own: bool
) -> GameState | None:
    """One action of the first figure (foes first; the side's own only with ``own``) that
    still acts in this step, or None when none does; ``acted`` counts each figure's actions
    in the step."""
    order = sorted(state.figures.values(), key=lambda f: f.side == look.side)
    start = look.memo.spent
    for f in order:
        if (f.side == look.side and not own) or acted.get(f.id, 0) >= PER_STEP:
            continue
        if not look.memo.legal(state, f.id):
            continue
        acted[f.id] = PER_STEP if f.side != look.side else acted.get(f.id, 0) + 1
        if f.side == look.side:
            after = best_own(look, state, f.id, limit - (look.memo.spent - start))
        else:
            after = plain_reply(look, state, f.id)
        if after is not None:
            return after
        acted[f.id] = PER_STEP
    return None


def follow_up(look: Look, state: GameState, limit: int, steps: int = 4) -> tuple[float, int]:
    """The value of ``state`` once the table has played up to ``steps`` steps (the side's
    figures at their best, foes plainly): how a hidden choice, whose effect comes later, is
    judged; with a little for every figure of the side left offered a blow. Also the
    engine calls spent (about ``limit`` at most)."""
    work, spent = play_out(look, state, limit, steps)
    return look.value(work) + THREAT * threats(work, look.side, look.memo), spent


def threats(state: GameState, side: str, memo: Memo) -> int:
    """How many of the side's figures are offered an action aimed at a foe now."""
    foes = {f.id for f in enemies(state, side)}
    count = 0
    for fid, f in state.figures.items():
        if f.side != side:
            continue
        specs = memo.legal(state, fid)
        if any(c.value in foes for s in specs for p in s.params for c in p.choices):
            count += 1
    return count
