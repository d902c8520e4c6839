"""An attack from plan to landing: the Strike Check, missiles, fumbles and what a hit does.

Each function changes the state it is given and emits events whose text a GM
can read and whose ``details`` and ``data`` carry every number and rule id.
Dice are rolled in a fixed order: the Strike Check, the fumble check (on 99 or
100), damage, the footing roll, then any hidden duration."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hexcombat.actions import Action
from hexcombat.checks import Amount, Check, Rollable
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, Status, place
from hexcombat.layout import hex_label
from hexcombat.rulesets.strike_chance_pulse import ground, missile, offers, rules
from hexcombat.rulesets.strike_chance_pulse.fields import AG, BROKEN, MD
from hexcombat.rulesets.strike_chance_pulse.flow import MODES, acted
from hexcombat.rulesets.strike_chance_pulse.resolve_damage import disarm, take_damage
from hexcombat.rulesets.strike_chance_pulse.resolve_parry import offer_parry, parry_context
from hexcombat.rulesets.strike_chance_pulse.situation import (
    Weapon,
    damage_amount,
    damage_expr,
    find_weapon,
    same_hex,
    settings,
    shield_of,
    shield_type_of,
    strike_check,
)
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook
from hexcombat.rulesets.strike_chance_pulse.strike import FUMBLE_MISSES, StrikeCheck, StrikeResult
from hexcombat.secrets import Secret
from hexcombat.state import GameState


@dataclass(frozen=True)
class Plan:
    """An attack worked out before any roll: its check, weapon, target and missile flight."""

    attacker: Figure
    target: Figure
    weapon: Weapon
    mode: str
    special: str
    check: StrikeCheck
    charge: bool
    notes: tuple[str, ...]
    flight: missile.Flight | None = None
    extra: int = 0
    off_hand: bool = False
    multiple: bool = False
    drop: str = ""


def _approach(
    state: GameState, attacker: Figure, target: Figure, weapon: Weapon, mode: str
) -> tuple[str | None, missile.Flight | None, list[str]]:
    """The hex side an attack comes through (SCP-39), a missile's flight (SCP-10, A-24) and
    both in words."""
    notes = []
    flight = None
    if mode == "ranged":
        flight = missile.flight(state, attacker, target, weapon.range_hexes)
        through = next((e.through for e in flight.entries if e.is_target), None)
        notes.append(
            f"Range {weapon.range_hexes}: flies {rules.flight_hexes(weapon.range_hexes)} "
            "hexes (SCP-10, A-24)"
        )
    else:
        through = offers.through_of(attacker, target, mode)
    if through:
        notes.append(f"The attack comes through {target.name}'s {through} hex (SCP-39)")
    return through, flight, notes


def plan_attack(state: GameState, attacker: Figure, action: Action) -> Plan:
    """Read an attack action: weapon, special, target, and the Strike Check it will roll."""
    mode = MODES[action.kind]
    charge = action.kind == "charge" or action.flag("charge")
    weapon = find_weapon(state, attacker, mode, action.text("weapon"))
    if weapon is None:
        raise IllegalActionError(f"{attacker.name} has no {action.text('weapon')} for {mode}")
    target = state.figure(action.text("target"))
    special = action.text("special", "none")
    extra = action.integer("modifier", 0)
    off_hand = action.flag("off_hand")
    multiple = action.flag("multiple")
    if action.kind != "charge":
        problem = offers.target_problem(state, attacker, target, weapon, mode)
        if problem:
            raise IllegalActionError(problem)
    shield = shield_of(attacker)
    why = offers.special_ok(weapon, special, mode, target, shield_type_of(shield) if shield else "")
    if why:
        raise IllegalActionError(why)
    drop = disarm_choice(state, target, special, action)
    through, flight, notes = _approach(state, attacker, target, weapon, mode)
    check = strike_check(
        state,
        attacker,
        target,
        weapon,
        mode,
        special,
        through=through,
        charge=charge,
        off_hand=off_hand,
        extra=extra,
        multiple=multiple,
    )
    return Plan(
        attacker,
        target,
        weapon,
        mode,
        special,
        check,
        charge,
        tuple(notes),
        flight,
        extra,
        off_hand,
        multiple,
        drop,
    )


def disarm_choice(state: GameState, target: Figure, special: str, action: Action) -> str:
    """SCP-22, R-5: what a Disarm makes ``target`` drop, when the attacker chooses ('' when
    the option leaves it to the order of the target's items)."""
    if special != "disarm":
        return ""
    items = [i.name for i in ground.droppable(target)]
    if not ground.disarmable(state, target):
        raise IllegalActionError(
            f"{target.name} holds no weapon or item that a Disarm could make it drop (SCP-22)"
        )
    if not items or settings(state).disarm_drops != "attacker":  # the damage alone
        return ""
    drop = action.text("drop", "")
    if drop not in items:
        raise IllegalActionError(
            f"choose what {target.name} is to drop: one of {', '.join(items)} (SCP-22, R-5)"
        )
    return drop


def path_check(state: GameState, plan: Plan, entry: missile.Entry) -> StrikeCheck:
    """A-24: each figure on the line is checked with the same SC minus its own DR (and the
    attacker's own modifiers: secondary hand, multiple strike, other)."""
    if entry.is_target or settings(state).bystander_check == "target_msc":
        return plan.check if entry.is_target else _renamed(plan.check, entry.figure)
    return strike_check(
        state,
        plan.attacker,
        entry.figure,
        plan.weapon,
        "ranged",
        plan.special,
        through=entry.through,
        extra=plan.extra,
        off_hand=plan.off_hand,  # the attacker's own modifiers stay (SCP-14, R-10)
        multiple=plan.multiple,
    )


def _renamed(check: StrikeCheck, figure: Figure) -> StrikeCheck:
    from dataclasses import replace

    return replace(check, check=replace(check.check, label=f"{check.label} (at {figure.name})"))


def fumble_check(state: GameState, attacker: Figure, plan: Plan | None = None) -> Check:
    """SCP-30 (A-3): the second D100 at or under 3 x MD avoids the misfortune."""
    s = settings(state)
    md = MD(attacker)
    threshold = rules.fumble_threshold(md, s.fumble_threshold)
    label = "3 x modified MD" if s.fumble_threshold == "3xMD" else "modified MD"
    return Check(
        f"{attacker.name}'s fumble check",
        "d100",
        "le",
        threshold,
        f"{label} ({md}) (SCP-30, A-3)",
        rule="SCP-30",
        success_text="no misfortune",
        success_phrase="of no misfortune",
        failure_text="misfortune",
    )


KNOCKED_OUT = "D10 + 5 minutes (SCP-20)"
"""The note of a knockout's unconscious status (its Pulses left are the GM's secret, R-9)."""


def after_hit_rollables(state: GameState, plan: Plan) -> list[Rollable]:
    """What a hit rolls next: damage, and the footing roll of SCP-23, for the target and
    for each figure a missile's line of fire may hit first (SCP-12)."""
    found: list[Rollable] = []
    expr = damage_expr(state, plan.weapon, plan.special)
    line = [] if plan.flight is None else [e.figure for e in plan.flight.entries]
    hit = [plan.target, *(f for f in line if f.id != plan.target.id)]
    if expr:
        found += [damage_amount(state, f, expr, f"Damage to {f.name} on a hit") for f in hit]
    if plan.special in ("trip", "entangle", "shield_rush"):
        found += [footing_check(f) for f in hit]
    if plan.special == "knockout":
        found.append(KNOCKOUT_TIME)
    return found


KNOCKOUT_TIME = Amount(
    "Unconscious for (minutes, rolled secretly)", "d10+5", rule="SCP-20", unit="minutes"
)
"""How long a Knockout keeps its target unconscious: D10 + 5 minutes (SCP-20)."""


def footing_check(target: Figure) -> Check:
    """SCP-23 (A-19): D100 at or under 3 x AG keeps the footing."""
    ag = AG(target)
    return Check(
        f"{target.name}'s footing",
        "d100",
        "le",
        3 * ag,
        f"3 x AG ({ag}) (SCP-23)",
        rule="SCP-23",
        success_text="keeps its footing",
        success_phrase="to keep its footing",
        failure_text="falls prone",
    )


# ---- resolving an attack -----------------------------------------------------------------


def attack(state: GameState, attacker: Figure, action: Action, dice: Dice) -> None:
    """Carry out a Melee, Fire, Grapple or Charge attack."""
    plan = plan_attack(state, attacker, action)
    acted(state, attacker)
    if plan.mode == "close":
        enter_close(state, attacker, [plan.target])
        plan = plan_attack(state, attacker, action)  # the shields are gone (SCP-41)
    if plan.flight is not None:
        fly(state, plan, dice)
        return
    strike(state, plan, plan.check, plan.target, dice)


def enter_close(state: GameState, attacker: Figure, targets: list[Figure]) -> None:
    """SCP-5, R-1, SCP-41, R-4: a Grapple steps into its targets' hex if it is not there yet,
    then the attacker (and, by default, every figure it grapples) drops its shield; done
    once for a whole attack, however many strikes it has."""
    first = targets[0]
    if not same_hex(attacker, first):
        start = attacker.position
        place(state.figures.values(), attacker, first.position, attacker.facing)
        state.emit(
            Event(
                "move",
                f"{attacker.name} steps into {first.name}'s hex "
                f"{hex_label(start)} → {hex_label(first.position)}",
                attacker.id,
                first.id,
                rule="SCP-5, R-1",
            )
        )
    both = settings(state).close_drops_shields == "both"
    grappled = list({t.id: t for t in targets}.values())
    for f in [attacker, *grappled] if both else [attacker]:
        drop_shield_for_close(state, f)


def drop_shield_for_close(state: GameState, figure: Figure) -> None:
    """SCP-41: any shield but a Main Gauche is dropped on entering Close combat."""
    shield = shield_of(figure)
    if shield is None or shield_type_of(shield) == "main_gauche":
        return
    ground.drop(figure, shield)
    state.emit(
        Event(
            "drop",
            f"{figure.name} drops the {shield.name} in Close combat",
            figure.id,
            rule="SCP-41",
        )
    )


def fly(state: GameState, plan: Plan, dice: Dice) -> None:
    """SCP-10...SCP-12: check every figure on the line until one is hit."""
    assert plan.flight is not None
    state.emit(
        Event(
            "fire",
            f"{plan.attacker.name} fires the {plan.weapon.name} at {plan.target.name}",
            plan.attacker.id,
            plan.target.id,
            rule="SCP-3, SCP-10, SCP-12",
            details=plan.notes,
            data={
                "path": [str(h) for h in plan.flight.path],
                "checked": [e.figure.id for e in plan.flight.entries],
            },
        )
    )
    thrown = _thrown_item(plan)
    each = settings(state).line_fumbles == "each"
    fumbled = False
    for entry in plan.flight.entries:
        check = path_check(state, plan, entry)
        may_fumble = each or not fumbled
        result = strike(state, plan, check, entry.figure, dice, entry=entry, may_fumble=may_fumble)
        fumbled = fumbled or result.fumbled
        if result.hit:
            if thrown is not None and thrown.is_ready:
                ground.stick(thrown, entry.figure)
                state.emit(
                    Event(
                        "drop",
                        f"The {thrown.name} stays in {entry.figure.name} until withdrawn",
                        plan.attacker.id,
                        entry.figure.id,
                        rule="SCP-12, SCP-31",
                    )
                )
            return
    end = plan.flight.end
    if thrown is not None and thrown.is_ready:
        ground.lay(thrown, plan.flight.lands)
        if plan.flight.broken:
            BROKEN.put(thrown, True)
        elif state.board.contains(plan.flight.lands):
            end += f" and lies at {hex_label(plan.flight.lands)}"
    state.emit(
        Event(
            "missile",
            f"The {plan.weapon.name}'s missile {end}",
            plan.attacker.id,
            rule="SCP-10, SCP-11, SCP-9",
        )
    )


def _thrown_item(plan: Plan) -> Equipment | None:
    """SCP-10: the thrown weapon (a Dagger, Spear, Net, Bola) that leaves the hand: the
    first prepared one of its name; None for a missile weapon, whose bow stays."""
    if "thrown" not in plan.weapon.categories:
        return None
    return next(
        (i for i in plan.attacker.equipment if i.name == plan.weapon.name and i.is_ready), None
    )


def strike(
    state: GameState,
    plan: Plan,
    check: StrikeCheck,
    target: Figure,
    dice: Dice,
    entry: missile.Entry | None = None,
    riposte: bool = False,
    may_fumble: bool = True,
) -> StrikeResult:
    """One Strike Check (SCP-28) and everything that follows it (a 99 or 100's fumble check
    unless ``may_fumble`` is off: a missile's line has made its one, R-22)."""
    attacker = plan.attacker
    result = check.roll(dice)
    words = check._label(result.outcome)
    who = "" if entry is None or entry.is_target else " (in the line of fire, SCP-12)"
    verb = "ripostes at" if riposte else "strikes at"
    special = (
        "" if plan.special == "none" else f" ({offers.SPECIAL_WORDS[plan.special].split(' (')[0]})"
    )
    text = (
        f"{attacker.name} {verb} {target.name}{who} with the {plan.weapon.name}{special}: "
        f"MSC {check.msc}, rolled {result.face}: {words}"
    )
    if plan.mode == "ranged":
        text = (
            f"{attacker.name}'s {plan.weapon.name} shot reaches {target.name}{who}{special}: "
            f"MSC {check.msc}, rolled {result.face}: {words}"
        )
    state.emit(
        Event(
            "attack",
            text,
            attacker.id,
            target.id,
            rule=check.rule,
            details=(*check.check.breakdown(), result.explain()),
            rolls=(result.roll.to_json(),),
            data={
                "msc": check.msc,
                "roll": result.face,
                "outcome": result.outcome,
                "hit": result.hit,
                "special": plan.special,
                "weapon": plan.weapon.name,
                "modifiers": [m.to_json() for m in check.check.modifiers],
                "base": check.check.base,
            },
        )
    )
    if result.fumbled and may_fumble:
        fumble(state, plan, result, dice)
    if result.hit:
        land(state, plan, target, dice)
    elif result.outcome == "parry" or (
        result.outcome in FUMBLE_MISSES and _parry_fumble(check, result)
    ):
        offer_parry(state, plan, target, dice)
    return result


def _parry_fumble(check: StrikeCheck, result: StrikeResult) -> bool:
    return check.evading_parry or (check.parry_margin and result.face >= check.msc + 30)


def fumble(state: GameState, plan: Plan, strike: StrikeResult, dice: Dice) -> None:
    """SCP-30, SCP-31 (A-5): a 99 may break the weapon, a 100 drop it, unless 3 x MD is
    rolled: the strike's outcome says which."""
    attacker, weapon = plan.attacker, plan.weapon
    if plan.check.fumble == "pulse":
        FigureBook(attacker).skip_attack_pulse = offers.pulse(state) + 1
        state.emit(
            Event(
                "fumble",
                f"{attacker.name} fumbles: no attack next Pulse",
                attacker.id,
                rule="SCP-31, A-5",
            )
        )
        return
    check = fumble_check(state, attacker)
    result = check.roll(dice)
    item = next((i for i in attacker.equipment if i.name == weapon.name and i.is_ready), None)
    rolled = f"fumble check {result.roll.total}"
    if result.success or item is None:
        text = f"{attacker.name} rolled {strike.face}: {rolled} ≤ {check.target}, no misfortune"
    elif strike.outcome in ("break_hit", "break_miss"):
        BROKEN.put(item, True)
        ground.drop(attacker, item)
        text = f"{attacker.name}'s {weapon.name} breaks (99; {rolled} > {check.target})"
    else:
        ground.drop(attacker, item)
        text = f"{attacker.name} drops the {weapon.name} (100; {rolled} > {check.target})"
    state.emit(
        Event(
            "fumble",
            text,
            attacker.id,
            rule="SCP-30, SCP-31, A-3",
            rolls=(result.roll.to_json(),),
            data={
                "roll": result.roll.total,
                "threshold": check.target,
                "misfortune": not result.success,
            },
        )
    )


def _off_balance(state: GameState, target: Figure, special: str, dice: Dice) -> None:
    """A trip, entangle (SCP-18) or Shield Rush that hit: the target's footing roll, prone
    when it fails (SCP-23)."""
    if special == "entangle":
        target.statuses["entangled"] = Status("entangled", note="Pass twice to free (SCP-18)")
        FigureBook(target).pass_streak = 0
        state.emit(Event("status", f"{target.name} is entangled", target.id, rule="SCP-18, A-18"))
    footing = footing_check(target).roll(dice)
    if footing.success:
        text = f"{target.name} keeps its footing ({footing.roll.total} ≤ {footing.check.target})"
    else:
        target.statuses["prone"] = Status("prone")
        text = f"{target.name} falls prone ({footing.roll.total} > {footing.check.target})"
    state.emit(
        Event(
            "footing",
            text,
            target.id,
            rule="SCP-23",
            rolls=(footing.roll.to_json(),),
            data={"roll": footing.roll.total, "threshold": footing.check.target},
        )
    )


def land(state: GameState, plan: Plan, target: Figure, dice: Dice) -> None:
    """A hit takes effect: damage, then the special attack's effect (SCP-17...SCP-22)."""
    s = settings(state)
    special = plan.special
    expr = damage_expr(state, plan.weapon, special)
    if expr:
        amount = damage_amount(state, target, expr, f"Damage to {target.name} on a hit")
        roll = amount.roll(dice)
        take_damage(state, target, roll.total, plan, amount.dice, roll.roll.to_json())
    if special in ("trip", "entangle", "shield_rush"):
        _off_balance(state, target, special, dice)
    elif special == "restrain":
        book = FigureBook(target)
        book.restrained_by = [*book.restrained_by, plan.attacker.id]
        target.statuses["restrained"] = Status("restrained", note="incapacitated (SCP-19)")
        state.emit(
            Event(
                "status",
                f"{target.name} is restrained by {plan.attacker.name}: incapacitated, no damage",
                target.id,
                plan.attacker.id,
                rule="SCP-19",
            )
        )
    elif special == "knockout":
        minutes = KNOCKOUT_TIME.roll(dice).roll
        pulses = minutes.total * s.pulses_per_minute
        target.statuses["unconscious"] = Status("unconscious", pulses, KNOCKED_OUT)
        how_long = f"for {minutes.total} minutes ({pulses} Pulses, R-9)"
        timed = Event(
            "status",
            f"{target.name} is knocked out ({how_long})",
            target.id,
            plan.attacker.id,
            rule="SCP-20, A-21",
            data={"minutes": minutes.total, "pulses": pulses},
            rolls=(minutes.to_json(),),
        )
        if not s.knockout_duration_shown:  # kept from the players: the GM's until it wakes
            shown = f"{target.name} is knocked out (for a time rolled secretly)"
            state.emit(replace(timed, text=shown, data={}, rolls=()))
            timed = replace(
                timed,
                text=f"{target.name}'s time unconscious, rolled in secret: {how_long}",
                secret=Secret.made(state, target.id, "status", "unconscious", gm_only=True),
            )
        state.emit(timed)
    elif special == "disarm":
        disarm(state, target, plan.attacker, plan.drop or None, "SCP-22")


def riposte(state: GameState, defender: Figure, weapon_name: str, dice: Dice) -> None:
    """SCP-35: an immediate Melee attack at the attacker that cannot be parried."""
    context = parry_context(state)
    attacker = state.figure(str(context["attacker"]))
    weapon = next(
        (w for w in offers.riposte_weapons(state, defender, attacker) if w.name == weapon_name),
        None,
    )
    if weapon is None:
        raise IllegalActionError(
            f"{defender.name} cannot riposte at {attacker.name} with a {weapon_name} (SCP-35, R-17)"
        )
    through = offers.through_of(defender, attacker, "melee")
    check = strike_check(state, defender, attacker, weapon, "melee", through=through, riposte=True)
    plan = Plan(defender, attacker, weapon, "melee", "none", check, False, ())
    strike(state, plan, check, attacker, dice, riposte=True)
