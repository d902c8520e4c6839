"""The exact chance of each damage total a rollable deals, from its outcomes."""

from __future__ import annotations

from fractions import Fraction

from hexcombat.checks import Amount, Chain, Rollable


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
        return _chain_damage(rollable)
    return None


def _chain_damage(chain: Chain) -> dict[int, Fraction] | None:
    """A chain's damage: its damage stages are branches (one on each threshold a hit may
    reach, none after another), each weighted by the chance it is rolled."""
    damages = [
        i
        for i, s in enumerate(chain.stages)
        if isinstance(s.rollable, Amount) and s.rollable.unit == "damage"
    ]
    if not damages or any(_after(chain, i, damages) for i in damages):
        return None
    reached = chain.reached()
    odds: dict[int, Fraction] = {}
    for i in damages:
        inner = damage_odds(chain.stages[i].rollable)
        if inner is None:
            return None
        for d, p in inner.items():
            odds[d] = odds.get(d, Fraction(0)) + reached[i] * p
    odds[0] = odds.get(0, Fraction(0)) + 1 - sum((reached[i] for i in damages), Fraction(0))
    return odds


def _after(chain: Chain, index: int, among: list[int]) -> bool:
    """Whether stage ``index`` is rolled after one of the stages ``among``."""
    while index:
        index = chain.before(index)
        if index in among:
            return True
    return False
