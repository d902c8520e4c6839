"""Exact odds of dice expressions: distributions and the chance of a comparison, counted as
integers over every equally likely combination of faces."""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb

from hexcombat.dice.expr import MAX_WORK, DiceComplexityError, DiceExpr, _clamp, _comparison
from hexcombat.dice.parser import _as_expr

# --------------------------------------------------------------------------- exact odds
#
# Distributions are counted as integers over all equally likely ordered outcomes
# (one outcome per combination of faces) and held densely: ``(offset, counts)``
# where ``counts[i]`` is the number of outcomes with total ``offset + i``.


def _add_uniform_die(counts: list[int], sides: int) -> list[int]:
    """Convolve with one die (faces 1..sides): a sliding-window sum over prefix sums."""
    prefix = [0, *accumulate(counts)]
    # padded[k] is prefix[k - sides + 1] clamped to the ends of ``prefix``.
    padded = [0] * (sides - 1) + prefix + [prefix[-1]] * (sides - 1)
    return list(map(operator.sub, padded[sides:], padded))


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _keep_highest(count: int, sides: int, keep: int) -> list[int]:
    """Outcome counts of the sum of the ``keep`` highest of ``count`` dice.

    Index 0 of the result is the smallest kept total, ``keep``.

    Face values are visited from high to low. A state is (dice placed so far, all of
    them kept; their sum). Placing ``c`` of the remaining dice on value ``v`` can be
    done in ``comb(remaining, c)`` ways. Once the kept quota fills up at value ``v``,
    every other die lies at ``v`` or below, which closes the state in one step.
    """
    result = [0] * (keep * sides - keep + 1)
    active: list[dict[int, int]] = [{} for _ in range(keep)]
    active[0][0] = 1
    for v in range(sides, 0, -1):
        following: list[dict[int, int]] = [{} for _ in range(keep)]
        for placed in range(keep):
            states = active[placed]
            if not states:
                continue
            remaining = count - placed
            need = keep - placed
            close = v**remaining - sum(
                comb(remaining, c) * (v - 1) ** (remaining - c) for c in range(need)
            )
            ways = [comb(remaining, c) for c in range(need)]
            for total, w in states.items():
                result[total + need * v - keep] += w * close
                if v > 1:
                    for c in range(need):
                        target = following[placed + c]
                        key = total + c * v
                        target[key] = target.get(key, 0) + w * ways[c]
        active = following
    return result


def _keep_work(sides: int, keep: int) -> int:
    return sum((keep - m) * (m * sides * sides // 2 + sides) for m in range(keep))


def _check_work(expr: DiceExpr) -> None:
    work, length = 0, 1
    for term in expr.dice_terms():
        if term.keep is None or term.keep[1] == term.count:
            for _ in range(term.count):
                work += length + term.sides
                length += term.sides - 1
        else:
            span = term.keep[1] * (term.sides - 1) + 1
            work += _keep_work(term.sides, term.keep[1]) + length * span
            length += span - 1
    if work > MAX_WORK:
        raise DiceComplexityError(
            f"the exact odds of {expr.text} would take about {work:,} steps, more than "
            f"the {MAX_WORK:,} allowed; use fewer dice, fewer sides or a smaller keep"
        )


@lru_cache(maxsize=256)
def _outcome_counts(expr: DiceExpr) -> tuple[tuple[tuple[int, int], ...], int]:
    """``((total, outcomes), ...)`` sorted by total, and the number of all outcomes.

    Cached by expression; equal expressions are those with the same canonical text.
    """
    _check_work(expr)
    offset, counts, outcomes = 0, [1], 1
    for term in expr.terms:
        if isinstance(term, int):
            offset += term
            continue
        outcomes *= term.sides**term.count
        if term.keep is None or term.keep[1] == term.count:
            for _ in range(term.count):
                counts = _add_uniform_die(counts, term.sides)
            offset += term.count if term.sign > 0 else -term.count * term.sides
        else:
            mode, kept = term.keep
            part = _keep_highest(term.count, term.sides, kept)
            # Keep-lowest mirrors keep-highest: face v <-> sides + 1 - v.
            if (mode == "kl") != (term.sign < 0):
                part = part[::-1]
            offset += kept if term.sign > 0 else -kept * term.sides
            counts = _convolve(counts, part)
    merged: dict[int, int] = {}
    for i, c in enumerate(counts):
        if c:
            total = _clamp(offset + i, expr.floor, expr.ceiling)
            merged[total] = merged.get(total, 0) + c
    return tuple(sorted(merged.items())), outcomes


def distribution(expr: str | DiceExpr, default_sides: int | None = None) -> dict[int, Fraction]:
    """The exact probability of each possible total, sorted by total; it sums to 1.

    >>> distribution("d10-5 min 1")[1]
    Fraction(3, 5)
    """
    return dict(_probabilities(_as_expr(expr, default_sides)))


@lru_cache(maxsize=256)
def _probabilities(expr: DiceExpr) -> tuple[tuple[int, Fraction], ...]:
    counts, outcomes = _outcome_counts(expr)
    return tuple((total, Fraction(c, outcomes)) for total, c in counts)


def chance(
    expr: str | DiceExpr, comparison: str, target: int, default_sides: int | None = None
) -> Fraction:
    """The exact probability that the total ``<comparison> target`` (``le``, ``lt``, ...).

    >>> chance("d100", "le", 59)
    Fraction(59, 100)
    """
    holds = _comparison(comparison)
    counts, outcomes = _outcome_counts(_as_expr(expr, default_sides))
    return Fraction(sum(c for total, c in counts if holds(total, target)), outcomes)


def chance_opposed(
    expr_a: str | DiceExpr,
    comparison: str,
    expr_b: str | DiceExpr,
    *,
    bonus_a: int = 0,
    bonus_b: int = 0,
    default_sides: int | None = None,
) -> Fraction:
    """The exact probability that ``a + bonus_a <comparison> b + bonus_b`` for independent rolls.

    >>> chance_opposed("d6", "gt", "d6")
    Fraction(5, 12)
    """
    _comparison(comparison)
    counts_a, outcomes_a = _outcome_counts(_as_expr(expr_a, default_sides))
    counts_b, outcomes_b = _outcome_counts(_as_expr(expr_b, default_sides))
    totals_b = [t for t, _ in counts_b]
    below = [0]  # below[i]: outcomes of b with a total less than totals_b[i]
    for _, c in counts_b:
        below.append(below[-1] + c)
    all_b = below[-1]
    exact = dict(counts_b)
    shift = bonus_b - bonus_a  # a cmp b + shift
    favourable = 0
    for total_a, c in counts_a:
        edge = total_a - shift  # compare b's total with this
        if comparison == "le":
            hits = all_b - below[bisect_left(totals_b, edge)]
        elif comparison == "lt":
            hits = all_b - below[bisect_right(totals_b, edge)]
        elif comparison == "ge":
            hits = below[bisect_right(totals_b, edge)]
        elif comparison == "gt":
            hits = below[bisect_left(totals_b, edge)]
        else:
            hits = exact.get(edge, 0)
        favourable += c * hits
    return Fraction(favourable, outcomes_a * outcomes_b)
