"""What happens in a Pulse: initiative, attacks, missiles, parries, damage and infection.

Each function changes the state it is given and emits events whose text a GM
can read and whose ``details`` and ``data`` carry every number and rule id.
Dice are rolled in a fixed order: the Strike Check, the fumble check (on 99 or
100), damage, the footing roll, then any hidden duration.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...actions import Action
from ...checks import Amount, Check, Rollable
from ...dice import Dice
from ...errors import IllegalActionError
from ...events import Event
from ...figures import Figure, Status, place
from ...layout import hex_label
from ...state import GameState
from ...validation import Json
from . import ground, missile, offers, rules
from .situation import (
    HANDS,
    KICK,
    UNARMED,
    Weapon,
    damage_amount,
    damage_expr,
    defense,
    engaged_figures,
    find_weapon,
    is_out,
    parry_rank_of,
    rank,
    restrainers,
    same_hex,
    settings,
    shield_of,
    stat,
    strike_check,
    weapon_rank,
)
from .strike import StrikeCheck, StrikeResult

MODES = {"melee": "melee", "charge": "melee", "fire": "ranged", "grapple": "close"}

# ---- the Pulse ----------------------------------------------------------------------------


def new_pulse(state: GameState, dice: Dice) -> None:
    """Start-of-Pulse upkeep, then initiative (A-13) and who is engaged (A-12, SCP-6)."""
    s = settings(state)
    state.memory["acted"] = []
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
    state.memory["order"] = [f.id for f in order]
    state.memory["initiative"] = {k: v for k, v in totals.items()}
    engaged_ids = set(engaged_figures(state))
    # in initiative order, never in set-up order: the table's entry order decides nothing
    state.memory["engaged"] = [f.id for f in order if f.id in engaged_ids]
    engaged = [state.figures[i].name for i in state.memory["engaged"]]
    text = "Initiative: " + ", ".join(f"{f.name} {totals[f.id]}" for f in order)
    if engaged:
        text += f"; engaged first: {', '.join(engaged)}"
    state.emit(
        Event(
            "initiative",
            text,
            rule="SCP-6, A-12, A-13",
            details=tuple(details),
            data={"order": [f.id for f in order], "engaged": state.memory["engaged"]},
        )
    )


def _tied(keys: dict[str, tuple[int, ...]], fid: str) -> bool:
    """True when another figure has the same initiative key (A-13: it rolls again)."""
    return sum(1 for k in keys.values() if k == keys[fid]) > 1


def acted(state: GameState, figure: Figure) -> None:
    """The figure has taken its one action this Pulse (A-14); a non-Pass resets its streak."""
    done = list(state.memory.get("acted") or [])
    if figure.id in done:
        raise IllegalActionError(f"{figure.name} has already acted this Pulse (A-14)")
    done.append(figure.id)
    state.memory["acted"] = done
    if settings(state).evading_lasts == "next_action":  # its next action ends it
        figure.statuses.pop("evading", None)
    figure.memory["pass_streak"] = 0


def do_pass(state: GameState, figure: Figure) -> None:
    """SCP-18, A-18: Passes in consecutive Pulses free an entangled figure."""
    p = offers.pulse(state)
    streak_before = figure.memory.get("pass_streak")
    last = figure.memory.get("last_pass")
    acted(state, figure)
    streak = (streak_before if isinstance(streak_before, int) else 0) if last == p - 1 else 0
    figure.memory["pass_streak"] = streak + 1
    figure.memory["last_pass"] = p
    text = f"{figure.name} passes"
    if figure.has_status("entangled"):
        if rules.disentangled(streak + 1):
            figure.statuses.pop("entangled", None)
            text += ": two Passes in a row, it is free of the entanglement"
        else:
            text += f" (Pass {streak + 1} of 2 to disentangle)"
    state.emit(Event("pass", text, figure.id, rule="SCP-18, A-18"))


# ---- planning an attack -----------------------------------------------------------------


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
    why = offers.special_ok(
        weapon, special, mode, target, str(shield.stats.get("type", "")) if shield else ""
    )
    if why:
        raise IllegalActionError(why)
    drop = disarm_choice(state, target, special, action)
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
    if not items:
        raise IllegalActionError(
            f"{target.name} holds no weapon or item that a Disarm could make it drop (SCP-22)"
        )
    if settings(state).disarm_drops != "attacker":
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
    md = stat(attacker, "md", 0)
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


def after_hit_rollables(state: GameState, plan: Plan) -> list[Rollable]:
    """What a hit rolls next: damage, and the footing roll of SCP-23."""
    found: list[Rollable] = []
    expr = damage_expr(state, plan.weapon, plan.special)
    if expr:
        found.append(
            damage_amount(state, plan.target, expr, f"Damage to {plan.target.name} on a hit")
        )
    if plan.special in ("trip", "entangle", "shield_rush"):
        found.append(footing_check(plan.target))
    if plan.special == "knockout":
        found.append(
            Amount(
                "Unconscious for (minutes, rolled secretly)", "d10+5", rule="SCP-20", unit="minutes"
            )
        )
    return found


def footing_check(target: Figure) -> Check:
    """SCP-23 (A-19): D100 at or under 3 x AG keeps the footing."""
    ag = stat(target, "ag", 0)
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


def multiple_actions(state: GameState, attacker: Figure, action: Action) -> list[Action]:
    """SCP-13...SCP-15, A-31: the strikes of a Multiple Strike in declaration order, each a
    Melee, Fire or Grapple action (the form's type, SCP-14) at the multiple-strike modifier
    (the second weapon in the secondary hand, SCP-7, by reading R-10)."""
    form = action.text("form")
    forms = offers.strike_weapons(state, attacker)
    if form not in forms:
        raise IllegalActionError(f"{attacker.name} cannot make a {form} strike (SCP-13)")
    extra = action.integer("modifier", 0)
    if form in offers.TWO_WEAPON_FORMS:
        pairs = [
            (w, action.text(name, offers.NO_TARGET))
            for w, name in zip(forms[form], offers.STRIKE_PARAMS, strict=False)
        ]
        pairs = [(w, t) for w, t in pairs if t != offers.NO_TARGET]
        if len(pairs) < 2:
            raise IllegalActionError("a two-weapon strike needs a target for each of two weapons")
        weapons = [w for w, _ in pairs]
        targets = [t for _, t in pairs]
        in_hand = [w for w in weapons if w.kind == "weapon" and not w.natural]
        second_hand = in_hand[1] if len(in_hand) > 1 else None
        # the second weapon in hand is in the secondary hand; natural weapons, the
        # punch (primary hand) and the kick use none
        hands = [w is second_hand and settings(state).two_weapon_off_hand for w in weapons]
        multiple = form != "punch_kick" or settings(state).punch_and_kick == "multiple"
    else:
        targets = [action.text("target"), action.text("second_target")]
        targets += [
            t
            for t in (action.text(n, offers.NO_TARGET) for n in offers.STRIKE_PARAMS[2:])
            if t != offers.NO_TARGET
        ]
        chosen = [w for w in forms[form] if w.name == action.text("weapon")]
        if not chosen:
            raise IllegalActionError(f"the {action.text('weapon')} is not at Rank 4+ (SCP-15)")
        if len(set(targets)) != len(targets):
            raise IllegalActionError("a multi-target strike hits each target once (SCP-15)")
        weapons = chosen * len(targets)
        hands = [False] * len(targets)
        multiple = True
    kind = offers.MODE_ACTIONS[offers.FORM_MODES[form]]
    actions = []
    for weapon, target_id, off in zip(weapons, targets, hands, strict=False):
        target = state.figure(target_id)
        allowed = offers.strike_targets(state, attacker, weapon, form)
        if target not in allowed:
            raise IllegalActionError(
                f"{target.name} cannot be struck with the {weapon.name} in a {form} strike "
                "(SCP-14, SCP-15)"
            )
        params: dict[str, Json] = {
            "weapon": weapon.name,
            "special": "none",
            "target": target.id,
            "modifier": extra,
            "off_hand": off,
            "multiple": multiple,
        }
        actions.append(Action(kind, attacker.id, params))
    if kind == "grapple":
        hexes = {state.figure(a.text("target")).position for a in actions}
        if len(hexes) > 1:
            raise IllegalActionError(
                "a two-weapon Grapple strikes figures in one hex, the one it is in or steps "
                "into (SCP-5, R-1)"
            )
    return actions


def multiple_plans(state: GameState, attacker: Figure, action: Action) -> list[Plan]:
    """The strikes of a Multiple Strike worked out before any roll (``multiple_actions``)."""
    return [plan_attack(state, attacker, a) for a in multiple_actions(state, attacker, action)]


def multiple_strike(state: GameState, attacker: Figure, action: Action, dice: Dice) -> None:
    """SCP-14, SCP-15, A-31: every strike rolled in order; parries asked afterwards. A Grapple
    steps in and drops shields once first (R-1, SCP-41, R-4); each missile of a Fire is
    planned when it flies, so the first one's effects (a figure felled on the line) count
    for the second (SCP-10...SCP-12)."""
    actions = multiple_actions(state, attacker, action)
    plans = [plan_attack(state, attacker, a) for a in actions]
    acted(state, attacker)
    state.emit(
        Event(
            "multiple_strike",
            f"{attacker.name} makes a multiple strike: "
            + ", ".join(f"the {p.weapon.name} at {p.target.name}" for p in plans),
            attacker.id,
            rule="SCP-13, SCP-14, SCP-15, A-31",
            data={"targets": [p.target.id for p in plans], "form": action.text("form")},
        )
    )
    if plans[0].mode == "close":
        enter_close(state, attacker, [p.target for p in plans])
        plans = [plan_attack(state, attacker, a) for a in actions]  # shields gone (SCP-41)
    for plan, one in zip(plans, actions, strict=True):
        if is_out(plan.target) or is_out(attacker):
            continue
        held = any(i.name == plan.weapon.name and i.is_ready for i in attacker.equipment)
        if plan.weapon.kind == "weapon" and not held:
            continue  # dropped by a fumble of an earlier strike
        if plan.mode == "ranged":
            try:
                plan = plan_attack(state, attacker, one)
            except IllegalActionError as exc:
                state.emit(
                    Event(
                        "missile",
                        f"{attacker.name} cannot fire the {plan.weapon.name}: {exc}",
                        attacker.id,
                        rule="SCP-14, SCP-3",
                    )
                )
                continue
            fly(state, plan, dice)
            continue
        strike(state, plan, plan.check, plan.target, dice)


def drop_shield_for_close(state: GameState, figure: Figure) -> None:
    """SCP-41: any shield but a Main Gauche is dropped on entering Close combat."""
    shield = shield_of(figure)
    if shield is None or shield.stats.get("type") == "main_gauche":
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
    for entry in plan.flight.entries:
        check = path_check(state, plan, entry)
        result = strike(state, plan, check, entry.figure, dice, entry=entry)
        if result.hit:
            return
    state.emit(
        Event(
            "missile",
            f"The {plan.weapon.name}'s missile {plan.flight.end}",
            plan.attacker.id,
            rule="SCP-10, SCP-11, SCP-9",
        )
    )


def strike(
    state: GameState,
    plan: Plan,
    check: StrikeCheck,
    target: Figure,
    dice: Dice,
    entry: missile.Entry | None = None,
    riposte: bool = False,
) -> StrikeResult:
    """One Strike Check (SCP-28) and everything that follows it."""
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
    if result.face >= 99:
        fumble(state, plan, result.face, dice)
    if result.hit:
        land(state, plan, target, dice)
    elif result.outcome == "parry" or (
        result.outcome == "fumble_miss" and _parry_fumble(check, result)
    ):
        offer_parry(state, plan, target, dice)
    return result


def _parry_fumble(check: StrikeCheck, result: StrikeResult) -> bool:
    return check.evading_parry or (check.parry_margin and result.face >= check.msc + 30)


def fumble(state: GameState, plan: Plan, face: int, dice: Dice) -> None:
    """SCP-30, SCP-31 (A-5): a 99 may break the weapon, a 100 drop it, unless 3 x MD is rolled."""
    s = settings(state)
    attacker, weapon = plan.attacker, plan.weapon
    if weapon.kind in ("hands", "kick") or weapon.natural:
        if s.natural_fumble_skips_pulse:
            attacker.memory["skip_attack_pulse"] = offers.pulse(state) + 1
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
    what = rules.fumble_face(face)
    item = next((i for i in attacker.equipment if i.name == weapon.name and i.is_ready), None)
    rolled = f"fumble check {result.roll.total}"
    if result.success or item is None:
        text = f"{attacker.name} rolled {face}: {rolled} ≤ {check.target}, no misfortune"
    elif what == "break":
        item.stats["broken"] = True
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


def land(state: GameState, plan: Plan, target: Figure, dice: Dice) -> None:
    """A hit takes effect: damage, then the special attack's effect (SCP-17...SCP-22)."""
    s = settings(state)
    special = plan.special
    expr = damage_expr(state, plan.weapon, special)
    if expr:
        amount = damage_amount(state, target, expr, f"Damage to {target.name}")
        roll = amount.roll(dice)
        take_damage(state, target, roll.total, plan, amount.dice, roll.roll.to_json())
    if special in ("trip", "entangle", "shield_rush"):
        if special == "entangle":
            target.statuses["entangled"] = Status("entangled", note="Pass twice to free (SCP-18)")
            target.memory["pass_streak"] = 0
            state.emit(
                Event("status", f"{target.name} is entangled", target.id, rule="SCP-18, A-18")
            )
        footing = footing_check(target).roll(dice)
        if footing.success:
            text = (
                f"{target.name} keeps its footing ({footing.roll.total} ≤ {footing.check.target})"
            )
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
    elif special == "restrain":
        held = [i for i in (target.memory.get("restrained_by") or []) if isinstance(i, str)]
        target.memory["restrained_by"] = [*held, plan.attacker.id]
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
        minutes = dice.roll("d10+5")
        pulses = minutes.total * s.pulses_per_minute
        target.statuses["unconscious"] = Status("unconscious", pulses, "D10 + 5 minutes (SCP-20)")
        how_long = (
            f"for {minutes.total} minutes ({pulses} Pulses, R-9)"
            if s.knockout_duration_shown
            else "for a time rolled secretly"
        )
        state.emit(
            Event(
                "status",
                f"{target.name} is knocked out ({how_long})",
                target.id,
                plan.attacker.id,
                rule="SCP-20, A-21",
                data={"minutes": minutes.total, "pulses": pulses},
                rolls=(minutes.to_json(),),
            )
        )
    elif special == "disarm":
        disarm(state, target, plan.attacker, plan.drop or None, "SCP-22")


def disarm(
    state: GameState,
    victim: Figure,
    by: Figure,
    item_name: str | None,
    rule: str,
    en_damage: int = 1,
) -> None:
    """SCP-22: the victim drops a weapon or item (``item_name`` when chosen, else by R-5) and
    takes 1 Endurance damage; with nothing in hand that can be dropped it is not disarmed."""
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
    pool.current -= amount
    figure.memory["en_damage"] = int(figure.memory.get("en_damage") or 0) + amount
    figure.memory["wounded"] = True
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
        ft.current -= to_ft
    if en is not None:
        en.current -= to_en
    if amount > 0:
        target.memory["wounded"] = True
        if "bite_claw_talon" in plan.weapon.categories:
            target.memory["bitten"] = True
    if to_en:
        target.memory["en_damage"] = int(target.memory.get("en_damage") or 0) + to_en
    armour = stat(target, "armour", 0)
    state.emit(
        Event(
            "damage",
            f"{target.name} takes {amount} damage ({to_ft} Fatigue, {to_en} Endurance)",
            target.id,
            plan.attacker.id,
            rule="A-26",
            details=(
                f"Damage {expr}: weapon dice minus armour {armour}, at least "
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
        held = [i for i in (f.memory.get("restrained_by") or []) if isinstance(i, str)]
        if hurt.id in held:
            f.memory["restrained_by"] = []
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


def offer_parry(state: GameState, plan: Plan, defender: Figure, dice: Dice) -> None:
    """SCP-32, A-6: the defender may parry (asked, or rolled at once without the option)."""
    ok, _ = parry_rank_of(state, defender)
    if not ok or is_out(defender):
        return
    att_rank = weapon_rank(plan.attacker, plan.weapon)
    context: dict[str, Json] = {
        "attacker": plan.attacker.id,
        "weapon": plan.weapon.name,
        "kind": plan.weapon.kind,
        "attacker_rank": att_rank,
    }
    if not settings(state).parry_optional:
        state.memory["parry_context"] = context
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


def _context(state: GameState) -> dict[str, Json]:
    prompt = state.prompt
    context = prompt.context if prompt is not None else state.memory.pop("parry_context", None)
    if not isinstance(context, dict):
        raise IllegalActionError("there is no attack to answer")
    return context


def parry(state: GameState, defender: Figure, dice: Dice) -> None:
    """SCP-33, SCP-34: D10 + Rank(defender) - Rank(attacker) on the parry table."""
    s = settings(state)
    context = _context(state)
    attacker = state.figure(str(context["attacker"]))
    att_rank = context.get("attacker_rank")
    att_rank = att_rank if isinstance(att_rank, int) else None
    _, def_rank = parry_rank_of(state, defender)
    roll = dice.roll("d10")
    total = rules.parry_total(roll.total, def_rank, att_rank)
    result = rules.parry_result(total)
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
        defender.memory["must_pass_pulse"] = offers.pulse(state) + 1
        return
    weapon = str(context["weapon"]) if context.get("kind") == "weapon" else None
    disarm(state, attacker, defender, weapon, "SCP-34, A-8", s.parry_disarm_en_damage)
    if result == "riposte" and not is_out(attacker) and not is_out(defender):
        if s.riposte_requires_evading and not defender.has_status("evading"):
            return
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


def riposte(state: GameState, defender: Figure, weapon_name: str, dice: Dice) -> None:
    """SCP-35: an immediate Melee attack at the attacker that cannot be parried."""
    context = _context(state)
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


# ---- view -----------------------------------------------------------------------------------


def figure_view(state: GameState, figure: Figure) -> dict[str, Json]:
    """What the figure panel shows beyond the stored numbers."""
    front, _, _ = defense(state, figure, "F", False)
    rear, _, _ = defense(state, figure, "B", False)
    init = state.memory.get("initiative") or {}
    view: dict[str, Json] = {
        "defense_front": front.total,
        "defense_rear": rear.total,
        "initiative": init.get(figure.id) if isinstance(init, dict) else None,
        "acted": figure.id in (state.memory.get("acted") or []),
        "unarmed_rank": rank(figure, UNARMED),
    }
    s = settings(state)
    for w in weapon_of_view(state, figure):
        view[f"strike chance with the {w[0]}"] = w[1]
    del s
    return view


def weapon_of_view(state: GameState, figure: Figure) -> list[tuple[str, int]]:
    """SCP-26: each attack's Strike Chance, worked out before the fight."""
    from .situation import attack_weapons

    found: list[tuple[str, int]] = []
    for mode in ("melee", "ranged", "close"):
        for w in attack_weapons(state, figure, mode):
            if w.kind == "shield" or any(w.name == n for n, _ in found):
                continue
            found.append(
                (
                    w.name,
                    rules.strike_chance(
                        w.base, stat(figure, "md", 0), weapon_rank(figure, w), natural=w.natural
                    ),
                )
            )
    return found


__all__ = ["HANDS", "KICK", "restrainers"]
