"""Reading a ``two-action-2d10`` state: the round's bookkeeping, typed (:class:`RoundBook` in
``state.memory``, :class:`FigureBook` in ``Figure.memory``; read without writing, written
through :meth:`Readers.writing`), the revealed plans and the figures' equipment, posture and
passive defence."""

from __future__ import annotations

from typing import Any, cast

from hexcombat.figures import Figure
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.memory import FigureMemory, StateMemory
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.fields import ARMOUR, DATA, MISSILE, SHIELD, WEAPON
from hexcombat.state import GameState
from hexcombat.validation import Json

TABLES = ("plans", "stopped", "spent", "blocks", "ripostes", "moves", "lost", "pending")
"""The round's tables, emptied when it starts (in this order, so the memory's JSON keeps it)."""


class RoundBook(StateMemory):
    """The round's bookkeeping. Read (``write=False``) it never changes the state: a missing
    table reads as empty and is not created; written, a missing table is created."""

    def __init__(self, state: GameState, *, write: bool = False) -> None:
        super().__init__(state)
        self._write = write

    def new_step(self, *, round_starts: bool) -> None:
        """A step begins: nobody is done; at the round's start every table is empty."""
        self._set("done", [])
        if round_starts:
            for key in TABLES:
                self._set(key, {})
            self._set("moved", [])

    def _ids(self, key: str) -> list[str]:
        if self._write:
            return cast(list[str], self._list(key))
        value = self._get(key)
        return cast(list[str], value) if isinstance(value, list) else []

    def _by_id(self, key: str) -> dict[str, Any]:
        if self._write:
            return self._table(key)
        value = self._get(key)
        return value if isinstance(value, dict) else {}

    @property
    def done(self) -> list[str]:
        """Figures done in the step under way (TA-13, TA-17)."""
        return self._ids("done")

    @property
    def moved(self) -> list[str]:
        """Figures that have moved this round (TA-23); the movement step is one of the
        round's steps, the others in strike order, so not ``common/once_per_step``."""
        return self._ids("moved")

    @property
    def plans(self) -> dict[str, dict[str, Any]]:
        """Each figure's revealed declaration: actions, combine, target, guard, style (TA-1)."""
        return self._by_id("plans")

    @property
    def stopped(self) -> dict[str, str]:
        """Figure -> the figure whose result stopped its blow this round (TA-13)."""
        return self._by_id("stopped")

    @property
    def spent(self) -> dict[str, list[str]]:
        """Figure -> the defensive actions it has used up this round (TA-17)."""
        return self._by_id("spent")

    @property
    def blocks(self) -> dict[str, int]:
        """Figure -> the Block it rolled this round, covering every blow (D-2)."""
        return self._by_id("blocks")

    @property
    def ripostes(self) -> dict[str, str]:
        """Figure -> the figure it counter-strikes in the Riposte step (TA-17)."""
        return self._by_id("ripostes")

    @property
    def moves(self) -> dict[str, int]:
        """Figure -> its movement roll's extra hexes this round (TA-24, TA-25)."""
        return self._by_id("moves")

    @property
    def lost(self) -> dict[str, int]:
        """Figure -> actions lost this round to a stagger or a lock (TA-11)."""
        return self._by_id("lost")

    @property
    def pending(self) -> dict[str, list[dict[str, Json]]]:
        """Figure -> results on it waiting until its own blow, struck together with the blow
        that caused them (``by``, ``effect``, ``lasting``; TA-16, D-10)."""
        return self._by_id("pending")

    @property
    def closed(self) -> dict[str, str]:
        """Figure -> the figure it is closed with after a grapple (TA-15, TA-21)."""
        return self._by_id("closed")


class FigureBook(FigureMemory):
    """A figure's bookkeeping across rounds."""

    @property
    def loaded(self) -> bool:
        """A missile loaded in an earlier round, ready to shoot (TA-22)."""
        return self._flag("loaded")

    @loaded.setter
    def loaded(self, value: bool) -> None:
        self._set("loaded", value)

    def kept_after_fight(self) -> dict[str, Json]:
        """What a roster character keeps of it after the fight: a loaded missile stays
        loaded (TA-22); the rest is the fight's own."""
        return {"loaded": True} if self.loaded else {}


class Readers(Ruleset):
    """The ruleset's readers of the state, shared by its flow, offers and resolution."""

    def _table(self, state: GameState, key: str) -> Any:
        return state.data.get(key, DATA[key])

    def round_of(self, state: GameState) -> RoundBook:
        """The round's bookkeeping, read only (reading never changes the state)."""
        return RoundBook(state)

    def writing(self, state: GameState) -> RoundBook:
        """The round's bookkeeping for writing: tables are created when missing."""
        return RoundBook(state, write=True)

    def plan(self, state: GameState, fid: str) -> dict[str, Any]:
        """The revealed declaration of a figure this round ({} before the reveal)."""
        plan = self.round_of(state).plans.get(fid, {})
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
        row = self._table(state, "armour").get(ARMOUR(f))
        return row if isinstance(row, dict) else {"class": "none", "ac": 0}

    def weapon(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The melee weapon and its row (TA-14, D-4)."""
        name = WEAPON(f)
        if f.has_status("dropped_weapon"):
            name = "natural"
        return name, self._table(state, "weapons").get(name, DATA["weapons"]["natural"])

    def fists_only(self, state: GameState, f: Figure) -> bool:
        """Whether the figure's own weapon rolls no damage dice (fists and boots): it
        pummels, its damage from the surplus (TA-19, D-13)."""
        row = self._table(state, "weapons").get(WEAPON(f), DATA["weapons"]["natural"])
        return not row.get("damage")

    def missile(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The missile weapon and its row (TA-22, D-15)."""
        name = MISSILE(f)
        return name, self._table(state, "missiles").get(name, DATA["missiles"]["none"])

    def shield_ready(self, f: Figure) -> bool:
        """A shield in hand (TA-6, TA-7)."""
        return SHIELD(f) and not f.has_status("shield_lost")

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
        return str(self.round_of(state).closed.get(fid, ""))

    def lost_the_round(self, state: GameState, fid: str) -> bool:
        """Whether a result this round took the figure's remaining actions: the blow, the
        defences, a movement action, a counter-strike still to come (TA-11, TA-13)."""
        return fid in self.round_of(state).stopped

    def loaded_at_declaration(self, state: GameState, fid: str) -> bool:
        """Whether the figure's missile was loaded in an earlier round, when it declared: its
        shot is a prepared missile of step 2 (TA-22, TA-27)."""
        return self.plan(state, fid).get("loaded") is True

    def parry_ready(self, state: GameState, f: Figure) -> bool:
        """A weapon or a shield in hand to parry with (TA-7, R-12)."""
        if state.options.get("ta.parry_needs") == "anything":
            return True
        armed = WEAPON(f) != "natural" and not f.has_status("dropped_weapon")
        return armed or self.shield_ready(f)

    def allowed(self, state: GameState, f: Figure) -> int:
        """Actions this round: 2, less actions lost to a stagger or a lock (TA-1, TA-11)."""
        lost = int_or(self.round_of(state).lost.get(f.id), 0)
        return max(0, R.ACTIONS_PER_ROUND - lost)
