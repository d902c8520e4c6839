"""Parry (SCP-32...SCP-35): the prompt a miss opens and its roll, which may offer a riposte
(the riposte itself strikes: :func:`.resolve.riposte`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hexcombat.checks import Amount
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.rulesets.strike_chance_pulse import ground, offers
from hexcombat.rulesets.strike_chance_pulse.resolve_damage import disarm
from hexcombat.rulesets.strike_chance_pulse.situation import (
    is_out,
    parry_amount,
    parry_rank_of,
    settings,
    weapon_rank,
)
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook, RoundBook
from hexcombat.state import GameState
from hexcombat.validation import Json

if TYPE_CHECKING:
    from hexcombat.rulesets.strike_chance_pulse.resolve import Plan


def offer_parry(state: GameState, plan: Plan, defender: Figure, dice: Dice) -> None:
    """SCP-32, A-6: the defender may parry (asked, or rolled at once without the option)."""
    ok, _ = parry_rank_of(state, defender)  # never a figure out of the fight
    if not ok:
        return
    att_rank = weapon_rank(plan.attacker, plan.weapon)
    context: dict[str, Json] = {
        "attacker": plan.attacker.id,
        "weapon": plan.weapon.name,
        "kind": plan.weapon.kind,
        "attacker_rank": att_rank,
    }
    if not settings(state).parry_optional:
        RoundBook(state).hold_parry(context)
        parry(state, defender, dice)
        return
    state.ask(
        defender.id,
        f"{defender.name}: parry {plan.attacker.name}'s {plan.weapon.name}?",
        offers.parry_answers(state, defender, att_rank),
        rule="SCP-32, A-6",
        context=context,
        text=f"{defender.name} may parry: the Melee attack missed "
        + (
            "while it Evades (SCP-32)"
            if defender.has_status("evading")
            else "by 30 or more (SCP-32)"
        ),
    )


def parry_context(state: GameState) -> dict[str, Json]:
    prompt = state.prompt
    context = prompt.context if prompt is not None else RoundBook(state).take_parry()
    if not isinstance(context, dict):
        raise IllegalActionError("there is no attack to answer")
    return context


def parry_table(state: GameState, defender: Figure, context: Mapping[str, Json]) -> Amount:
    """SCP-33, SCP-34: the D10 table the defender answers an attack with, its Ranks added."""
    att_rank = context.get("attacker_rank")
    _, def_rank = parry_rank_of(state, defender)
    return parry_amount(
        def_rank,
        att_rank if isinstance(att_rank, int) else None,
        f"{defender.name}'s parry (D10 table)",
    )


def parry(state: GameState, defender: Figure, dice: Dice) -> None:
    """SCP-33, SCP-34: D10 + Rank(defender) - Rank(attacker) on the parry table."""
    s = settings(state)
    context = parry_context(state)
    attacker = state.figure(str(context["attacker"]))
    att_rank = context.get("attacker_rank")
    att_rank = att_rank if isinstance(att_rank, int) else None
    _, def_rank = parry_rank_of(state, defender)
    rolled = parry_table(state, defender, context).roll(dice)  # the answer's preview
    roll, total, result = rolled.roll, rolled.total, rolled.outcome_id
    disarmed = (
        f"{attacker.name} is disarmed"
        if ground.droppable(attacker)
        else f"{attacker.name} has nothing to drop"
    )
    words = {
        "parried": "parried; it must Pass next Pulse",
        "disarm": disarmed,
        "riposte": f"parried, {disarmed}, and a Riposte",
    }[result]
    state.emit(
        Event(
            "parry",
            f"{defender.name} parries: D10 {roll.total} + Rank {def_rank or 0} "
            f"- Rank {att_rank or 0} = {total}: {words}",
            defender.id,
            attacker.id,
            rule="SCP-33, SCP-34, A-7",
            rolls=(roll.to_json(),),
            data={"d10": roll.total, "total": total, "result": result},
        )
    )
    if result == "parried":
        FigureBook(defender).must_pass_pulse = offers.pulse(state) + 1
        return
    weapon = str(context["weapon"]) if context.get("kind") == "weapon" else None
    disarm(state, attacker, defender, weapon, "SCP-34, A-8", s.parry_disarm_en_damage)
    if result == "riposte" and not is_out(attacker) and not is_out(defender):
        if s.riposte_requires_evading and not defender.has_status("evading"):
            return
        offer_riposte(state, defender, attacker)


def offer_riposte(state: GameState, defender: Figure, attacker: Figure) -> None:
    """SCP-35, R-17: ask the defender whether it ripostes, or say why it cannot."""
    weapons = offers.riposte_weapons(state, defender, attacker)
    if not weapons:
        state.emit(
            Event(
                "riposte",
                f"{defender.name} cannot riposte: {attacker.name} is not in the Melee Zone "
                "of a weapon it could riposte with (SCP-35, R-17)",
                defender.id,
                attacker.id,
                rule="SCP-35, R-17",
            )
        )
        return
    state.ask(
        defender.id,
        f"{defender.name}: riposte against {attacker.name}?",
        offers.riposte_answers(state, defender, weapons),
        rule="SCP-35",
        context={"attacker": attacker.id},
        text=f"{defender.name} may riposte at once (SCP-35)",
    )
