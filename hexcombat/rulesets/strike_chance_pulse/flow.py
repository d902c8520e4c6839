"""What happens between actions in a Pulse: its initiative and who has acted.

Each function changes the state it is given and emits events whose text a GM
can read and whose ``details`` and ``data`` carry every number and rule id. The
attacks are in :mod:`.resolve` (with its parts ``resolve_multiple``, ``resolve_parry``
and ``resolve_damage``); the figure panel's words in :mod:`.words`."""

from __future__ import annotations

from hexcombat.checks import Amount, Modifier
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.rulesets.strike_chance_pulse import offers, rules
from hexcombat.rulesets.strike_chance_pulse.fields import AG
from hexcombat.rulesets.strike_chance_pulse.situation import engaged_figures, is_out, settings
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook, RoundBook
from hexcombat.state import GameState

MODES = {"melee": "melee", "charge": "melee", "fire": "ranged", "grapple": "close"}

# ---- the Pulse ----------------------------------------------------------------------------


def new_pulse(state: GameState, dice: Dice) -> None:
    """Start-of-Pulse upkeep, then initiative (A-13) and who is engaged (A-12, SCP-6)."""
    upkeep(state)
    s = settings(state)
    living = [f for f in state.figures.values() if not is_out(f)]
    totals: dict[str, int] = {}
    details: list[str] = []
    by_agility = s.initiative == "agility"
    # the key sorts highest first; ties roll (again) until they break. Under the
    # "agility" option the key starts with AG and only tied figures roll a D10 off, so the
    # order never falls back on the set-up order (each figure rolls its own die).
    rank_key: dict[str, tuple[int, ...]] = {f.id: (-AG(f),) if by_agility else () for f in living}
    if by_agility:
        totals = {f.id: AG(f) for f in living}
        details.append("Highest AG acts first; equal AG rolls a D10 off, ties re-roll (A-13)")
    pending = initiative_rolls(state)  # the step's preview: the same rolls, in this order
    for _ in range(20):
        if not pending:
            break
        for f, amount in pending:
            rolled = amount.roll(dice)
            total, face = rolled.total, rolled.roll.total
            if by_agility:
                details.append(f"{f.name}: AG {AG(f)}, roll-off D10 {total}")
            else:
                totals.setdefault(f.id, total)
                details.append(
                    f"{f.name}: D10 {face} + a fifth of AG {AG(f)} ({AG(f) // 5}) = {total}"
                )
            rank_key[f.id] = (*rank_key[f.id], -total)
        pending = [(f, amount) for f, amount in pending if _tied(rank_key, f.id)]
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


def upkeep(state: GameState) -> None:
    """What a new Pulse does before its initiative: nobody has acted, evading may end (R-6),
    the unconscious count down (SCP-20, A-21)."""
    evading_ends = settings(state).evading_lasts == "next_initiative"
    RoundBook(state).acted = []
    for f in state.figures.values():
        if evading_ends:
            f.statuses.pop("evading", None)
        if f.has_status("unconscious"):
            left = f.tick_statuses(1)
            if "unconscious" in left:
                state.emit(Event("status", f"{f.name} comes round", f.id, rule="SCP-20, A-21"))


def initiative_rolls(state: GameState) -> list[tuple[Figure, Amount]]:
    """The initiative dice rolled when the step ends (A-13), in roll order: a D10 plus
    AG // 5 for every figure standing, or, under the "agility" option, a D10 roll-off for
    each figure whose AG another shares. Ties then roll again with the same dice."""
    living = [f for f in state.figures.values() if not is_out(f)]
    if settings(state).initiative == "agility":
        keys: dict[str, tuple[int, ...]] = {f.id: (AG(f),) for f in living}
        tied = [f for f in living if _tied(keys, f.id)]
        return [(f, Amount(f"{f.name}'s roll-off", "d10", rule="A-13", who=f.name)) for f in tied]
    rolls = []
    for f in living:
        ag = AG(f)
        bonus = Modifier(f"AG {ag} ÷ 5", rules.initiative_bonus(ag), "A-13")
        rolls.append(
            (f, Amount(f"{f.name}'s initiative", "d10", (bonus,), rule="A-13", who=f.name))
        )
    return rolls


def _tied(keys: dict[str, tuple[int, ...]], fid: str) -> bool:
    """True when another figure has the same initiative key (A-13: it rolls again)."""
    return sum(1 for k in keys.values() if k == keys[fid]) > 1


def acted(state: GameState, figure: Figure) -> None:
    """The figure has taken its one action this Pulse (A-14); a non-Pass resets its streak.

    Not ``common/once_per_step``: a Pulse's figures act one at a time in initiative order,
    the engaged first (SCP-6, A-13), not all at once in any order."""
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
