"""The figure fields of ``two-action-2d10``: weapon, missile, armour and shield (TA-7, TA-14,
TA-22, TA-24), skills (D-4) and attributes (D-7, D-8), each read through its typed stat."""

from __future__ import annotations

from typing import Any

from hexcombat.rulesets.common.stats import FlagStat, IntStat, TextStat
from hexcombat.rulesets.data import load
from hexcombat.schema import Choice, FieldSpec

DATA: Any = load("two_action_2d10")

ARMOURS = (
    Choice("none", "None", "AC 0, dodges +2, moves on d6"),
    Choice("leather", "Leather (light)", "AC 1, moves on d6"),
    Choice("studded", "Studded (heavy)", "AC 2, moves on d4"),
    Choice("mail", "Mail (heavy)", "AC 3, moves on d4"),
)


def weapon_numbers(row: dict[str, Any]) -> str:
    """A melee weapon's numbers as its choice shows them (TA-14, TA-20).

    >>> weapon_numbers({"strike_rank": 7, "damage": "d4", "attack_adj": -1})
    'strike rank 7, damage d4, attack -1'
    """
    words = [f"strike rank {row['strike_rank']}"]
    words.append(f"damage {row['damage']}" if row.get("damage") else "damage from the surplus")
    if row.get("attack_adj"):
        words.append(f"attack {row['attack_adj']:+d}")
    return ", ".join(words)


def missile_numbers(row: dict[str, Any]) -> str:
    """A missile weapon's numbers as its choice shows them (TA-22); '' for none.

    >>> missile_numbers({"damage": "d6", "range": 12, "prepare": "load"})
    'damage d6, range 12, load before shooting'
    """
    if not row.get("range"):
        return ""
    before = "load before shooting" if row.get("prepare") == "load" else "prepare before throwing"
    return f"damage {row['damage']}, range {row['range']}, {before}"


WEAPONS = tuple(
    Choice(w, w.capitalize(), weapon_numbers(DATA["weapons"][w]))
    for w in ("spear", "sword", "langasaex", "axe", "franca", "scramasaex", "makeshift", "natural")
)
MISSILES = tuple(
    Choice(m, m.replace("_", " ").capitalize(), missile_numbers(DATA["missiles"][m]))
    for m in ("none", "bow", "sling", "thrown_spear", "thrown_franca")
)
"""The weapon and missile choices, each with its numbers in the default tables (D-4's
placeholders)."""


def _skill(name: str, label: str, default: int, help: str) -> IntStat:
    spec = FieldSpec(
        name, label, "int", default, help, "D-4", minimum=0, maximum=8, house_default=True
    )
    return IntStat(spec, fallback=0)


def _attribute(name: str, label: str, help: str, rule: str) -> IntStat:
    spec = FieldSpec(name, label, "int", 10, help, rule, minimum=1, maximum=20, house_default=True)
    return IntStat(spec, fallback=10)


# Figure stats, each read through its typed reader (hexcombat/rulesets/common/stats.py).
WEAPON = TextStat(
    FieldSpec(
        "weapon",
        "Weapon",
        "choice",
        "sword",
        "Melee weapon: strike rank and damage (TA-14).",
        "TA-14",
        WEAPONS,
    ),
    fallback="natural",
)
MISSILE = TextStat(
    FieldSpec(
        "missile",
        "Missile weapon",
        "choice",
        "none",
        "Loaded or prepared, then shot (TA-22).",
        "TA-22",
        MISSILES,
    ),
    fallback="none",
)
ARMOUR = TextStat(
    FieldSpec(
        "armour",
        "Armour",
        "choice",
        "none",
        "Armour class and movement die (TA-10, TA-24).",
        "TA-24",
        ARMOURS,
    ),
    fallback="none",
)
SHIELD = FlagStat(
    FieldSpec(
        "shield",
        "Shield",
        "bool",
        False,
        "Needed for a Block; +1 passive defence (TA-6, TA-7).",
        "TA-7",
    )
)
SKILL = _skill("skill", "Weapon skill", 4, "Added to the attack roll (TA-8).")
MISSILE_SKILL = _skill("missile_skill", "Missile skill", 3, "Added to a shot (TA-8).")
BRAWL = _skill("brawl", "Brawling skill", 2, "Added to a pummel or tactical brawl (TA-19).")
PARRY = _skill("parry", "Parry skill", 3, "Added to a Parry roll (TA-7).")
BLOCK = _skill("block", "Block skill", 3, "Added to a Block roll (TA-7).")
DODGE = _skill("dodge", "Dodge skill", 3, "Added to a Dodge roll (TA-7).")
STRENGTH = _attribute("strength", "Strength", "Save for arm hits (TA-11).", "D-7")
AGILITY = _attribute("agility", "Agility", "Save for leg hits; breaking away (TA-11).", "D-7")
HEALTH = _attribute(
    "health", "Health", "Save for head and torso; HP = 10 + Health, BP = Health (TA-12).", "D-8"
)
FIGURE_STATS = (WEAPON, MISSILE, ARMOUR, SHIELD, SKILL, MISSILE_SKILL, BRAWL, PARRY, BLOCK, DODGE)
FIELDS: tuple[FieldSpec, ...] = tuple(s.spec for s in (*FIGURE_STATS, STRENGTH, AGILITY, HEALTH))
DEFENCE_SKILLS: dict[str, IntStat] = {s.name: s for s in (PARRY, BLOCK, DODGE)}
"""The skill each defence adds (TA-7), by the defence's id."""
WHOLE_NUMBERS: dict[str, IntStat] = {
    s.name: s for s in (SKILL, MISSILE_SKILL, BRAWL, PARRY, BLOCK, DODGE, STRENGTH, AGILITY, HEALTH)
}
"""The whole-number stats by name, for a rule that names one (a defence, a save's attribute)."""
