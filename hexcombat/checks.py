"""Checks: a base value with named modifiers, a dice roll, a comparison, exact odds.

A :class:`Check` covers every resolution in the four rulesets:

* roll-under (``fig-percentile``, ``strike-chance-pulse``): ``d100 le skill + modifiers``;
* meet-or-beat (``two-action-2d10``): ``2d10`` with the skill as a roll modifier, ``ge`` defence;
* fixed thresholds: a base with no modifiers.

The target is ``base + sum(modifiers)``; the roll total is the dice total plus
``sum(roll_modifiers)``; the check succeeds iff ``roll_total <comparison> target``.
Odds are exact fractions, and every number is named so a breakdown can be shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .dice import COMPARISONS, Dice, DiceExpr, Roll, chance, chance_opposed, parse
from .rounding import round_half_up

MINUS = "\u2212"
"""The minus sign used in display text (plain data keeps ordinary ints)."""

# The comparison's symbol when it holds, and the symbol of what holds instead when it fails.
_SYMBOLS = {"le": "≤", "lt": "<", "ge": "≥", "gt": ">", "eq": "="}
_FAILED_SYMBOLS = {"le": ">", "lt": "≥", "ge": "<", "gt": "≤", "eq": "≠"}


class CheckError(ValueError):
    """A check that is malformed: an unknown comparison, bad JSON, or a roll of other dice."""


def signed(value: int) -> str:
    """A number with its sign, using a real minus sign (:data:`MINUS`) for negatives.

    >>> signed(-15) == MINUS + "15", signed(5), signed(0)
    (True, '+5', '+0')
    """
    return f"{MINUS}{-value}" if value < 0 else f"+{value}"


def percent(p: Fraction) -> str:
    """A probability as a percentage: whole when exact, else one decimal (half up).

    A chance that is neither impossible nor certain never shows as 0% or 100%.

    >>> percent(Fraction(59, 100)), percent(Fraction(1, 200)), percent(Fraction(1, 3))
    ('59%', '0.5%', '33.3%')
    >>> percent(Fraction(1, 10000)), percent(Fraction(9999, 10000))
    ('<0.1%', '>99.9%')
    """
    if not 0 <= p <= 1:
        raise CheckError(f"a probability must be between 0 and 1, got {p}")
    hundred = p * 100
    if hundred.denominator == 1:
        return f"{hundred.numerator}%"
    tenths = round_half_up(p * 1000)
    if tenths == 0:
        return "<0.1%"
    if tenths == 1000:
        return ">99.9%"
    return f"{tenths // 10}.{tenths % 10}%"


def _validated_comparison(comparison: str) -> str:
    if comparison not in COMPARISONS:
        allowed = ", ".join(repr(c) for c in COMPARISONS)
        raise CheckError(f"unknown comparison {comparison!r}; expected one of {allowed}")
    return comparison


@dataclass(frozen=True)
class Modifier:
    """A named adjustment, e.g. ``Modifier("Fast combined speed", -15, "FP-7")``.

    ``house_default`` is True when the number is our placeholder, not the rule text.
    """

    name: str
    value: int
    rule: str = ""
    house_default: bool = False

    def _notes(self) -> str:
        notes = [n for n in (self.rule, "house default" if self.house_default else "") if n]
        return f" ({', '.join(notes)})" if notes else ""

    def __str__(self) -> str:
        return f"{self.name} {signed(self.value)}{self._notes()}"

    @property
    def line(self) -> str:
        """The modifier as a breakdown line, value first: ``-15 Fast combined speed (FP-7)``.

        The minus shown is :data:`MINUS`, as in every display string.
        """
        return f"{signed(self.value)} {self.name}{self._notes()}"

    def to_json(self) -> dict[str, Any]:
        """Plain data; ``rule`` and ``house_default`` only when set."""
        data: dict[str, Any] = {"name": self.name, "value": self.value}
        if self.rule:
            data["rule"] = self.rule
        if self.house_default:
            data["house_default"] = True
        return data

    @classmethod
    def from_json(cls, data: object) -> Modifier:
        """Read :meth:`to_json` data, checking every field."""
        fields = _Fields(data, "a modifier")
        return cls(
            fields.text("name"),
            fields.integer("value"),
            fields.text("rule", ""),
            fields.flag("house_default", False),
        )


class _Fields:
    """Typed, checked access to one JSON object, with messages naming the field."""

    def __init__(self, data: object, what: str) -> None:
        if not isinstance(data, Mapping):
            raise CheckError(f"{what} must be an object, got {type(data).__name__}")
        self.data: Mapping[str, object] = data
        self.what = what

    def _get(self, key: str, kind: str, default: object) -> object:
        if key in self.data:
            return self.data[key]
        if default is _REQUIRED:
            raise CheckError(f"{self.what} needs {key!r} ({kind})")
        return default

    def _wrong(self, key: str, kind: str) -> CheckError:
        return CheckError(f"{self.what}'s {key!r} must be {kind}, got {self.data[key]!r}")

    def text(self, key: str, default: object = None) -> str:
        value = self._get(key, "text", _REQUIRED if default is None else default)
        if not isinstance(value, str):
            raise self._wrong(key, "text")
        return value

    def integer(self, key: str) -> int:
        value = self._get(key, "a whole number", _REQUIRED)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(key, "a whole number")
        return value

    def optional_integer(self, key: str) -> int | None:
        value = self._get(key, "a whole number or null", None)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise self._wrong(key, "a whole number or null")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self._get(key, "true or false", default)
        if not isinstance(value, bool):
            raise self._wrong(key, "true or false")
        return value

    def modifiers(self, key: str) -> tuple[Modifier, ...]:
        value = self._get(key, "a list of modifiers", [])
        if not isinstance(value, list):
            raise self._wrong(key, "a list of modifiers")
        return tuple(Modifier.from_json(m) for m in value)


_REQUIRED = object()


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


def _roll_text(roll: Roll) -> str:
    """``43`` for one plain die, else the total with the dice: ``15 (3d10kh2: 3 dropped, 9, 6)``."""
    if len(roll.dice) == 1 and roll.expr == f"d{roll.dice[0].sides}":
        return str(roll.total)
    faces = ", ".join(str(d.value) if d.kept else f"{d.value} dropped" for d in roll.dice)
    return f"{roll.total} ({roll.expr}: {faces})"


def _with_modifiers(start: str, modifiers: Sequence[Modifier], total: int) -> str:
    if not modifiers:
        return start
    return ", ".join([start, *(m.line for m in modifiers)]) + f" = {total}"


@dataclass(frozen=True)
class Check:
    """One roll against a target: ``dice + roll_modifiers <comparison> base + modifiers``.

    ``comparison`` is one of ``le``, ``lt``, ``ge``, ``gt``, ``eq``; ``default_sides`` is
    the ruleset's die for a bare ``D``; ``success_text`` and ``failure_text`` name the
    outcomes in explanations (e.g. "hit" and "miss").
    """

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

    def __post_init__(self) -> None:
        _validated_comparison(self.comparison)
        parse(self.dice, self.default_sides)  # raises DiceSyntaxError early
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "roll_modifiers", tuple(self.roll_modifiers))

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
        return chance(self.expr, self.comparison, self.target - self.roll_bonus)

    def percent(self) -> str:
        """The chance of success as a percentage, e.g. ``59%``."""
        return percent(self.chance())

    def breakdown(self) -> list[str]:
        """One line per item: the base, each modifier, the target, the roll and what it needs."""
        lines = [f"{self.base} {self.base_label}", *(m.line for m in self.modifiers)]
        if self.modifiers:
            lines.append(f"= {self.target}")
        lines.extend(f"{m.line} (added to the roll)" for m in self.roll_modifiers)
        roll = self.expr.text
        if self.roll_bonus:
            roll += f" {signed(self.roll_bonus)[0]} {abs(self.roll_bonus)}"
        sentence = f"Roll {roll}, {_need_sentence(self.comparison, self.target)}"
        p = self.chance()
        if p in (0, 1):
            sentence += " (impossible)" if p == 0 else " (certain)"
        lines.append(sentence)
        return lines

    def resolve(self, roll: Roll) -> CheckResult:
        """The result of this check with ``roll`` (which must be a roll of this check's dice)."""
        if roll.expr != self.expr.text:
            raise CheckError(
                f"{self.label!r} rolls {self.expr.text}, but the roll given is {roll.expr}"
            )
        roll_total = roll.total + self.roll_bonus
        success = COMPARISONS[self.comparison](roll_total, self.target)
        if self.comparison in ("le", "lt"):
            margin = self.target - roll_total
        elif self.comparison in ("ge", "gt"):
            margin = roll_total - self.target
        else:
            margin = -abs(roll_total - self.target)
        return CheckResult(self, roll, roll_total, success, margin)

    def roll(self, dice: Dice) -> CheckResult:
        """Roll this check's dice from ``dice`` and resolve it."""
        return self.resolve(dice.roll(self.dice, self.default_sides))

    def to_json(self) -> dict[str, Any]:
        """Plain data; optional fields only when they differ from their defaults."""
        data: dict[str, Any] = {
            "label": self.label,
            "dice": self.dice,
            "comparison": self.comparison,
            "base": self.base,
            "base_label": self.base_label,
            "modifiers": [m.to_json() for m in self.modifiers],
            "roll_modifiers": [m.to_json() for m in self.roll_modifiers],
        }
        if self.default_sides is not None:
            data["default_sides"] = self.default_sides
        if self.rule:
            data["rule"] = self.rule
        if self.success_text != "success":
            data["success_text"] = self.success_text
        if self.failure_text != "failure":
            data["failure_text"] = self.failure_text
        return data

    @classmethod
    def from_json(cls, data: object) -> Check:
        """Read :meth:`to_json` data, checking every field."""
        fields = _Fields(data, "a check")
        return cls(
            fields.text("label"),
            fields.text("dice"),
            _validated_comparison(fields.text("comparison")),
            fields.integer("base"),
            fields.text("base_label"),
            fields.modifiers("modifiers"),
            fields.modifiers("roll_modifiers"),
            fields.optional_integer("default_sides"),
            fields.text("rule", ""),
            fields.text("success_text", "success"),
            fields.text("failure_text", "failure"),
        )


@dataclass(frozen=True)
class CheckResult:
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

    def explain(self) -> str:
        """One line, e.g. ``Crossbow: 74 Crossbow, -15 Fast (FP-7) = 59; rolled 43 ≤ 59: hit``."""
        check = self.check
        target = _with_modifiers(f"{check.base} {check.base_label}", check.modifiers, check.target)
        return f"{check.label}: {target}; {self._rolled()}"

    def outcome(self) -> str:
        """The roll against the target alone, e.g. ``Rolled 43 ≤ 59: hit`` (after a breakdown)."""
        return "R" + self._rolled()[1:]

    def _rolled(self) -> str:
        check = self.check
        rolled = _with_modifiers(_roll_text(self.roll), check.roll_modifiers, self.roll_total)
        outcome = check.success_text if self.success else check.failure_text
        symbol = (_SYMBOLS if self.success else _FAILED_SYMBOLS)[check.comparison]
        return f"rolled {rolled} {symbol} {check.target}: {outcome}"

    def to_json(self) -> dict[str, Any]:
        """Plain data: the check, the roll and the outcome."""
        return {
            "check": self.check.to_json(),
            "roll": self.roll.to_json(),
            "roll_total": self.roll_total,
            "success": self.success,
            "margin": self.margin,
        }


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
    def bonus(self) -> int:
        """The sum of the modifiers."""
        return sum(m.value for m in self.modifiers)

    def _text(self, roll: Roll, total: int) -> str:
        return f"{self.name} " + _with_modifiers(_roll_text(roll), self.modifiers, total)


_OPPOSED = {
    ("higher", "attacker"): "ge",
    ("higher", "defender"): "gt",
    ("lower", "attacker"): "le",
    ("lower", "defender"): "lt",
}


@dataclass(frozen=True)
class OpposedCheck:
    """Both sides roll; ``wins`` says whether the ``higher`` or ``lower`` total wins.

    ``ties`` names the side that wins a tie (``attacker`` or ``defender``). E.g. breaking
    away in ``two-action-2d10`` (D-17): 2d10 + Agility ≥ 2d10 + opponent's Agility is
    ``wins="higher", ties="attacker"``.
    """

    label: str
    attacker: OpposedSide
    defender: OpposedSide
    wins: str = "higher"
    ties: str = "defender"

    def __post_init__(self) -> None:
        if (self.wins, self.ties) not in _OPPOSED:
            raise CheckError(
                f"an opposed check needs wins='higher' or 'lower' and ties='attacker' or "
                f"'defender', got wins={self.wins!r}, ties={self.ties!r}"
            )

    @property
    def comparison(self) -> str:
        """How the attacker's total must compare with the defender's to win."""
        return _OPPOSED[(self.wins, self.ties)]

    def chance(self) -> Fraction:
        """The exact probability that the attacker wins."""
        a, d = self.attacker, self.defender
        return chance_opposed(
            parse(a.dice, a.default_sides),
            self.comparison,
            parse(d.dice, d.default_sides),
            bonus_a=a.bonus,
            bonus_b=d.bonus,
        )

    def resolve(self, attacker_roll: Roll, defender_roll: Roll) -> OpposedResult:
        """The result with both sides' rolls (each must be a roll of that side's dice)."""
        for side, roll in ((self.attacker, attacker_roll), (self.defender, defender_roll)):
            expected = parse(side.dice, side.default_sides).text
            if roll.expr != expected:
                raise CheckError(
                    f"{side.name} rolls {expected} in {self.label!r}, "
                    f"but the roll given is {roll.expr}"
                )
        a_total = attacker_roll.total + self.attacker.bonus
        d_total = defender_roll.total + self.defender.bonus
        won = COMPARISONS[self.comparison](a_total, d_total)
        return OpposedResult(self, attacker_roll, defender_roll, a_total, d_total, won)

    def roll(self, dice: Dice) -> OpposedResult:
        """Roll the attacker's dice, then the defender's, and resolve."""
        a, d = self.attacker, self.defender
        return self.resolve(dice.roll(a.dice, a.default_sides), dice.roll(d.dice, d.default_sides))


@dataclass(frozen=True)
class OpposedResult:
    """A resolved opposed check: both rolls, both totals, and whether the attacker won."""

    check: OpposedCheck
    attacker_roll: Roll
    defender_roll: Roll
    attacker_total: int
    defender_total: int
    attacker_wins: bool

    def explain(self) -> str:
        """One line, e.g. ``Break away: Alda 14 (2d10: 6, 5), +3 Agility = 14 vs Bors ...``."""
        c = self.check
        a = c.attacker._text(self.attacker_roll, self.attacker_total)
        d = c.defender._text(self.defender_roll, self.defender_total)
        winner = c.attacker.name if self.attacker_wins else c.defender.name
        tie = f" (tie goes to the {c.ties})" if self.attacker_total == self.defender_total else ""
        return f"{c.label}: {a} vs {d}: {winner} wins{tie}"
