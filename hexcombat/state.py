"""The state of a fight at one moment: board, figures, clock and the ruleset's bookkeeping.

A state is always derived by replaying an encounter's setup and action log;
rulesets change it only inside ``resolve``, on a copy that is kept only if
the whole action succeeds.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .board import Board
from .errors import IllegalActionError
from .events import Event
from .figures import Figure
from .geometry import Hex
from .sequencing import Clock, StepDef
from .validation import Json

if TYPE_CHECKING:
    from .rulesets.base import Ruleset


@dataclass
class GameState:
    """Everything the rules need to decide what happens next."""

    ruleset: Ruleset
    options: dict[str, Json]
    data: dict[str, Json]
    board: Board
    figures: dict[str, Figure]
    clock: Clock = field(default_factory=Clock)
    memory: dict[str, Json] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)

    def copy(self) -> GameState:
        """A copy to change: figures, clock and memory are copied, events start empty.

        The board, the options and the data tables are shared: they never change during play.
        """
        return GameState(
            self.ruleset,
            self.options,
            self.data,
            self.board,
            {fid: f.copy() for fid, f in self.figures.items()},
            self.clock,
            copy.deepcopy(self.memory),
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
        """The step of the time unit under way."""
        return self.clock.current(self.ruleset.sequence)

    def emit(self, event: Event) -> Event:
        """Record an event stamped with the clock; returns it as recorded."""
        stamped = replace(
            event,
            data={"turn": self.clock.turn, "step": self.step.id, **dict(event.data)},
        )
        self.events.append(stamped)
        return stamped
