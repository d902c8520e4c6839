"""Reading a ``two-action-2d10`` state: the round's bookkeeping in ``state.memory`` (read
without writing, written through :meth:`Readers.book`), the revealed plans and the figures'
equipment, posture and passive defence."""

from __future__ import annotations

from typing import Any

from hexcombat.figures import Figure
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.data import load
from hexcombat.state import GameState
from hexcombat.validation import Json

from . import rules as R

DATA: Any = load("two_action_2d10")


def _int(value: Json, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


class Readers(Ruleset):
    """The ruleset's readers of the state, shared by its flow, offers and resolution."""

    def _table(self, state: GameState, key: str) -> Any:
        return state.data.get(key, DATA[key])

    def mem(self, state: GameState, key: str) -> Any:
        """A table of the round's bookkeeping in ``state.memory``, read only: a missing table
        reads as empty and is not written (reading never changes the state)."""
        table = state.memory.get(key)
        if table is None:
            return [] if key in ("done", "moved") else {}
        return table

    def book(self, state: GameState, key: str) -> Any:
        """The table ``key`` for writing, created when missing."""
        default: Json = [] if key in ("done", "moved") else {}
        return state.memory.setdefault(key, default)

    def plan(self, state: GameState, fid: str) -> dict[str, Any]:
        """The revealed declaration of a figure this round ({} before the reveal)."""
        plan = self.mem(state, "plans").get(fid, {})
        assert isinstance(plan, dict)
        return plan

    def actions_of(self, state: GameState, fid: str) -> list[str]:
        """The two declared actions (TA-1)."""
        return [str(a) for a in self.plan(state, fid).get("actions", [])]

    def combined(self, state: GameState, fid: str, kind: str) -> bool:
        """Whether ``kind`` takes both actions this round (TA-5, TA-25)."""
        plan = self.plan(state, fid)
        acts = self.actions_of(state, fid)
        return kind in acts and R.is_combined(acts[0], acts[1], bool(plan.get("combine")))

    def armour(self, state: GameState, f: Figure) -> dict[str, Any]:
        """The figure's armour row: class, AC, movement die (TA-10, TA-24, D-4)."""
        row = self._table(state, "armour").get(str(f.stats.get("armour", "none")))
        return row if isinstance(row, dict) else {"class": "none", "ac": 0}

    def weapon(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The melee weapon and its row (TA-14, D-4)."""
        name = str(f.stats.get("weapon", "natural"))
        if f.has_status("dropped_weapon"):
            name = "natural"
        return name, self._table(state, "weapons").get(name, DATA["weapons"]["natural"])

    def missile(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The missile weapon and its row (TA-22, D-15)."""
        name = str(f.stats.get("missile", "none"))
        return name, self._table(state, "missiles").get(name, DATA["missiles"]["none"])

    def shield_ready(self, f: Figure) -> bool:
        """A shield in hand (TA-6, TA-7)."""
        return f.stats.get("shield") is True and not f.has_status("shield_lost")

    def posture(self, f: Figure) -> str:
        """Active, prone or comatose (TA-6)."""
        if f.has_status("comatose"):
            return "comatose"
        return "prone" if f.has_status("prone") else "active"

    def passive(self, state: GameState, f: Figure) -> int:
        """Passive defence (TA-6, D-1)."""
        return R.passive_defence(self.posture(f), self.shield_ready(f), state.options)

    def closed_with(self, state: GameState, fid: str) -> str:
        """The figure ``fid`` is closed with after a grapple ('' if none) (TA-15, TA-21)."""
        return str(self.mem(state, "closed").get(fid, ""))

    def allowed(self, state: GameState, f: Figure) -> int:
        """Actions this round: 2, less actions lost to a stagger or a lock (TA-1, TA-11)."""
        lost = _int(self.mem(state, "lost").get(f.id))
        return max(0, R.ACTIONS_PER_ROUND - lost)
