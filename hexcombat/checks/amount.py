"""An :class:`Amount`: a rolled number (damage) or, with bands, a table entry (hit location)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from hexcombat.checks.parts import (
    CheckError,
    Face,
    Modifier,
    Outcome,
    Rollable,
    RollResult,
    Variant,
    faces_of,
    roll_text,
    with_modifiers,
)
from hexcombat.dice import Dice, DiceExpr, Roll, distribution, parse


@dataclass(frozen=True)
class Band:
    """A range of totals that reads as one entry of a table: ``Band(1, 2, "legs", "Legs")``."""

    low: int
    high: int
    id: str
    label: str

    @property
    def span(self) -> str:
        """``5-9``, ``2`` or ``15 or more`` (a band without a real top, :data:`OPEN_TOP`)."""
        if self.low == self.high:
            return str(self.low)
        if self.high >= OPEN_TOP:
            return f"{self.low} or more"
        return f"{self.low}-{self.high}"


OPEN_TOP = 10**6
"""A band's top at or above this reads "or more"."""


@dataclass(frozen=True)
class Amount(Rollable):
    """A rolled number: damage (``unit="damage"``), or with ``bands`` a table entry (location).

    Without bands each total is an outcome (id ``"4"``); with bands each band is one, and
    the bands must cover every total the dice and modifiers can give.
    """

    kind: ClassVar[str] = "amount"
    label: str
    dice: str
    modifiers: tuple[Modifier, ...] = ()
    default_sides: int | None = None
    rule: str = ""
    unit: str = ""
    bands: tuple[Band, ...] = ()
    variants: tuple[Variant, ...] = ()
    who: str = ""
    """Whose dice these are, named by each face a player types ("Ann's d10")."""

    def __post_init__(self) -> None:
        parse(self.dice, self.default_sides)  # raises DiceSyntaxError early
        for name in ("modifiers", "bands", "variants"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.bands:
            missing = [t for t in self._totals() if self._band(t) is None]
            if missing:
                raise CheckError(
                    f"{self.label!r}: no band covers the total(s) {', '.join(map(str, missing))}"
                )

    @property
    def expr(self) -> DiceExpr:
        """The parsed dice expression."""
        return parse(self.dice, self.default_sides)

    @property
    def bonus(self) -> int:
        """The sum of the modifiers, added to the dice total."""
        return sum(m.value for m in self.modifiers)

    def _totals(self) -> dict[int, Fraction]:
        return {t + self.bonus: p for t, p in distribution(self.expr).items()}

    def _band(self, total: int) -> Band | None:
        return next((b for b in self.bands if b.low <= total <= b.high), None)

    def _named(self, total: int) -> tuple[str, str]:
        band = self._band(total)
        if band is not None:
            return band.id, band.label
        return str(total), f"{total} {self.unit}".strip()

    def outcomes(self) -> tuple[Outcome, ...]:
        """Each total (or band) with its exact chance, lowest first."""
        return _outcomes(self)

    def headline(self) -> None:
        """An amount has no single chance to show."""
        return None

    def breakdown(self) -> list[str]:
        """The dice, each modifier, and the table's bands."""
        lines = [
            f"Roll {self.expr.words}",
            *(f"{m.line} (added to the roll)" for m in self.modifiers),
        ]
        lines += [
            f"{b.low}-{b.high}: {b.label}" if b.low != b.high else f"{b.low}: {b.label}"
            for b in self.bands
        ]
        return lines

    def roll_order(self) -> list[str]:
        """The one dice expression."""
        return [self.expr.text]

    def faces(self) -> tuple[Face, ...]:
        """One face per die of the expression."""
        return tuple(faces_of(self.expr, self.who))

    def resolve(self, roll: Roll) -> AmountResult:
        """The amount with ``roll`` (which must be a roll of this amount's dice)."""
        if roll.expr != self.expr.text:
            raise CheckError(
                f"{self.label!r} rolls {self.expr.text}, but the roll given is {roll.expr}"
            )
        return AmountResult(self, roll, roll.total + self.bonus)

    def roll(self, dice: Dice) -> AmountResult:
        """Roll the dice from ``dice`` and resolve."""
        return self.resolve(dice.roll(self.dice, self.default_sides))


@dataclass(frozen=True)
class AmountResult(RollResult):
    """A rolled amount: the roll and the total with modifiers."""

    amount: Amount
    roll: Roll
    total: int

    @property
    def outcome_id(self) -> str:
        """The total (``"4"``), or the id of the band it falls in."""
        return self.amount._named(self.total)[0]

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The one roll."""
        return (self.roll,)

    def explain(self) -> str:
        """One line, e.g. ``Damage: rolled 5 (2d6: 1, 4), +1 Strength = 6`` or ``...: Legs``."""
        a = self.amount
        rolled = with_modifiers(roll_text(self.roll), a.modifiers, self.total)
        band = a._band(self.total)
        named = f": {band.label}" if band else (f" {a.unit}" if a.unit else "")
        return f"{a.label}: rolled {rolled}{named}"


@functools.lru_cache(maxsize=1024)
def _outcomes(amount: Amount) -> tuple[Outcome, ...]:
    """An amount's outcomes, worked out once (an amount never changes)."""
    chances: dict[tuple[str, str], Fraction] = {}
    for total, p in amount._totals().items():
        key = amount._named(total)
        chances[key] = chances.get(key, Fraction(0)) + p
    return tuple(Outcome(i, label, p) for (i, label), p in chances.items())
