"""An attack's immediate harm judged by its preview's exact odds, not by the one roll imagined.

An imagined attack rolls the autopilot's own dice once: a lucky roll makes a poor attack look
good. Where the preview gives the damage as exact outcomes (a chain ending in a damage
amount, or the amount alone) and the target has a single pool, the value the imagined roll
gave the target is swapped for its exact expectation over every outcome: a control variate
that keeps what followed the roll and drops the roll's own luck. Anything else (several
pools, a ruleset's health hint, damage the sample does not match) is left as imagined.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..actions import Action
from ..checks import Amount, Chain, Rollable
from ..state import GameState
from .candidates import enemies
from .scoring import Temperament, worth


def damage_odds(rollable: Rollable) -> dict[int, Fraction] | None:
    """The exact chance of each damage total a rollable deals (0: none), or None when its
    damage is not a single amount ending it."""
    if isinstance(rollable, Amount):
        if rollable.unit != "damage":
            return None
        odds: dict[int, Fraction] = {}
        for o in rollable.outcomes():
            if not o.id.lstrip("-").isdigit():
                return None
            odds[max(0, int(o.id))] = odds.get(max(0, int(o.id)), Fraction(0)) + o.chance
        return odds
    if isinstance(rollable, Chain):
        last = rollable.stages[-1]
        if not isinstance(last.rollable, Amount) or any(
            isinstance(s.rollable, Amount) and s.rollable.unit == "damage"
            for s in rollable.stages[:-1]
        ):
            return None
        inner = damage_odds(last.rollable)
        if inner is None:
            return None
        reach = rollable.reached()[-1]
        odds = {d: reach * p for d, p in inner.items()}
        odds[0] = odds.get(0, Fraction(0)) + 1 - reach
        return odds
    return None


def exact_shift(
    seen: GameState, action: Action, after: GameState, side: str, temper: Temperament
) -> float:
    """What to add to the value of ``after`` (``action`` imagined once on ``seen``) so that
    the harm to its target counts at its exact expectation: 0 when that cannot be known."""
    foes = {f.id: f for f in enemies(seen, side)}
    aimed = [v for v in action.params.values() if isinstance(v, str) and v in foes]
    if len(aimed) != 1 or seen.ruleset.autopilot_hints(seen, foes[aimed[0]]).get("health"):
        return 0.0
    target = foes[aimed[0]]
    pools = [n for n, p in target.pools.items() if p.maximum > 0]
    now = after.figures.get(target.id)
    rollables = seen.ruleset.preview(seen, action).rollables
    if len(pools) != 1 or now is None or len(rollables) != 1:
        return 0.0
    odds = damage_odds(rollables[0])
    if odds is None:
        return 0.0
    pool, left = target.pools[pools[0]], now.pools[pools[0]].current
    dealt = pool.current - left
    if dealt < 0 or not any(min(d, pool.current) == dealt for d in odds):
        return 0.0  # the sample is not this amount's roll (healing, another pool, a save)
    weight = temper.harm_done * worth(seen, target)

    def standing(points: int) -> float:
        return math.sqrt(max(0, points) / pool.maximum)

    expected = sum(float(p) * standing(pool.current - d) for d, p in odds.items())
    out_now = after.ruleset.is_out(after, now)
    return weight * ((0.0 if out_now else standing(left)) - expected)
