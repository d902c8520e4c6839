"""A :class:`Check`: one roll against a target, ``dice + roll_modifiers <comparison> base +
modifiers``, and its result."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from hexcombat.checks.amount import Band
from hexcombat.checks.parts import (
    CheckError,
    Face,
    Modifier,
    Outcome,
    Rollable,
    RollResult,
    Variant,
    faces_of,
    percent,
    roll_text,
    signed,
    with_modifiers,
)
from hexcombat.dice import COMPARISONS, Dice, DiceExpr, Roll, chance, distribution, parse

# The comparison's symbol when it holds, and the symbol of what holds instead when it fails.
_SYMBOLS = {"le": "≤", "lt": "<", "ge": "≥", "gt": ">", "eq": "="}


_FAILED_SYMBOLS = {"le": ">", "lt": "≥", "ge": "<", "gt": "≤", "eq": "≠"}


def _validated_comparison(comparison: str) -> str:
    if comparison not in COMPARISONS:
        allowed = ", ".join(repr(c) for c in COMPARISONS)
        raise CheckError(f"unknown comparison {comparison!r}; expected one of {allowed}")
    return comparison


def _need_sentence(comparison: str, target: int) -> str:
    if comparison == "le":
        return f"need {target} or lower"
    if comparison == "lt":
        return f"need {target - 1} or lower (under {target})"
    if comparison == "ge":
        return f"need {target} or higher"
    if comparison == "gt":
        return f"need {target + 1} or higher (over {target})"
    return f"need exactly {target}"


@dataclass(frozen=True)
class Check(Rollable):
    """One roll against a target: ``dice + roll_modifiers <comparison> base + modifiers``.

    ``comparison`` is one of ``le``, ``lt``, ``ge``, ``gt``, ``eq``; ``default_sides`` is
    the ruleset's die for a bare ``D``; ``success_text`` and ``failure_text`` name the
    outcomes (ids ``success`` and ``failure``), e.g. "hit" and "miss"; ``success_phrase``
    words the chance of success after its percentage ("to hit": "60% to hit").

    ``naturals`` are dice totals (before the roll modifiers) that come out as their band
    whatever the target (a spectacular mistake: both kept dice 1, a total of 2); ``margins``
    split a success by its margin into outcomes of their own (a surplus of 5 to 9: an
    extra damage die). Their ids stand in for ``success`` among the outcomes; the chance of
    success (:meth:`chance`, the headline) is that of every success.
    """

    kind: ClassVar[str] = "check"
    label: str
    dice: str
    comparison: str
    base: int
    base_label: str
    modifiers: tuple[Modifier, ...] = ()
    roll_modifiers: tuple[Modifier, ...] = ()
    default_sides: int | None = None
    rule: str = ""
    success_text: str = "success"
    failure_text: str = "failure"
    variants: tuple[Variant, ...] = ()
    success_phrase: str = ""
    naturals: tuple[Band, ...] = ()
    margins: tuple[Band, ...] = ()

    def __post_init__(self) -> None:
        _validated_comparison(self.comparison)
        parse(self.dice, self.default_sides)  # raises DiceSyntaxError early
        for name in ("modifiers", "roll_modifiers", "variants", "naturals", "margins"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.margins:
            missing = [
                t
                for t in distribution(self.expr)
                if self._margin(t) is not None and not self._band(t)
            ]
            if missing:
                raise CheckError(f"{self.label!r}: no margin band covers the total(s) {missing}")

    @property
    def expr(self) -> DiceExpr:
        """The parsed dice expression."""
        return parse(self.dice, self.default_sides)

    @property
    def target(self) -> int:
        """``base`` plus every modifier."""
        return self.base + sum(m.value for m in self.modifiers)

    @property
    def roll_bonus(self) -> int:
        """The sum of the roll modifiers, added to the dice total."""
        return sum(m.value for m in self.roll_modifiers)

    def chance(self) -> Fraction:
        """The exact probability of success."""
        if not self.naturals:
            return chance(self.expr, self.comparison, self.target - self.roll_bonus)
        return sum(
            (p for t, p in distribution(self.expr).items() if self._outcome(t)[0]), Fraction(0)
        )

    def _natural(self, dice_total: int) -> Band | None:
        return next((b for b in self.naturals if b.low <= dice_total <= b.high), None)

    def _margin(self, dice_total: int) -> int | None:
        """The margin of a success with this dice total (None: not a success)."""
        total = dice_total + self.roll_bonus
        if self._natural(dice_total) or not COMPARISONS[self.comparison](total, self.target):
            return None
        return self.target - total if self.comparison in ("le", "lt") else total - self.target

    def _band(self, dice_total: int) -> Band | None:
        margin = self._margin(dice_total)
        return next(
            (b for b in self.margins if margin is not None and b.low <= margin <= b.high), None
        )

    def _outcome(self, dice_total: int) -> tuple[bool, str, str]:
        """Success, and the outcome's id and label, for a dice total."""
        natural = self._natural(dice_total)
        if natural is not None:
            return False, natural.id, natural.label
        if self._margin(dice_total) is None:
            return False, "failure", self.failure_text
        band = self._band(dice_total)
        return (True, band.id, band.label) if band else (True, "success", self.success_text)

    def percent(self) -> str:
        """The chance of success as a percentage, e.g. ``59%``."""
        return percent(self.chance())

    def outcomes(self) -> tuple[Outcome, ...]:
        """Success and failure (or the margins' and naturals' outcomes), with their exact
        chances."""
        return _outcomes_of(self)

    def _outcomes_uncached(self) -> tuple[Outcome, ...]:
        """:meth:`outcomes`, worked out."""
        if not self.naturals and not self.margins:
            p = self.chance()
            return (
                Outcome("success", self.success_text, p, self.success_phrase),
                Outcome("failure", self.failure_text, 1 - p),
            )
        chances: dict[tuple[str, str], Fraction] = {}
        if not self.margins:
            chances[("success", self.success_text)] = Fraction(0)
        for band in self.margins:
            chances[(band.id, band.label)] = Fraction(0)
        chances[("failure", self.failure_text)] = Fraction(0)
        for band in self.naturals:
            chances[(band.id, band.label)] = Fraction(0)
        for total, p in distribution(self.expr).items():
            _, oid, label = self._outcome(total)
            chances[(oid, label)] += p
        phrase = {"success": self.success_phrase}
        return tuple(Outcome(i, label, p, phrase.get(i, "")) for (i, label), p in chances.items())

    def headline(self) -> Outcome:
        """The chance of success."""
        if not self.naturals and not self.margins:
            return self.outcomes()[0]
        return Outcome("success", self.success_text, self.chance(), self.success_phrase)

    def breakdown(self) -> list[str]:
        """One line per item: the base, each modifier, the target, the roll and what it needs."""
        lines = [f"{self.base} {self.base_label}", *(m.line for m in self.modifiers)]
        if self.modifiers:
            lines.append(f"= {self.target}")
        lines.extend(f"{m.line} (added to the roll)" for m in self.roll_modifiers)
        roll = self.expr.words
        if self.roll_bonus:
            roll += f" {signed(self.roll_bonus)[0]} {abs(self.roll_bonus)}"
        sentence = f"Roll {roll}, {_need_sentence(self.comparison, self.target)}"
        p = self.chance()
        if p in (0, 1):
            sentence += " (impossible)" if p == 0 else " (certain)"
        lines.append(sentence)
        lines += [f"Dice showing {b.span}: {b.label}, whatever the target" for b in self.naturals]
        lines += [f"Success by {b.span}: {b.label}" for b in self.margins]
        return lines

    def roll_order(self) -> list[str]:
        """The one dice expression."""
        return [self.expr.text]

    def faces(self) -> tuple[Face, ...]:
        """One face per die of the expression."""
        return tuple(faces_of(self.expr))

    def resolve(self, roll: Roll) -> CheckResult:
        """The result of this check with ``roll`` (which must be a roll of this check's dice)."""
        if roll.expr != self.expr.text:
            raise CheckError(
                f"{self.label!r} rolls {self.expr.text}, but the roll given is {roll.expr}"
            )
        roll_total = roll.total + self.roll_bonus
        success, outcome, _ = self._outcome(roll.total)
        if self.comparison in ("le", "lt"):
            margin = self.target - roll_total
        elif self.comparison in ("ge", "gt"):
            margin = roll_total - self.target
        else:
            margin = -abs(roll_total - self.target)
        return CheckResult(self, roll, roll_total, success, margin, outcome)

    def roll(self, dice: Dice) -> CheckResult:
        """Roll this check's dice from ``dice`` and resolve it."""
        return self.resolve(dice.roll(self.dice, self.default_sides))


@dataclass(frozen=True)
class CheckResult(RollResult):
    """A resolved check: the roll, its total with roll modifiers, success and margin.

    ``margin`` is how far the roll beat the target in the check's favourable direction
    (``target - roll_total`` for roll-under, ``roll_total - target`` for meet-or-beat,
    minus the distance for ``eq``); it is negative on a failure.
    """

    check: Check
    roll: Roll
    roll_total: int
    success: bool
    margin: int
    reached: str = ""
    """The outcome's id (``success`` or ``failure`` when empty)."""

    @property
    def outcome_id(self) -> str:
        """``success`` or ``failure``, or the id of a natural or margin band."""
        return self.reached or ("success" if self.success else "failure")

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The one roll."""
        return (self.roll,)

    def explain(self) -> str:
        """One line, e.g. ``Crossbow: 74 Crossbow, -15 Fast (FP-7) = 59; rolled 43 ≤ 59: hit``."""
        check = self.check
        target = with_modifiers(f"{check.base} {check.base_label}", check.modifiers, check.target)
        return f"{check.label}: {target}; {self._rolled()}"

    def outcome(self) -> str:
        """The roll against the target alone, e.g. ``Rolled 43 ≤ 59: hit`` (after a breakdown)."""
        return "R" + self._rolled()[1:]

    def _rolled(self) -> str:
        check = self.check
        rolled = with_modifiers(roll_text(self.roll), check.roll_modifiers, self.roll_total)
        outcome = check._outcome(self.roll.total)[2]
        if check._natural(self.roll.total):
            return f"rolled {rolled}: {outcome}"
        symbol = (_SYMBOLS if self.success else _FAILED_SYMBOLS)[check.comparison]
        return f"rolled {rolled} {symbol} {check.target}: {outcome}"


@functools.lru_cache(maxsize=1024)
def _outcomes_of(check: Check) -> tuple[Outcome, ...]:
    """:meth:`Check.outcomes`, kept for equal checks (previews and resolutions ask alike)."""
    return check._outcomes_uncached()
