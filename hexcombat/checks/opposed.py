"""An :class:`OpposedCheck`: both sides roll; outcomes win, tie and lose, the tie going to the
side the rules name."""

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
    roll_text,
    with_modifiers,
)
from hexcombat.dice import COMPARISONS, Dice, DiceExpr, Roll, chance_opposed, distribution, parse


@dataclass(frozen=True)
class OpposedSide:
    """One side of an opposed roll: who, which dice, and the modifiers added to the roll."""

    name: str
    dice: str
    modifiers: tuple[Modifier, ...] = ()
    default_sides: int | None = None

    def __post_init__(self) -> None:
        parse(self.dice, self.default_sides)  # raises DiceSyntaxError early
        object.__setattr__(self, "modifiers", tuple(self.modifiers))

    @property
    def expr(self) -> DiceExpr:
        """The parsed dice expression."""
        return parse(self.dice, self.default_sides)

    @property
    def bonus(self) -> int:
        """The sum of the modifiers."""
        return sum(m.value for m in self.modifiers)

    def _lines(self) -> list[str]:
        return [f"{self.name} rolls {self.expr.words}", *(f"  {m.line}" for m in self.modifiers)]

    def _text(self, roll: Roll, total: int) -> str:
        return f"{self.name} " + with_modifiers(roll_text(roll), self.modifiers, total)


_OPPOSED = {
    ("higher", "attacker"): "ge",
    ("higher", "defender"): "gt",
    ("lower", "attacker"): "le",
    ("lower", "defender"): "lt",
}


@dataclass(frozen=True)
class OpposedCheck(Rollable):
    """Both sides roll; ``wins`` says whether the ``higher`` or ``lower`` total wins.

    ``ties`` names the side that wins a tie (``attacker`` or ``defender``). E.g. breaking
    away in ``two-action-2d10`` (D-17): 2d10 + Agility ≥ 2d10 + opponent's Agility is
    ``wins="higher", ties="attacker"``. Outcomes: ``win`` (the attacker's total is
    better), ``tie`` and ``lose``.

    As a :class:`~hexcombat.checks.Check`'s, ``naturals`` are attacker's dice totals that
    come out as their band whatever the defence, and ``margins`` split the attacker's
    success by how far its total beat the defender's; their ids then stand in for ``win``
    and ``tie``.
    """

    kind: ClassVar[str] = "opposed"
    label: str
    attacker: OpposedSide
    defender: OpposedSide
    wins: str = "higher"
    ties: str = "defender"
    rule: str = ""
    variants: tuple[Variant, ...] = ()
    naturals: tuple[Band, ...] = ()
    margins: tuple[Band, ...] = ()

    def __post_init__(self) -> None:
        if (self.wins, self.ties) not in _OPPOSED:
            raise CheckError(
                f"an opposed check needs wins='higher' or 'lower' and ties='attacker' or "
                f"'defender', got wins={self.wins!r}, ties={self.ties!r}"
            )
        for name in ("variants", "naturals", "margins"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def _outcome(self, dice_total: int, a_total: int, d_total: int) -> tuple[bool, str, str]:
        """Whether the attacker succeeds, and the outcome's id and label."""
        natural = next((b for b in self.naturals if b.low <= dice_total <= b.high), None)
        if natural is not None:
            return False, natural.id, natural.label
        won = COMPARISONS[self.comparison](a_total, d_total)
        if won and self.margins:
            margin = a_total - d_total if self.wins == "higher" else d_total - a_total
            band = next(b for b in self.margins if b.low <= margin <= b.high)
            return True, band.id, band.label
        a, d = self.attacker.name, self.defender.name
        if a_total == d_total:
            return won, "tie", f"tie: {a if self.ties == 'attacker' else d} wins"
        return (True, "win", f"{a} wins") if won else (False, "lose", f"{d} wins")

    @property
    def comparison(self) -> str:
        """How the attacker's total must compare with the defender's to win."""
        return _OPPOSED[(self.wins, self.ties)]

    def _chance(self, comparison: str) -> Fraction:
        a, d = self.attacker, self.defender
        return chance_opposed(a.expr, comparison, d.expr, bonus_a=a.bonus, bonus_b=d.bonus)

    def chance(self) -> Fraction:
        """The exact probability that the attacker wins (ties included when they go to it)."""
        if not self.naturals:
            return self._chance(self.comparison)
        return sum((p for (won, _, _), p in self._joint().items() if won), Fraction(0))

    def _joint(self) -> dict[tuple[bool, str, str], Fraction]:
        """Every outcome over both sides' totals, with its exact chance (worked out once
        for equal rolls: a blow's preview and its resolution both ask; never to be changed)."""
        return _joint_of(self)

    def _joint_uncached(self) -> dict[tuple[bool, str, str], Fraction]:
        """:meth:`_joint`, worked out."""
        a, d = self.attacker, self.defender
        chances: dict[tuple[bool, str, str], Fraction] = {}
        defence = distribution(d.expr).items()
        for a_dice, pa in distribution(a.expr).items():
            for d_dice, pd in defence:
                key = self._outcome(a_dice, a_dice + a.bonus, d_dice + d.bonus)
                chances[key] = chances.get(key, Fraction(0)) + pa * pd
        return chances

    def outcomes(self) -> tuple[Outcome, ...]:
        """Win, tie (named with who takes it) and lose, each exact (or the margins' and
        naturals' outcomes, then tie and lose)."""
        if self.naturals or self.margins:
            joint = self._joint()
            known = [(True, b.id, b.label) for b in self.margins]
            known += [k for k in joint if k not in known]
            known.sort(key=lambda k: not k[0])
            return tuple(
                Outcome(oid, label, joint.get((w, oid, label), Fraction(0)))
                for w, oid, label in known
            )
        a, d = self.attacker.name, self.defender.name
        win = self._chance("gt" if self.wins == "higher" else "lt")
        tie = self._chance("eq")
        tie_winner = a if self.ties == "attacker" else d
        return (
            Outcome("win", f"{a} wins", win),
            Outcome("tie", f"tie: {tie_winner} wins", tie),
            Outcome("lose", f"{d} wins", 1 - win - tie),
        )

    def headline(self) -> Outcome:
        """The chance that the attacker wins."""
        name = self.attacker.name
        return Outcome("success", f"{name} wins", self.chance(), f"that {name} wins")

    def breakdown(self) -> list[str]:
        """Each side's dice and modifiers, then who wins and who takes a tie."""
        return [
            *self.attacker._lines(),
            *self.defender._lines(),
            f"The {self.wins} total wins; a tie goes to the {self.ties}",
            *(f"{self.attacker.name}'s dice showing {b.span}: {b.label}" for b in self.naturals),
            *(f"Winning by {b.span}: {b.label}" for b in self.margins),
        ]

    def roll_order(self) -> list[str]:
        """The attacker's dice, then the defender's."""
        return [self.attacker.expr.text, self.defender.expr.text]

    def faces(self) -> tuple[Face, ...]:
        """The attacker's dice, then the defender's, each named with its side."""
        a, d = self.attacker, self.defender
        return (*faces_of(a.expr, a.name), *faces_of(d.expr, d.name))

    def resolve(self, attacker_roll: Roll, defender_roll: Roll) -> OpposedResult:
        """The result with both sides' rolls (each must be a roll of that side's dice)."""
        for side, roll in ((self.attacker, attacker_roll), (self.defender, defender_roll)):
            if roll.expr != side.expr.text:
                raise CheckError(
                    f"{side.name} rolls {side.expr.text} in {self.label!r}, "
                    f"but the roll given is {roll.expr}"
                )
        a_total = attacker_roll.total + self.attacker.bonus
        d_total = defender_roll.total + self.defender.bonus
        won, reached, _ = self._outcome(attacker_roll.total, a_total, d_total)
        return OpposedResult(self, attacker_roll, defender_roll, a_total, d_total, won, reached)

    def roll(self, dice: Dice) -> OpposedResult:
        """Roll the attacker's dice, then the defender's, and resolve."""
        a, d = self.attacker, self.defender
        return self.resolve(dice.roll(a.dice, a.default_sides), dice.roll(d.dice, d.default_sides))


@dataclass(frozen=True)
class OpposedResult(RollResult):
    """A resolved opposed check: both rolls, both totals, and whether the attacker won."""

    check: OpposedCheck
    attacker_roll: Roll
    defender_roll: Roll
    attacker_total: int
    defender_total: int
    attacker_wins: bool
    reached: str = ""
    """The outcome's id (``win``, ``tie`` or ``lose`` worked out when empty)."""

    @property
    def outcome_id(self) -> str:
        """``win``, ``tie`` or ``lose``, or the id of a natural or margin band."""
        if self.reached:
            return self.reached
        if self.attacker_total == self.defender_total:
            return "tie"
        higher = self.attacker_total > self.defender_total
        return "win" if higher == (self.check.wins == "higher") else "lose"

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The attacker's roll, then the defender's."""
        return (self.attacker_roll, self.defender_roll)

    def explain(self) -> str:
        """One line, e.g. ``Break away: Alda 14 (2d10: 6, 5), +3 Agility = 14 vs Bors ...``."""
        c = self.check
        a = c.attacker._text(self.attacker_roll, self.attacker_total)
        d = c.defender._text(self.defender_roll, self.defender_total)
        winner = c.attacker.name if self.attacker_wins else c.defender.name
        tie = f" (tie goes to the {c.ties})" if self.attacker_total == self.defender_total else ""
        return f"{c.label}: {a} vs {d}: {winner} wins{tie}"


@functools.lru_cache(maxsize=1024)
def _joint_of(check: OpposedCheck) -> dict[tuple[bool, str, str], Fraction]:
    """:meth:`OpposedCheck._joint`, kept for equal checks."""
    return check._joint_uncached()
