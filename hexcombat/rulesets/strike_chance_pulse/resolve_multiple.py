"""Multiple actions in one Pulse (SCP-39, SCP-40): the plans, then each strike in turn."""

from __future__ import annotations

from collections.abc import Sequence

from hexcombat.actions import Action
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.rulesets.strike_chance_pulse import offers_strikes
from hexcombat.rulesets.strike_chance_pulse.flow import acted
from hexcombat.rulesets.strike_chance_pulse.resolve import (
    Plan,
    enter_close,
    fly,
    plan_attack,
    strike,
)
from hexcombat.rulesets.strike_chance_pulse.situation import Weapon, attackable, is_out, settings
from hexcombat.state import GameState
from hexcombat.validation import Json


def _two_weapon_strikes(
    state: GameState, action: Action, form: str, offered: Sequence[Weapon]
) -> tuple[list[Weapon], list[str], list[bool], bool]:
    """SCP-14: the weapons of a two-weapon form with a target each, whether each is in the
    secondary hand (R-10) and whether the strike counts as multiple."""
    pairs = [
        (w, action.text(name, offers_strikes.NO_TARGET))
        for w, name in zip(offered, offers_strikes.STRIKE_PARAMS, strict=False)
    ]
    pairs = [(w, t) for w, t in pairs if t != offers_strikes.NO_TARGET]
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
    return weapons, targets, hands, multiple


def multiple_actions(state: GameState, attacker: Figure, action: Action) -> list[Action]:
    """SCP-13...SCP-15, A-31: the strikes of a Multiple Strike in declaration order, each a
    Melee, Fire or Grapple action (the form's type, SCP-14) at the multiple-strike modifier
    (the second weapon in the secondary hand, SCP-7, by reading R-10)."""
    form = action.text("form")
    forms = offers_strikes.strike_weapons(state, attacker)
    if form not in forms:
        raise IllegalActionError(f"{attacker.name} cannot make a {form} strike (SCP-13)")
    extra = action.integer("modifier", 0)
    if form in offers_strikes.TWO_WEAPON_FORMS:
        weapons, targets, hands, multiple = _two_weapon_strikes(state, action, form, forms[form])
    else:
        targets = [action.text("target"), action.text("second_target")]
        targets += [
            t
            for t in (
                action.text(n, offers_strikes.NO_TARGET) for n in offers_strikes.STRIKE_PARAMS[2:]
            )
            if t != offers_strikes.NO_TARGET
        ]
        chosen = [w for w in forms[form] if w.name == action.text("weapon")]
        if not chosen:
            raise IllegalActionError(f"the {action.text('weapon')} is not at Rank 4+ (SCP-15)")
        if len(set(targets)) != len(targets):
            raise IllegalActionError("a multi-target strike hits each target once (SCP-15)")
        weapons = chosen * len(targets)
        hands = [False] * len(targets)
        multiple = True
    kind = offers_strikes.MODE_ACTIONS[offers_strikes.FORM_MODES[form]]
    actions = []
    for weapon, target_id, off in zip(weapons, targets, hands, strict=False):
        target = state.figure(target_id)
        allowed = offers_strikes.strike_targets(state, attacker, weapon, form)
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
        if not attackable(state, plan.target) or is_out(attacker):
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
