"""Rolls and the sources of randomness: :class:`SeededDice` for play, :class:`ScriptedDice` for
tests and for players who roll real dice."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hexcombat.dice.expr import DiceExhaustedError, DiceExpr, DiceFaceError, DiceSyntaxError, _clamp
from hexcombat.dice.parser import _as_expr, parse
from hexcombat.errors import HexcombatError
from hexcombat.validation import shown

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


@dataclass(frozen=True)
class Rolled:
    """What one rollable rolled: its id (as its preview names it), every roll it made, and
    the outcome it reached; a roll made through no rollable has an empty id and outcome."""

    rollable: str
    outcome: str
    rolls: tuple[Roll, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face thrown, in roll order."""
        return tuple(face for roll in self.rolls for face in roll.faces)

    def to_json(self) -> dict[str, object]:
        """``{"rollable", "outcome", "rolls": n}``: the ``n`` rolls of the log entry it made."""
        data: dict[str, object] = {"rolls": len(self.rolls)}
        if self.rollable:
            data.update(rollable=self.rollable, outcome=self.outcome)
        return data


class Named(Protocol):
    """A rollable as the dice see it: what its id is."""

    @property
    def id(self) -> str: ...


class Reached(Protocol):
    """A rollable's result as the dice see it: the outcome it reached."""

    @property
    def outcome_id(self) -> str: ...


Result = TypeVar("Result", bound=Reached)


class BareRollError(HexcombatError):
    """Dice rolled through no rollable where only rollables may roll (an action)."""


# --------------------------------------------------------------------------- dice sources


class Dice(ABC):
    """A source of dice rolls; every roll made through it is kept in :attr:`rolls`."""

    def __init__(self) -> None:
        self._rolls: list[Roll] = []
        self._rolled: list[Rolled] = []
        self._within = 0
        self._bare = True

    def only_through_rollables(self) -> None:
        """Refuse from now on any roll made through no rollable (an action rolls only what a
        preview can show: :meth:`through`)."""
        self._bare = False

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll made through this object, oldest first."""
        return tuple(self._rolls)

    @property
    def rolled(self) -> tuple[Rolled, ...]:
        """Every rollable rolled through this object, oldest first, with its rolls and outcome
        (a rollable rolled inside another, a chain's stage, is part of the outer one's)."""
        return tuple(self._rolled)

    def through(self, rollable: Named, make: Callable[[], Result]) -> Result:
        """Roll ``rollable`` by ``make`` and record what it rolled and reached."""
        start = len(self._rolls)
        self._within += 1
        try:
            result = make()
        finally:
            self._within -= 1
        if not self._within:
            self._rolled.append(Rolled(rollable.id, result.outcome_id, tuple(self._rolls[start:])))
        return result

    def roll(self, expr: str | DiceExpr, default_sides: int | None = None) -> Roll:
        """Throw the dice of ``expr`` and return the roll (also recorded in :attr:`rolls`)."""
        parsed = _as_expr(expr, default_sides)
        if not self._within and not self._bare:
            raise BareRollError(
                f"{parsed.text} was rolled through no rollable: an action rolls only what its "
                "preview can show"
            )
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
        if not self._within:
            self._rolled.append(Rolled("", "", (result,)))
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
