"""Reading dice text (the grammar in :mod:`hexcombat.dice`) into a :class:`~.expr.DiceExpr`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from hexcombat.dice.expr import (
    _MAX_RAW_LENGTH,
    MAX_DICE_PER_TERM,
    MAX_NUMBER,
    MAX_SIDES,
    MAX_TEXT_LENGTH,
    MIN_SIDES,
    DiceExpr,
    DiceSyntaxError,
    DiceTerm,
    _visible_length,
)

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
