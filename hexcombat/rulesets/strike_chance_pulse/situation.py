"""What the rules ask about a state: options, weapons, zones, engagement and Strike Checks.

These functions read a :class:`~hexcombat.state.GameState` and change nothing;
previews and handlers both use them, so a preview shows the numbers the roll
will use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hexcombat.checks import Amount, Band, Check, Modifier
from hexcombat.figures import Equipment, Figure
from hexcombat.geometry import Hex, in_front_arc, in_front_half, relative_position
from hexcombat.rulesets.common.settings import SettingsCache, option_values
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.fields import (
    AG,
    ARMOUR,
    BASE_CHANCE,
    CATEGORIES,
    DAMAGE,
    DEFENSE_PER_RANK,
    HUMANOID,
    MD,
    PRIMARY_HAND,
    PS,
    RANGE_HEXES,
    RATED,
    SHIELD_TYPE,
    SKILL,
    TWO_HANDED,
)
from hexcombat.rulesets.strike_chance_pulse.rules import Rank
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook
from hexcombat.rulesets.strike_chance_pulse.strike import StrikeCheck
from hexcombat.state import GameState
from hexcombat.validation import Json

UNARMED = "Unarmed Combat"
HORSEMANSHIP = "Horsemanship"
HANDS = "Bare hands"
KICK = "Kick"
OUT_STATUSES = ("dead", "unconscious")
INCAPACITATED = ("stunned", "restrained", "unconscious")
"""SCP-40: statuses in which a prepared shield gives no defense."""


@dataclass(frozen=True)
class Settings:
    """The encounter's options, typed (``scp.<name>``; ``stacking`` is ``core.stacking``)."""

    entangle_damage: str
    shield_rush_damage: str
    fumble_threshold: str
    fumble_auto_miss: bool
    natural_fumble_skips_pulse: bool
    parry_attack_types: str
    parry_optional: bool
    parry_rank_source: str
    parry_disarm_en_damage: int
    riposte_requires_evading: bool
    evade_modifier: int
    ranged_zone: str
    engaged_rule: str
    initiative: str
    off_hand_modifier: int
    multiple_strike_modifier: int
    high_rank: int
    restrain_skill: str
    restrain_subtract_dr: bool
    special_uses_rank: bool
    entangle_blocks: str
    pulses_per_minute: int
    tie_check_order: str
    bystander_check: str
    min_damage: int
    damage_model: str
    entry_hex_tie: str
    shield_side_only: bool
    stacking: int
    hard_obstacle_blocks: bool
    mounted_front_fire: str
    multiple_strikes: bool
    grapple_enters_hex: bool
    rider_lift_rank: int
    hexside_missile_break: str
    close_drops_shields: str
    disarm_drops: str
    evading_lasts: str
    move_into_hostile: bool
    free_hand_punch: str
    knockout_duration_shown: bool
    two_weapon_off_hand: bool
    rideable: str
    same_hex_check_order: str
    momentum_blocked: str
    charge_spends_mount: bool
    two_weapon_fire: str
    pick_up_reach: str
    riposte_zone: str
    punch_and_kick: str
    attack_unconscious: bool
    incapacitated_parry: bool
    disarm_empty_handed: str
    line_fumbles: str

    @classmethod
    def of(cls, options: Mapping[str, Json]) -> Settings:
        """Read the options of a state (every option has a value there)."""
        return cls(**option_values(cls.__dataclass_fields__, options, "scp", ("stacking",)))


settings = SettingsCache(Settings.of)
"""``settings(state)``: the typed options of ``state``, made once per options table."""


def shield_type_of(shield: Equipment) -> str:
    """A shield's type as text (``main_gauche``, ...; empty when not set)."""
    return str(SHIELD_TYPE.raw(shield, ""))


def rank(figure: Figure, skill: str) -> Rank:
    """Notation: the figure's Rank with ``skill``; None (unranked) when it has none."""
    return figure.skills.get(skill)


def is_out(figure: Figure) -> bool:
    """Dead or unconscious figures take no part."""
    return any(figure.has_status(s) for s in OUT_STATUSES)


def attackable(state: GameState, figure: Figure) -> bool:
    """SCP-1, R-19: a figure that may be attacked: not dead, and (by default) even when
    knocked out ('a hostile figure may be attacked ... while on the display')."""
    if figure.has_status("dead"):
        return False
    return settings(state).attack_unconscious or not figure.has_status("unconscious")


def hostile(a: Figure, b: Figure) -> bool:
    """Figures of different sides."""
    return a.side != b.side


# ---- weapons -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """Something to attack with: a prepared weapon, bare hands, a kick or a shield (Rush)."""

    name: str
    kind: str  # weapon, hands, kick, shield
    base: int
    rated: tuple[str, ...]
    categories: tuple[str, ...]
    damage: str
    skill: str
    range_hexes: int = 0
    two_handed: bool = False

    @property
    def natural(self) -> bool:
        """SCP-26: teeth, claws and the like."""
        return "natural" in self.categories


def weapon_of(item: Equipment) -> Weapon:
    """A weapon item's numbers (copied from the data tables, open to overrides)."""
    return Weapon(
        item.name,
        "weapon",
        BASE_CHANCE(item),
        RATED(item),
        CATEGORIES(item),
        DAMAGE(item),
        SKILL(item) or item.name,
        RANGE_HEXES(item),
        TWO_HANDED(item),
    )


def prepared(figure: Figure) -> list[Equipment]:
    """Prepared (in hand) weapons."""
    return [i for i in figure.equipment if i.kind == "weapon" and i.is_ready]


def shield_of(figure: Figure) -> Equipment | None:
    """The prepared shield, if any."""
    return next((i for i in figure.equipment if i.kind == "shield" and i.is_ready), None)


def hands_used(figure: Figure) -> int:
    """Hands holding prepared weapons and shields (a two-handed weapon takes both; natural
    weapons such as teeth and claws take none, SCP-14, SCP-26)."""
    held = [weapon_of(i) for i in prepared(figure)]
    used = sum(2 if w.two_handed else 1 for w in held if not w.natural)
    return used + (1 if shield_of(figure) is not None else 0)


def unarmed(figure: Figure, kind: str, min_damage: int) -> Weapon:
    """SCP-43...SCP-46: a punch or a kick, Base ``2 x AG + max(0, PS - 15)``."""
    ag, ps = AG(figure), PS(figure)
    name = HANDS if kind == "hands" else KICK
    rated = ("melee", "close") if kind == "hands" else ("melee",)
    cats = ("kick",) if kind == "kick" else ()
    return Weapon(
        name,
        kind,
        rules.punch_base(ag, ps),
        rated,
        cats,
        rules.punch_damage(ps, min_damage),
        UNARMED,
    )


def shield_weapon(item: Equipment) -> Weapon:
    """A prepared shield used for a Shield Rush (SCP-21)."""
    return Weapon(
        item.name, "shield", rules.SHIELD_RUSH_BASE, ("melee",), ("shield",), "d10", item.name
    )


def attack_weapons(state: GameState, figure: Figure, mode: str) -> list[Weapon]:
    """What ``figure`` may attack with in ``mode`` (SCP-1, SCP-2, SCP-46, SCP-21)."""
    s = settings(state)
    found = [w for w in (weapon_of(i) for i in prepared(figure)) if mode in w.rated]
    humanoid = HUMANOID(figure)
    free = hands_used(figure) < 2 and (s.free_hand_punch == "free_hand" or not prepared(figure))
    if humanoid and mode in ("melee", "close") and free:
        found.append(unarmed(figure, "hands", s.min_damage))
    if mode == "melee" and rules.can_kick(rank(figure, UNARMED)):
        found.append(unarmed(figure, "kick", s.min_damage))
    shield = shield_of(figure)
    if mode == "melee" and shield is not None:
        found.append(shield_weapon(shield))
    if figure.mounted_on:
        lifted = s.rider_lift_rank > 0 and (rank(figure, HORSEMANSHIP) or 0) >= s.rider_lift_rank
        found = [
            w
            for w in found
            if not rules.mounted_problem(
                two_handed=w.two_handed,
                firing=mode == "ranged",
                moving=False,  # a moving mount is refused per target (SCP-49)
                weapons=1,
                lifted=lifted,
            )
        ]
    return found


def missile_weapon(state: GameState, figure: Figure) -> Weapon | None:
    """The missile weapon whose range the measure tool shows for ``figure``: the first it
    may Fire now (SCP-1), else the first it carries that is rated for Ranged combat."""
    ready = attack_weapons(state, figure, "ranged")
    carried = [
        weapon_of(i) for i in figure.equipment if i.kind == "weapon" and i.state != "dropped"
    ]
    found = [*ready, *(w for w in carried if "ranged" in w.rated)]
    return next((w for w in found if w.range_hexes > 0), None)


def find_weapon(state: GameState, figure: Figure, mode: str, name: str) -> Weapon | None:
    """The attack weapon ``name`` in ``mode``."""
    return next((w for w in attack_weapons(state, figure, mode) if w.name == name), None)


def weapon_rank(figure: Figure, weapon: Weapon) -> Rank:
    """The Rank the attacker has with what it attacks with."""
    return rank(figure, weapon.skill)


# ---- zones and engagement ---------------------------------------------------------------


def where(defender: Figure, attacker_hex: Hex) -> str | None:
    """Where ``attacker_hex`` lies for ``defender``: F, FR, BR, B, BL, FL (None: not adjacent)."""
    for h in defender.hexes():
        rel = relative_position(h, defender.facing, attacker_hex)
        if rel is not None:
            return rel.short
    return None


def melee_zone(state: GameState, figure: Figure, weapon: Weapon | None) -> tuple[str, ...]:
    """SCP-4, A-11 (SCP-50 for riders): the hexes a Melee attack may go into."""
    if figure.mounted_on:
        long = weapon is not None and "long_hafted" in weapon.categories
        return rules.mounted_melee_hexes(long)
    return rules.MELEE_ZONE


def in_melee_zone(state: GameState, figure: Figure, target: Figure, weapon: Weapon | None) -> bool:
    """SCP-4: the target covers a hex of the attacker's Melee Zone."""
    zone = melee_zone(state, figure, weapon)
    return any(
        (rel := relative_position(figure.position, figure.facing, h)) is not None
        and rel.short in zone
        for h in target.hexes()
    )


def in_ranged_zone(state: GameState, figure: Figure, target: Figure) -> bool:
    """SCP-3, A-11: the target covers a hex of the attacker's Ranged Zone."""
    test = in_front_arc if settings(state).ranged_zone == "arc120" else in_front_half
    return any(test(figure.position, figure.facing, h) for h in target.hexes())


def same_hex(a: Figure, b: Figure) -> bool:
    """SCP-5: the figures share a hex."""
    return bool(set(a.hexes()) & set(b.hexes()))


def engaged(state: GameState, a: Figure, b: Figure) -> bool:
    """A-12: hostile ``a`` and ``b`` share a hex or touch with one in the other's Melee Zone."""
    if not hostile(a, b) or is_out(a) or is_out(b):
        return False
    if same_hex(a, b):
        return True
    a_sees, b_sees = where(a, b.position), where(b, a.position)
    if a_sees is None:
        return False
    if settings(state).engaged_rule == "adjacent":
        return True
    return rules.engaged_pair(False, a_sees, b_sees)


def engaged_figures(state: GameState) -> list[str]:
    """Every living figure engaged with at least one hostile (A-12), in set-up order."""
    living = [f for f in state.figures.values() if not is_out(f)]
    return [f.id for f in living if any(engaged(state, f, o) for o in living if o is not f)]


# ---- Strike Checks ----------------------------------------------------------------------------


def defense(
    state: GameState, defender: Figure, through: str | None, close: bool
) -> tuple[rules.Defense, Equipment | None, Rank]:
    """SCP-37...SCP-41 for ``defender`` against an attack through ``through``."""
    s = settings(state)
    shield = shield_of(defender)
    per = DEFENSE_PER_RANK(shield) if shield else 0
    shield_rank = rank(defender, shield.name) if shield else None
    stunned = any(defender.has_status(x) for x in INCAPACITATED)
    dr = rules.defense_rating(
        AG(defender),
        rules.shield_defense(per, shield_rank),
        through=through,
        close=close,
        stunned=stunned,
        shield_side_only=s.shield_side_only,
        primary_hand=PRIMARY_HAND(defender),
    )
    return dr, shield, shield_rank


def strike_check(
    state: GameState,
    attacker: Figure,
    target: Figure,
    weapon: Weapon,
    mode: str,
    special: str = "",
    *,
    through: str | None,
    charge: bool = False,
    off_hand: bool = False,
    extra: int = 0,
    multiple: bool = False,
    riposte: bool = False,
) -> StrikeCheck:
    """SCP-24...SCP-32 with the special attacks' bases: the Strike Check of one attack."""
    s = settings(state)
    label = f"{attacker.name}'s {weapon.name} at {target.name}"
    base, base_label, r, uses_rank = _strike_base(state, attacker, target, weapon, special, charge)
    modifiers = _skill_modifiers(attacker, weapon, r, uses_rank)
    if special != "restrain" or s.restrain_subtract_dr:
        modifiers += _defense_modifiers(state, target, through, mode)
    modifiers += _situation_modifiers(
        state, target, mode, special, off_hand=off_hand, multiple=multiple, extra=extra
    )
    check = Check(
        label,
        "d100",
        "le",
        base,
        base_label,
        tuple(modifiers),
        rule="SCP-24, SCP-27, SCP-28",
        success_text="hit",
        success_phrase="to hit",
        failure_text="miss",
    )
    melee_parry = mode == "melee" or (mode == "close" and s.parry_attack_types == "melee_close")
    can = melee_parry and not riposte and parry_rank_of(state, target)[0]
    return StrikeCheck(
        check,
        parry_margin=bool(can),
        evading_parry=bool(can) and target.has_status("evading") and mode == "melee",
        auto_miss=s.fumble_auto_miss,
        knockout=special == "knockout",
        fumble=_fumble(weapon, s.natural_fumble_skips_pulse),
    )


def _fumble(weapon: Weapon, skips_pulse: bool) -> str:
    """What a 99 or 100 calls for with ``weapon``: bare hands, a kick, teeth and claws have
    nothing a fumble check could break or drop (SCP-31), so the GM's lost Pulse (A-5) or
    nothing."""
    if weapon.kind in ("hands", "kick") or weapon.natural:
        return "pulse" if skips_pulse else ""
    return "check"


def _strike_base(
    state: GameState,
    attacker: Figure,
    target: Figure,
    weapon: Weapon,
    special: str,
    charge: bool,
) -> tuple[int, str, int | None, bool]:
    """The Base Chance of a strike and its words, the attacker's rank that counts, and whether
    the rank counts at all (special attacks may have bases of their own)."""
    s = settings(state)
    r = weapon_rank(attacker, weapon)
    base, base_label = weapon.base, f"Base Chance of the {weapon.name}"
    if weapon.kind in ("hands", "kick"):
        over = (
            f"PS {PS(attacker)} above 15" if PS(attacker) > 15 else f"nothing for PS {PS(attacker)}"
        )
        base_label = f"Base 2 x AG {AG(attacker)} + {over} (SCP-43)"
    uses_rank = True
    if special == "trip" and weapon.kind != "kick":
        base, base_label = rules.TRIP_BASE, "Trip Base Chance (SCP-17)"
        uses_rank = s.special_uses_rank
    elif special == "shield_rush":
        base = rules.shield_rush_base(charge)
        base_label = "Shield Rush Base Chance" + (" +20 after a Charge" if charge else "")
        base_label += " (SCP-21)"
    elif special == "entangle":
        uses_rank = s.special_uses_rank
    elif special == "restrain":
        others = restrainers(state, target, exclude=attacker.id)
        pairs = [(PS(f), AG(f)) for f in [attacker, *others]]
        tgt = (PS(target), AG(target))
        base = rules.restrain_base(pairs, tgt)
        base_label = (
            f"Restrain Base 3 x ((PS + AG) {sum(p + a for p, a in pairs)} - "
            f"(PS + AG) {sum(tgt)}) (SCP-19, I-6, A-22)"
        )
        r = rank(attacker, UNARMED) if s.restrain_skill == "unarmed" else None
    return base, base_label, r, uses_rank


def _skill_modifiers(
    attacker: Figure, weapon: Weapon, r: int | None, uses_rank: bool
) -> list[Modifier]:
    """The attacker's Manual Dexterity and rank with the weapon, when they count."""
    md = MD(attacker)
    modifiers: list[Modifier] = []
    if r is not None and uses_rank:
        modifiers.append(Modifier("modified MD", md, "SCP-24"))
        modifiers.append(Modifier(f"4 x Rank {r} with the {weapon.skill}", 4 * r, "SCP-24"))
    elif weapon.natural:
        modifiers.append(Modifier("modified MD (natural weapon)", md, "SCP-26"))
    else:
        modifiers.append(Modifier("unranked: no MD or Rank", 0, "SCP-25"))
    return modifiers


def _defense_modifiers(
    state: GameState, target: Figure, through: str | None, mode: str
) -> list[Modifier]:
    """The target's Defense Rating: its agility, and its shield when the shield counts."""
    modifiers: list[Modifier] = []
    dr, shield, shield_rank = defense(state, target, through, mode == "close")
    modifiers.append(Modifier(f"{target.name}'s Agility (Defense Rating)", -dr.agility, "SCP-37"))
    if shield is not None and dr.shield:
        if dr.shield_counts:
            modifiers.append(
                Modifier(
                    f"{shield.name}, Rank {shield_rank} ({dr.why})",
                    -dr.shield,
                    "SCP-38, SCP-39",
                )
            )
        else:
            modifiers.append(Modifier(f"No shield: {dr.why}", 0, "SCP-39"))
    return modifiers


def _situation_modifiers(
    state: GameState,
    target: Figure,
    mode: str,
    special: str,
    *,
    off_hand: bool,
    multiple: bool,
    extra: int,
) -> list[Modifier]:
    """What else the strike adds: an evading target, a disarm, the secondary hand, a
    multiple strike and the GM's other modifier."""
    s = settings(state)
    modifiers: list[Modifier] = []
    if target.has_status("evading") and mode != "close":
        modifiers.append(
            Modifier(f"{target.name} is Evading", s.evade_modifier, "SCP-29, A-10", True)
        )
    if special == "disarm":
        modifiers.append(Modifier("Disarm", rules.DISARM_MODIFIER, "SCP-22"))
    if off_hand:
        modifiers.append(Modifier("Secondary hand", s.off_hand_modifier, "SCP-7, A-15", True))
    if multiple:
        modifiers.append(
            Modifier("Multiple strike", s.multiple_strike_modifier, "SCP-14, A-15", True)
        )
    if extra:
        modifiers.append(Modifier("Other modifier (lighting, posture ...)", extra, "SCP-27"))
    return modifiers


def restrainers(state: GameState, target: Figure, exclude: str = "") -> list[Figure]:
    """The figures already restraining ``target`` (A-22), besides ``exclude``."""
    ids = FigureBook(target).restrained_by
    return [state.figures[i] for i in ids if i in state.figures and i != exclude]


def parry_rank_of(state: GameState, defender: Figure) -> tuple[bool, Rank]:
    """SCP-33, SCP-36, A-7, R-20: whether the defender can parry, and its Rank for the roll.
    A figure out of the fight never parries; a restrained or stunned one only with R-20."""
    if is_out(defender) or (
        not settings(state).incapacitated_parry
        and any(defender.has_status(x) for x in INCAPACITATED)
    ):
        return False, None
    items = prepared(defender)
    shield = shield_of(defender)
    if not items and shield is None:
        r = rank(defender, UNARMED)
        return rules.can_parry_unarmed(r), r
    ranks = [rank(defender, weapon_of(i).skill) for i in items]
    if shield is not None:
        ranks.append(rank(defender, shield.name))
    if settings(state).parry_rank_source == "primary":
        return True, ranks[0]
    return True, rules.parry_rank(ranks)


def parry_amount(defender_rank: Rank, attacker_rank: Rank, label: str) -> Amount:
    """SCP-33/SCP-34 as a table: D10 + Rank(defender) - Rank(attacker)."""
    mods = (
        Modifier("defender's Rank", defender_rank or 0, "SCP-33, A-7"),
        Modifier("attacker's Rank", -(attacker_rank or 0), "SCP-33, A-7"),
    )
    low = 1 + sum(m.value for m in mods)
    high = 10 + sum(m.value for m in mods)
    bands = []
    for lo, hi, bid, words in rules.PARRY_BANDS:
        a = low if lo is None else max(lo, low)
        b = high if hi is None else min(hi, high)
        if a <= b:
            bands.append(Band(a, b, bid, words))
    return Amount(label, "d10", mods, rule="SCP-33, SCP-34", bands=tuple(bands))


def damage_amount(state: GameState, target: Figure, expr: str, label: str) -> Amount:
    """A-26: the damage dice minus the target's armour, never below the least damage."""
    armour = ARMOUR(target)
    text = _with_armour(expr, armour, settings(state).min_damage)
    return Amount(label, text, default_sides=10, rule="A-26, A-25", unit="damage")


def _with_armour(expr: str, armour: int, minimum: int) -> str:
    core = expr.split(" min ")[0].strip()
    if armour:
        core = f"{core}-{armour}"
    return f"{core} min {minimum}"


def damage_expr(state: GameState, weapon: Weapon, special: str) -> str:
    """The damage dice of an attack: the weapon's, or the special attack's (SCP-17...SCP-22)."""
    s = settings(state)
    if special == "trip":
        return weapon.damage if weapon.kind == "kick" else "d10"
    if special == "entangle":
        return s.entangle_damage
    if special == "shield_rush":
        return s.shield_rush_damage
    if special in ("restrain", "knockout", "disarm"):
        return ""
    return weapon.damage
