"""Options of ``strike-chance-pulse``; its figure fields and Pulse are in :mod:`.fields`
and re-exported here.

Every option is a proposed default of ``shared/rules/strike-chance-pulse.md``
§5/§6 that the text leaves open; ``rule`` names the gap (A-*) or inconsistency
(I-*). Options marked R-* are this implementation's own readings where the
text and the spec are both silent (listed in ``docs/rules/strike-chance-pulse.md``).
"""

from __future__ import annotations

from hexcombat.rulesets.strike_chance_pulse.fields import FIELDS, TIME
from hexcombat.schema import Choice, FieldSpec

__all__ = ["DOC_NOTES", "FIELDS", "OPTIONS", "TIME"]


DOC_NOTES = (
    "`scp.attack_unconscious` (R-19) defaults to `true`, the text's reading: 'a hostile "
    "figure may be attacked ... while on the display' names no exception, and SCP-40 "
    "already says how an incapacitated defender fares (no shield). Off: a knocked-out "
    "figure is out of the fight and cannot be targeted.",
    "`scp.incapacitated_parry` (R-20) defaults to `false`: a restrained figure 'is treated "
    "as incapacitated' (SCP-19), and an incapacitated figure cannot take the parry's "
    "swing. On: the parry rule's letter, which names no exception (SCP-32).",
    '`scp.disarm_empty_handed` (R-21) defaults to `"refuse"`: a Disarm\'s point is the '
    "dropped weapon or item (SCP-22), which a figure with empty hands cannot give; "
    '`"damage_only"` is the letter of the text, whose only condition is the attacker\'s '
    "weapon: a hit deals its 1 Endurance damage and nothing is dropped.",
    '`scp.line_fumbles` (R-22) defaults to `"first"`: a fumble breaks or drops the '
    "attacker's weapon as it is loosed, which happens once a shot, so one missile makes "
    'at most one fumble check; `"each"` is the letter of SCP-30 ("whenever the Strike '
    'Check results in a roll of 99 or 100") applied to every check along the line.',
)
"""Notes for docs/rules/strike-chance-pulse.md on the defaults chosen (tests/rules/coverage.py)."""


READINGS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "scp.grapple_enters_hex",
        "A Grapple may step into the target's hex",
        "bool",
        True,
        "Reading: a Grapple against an adjacent hostile moves the attacker into its hex "
        "first (the only way into Close combat); off: only figures already sharing a hex.",
        "R-1",
    ),
    FieldSpec(
        "scp.rider_lift_rank",
        "Horsemanship Rank that lifts riders' limits",
        "int",
        0,
        "Reading: section 83.2 is missing; 0 means Horsemanship never lifts the SCP-49 "
        "limits, a number means that Rank or more does.",
        "R-2",
        minimum=0,
        maximum=20,
    ),
    FieldSpec(
        "scp.hexside_missile_break",
        "A missile along a hexside breaks",
        "choice",
        "both",
        "Reading: a missile flying exactly along a hexside touches two hexes; by default it "
        "breaks only if both of them break missiles (it passes an open side), or if either "
        "does (SCP-11).",
        "R-3",
        Choice.pairs(("both", "Only if both hexes break it"), ("either", "If either hex does")),
    ),
    FieldSpec(
        "scp.close_drops_shields",
        "Whose shields are dropped in Close combat",
        "choice",
        "both",
        "Reading: SCP-41 drops the shield of 'the figure' entering Close combat; by default "
        "both figures of the Close attack drop theirs, or only the attacker who starts it.",
        "R-4",
        Choice.pairs(("both", "Both figures"), ("attacker", "Only the attacker")),
    ),
    FieldSpec(
        "scp.disarm_drops",
        "What a Disarm drops",
        "choice",
        "attacker",
        "The text lets the attacker choose the weapon or item dropped (SCP-22): by default "
        "the Disarm form asks which; or the first prepared weapon or shield in the figure's "
        "list, or its weapons before its shield. A parry's disarm drops the weapon the attack "
        "was made with (A-8).",
        "R-5",
        Choice.pairs(
            ("attacker", "The attacker chooses"),
            ("first", "First prepared item"),
            ("weapon_first", "A weapon before a shield"),
        ),
    ),
    FieldSpec(
        "scp.evading_lasts",
        "How long Evading lasts",
        "choice",
        "next_initiative",
        "Reading: Evade is declared for the Pulse (A-10); by default it ends at the next "
        "initiative, or it lasts until the figure's own next action.",
        "R-6",
        Choice.pairs(
            ("next_initiative", "Until the next initiative"),
            ("next_action", "Until the figure's next action"),
        ),
    ),
    FieldSpec(
        "scp.move_into_hostile",
        "Move may enter a hostile's hex",
        "bool",
        False,
        "Reading: by default a Move cannot enter a hex holding a hostile (Close combat starts "
        "with a Grapple, R-1); on: it may when stacking allows, and both drop their shields "
        "(SCP-41).",
        "R-7",
    ),
    FieldSpec(
        "scp.free_hand_punch",
        "Who may punch",
        "choice",
        "free_hand",
        "Reading: by default a humanoid with a free hand may always punch (SCP-43), even with "
        "a weapon prepared in the other; or only a figure with no weapon prepared.",
        "R-8",
        Choice.pairs(("free_hand", "Any free hand"), ("empty_handed", "Only with no weapon")),
    ),
    FieldSpec(
        "scp.knockout_duration_shown",
        "Show the Knockout duration in the log",
        "bool",
        False,
        "Reading: SCP-20 rolls the D10 + 5 minutes secretly; by default the event text says "
        "so and only the GM's record (the event data) holds the minutes; on: the log says "
        "how long.",
        "R-9",
    ),
    FieldSpec(
        "scp.two_weapon_off_hand",
        "Two-weapon strike: the second weapon is the secondary hand",
        "bool",
        True,
        "Reading: SCP-14 puts one weapon in each hand, so by default the second strike also "
        "gets the secondary hand's modifier (SCP-7); off: only the multiple-strike modifier.",
        "R-10",
    ),
    FieldSpec(
        "scp.rideable",
        "Which figures may be mounted",
        "choice",
        "non_humanoid",
        "Reading: the text names no mount list; by default a figure may mount a non-humanoid "
        "of its own side (SCP-48), or any figure of its side.",
        "R-11",
        Choice.pairs(
            ("non_humanoid", "Non-humanoids of the own side"), ("any", "Any of the own side")
        ),
    ),
    FieldSpec(
        "scp.same_hex_check_order",
        "Figures sharing a hex on a missile's line",
        "choice",
        "target_first",
        "Reading: the text orders only tied hexes (A-24); in a hex of Close combat the missile "
        "meets the target first by default, or the others first; then by name (never by the "
        "order the figures were entered in).",
        "R-12",
        Choice.pairs(("target_first", "The target first"), ("target_last", "The target last")),
    ),
    FieldSpec(
        "scp.momentum_blocked",
        "A mount carried on by momentum meets an obstacle",
        "choice",
        "check",
        "Reading: the text only says the mount carries on for its full TMR (SCP-52); when a "
        "wall, another figure or the board's edge is in the way, it stops in the last free "
        "hex. By default the rider's Horsemanship Check still decides whether it keeps "
        "pressing on next Pulse; or the obstacle ends the momentum (no check).",
        "R-13",
        Choice.pairs(
            ("check", "Stops in front; the Horsemanship Check still decides"),
            ("halt", "Stops in front; the momentum ends"),
        ),
    ),
    FieldSpec(
        "scp.charge_spends_mount",
        "A mounted Charge is the mount's action too",
        "bool",
        True,
        "Reading: the text treats rider and mount as one mounted figure making one Charge "
        "(SCP-47, SCP-51), so by default the Charge spends both their actions; off: the mount "
        "keeps its own action this Pulse (a war mount may still bite or kick), but it has "
        "moved, so it cannot Move, Charge or be dismounted from.",
        "R-14",
    ),
    FieldSpec(
        "scp.two_weapon_fire",
        "Two-weapon Fire: which weapons",
        "choice",
        "thrown",
        "Reading: SCP-14 allows a two-weapon strike of the Fire type, one weapon in each hand, "
        "but says nothing of loading; by default only thrown weapons (one thrown from each "
        "hand) make it, since a bow or crossbow cannot be drawn or loaded with one hand; or "
        "any two prepared missile weapons, each taken to be loaded already.",
        "R-15",
        Choice.pairs(
            ("thrown", "Thrown weapons only, one from each hand"),
            ("loaded", "Any two prepared missile weapons, both loaded"),
        ),
    ),
    FieldSpec(
        "scp.pick_up_reach",
        "Where a dropped item can be picked up from",
        "choice",
        "adjacent",
        "Reading: any figure may pick up a dropped weapon (SCP-31), and the text gives no "
        "reach; by default from the hex it lies in or an adjacent one, or only from that hex.",
        "R-16",
        Choice.pairs(("adjacent", "Its hex or an adjacent one"), ("same_hex", "Only its hex")),
    ),
    FieldSpec(
        "scp.riposte_zone",
        "Where a Riposte can strike",
        "choice",
        "melee_zone",
        "Reading: a Riposte is 'a Melee attack' (SCP-35), which needs the target in the Melee "
        "Zone (SCP-4); by default a defender parrying an attack from its rear cannot riposte, "
        "or it may riposte at any attacker next to it.",
        "R-17",
        Choice.pairs(("melee_zone", "Only into the Melee Zone"), ("any", "Any adjacent attacker")),
    ),
    FieldSpec(
        "scp.punch_and_kick",
        "A punch and a kick in one attack",
        "choice",
        "multiple",
        "Reading: from Unarmed Combat Rank 3 a figure may kick 'in addition to hands' (SCP-46); "
        "by default the two strikes are a Multiple Strike, each at its modifier (SCP-14, "
        "A-15), or both strike without it (the text names no penalty there).",
        "R-18",
        Choice.pairs(
            ("multiple", "Each strike at the multiple-strike modifier"),
            ("free", "No modifier"),
        ),
    ),
    FieldSpec(
        "scp.attack_unconscious",
        "An unconscious figure may be attacked",
        "bool",
        True,
        "Reading: the text lets any hostile figure on the display be attacked (SCP-1) and "
        "names no exception; by default a knocked-out figure may be, its shield giving no "
        "defense (SCP-40) and no parry; off: only figures still in the fight.",
        "R-19",
    ),
    FieldSpec(
        "scp.incapacitated_parry",
        "A restrained or stunned figure may parry",
        "bool",
        False,
        "Reading: a restrained figure 'is treated as incapacitated' (SCP-19) and the parry "
        "rule names no exception (SCP-32); by default an incapacitated figure is not asked "
        "to parry; on: it is, like any defender.",
        "R-20",
    ),
    FieldSpec(
        "scp.disarm_empty_handed",
        "A Disarm against a figure holding nothing",
        "choice",
        "refuse",
        "Reading: a Disarm forces the target to drop a weapon or item, and deals 1 Endurance "
        "damage (SCP-22); by default it is refused against a figure with nothing to drop, or "
        "it is allowed and a hit deals only the damage.",
        "R-21",
        Choice.pairs(
            ("refuse", "Refused"), ("damage_only", "Allowed: a hit deals only the damage")
        ),
    ),
    FieldSpec(
        "scp.line_fumbles",
        "Fumble checks along one missile's line",
        "choice",
        "first",
        "Reading: each figure on a missile's line gets its own Strike Check (SCP-12), and a 99 "
        "or 100 calls for a fumble check (SCP-30); by default one missile makes at most one "
        "fumble check, on its first 99 or 100; or every 99 or 100 on the line makes one.",
        "R-22",
        Choice.pairs(("first", "At most one, on the first 99 or 100"), ("each", "One for each")),
    ),
)
"""The options that are this implementation's own readings (R-*), where the text and the
spec are both silent; ``DOC_NOTES`` say which reading is the default and why."""

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "scp.entangle_damage",
        "Entangle damage",
        "choice",
        "d10-4 min 0",
        'The text prints "D104": a lost minus sign. Default D10 - 4, at least 0.',
        "A-1",
        Choice.pairs(("d10-4 min 0", "D10 - 4, at least 0"), ("d10+4", "D10 + 4")),
    ),
    FieldSpec(
        "scp.shield_rush_damage",
        "Shield Rush damage",
        "choice",
        "d10-2 min 0",
        'The text prints "D10 2". Default D10 - 2, at least 0.',
        "A-2",
        Choice.pairs(("d10-2 min 0", "D10 - 2, at least 0"), ("d10+2", "D10 + 2")),
    ),
    FieldSpec(
        "scp.fumble_threshold",
        "Fumble threshold",
        "choice",
        "3xMD",
        "After a 99 or 100 a second D100 at or under this avoids the misfortune. The text "
        "says both 3 x MD and MD (I-2).",
        "A-3, I-2",
        Choice.pairs(("3xMD", "3 x modified MD"), ("MD", "modified MD")),
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
        Choice.pairs(("melee", "Melee only"), ("melee_close", "Melee and Close")),
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
        Choice.pairs(("max_prepared", "Highest prepared weapon or shield"), ("primary", "Primary")),
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
        Choice.pairs(("arc120", "Front 120-degree arc"), ("half180", "Front half")),
    ),
    FieldSpec(
        "scp.engaged_rule",
        "Engaged figures",
        "choice",
        "zone",
        "Default: sharing a hex with a hostile, or adjacent with either in the other's Melee "
        "Zone. 'Adjacent': any adjacent hostile.",
        "A-12",
        Choice.pairs(("zone", "Same hex or a Melee Zone contact"), ("adjacent", "Any adjacent")),
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
        Choice.pairs(
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
        Choice.pairs(("unarmed", "Unarmed Combat Rank"), ("none", "No MD or Rank")),
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
        Choice.pairs(("rise", "Rise"), ("all", "Rise, move or attack")),
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
        Choice.pairs(
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
        Choice.pairs(("any", "Any restrainer is hurt from outside"), ("all", "Every restrainer")),
    ),
    FieldSpec(
        "scp.bystander_check",
        "Figures along a line of fire",
        "choice",
        "same_sc",
        "Each figure in the path is checked with the same Strike Chance minus its own DR.",
        "A-24",
        Choice.pairs(("same_sc", "Same SC, own DR"), ("target_msc", "The target's MSC")),
    ),
    FieldSpec(
        "scp.tie_check_order",
        "Two figures tied on a line of fire",
        "choice",
        "clockwise_first",
        "Where the line runs along a hexside, the hex clockwise of the shooter-target line is "
        "checked first.",
        "A-24",
        Choice.pairs(("clockwise_first", "Clockwise first"), ("counter_first", "Counterclockwise")),
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
        Choice.pairs(("ft_then_en", "Fatigue, then Endurance"), ("en_only", "Endurance only")),
    ),
    FieldSpec(
        "scp.horsemanship_check",
        "Horsemanship Check",
        "choice",
        "3ag_10rank",
        "Placeholder: D100 at or under 3 x AG + 10 x Horsemanship Rank.",
        "A-28",
        Choice.pairs(
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
        Choice.pairs(("defender", "Favour the defender"), ("attacker", "Favour the attacker")),
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
        Choice.pairs(("allow_adjacent", "Allowed"), ("not_adjacent", "Not adjacent, as SCP-3")),
    ),
    FieldSpec(
        "scp.two_handed_multi",
        "Two-handed weapons and multiple strikes",
        "choice",
        "needs_form",
        "A two-handed weapon below the high Rank fits no strike form and gives none.",
        "I-11",
        Choice.pairs(
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
