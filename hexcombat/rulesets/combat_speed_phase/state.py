"""A ``combat-speed-phase`` figure's running record, typed (:class:`FigureBook`, in
``Figure.memory``).

The record holds the phase's declared N, the hexes entered, the direction of motion and
the turn costs carried between halves and phases (CSP-6, CSP-13, CSP-16, C-4, C-10, R-5),
and what the phase's strikes will do when they land together (R-7). It stays plain JSON so
that states copy and replay exactly; this class is the only code that names its keys.
"""

from __future__ import annotations

from hexcombat.rulesets.combat_speed_phase.speed import PhaseRecord
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.memory import FigureMemory
from hexcombat.validation import Json


class FigureBook(FigureMemory):
    """A figure's running record in ``figure.memory`` (all plain JSON)."""

    @property
    def n(self) -> int | None:
        """The N declared this phase (None until everyone has declared; secret from the
        table until :attr:`shown`, C-7)."""
        value = self._get("n")
        return value if isinstance(value, int) else None

    @n.setter
    def n(self, value: int | None) -> None:
        self._set("n", value)

    @property
    def shown(self) -> bool:
        """True once N is revealed with the first half's moves (C-7, C-12)."""
        return self._get("shown") is True

    @shown.setter
    def shown(self, value: bool) -> None:
        self._set("shown", value)

    @property
    def hexes(self) -> int:
        """Hexes entered this phase."""
        return self._int("hexes")

    @hexes.setter
    def hexes(self, value: int) -> None:
        self._set("hexes", value)

    @property
    def debt(self) -> int:
        """Hexes a change begun in the first half takes from the second (C-10)."""
        return self._int("debt")

    @debt.setter
    def debt(self, value: int) -> None:
        self._set("debt", value)

    @property
    def carry(self) -> int:
        """Hexes a change begun in the second half takes from the next phase (R-5)."""
        return self._int("carry")

    @carry.setter
    def carry(self, value: int) -> None:
        self._set("carry", value)

    @property
    def owed(self) -> int:
        """Hexes of this phase's first half that finish last phase's change (R-5)."""
        return self._int("owed")

    @owed.setter
    def owed(self, value: int) -> None:
        self._set("owed", value)

    @property
    def oblique(self) -> int:
        """Backward and oblique hexes entered this phase (C-6 'count_hexes')."""
        return self._int("oblique")

    @oblique.setter
    def oblique(self, value: int) -> None:
        self._set("oblique", value)

    @property
    def strikes(self) -> int:
        """Strikes made this phase (R-1)."""
        return self._int("strikes")

    @strikes.setter
    def strikes(self, value: int) -> None:
        self._set("strikes", value)

    @property
    def motion(self) -> str:
        """The direction of motion relative to facing ('' after a standstill, CSP-6, C-4)."""
        value = self._get("motion")
        return value if isinstance(value, str) else ""

    @motion.setter
    def motion(self, value: str) -> None:
        self._set("motion", value)

    @property
    def last(self) -> PhaseRecord:
        """The previous phase's N and hexes entered (CSP-13, CSP-16); stationary at first."""
        raw = self._get("last")
        if isinstance(raw, dict):
            return PhaseRecord(int_or(raw.get("n"), 0), int_or(raw.get("hexes"), 0))
        return PhaseRecord()

    @last.setter
    def last(self, value: PhaseRecord) -> None:
        self._set("last", {"n": value.n, "hexes": value.hexes})

    @property
    def pending(self) -> dict[str, Json]:
        """What strikes this phase will do to the figure when the combat step ends (R-7); a
        copy, written back with the setter."""
        pending = self._get("pending")
        return dict(pending) if isinstance(pending, dict) else {}

    @pending.setter
    def pending(self, value: dict[str, Json]) -> None:
        self._set("pending", value)

    def clear_pending(self) -> None:
        """The phase's strikes have landed."""
        self._drop("pending")
