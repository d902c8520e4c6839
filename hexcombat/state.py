"""The state of a fight at one moment: board, figures, clock, prompts and the ruleset's bookkeeping.

A state is always derived by replaying an encounter's setup and action log;
rulesets change it only inside ``resolve``, on a copy that is kept only if
the whole action succeeds. A :class:`Prompt` is a question put to one figure
(a reaction such as a dodge); while one is open only its answers are legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexcombat.actions import ActionSpec
from hexcombat.board import Board
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import Hex
from hexcombat.time import Clock, Declarations, StepDef
from hexcombat.validation import Json, copy_json

if TYPE_CHECKING:
    from hexcombat.rulesets.base import Ruleset


@dataclass(frozen=True)
class Prompt:
    """A question put to ``figure`` that must be answered before anything else happens.

    ``answers`` are the only actions legal while it is open; ``context`` is
    plain data the answer's handler reads (the attacker, the weapon...).
    """

    id: str
    figure: str
    question: str
    answers: tuple[ActionSpec, ...]
    rule: str = ""
    context: Json = None

    def to_json(self, figure_name: str) -> dict[str, Json]:
        """Plain JSON form for the page."""
        return {
            "id": self.id,
            "figure": self.figure,
            "figure_name": figure_name,
            "question": self.question,
            "rule": self.rule,
            "answers": [a.to_json() for a in self.answers],
        }


@dataclass
class GameState:
    """Everything the rules need to decide what happens next."""

    ruleset: Ruleset
    options: dict[str, Json]
    data: dict[str, Json]
    board: Board
    figures: dict[str, Figure]
    clock: Clock
    memory: dict[str, Json] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    declarations: Declarations = field(default_factory=Declarations)
    prompts: list[Prompt] = field(default_factory=list)
    asked: int = 0
    secrets: tuple[Event, ...] = ()
    """Events holding a secret whose time has not come yet (:mod:`hexcombat.secrets`)."""

    def copy(self) -> GameState:
        """A copy to change: figures, clock, memory, choices and prompts; events start empty.

        The board, the options and the data tables are shared: they never change during play.
        """
        return GameState(
            self.ruleset,
            self.options,
            self.data,
            self.board,
            {fid: f.copy() for fid, f in self.figures.items()},
            self.clock,
            copy_json(self.memory),
            declarations=self.declarations.copy(),
            prompts=list(self.prompts),
            asked=self.asked,
            secrets=self.secrets,
        )

    def figure(self, figure_id: str | None) -> Figure:
        """The figure ``figure_id`` (IllegalActionError naming the figures there are)."""
        if figure_id is not None and figure_id in self.figures:
            return self.figures[figure_id]
        known = ", ".join(self.figures) or "none"
        raise IllegalActionError(f"there is no figure {figure_id!r}; figures: {known}")

    def living(self) -> Iterator[Figure]:
        """Figures still in the fight, in setup order (the ruleset decides who is out)."""
        return (f for f in self.figures.values() if not self.ruleset.is_out(self, f))

    def occupants(self, h: Hex) -> list[Figure]:
        """Figures standing in ``h``."""
        return [f for f in self.figures.values() if h in f.hexes()]

    def option(self, name: str) -> Json:
        """The value of the ruleset option ``name`` for this encounter."""
        return self.options[name]

    @property
    def step(self) -> StepDef:
        """The step under way."""
        return self.ruleset.step_def(self, self.clock.step)

    @property
    def prompt(self) -> Prompt | None:
        """The open prompt (the first asked and not yet answered), if any."""
        return self.prompts[0] if self.prompts else None

    def ask(
        self,
        figure_id: str,
        question: str,
        answers: tuple[ActionSpec, ...],
        *,
        rule: str = "",
        context: Json = None,
        text: str = "",
    ) -> Prompt:
        """Put ``question`` to a figure; the event says ``text`` (default: the question)."""
        if not answers:
            raise ValueError("a prompt needs at least one answer")
        self.asked += 1
        prompt = Prompt(f"prompt-{self.asked}", figure_id, question, answers, rule, context)
        self.prompts.append(prompt)
        self.emit(
            Event(
                "reaction",
                text or question,
                figure_id,
                rule=rule,
                data={"prompt": prompt.id, "question": question},
            )
        )
        return prompt

    def emit(self, event: Event) -> Event:
        """Record an event stamped with the clock; returns it as recorded."""
        stamped = Event(  # every field but data, as dataclasses.replace would, for less
            event.kind,
            event.text,
            event.figure,
            event.target,
            event.rule,
            event.details,
            event.rolls,
            {"time": list(self.clock.counters), "step": self.clock.step, **dict(event.data)},
            event.secret,
        )
        self.events.append(stamped)
        if stamped.secret is not None:
            self.secrets = (*self.secrets, stamped)
        return stamped
