"""Time: a ruleset's steps per time unit, the clock that walks them, and hidden declarations.

A round, Pulse or phase is a :class:`TurnSequence` of :class:`StepDef`
objects; half-phases are simply steps of their own. The :class:`Clock` says
which unit and step it is now. :class:`Declarations` collect choices that
every figure commits privately before any is revealed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import IllegalActionError
from .validation import Json

STEP_KINDS = ("declare", "move", "act", "upkeep")


@dataclass(frozen=True)
class StepDef:
    """One step of a time unit: its id, what players see, and what kind of step it is.

    ``kind`` is one of :data:`STEP_KINDS`; ``simultaneous`` steps collect
    every figure's choice before resolving any of them.
    """

    id: str
    label: str
    kind: str
    simultaneous: bool = False
    help: str = ""
    rule: str = ""

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        return {
            "id": self.id,
            "label": self.label,
            "kind": self.kind,
            "simultaneous": self.simultaneous,
            "help": self.help,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class TurnSequence:
    """The ordered steps of one time unit (``unit`` names it: round, Pulse, phase)."""

    unit: str
    steps: tuple[StepDef, ...]

    def __post_init__(self) -> None:
        ids = [s.id for s in self.steps]
        if not ids or len(set(ids)) != len(ids):
            raise ValueError(f"a turn sequence needs steps with distinct ids, got {ids}")

    def index(self, step_id: str) -> int:
        """Position of the step ``step_id``."""
        for i, step in enumerate(self.steps):
            if step.id == step_id:
                return i
        raise KeyError(step_id)


@dataclass(frozen=True)
class Clock:
    """Where the fight is: time unit number (from 1) and the step index within it."""

    turn: int = 1
    step: int = 0

    def advanced(self, sequence: TurnSequence) -> Clock:
        """The clock one step later, rolling over into the next time unit."""
        if self.step + 1 < len(sequence.steps):
            return Clock(self.turn, self.step + 1)
        return Clock(self.turn + 1, 0)

    def current(self, sequence: TurnSequence) -> StepDef:
        """The step that is under way."""
        return sequence.steps[self.step]

    def label(self, sequence: TurnSequence) -> str:
        """Human form, e.g. ``'Round 3 · Movement'``."""
        return f"{sequence.unit.capitalize()} {self.turn} · {self.current(sequence).label}"

    def to_json(self, sequence: TurnSequence) -> dict[str, Json]:
        """Plain JSON form for the turn tracker."""
        return {
            "unit": sequence.unit,
            "turn": self.turn,
            "step": self.current(sequence).to_json(),
            "step_index": self.step,
            "steps": [s.to_json() for s in sequence.steps],
            "label": self.label(sequence),
        }


class Declarations:
    """Choices committed privately, figure by figure, and revealed together.

    The values are kept in a plain dict (``data``) so a ruleset can store them
    in its JSON memory; nothing is visible through :meth:`revealed` until every
    expected figure has declared.
    """

    def __init__(self, data: dict[str, Json]) -> None:
        self.data = data

    def declare(self, figure_id: str, choice: Json, expected: Iterable[str]) -> None:
        """Commit ``figure_id``'s choice; each figure declares once."""
        if figure_id not in set(expected):
            raise IllegalActionError(f"{figure_id} has nothing to declare in this step")
        if figure_id in self.data:
            raise IllegalActionError(f"{figure_id} has already declared in this step")
        self.data[figure_id] = choice

    def waiting_for(self, expected: Iterable[str]) -> list[str]:
        """The expected figures that have not declared yet, in order."""
        return [f for f in expected if f not in self.data]

    def complete(self, expected: Iterable[str]) -> bool:
        """True once every expected figure has declared."""
        return not self.waiting_for(expected)

    def revealed(self, expected: Iterable[str]) -> Mapping[str, Json]:
        """Every choice, once all are in (IllegalActionError before that)."""
        missing = self.waiting_for(expected)
        if missing:
            raise IllegalActionError(
                f"declarations are hidden until all are made; waiting for {', '.join(missing)}"
            )
        return dict(self.data)
