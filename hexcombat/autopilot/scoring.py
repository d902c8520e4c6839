"""How good a state is for a side, and what an action would likely do, from that side's view.

An action is imagined on a copy of the state the side may see (:func:`visible_state`:
other sides' undeclared hidden choices removed) with the autopilot's own dice (a child of
its :class:`~.stream.Stream`), never the encounter's: the dice to come stay unknown.
Hidden choices of others are guessed from what they are offered (information-set
sampling).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from hexcombat import secrets
from hexcombat.actions import Action
from hexcombat.autopilot.candidates import candidates, enemies
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.routes import route_gap
from hexcombat.autopilot.stream import Stream
from hexcombat.errors import HexcombatError
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import in_front_arc
from hexcombat.secrets import Viewer
from hexcombat.state import GameState

THREAT = 0.1
"""What a figure offered an action aimed at a foe is worth in a follow-up (a readied weapon,
a foe in reach)."""
FACING = 0.08
"""What facing a foe (and standing outside its front) is worth: every foe at grips (the
nearest when none is), so that no foe stands behind a figure."""
ENGAGED = 0.1
"""What a figure next to a foe is worth to a side that is not falling back: it can strike
next (the usual reach of a blow), which one look ahead does not see."""
UNARMED = 0.25
"""What a figure of the side loses carrying a weapon but holding none ready (or, by the
ruleset's ``unready`` hint, not ready to strike at its best): the blows it cannot strike
later (readying one is otherwise worth nothing until a blow it allows, past the look ahead,
so a figure never drew its weapon, nor picked up a dropped one)."""
DOWN = 0.5
"""What a foe out of the fight is worth beyond the health it had, against 1 for a foe unhurt:
a foe down strikes no more, so blows go to the foe closest to falling rather than spread
(the same damage spread over three foes left all three striking)."""
FOCUS = 0.25
"""How keenly (against closing in on its nearest foe) a figure closes in on the side's focus:
the foe nearest the side as a whole (ties: the most hurt), so blows land on one foe. Skirmish's
demo against rush, seeds 1-80: 40/30/10 with it, 34/40/6 without (0.5: 35/34/11)."""
OUTNUMBERED = 0.1
"""What each foe beyond one at grips with a figure costs its side (and gains the side when it
is the foe that stands alone against two): a figure that runs ahead of its own into two foes
takes both their blows, and blows on one foe from two figures fell it sooner."""
WIN = 20.0
"""What winning the fight is worth, against about 1 for each figure in it."""


@dataclass(frozen=True)
class Temperament:
    """How a side plays (after MegaMek's Princess): how much harm done counts against harm
    taken, how keenly it closes in, and below which health a figure falls back."""

    id: str
    label: str
    harm_done: float
    harm_taken: float
    approach: float
    retreat_below: float


TEMPERAMENTS = {
    "aggressive": Temperament("aggressive", "Aggressive", 1.4, 0.8, 0.03, 0.0),
    "careful": Temperament("careful", "Careful", 1.0, 1.4, 0.015, 0.4),
}
"""The temperaments a side may be played with, by id."""


def health(state: GameState, figure: Figure, memo: Memo | None = None) -> float:
    """0 (out of the fight) to 1 (unhurt): the share of its pools it still has, or the
    ruleset's hint."""
    if state.ruleset.is_out(state, figure):
        return 0.0
    hinted = _hints(state, figure, memo).get("health")
    if hinted is not None:
        return max(0.0, min(1.0, hinted))
    pools = [p for p in figure.pools.values() if p.maximum > 0]
    if not pools:
        return 1.0
    return sum(max(0, p.current) / p.maximum for p in pools) / len(pools)


def pace(state: GameState, figure: Figure, memo: Memo | None = None) -> float:
    """Hexes the figure may cover in its next move as it moves now: the ruleset's hint
    ``pace`` (at least 1), else 1; the gap to its foe counts in such moves."""
    return max(1.0, _hints(state, figure, memo).get("pace", 1.0))


def worth(state: GameState, figure: Figure, memo: Memo | None = None) -> float:
    """What a figure in the fight is worth: 1, or the ruleset's hint."""
    return _hints(state, figure, memo).get("worth", 1.0)


def value(state: GameState, side: str, temper: Temperament, memo: Memo | None = None) -> float:
    """How good ``state`` is for ``side``: its figures' health against the foes', a won or
    lost fight, and standing (closing in, or falling back when badly hurt)."""
    memo = memo or Memo()
    outcome = memo.outcome(state)
    if outcome is not None and outcome.winner is not None:
        return WIN if outcome.winner == side else -WIN
    score = 0.0
    foes = enemies(state, side)
    mine = [f for f in state.living() if f.side == side]
    focus = min(
        foes,
        key=lambda e: (sum(figure_distance(m, e) for m in mine), health(state, e, memo)),
        default=None,
    )
    for f in state.figures.values():
        h = health(state, f, memo)
        standing = math.sqrt(h)  # a hurt figure's last points count most: focus on it
        if f.side == side:
            score += temper.harm_taken * worth(state, f, memo) * standing
            if h and foes:
                foe = min(foes, key=lambda e: figure_distance(f, e))
                lean = temper.approach if h >= temper.retreat_below else -temper.approach
                gap = figure_distance(f, foe)
                dearest = _hints(state, f, memo).get("dearest")
                score -= lean * route_gap(state, f, foe, dearest) / pace(state, f, memo)
                if focus is not None and lean > 0:
                    score -= lean * FOCUS * figure_distance(f, focus)
                if h >= temper.retreat_below:  # at grips with foes, facing them
                    near = [e for e in foes if figure_distance(f, e) <= 1] or [foe]
                    score += FACING * sum(_facing(f, e) for e in near)
                    score += ENGAGED if gap <= 1 else 0.0
            if h:
                score -= UNARMED * unready(state, f, memo)
        else:
            score -= temper.harm_done * worth(state, f, memo) * (standing if h else -DOWN)
    return score + OUTNUMBERED * (_odds_at_grips(foes, mine) - _odds_at_grips(mine, foes))


def _odds_at_grips(figures: list[Figure], against: list[Figure]) -> int:
    """How many more of ``against`` than one stand next to each of ``figures``, summed: the
    blows beyond one a figure faces alone."""
    return sum(max(0, sum(1 for e in against if figure_distance(f, e) <= 1) - 1) for f in figures)


def unready(state: GameState, figure: Figure, memo: Memo | None = None) -> float:
    """0 (ready to strike at its best) to 1: the ruleset's hint ``unready`` (two-action-2d10:
    a dropped weapon, lying prone), else 1 when it carries a weapon but holds none ready."""
    hinted = _hints(state, figure, memo).get("unready")
    if hinted is not None:
        return max(0.0, min(1.0, hinted))
    return 1.0 if _unarmed(figure) else 0.0


def _unarmed(f: Figure) -> bool:
    """Whether ``f`` carries a weapon but has none ready (in hand)."""
    return any(i.kind == "weapon" for i in f.equipment) and not f.ready_items("weapon")


def _facing(f: Figure, foe: Figure) -> float:
    """1 when ``foe`` is in front of ``f`` and ``f`` is not in front of ``foe`` (its flank or
    rear), 0.5 when they face each other, a share of that when ``f`` is a turn or two from
    facing ``foe`` (:func:`_turned_to`), else 0: turning to the foe, getting behind it."""
    mine = _turned_to(f, foe)
    theirs = in_front_arc(foe.position, foe.facing, f.position)
    return mine * (0.5 + (0.0 if theirs else 0.5))


def _turned_to(f: Figure, foe: Figure) -> float:
    """1 when ``foe`` is in ``f``'s front arc, 1/3 when one hexside's turn would bring it
    there, else 0: a turn that takes two moves (a figure whose move allows one hexside at a
    time) is begun, not judged worthless until it is done."""
    if in_front_arc(f.position, f.facing, foe.position):
        return 1.0
    one = any(in_front_arc(f.position, (f.facing + k) % 6, foe.position) for k in (1, 5))
    return 1 / 3 if one else 0.0


def _hints(state: GameState, figure: Figure, memo: Memo | None) -> Mapping[str, float]:
    """The ruleset's hints about ``figure``, kept by ``memo`` when there is one."""
    if memo is None:
        return state.ruleset.autopilot_hints(state, figure)
    return memo.hints(state, figure)


def visible_state(state: GameState, side: str) -> GameState:
    """A copy of ``state`` as ``side`` may know it (:func:`hexcombat.secrets.visible_state`):
    other sides' secrets are taken out, and a guess stands in for them when needed."""
    return secrets.visible_state(state, Viewer(side))


Guesses = dict[tuple[int, str], tuple[GameState, Action | None]]
"""Guessed hidden choices by (state, figure), kept through one decision (the state is held
so that its id stays its own)."""


def imagine(
    seen: GameState,
    action: Action,
    side: str,
    rng: Stream,
    guesses: Guesses | None = None,
    memo: Memo | None = None,
) -> tuple[GameState, bool] | None:
    """The state after ``action`` on ``seen`` with imagined dice, and whether it rolled any;
    in a hidden step every other figure still to choose gets a guessed choice first, so the
    step reveals. None when the rules refuse the action. One engine call of ``memo``."""
    memo = memo or Memo()
    memo.spent += 1
    work = seen.copy()
    ruleset = work.ruleset
    try:
        acting = memo.acting(seen) if work.prompt is None else None
        if action.figure is not None and acting is not None and acting.hidden:
            for fid in acting.waiting:
                if fid == action.figure:
                    continue
                key = (id(seen), fid)
                if guesses is None or key not in guesses:
                    found = (seen, guess_choice(seen, fid, rng, memo))
                    if guesses is not None:
                        guesses[key] = found
                guess = (guesses[key] if guesses is not None else found)[1]
                if guess is not None:
                    work.declarations.declare(guess)
        dice = rng.child()  # the autopilot's own dice, never the encounter's
        ruleset.resolve(work, action, dice)
    except (HexcombatError, ValueError, AssertionError):
        # AssertionError: a ruleset's own check that failed on these imagined dice (a bug
        # of that ruleset, reported); the move is not played, as if refused
        return None
    return work, bool(dice.rolls)


def settled(
    state: GameState,
    side: str,
    rng: Stream,
    guesses: Guesses | None = None,
    memo: Memo | None = None,
) -> GameState:
    """``state`` once the table has ended the step, when it may: what a planned action (a
    move carried out at the step's end) comes to. ``state`` itself when the step cannot end
    yet (a prompt, figures still to act) or the fight is over."""
    memo = memo or Memo()
    if state.prompt is not None or memo.outcome(state) is not None:
        return state
    if not any(s.kind == "next_step" for s in memo.legal(state, None)):
        return state
    after = imagine(state, Action("next_step"), side, rng, guesses, memo)
    return state if after is None else after[0]


def guess_choice(
    state: GameState, figure_id: str, rng: Stream, memo: Memo | None = None
) -> Action | None:
    """A hidden choice another figure might make: a plain one (its first offered action's
    first values, as a player who goes straight at the nearest foe), else any it is offered
    that the rules accept (its real choice, if made, is never looked at)."""
    guesses = [
        a for s in (memo or Memo()).legal(state, figure_id) for a in candidates(state, s, rng, 4)
    ]
    plain, rest = guesses[:1], guesses[1:]
    rng.shuffle(rest)
    for guess in plain + rest:
        try:
            state.ruleset.check_choice(state, guess)
        except (HexcombatError, ValueError):
            continue
        return guess
    return None
