"""What a hit does to a figure: a disarm, damage to Fatigue and Endurance, restraints
broken, death."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexcombat.dice import dice_words
from hexcombat.events import Event
from hexcombat.figures import Figure, Status
from hexcombat.rulesets.common import lose_points
from hexcombat.rulesets.strike_chance_pulse import ground
from hexcombat.rulesets.strike_chance_pulse.fields import ARMOUR
from hexcombat.rulesets.strike_chance_pulse.situation import same_hex, settings
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook
from hexcombat.state import GameState

if TYPE_CHECKING:
    from hexcombat.rulesets.strike_chance_pulse.resolve import Plan


def disarm(
    state: GameState,
    victim: Figure,
    by: Figure,
    item_name: str | None,
    rule: str,
    en_damage: int = 1,
) -> None:
    """SCP-22: the victim drops a weapon or item (``item_name`` when chosen, else by R-5) and
    takes 1 Endurance damage; with nothing in hand that can be dropped it is not disarmed,
    and takes the damage only with R-21."""
    items = ground.droppable(victim)
    if settings(state).disarm_drops == "weapon_first":
        items.sort(key=lambda i: i.kind != "weapon")
    item = next((i for i in items if i.name == item_name), items[0] if items else None)
    if item is None:
        state.emit(
            Event(
                "disarm",
                f"{victim.name} holds nothing that can be dropped: not disarmed",
                victim.id,
                by.id,
                rule=rule,
                data={"item": None},
            )
        )
        if en_damage and settings(state).disarm_empty_handed == "damage_only":
            hurt_endurance(state, victim, en_damage, f"{rule}, R-21")
        return
    ground.drop(victim, item)
    state.emit(
        Event(
            "disarm",
            f"{victim.name} is disarmed: drops the {item.name}",
            victim.id,
            by.id,
            rule=rule,
            data={"item": item.name},
        )
    )
    if en_damage:
        hurt_endurance(state, victim, en_damage, rule)


def hurt_endurance(state: GameState, figure: Figure, amount: int, rule: str) -> None:
    """Damage straight to Endurance (Disarm, infection; A-26)."""
    pool = figure.pools.get("en")
    if pool is None:
        return
    lose_points(pool, amount, floor=None)
    FigureBook(figure).hurt(amount)
    state.emit(
        Event(
            "damage",
            f"{figure.name} takes {amount} Endurance damage (EN {pool.current}/{pool.maximum})",
            figure.id,
            rule=rule,
            data={"en": pool.current, "amount": amount},
        )
    )
    check_death(state, figure)


def take_damage(
    state: GameState, target: Figure, amount: int, plan: Plan, expr: str, roll: dict[str, object]
) -> None:
    """A-26: effective damage comes off Fatigue first, the rest off Endurance."""
    s = settings(state)
    ft, en = target.pools.get("ft"), target.pools.get("en")
    to_ft = min(amount, ft.current) if ft is not None and s.damage_model == "ft_then_en" else 0
    to_en = amount - to_ft
    if ft is not None:
        lose_points(ft, to_ft, floor=None)
    if en is not None:
        lose_points(en, to_en, floor=None)
    if amount > 0:
        FigureBook(target).wound(to_en, bitten="bite_claw_talon" in plan.weapon.categories)
    armour = ARMOUR(target)
    state.emit(
        Event(
            "damage",
            f"{target.name} takes {amount} damage ({to_ft} Fatigue, {to_en} Endurance)",
            target.id,
            plan.attacker.id,
            rule="A-26",
            details=(
                f"Damage {dice_words(expr)}: weapon dice minus armour {armour}, at least "
                f"{s.min_damage} (A-25, A-26)",
            ),
            rolls=(roll,),
            data={
                "damage": amount,
                "ft": to_ft,
                "en": to_en,
                "en_left": en.current if en else None,
            },
        )
    )
    if amount > 0 and not same_hex(plan.attacker, target):
        break_restraints(state, target)
    check_death(state, target)


def break_restraints(state: GameState, hurt: Figure) -> None:
    """SCP-19, A-22: a restrainer hurt from outside the hex lets go."""
    for f in state.figures.values():
        if hurt.id in FigureBook(f).restrained_by:
            FigureBook(f).restrained_by = []
            f.statuses.pop("restrained", None)
            state.emit(
                Event(
                    "status",
                    f"{f.name} is released: {hurt.name} was hurt from outside the hex",
                    f.id,
                    hurt.id,
                    rule="SCP-19, A-22",
                )
            )


def check_death(state: GameState, figure: Figure) -> None:
    """A-26: Endurance 0 or less is death."""
    pool = figure.pools.get("en")
    if pool is not None and pool.current <= 0 and not figure.has_status("dead"):
        figure.statuses["dead"] = Status("dead")
        state.emit(
            Event(
                "status",
                f"{figure.name} is dead (Endurance {pool.current})",
                figure.id,
                rule="A-26",
            )
        )


# ---- parry and riposte --------------------------------------------------------------------
