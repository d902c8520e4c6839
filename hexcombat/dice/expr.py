"""The dice language's values: limits, errors, comparisons, terms and parsed expressions."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from hexcombat.errors import HexcombatError

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

    @cached_property
    def text(self) -> str:
        """The canonical spelling, e.g. ``d10-5 min 1``; it parses back to this expression
        (worked out once: every roll names its expression)."""
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
        return list(self._sides)

    @cached_property
    def _sides(self) -> tuple[int, ...]:
        return tuple(t.sides for t in self.dice_terms() for _ in range(t.count))
