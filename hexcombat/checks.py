"""Rollables: what an action rolls, with exact odds for every outcome before any die is cast.

A preview holds any number of :class:`Rollable` objects, all with one shape:

* :class:`Check`: one roll against a target, ``dice + roll_modifiers <comparison> base +
  modifiers`` (roll-under ``d100 le skill``, meet-or-beat ``2d10 + skill ge defence``);
* :class:`OpposedCheck`: both sides roll (``3d10kh2 + skill`` against ``2d10 + defence``);
  outcomes win, tie and lose, the tie going to the side the rules name;
* :class:`Amount`: a rolled number (damage) or a table entry (hit location);
* :class:`Chain`: stages rolled in order, each only on given outcomes of the one before
  (hit -> damage -> location -> save).

Each gives exact :class:`~fractions.Fraction` odds for every :class:`Outcome`, a
breakdown naming every number with its rule id, the dice a player types in roll
order (:class:`Face`), per-defence :class:`Variant` s, and :meth:`Rollable.to_json`
in one shape the page renders without knowing the ruleset. Rolling gives a
:class:`RollResult` that explains itself for the log.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from .dice import (
    COMPARISONS,
    Dice,
    DiceExpr,
    Roll,
    chance,
    chance_opposed,
    dice_words,
    distribution,
    parse,
)
from .errors import HexcombatError
from .rounding import round_half_up

MINUS = "\u2212"
"""The minus sign used in display text (plain data keeps ordinary ints)."""

# The comparison's symbol when it holds, and the symbol of what holds instead when it fails.
_SYMBOLS = {"le": "≤", "lt": "<", "ge": "≥", "gt": ">", "eq": "="}
_FAILED_SYMBOLS = {"le": ">", "lt": "≥", "ge": "<", "gt": "≤", "eq": "≠"}


class CheckError(HexcombatError):
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

    def flag(self, key: str, default: bool) -> bool:
        value = self._get(key, "true or false", default)
        if not isinstance(value, bool):
            raise self._wrong(key, "true or false")
        return value


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
    return f"{roll.total} ({dice_words(roll.expr)}: {faces})"


def _with_modifiers(start: str, modifiers: Sequence[Modifier], total: int) -> str:
    if not modifiers:
        return start
    return ", ".join([start, *(m.line for m in modifiers)]) + f" = {total}"


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


@dataclass(frozen=True)
class Outcome:
    """One way a roll can come out, with its exact chance: ``Outcome("success", "hit", 3/5)``.

    ``phrase`` is what a player reads after the percentage when this outcome heads a preview
    ("60% to hit", "45% that Bo wins"); the ruleset words it, since only it knows whether
    its label is a verb, a state or a name. Without one the page reads "60% chance: hit".
    """

    id: str
    label: str
    chance: Fraction
    phrase: str = field(default="", compare=False)

    @property
    def words(self) -> str:
        """The phrase after the percentage: ``phrase``, else ``chance: <label>``.

        >>> Outcome("success", "hit", Fraction(3, 5), "to hit").words
        'to hit'
        >>> Outcome("success", "dodged", Fraction(1, 2)).words
        'chance: dodged'
        """
        return self.phrase or f"chance: {self.label}"

    def to_json(self) -> dict[str, Any]:
        """``{"id", "label", "chance": "3/5", "percent": "60%", "phrase": "to hit"}``."""
        return {
            "id": self.id,
            "label": self.label,
            "chance": _fraction(self.chance),
            "percent": percent(self.chance),
            "phrase": self.words,
        }


@dataclass(frozen=True)
class Face:
    """One die a player types, in roll order: its sides, its dice expression and whose it is.

    ``when`` is empty for a die that is always rolled, else the condition in words
    (``"if hit"``): such a die is asked for only once the roll before it came out so.
    """

    sides: int
    dice: str
    who: str = ""
    when: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"sides", "dice", "who", "when"}``."""
        return {"sides": self.sides, "dice": self.dice, "who": self.who, "when": self.when}


@dataclass(frozen=True)
class Variant:
    """The same roll against one defence the other side may choose (``"Dodge (needs 15)"``)."""

    label: str
    rollable: Rollable

    def to_json(self) -> dict[str, Any]:
        """The rollable's JSON under the variant's label."""
        return {**self.rollable.to_json(), "label": self.label}


class RollResult(ABC):
    """A resolved rollable: which outcome came up, every roll made, and a line for the log."""

    @property
    @abstractmethod
    def outcome_id(self) -> str:
        """The id of the outcome that came up (one of the rollable's outcome ids)."""

    @property
    @abstractmethod
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll made, in order."""

    @abstractmethod
    def explain(self) -> str:
        """One line for the log: the numbers, the roll and the outcome."""


class Rollable(ABC):
    """What an action rolls: exact odds per outcome, breakdown, dice in roll order, JSON."""

    kind: ClassVar[str]
    label: str
    rule: str
    variants: tuple[Variant, ...]

    @abstractmethod
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every outcome with its exact chance; the chances sum to 1."""

    @abstractmethod
    def headline(self) -> Outcome | None:
        """The chance a badge shows (success, the attacker winning), or None for an amount."""

    @abstractmethod
    def breakdown(self) -> list[str]:
        """One line per number, each named with its rule id, and what the roll needs."""

    @abstractmethod
    def roll_order(self) -> list[str]:
        """The dice expressions rolled, in order (every stage of a chain)."""

    @abstractmethod
    def faces(self) -> tuple[Face, ...]:
        """Every die a player types, in roll order."""

    @abstractmethod
    def roll(self, dice: Dice) -> RollResult:
        """Roll from ``dice`` (seeded or typed faces) and resolve."""

    def to_json(self) -> dict[str, Any]:
        """The one shape the page renders, whatever the ruleset and kind."""
        headline = self.headline()
        data: dict[str, Any] = {
            "kind": self.kind,
            "label": self.label,
            "rule": self.rule,
            "dice": self.roll_order(),
            "faces": [f.to_json() for f in self.faces()],
            "outcomes": [o.to_json() for o in self.outcomes()],
            "headline": headline.to_json() if headline else None,
            "breakdown": self.breakdown(),
            "stages": [],
            "variants": [v.to_json() for v in self.variants],
        }
        return data


def _faces(expr: DiceExpr, who: str = "") -> list[Face]:
    return [Face(sides, expr.words, who) for sides in expr.faces_needed()]


@dataclass(frozen=True)
class Check(Rollable):
    """One roll against a target: ``dice + roll_modifiers <comparison> base + modifiers``.

    ``comparison`` is one of ``le``, ``lt``, ``ge``, ``gt``, ``eq``; ``default_sides`` is
    the ruleset's die for a bare ``D``; ``success_text`` and ``failure_text`` name the
    outcomes (ids ``success`` and ``failure``), e.g. "hit" and "miss"; ``success_phrase``
    words the chance of success after its percentage ("to hit": "60% to hit").
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

    def __post_init__(self) -> None:
        _validated_comparison(self.comparison)
        parse(self.dice, self.default_sides)  # raises DiceSyntaxError early
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "roll_modifiers", tuple(self.roll_modifiers))
        object.__setattr__(self, "variants", tuple(self.variants))

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

    def outcomes(self) -> tuple[Outcome, ...]:
        """Success and failure, with their exact chances."""
        p = self.chance()
        return (
            Outcome("success", self.success_text, p, self.success_phrase),
            Outcome("failure", self.failure_text, 1 - p),
        )

    def headline(self) -> Outcome:
        """The chance of success."""
        return self.outcomes()[0]

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
        return lines

    def roll_order(self) -> list[str]:
        """The one dice expression."""
        return [self.expr.text]

    def faces(self) -> tuple[Face, ...]:
        """One face per die of the expression."""
        return tuple(_faces(self.expr))

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

    @property
    def outcome_id(self) -> str:
        """``success`` or ``failure``."""
        return "success" if self.success else "failure"

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The one roll."""
        return (self.roll,)

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
        return f"{self.name} " + _with_modifiers(_roll_text(roll), self.modifiers, total)


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
    """

    kind: ClassVar[str] = "opposed"
    label: str
    attacker: OpposedSide
    defender: OpposedSide
    wins: str = "higher"
    ties: str = "defender"
    rule: str = ""
    variants: tuple[Variant, ...] = ()

    def __post_init__(self) -> None:
        if (self.wins, self.ties) not in _OPPOSED:
            raise CheckError(
                f"an opposed check needs wins='higher' or 'lower' and ties='attacker' or "
                f"'defender', got wins={self.wins!r}, ties={self.ties!r}"
            )
        object.__setattr__(self, "variants", tuple(self.variants))

    @property
    def comparison(self) -> str:
        """How the attacker's total must compare with the defender's to win."""
        return _OPPOSED[(self.wins, self.ties)]

    def _chance(self, comparison: str) -> Fraction:
        a, d = self.attacker, self.defender
        return chance_opposed(a.expr, comparison, d.expr, bonus_a=a.bonus, bonus_b=d.bonus)

    def chance(self) -> Fraction:
        """The exact probability that the attacker wins (ties included when they go to it)."""
        return self._chance(self.comparison)

    def outcomes(self) -> tuple[Outcome, ...]:
        """Win, tie (named with who takes it) and lose, each exact."""
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
        ]

    def roll_order(self) -> list[str]:
        """The attacker's dice, then the defender's."""
        return [self.attacker.expr.text, self.defender.expr.text]

    def faces(self) -> tuple[Face, ...]:
        """The attacker's dice, then the defender's, each named with its side."""
        a, d = self.attacker, self.defender
        return (*_faces(a.expr, a.name), *_faces(d.expr, d.name))

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
        won = COMPARISONS[self.comparison](a_total, d_total)
        return OpposedResult(self, attacker_roll, defender_roll, a_total, d_total, won)

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

    @property
    def outcome_id(self) -> str:
        """``win``, ``tie`` or ``lose``."""
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


@dataclass(frozen=True)
class Band:
    """A range of totals that reads as one entry of a table: ``Band(1, 2, "legs", "Legs")``."""

    low: int
    high: int
    id: str
    label: str


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
        chances: dict[tuple[str, str], Fraction] = {}
        for total, p in self._totals().items():
            key = self._named(total)
            chances[key] = chances.get(key, Fraction(0)) + p
        return tuple(Outcome(i, label, p) for (i, label), p in chances.items())

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
        return tuple(_faces(self.expr, self.who))

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
        rolled = _with_modifiers(_roll_text(self.roll), a.modifiers, self.total)
        band = a._band(self.total)
        named = f": {band.label}" if band else (f" {a.unit}" if a.unit else "")
        return f"{a.label}: rolled {rolled}{named}"


@dataclass(frozen=True)
class Stage:
    """One step of a :class:`Chain`, rolled only ``when`` the step before came out so.

    ``when`` holds outcome ids of the previous stage; empty means "whenever the
    previous stage was rolled".
    """

    id: str
    rollable: Rollable
    when: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "when", tuple(self.when))


@dataclass(frozen=True)
class Chain(Rollable):
    """Rolls in order, each only on given outcomes of the one before (hit -> damage -> save).

    Outcomes are where the chain stops: ``"hit.failure"`` (a miss ends it), or an
    outcome of the last stage rolled (``"damage.4"``); their chances sum to 1.
    """

    kind: ClassVar[str] = "chain"
    label: str
    stages: tuple[Stage, ...]
    rule: str = ""
    variants: tuple[Variant, ...] = ()
    headline_stage: str = ""
    """The stage whose headline, times the chance it is reached, heads the chain (default:
    the first stage's): a missile checked against a bystander first heads with its target."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", tuple(self.stages))
        object.__setattr__(self, "variants", tuple(self.variants))
        if not self.stages:
            raise CheckError(f"{self.label!r}: a chain needs at least one stage")
        if self.headline_stage and self.headline_stage not in [s.id for s in self.stages]:
            raise CheckError(f"{self.label!r}: no stage {self.headline_stage!r} to head it")
        if self.stages[0].when:
            raise CheckError(f"{self.label!r}: the first stage is always rolled (no 'when')")
        ids = [s.id for s in self.stages]
        if len(set(ids)) != len(ids):
            raise CheckError(f"{self.label!r}: stage ids must differ, got {ids}")
        for before, stage in zip(self.stages, self.stages[1:], strict=False):
            known = [o.id for o in before.rollable.outcomes()]
            unknown = [w for w in stage.when if w not in known]
            if unknown:
                raise CheckError(
                    f"{self.label!r}: stage {stage.id!r} follows outcome(s) {unknown} that "
                    f"{before.id!r} does not have (its outcomes: {', '.join(known)})"
                )

    def reached(self) -> list[Fraction]:
        """The exact chance that each stage is rolled at all."""
        chances = [Fraction(1)]
        for before, stage in zip(self.stages, self.stages[1:], strict=False):
            go = sum(
                (o.chance for o in before.rollable.outcomes() if _goes_on(stage, o.id)), Fraction(0)
            )
            chances.append(chances[-1] * go)
        return chances

    def _when_text(self, index: int) -> str:
        """``if hit`` for a stage rolled only after given outcomes ('' when always rolled)."""
        for i in range(index, 0, -1):
            stage, before = self.stages[i], self.stages[i - 1]
            if stage.when:
                labels = {o.id: o.label for o in before.rollable.outcomes()}
                return "if " + " or ".join(labels[w] for w in stage.when)
        return ""

    def outcomes(self) -> tuple[Outcome, ...]:
        """Where the chain stops, stage by stage, each with its exact chance."""
        result = []
        reached = self.reached()
        for i, stage in enumerate(self.stages):
            after = self.stages[i + 1] if i + 1 < len(self.stages) else None
            for o in stage.rollable.outcomes():
                if after is None or not _goes_on(after, o.id):
                    label = f"{stage.rollable.label}: {o.label}"
                    result.append(Outcome(f"{stage.id}.{o.id}", label, reached[i] * o.chance))
        return tuple(result)

    def headline(self) -> Outcome | None:
        """The first stage's headline (the chance to hit), or ``headline_stage``'s times the
        chance that it is rolled at all."""
        if not self.headline_stage:
            return self.stages[0].rollable.headline()
        index = [s.id for s in self.stages].index(self.headline_stage)
        head = self.stages[index].rollable.headline()
        if head is None:
            return None
        return Outcome(head.id, head.label, self.reached()[index] * head.chance, head.phrase)

    def breakdown(self) -> list[str]:
        """The first stage's breakdown, then each later stage under its condition."""
        lines = list(self.stages[0].rollable.breakdown())
        for i, stage in enumerate(self.stages[1:], start=1):
            when = self._when_text(i) if stage.when else "then"
            lines.append(f"{when[0].upper()}{when[1:]}: {stage.rollable.label}")
            lines += [f"  {line}" for line in stage.rollable.breakdown()]
        return lines

    def roll_order(self) -> list[str]:
        """Every stage's dice, in order."""
        return [d for stage in self.stages for d in stage.rollable.roll_order()]

    def faces(self) -> tuple[Face, ...]:
        """Every stage's dice in order; later ones say when they are rolled (``if hit``)."""
        return tuple(
            Face(f.sides, f.dice, f.who, f.when or self._when_text(i))
            for i, stage in enumerate(self.stages)
            for f in stage.rollable.faces()
        )

    def roll(self, dice: Dice) -> ChainResult:
        """Roll the stages in order, stopping when an outcome does not lead on."""
        results: list[RollResult] = []
        for stage in self.stages:
            if results and not _goes_on(stage, results[-1].outcome_id):
                break
            results.append(stage.rollable.roll(dice))
        return ChainResult(self, tuple(results))

    def to_json(self) -> dict[str, Any]:
        """The common shape, with ``stages``: each stage's JSON, ``when`` and its chance."""
        data = super().to_json()
        reached = self.reached()
        data["stages"] = [
            {
                **stage.rollable.to_json(),
                "id": stage.id,
                "when": list(stage.when),
                "when_text": self._when_text(i),
                "reached": Outcome("reached", "rolled", reached[i]).to_json(),
            }
            for i, stage in enumerate(self.stages)
        ]
        return data


def _goes_on(stage: Stage, outcome_id: str) -> bool:
    return not stage.when or outcome_id in stage.when


@dataclass(frozen=True)
class ChainResult(RollResult):
    """A rolled chain: the result of each stage rolled, in order."""

    chain: Chain
    results: tuple[RollResult, ...]

    @property
    def outcome_id(self) -> str:
        """Where the chain stopped: ``"<stage id>.<outcome id>"``."""
        return f"{self.chain.stages[len(self.results) - 1].id}.{self.results[-1].outcome_id}"

    def result(self, stage_id: str) -> RollResult | None:
        """The result of the stage ``stage_id`` (None when it was not rolled)."""
        for stage, result in zip(self.chain.stages, self.results, strict=False):
            if stage.id == stage_id:
                return result
        return None

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll of every stage, in order."""
        return tuple(r for result in self.results for r in result.rolls)

    def lines(self) -> list[str]:
        """One line per stage rolled."""
        return [r.explain() for r in self.results]

    def explain(self) -> str:
        """The stages' lines joined: ``To hit: ... hit; Damage: rolled 4``."""
        return "; ".join(self.lines())
