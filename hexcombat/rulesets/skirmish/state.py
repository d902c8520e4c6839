"""``skirmish`` bookkeeping: the figures that have used the step under way (typed, stored in
the state's JSON memory, so documents and replays are unchanged)."""

from __future__ import annotations

from hexcombat.rulesets.common.memory import StateMemory

DONE = "done"


class RoundBook(StateMemory):
    """The step's bookkeeping: who has moved (movement step) or attacked (attack step)."""

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
