"""An attack's immediate harm judged by its preview's exact odds, not by the one roll imagined.

An imagined attack rolls the autopilot's own dice once: a lucky roll makes a poor attack look
good. Where the preview gives the damage as exact outcomes (a chain ending in a damage
amount, or the amount alone), the value the imagined roll gave the figure harmed (the foe
aimed at, or the side's own figure answering a foe's blow) is swapped for its exact
expectation over every outcome, the damage taken off its pools in order (what the first
cannot take comes off the next): a control variate that keeps what followed the roll and
drops the roll's own luck. Anything else (a ruleset's health hint, a sample that is not
that amount's roll taken so) is left as imagined.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import enemies
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.odds import damage_odds
from hexcombat.autopilot.scoring import DOWN, Temperament, worth
from hexcombat.figures import Figure
from hexcombat.state import GameState


def exact_shift(
    seen: GameState,
    action: Action,
    after: GameState,
    side: str,
    temper: Temperament,
    memo: Memo | None = None,
) -> float:
    """What to add to the value of ``after`` (``action`` imagined once on ``seen``) so that
    the harm to its target (a foe it aims at; the answering figure itself for an answer to
    a foe's blow) counts at its exact expectation: 0 when that cannot be known."""
    memo = memo or Memo()
    foes = {f.id: f for f in enemies(seen, side)}
    aimed = [v for v in action.params.values() if isinstance(v, str) and v in foes]
    answer = seen.prompt is not None and seen.prompt.figure == action.figure
    if answer and not aimed and action.figure in seen.figures:
        # an answer to a foe's blow: the harm is the answering figure's own
        target = seen.figures[action.figure]
        weight, down = -temper.harm_taken * worth(seen, target, memo), 0.0
    elif len(aimed) == 1:
        target = foes[aimed[0]]
        weight, down = temper.harm_done * worth(seen, target, memo), DOWN
    else:
        return 0.0
    if memo.hints(seen, target).get("health"):
        return 0.0
    names = [n for n, p in target.pools.items() if p.maximum > 0]
    now = after.figures.get(target.id)
    rollables = memo.preview(seen, action).rollables
    if not names or now is None or len(rollables) != 1:
        return 0.0
    odds = damage_odds(rollables[0])
    if odds is None:
        return 0.0
    was = [target.pools[n].current for n in names]
    tops = [target.pools[n].maximum for n in names]
    left = [now.pools[n].current for n in names]
    if not any(left in (_spilled(was, d, True), _spilled(was, d, False)) for d in odds):
        return 0.0  # the sample is not this amount's roll (healing, a save, other harm)
    clamp = any(left == _spilled(was, d, True) for d in odds)

    expected = sum(
        float(p) * _standing(_spilled(was, d, clamp), tops, down) for d, p in odds.items()
    )
    out_now = after.ruleset.is_out(after, now)
    return weight * ((-down if out_now else _standing(left, tops, down)) - expected)


def expected_loss(target: Figure, odds: dict[int, Fraction], down: float) -> float | None:
    """What ``target``'s standing (as the position score counts it, ``-down`` once every pool
    is spent) is expected to lose to damage of ``odds`` (None: it has no pools)."""
    names = [n for n, p in target.pools.items() if p.maximum > 0]
    if not names:
        return None
    was = [target.pools[n].current for n in names]
    tops = [target.pools[n].maximum for n in names]
    expected = sum(
        float(p) * _standing(_spilled(was, d, True), tops, down) for d, p in odds.items()
    )
    return _standing(was, tops, down) - expected


def _standing(points: list[int], tops: list[int], down: float) -> float:
    """The square root of the pools' share left, or ``-down`` once the last is spent (out of
    the fight: a foe down is worth more)."""
    if points[-1] <= 0:
        return -down
    return math.sqrt(sum(max(0, p) / m for p, m in zip(points, tops, strict=True)) / len(tops))


def _spilled(points: list[int], damage: int, clamp: bool) -> list[int]:
    """``points`` (pool by pool) after ``damage`` taken off the first, what it cannot take
    off the next and so on (the last going below 0 unless ``clamp``)."""
    left, rest = [], damage
    for i, p in enumerate(points):
        last = i == len(points) - 1
        take = rest if last and not clamp else min(max(0, p), rest)
        left.append(p - take)
        rest -= take
    return left
