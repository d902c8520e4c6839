"""Dice: a small expression language, exact odds, rolls, and the sources of randomness.

The grammar (``shared/rules/README.md``, "Dice")::

    expr := term (("+"|"-") term)* ["min" INT] ["max" INT]
    term := dice | INT
    dice := [COUNT] ("d"|"D") [SIDES] [("kh"|"kl") INT]

Spaces and letter case do not matter; a leading sign and the typographic
minus (U+2212) or en dash (U+2013) are accepted as well. A ``D`` without sides
uses the ruleset's default die, so ``D-3`` with a default of 10 is ``d10-3``.

Randomness enters the engine only through a :class:`Dice` object:
:class:`SeededDice` for play (the same faces in CPython and Pyodide) and
:class:`ScriptedDice` for tests and for players who roll real dice.
Odds are exact fractions (:func:`distribution`, :func:`chance`).
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb

from .errors import HexcombatError
from .validation import shown

MAX_DICE_PER_TERM = 100
"""The most dice one term may roll (``100d6`` is allowed, ``101d6`` is not)."""

MIN_SIDES = 2
"""The fewest sides a die may have."""

MAX_SIDES = 1000
"""The most sides a die may have."""

MAX_NUMBER = 1_000_000
"""The largest constant, ``min`` or ``max`` bound (in absolute value)."""

MAX_TEXT_LENGTH = 200
"""The longest dice expression accepted, in characters other than spaces.

Canonical text never has more of them than the text it was read from, so every
parsed expression's canonical text parses again.
"""

_MAX_RAW_LENGTH = 5 * MAX_TEXT_LENGTH

MAX_WORK = 1_000_000
"""Budget of inner-loop steps for one exact distribution (see :class:`DiceComplexityError`)."""

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "le": operator.le,
    "lt": operator.lt,
    "ge": operator.ge,
    "gt": operator.gt,
    "eq": operator.eq,
}
"""The comparisons a check may use, by name."""


class DiceSyntaxError(HexcombatError):
    """A dice expression that cannot be read or breaks a limit."""


class DiceFaceError(HexcombatError):
    """Faces that do not fit an expression: a wrong count or a face off the die."""


class DiceExhaustedError(HexcombatError):
    """Scripted dice that have no face left for the die being rolled (``sides``: that die)."""

    def __init__(self, message: str, sides: int = 0) -> None:
        super().__init__(message)
        self.sides = sides


class DiceComplexityError(HexcombatError):
    """An expression whose exact distribution would take too long to compute.

    Rolling such an expression still works; only the exact odds are refused.
    """


def compare(left: int, comparison: str, right: int) -> bool:
    """Whether ``left <comparison> right`` holds, for a name in :data:`COMPARISONS`.

    >>> compare(43, "le", 59)
    True
    """
    return _comparison(comparison)(left, right)


def _comparison(name: str) -> Callable[[int, int], bool]:
    try:
        return COMPARISONS[name]
    except (KeyError, TypeError):
        allowed = ", ".join(repr(c) for c in COMPARISONS)
        raise ValueError(f"unknown comparison {name!r}; expected one of {allowed}") from None


# --------------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, optionally keeping the highest or lowest few.

    ``keep`` is ``("kh", n)`` or ``("kl", n)``; ``sign`` is +1 or -1 (subtracted dice).
    """

    count: int
    sides: int
    keep: tuple[str, int] | None = None
    sign: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_DICE_PER_TERM:
            raise DiceSyntaxError(f"a term may roll 1-{MAX_DICE_PER_TERM} dice, got {self.count}")
        if not MIN_SIDES <= self.sides <= MAX_SIDES:
            raise DiceSyntaxError(f"dice have {MIN_SIDES}-{MAX_SIDES} sides, got d{self.sides}")
        if self.keep is not None:
            mode, n = self.keep
            if mode not in ("kh", "kl"):
                raise DiceSyntaxError(f"keep mode must be 'kh' or 'kl', got {mode!r}")
            if not 1 <= n <= self.count:
                raise DiceSyntaxError(
                    f"{mode}{n} keeps {n} of {self.count} dice; it can keep 1-{self.count}"
                )
        if self.sign not in (1, -1):
            raise DiceSyntaxError(f"a term's sign must be 1 or -1, got {self.sign}")

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        return self.count if self.keep is None else self.keep[1]

    @property
    def text(self) -> str:
        """The term without its sign, e.g. ``3d10kh2`` or ``d100``."""
        count = "" if self.count == 1 else str(self.count)
        keep = "" if self.keep is None else f"{self.keep[0]}{self.keep[1]}"
        return f"{count}d{self.sides}{keep}"

    @property
    def words(self) -> str:
        """The term as a player reads it: ``best two of 3d10`` for ``3d10kh2``."""
        count = "" if self.count == 1 else str(self.count)
        plain = f"{count}d{self.sides}"
        if self.keep is None:
            return plain
        mode, n = self.keep
        return f"{'best' if mode == 'kh' else 'lowest'} {_NUMBER_WORDS.get(n, str(n))} of {plain}"


_MINUS = "\u2212"
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _visible_length(text: str) -> int:
    return len(text) - sum(c.isspace() for c in text)


def _clamp(total: int, floor: int | None, ceiling: int | None) -> int:
    if floor is not None and total < floor:
        return floor
    if ceiling is not None and total > ceiling:
        return ceiling
    return total


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: signed terms (dice or integer constants) and bounds.

    ``floor`` is the ``min`` bound and ``ceiling`` the ``max`` bound of the total.
    """

    terms: tuple[DiceTerm | int, ...]
    floor: int | None = None
    ceiling: int | None = None

    def __post_init__(self) -> None:
        if not self.terms:
            raise DiceSyntaxError("a dice expression needs at least one term")
        for value in (*self._constants(), self.floor, self.ceiling):
            if value is not None and abs(value) > MAX_NUMBER:
                raise DiceSyntaxError(f"numbers must be within ±{MAX_NUMBER}, got {value}")
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise DiceSyntaxError(
                f"'min {self.floor}' is above 'max {self.ceiling}'; min must not exceed max"
            )
        length = _visible_length(self.text)
        if length > MAX_TEXT_LENGTH:
            raise DiceSyntaxError(
                f"dice expression is {length} characters long; "
                f"at most {MAX_TEXT_LENGTH} (not counting spaces) are allowed"
            )

    def _constants(self) -> list[int]:
        return [t for t in self.terms if isinstance(t, int)]

    def dice_terms(self) -> list[DiceTerm]:
        """The dice terms, in order."""
        return [t for t in self.terms if isinstance(t, DiceTerm)]

    @property
    def text(self) -> str:
        """The canonical spelling, e.g. ``d10-5 min 1``; it parses back to this expression."""
        parts: list[str] = []
        for term in self.terms:
            if isinstance(term, int):
                negative, body = term < 0, str(abs(term))
            else:
                negative, body = term.sign < 0, term.text
            if negative:
                parts.append("-" + body)
            else:
                parts.append(("+" if parts else "") + body)
        if self.floor is not None:
            parts.append(f" min {self.floor}")
        if self.ceiling is not None:
            parts.append(f" max {self.ceiling}")
        return "".join(parts)

    @property
    def words(self) -> str:
        """The expression as a player reads it, no notation: ``d10 + 2, never below 0`` for
        ``d10+2 min 0``, ``best two of 3d10 + 4`` for ``3d10kh2+4``."""
        parts: list[str] = []
        for term in self.terms:
            if isinstance(term, int):
                negative, body = term < 0, str(abs(term))
            else:
                negative, body = term.sign < 0, term.words
            if negative:
                parts.append(f"{_MINUS} {body}" if parts else f"{_MINUS}{body}")
            else:
                parts.append(f"+ {body}" if parts else body)
        text = " ".join(parts)
        if self.floor is not None:
            text += f", never below {self.floor}"
        if self.ceiling is not None:
            text += f", never above {self.ceiling}"
        return text

    def __str__(self) -> str:
        return self.text

    def _raw_bounds(self) -> tuple[int, int]:
        low = high = 0
        for term in self.terms:
            if isinstance(term, int):
                low += term
                high += term
            elif term.sign > 0:
                low += term.kept
                high += term.kept * term.sides
            else:
                low -= term.kept * term.sides
                high -= term.kept
        return low, high

    @property
    def min_total(self) -> int:
        """The smallest total this expression can give."""
        return _clamp(self._raw_bounds()[0], self.floor, self.ceiling)

    @property
    def max_total(self) -> int:
        """The largest total this expression can give."""
        return _clamp(self._raw_bounds()[1], self.floor, self.ceiling)

    @property
    def dice_count(self) -> int:
        """How many physical dice one roll throws (dropped dice included)."""
        return sum(t.count for t in self.dice_terms())

    def faces_needed(self) -> list[int]:
        """The sides of each physical die, one entry per die, in roll order."""
        return [t.sides for t in self.dice_terms() for _ in range(t.count)]


# --------------------------------------------------------------------------- parser

_DIGITS = "0123456789"
_MINUS_SIGNS = "-\u2212\u2013"


@dataclass(frozen=True)
class _Token:
    kind: str  # num, d, kh, kl, +, -, min, max, bad, end
    text: str
    pos: int


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        lower3 = text[i : i + 3].lower()
        if ch in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            tokens.append(_Token("num", text[i:j], i))
        elif ch == "+" or ch in _MINUS_SIGNS:
            tokens.append(_Token("+" if ch == "+" else "-", ch, i))
            j = i + 1
        elif lower3 in ("min", "max"):
            tokens.append(_Token(lower3, text[i : i + 3], i))
            j = i + 3
        elif lower3[:2] in ("kh", "kl"):
            tokens.append(_Token(lower3[:2], text[i : i + 2], i))
            j = i + 2
        elif ch in "dD":
            tokens.append(_Token("d", ch, i))
            j = i + 1
        else:
            j = i + 1
            if ch.isalpha():
                while j < n and text[j].isalpha():
                    j += 1
            tokens.append(_Token("bad", text[i:j], i))
        i = j
    tokens.append(_Token("end", "", n))
    return tokens


def _or_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


class _Parser:
    """Recursive-descent reader for one expression; positions in messages are 1-based."""

    def __init__(self, text: str, default_sides: int | None) -> None:
        self.text = text
        self.default_sides = default_sides
        self.tokens = _tokenize(text)
        self.index = 0

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def where(self, token: _Token) -> str:
        return f"at position {token.pos + 1} in {self.text!r}"

    def unexpected(self, expected: Sequence[str]) -> DiceSyntaxError:
        token = self.peek()
        what = "end" if token.kind == "end" else repr(token.text)
        return DiceSyntaxError(
            f"unexpected {what} {self.where(token)}; expected {_or_list(expected)}"
        )

    def number(self, token: _Token, what: str) -> int:
        if int(token.text) > MAX_NUMBER:
            raise DiceSyntaxError(
                f"{what} {token.text} {self.where(token)} is too large; "
                f"numbers are at most {MAX_NUMBER}"
            )
        return int(token.text)

    def parse(self) -> DiceExpr:
        terms: list[DiceTerm | int] = []
        sign = 1
        if self.peek().kind in ("+", "-"):
            sign = -1 if self.take().kind == "-" else 1
        while True:
            follow = self.term(sign, terms)
            kind = self.peek().kind
            if kind not in ("+", "-"):
                break
            sign = -1 if self.take().kind == "-" else 1
        bounds: dict[str, int] = {}
        while self.peek().kind in ("min", "max") and self.peek().kind not in bounds:
            bound = self.take().kind
            bounds[bound] = self.bound(bound)
        if self.peek().kind != "end":
            if bounds:
                follow = [f"'{b}'" for b in ("min", "max") if b not in bounds]
            else:
                follow = [*follow, "'+'", "'-'", "'min'", "'max'"]
            raise self.unexpected([*follow, "the end"])
        low, high = bounds.get("min"), bounds.get("max")
        if low is not None and high is not None and low > high:
            raise DiceSyntaxError(
                f"'min {low}' is above 'max {high}' in {self.text!r}; min must not exceed max"
            )
        return DiceExpr(tuple(terms), low, high)

    def term(self, sign: int, terms: list[DiceTerm | int]) -> list[str]:
        """Read one term into ``terms``; return what else may follow it directly."""
        token = self.peek()
        if token.kind == "num":
            self.take()
            if self.peek().kind != "d":
                terms.append(sign * self.number(token, "number"))
                return ["'d'"]
            count_token: _Token | None = token
        elif token.kind == "d":
            count_token = None
        else:
            raise self.unexpected(["a number", "'d'"])
        d_token = self.take()
        count = 1
        if count_token is not None:
            count = int(count_token.text)
            if not 1 <= count <= MAX_DICE_PER_TERM:
                raise DiceSyntaxError(
                    f"{count_token.text} dice {self.where(count_token)}: "
                    f"a term may roll 1-{MAX_DICE_PER_TERM} dice"
                )
        follow = ["'kh'", "'kl'"]
        if self.peek().kind == "num":
            sides_token = self.take()
            sides = int(sides_token.text)
            if not MIN_SIDES <= sides <= MAX_SIDES:
                raise DiceSyntaxError(
                    f"d{sides_token.text} {self.where(sides_token)}: "
                    f"dice have {MIN_SIDES}-{MAX_SIDES} sides"
                )
        elif self.default_sides is not None:
            sides = self.default_sides
            follow = ["a number of sides", *follow]
        else:
            raise DiceSyntaxError(
                f"{d_token.text!r} {self.where(d_token)} has no number of sides and no "
                f"default die was given; write the sides, e.g. 'd10'"
            )
        keep: tuple[str, int] | None = None
        if self.peek().kind in ("kh", "kl"):
            keep_token = self.take()
            if self.peek().kind != "num":
                raise self.unexpected([f"how many dice to keep after {keep_token.text!r}"])
            n_token = self.take()
            n = int(n_token.text)
            if not 1 <= n <= count:
                raise DiceSyntaxError(
                    f"{keep_token.text}{n_token.text} {self.where(keep_token)} keeps "
                    f"{n_token.text} of {count} dice; it can keep 1-{count}"
                )
            keep = (keep_token.kind, n)
            follow = []
        terms.append(DiceTerm(count, sides, keep, sign))
        return follow

    def bound(self, name: str) -> int:
        negative = False
        if self.peek().kind in ("+", "-"):
            negative = self.take().kind == "-"
        if self.peek().kind != "num":
            raise self.unexpected([f"a number after '{name}'"])
        value = self.number(self.take(), f"'{name}'")
        return -value if negative else value


@lru_cache(maxsize=512)
def parse(text: str, default_sides: int | None = None) -> DiceExpr:
    """Read a dice expression; ``default_sides`` is the die a bare ``D`` stands for.

    >>> parse("D-3", default_sides=10).text
    'd10-3'
    >>> parse("d10 - 5 MIN 1").min_total
    1
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression must be text, got {type(text).__name__}")
    if default_sides is not None and (
        isinstance(default_sides, bool)
        or not isinstance(default_sides, int)
        or not MIN_SIDES <= default_sides <= MAX_SIDES
    ):
        raise DiceSyntaxError(
            f"default die d{default_sides} is not allowed; dice have {MIN_SIDES}-{MAX_SIDES} sides"
        )
    if len(text) > _MAX_RAW_LENGTH:
        raise DiceSyntaxError(
            f"dice expression is {len(text)} characters long; at most {_MAX_RAW_LENGTH} "
            f"(spaces included) are allowed"
        )
    length = _visible_length(text)
    if length > MAX_TEXT_LENGTH:
        raise DiceSyntaxError(
            f"dice expression is {length} characters long; "
            f"at most {MAX_TEXT_LENGTH} (not counting spaces) are allowed"
        )
    if not text.strip():
        raise DiceSyntaxError(
            "empty dice expression; expected e.g. 'd100', '2d10' or 'd10-5 min 1'"
        )
    return _Parser(text, default_sides).parse()


def _as_expr(expr: str | DiceExpr, default_sides: int | None) -> DiceExpr:
    return expr if isinstance(expr, DiceExpr) else parse(expr, default_sides)


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


# --------------------------------------------------------------------------- rolls


@dataclass(frozen=True)
class Die:
    """One physical die of a roll: its sides, the face shown, and whether it counts."""

    sides: int
    value: int
    kept: bool = True


@dataclass(frozen=True)
class Roll:
    """A finished roll: the canonical expression, every die thrown, and the total."""

    expr: str
    dice: tuple[Die, ...]
    total: int

    @property
    def faces(self) -> tuple[int, ...]:
        """The face of every die, in roll order (dropped dice included)."""
        return tuple(d.value for d in self.dice)

    @property
    def kept_faces(self) -> tuple[int, ...]:
        """The faces of the dice that count, in roll order."""
        return tuple(d.value for d in self.dice if d.kept)

    def to_json(self) -> dict[str, object]:
        """Plain data: ``{"expr": ..., "faces": [...]}``; the rest is derived."""
        return {"expr": self.expr, "faces": list(self.faces)}

    @classmethod
    def from_json(cls, data: Mapping[str, object], default_sides: int | None = None) -> Roll:
        """Rebuild a roll from :meth:`to_json` data, checking the faces against the dice."""
        if not isinstance(data, Mapping):
            raise DiceSyntaxError(
                f"a roll must be an object with 'expr' and 'faces', got {type(data).__name__}"
            )
        expr = data.get("expr")
        if not isinstance(expr, str):
            raise DiceSyntaxError(f"a roll's 'expr' must be a dice expression, got {expr!r}")
        faces = data.get("faces")
        if not isinstance(faces, list):
            raise DiceFaceError(
                f"a roll's 'faces' must be a list of whole numbers, got {shown(faces)}"
            )
        return _evaluate(parse(expr, default_sides), faces)


def dice_words(text: str) -> str:
    """A dice expression as a player reads it (:attr:`DiceExpr.words`).

    >>> dice_words("3d10kh2+4")
    'best two of 3d10 + 4'
    >>> dice_words("d10-2 min 0")
    'd10 \u2212 2, never below 0'
    """
    return parse(text).words


def evaluate(expr: str | DiceExpr, faces: Sequence[int], default_sides: int | None = None) -> Roll:
    """Build the roll that ``faces`` (physical dice, in order) give for ``expr``.

    Keep-highest (or lowest) marks the dropped dice ``kept=False``; of two equal
    faces the later one is dropped first.

    >>> evaluate("3d10kh2", [3, 9, 6]).total
    15
    """
    return _evaluate(_as_expr(expr, default_sides), faces)


def _evaluate(expr: DiceExpr, faces: Sequence[object]) -> Roll:
    needed = expr.faces_needed()
    if isinstance(faces, (str, bytes)) or len(faces) != len(needed):
        got = len(faces) if not isinstance(faces, (str, bytes)) else repr(faces)
        plural = "die" if len(needed) == 1 else "dice"
        raise DiceFaceError(f"{expr.text} needs {len(needed)} {plural}, got {got} faces")
    values: list[int] = []
    for number, (face, sides) in enumerate(zip(faces, needed, strict=True), start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise DiceFaceError(f"die {number} of {expr.text} must be 1-{sides}, got {shown(face)}")
        values.append(face)
    dice: list[Die] = []
    total = 0
    position = 0
    for term in expr.terms:
        if isinstance(term, int):
            total += term
            continue
        chunk = values[position : position + term.count]
        position += term.count
        kept_index = set(range(term.count))
        if term.keep is not None:
            mode, n = term.keep
            direction = -1 if mode == "kh" else 1
            order = sorted(range(term.count), key=lambda i: (direction * chunk[i], i))
            kept_index = set(order[:n])
        for i, value in enumerate(chunk):
            keep = i in kept_index
            dice.append(Die(term.sides, value, keep))
            if keep:
                total += term.sign * value
    return Roll(expr.text, tuple(dice), _clamp(total, expr.floor, expr.ceiling))


# --------------------------------------------------------------------------- dice sources


class Dice(ABC):
    """A source of dice rolls; every roll made through it is kept in :attr:`rolls`."""

    def __init__(self) -> None:
        self._rolls: list[Roll] = []

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll made through this object, oldest first."""
        return tuple(self._rolls)

    def roll(self, expr: str | DiceExpr, default_sides: int | None = None) -> Roll:
        """Throw the dice of ``expr`` and return the roll (also recorded in :attr:`rolls`)."""
        parsed = _as_expr(expr, default_sides)
        faces: list[int] = []
        for number, sides in enumerate(parsed.faces_needed(), start=1):
            try:
                faces.append(self._next_face(sides))
            except DiceExhaustedError as exc:
                raise DiceExhaustedError(f"die {number} of {parsed.text}: {exc}", sides) from None
            except DiceFaceError as exc:
                raise DiceFaceError(f"die {number} of {parsed.text}: {exc}") from None
        result = evaluate(parsed, faces)
        self._rolls.append(result)
        return result

    @abstractmethod
    def _next_face(self, sides: int) -> int:
        """The next face for a die of ``sides`` sides (1..sides)."""


_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _splitmix64(seed: int, counter: int) -> int:
    """Output number ``counter`` (0-based) of the SplitMix64 stream started at ``seed``."""
    z = (seed + (counter + 1) * _GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class SeededDice(Dice):
    """Reproducible dice: SplitMix64 over ``(seed, counter)``, in pure integer arithmetic.

    The same seed gives the same faces on every Python (no ``random`` module).
    ``counter`` counts the 64-bit numbers drawn; save it with the seed and pass
    both back to resume the stream where it stopped.
    """

    def __init__(self, seed: int, counter: int = 0) -> None:
        super().__init__()
        for name, value in (("seed", seed), ("counter", counter)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MASK64:
                raise ValueError(f"{name} must be a whole number 0-{_MASK64}, got {value!r}")
        self._seed = seed
        self._counter = counter

    @property
    def seed(self) -> int:
        """The seed this stream started from."""
        return self._seed

    @property
    def counter(self) -> int:
        """How many 64-bit numbers have been drawn so far."""
        return self._counter

    def _next_face(self, sides: int) -> int:
        # Rejection sampling: only the largest multiple of ``sides`` below 2**64 is used,
        # so every face is exactly equally likely.
        limit = (1 << 64) - (1 << 64) % sides
        while True:
            value = _splitmix64(self._seed, self._counter)
            self._counter += 1
            if value < limit:
                return value % sides + 1

    def __repr__(self) -> str:
        return f"SeededDice(seed={self._seed}, counter={self._counter})"


class ScriptedDice(Dice):
    """Dice that return given faces in order: for tests, replays and physical dice.

    A roll that fails (a face off the die, or no faces left) uses up no faces.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__()
        self._faces = tuple(faces)
        for number, face in enumerate(self._faces, start=1):
            if isinstance(face, bool) or not isinstance(face, int) or face < 1:
                raise DiceFaceError(
                    f"face {number} must be a whole number of at least 1, got {shown(face)}"
                )
        self._index = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return len(self._faces) - self._index

    def roll(self, expr: str | DiceExpr, default_sides: int | None = None) -> Roll:
        """Like :meth:`Dice.roll`; on failure no scripted face is used up."""
        start = self._index
        try:
            return super().roll(expr, default_sides)
        except (DiceFaceError, DiceExhaustedError):
            self._index = start
            raise

    def _next_face(self, sides: int) -> int:
        if self._index >= len(self._faces):
            raise DiceExhaustedError(
                f"no face left for this d{sides} after the {len(self._faces)} given; "
                f"add one (1-{sides})",
                sides,
            )
        face = self._faces[self._index]
        if face > sides:
            raise DiceFaceError(
                f"face {self._index + 1} is {shown(face)}, but a d{sides} shows 1-{sides}"
            )
        self._index += 1
        return face
