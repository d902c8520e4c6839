"""The exact chance of each damage total a rollable deals, from its outcomes."""

from __future__ import annotations

from fractions import Fraction

from ..checks import Amount, Chain, Rollable


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
