"""What every rollable shares: modifiers, outcomes, faces to type, per-defence variants, the
:class:`Rollable` interface and its :class:`RollResult`, and the words for numbers and odds."""

from __future__ import annotations

import dataclasses
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from hexcombat.dice import Dice, DiceExpr, Roll, dice_words
from hexcombat.errors import HexcombatError
from hexcombat.rounding import round_half_up

MINUS = "\u2212"
"""The minus sign used in display text (plain data keeps ordinary ints)."""


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


def roll_text(roll: Roll) -> str:
    """``43`` for one plain die, else the total with the dice: ``15 (3d10kh2: 3 dropped, 9, 6)``."""
    if not roll.dice or (len(roll.dice) == 1 and roll.expr == f"d{roll.dice[0].sides}"):
        return str(roll.total)  # a plain die, or a total with no dice (typed as a number)
    faces = ", ".join(str(d.value) if d.kept else f"{d.value} dropped" for d in roll.dice)
    return f"{roll.total} ({dice_words(roll.expr)}: {faces})"


def with_modifiers(start: str, modifiers: Sequence[Modifier], total: int) -> str:
    """``start``, then each modifier's line and ``= total``; just ``start`` without any."""
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
    """What an action rolls: exact odds per outcome, breakdown, dice in roll order, JSON.

    Every rollable's :meth:`roll` (a ruleset's own kinds too) is recorded by the dice it
    rolls from (:meth:`~hexcombat.dice.Dice.through`): its :attr:`id`, its rolls and the
    outcome reached, so a log entry says which previewed rollable it rolled and how it came
    out.
    """

    kind: ClassVar[str]
    label: str
    rule: str
    variants: tuple[Variant, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "roll" in cls.__dict__:
            cls.roll = _recorded(cls.__dict__["roll"])  # type: ignore[method-assign,assignment]

    @cached_property
    def id(self) -> str:
        """Which rollable this is, as its preview names it: a digest of everything it is
        made of but its variants (two rollables with the same id roll the same dice to the
        same outcomes; a variant is another rollable, with its own id). Worked out once per
        rollable (they never change)."""
        plain = dataclasses.replace(self, variants=()) if self.variants else self  # type: ignore[type-var]
        return hashlib.sha256(repr(plain).encode()).hexdigest()[:12]

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
        """The one shape the page renders, whatever the ruleset and kind; ``rollable`` is
        its :attr:`id`, as a log entry's records name it."""
        headline = self.headline()
        data: dict[str, Any] = {
            "rollable": self.id,
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


Rolling = TypeVar("Rolling", bound=Rollable)
Made = TypeVar("Made", bound=RollResult)


def _recorded(roll: Callable[[Rolling, Dice], Made]) -> Callable[[Rolling, Dice], Made]:
    """``roll`` recorded by the dice it rolls from."""

    def recorded(self: Rolling, dice: Dice) -> Made:
        return dice.through(self, lambda: roll(self, dice))

    recorded.__doc__ = roll.__doc__
    recorded.__name__ = roll.__name__
    return recorded


def faces_of(expr: DiceExpr, who: str = "") -> list[Face]:
    """The dice a player types for ``expr``, one :class:`Face` per die, in roll order."""
    return [Face(sides, expr.words, who) for sides in expr.faces_needed()]
