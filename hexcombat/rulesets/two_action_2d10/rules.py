"""Pure calculators of ``two-action-2d10``, each naming its rule id.

Spec: ``shared/rules/two-action-2d10.md`` (27 numbered rules; gaps D-n, inconsistencies
I-n; our readings R-n, see ``options.py``). No function here touches a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from hexcombat.geometry import Hex, neighbor

ACTIONS_PER_ROUND = 2
"""Each protagonist has two actions a round (TA-1)."""

FREE_FORWARD = 3
FREE_BACK = 1
"""Free movement: 3 hexes forward or 1 back without an action (TA-23)."""

DEFENCES = ("parry", "block", "dodge")
STRIKES = ("attack", "brawl")


def action_dice(combined: bool) -> str:
    """2d10 for an attack or defence action (TA-4); 3d10 keeping the best two when both
    actions go into it (TA-5)."""
    return "3d10kh2" if combined else "2d10"


def keep_best_two(faces: Sequence[int]) -> int:
    """The total of the best two of three d10s (TA-5): (3, 9, 6) -> 15, (1, 1, 10) -> 11."""
    return sum(sorted(faces, reverse=True)[:2])


BOTH_ACTIONS = ("other", "recover")
"""Activities that may take both actions whatever ``ta.combinable`` says: vaulting an
obstacle (R-1) and recovering (R-3) may need two actions."""


def combinable(text: str) -> tuple[str, ...]:
    """The actions the option ``ta.combinable`` lets a protagonist combine (TA-5, I-2, R-2)."""
    return tuple(a.strip() for a in text.split(",") if a.strip())


def declaration_problem(
    first: str,
    second: str,
    combine: bool,
    *,
    allowed: int = ACTIONS_PER_ROUND,
    may_combine: Sequence[str] = ("attack", "parry", "block", "dodge", "move", "brawl"),
) -> str:
    """Why a declared pair of actions is refused ('' when it is legal).

    Two actions a round (TA-1), each one use (TA-2); the same action may not be
    taken twice (TA-3) unless both go into one combined action (TA-5); the
    second movement action is the combined form of the first (TA-25, I-2); an
    Other activity or a Recover that takes both actions is declared combined
    (TA-3, TA-26, R-1, R-3); load and shoot are two different actions (TA-22); a
    protagonist who lost actions declares 'none' for them (TA-11). An attack and a brawl
    are two attacks: a repeat (TA-3), since brawling is 'pummelling attacks' (TA-19).
    """
    if allowed < ACTIONS_PER_ROUND and second != "none":
        return f"only {allowed} action(s) this round: the second must be 'none' (TA-11)"
    if allowed < 1 and first != "none":
        return "no actions this round: both must be 'none' (TA-11)"
    if combine:
        if first != second:
            return "a combined action puts both actions into ONE action: declare it twice (TA-5)"
        if first not in (*may_combine, *BOTH_ACTIONS):
            return f"{first!r} cannot be combined (TA-5; ta.combinable: {', '.join(may_combine)})"
        return ""
    if first == second and first not in ("none", "move"):
        return f"the same action may not be taken twice ({first}); combine it instead (TA-3, TA-5)"
    if {first, second} == set(STRIKES):
        return (
            "an attack and a brawl are both attacks, and the same action may not be taken "
            "twice: put both actions into one attack or one brawl, combined (TA-3, TA-5)"
        )
    return ""


def is_combined(first: str, second: str, combine: bool) -> bool:
    """Both actions in one: declared combined, or two movement actions (TA-5, TA-25, I-2)."""
    return first == second and first != "none" and (combine or first == "move")


def passive_defence(posture: str, shield: bool, options: Mapping[str, object]) -> int:
    """Passive defence: a situational base by posture plus equipment (TA-6, D-1)."""
    base = options[f"ta.passive_{posture}"]
    bonus = options["ta.passive_shield"] if shield else 0
    assert isinstance(base, int) and isinstance(bonus, int)
    return base + bonus


def defence_adjustment(kind: str, armour_class: str, options: Mapping[str, object]) -> int:
    """The adjustment of a Parry, Block or Dodge roll (TA-7, D-2): Dodge is best unarmoured."""
    if kind == "dodge":
        key = {"none": "ta.dodge_unarmoured", "light": "ta.dodge_light"}.get(
            armour_class, "ta.dodge_heavy"
        )
    else:
        key = f"ta.{kind}_adj"
    value = options[key]
    assert isinstance(value, int)
    return value


def effective_defence(passive: int, roll: int | None) -> int:
    """The defence a blow must meet: the higher of the passive defence and a defensive
    roll (TA-6, TA-7, D-2 ``max``)."""
    return passive if roll is None else max(passive, roll)


def hits(attack: int, defence: int) -> bool:
    """Hit if the attack meets or beats the defence; a tie hits (TA-9)."""
    return attack >= defence


def surplus(attack: int, defence: int) -> int:
    """How far the attack beat the defence (TA-9, D-5): 0 on a tie."""
    return attack - defence


def damage_after_armour(rolled: int, armour_class: int) -> int:
    """Damage minus the target's armour class, never below 0 (TA-10)."""
    return max(0, rolled - armour_class)


def tier(value: int, thresholds: Sequence[int]) -> int:
    """How many thresholds above the minimum a surplus meets (TA-11, D-5): 0 to 3."""
    return sum(1 for t in thresholds if value >= t)


def damage_dice(die: str, hit_tier: int) -> str:
    """The weapon's dice plus one die per threshold met (TA-11): d8 at tier 2 -> 3d8."""
    count = 1 + hit_tier
    return f"{count}{die[die.index('d') :]}" if die else ""


def save_modifier(hit_tier: int, options: Mapping[str, object]) -> int:
    """The attribute save's penalty at a tier (TA-11, D-5): 0, -2, -4."""
    if hit_tier >= 3:
        value = options["ta.save_penalty_3"]
    elif hit_tier == 2:
        value = options["ta.save_penalty_2"]
    else:
        value = 0
    assert isinstance(value, int)
    return value


def take_damage(hp: int, bp: int, damage: int) -> tuple[int, int]:
    """Damage comes off hit points, then the overflow off body points (TA-12):
    HP 3, BP 10, 5 damage -> (0, 8)."""
    from_hp = min(hp, damage)
    return hp - from_hp, bp - (damage - from_hp)


def vitality(health: int, hp_base: int) -> tuple[int, int]:
    """Hit points and body points (TA-12, D-8): HP = base + Health, BP = Health."""
    return hp_base + health, health


def is_spectacular_mistake(kept_faces: Sequence[int], attack: int, defence: int, rule: str) -> bool:
    """A spectacular mistake in attack (TA-17, D-9): both kept dice 1, or (option) an attack
    at or below the defence - 10."""
    if rule == "miss_by_10":
        return attack <= defence - 10
    return len(kept_faces) >= 2 and all(f == 1 for f in kept_faces)


def pummel_damage(value: int, armour_class: int, base: int = 1, divisor: int = 2) -> int:
    """Pummelling damage from the surplus (TA-19, D-13): base + surplus // divisor - AC, min 0."""
    return max(0, base + value // divisor - armour_class)


def brawl_save_target(attribute: int, value: int, bar: int) -> int:
    """The defender's save against a tactical brawl (TA-21, D-14): attribute - (surplus - bar)."""
    return attribute - max(0, value - bar)


def free_move(direction: str) -> int:
    """Hexes of free movement (TA-23): 3 forward or 1 back."""
    return FREE_FORWARD if direction == "forward" else FREE_BACK


def movement_die(armour_class: str) -> str:
    """The movement action's die (TA-24): d6 unarmoured or light, d4 heavy (D-12)."""
    return "d4" if armour_class == "heavy" else "d6"


def move_allowance(extra: int | None, mode: str = "additive") -> int:
    """Forward hexes this round (TA-23, TA-24, D-12): the die adds to the free 3
    (``additive``) or replaces them (``total``)."""
    if extra is None:
        return FREE_FORWARD
    return FREE_FORWARD + extra if mode == "additive" else max(FREE_FORWARD, extra)


def forward_reach(start: Hex, facing: int, steps: int, passable: object) -> dict[Hex, int]:
    """Hexes reachable moving only into the three front directions of the facing at the
    start of movement (TA-23, D-12), at most ``steps`` hexes, through ``passable`` hexes
    (a callable Hex -> bool); value: hexes moved."""
    assert callable(passable)
    dirs = (facing, (facing + 1) % 6, (facing + 5) % 6)
    found = {start: 0}
    frontier = [start]
    for n in range(1, steps + 1):
        nxt = []
        for h in frontier:
            for d in dirs:
                t = neighbor(h, d)
                if t not in found and passable(t):
                    found[t] = n
                    nxt.append(t)
        frontier = nxt
    return found


def back_reach(start: Hex, facing: int, passable: object) -> list[Hex]:
    """The one hex back (the three rear hexes) free movement allows (TA-23, D-12)."""
    assert callable(passable)
    dirs = ((facing + 3) % 6, (facing + 2) % 6, (facing + 4) % 6)
    return [neighbor(start, d) for d in dirs if passable(neighbor(start, d))]


# ---- strike order -------------------------------------------------------------------


@dataclass(frozen=True)
class Striker:
    """One protagonist's place in the strike order (TA-14..TA-19)."""

    id: str
    name: str
    weapon: str
    rank: int
    skill: int
    cedes: bool = False
    waits: bool = False
    closed: bool = False
    opponents: tuple[str, ...] = ()


def effective_rank(s: Striker, closed_order: str, closed_fists: str = "first") -> float:
    """The weapon's strike rank (TA-14, D-10), natural weapons last (TA-19); a closed pair
    strikes in reverse when ``ta.closed_order`` is ``reverse`` (TA-15, TA-19, D-10); in the
    normal order a closed pair's fists come before the weapons unless ``ta.closed_fists``
    is ``last`` (TA-19, R-9)."""
    if s.closed and closed_order == "reverse" and s.rank > 0:
        return 9 - s.rank
    if s.closed and s.weapon == "natural" and closed_fists == "first":
        return 0.5  # after a shot loaded this round (rank 0), before the Spear (rank 1)
    return s.rank


def cedes_now(s: Striker, others: Mapping[str, Striker]) -> bool:
    """Ceding counts unless every opponent cedes too, when the cessions cancel (TA-17,
    TA-18, D-11)."""
    if not s.cedes:
        return False
    opp = [others[o] for o in s.opponents if o in others]
    return not opp or not all(o.cedes for o in opp)


def no_attack_pairs(strikers: Sequence[Striker], mutual_wait: str) -> set[frozenset[str]]:
    """Pairs that spend the round waiting for each other (TA-18, D-11): both declared Wait
    (or, with ``no_attacks``, both cede in any way) against each other."""
    by_id = {s.id: s for s in strikers}
    pairs = set()
    for s in strikers:
        for o in s.opponents:
            other = by_id.get(o)
            if other is None or s.id not in other.opponents:
                continue
            both = (
                (s.waits and other.waits)
                if mutual_wait == "explicit_wait_only"
                else (s.cedes and other.cedes)
            )
            if both:
                pairs.add(frozenset((s.id, o)))
    return pairs


def strike_key(
    s: Striker,
    others: Mapping[str, Striker],
    closed_order: str,
    closed_fists: str = "first",
    ceding: str = "after_fists",
) -> tuple[bool, bool, float, int]:
    """Sort key: with ``ta.ceding_and_fists`` at ``fists_last``, fists not closed after
    everyone, ceders too (TA-19, R-11); then ceding last (TA-17), then rank (TA-14, TA-19,
    R-9), then the more skilled first with identical weapons (TA-16)."""
    fists_last = ceding == "fists_last" and s.weapon == "natural" and not s.closed
    return (
        fists_last,
        cedes_now(s, others),
        effective_rank(s, closed_order, closed_fists),
        -s.skill,
    )


def strike_order(
    strikers: Sequence[Striker],
    closed_order: str = "reverse",
    closed_fists: str = "first",
    ceding: str = "after_fists",
) -> tuple[list[str], list[str]]:
    """The order of blows and why, with rule ids (TA-14..TA-19, D-10, D-11, R-11).

    Python's sort is stable: identical keys keep the set-up order (simultaneous,
    R-4)."""
    by_id = {s.id: s for s in strikers}

    def key(s: Striker) -> tuple[bool, bool, float, int]:
        return strike_key(s, by_id, closed_order, closed_fists, ceding)

    ordered = sorted(strikers, key=key)
    notes = []
    for a, b in pairwise(ordered):
        ka, kb = key(a), key(b)
        if ka[0] != kb[0]:
            notes.append(f"{b.name}'s fists come last in the round, after who cedes (TA-19, R-11)")
        elif ka[1] != kb[1]:
            notes.append(f"{b.name} cedes the initiative (TA-17, TA-18)")
        elif ka[2] != kb[2]:
            if a.rank == 0:
                notes.append(f"{a.name}'s shot, loaded this round, goes first (D-10)")
            elif b.weapon == "natural" and not b.closed:
                notes.append(f"{b.name}'s fists come last (TA-19)")
            elif a.closed and closed_order == "reverse":
                notes.append(f"{a.name} strikes first when closed (TA-15, D-10)")
            elif a.closed and a.weapon == "natural":
                notes.append(f"{a.name}'s fists do not come last when closed (TA-19, R-9)")
            else:
                notes.append(
                    f"{a.weapon.capitalize()} strikes before {b.weapon.capitalize()} (TA-14)"
                )
        elif ka[3] != kb[3]:
            notes.append(f"{a.name} is more skilled than {b.name} with the same weapon (TA-16)")
        else:
            notes.append(f"{a.name} and {b.name} strike together (TA-16, D-10)")
    return [s.id for s in ordered], notes


def simultaneous(
    a: Striker,
    b: Striker,
    others: Mapping[str, Striker],
    closed_order: str,
    closed_fists: str = "first",
    ceding: str = "after_fists",
) -> bool:
    """Same place in the order: identical weapon and skill (TA-16, D-10, R-4)."""
    return strike_key(a, others, closed_order, closed_fists, ceding) == strike_key(
        b, others, closed_order, closed_fists, ceding
    )
