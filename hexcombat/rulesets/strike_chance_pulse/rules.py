"""The pure calculators of ``strike-chance-pulse``, rule by rule (the spec's SCP-1...SCP-58).

Every function takes plain numbers and returns plain numbers or words; none
reads a game state, so each is tested against the spec's own figures. Ranks
are ``int | None``: ``None`` is *unranked*, any int (0 included) is ranked
(Notation). All arithmetic is in integers: thresholds with a fraction in them
(Knockout's 15 %, SCP-20) are compared by cross-multiplying, and the every-3-
points bonus floors after clamping (``max(0, PS - 15) // 3``, SCP-44).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Rank = int | None


MELEE_ZONE = ("F", "FL", "FR")
"""A-11: the Melee Zone is the three front hexes."""
REAR = ("BL", "B", "BR")
"""A-11: the rear hexes."""
SIZES = ("small", "human", "large")
"""A-20: size categories in order; Trip and Knockout need ``size <= human``."""

# ---- SCP-24 ... SCP-27: Strike Chance --------------------------------------------------


def strike_chance(base: int, md: int, rank: Rank, *, natural: bool = False) -> int:
    """SCP-24/25/26: ``Base + MD + 4 x Rank`` when ranked (Rank 0 included), ``Base`` when
    unranked; natural weapons (teeth, claws) always add MD.

    >>> strike_chance(50, 14, 3), strike_chance(50, 14, 0), strike_chance(50, 14, None)
    (76, 64, 50)
    >>> strike_chance(40, 12, None, natural=True)
    52
    """
    if rank is None:
        return base + md if natural else base
    return base + md + 4 * rank


def shield_defense(per_rank: int, rank: Rank) -> int:
    """SCP-38: ``defense_per_rank x Rank`` with the shield; unranked or Rank 0 gives 0.

    >>> shield_defense(4, 3), shield_defense(4, 0), shield_defense(4, None)
    (12, 0, 0)
    """
    return per_rank * rank if rank is not None else 0


@dataclass(frozen=True)
class Defense:
    """A Defense Rating worked out (SCP-37...SCP-41): its parts and why the shield counts."""

    agility: int
    shield: int
    shield_counts: bool
    why: str

    @property
    def total(self) -> int:
        """``AG + shield defense`` when the shield counts, else ``AG``."""
        return self.agility + (self.shield if self.shield_counts else 0)


def shield_side_hexes(primary_hand: str) -> tuple[str, str]:
    """A-30 (optional SCP-39 rule): F plus the hex on the shield's side, normally the
    secondary hand's: FL for a right-handed figure, FR for a left-handed one.

    >>> shield_side_hexes("right"), shield_side_hexes("left")
    (('F', 'FL'), ('F', 'FR'))
    """
    return ("F", "FL") if primary_hand == "right" else ("F", "FR")


def defense_rating(
    agility: int,
    shield: int,
    *,
    through: str | None,
    close: bool = False,
    stunned: bool = False,
    shield_side_only: bool = False,
    primary_hand: str = "right",
) -> Defense:
    """SCP-37...SCP-41: the Defense Rating against one attack.

    ``through`` is the defender's hex (F, FL, FR, BR, B, BL) the attack comes through
    (A-29 for ranged attacks); Close combat, a stunned or incapacitated defender and the
    rear ignore the shield; with ``shield_side_only`` (A-30) only F and the shield side
    count.

    >>> defense_rating(13, 12, through="F").total, defense_rating(13, 12, through="B").total
    (25, 13)
    >>> defense_rating(13, 12, through="FR", shield_side_only=True).total
    13
    >>> defense_rating(13, 12, through="F", close=True).total
    13
    """
    if shield <= 0:
        return Defense(agility, 0, False, "no shield defense")
    if close:
        return Defense(agility, shield, False, "shields do not count in Close combat (SCP-41)")
    if stunned:
        return Defense(
            agility, shield, False, "stunned or incapacitated: no shield defense (SCP-40)"
        )
    if through in REAR:
        return Defense(agility, shield, False, f"attack through {through}, a rear hex (SCP-39)")
    if shield_side_only and through not in shield_side_hexes(primary_hand):
        return Defense(
            agility,
            shield,
            False,
            f"attack through {through}, not the front or shield side (SCP-39, A-30)",
        )
    return Defense(agility, shield, True, f"attack through {through} (SCP-39)")


def hit(roll: int, msc: int) -> bool:
    """SCP-28: D100 at or under the Modified Strike Chance hits.

    >>> hit(51, 51), hit(52, 51)
    (True, False)
    """
    return roll <= msc


# ---- SCP-30, SCP-31: fumbles -------------------------------------------------------------


def fumble_face(roll: int) -> str:
    """SCP-30: 99 may break the weapon, 100 may drop it; '' for any other roll.

    >>> fumble_face(99), fumble_face(100), fumble_face(98)
    ('break', 'drop', '')
    """
    return {99: "break", 100: "drop"}.get(roll, "")


def fumble_threshold(md: int, reading: str = "3xMD") -> int:
    """SCP-30, A-3 (I-2): the second D100 avoids the misfortune at or under ``3 x MD``
    (or ``MD`` under the other reading of the text).

    >>> fumble_threshold(14), fumble_threshold(14, "MD")
    (42, 14)
    """
    return 3 * md if reading == "3xMD" else md


def fumble_avoided(roll: int, md: int, reading: str = "3xMD") -> bool:
    """SCP-30: True when the second roll avoids the misfortune.

    >>> fumble_avoided(42, 14), fumble_avoided(43, 14)
    (True, False)
    """
    return roll <= fumble_threshold(md, reading)


# ---- SCP-32 ... SCP-36: parry and riposte ----------------------------------------------


def parry_triggered(roll: int, msc: int, *, evading: bool, melee: bool = True) -> bool:
    """SCP-32 (A-6): a missed Melee attack may be parried when the roll is 30 or more above
    the MSC, or on any miss when the target is Evading. Ranged and Close: never.

    >>> parry_triggered(81, 51, evading=False), parry_triggered(80, 51, evading=False)
    (True, False)
    >>> parry_triggered(52, 51, evading=True), parry_triggered(51, 51, evading=True)
    (True, False)
    """
    if not melee or roll <= msc:
        return False
    return evading or roll >= msc + 30


PARRY_BANDS = (
    (None, 3, "parried", "Parried: the defender must Pass next Pulse"),
    (4, 7, "disarm", "The attacker is Disarmed"),
    (8, None, "riposte", "Parried, the attacker is Disarmed, and a Riposte"),
)
"""SCP-34's table as (low, high, id, words); ``None`` is open-ended."""


def can_parry_unarmed(unarmed_rank: Rank) -> bool:
    """SCP-36: an unarmed figure may parry only when ranked in Unarmed Combat (0 counts).

    >>> can_parry_unarmed(0), can_parry_unarmed(None)
    (True, False)
    """
    return unarmed_rank is not None


def parry_rank(ranks: Iterable[Rank]) -> Rank:
    """A-7: the highest Rank among the defender's prepared weapons and shields (None if
    there are none or all are unranked; unranked then counts 0 in SCP-33).

    >>> parry_rank([None, 2, 0]), parry_rank([None]), parry_rank([])
    (2, None, None)
    """
    known = [r for r in ranks if r is not None]
    return max(known) if known else None


# ---- SCP-16 ... SCP-23: special attacks --------------------------------------------------

SPECIALS = ("trip", "entangle", "restrain", "knockout", "shield_rush", "disarm")
"""SCP-16: one of these may be named for an attack."""

TRIP_WEAPONS = ("Quarterstaff", "Spear", "Halberd", "Poleaxe", "Glaive")
"""SCP-17: the weapons that may Trip (weapon data flags them ``trip_capable``)."""
ENTANGLING = ("Net", "Whip", "Bola")
"""SCP-18: the entangling weapons (flag ``entangling``)."""
KNOCKOUT_EXCLUDED = ("missile", "entangling", "dart", "grenade", "lance", "pike")
"""SCP-20: weapon categories that cannot Knockout."""
SHIELD_RUSH_EXCLUDED = ("main_gauche", "tower")
"""SCP-21: shield types that cannot Shield Rush."""

TRIP_BASE = 40
SHIELD_RUSH_BASE = 40
SHIELD_RUSH_CHARGE = 20
DISARM_MODIFIER = -20


def size_at_most_human(size: str) -> bool:
    """A-20: ``small`` and ``human`` are not larger than human size.

    >>> size_at_most_human("human"), size_at_most_human("large")
    (True, False)
    """
    return SIZES.index(size) <= SIZES.index("human") if size in SIZES else False


def special_problem(
    special: str,
    *,
    mode: str,
    categories: Sequence[str] = (),
    rated: Sequence[str] = (),
    target_size: str = "human",
    shield_type: str | None = None,
    kick: bool = False,
) -> str:
    """Why ``special`` cannot be made with this weapon (or shield) and mode ('' when it can).

    ``categories`` are the weapon's flags (trip_capable, entangling, missile, lance ...),
    ``rated`` its modes; ``mode`` is melee, ranged or close; ``kick`` is a kick (SCP-46).

    >>> special_problem("trip", mode="melee", categories=("trip_capable",))
    ''
    >>> special_problem("trip", mode="melee", categories=("trip_capable",), target_size="large")
    'Trip needs a target no larger than human size (SCP-17)'
    >>> special_problem("knockout", mode="melee", categories=("lance",))
    'Knockout cannot be made with a lance (SCP-20)'
    """
    if special == "trip":
        if not (kick or "trip_capable" in categories):
            return (
                "Trip needs a Quarterstaff, Spear, Halberd, Poleaxe or Glaive, or a kick (SCP-17)"
            )
        if mode != "melee":
            return "Trip is Melee only (SCP-17)"
        if not size_at_most_human(target_size):
            return "Trip needs a target no larger than human size (SCP-17)"
        return ""
    if special == "entangle":
        return "" if "entangling" in categories else "Entangle needs a Net, Whip or Bola (SCP-18)"
    if special == "restrain":
        return "" if mode == "close" else "Restrain is made with a Grapple (SCP-19)"
    if special == "knockout":
        for category in KNOCKOUT_EXCLUDED:
            if category in categories:
                return f"Knockout cannot be made with a {category} (SCP-20)"
        if mode == "ranged":
            return "Knockout cannot be made with a missile weapon (SCP-20)"
        if not size_at_most_human(target_size):
            return "Knockout needs a target no larger than human size (SCP-20)"
        return ""
    if special == "shield_rush":
        if shield_type is None:
            return "Shield Rush needs a prepared shield (SCP-21)"
        if shield_type in SHIELD_RUSH_EXCLUDED:
            return "Shield Rush cannot be made with a Main Gauche or Tower Shield (SCP-21)"
        return "" if mode == "melee" else "Shield Rush is a Melee attack (SCP-21)"
    if special == "disarm":
        if mode == "ranged" or not ({"melee", "close"} & set(rated)):
            return "Disarm needs a weapon rated for Melee or Close (SCP-22)"
        return ""
    raise ValueError(f"unknown special attack {special!r}; known: {', '.join(SPECIALS)}")


def restrain_base(attackers: Sequence[tuple[int, int]], target: tuple[int, int]) -> int:
    """SCP-19 (I-6, A-22): ``3 x (sum of the restrainers' PS + AG - (PS + AG of the target))``.

    >>> restrain_base([(16, 14)], (12, 12)), restrain_base([(16, 14), (15, 13)], (12, 12))
    (18, 102)
    >>> restrain_base([(12, 12)], (16, 14))
    -18
    """
    return 3 * (sum(ps + ag for ps, ag in attackers) - sum(target))


def shield_rush_base(charge: bool) -> int:
    """SCP-21: Base 40, +20 at the end of a Charge.

    >>> shield_rush_base(False), shield_rush_base(True)
    (40, 60)
    """
    return SHIELD_RUSH_BASE + (SHIELD_RUSH_CHARGE if charge else 0)


def knockout_succeeds(roll: int, msc: int) -> bool:
    """SCP-20: ``roll <= 0.15 x MSC``, exactly, as ``100 x roll <= 15 x MSC`` (no float).

    >>> [knockout_succeeds(r, 51) for r in (7, 8)]
    [True, False]
    >>> knockout_succeeds(3, 20), knockout_succeeds(4, 20)
    (True, False)
    """
    return 100 * roll <= 15 * msc


def knockout_limit(msc: int) -> int:
    """SCP-20: the highest roll that knocks out (``floor(15 x MSC / 100)``; 0: none).

    >>> knockout_limit(51), knockout_limit(20), knockout_limit(6)
    (7, 3, 0)
    """
    return max(0, 15 * msc // 100)


def footing_kept(roll: int, agility: int) -> bool:
    """SCP-23 (A-19): after a Trip, Entangle or Shield Rush the target keeps its footing
    on a D100 at or under ``3 x AG``; otherwise it falls prone.

    >>> footing_kept(36, 12), footing_kept(37, 12)
    (True, False)
    """
    return roll <= 3 * agility


def disentangled(pass_streak: int) -> bool:
    """SCP-18 (A-18): a Pass action in two consecutive Pulses frees an entangled figure.

    >>> disentangled(1), disentangled(2)
    (False, True)
    """
    return pass_streak >= 2


# ---- SCP-42 ... SCP-46: unarmed combat -----------------------------------------------------


def strength_bonus(ps: int) -> int:
    """The every-3-points bonus of SCP-44: ``max(0, PS - 15) // 3`` (clamped first).

    >>> [strength_bonus(ps) for ps in (13, 15, 18, 20, 21)]
    [0, 0, 1, 1, 2]
    """
    return max(0, ps - 15) // 3


def punch_base(agility: int, ps: int) -> int:
    """SCP-43: ``2 x AG + max(0, PS - 15)``.

    >>> punch_base(14, 18), punch_base(14, 12)
    (31, 28)
    """
    return 2 * agility + max(0, ps - 15)


def punch_damage(ps: int, minimum: int = 0) -> str:
    """SCP-44 (A-25): ``D10 - 3 + floor(max(0, PS - 15) / 3)``, at least ``minimum``.

    >>> punch_damage(18), punch_damage(20), punch_damage(21), punch_damage(12)
    ('d10-2 min 0', 'd10-2 min 0', 'd10-1 min 0', 'd10-3 min 0')
    """
    add = strength_bonus(ps) - 3
    sign = "+" if add > 0 else "-" if add < 0 else ""
    return f"d10{sign}{abs(add) if add else ''} min {minimum}"


def can_kick(unarmed_rank: Rank) -> bool:
    """SCP-46: a kick needs Unarmed Combat Rank 3 or more.

    >>> can_kick(3), can_kick(2), can_kick(None)
    (True, False, False)
    """
    return unarmed_rank is not None and unarmed_rank >= 3


# ---- SCP-13 ... SCP-15: multiple strikes ---------------------------------------------------


def multiple_strike_forms(
    prepared_weapons: int, two_handed: bool, best_rank: Rank, high_rank: int = 4
) -> tuple[str, ...]:
    """SCP-13...SCP-15 (I-11, A-15): the strike forms open to a figure: ``two_weapon`` with
    two prepared weapons, ``multi_target`` with a prepared weapon at Rank >= 4. A
    two-handed weapon below Rank 4 gives neither.

    >>> multiple_strike_forms(2, False, 1), multiple_strike_forms(1, True, 3)
    (('two_weapon',), ())
    >>> multiple_strike_forms(1, True, 4)
    ('multi_target',)
    """
    forms = []
    if prepared_weapons >= 2 and not two_handed:
        forms.append("two_weapon")
    if best_rank is not None and best_rank >= high_rank:
        forms.append("multi_target")
    return tuple(forms)


# ---- SCP-10: missile flight -------------------------------------------------------------------


def flight_hexes(range_hexes: int) -> int:
    """SCP-10 (A-24): a fired weapon flies ``floor(1.5 x range)`` hexes, then falls.

    >>> flight_hexes(10), flight_hexes(7), flight_hexes(1)
    (15, 10, 1)
    """
    return 3 * range_hexes // 2


MISSILE_BANDS = ("adjacent", "in_range", "flight", "beyond")
"""Where a hex lies for a missile weapon (:func:`missile_band`), nearest first."""


def missile_band(distance: int, range_hexes: int) -> str:
    """SCP-3, SCP-10, A-24: where a target at hex ``distance`` lies for a missile weapon of
    ``range_hexes``: ``adjacent`` (the same or a neighbouring hex: no Fire, SCP-3),
    ``in_range`` (a target may be fired at, A-24), ``flight`` (past the range, where a
    missile that hit nothing before still flies, SCP-10) or ``beyond`` (it has fallen).

    >>> [missile_band(d, 4) for d in (0, 1, 2, 4, 5, 6, 7)]
    ['adjacent', 'adjacent', 'in_range', 'in_range', 'flight', 'flight', 'beyond']
    """
    if distance < 0 or range_hexes < 1:
        raise ValueError(f"need a distance >= 0 and a range >= 1, got {distance}, {range_hexes}")
    if distance <= 1:
        return "adjacent"
    if distance <= range_hexes:
        return "in_range"
    return "flight" if distance <= flight_hexes(range_hexes) else "beyond"


# ---- SCP-47 ... SCP-52: mounted combat -----------------------------------------------------


def mounted_melee_hexes(long_hafted: bool, fired: bool = False) -> tuple[str, ...]:
    """SCP-50 (I-10): a rider attacks only FL and FR; a spear-like weapon or a fired one
    also the Front hex.

    >>> mounted_melee_hexes(False), mounted_melee_hexes(True)
    (('FL', 'FR'), ('F', 'FL', 'FR'))
    """
    return ("F", "FL", "FR") if long_hafted or fired else ("FL", "FR")


def mounted_problem(
    *, two_handed: bool, firing: bool, moving: bool, weapons: int, lifted: bool = False
) -> str:
    """SCP-49: what a rider may not do (unless Horsemanship lifts it): a two-handed weapon,
    fire while moving, more than one weapon at a time. A shield and a one-handed weapon is
    always allowed. Firing has its own exception (2), "while moving": a missile weapon that
    takes both hands (a bow) is fired from a mount that stands still.

    >>> mounted_problem(two_handed=True, firing=False, moving=False, weapons=1)
    'a rider cannot use a two-handed weapon (SCP-49)'
    >>> mounted_problem(two_handed=True, firing=True, moving=False, weapons=1)
    ''
    >>> mounted_problem(two_handed=False, firing=False, moving=False, weapons=1)
    ''
    """
    if lifted:
        return ""
    if two_handed and not firing:
        return "a rider cannot use a two-handed weapon (SCP-49)"
    if firing and moving:
        return "a rider cannot fire while the mount is moving (SCP-49)"
    if weapons > 1:
        return "a rider cannot use more than one weapon at a time (SCP-49)"
    return ""


def may_mount(mount_moving: bool) -> bool:
    """SCP-48: mounting and dismounting only while the mount is not moving.

    >>> may_mount(False), may_mount(True)
    (True, False)
    """
    return not mount_moving


def mounted_charge_ok(facings: Sequence[int], directions: Sequence[int]) -> bool:
    """SCP-51: a mounted Charge runs in a straight line with no facing change: every step in
    the same direction as the (unchanged) facing.

    >>> mounted_charge_ok([1, 1, 1], [1, 1]), mounted_charge_ok([1, 2], [1])
    (True, False)
    """
    return len(set(facings)) <= 1 and all(d == facings[0] for d in directions)


def momentum_hexes(tmr: int) -> int:
    """SCP-52: in the Pulse after a mounted Charge the mount carries on for its full TMR.

    >>> momentum_hexes(12)
    12
    """
    return tmr


def horsemanship_threshold(agility: int, rank: Rank) -> int:
    """A-28 (placeholder): a Horsemanship Check is D100 at or under ``3 x AG + 10 x Rank``.

    >>> horsemanship_threshold(12, 2), horsemanship_threshold(12, None)
    (56, 36)
    """
    return 3 * agility + 10 * (rank or 0)


# ---- SCP-53 ... SCP-58: infection ---------------------------------------------------------


def infection_chance(en_damage: int, bite_claw_talon: bool, grievous: int = 0) -> int:
    """SCP-54: ``10 + (20 + EN damage if any) + (20 for a bite, claw or talon) + grievous``.

    >>> infection_chance(7, True), infection_chance(0, False), infection_chance(0, True)
    (57, 10, 30)
    """
    return 10 + (20 + en_damage if en_damage > 0 else 0) + (20 if bite_claw_talon else 0) + grievous


def infected(roll: int, chance: int) -> bool:
    """SCP-55: D100 at or under the chance infects.

    >>> infected(57, 57), infected(58, 57)
    (True, False)
    """
    return roll <= chance


def cured(roll: int, original_en: int) -> bool:
    """SCP-56 (I-7): a morning D100 at or under the original Endurance cures.

    >>> cured(15, 15), cured(16, 15)
    (True, False)
    """
    return roll <= original_en


def daily_damage(d10: int) -> int:
    """SCP-56, SCP-58: ``D10 - 5``, at least 1.

    >>> [daily_damage(f) for f in range(1, 11)]
    [1, 1, 1, 1, 1, 1, 2, 3, 4, 5]
    """
    return max(1, d10 - 5)


def needs_infection_check(wounded: bool) -> bool:
    """SCP-53 (A-27): a figure wounded (effective damage > 0) in a combat is checked.

    >>> needs_infection_check(True), needs_infection_check(False)
    (True, False)
    """
    return wounded


# ---- engagement ----------------------------------------------------------------------


def engaged_pair(same_hex: bool, a_sees_b: str | None, b_sees_a: str | None) -> bool:
    """A-12: two hostile figures are engaged when they share a hex, or are adjacent with at
    least one of them in the other's Melee Zone (``a_sees_b`` is where b lies for a:
    F, FL, ... or None when not adjacent).

    >>> engaged_pair(False, "F", "B"), engaged_pair(False, "B", "BR")
    (True, False)
    >>> engaged_pair(True, None, None)
    True
    """
    if same_hex:
        return True
    return a_sees_b in MELEE_ZONE or b_sees_a in MELEE_ZONE


def initiative_bonus(agility: int) -> int:
    """A-13 (placeholder): initiative is ``D10 + AG // 5``.

    >>> initiative_bonus(14), initiative_bonus(4)
    (2, 0)
    """
    return agility // 5
