"""What a figure may do now, described for forms: each action with only legal values.

Attack parameters depend on each other (weapon -> special attack -> target):
each special and target :class:`~hexcombat.schema.Choice` carries ``when``, so
the engine refuses a target that is not legal for the chosen weapon and
special attack, and the form offers only the ones that are.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...actions import ActionSpec
from ...checks import percent
from ...figures import Figure, figure_distance
from ...geometry import DIRECTION_NAMES, Hex, distance, neighbors
from ...layout import hex_label
from ...schema import Choice, FieldSpec
from ...state import GameState
from ...validation import Json
from . import ground, missile, rules
from .situation import (
    HORSEMANSHIP,
    Weapon,
    attack_weapons,
    hostile,
    in_melee_zone,
    in_ranged_zone,
    is_out,
    parry_rank_of,
    prepared,
    rank,
    same_hex,
    settings,
    shield_of,
    stat,
    strike_check,
    text_stat,
    weapon_of,
    weapon_rank,
    where,
)

MODIFIER_LIMIT = 50
SPECIAL_WORDS = {
    "none": "No special attack",
    "trip": "Trip (Base 40, D10, footing roll; SCP-17)",
    "entangle": "Entangle (footing roll, entangled; SCP-18)",
    "restrain": "Restrain (3 x difference of PS + AG; SCP-19)",
    "knockout": "Knockout (at or under 15% of the MSC; SCP-20)",
    "shield_rush": "Shield Rush (Base 40, +20 after a Charge; SCP-21)",
    "disarm": "Disarm (MSC - 20; SCP-22)",
}
MODE_SPECIALS = {
    "melee": ("trip", "entangle", "knockout", "shield_rush", "disarm"),
    "ranged": ("entangle",),
    "close": ("restrain", "knockout", "disarm"),
}


def pulse(state: GameState) -> int:
    """The Pulse number."""
    return state.clock.counters[0]


def moving_now(state: GameState, figure: Figure) -> bool:
    """SCP-49: a rider's mount moved this Pulse."""
    mount = state.figures.get(figure.mounted_on)
    return mount is not None and mount.memory.get("moved_pulse") == pulse(state)


def target_problem(
    state: GameState, attacker: Figure, target: Figure, weapon: Weapon, mode: str
) -> str:
    """Why ``attacker`` cannot attack ``target`` with ``weapon`` in ``mode`` ('' if it can)."""
    s = settings(state)
    if target.id == attacker.id or not hostile(attacker, target) or is_out(target):
        return f"{target.name} is not a hostile figure in the fight"
    if target.id == attacker.mounted_on or target.mounted_on == attacker.id:
        return f"{target.name} is {attacker.name}'s mount or rider"
    shared = same_hex(attacker, target)
    if mode == "close":
        if shared:
            return ""
        if s.grapple_enters_hex and figure_distance(attacker, target) == 1:
            room = s.stacking == 0 or len(state.occupants(target.position)) < s.stacking
            return "" if room else f"{target.name}'s hex is full (core.stacking)"
        return f"{target.name} is not in {attacker.name}'s hex (SCP-5)"
    if shared:
        return f"{target.name} shares {attacker.name}'s hex: only Close combat (SCP-5)"
    if mode == "melee":
        if not in_melee_zone(state, attacker, target, weapon):
            return f"{target.name} is not in {attacker.name}'s Melee Zone (SCP-4, A-11, SCP-50)"
        return ""
    rider_front = (
        attacker.mounted_on != ""
        and s.mounted_front_fire == "allow_adjacent"
        and where(attacker, target.position) == "F"
    )
    if figure_distance(attacker, target) <= 1 and not rider_front:
        return f"{target.name} is adjacent: no Fire (SCP-3)"
    if not in_ranged_zone(state, attacker, target):
        return f"{target.name} is not in {attacker.name}'s Ranged Zone (SCP-3, A-11)"
    if figure_distance(attacker, target) > weapon.range_hexes:
        return (
            f"{target.name} is {figure_distance(attacker, target)} hexes away; the "
            f"{weapon.name} reaches {weapon.range_hexes} (A-24)"
        )
    if attacker.mounted_on and moving_now(state, attacker):
        return "a rider cannot fire while the mount is moving (SCP-49)"
    sight = missile.line_of_fire(state, attacker, target)
    return "" if sight.clear else f"no line of fire: {sight.reason}"


def special_ok(weapon: Weapon, special: str, mode: str, target: Figure, shield_type: str) -> str:
    """SCP-16...SCP-22 for one weapon, special and target."""
    if special == "none":
        return ""
    if special == "shield_rush" and weapon.kind != "shield":
        return "Shield Rush is made with the shield (SCP-21)"
    if weapon.kind == "shield" and special != "shield_rush":
        return "a shield attacks only by Shield Rush (SCP-21)"
    return rules.special_problem(
        special,
        mode=mode,
        categories=weapon.categories,
        rated=weapon.rated,
        target_size=text_stat(target, "size", "human"),
        shield_type=shield_type or None,
        kick=weapon.kind == "kick",
    )


def through_of(attacker: Figure, target: Figure, mode: str) -> str | None:
    """The target's hex the attack comes through (None in Close combat)."""
    return None if mode == "close" else where(target, attacker.position)


def attack_spec(state: GameState, figure: Figure, mode: str) -> ActionSpec | None:
    """Melee, Fire or Grapple with every legal weapon -> special -> target chain."""
    shield = shield_of(figure)
    shield_type = str(shield.stats.get("type", "")) if shield else ""
    weapons: list[Choice] = []
    specials: list[Choice] = []
    targets: list[Choice] = []
    for w in attack_weapons(state, figure, mode):
        any_target = False
        for special in ("none", *MODE_SPECIALS[mode]):
            found = False
            for t in state.figures.values():
                if target_problem(state, figure, t, w, mode):
                    continue
                if special_ok(w, special, mode, t, shield_type):
                    continue
                if special == "disarm" and not ground.droppable(t):
                    continue  # SCP-22: nothing to drop, no Disarm
                through = through_of(figure, t, mode)
                if mode == "ranged":
                    through = missile.through_hex(state, t, _before(figure, t))
                check = strike_check(state, figure, t, w, mode, special, through=through)
                detail = f"MSC {check.msc}: {percent(check.chance())}"
                targets.append(
                    Choice(t.id, t.name, detail, when={"weapon": w.name, "special": special})
                )
                found = True
            if found:
                specials.append(Choice(special, SPECIAL_WORDS[special], when={"weapon": w.name}))
                any_target = True
        if any_target:
            weapons.append(Choice(w.name, w.name, f"Base {w.base}"))
    if not weapons:
        return None
    params = [
        FieldSpec("weapon", "Weapon", "choice", choices=tuple(weapons)),
        FieldSpec(
            "special", "Special attack", "choice", "none", choices=tuple(specials), rule="SCP-16"
        ),
        FieldSpec("target", "Target", "figure", choices=tuple(targets)),
    ]
    drop = drop_param(state, state.figures.values())
    if drop is not None and mode != "ranged":
        params.append(drop)
    if mode == "melee":
        params.append(
            FieldSpec(
                "off_hand",
                "With the secondary hand",
                "bool",
                False,
                required=False,
                help="Striking with the secondary hand changes the chance (a house number: "
                "the rules give none).",
                rule="SCP-7",
            )
        )
    params.append(modifier_param())
    words = {
        "melee": (
            "melee",
            "Melee attack",
            "D100 at or under the MSC hits (SCP-4, SCP-24...SCP-28).",
            "SCP-1, SCP-4, SCP-27",
        ),
        "ranged": (
            "fire",
            "Fire",
            "The missile flies in a straight line; every figure on it is "
            "checked until one is hit (SCP-10...SCP-12).",
            "SCP-1, SCP-3, SCP-12",
        ),
        "close": (
            "grapple",
            "Grapple (Close)",
            "Only against a figure in your hex, which you may "
            "step into (SCP-5; shields are dropped, SCP-41).",
            "SCP-1, SCP-5, SCP-41",
        ),
    }[mode]
    return ActionSpec(words[0], words[1], figure.id, tuple(params), words[2], words[3])


def drop_param(state: GameState, targets: Iterable[Figure]) -> FieldSpec | None:
    """SCP-22, R-5: what a Disarm makes the target drop, the attacker's choice (None when
    the option leaves it to the order of the target's items)."""
    if settings(state).disarm_drops != "attacker":
        return None
    choices = tuple(
        Choice(i.name, i.name, when={"special": "disarm", "target": t.id})
        for t in targets
        for i in ground.droppable(t)
    )
    return FieldSpec(
        "drop",
        "Disarm: what the target drops",
        "choice",
        choices=choices,
        required=False,
        help="The attacker's choice of the target's weapons and items in hand (SCP-22).",
        rule="SCP-22, R-5",
    )


def _before(attacker: Figure, target: Figure) -> tuple[Hex, ...]:
    from ...geometry import line_steps

    steps = line_steps(attacker.position, target.position)
    return steps[-2].hexes if len(steps) > 1 else (attacker.position,)


def modifier_param() -> FieldSpec:
    """SCP-27's attack-condition modifiers (lighting, posture ...), whose values are not given."""
    return FieldSpec(
        "modifier",
        "Other modifier",
        "int",
        0,
        "Lighting, posture and other conditions the text names without values (SCP-27).",
        "SCP-27",
        minimum=-MODIFIER_LIMIT,
        maximum=MODIFIER_LIMIT,
        required=False,
    )


def reach(state: GameState, figure: Figure) -> dict[Hex, int]:
    """A-14: hexes within TMR at 1 MP per open hex (terrain cost), not into full hexes nor
    (R-7, by default) hostiles' hexes; the figure's own hex excluded."""
    s = settings(state)
    tmr = stat(figure, "tmr", 0)
    limit = s.stacking or 99
    crowd: dict[Hex, int] = {}
    foes: set[Hex] = set()
    for f in state.figures.values():
        if f.id in (figure.id,) or f.mounted_on == figure.id or f.mounted_on:
            continue
        for h in f.hexes():
            crowd[h] = crowd.get(h, 0) + 1
            if hostile(f, figure) and not is_out(f):
                foes.add(h)
    best = {figure.position: 0}
    frontier = [figure.position]
    while frontier:
        nxt = []
        for h in frontier:
            for n in neighbors(h):
                if not state.board.contains(n) or crowd.get(n, 0) >= limit:
                    continue
                if n in foes and not s.move_into_hostile:
                    continue
                cost = state.board.terrain_at(n).move_cost
                if cost is None or best[h] + cost > tmr:
                    continue
                if n not in best or best[h] + cost < best[n]:
                    best[n] = best[h] + cost
                    if n not in foes:  # a hostile's hex ends the move
                        nxt.append(n)
        frontier = nxt
    best.pop(figure.position)
    return best


def move_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """A-14, SCP-47: move up to TMR hexes; facing is free. A rider does not move alone; a
    mount under momentum only carries on (SCP-52)."""
    if figure.mounted_on or figure.memory.get("moved_pulse") == pulse(state):
        return None
    if figure.memory.get("momentum_pulse") == pulse(state):
        return momentum_spec(state, figure)
    hexes = reach(state, figure)
    if not hexes:
        return None
    choices = tuple(Choice(str(h), hex_label(h), f"{c} MP") for h, c in sorted(hexes.items()))
    facings = tuple(Choice(i, n) for i, n in enumerate(DIRECTION_NAMES))
    return ActionSpec(
        "move",
        "Move",
        figure.id,
        (
            FieldSpec("to", "To", "hex", choices=choices),
            FieldSpec(
                "facing",
                "Facing at the end",
                "facing",
                figure.facing,
                choices=facings,
                required=False,
            ),
        ),
        f"Up to TMR {stat(figure, 'tmr', 0)} hexes this Pulse; turning is free (A-14).",
        "A-14, SCP-47",
    )


def charge_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-8: move next to a target and make a Melee attack facing it, in one action (a
    rider charges with ``mounted_charge_spec``; a mount under momentum only carries on)."""
    if figure.mounted_on or figure.memory.get("moved_pulse") == pulse(state):
        return None
    if figure.memory.get("momentum_pulse") == pulse(state):
        return None
    hexes = reach(state, figure)
    shield = shield_of(figure)
    shield_type = str(shield.stats.get("type", "")) if shield else ""
    targets: list[Choice] = []
    ends: list[Choice] = []
    weapons = attack_weapons(state, figure, "melee")
    specials: dict[tuple[str, str, str], Choice] = {}
    for t in state.figures.values():
        if t.id == figure.id or not hostile(figure, t) or is_out(t):
            continue
        spots = [h for h in neighbors(t.position) if h in hexes]
        if not spots:
            continue
        targets.append(Choice(t.id, t.name, f"{len(spots)} hexes to charge from"))
        ends += [
            Choice(str(h), hex_label(h), f"{hexes[h]} MP", when={"target": t.id}) for h in spots
        ]
        for w in weapons:
            for sp in ("none", *MODE_SPECIALS["melee"]):
                if special_ok(w, sp, "melee", t, shield_type):
                    continue
                if sp != "disarm":
                    key = (w.name, sp, "")
                    when: dict[str, Json] = {"weapon": w.name}
                elif ground.droppable(t):  # SCP-22: nothing to drop, no Disarm
                    key, when = (w.name, sp, t.id), {"weapon": w.name, "target": t.id}
                else:
                    continue
                specials.setdefault(key, Choice(sp, SPECIAL_WORDS[sp], when=when))
    if not targets or not weapons:
        return None
    drop = drop_param(state, (state.figure(str(c.value)) for c in targets))
    return ActionSpec(
        "charge",
        "Charge",
        figure.id,
        (
            FieldSpec("target", "Target", "figure", choices=tuple(targets)),
            FieldSpec("to", "Charge to", "hex", choices=tuple(ends)),
            FieldSpec(
                "weapon", "Weapon", "choice", choices=tuple(Choice(w.name, w.name) for w in weapons)
            ),
            FieldSpec(
                "special",
                "Special attack",
                "choice",
                "none",
                choices=tuple(specials.values()),
                rule="SCP-16",
            ),
            *((drop,) if drop is not None else ()),
            modifier_param(),
        ),
        "Move next to the target, turn to face it and attack (a Shield Rush gets +20, SCP-21).",
        "SCP-8, SCP-21",
    )


def simple_specs(state: GameState, figure: Figure) -> list[ActionSpec]:
    """Evade, Pass, Ready and Rise (A-14)."""
    specs = [
        ActionSpec(
            "evade",
            "Evade",
            figure.id,
            (),
            "Until the next Pulse attackers get "
            f"{settings(state).evade_modifier} and any Melee miss may be parried "
            "(SCP-29, SCP-32, A-10).",
            "SCP-29, A-10",
        ),
        ActionSpec(
            "pass",
            "Pass",
            figure.id,
            (),
            "Do nothing this Pulse (two Passes in a row free an entangled figure, SCP-18).",
            "SCP-18, SCP-34",
        ),
    ]
    ready = [
        Choice(i.name, f"{i.name} (from the belt)")
        for i in figure.equipment
        if i.kind in ("weapon", "shield")
        and i.state == "carried"
        and i.stats.get("broken") is not True
        and ground.fits(figure, i)
    ]
    ready += [Choice(i.value, i.label) for i in ground.in_reach(state, figure)]
    if ready:
        specs.append(
            ActionSpec(
                "prepare",
                "Ready an item",
                figure.id,
                (FieldSpec("item", "Item", "choice", choices=tuple(ready)),),
                "Prepare a carried weapon or shield, or pick up a dropped one in reach, "
                "anyone's (SCP-31, R-16).",
                "SCP-31, A-14, R-16",
            )
        )
    return specs


def riposte_weapons(state: GameState, defender: Figure, attacker: Figure) -> list[Weapon]:
    """SCP-35, R-17: the weapons ``defender`` may riposte with: its Melee weapons, and by
    default only those whose Melee Zone holds the attacker (a Riposte is a Melee attack)."""
    weapons = [w for w in attack_weapons(state, defender, "melee") if w.kind != "shield"]
    if settings(state).riposte_zone == "any":
        return weapons
    return [w for w in weapons if in_melee_zone(state, defender, attacker, w)]


def riposte_answers(
    state: GameState, defender: Figure, weapons: list[Weapon]
) -> tuple[ActionSpec, ...]:
    """SCP-35: make the Riposte (a Melee attack that cannot be parried) or not."""
    return (
        ActionSpec(
            "riposte",
            "Riposte",
            defender.id,
            (
                FieldSpec(
                    "weapon",
                    "Weapon",
                    "choice",
                    choices=tuple(Choice(w.name, w.name) for w in weapons),
                ),
            ),
            "An immediate Melee attack; it cannot be parried (SCP-35).",
            "SCP-35",
        ),
        ActionSpec("decline_riposte", "No riposte", defender.id, (), "", "SCP-35"),
    )


def parry_answers(
    state: GameState, defender: Figure, attacker_rank: int | None
) -> tuple[ActionSpec, ...]:
    """SCP-32...SCP-34, A-6: roll the parry, or let the miss stand."""
    _, r = parry_rank_of(state, defender)
    p = (r or 0) - (attacker_rank or 0)
    return (
        ActionSpec(
            "parry",
            f"Parry (D10 {'+' if p >= 0 else '-'} {abs(p)})",
            defender.id,
            (),
            "3 or less: parried, you must Pass next Pulse; 4-7: the attacker is disarmed; "
            "8+: disarmed and you may riposte (SCP-34).",
            "SCP-33, SCP-34",
        ),
        ActionSpec(
            "decline_parry",
            "Do not parry",
            defender.id,
            (),
            "The attack missed anyway (A-6).",
            "A-6",
        ),
    )


def close_weapons(figure: Figure) -> int:
    """How many prepared weapons the figure holds."""
    return len(prepared(figure))


def adjacent(a: Hex, b: Hex) -> bool:
    """Neighbouring hexes."""
    return distance(a, b) == 1


# ---- SCP-13 ... SCP-15: multiple strikes -----------------------------------------------------

NO_TARGET = "none"
STRIKE_PARAMS = (
    "target",
    "second_target",
    "third_target",
    "fourth_target",
    "fifth_target",
    "sixth_target",
)
"""One target parameter per strike of a Multiple Strike (SCP-14: '3, 4, or more times')."""
STRIKE_WORDS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth")
# SCP-14: a two-weapon strike is of one type, Melee, Fire or Grapple; each form is the mode
# its strikes are made in (SCP-1) and the action kind each strike is planned as.
TWO_WEAPON_FORMS = {
    "two_weapon": "melee",
    "two_weapon_fire": "ranged",
    "two_weapon_grapple": "close",
    "punch_kick": "melee",  # SCP-46: a kick "in addition to hands"
}
FORM_MODES = {**TWO_WEAPON_FORMS, "multi_target": "melee"}
MODE_ACTIONS = {"melee": "melee", "ranged": "fire", "close": "grapple"}
FORM_WORDS = {
    "two_weapon": "Two weapons, Melee (SCP-14)",
    "two_weapon_fire": "Two weapons, Fire (SCP-14, R-15)",
    "two_weapon_grapple": "Two weapons, Grapple (SCP-14)",
    "punch_kick": "Punch and kick (Unarmed Rank 3+, SCP-46)",
}


def strike_weapons(state: GameState, figure: Figure) -> dict[str, list[Weapon]]:
    """SCP-13...SCP-15, SCP-46, SCP-49, I-11, I-12, R-15: the weapons of each strike form open
    to ``figure``: ``punch_kick`` at Unarmed Rank 3 with a hand free (the kick "in addition
    to hands"), a two-weapon form per type (``two_weapon`` Melee, ``two_weapon_fire``,
    ``two_weapon_grapple``: its two prepared weapons rated for that type, one per hand) and
    ``multi_target`` (each prepared Melee weapon at the high Rank or more)."""
    s = settings(state)
    lifted = s.rider_lift_rank > 0 and (rank(figure, HORSEMANSHIP) or 0) >= s.rider_lift_rank
    forms: dict[str, list[Weapon]] = {}
    unarmed = [w for w in attack_weapons(state, figure, "melee") if w.kind in ("hands", "kick")]
    if len(unarmed) == 2 and not (figure.mounted_on and not lifted):  # SCP-46, SCP-49
        forms["punch_kick"] = unarmed
    if not s.multiple_strikes:
        return forms
    held = [weapon_of(i) for i in prepared(figure)]
    two_handed = any(w.two_handed for w in held)
    for form, mode in TWO_WEAPON_FORMS.items():
        if form == "punch_kick":
            continue
        rated = {w.name for w in attack_weapons(state, figure, mode) if w.kind == "weapon"}
        usable = [w for w in held if w.name in rated]
        if mode == "ranged" and s.two_weapon_fire == "thrown":
            usable = [w for w in usable if "thrown" in w.categories]
        open_forms = rules.multiple_strike_forms(len(usable), two_handed, None, s.high_rank)
        if "two_weapon" in open_forms and not (figure.mounted_on and not lifted):  # SCP-49
            forms[form] = usable[: len(STRIKE_PARAMS)]  # a monster's natural weapons add strikes
    melee = {w.name for w in attack_weapons(state, figure, "melee") if w.kind == "weapon"}
    usable = [w for w in held if w.name in melee]
    best = max((weapon_rank(figure, w) or 0 for w in usable), default=None)
    if "multi_target" in rules.multiple_strike_forms(len(usable), two_handed, best, s.high_rank):
        forms["multi_target"] = [w for w in usable if (weapon_rank(figure, w) or 0) >= s.high_rank]
    return forms


def strike_targets(state: GameState, figure: Figure, weapon: Weapon, form: str) -> list[Figure]:
    """Who one strike of ``form`` may hit with ``weapon``: a legal target of its type
    (SCP-14: in the Melee Zone, in the Ranged Zone with a line of fire, or in the hex a
    Grapple is in or steps into), and for ``multi_target`` only in an adjacent hex (SCP-15)."""
    mode = FORM_MODES[form]
    found = []
    for t in state.figures.values():
        if target_problem(state, figure, t, weapon, mode):
            continue
        if form == "multi_target" and figure_distance(figure, t) != 1:
            continue
        found.append(t)
    return found


def weapons_value(weapons: list[Weapon]) -> str:
    """The form's value for a two-weapon strike's weapons: ``Dagger + Dart``."""
    return " + ".join(w.name for w in weapons)


def two_weapon_choices(
    state: GameState, figure: Figure, form: str, weapons: list[Weapon]
) -> list[list[Choice]] | None:
    """The targets of each strike of a two-weapon ``form`` (None when the first two have
    none; a third strike and on may be left out). A Grapple's strikes all go into one hex,
    the one it is in or steps into (SCP-5, R-1), so the later targets depend on the first."""
    found = [strike_targets(state, figure, w, form) for w in weapons]
    when: dict[str, Json] = {"form": form, "weapon": weapons_value(weapons)}
    if form != "two_weapon_grapple":
        if not found[0] or not found[1]:
            return None
        return [
            [Choice(t.id, t.name, f"with the {w.name}", when=when) for t in ts]
            for w, ts in zip(weapons, found, strict=True)
        ]
    choices: list[list[Choice]] = [[] for _ in weapons]
    for a in found[0]:
        mates = [[b for b in ts if b.position == a.position] for ts in found[1:]]
        if not mates[0]:
            continue
        choices[0].append(Choice(a.id, a.name, f"with the {weapons[0].name}", when=when))
        for i, ts in enumerate(mates, 1):
            choices[i] += [
                Choice(b.id, b.name, f"with the {weapons[i].name}", when={**when, "target": a.id})
                for b in ts
            ]
    return choices if choices[0] else None


def multiple_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-13...SCP-15: a Multiple Strike as one action: two weapons of one type (Melee,
    Fire or Grapple; a target for each, and a monster's natural weapons each strike too:
    '3, 4, or more times'), or one weapon at the high Rank against several adjacent targets,
    once each; each strike gets the multiple-strike modifier (A-15) and is its own Strike
    Check in declaration order (A-31)."""
    s = settings(state)
    forms = strike_weapons(state, figure)
    form_choices: list[Choice] = []
    weapons: list[Choice] = []
    targets: list[list[Choice]] = [[] for _ in STRIKE_PARAMS]
    for form, ws in forms.items():
        if form in TWO_WEAPON_FORMS:
            found = two_weapon_choices(state, figure, form, ws)
            if found is None:
                continue
            value = weapons_value(ws)
            when: dict[str, Json] = {"form": form, "weapon": value}
            weapons.append(Choice(value, value, "one strike each", when={"form": form}))
            for i, strike in enumerate(found):
                skip = [Choice(NO_TARGET, f"No {STRIKE_WORDS[i].lower()} strike", when=when)]
                targets[i] += strike if i < 2 else skip + strike
            for i in range(len(found), len(STRIKE_PARAMS)):
                if i >= 2:
                    targets[i].append(Choice(NO_TARGET, "No more strikes", when=when))
            names = ", ".join(w.name for w in ws)
            form_choices.append(Choice(form, FORM_WORDS[form], names))
            continue
        offered = False
        for w in ws:
            ts = strike_targets(state, figure, w, form)
            if len(ts) < 2:
                continue
            when = {"form": form, "weapon": w.name}
            weapons.append(
                Choice(w.name, w.name, f"Rank {weapon_rank(figure, w)}", when={"form": form})
            )
            for i in range(len(STRIKE_PARAMS)):
                if i >= 2:
                    targets[i].append(Choice(NO_TARGET, "No more targets", when=when))
                if i < len(ts):
                    targets[i] += [Choice(t.id, t.name, when=when) for t in ts]
            offered = True
        if offered:
            form_choices.append(
                Choice(form, f"Several adjacent targets (Rank {s.high_rank}+, SCP-15)")
            )
    if not form_choices:
        return None
    target_params = tuple(
        FieldSpec(name, f"{word} target", "figure", choices=tuple(targets[i]))
        if i < 2
        else FieldSpec(
            name, f"{word} target", "choice", NO_TARGET, choices=tuple(targets[i]), required=False
        )
        for i, (name, word) in enumerate(zip(STRIKE_PARAMS, STRIKE_WORDS, strict=True))
        if i < 3 or any(c.value != NO_TARGET for c in targets[i])
    )
    return ActionSpec(
        "multiple_strike",
        "Multiple strike",
        figure.id,
        (
            FieldSpec("form", "Strike form", "choice", choices=tuple(form_choices), rule="SCP-13"),
            FieldSpec("weapon", "Weapon", "choice", choices=tuple(weapons), rule="SCP-14, SCP-15"),
            *target_params,
            modifier_param(),
        ),
        f"Each strike is its own Strike Check at {s.multiple_strike_modifier:+d} (A-15), "
        "rolled in order (A-31); two weapons strike with one type, Melee, Fire (each missile "
        "flies its own line) or Grapple (one step into the targets' hex, shields dropped "
        "once), and each natural weapon strikes too; from Unarmed Rank 3 a punch and a kick "
        "(SCP-46, R-18); several targets are each struck once (SCP-15).",
        "SCP-13, SCP-14, SCP-15, SCP-46, A-31",
    )


# ---- SCP-51, SCP-52: the mounted Charge and its momentum ----------------------------------


def acted_now(state: GameState, figure: Figure) -> bool:
    """The figure has taken its action this Pulse (A-14)."""
    return figure.id in (state.memory.get("acted") or [])


def straight_run(state: GameState, mount: Figure, hexes: int) -> list[Hex]:
    """SCP-51, SCP-52: the anchors the mount (and its riders) reach going straight ahead,
    facing unchanged, one hex at a time, while its whole body fits and no other figure
    stands in the way (its own riders move with it)."""
    from ...figures import cover
    from ...geometry import neighbor

    mine = {mount.id} | {f.id for f in state.figures.values() if f.mounted_on == mount.id}
    taken = {
        h
        for f in state.figures.values()
        if f.id not in mine and not f.mounted_on and not is_out(f)
        for h in f.hexes()
    }
    run: list[Hex] = []
    at = mount.position
    for _ in range(hexes):
        at = neighbor(at, mount.facing)
        body = cover(at, mount.facing, mount.footprint)
        if any(
            not state.board.contains(h)
            or state.board.terrain_at(h).impassable
            or state.board.terrain_at(h).move_cost is None
            or h in taken
            for h in body
        ):
            break
        run.append(at)
    return run


def charge_ends(state: GameState, rider: Figure, mount: Figure, target: Figure) -> list[Hex]:
    """SCP-51: the hexes of the straight run from which the rider could strike ``target``
    (tried by placing the pair there and putting it back)."""
    from ...figures import place

    weapons = attack_weapons(state, rider, "melee")
    home = mount.position
    ends = []
    try:
        for h in straight_run(state, mount, stat(mount, "tmr", 0)):
            place(state.figures.values(), mount, h, mount.facing)
            if any(not target_problem(state, rider, target, w, "melee") for w in weapons):
                ends.append(h)
    finally:
        place(state.figures.values(), mount, home, mount.facing)
    return ends


def pair_of(state: GameState, figure: Figure) -> tuple[Figure, Figure] | None:
    """(rider, mount) when ``figure`` is either of a mounted pair (figures.mounted_on)."""
    if figure.mounted_on:
        mount = state.figures.get(figure.mounted_on)
        return (figure, mount) if mount is not None else None
    rider = next((f for f in state.figures.values() if f.mounted_on == figure.id), None)
    return (rider, figure) if rider is not None else None


def mounted_charge_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-51: a mounted Charge, offered to whichever of the pair acts first: the mount runs
    straight ahead (no facing change) up to its TMR and the rider makes a Melee attack at
    the end; it takes both their actions, and next Pulse the mount carries on (SCP-52)."""
    pair = pair_of(state, figure)
    if pair is None:
        return None
    rider, mount = pair
    if any(is_out(f) or acted_now(state, f) for f in pair):
        return None
    if mount.memory.get("momentum_pulse") == pulse(state):
        return None
    targets: list[Choice] = []
    ends: list[Choice] = []
    for t in state.figures.values():
        if t.id in (rider.id, mount.id) or not hostile(rider, t) or is_out(t):
            continue
        spots = charge_ends(state, rider, mount, t)
        if not spots:
            continue
        targets.append(Choice(t.id, t.name, f"{len(spots)} hexes to strike from"))
        ends += [
            Choice(
                str(h),
                str(h),
                f"{distance(mount.position, h)} hexes straight ahead",
                when={"target": t.id},
            )
            for h in spots
        ]
    weapons = attack_weapons(state, rider, "melee")
    if not targets or not weapons:
        return None
    return ActionSpec(
        "mounted_charge",
        "Mounted Charge",
        figure.id,
        (
            FieldSpec("target", "Target", "figure", choices=tuple(targets)),
            FieldSpec("to", "Charge to", "hex", choices=tuple(ends)),
            FieldSpec(
                "weapon", "Weapon", "choice", choices=tuple(Choice(w.name, w.name) for w in weapons)
            ),
            modifier_param(),
        ),
        f"{mount.name} runs straight ahead, facing unchanged (SCP-51), and the rider strikes; "
        "next Pulse the mount carries on past the target for its full TMR (SCP-52).",
        "SCP-8, SCP-51, SCP-52",
    )


def momentum_spec(state: GameState, mount: Figure) -> ActionSpec | None:
    """SCP-52: in the Pulse after a mounted Charge the mount's only action is to carry on."""
    if mount.memory.get("momentum_pulse") != pulse(state):
        return None
    return ActionSpec(
        "carry_on",
        "Carry on (momentum)",
        mount.id,
        (),
        f"{mount.name} carries on straight ahead for its full TMR {stat(mount, 'tmr', 0)}; "
        "then the rider's Horsemanship Check (A-28) turns or stops it, or it keeps going "
        "next Pulse (SCP-52).",
        "SCP-52, A-28",
    )


# ---- SCP-48: mounting and dismounting -------------------------------------------------------


def mount_still(state: GameState, mount: Figure) -> bool:
    """SCP-48: the mount is not moving: it has not moved this Pulse and has no momentum."""
    p = pulse(state)
    return mount.memory.get("moved_pulse") != p and mount.memory.get("momentum_pulse") != p


def rideable(state: GameState, rider: Figure, mount: Figure) -> bool:
    """R-11: which figures may be mounted (by default a non-humanoid of the own side)."""
    if mount.id == rider.id or mount.mounted_on or hostile(rider, mount) or is_out(mount):
        return False
    if any(f.mounted_on == mount.id for f in state.figures.values()):
        return False
    return settings(state).rideable == "any" or mount.stats.get("humanoid", True) is False


def mount_specs(state: GameState, figure: Figure) -> list[ActionSpec]:
    """SCP-48: mount an adjacent still mount, or dismount into a free neighbour hex of a
    still mount; one action (A-14)."""
    if figure.mounted_on:
        mount = state.figures.get(figure.mounted_on)
        if mount is None or not mount_still(state, mount):
            return []
        taken = {h for f in state.figures.values() if not f.mounted_on for h in f.hexes()}
        spots = [
            h
            for m in mount.hexes()
            for h in neighbors(m)
            if state.board.contains(h)
            and state.board.terrain_at(h).move_cost is not None
            and h not in taken
        ]
        if not spots:
            return []
        choices = tuple(Choice(str(h), hex_label(h)) for h in sorted(set(spots)))
        return [
            ActionSpec(
                "dismount",
                "Dismount",
                figure.id,
                (FieldSpec("to", "Step down to", "hex", choices=choices),),
                f"Only while {mount.name} is not moving (SCP-48).",
                "SCP-48",
            )
        ]
    mounts = [
        m
        for m in state.figures.values()
        if rideable(state, figure, m) and mount_still(state, m) and figure_distance(figure, m) == 1
    ]
    if not mounts:
        return []
    return [
        ActionSpec(
            "mount",
            "Mount",
            figure.id,
            (
                FieldSpec(
                    "mount", "Mount", "figure", choices=tuple(Choice(m.id, m.name) for m in mounts)
                ),
            ),
            "Climb onto an adjacent mount that is not moving (SCP-48, R-11).",
            "SCP-48, R-11",
        )
    ]
