"""Options of ``strike-chance-pulse``; its figure fields and Pulse are in :mod:`.options_fields`
and re-exported here.

Every option is a proposed default of ``shared/rules/strike-chance-pulse.md``
§5/§6 that the text leaves open; ``rule`` names the gap (A-*) or inconsistency
(I-*). Options marked R-* are this implementation's own readings where the
text and the spec are both silent (listed in ``docs/rules/strike-chance-pulse.md``).
"""

from __future__ import annotations

from hexcombat.rulesets.strike_chance_pulse.options_fields import FIELDS, TIME
from hexcombat.rulesets.strike_chance_pulse.options_readings import DOC_NOTES, READINGS
from hexcombat.schema import Choice, FieldSpec

__all__ = ["DOC_NOTES", "FIELDS", "OPTIONS", "TIME"]


def _choices(*pairs: tuple[str | int, str]) -> tuple[Choice, ...]:
    return tuple(Choice(value, label) for value, label in pairs)


OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "scp.entangle_damage",
        "Entangle damage",
        "choice",
        "d10-4 min 0",
        'The text prints "D104": a lost minus sign. Default D10 - 4, at least 0.',
        "A-1",
        _choices(("d10-4 min 0", "D10 - 4, at least 0"), ("d10+4", "D10 + 4")),
    ),
    FieldSpec(
        "scp.shield_rush_damage",
        "Shield Rush damage",
        "choice",
        "d10-2 min 0",
        'The text prints "D10 2". Default D10 - 2, at least 0.',
        "A-2",
        _choices(("d10-2 min 0", "D10 - 2, at least 0"), ("d10+2", "D10 + 2")),
    ),
    FieldSpec(
        "scp.fumble_threshold",
        "Fumble threshold",
        "choice",
        "3xMD",
        "After a 99 or 100 a second D100 at or under this avoids the misfortune. The text "
        "says both 3 x MD and MD (I-2).",
        "A-3, I-2",
        _choices(("3xMD", "3 x modified MD"), ("MD", "modified MD")),
    ),
    FieldSpec(
        "scp.fumble_auto_miss",
        "99 and 100 always miss",
        "bool",
        False,
        "Default: a 99 or 100 hits or misses as usual (SCP-28), and the fumble check is made "
        "as well.",
        "A-4",
    ),
    FieldSpec(
        "scp.natural_fumble_skips_pulse",
        "Natural-weapon fumble",
        "bool",
        False,
        "When a fumble cannot apply (teeth, claws), the GM's fumble: no attack next Pulse.",
        "A-5",
    ),
    FieldSpec(
        "scp.parry_attack_types",
        "Attacks that can be parried",
        "choice",
        "melee",
        "Default: Melee attacks only; Ranged and Close attacks are never parried.",
        "A-6",
        _choices(("melee", "Melee only"), ("melee_close", "Melee and Close")),
    ),
    FieldSpec(
        "scp.parry_optional",
        "Parry is the defender's choice",
        "bool",
        True,
        "Default: the defender is asked whether to roll the parry (it may owe a Pass on 3 or "
        "less). Off: every parry chance is rolled.",
        "A-6",
    ),
    FieldSpec(
        "scp.parry_rank_source",
        "Defender's Rank for a parry",
        "choice",
        "max_prepared",
        "The highest Rank among the defender's prepared weapons and shields (unranked 0).",
        "A-7",
        _choices(("max_prepared", "Highest prepared weapon or shield"), ("primary", "Primary")),
    ),
    FieldSpec(
        "scp.parry_disarm_en_damage",
        "Endurance damage of a parry disarm",
        "int",
        1,
        "A 4-7 parry disarms the attacker like the Disarm attack: it drops the weapon it "
        "attacked with and takes this much Endurance damage.",
        "A-8",
        minimum=0,
        maximum=5,
    ),
    FieldSpec(
        "scp.riposte_requires_evading",
        "Riposte only for Evading defenders",
        "bool",
        False,
        "Default: any parry of 8 or more allows a Riposte.",
        "A-9",
    ),
    FieldSpec(
        "scp.evade_modifier",
        "Attacking an Evading figure",
        "int",
        -10,
        "Modifier to attacks on an Evading figure (placeholder, the value is not given).",
        "A-10",
        minimum=-50,
        maximum=0,
    ),
    FieldSpec(
        "scp.ranged_zone",
        "Ranged Zone",
        "choice",
        "arc120",
        "Default: the front 120-degree arc; 'half' is the front half-plane.",
        "A-11",
        _choices(("arc120", "Front 120-degree arc"), ("half180", "Front half")),
    ),
    FieldSpec(
        "scp.engaged_rule",
        "Engaged figures",
        "choice",
        "zone",
        "Default: sharing a hex with a hostile, or adjacent with either in the other's Melee "
        "Zone. 'Adjacent': any adjacent hostile.",
        "A-12",
        _choices(("zone", "Same hex or a Melee Zone contact"), ("adjacent", "Any adjacent")),
    ),
    FieldSpec(
        "scp.initiative",
        "Initiative",
        "choice",
        "d10+ag",
        "Placeholder: each figure rolls D10 + AG // 5 when the Pulse begins; highest first, "
        "ties re-roll. 'Agility' orders by AG; figures with equal AG roll a D10 off (ties "
        "re-roll, A-13), never the set-up order.",
        "A-13",
        _choices(
            ("d10+ag", "D10 + AG // 5, ties re-roll"),
            ("agility", "Highest AG first, equal AG rolls off"),
        ),
    ),
    FieldSpec(
        "scp.actions",
        "Actions per Pulse",
        "int",
        1,
        "Placeholder action set (Move, Charge, Melee, Fire, Grapple, Evade, Pass, Ready, "
        "Rise): one action per Pulse.",
        "A-14",
        minimum=1,
        maximum=1,
    ),
    FieldSpec(
        "scp.off_hand_modifier",
        "Secondary-hand attack",
        "int",
        -10,
        "Placeholder attack-condition modifier for an attack with the secondary hand (SCP-7).",
        "A-15",
        minimum=-50,
        maximum=0,
    ),
    FieldSpec(
        "scp.multiple_strike_modifier",
        "Each strike of a multiple strike",
        "int",
        -10,
        "Placeholder modifier on each strike of a two-weapon or multi-target strike.",
        "A-15",
        minimum=-50,
        maximum=0,
    ),
    FieldSpec(
        "scp.high_rank",
        "High Rank for a multi-target strike",
        "int",
        4,
        "A multi-target strike needs a prepared weapon at this Rank or more (SCP-15).",
        "A-15",
        minimum=0,
        maximum=20,
    ),
    FieldSpec(
        "scp.restrain_skill",
        "Restrain uses",
        "choice",
        "unarmed",
        "The Restrain Base Chance gets MD and 4 x Rank with the Unarmed Combat Rank.",
        "A-16",
        _choices(("unarmed", "Unarmed Combat Rank"), ("none", "No MD or Rank")),
    ),
    FieldSpec(
        "scp.restrain_subtract_dr",
        "Restrain subtracts Defense Rating",
        "bool",
        False,
        "Default: no; the target's AG is already inside the Restrain formula.",
        "A-16",
    ),
    FieldSpec(
        "scp.special_uses_rank",
        "Special attacks add MD and Rank",
        "bool",
        True,
        "Trip, Entangle and Shield Rush: SCP-24 when ranked with the weapon or shield used, "
        "SCP-25 when unranked, then minus DR.",
        "A-17",
    ),
    FieldSpec(
        "scp.entangle_blocks",
        "Entangled figures cannot",
        "choice",
        "rise",
        "Default: only rise (the literal rule); 'all' also blocks moving and attacking.",
        "A-18",
        _choices(("rise", "Rise"), ("all", "Rise, move or attack")),
    ),
    FieldSpec(
        "scp.pulses_per_minute",
        "Pulses per minute",
        "int",
        12,
        "Converts Knockout's D10 + 5 minutes into Pulses. 12 is an assumption, not from the text.",
        "A-21",
        minimum=1,
        maximum=60,
    ),
    FieldSpec(
        "scp.knockout_partial",
        "Knockout hit above 15%",
        "choice",
        "no_effect",
        "A roll under the MSC but above 15% of it does nothing (the attack failed).",
        "A-21",
        _choices(
            ("no_effect", "No effect"),
        ),
    ),
    FieldSpec(
        "scp.restrain_break",
        "A restraint breaks when",
        "choice",
        "any",
        "Any restrainer takes 1 or more effective damage from outside the hex.",
        "A-22",
        _choices(("any", "Any restrainer is hurt from outside"), ("all", "Every restrainer")),
    ),
    FieldSpec(
        "scp.bystander_check",
        "Figures along a line of fire",
        "choice",
        "same_sc",
        "Each figure in the path is checked with the same Strike Chance minus its own DR.",
        "A-24",
        _choices(("same_sc", "Same SC, own DR"), ("target_msc", "The target's MSC")),
    ),
    FieldSpec(
        "scp.tie_check_order",
        "Two figures tied on a line of fire",
        "choice",
        "clockwise_first",
        "Where the line runs along a hexside, the hex clockwise of the shooter-target line is "
        "checked first.",
        "A-24",
        _choices(("clockwise_first", "Clockwise first"), ("counter_first", "Counterclockwise")),
    ),
    FieldSpec(
        "scp.min_damage",
        "Least damage",
        "int",
        0,
        'Negative damage ("D-3") counts as this.',
        "A-25",
        minimum=0,
        maximum=1,
    ),
    FieldSpec(
        "scp.damage_model",
        "Damage model",
        "choice",
        "ft_then_en",
        "Placeholder: weapon dice minus armour is effective damage; it comes off Fatigue "
        "first and the rest off Endurance; Endurance 0 or less is death.",
        "A-26",
        _choices(("ft_then_en", "Fatigue, then Endurance"), ("en_only", "Endurance only")),
    ),
    FieldSpec(
        "scp.horsemanship_check",
        "Horsemanship Check",
        "choice",
        "3ag_10rank",
        "Placeholder: D100 at or under 3 x AG + 10 x Horsemanship Rank.",
        "A-28",
        _choices(
            ("3ag_10rank", "3 x AG + 10 x Rank"),
        ),
    ),
    FieldSpec(
        "scp.entry_hex_tie",
        "Direction of a shot along a hexside",
        "choice",
        "defender",
        "A missile comes through the target's neighbour hex it crosses last; along a hexside "
        "the better one for the defender (shield counts).",
        "A-29",
        _choices(("defender", "Favour the defender"), ("attacker", "Favour the attacker")),
    ),
    FieldSpec(
        "scp.shield_side_only",
        "Shield only to the front and shield side",
        "bool",
        False,
        "Optional rule of SCP-39: the shield counts only for attacks through F and the hex on "
        "its side (FL for a right-handed figure).",
        "A-30",
    ),
    FieldSpec(
        "core.stacking",
        "Figures per hex",
        "int",
        0,
        "0: no fixed limit (Close combat needs several figures in one hex); a number caps it.",
        "A-32",
        minimum=0,
        maximum=8,
    ),
    FieldSpec(
        "scp.hard_obstacle_blocks",
        "Walls, trees and pillars block the line of fire",
        "bool",
        True,
        "A wall, tree or pillar breaks a missile entering it (SCP-11); by default it also "
        "blocks the line of fire and movement.",
        "A-24",
    ),
    FieldSpec(
        "scp.default_die",
        "A bare D",
        "int",
        10,
        '"D-3" reads as D10 - 3: a D on its own stands for this die.',
        "A-25",
        minimum=10,
        maximum=10,
    ),
    FieldSpec(
        "scp.mounted_front_fire",
        "Riders firing into the adjacent Front hex",
        "choice",
        "allow_adjacent",
        "The mounted rule lets a rider fire into its Front hex, an exception to 'not "
        "adjacent' (SCP-3).",
        "I-10",
        _choices(("allow_adjacent", "Allowed"), ("not_adjacent", "Not adjacent, as SCP-3")),
    ),
    FieldSpec(
        "scp.two_handed_multi",
        "Two-handed weapons and multiple strikes",
        "choice",
        "needs_form",
        "A two-handed weapon below the high Rank fits no strike form and gives none.",
        "I-11",
        _choices(
            ("needs_form", "Needs a strike form"),
        ),
    ),
    FieldSpec(
        "scp.multiple_strikes",
        "Multiple strikes",
        "bool",
        True,
        "Two-weapon and multi-target strikes are allowed (the text may mean an optional rule).",
        "I-12",
    ),
    *READINGS,
)
