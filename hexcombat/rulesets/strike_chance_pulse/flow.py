"""What happens between actions in a Pulse: its initiative and who has acted.

Each function changes the state it is given and emits events whose text a GM
can read and whose ``details`` and ``data`` carry every number and rule id. The
attacks are in :mod:`.resolve` (with its parts ``resolve_multiple``, ``resolve_parry``
and ``resolve_damage``); the figure panel's words in :mod:`.words`."""

from __future__ import annotations

from ...dice import Dice
from ...errors import IllegalActionError
from ...events import Event
from ...figures import Figure
from ...state import GameState
from . import offers, rules
from .situation import (
    engaged_figures,
    is_out,
    settings,
    stat,
)
from .state import FigureBook, RoundBook

MODES = {"melee": "melee", "charge": "melee", "fire": "ranged", "grapple": "close"}

# ---- the Pulse ----------------------------------------------------------------------------


def new_pulse(state: GameState, dice: Dice) -> None:
    """Start-of-Pulse upkeep, then initiative (A-13) and who is engaged (A-12, SCP-6)."""
    s = settings(state)
    RoundBook(state).acted = []
    for f in state.figures.values():
        if s.evading_lasts == "next_initiative":
            f.statuses.pop("evading", None)
        if f.has_status("unconscious"):
            left = f.tick_statuses(1)
            if "unconscious" in left:
                state.emit(Event("status", f"{f.name} comes round", f.id, rule="SCP-20, A-21"))
    living = [f for f in state.figures.values() if not is_out(f)]
    totals: dict[str, int] = {}
    details: list[str] = []
    by_agility = s.initiative == "agility"
    # the key sorts highest first; ties roll (again) until they break. Under the
    # "agility" option the key starts with AG and only tied figures roll a D10 off, so the
    # order never falls back on the set-up order (each figure rolls its own die).
    rank_key: dict[str, tuple[int, ...]] = {
        f.id: (-stat(f, "ag", 0),) if by_agility else () for f in living
    }
    if by_agility:
        totals = {f.id: stat(f, "ag", 0) for f in living}
        details.append("Highest AG acts first; equal AG rolls a D10 off, ties re-roll (A-13)")
        pending = [f for f in living if _tied(rank_key, f.id)]
    else:
        pending = list(living)
    for _ in range(20):
        if not pending:
            break
        for f in pending:
            roll = dice.roll("d10")
            if by_agility:
                total = roll.total
                details.append(f"{f.name}: AG {stat(f, 'ag', 0)}, roll-off D10 {total}")
            else:
                total = roll.total + rules.initiative_bonus(stat(f, "ag", 0))
                totals.setdefault(f.id, total)
                details.append(f"{f.name}: D10 {roll.total} + AG {stat(f, 'ag', 0)} // 5 = {total}")
            rank_key[f.id] = (*rank_key[f.id], -total)
        pending = [f for f in living if _tied(rank_key, f.id)]
        if pending:
            details.append("Ties re-roll (A-13)")
    order = sorted(living, key=lambda f: rank_key[f.id])
    book = RoundBook(state)
    book.order = [f.id for f in order]
    book.initiative = {k: v for k, v in totals.items()}
    engaged_ids = set(engaged_figures(state))
    # in initiative order, never in set-up order: the table's entry order decides nothing
    engaged_ids_in_order = [f.id for f in order if f.id in engaged_ids]
    book.engaged = engaged_ids_in_order
    engaged = [state.figures[i].name for i in engaged_ids_in_order]
    text = "Initiative: " + ", ".join(f"{f.name} {totals[f.id]}" for f in order)
    if engaged:
        text += f"; engaged first: {', '.join(engaged)}"
    state.emit(
        Event(
            "initiative",
            text,
            rule="SCP-6, A-12, A-13",
            details=tuple(details),
            data={"order": [f.id for f in order], "engaged": engaged_ids_in_order},
        )
    )


def _tied(keys: dict[str, tuple[int, ...]], fid: str) -> bool:
    """True when another figure has the same initiative key (A-13: it rolls again)."""
    return sum(1 for k in keys.values() if k == keys[fid]) > 1


def acted(state: GameState, figure: Figure) -> None:
    """The figure has taken its one action this Pulse (A-14); a non-Pass resets its streak."""
    book = RoundBook(state)
    done = book.acted
    if figure.id in done:
        raise IllegalActionError(f"{figure.name} has already acted this Pulse (A-14)")
    done.append(figure.id)
    book.acted = done
    if settings(state).evading_lasts == "next_action":  # its next action ends it
        figure.statuses.pop("evading", None)
    FigureBook(figure).pass_streak = 0


def do_pass(state: GameState, figure: Figure) -> None:
    """SCP-18, A-18: Passes in consecutive Pulses free an entangled figure."""
    p = offers.pulse(state)
    book = FigureBook(figure)
    streak_before, last = book.pass_streak, book.last_pass
    acted(state, figure)
    streak = streak_before if last == p - 1 else 0
    book.pass_streak = streak + 1
    book.last_pass = p
    text = f"{figure.name} passes"
    if figure.has_status("entangled"):
        if rules.disentangled(streak + 1):
            figure.statuses.pop("entangled", None)
            text += ": two Passes in a row, it is free of the entanglement"
        else:
            text += f" (Pass {streak + 1} of 2 to disentangle)"
    state.emit(Event("pass", text, figure.id, rule="SCP-18, A-18"))
