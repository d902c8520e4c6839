"""Each figure acts once per step: everyone at once, in any order, and a figure that has
used the step (a move, an attack) is done until the next step begins.

A ruleset whose steps go so subclasses :class:`OncePerStep` and calls :meth:`mark_done`
in the handler that uses a figure's step; the bookkeeping is the state memory's ``done``
list (:class:`StepBook`), so documents and replays see plain JSON.
"""

from __future__ import annotations

from hexcombat.figures import Figure
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.common.memory import StateMemory
from hexcombat.state import GameState
from hexcombat.time import Acting

DONE = "done"


class StepBook(StateMemory):
    """The step's bookkeeping: the figures that have used it."""

    def reset(self) -> None:
        """A new step: nobody has used it yet."""
        self._set(DONE, [])

    @property
    def done(self) -> list[str]:
        """The ids of the figures that have used the step, in order."""
        return [str(fid) for fid in self._list(DONE)]

    def mark_done(self, figure_id: str) -> None:
        """The figure has used the step."""
        self._list(DONE).append(figure_id)


class OncePerStep(Ruleset):
    """A ruleset whose every figure acts once per step, all at once in any order."""

    def start_step(self, state: GameState) -> None:
        """A new step: nobody has acted in it yet."""
        StepBook(state).reset()

    def acting(self, state: GameState) -> Acting:
        """Everyone at once, in any order; those who have not acted yet are waited for."""
        living = tuple(f.id for f in state.living())
        done = StepBook(state).done
        return Acting("all", living, waiting=tuple(f for f in living if f not in done))

    @staticmethod
    def is_done(state: GameState, figure: Figure) -> bool:
        """Whether the figure has used the step under way."""
        return figure.id in StepBook(state).done

    @staticmethod
    def mark_done(state: GameState, figure: Figure) -> None:
        """The figure has used the step under way."""
        StepBook(state).mark_done(figure.id)
