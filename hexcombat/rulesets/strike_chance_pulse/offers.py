"""What a figure may do now, described for forms: each action with only legal values.

Attack parameters depend on each other (weapon -> special attack -> target):
each special and target :class:`~hexcombat.schema.Choice` carries ``when``, so
the engine refuses a target that is not legal for the chosen weapon and
special attack, and the form offers only the ones that are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from hexcombat.actions import ActionSpec
from hexcombat.checks import percent
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import DIRECTION_NAMES, Hex, distance, neighbors
from hexcombat.kept_searches import KeptSearches
from hexcombat.layout import hex_label
from hexcombat.movement import Room, TerrainWalk
from hexcombat.rulesets.strike_chance_pulse import ground, missile, rules
from hexcombat.rulesets.strike_chance_pulse.fields import BROKEN, SIZE, TMR
from hexcombat.rulesets.strike_chance_pulse.situation import (
    Weapon,
    attack_weapons,
    attackable,
    hostile,
    in_melee_zone,
    in_ranged_zone,
    is_out,
    parry_rank_of,
    prepared,
    same_hex,
    settings,
    shield_of,
    shield_type_of,
    strike_check,
    where,
)
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook, RoundBook
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

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
    return mount is not None and FigureBook(mount).moved_pulse == pulse(state)


def target_problem(
    state: GameState, attacker: Figure, target: Figure, weapon: Weapon, mode: str
) -> str:
    """Why ``attacker`` cannot attack ``target`` with ``weapon`` in ``mode`` ('' if it can)."""
    s = settings(state)
    if target.id == attacker.id or not hostile(attacker, target) or not attackable(state, target):
        return f"{target.name} is not a hostile figure in the fight"
    if target.id == attacker.mounted_on or target.mounted_on == attacker.id:
        return f"{target.name} is {attacker.name}'s mount or rider"
    shared = same_hex(attacker, target)
    if mode == "close":
        if shared:
            return ""
        if attacker.mounted_on and figure_distance(attacker, target) == 1:
            return (
                f"{target.name} is not in {attacker.name}'s hex, and a rider may not move "
                "at all (SCP-5, SCP-47)"
            )
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
        target_size=SIZE(target),
        shield_type=shield_type or None,
        kick=weapon.kind == "kick",
    )


def through_of(attacker: Figure, target: Figure, mode: str) -> str | None:
    """The target's hex the attack comes through (None in Close combat)."""
    return None if mode == "close" else where(target, attacker.position)


ATTACK_WORDS: dict[str, tuple[str, str, str, str]] = {
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
}
"""Per attack mode: the action kind, its label, its help and its rules."""


def attack_spec(state: GameState, figure: Figure, mode: str) -> ActionSpec | None:
    """Melee, Fire or Grapple with every legal weapon -> special -> target chain."""
    weapons, specials, targets = _attack_choices(state, figure, mode)
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
    words = ATTACK_WORDS[mode]
    return ActionSpec(words[0], words[1], figure.id, tuple(params), words[2], words[3])


def _attack_choices(
    state: GameState, figure: Figure, mode: str
) -> tuple[list[Choice], list[Choice], list[Choice]]:
    """Every legal weapon -> special -> target chain of an attack in ``mode``: the weapons,
    the specials (when a weapon), the targets (when a weapon and a special)."""
    shield = shield_of(figure)
    shield_type = shield_type_of(shield) if shield else ""
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
                if special == "disarm" and not ground.disarmable(state, t):
                    continue  # SCP-22, R-21: nothing to drop, no Disarm
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
    return weapons, specials, targets


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
    from hexcombat.geometry import line_steps

    steps = line_steps(attacker.position, target.position)
    return steps[-2].hexes if len(steps) > 1 else (attacker.position,)


def weapon_param(weapons: Iterable[Weapon]) -> FieldSpec:
    """The weapon to strike with, among ``weapons``; the first (a prepared weapon before bare
    hands, a kick and a shield) comes chosen."""
    choices = tuple(Choice(w.name, w.name) for w in weapons)
    return FieldSpec(
        "weapon", "Weapon", "choice", choices[0].value if choices else None, choices=choices
    )


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


REACHES: KeptSearches[Mapping[Hex, int]] = KeptSearches()
"""A-14 searches kept by what they read: a move is offered from its figure's reach, then
checked against it when previewed and again when done, and the autopilot imagines each."""


def reach(state: GameState, figure: Figure) -> Mapping[Hex, int]:
    """A-14: hexes within TMR at 1 MP per open hex (terrain cost), not into full hexes nor
    (R-7, by default) hostiles' hexes; the figure's own hex excluded. Kept by everything the
    search reads, so an equal state's search is not walked twice."""
    s = settings(state)
    others = tuple(
        (f.id, f.mounted_on, f.hexes(), hostile(f, figure), is_out(f))
        for f in state.figures.values()
        if f.id != figure.id
    )
    key = (s.stacking, s.move_into_hostile, figure.id, figure.position, TMR(figure), others)
    return REACHES.get(state.board, key, lambda: MappingProxyType(_search_reach(state, figure)))


WALK = TerrainWalk()
"""A-14's walk: one hex at a time at terrain cost, facing free."""


def _search_reach(state: GameState, figure: Figure) -> dict[Hex, int]:
    """:func:`reach` worked out: the search itself. The figure moves by its own hex (the
    text's moves count hexes, not bodies); every other figure on foot or mount fills its
    hexes, fallen or not, and a hostile's hex is closed (R-7) or, by option, ends the move."""
    s = settings(state)
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
    if not s.move_into_hostile:
        crowd.update(dict.fromkeys(foes, limit))
    room = Room(state.board, crowd, limit)
    stops = foes if s.move_into_hostile else ()  # a hostile's hex ends the move
    best = WALK.hex_reach(room, figure.position, TMR(figure), stops).hex_costs()
    best.pop(figure.position)
    return best


def move_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """A-14, SCP-47: move up to TMR hexes; facing is free. A rider does not move alone; a
    mount under momentum only carries on (SCP-52)."""
    if figure.mounted_on or FigureBook(figure).moved_pulse == pulse(state):
        return None
    if FigureBook(figure).momentum_pulse == pulse(state):
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
        f"Up to TMR {TMR(figure)} hexes this Pulse; turning is free (A-14).",
        "A-14, SCP-47",
    )


def _charge_specials(
    state: GameState,
    weapons: list[Weapon],
    target: Figure,
    shield_type: str,
    specials: dict[tuple[str, str, str], Choice],
) -> None:
    """Add the specials each weapon may make charging ``target`` (SCP-16; a Disarm only
    where it has something to drop, SCP-22), each once."""
    for w in weapons:
        for sp in ("none", *MODE_SPECIALS["melee"]):
            if special_ok(w, sp, "melee", target, shield_type):
                continue
            if sp != "disarm":
                key = (w.name, sp, "")
                when: dict[str, Json] = {"weapon": w.name}
            elif ground.disarmable(state, target):  # SCP-22, R-21: nothing to drop
                key, when = (w.name, sp, target.id), {"weapon": w.name, "target": target.id}
            else:
                continue
            specials.setdefault(key, Choice(sp, SPECIAL_WORDS[sp], when=when))


def charge_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-8: move next to a target and make a Melee attack facing it, in one action (a
    rider charges with ``mounted_charge_spec``; a mount under momentum only carries on)."""
    if figure.mounted_on or FigureBook(figure).moved_pulse == pulse(state):
        return None
    if FigureBook(figure).momentum_pulse == pulse(state):
        return None
    hexes = reach(state, figure)
    shield = shield_of(figure)
    shield_type = shield_type_of(shield) if shield else ""
    targets: list[Choice] = []
    ends: list[Choice] = []
    weapons = attack_weapons(state, figure, "melee")
    specials: dict[tuple[str, str, str], Choice] = {}
    for t in state.figures.values():
        if t.id == figure.id or not hostile(figure, t) or not attackable(state, t):
            continue
        spots = [h for h in neighbors(t.position) if h in hexes]
        if not spots:
            continue
        targets.append(Choice(t.id, t.name, f"{len(spots)} hexes to charge from"))
        ends += [
            Choice(str(h), hex_label(h), f"{hexes[h]} MP", when={"target": t.id}) for h in spots
        ]
        _charge_specials(state, weapons, t, shield_type, specials)
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
            weapon_param(weapons),
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
        and not BROKEN(i)
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
            (weapon_param(weapons),),
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


def acted_now(state: GameState, figure: Figure) -> bool:
    """The figure has taken its action this Pulse (A-14)."""
    return figure.id in RoundBook(state).acted


def momentum_spec(state: GameState, mount: Figure) -> ActionSpec | None:
    """SCP-52: in the Pulse after a mounted Charge the mount's only action is to carry on."""
    if FigureBook(mount).momentum_pulse != pulse(state):
        return None
    return ActionSpec(
        "carry_on",
        "Carry on (momentum)",
        mount.id,
        (),
        f"{mount.name} carries on straight ahead for its full TMR {TMR(mount)}; "
        "then the rider's Horsemanship Check (A-28) turns or stops it, or it keeps going "
        "next Pulse (SCP-52).",
        "SCP-52, A-28",
    )
