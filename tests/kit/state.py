"""``kit-duel`` bookkeeping, typed (step 1 of "Adding a ruleset"): the revealed stances and who
has struck or waited in the pass under way, over the state's JSON memory."""

from __future__ import annotations

from hexcombat.rulesets.common.memory import StateMemory


class RoundBook(StateMemory):
    """The round's stances (KIT-1, KIT-8) and the pass's figures that are done (KIT-2)."""

    def new_step(self) -> None:
        """Nobody has struck in a new step."""
        self._set("done", [])

    @property
    def done(self) -> list[str]:
        """Figures that have struck or waited in this pass."""
        return [str(f) for f in self._list("done")]

    def mark_done(self, figure_id: str) -> None:
        """The figure has struck or waited."""
        self._set("done", [*self.done, figure_id])

    @property
    def stances(self) -> dict[str, str]:
        """Revealed stances (KIT-1)."""
        return {str(k): str(v) for k, v in self._table("stances").items()}

    def take_stance(self, figure_id: str, stance: str) -> None:
        """A stance is revealed (KIT-1)."""
        self._table("stances")[figure_id] = stance

    def forget_stances(self) -> None:
        """After the last pass, stances are forgotten (KIT-8)."""
        self._set("stances", {})
