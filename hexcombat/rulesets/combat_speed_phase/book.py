"""A ``combat-speed-phase`` figure's running record (its ``memory``) and typed stat reads.

The record holds the phase's declared N, the hexes entered, the direction of motion and
the turn costs carried between halves and phases (CSP-6, CSP-13, CSP-16, C-4, C-10, R-5).
"""

from __future__ import annotations

from ...figures import Figure
from ...state import GameState
from ...validation import Json
from .options import FIELDS
from .speed import (
    PhaseRecord,
)


def _int(value: Json, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


class Book:
    """A figure's running record in ``figure.memory`` (all plain JSON)."""

    def __init__(self, figure: Figure) -> None:
        self.m = figure.memory
        self.figure = figure

    @property
    def n(self) -> int | None:
        """The N declared this phase (None until everyone has declared; secret from the
        table until :attr:`shown`, C-7)."""
        value = self.m.get("n")
        return value if isinstance(value, int) else None

    @n.setter
    def n(self, value: int | None) -> None:
        self.m["n"] = value

    @property
    def shown(self) -> bool:
        """True once N is revealed with the first half's moves (C-7, C-12)."""
        return self.m.get("shown") is True

    @shown.setter
    def shown(self, value: bool) -> None:
        self.m["shown"] = value

    def _int(self, key: str) -> int:
        return _int(self.m.get(key), 0)

    @property
    def hexes(self) -> int:
        """Hexes entered this phase."""
        return self._int("hexes")

    @hexes.setter
    def hexes(self, value: int) -> None:
        self.m["hexes"] = value

    @property
    def debt(self) -> int:
        """Hexes a change begun in the first half takes from the second (C-10)."""
        return self._int("debt")

    @debt.setter
    def debt(self, value: int) -> None:
        self.m["debt"] = value

    @property
    def carry(self) -> int:
        """Hexes a change begun in the second half takes from the next phase (R-5)."""
        return self._int("carry")

    @carry.setter
    def carry(self, value: int) -> None:
        self.m["carry"] = value

    @property
    def owed(self) -> int:
        """Hexes of this phase's first half that finish last phase's change (R-5)."""
        return self._int("owed")

    @owed.setter
    def owed(self, value: int) -> None:
        self.m["owed"] = value

    @property
    def oblique(self) -> int:
        """Backward and oblique hexes entered this phase (C-6 'count_hexes')."""
        return self._int("oblique")

    @oblique.setter
    def oblique(self, value: int) -> None:
        self.m["oblique"] = value

    @property
    def strikes(self) -> int:
        """Strikes made this phase (R-1)."""
        return self._int("strikes")

    @strikes.setter
    def strikes(self, value: int) -> None:
        self.m["strikes"] = value

    @property
    def motion(self) -> str:
        """The direction of motion relative to facing ('' after a standstill, CSP-6, C-4)."""
        value = self.m.get("motion")
        return value if isinstance(value, str) else ""

    @motion.setter
    def motion(self, value: str) -> None:
        self.m["motion"] = value

    @property
    def last(self) -> PhaseRecord:
        """The previous phase's N and hexes entered (CSP-13, CSP-16); stationary at first."""
        raw = self.m.get("last")
        if isinstance(raw, dict):
            return PhaseRecord(_int(raw.get("n")), _int(raw.get("hexes")))
        return PhaseRecord()

    @last.setter
    def last(self, value: PhaseRecord) -> None:
        self.m["last"] = {"n": value.n, "hexes": value.hexes}


def cs_of(figure: Figure) -> int:
    """CSP-1: the figure's Combat Speed."""
    return max(1, _int(figure.stats.get("cs"), 1))


def on_knees(figure: Figure) -> bool:
    """CSP-12: a leg or hip disability (set up, or a GM's ruling) forces it onto its knees."""
    return figure.stats.get("on_knees") is True or figure.has_status("on_knees")


def _opt(state: GameState, name: str) -> str:
    return str(state.options.get(name))


HP_DEFAULT = next(_int(f.default) for f in FIELDS if f.name == "hp")
"""Hit points of a new figure (the figure field's default, R-3)."""


def tracks_hp(state: GameState) -> bool:
    """R-3: figures have hit points that damage takes off (option ``csp.hit_points``)."""
    return _opt(state, "csp.hit_points") != "none"
