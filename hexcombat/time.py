"""Time: a ruleset's nested units and steps, the clock, who acts now, and hidden choices.

A ruleset declares its :class:`Time`: units outermost first (``("round",)``,
``("round", "pulse")``, ``("phase", "half-phase")``) and its steps
(:class:`StepDef`). The :class:`Clock` holds one counter per unit and the
current step; the ruleset decides the next clock from the state.
:class:`Acting` says who acts now, and :class:`Declarations` keep the choices
of a hidden step until all are in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from hexcombat.actions import Action
from hexcombat.errors import IllegalActionError
from hexcombat.validation import Json

STEP_KINDS = ("declare", "move", "act", "upkeep")
"""What a step is for; the default :meth:`~hexcombat.rulesets.base.Ruleset.acting` reads it:
``declare`` steps collect hidden choices from everyone, ``upkeep`` steps are the table's alone."""

ACTING_MODES = ("figure", "side", "all", "table")


@dataclass(frozen=True)
class StepDef:
    """One step: its id, what players see, its kind (:data:`STEP_KINDS`) and its rule.

    ``unit`` names the unit the step belongs to (empty: the innermost); the
    label of a step counts the units down to it ("Phase 2 · Declare speed").
    """

    id: str
    label: str
    kind: str
    help: str = ""
    rule: str = ""
    unit: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise ValueError(f"step {self.id!r}: kind must be one of {STEP_KINDS}")

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        return {
            "id": self.id,
            "label": self.label,
            "kind": self.kind,
            "help": self.help,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class Clock:
    """Where the fight is: a counter per unit (outermost first, from 1) and the step id."""

    counters: tuple[int, ...]
    step: str

    def at(self, step: str) -> Clock:
        """The same units at another step."""
        return Clock(self.counters, step)

    def rolled(self, unit: int, step: str) -> Clock:
        """``step`` of the next unit number ``unit`` (an index): inner counters restart at 1."""
        counters = (*self.counters[:unit], self.counters[unit] + 1)
        return Clock(counters + (1,) * (len(self.counters) - unit - 1), step)


def unit_label(unit: str, number: int) -> str:
    """``'Half-phase 2'`` for ``('half-phase', 2)``."""
    return f"{unit[:1].upper()}{unit[1:]} {number}"


@dataclass(frozen=True)
class Time:
    """A ruleset's time: its units, outermost first, and its steps in declared order."""

    units: tuple[str, ...]
    steps: tuple[StepDef, ...]

    def __post_init__(self) -> None:
        ids = [s.id for s in self.steps]
        if not self.units or not ids or len(set(ids)) != len(ids):
            raise ValueError(f"time needs units and steps with distinct ids, got {ids}")
        for s in self.steps:
            if s.unit and s.unit not in self.units:
                raise ValueError(f"step {s.id!r} belongs to unknown unit {s.unit!r}")

    def step(self, step_id: str) -> StepDef:
        """The step ``step_id``."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise ValueError(f"no step {step_id!r}; steps: {', '.join(s.id for s in self.steps)}")

    def index(self, step_id: str) -> int:
        """Position of the step ``step_id`` in declared order."""
        return self.steps.index(self.step(step_id))

    def start(self) -> Clock:
        """The first step of unit 1 of every unit."""
        return Clock((1,) * len(self.units), self.steps[0].id)

    def following(self, clock: Clock) -> list[Clock]:
        """Every step once, in declared order after ``clock``'s; past the last one the
        innermost unit rolls over."""
        i = self.index(clock.step)
        later = [clock.at(s.id) for s in self.steps[i + 1 :]]
        inner = len(self.units) - 1
        return later + [clock.rolled(inner, s.id) for s in self.steps[: i + 1]]

    def numbers(self, clock: Clock) -> list[tuple[str, int]]:
        """The units the current step counts, with their numbers (outermost first)."""
        unit = self.step(clock.step).unit or self.units[-1]
        depth = self.units.index(unit) + 1
        return list(zip(self.units[:depth], clock.counters[:depth], strict=True))

    def label(self, clock: Clock) -> str:
        """Human form, e.g. ``'Round 2 · Pulse 3 · Combat'``."""
        parts = [unit_label(u, n) for u, n in self.numbers(clock)]
        return " · ".join([*parts, self.step(clock.step).label])


@dataclass(frozen=True)
class Acting:
    """Who acts now.

    ``mode``: one ``figure`` at a time (the first of ``waiting``, e.g. in a
    strike order), a ``side``, ``all`` the ``figures`` at once, or the
    ``table`` alone. ``figures`` are ordered (a strike order is the order
    itself); ``hidden`` steps keep each choice secret until all are in;
    ``waiting`` are the figures that still have to choose or act;
    ``order_notes`` say why the order is what it is, with rule ids.
    """

    mode: str
    figures: tuple[str, ...] = ()
    hidden: bool = False
    waiting: tuple[str, ...] = ()
    order_notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in ACTING_MODES:
            raise ValueError(f"acting mode must be one of {ACTING_MODES}, got {self.mode!r}")

    def now(self) -> tuple[str, ...]:
        """The figures that may act at this moment."""
        if self.mode == "table":
            return ()
        if self.mode == "figure":
            return self.waiting[:1]
        return self.waiting if self.hidden else self.figures

    def may_act(self, figure_id: str) -> bool:
        """True when ``figure_id`` may act at this moment."""
        return figure_id in self.now()

    def offering(self, ready: Sequence[str]) -> Acting:
        """This acting as the turn line shows it: ``waiting`` is exactly ``ready``, the
        figures offered an action now (ux.md: what the turn line says is what the rules allow)."""
        return replace(self, waiting=tuple(ready))

    def text(self, names: Mapping[str, str]) -> str:
        """One line for the turn tracker, e.g. 'Ann and Bo act (engaged first, SCP-6)'."""
        notes = f" ({'; '.join(self.order_notes)})" if self.order_notes else ""
        if self.hidden and self.waiting:
            return f"Waiting for hidden choices from {_names(self.waiting, names)}{notes}"
        now = self.waiting if self.mode in ("all", "side") else self.now()
        if not now:
            return "The table acts" if self.mode == "table" else "Nobody has to act"
        verb = "acts" if len(now) == 1 else "act"
        return f"{_names(now, names)} {verb}{notes}"

    def to_json(self, names: Mapping[str, str]) -> dict[str, Json]:
        """Plain JSON form for the turn tracker."""
        return {
            "mode": self.mode,
            "figures": list(self.figures),
            "names": [names.get(f, f) for f in self.figures],
            "hidden": self.hidden,
            "waiting": list(self.waiting),
            "order_notes": list(self.order_notes),
            "text": self.text(names),
        }


def _names(ids: Sequence[str], names: Mapping[str, str]) -> str:
    shown = [names.get(i, i) for i in ids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


@dataclass
class Declarations:
    """The choices of a hidden step, one per figure, kept secret until :attr:`revealed`.

    ``concealed``: figures whose choice is made but taken out of this copy (a state as
    another side may know it, :func:`hexcombat.secrets.visible_state`)."""

    choices: dict[str, Action] = field(default_factory=dict)
    revealed: bool = False
    concealed: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def made(self, figure_id: str) -> bool:
        """True when ``figure_id`` has chosen in this step (its choice known or concealed)."""
        return figure_id in self.choices or figure_id in self.concealed

    def declare(self, action: Action) -> None:
        """Keep ``action`` as its figure's choice; each figure chooses once, before the reveal."""
        fid = action.figure
        if fid is None:
            raise IllegalActionError("only a figure can make a hidden choice")
        if self.revealed:
            raise IllegalActionError("the choices of this step are already revealed")
        if fid in self.choices:
            raise IllegalActionError(f"{fid} has already chosen in this step")
        self.choices[fid] = action

    def waiting_for(self, expected: Sequence[str]) -> list[str]:
        """The expected figures that have not chosen yet (none once revealed)."""
        return [] if self.revealed else [f for f in expected if f not in self.choices]

    def in_order(self, order: Sequence[str]) -> list[Action]:
        """Every choice, ordered by ``order`` (others after, by figure id), never by entry."""
        rank = {fid: i for i, fid in enumerate(order)}
        keys = sorted(self.choices, key=lambda f: (rank.get(f, len(rank)), f))
        return [self.choices[f] for f in keys]

    def copy(self) -> Declarations:
        """A copy to change."""
        return Declarations(dict(self.choices), self.revealed, self.concealed)
