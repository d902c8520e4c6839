"""Options, figure fields and the phase of ``combat-speed-phase``.

Every option is a proposed default of ``shared/rules/combat-speed-phase.md`` §6
(``rule`` names its gap, C-n) or, where the text and the spec are both silent,
our own reading (``rule`` R-n, listed in :data:`READINGS`).
"""

from __future__ import annotations

from hexcombat.rulesets.common.stats import FlagStat, IntStat, TextStat
from hexcombat.schema import Choice, FieldSpec
from hexcombat.time import StepDef, Time

RESOLVERS = ("none", "gm", "skirmish")
"""``csp.combat_resolver`` (C-1): the ruleset runs movement-only (the default), the GM
enters each strike's outcome, or a landed ruleset's resolution is borrowed."""

READINGS: dict[str, str] = {
    "R-1": "How many strikes a figure makes in a phase (the text's combat chapter is missing).",
    "R-2": "Whether the phase at Combat Speed before stopping must enter a hex.",
    "R-3": "Hit points and statuses of a GM's ruling (the text has neither).",
    "R-4": "How long a facing or direction change takes inside a half-phase's ticks (C-11).",
    "R-5": "Whether a change begun in a phase's second half may finish in the next phase (C-10).",
    "R-6": "How figures are moving when an encounter starts (the example starts them still).",
    "R-7": "When a strike's damage and status take effect (the combat chapter is missing).",
}
"""Our own readings where the text and the spec are both silent (option ``rule`` R-n)."""

DOC_NOTES = (
    '`csp.combat_resolver` (C-1) defaults to `"none"`, movement only: the text has no '
    'combat resolution ("their fight will be continued in Chapter 6", which is missing) '
    "and the spec's C-1 proposes running movement-only. The alternatives stay options: "
    '`"gm"` (the rules check reach, arc and impairment and the GM enters each strike\'s '
    'outcome) and `"skirmish"` (skirmish\'s d20 to-hit and damage roll, borrowed).',
    '`csp.half_phase_stop` (C-4) defaults to `"keeps_motion"`, the spec\'s reading: only a '
    "phase with no hex entered is a standstill, and its E-1 calls 'F, stop, then change "
    "and B in the second half' illegal for CS 3, so a stop inside a phase cannot make a "
    'change of direction free. `"standstill"` reads the text\'s "starting to move from a '
    'stationary position or stopping is free" as applying to a stop in the first half too.',
)
"""Notes for docs/rules/combat-speed-phase.md on the defaults chosen (tests/rules/coverage.py)."""

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "csp.combat_resolver",
        "Who resolves a strike",
        "choice",
        "none",
        "The text has no combat resolution (its Chapter 6 is missing; it ends 'their fight "
        "will be continued in Chapter 6'). Default, as the spec's C-1: movement only, no "
        "strikes. 'GM': the rules check reach, arc and impairment, and the GM enters each "
        "strike's outcome (hit or miss, damage, status). 'Skirmish' borrows the skirmish "
        "ruleset's d20 to-hit and damage roll.",
        "C-1",
        Choice.pairs(
            ("none", "Movement only: no strikes"),
            ("gm", "The GM enters the outcome"),
            ("skirmish", "Borrow skirmish's d20 to-hit and damage"),
        ),
    ),
    FieldSpec(
        "csp.fast_move_penalty",
        "Striking while impaired (N > 1)",
        "choice",
        "hook_no_shield",
        "Above Combat Speed weapons and shields 'cannot be used effectively'. Default: an "
        "impaired figure may strike with the resolver's penalty, and its shield gives no "
        "defence; the alternative bars its strikes.",
        "C-2",
        Choice.pairs(
            ("hook_no_shield", "May strike with a penalty; no shield"),
            ("no_attack_no_shield", "No strikes; no shield"),
        ),
    ),
    FieldSpec(
        "csp.impaired_penalty",
        "Impaired to-hit penalty (borrowed resolution)",
        "int",
        -4,
        "Section 6.1 with the real penalty is missing: this placeholder is added to a borrowed "
        "to-hit roll of an impaired striker. The GM's own rulings are not affected.",
        "C-2",
        minimum=-20,
        maximum=0,
        house_default=True,
    ),
    FieldSpec(
        "csp.shield_bonus",
        "Shield defence (borrowed resolution)",
        "int",
        1,
        "Placeholder added to the target's Defence in a borrowed roll when it carries a shield "
        "and is not impaired (C-2).",
        "C-2",
        minimum=0,
        maximum=10,
        house_default=True,
    ),
    FieldSpec(
        "csp.facing_cost",
        "Cost of a facing change",
        "choice",
        "per_hexside",
        "Default: each hexside turned costs N hexes (a two-hexside turn at N = 1 costs 2); "
        "'per change' charges N once for any turn.",
        "C-3",
        Choice.pairs(("per_hexside", "N per hexside"), ("per_change", "N per change")),
    ),
    FieldSpec(
        "csp.direction_memory_across_phases",
        "Direction of motion carries across phases",
        "bool",
        True,
        "Default: a change of direction is charged against the last step even when that step "
        "was in the previous phase; only a phase with no hex entered clears it. Off: the "
        "first step of every phase is free.",
        "C-4",
    ),
    FieldSpec(
        "csp.half_phase_stop",
        "A stop in the first half-phase",
        "choice",
        "keeps_motion",
        "A figure that stops before its first half is spent (hexes of it unused, or stopped "
        "by another figure). Default, as the spec's C-4: it keeps its direction of motion, so "
        "starting the second half backward is a change of direction. 'Standstill': it has "
        "stopped, and 'starting to move from a stationary position ... is free', so its "
        "first step of the second half carries no change of direction.",
        "C-4",
        Choice.pairs(
            ("keeps_motion", "Keeps its direction of motion"),
            ("standstill", "Stands still: the second half starts free"),
        ),
    ),
    FieldSpec(
        "csp.forward_dirs",
        "Forward for the 6 x CS limit",
        "choice",
        "F",
        "Default: only the facing direction is forward; the front oblique directions count "
        "as oblique (2 x CS).",
        "C-5",
        Choice.pairs(
            ("F", "Only straight ahead (F)"), ("F_FL_FR", "Straight ahead and front obliques")
        ),
    ),
    FieldSpec(
        "csp.mixed_direction_rule",
        "Backward and oblique steps at speed",
        "choice",
        "n_at_most_2",
        "Default: a phase with any backward or oblique step has N at most 2, so N >= 3 is "
        "all-forward. 'Count hexes': any N, but at most 2 x CS backward or oblique hexes "
        "in a phase.",
        "C-6",
        Choice.pairs(
            ("n_at_most_2", "Only at N <= 2"),
            ("count_hexes", "At most 2 x CS such hexes a phase"),
        ),
    ),
    FieldSpec(
        "csp.speed_basis",
        "A phase counts as fast by",
        "choice",
        "declared",
        "Default: the declared N says whether a phase was fast (acceleration, deceleration). "
        "'Moved': N = hexes entered / CS rounded up. Impairment and turn costs always use the "
        "declared N.",
        "C-7",
        Choice.pairs(("declared", "The declared N"), ("moved", "The hexes entered")),
    ),
    FieldSpec(
        "csp.cs_phase_rule",
        "A phase at Combat Speed is",
        "choice",
        "moved_at_least_1",
        "What qualifies a figure to run (CSP-13) or to stop after running (CSP-16). Default: "
        "N = 1 and at least 1 hex entered; strict: exactly CS hexes entered.",
        "C-8",
        Choice.pairs(
            ("moved_at_least_1", "N = 1, at least 1 hex"), ("exactly_cs", "Exactly CS hexes")
        ),
    ),
    FieldSpec(
        "csp.turn_cost_split",
        "A turn costing more than the half has left",
        "choice",
        "span",
        "Default: a facing or direction change may start in the first half and take the rest "
        "of its cost from the start of the second (so a CS 1 figure at N = 2 can turn). 'No "
        "borrow': it must fit in the half where it starts.",
        "C-10",
        Choice.pairs(
            ("span", "Finishes in the second half"), ("no_borrow", "Must fit in its half")
        ),
    ),
    FieldSpec(
        "csp.turn_into_next_phase",
        "A turn may finish in the next phase",
        "bool",
        False,
        "A facing or direction change that costs more than the second half has left. Default "
        "(off): it must fit, as what is left of a phase ends with it. On (with 'Finishes in the "
        "second half'): it may take the rest from the start of the next phase, at most half a "
        "phase at Combat Speed (CS/2 rounded up), and the figure may not stand still in that "
        "phase. Our reading (R-5).",
        "R-5",
    ),
    FieldSpec(
        "csp.collision_rule",
        "Two figures into one hex",
        "choice",
        "stop",
        "Inside a half-phase figures take their steps together, one hex of movement a tick. "
        "Default: a step into a hex that is held, or that another figure enters on the same "
        "tick, is cancelled and that figure's movement for the half ends. 'Faster first': "
        "the figure with the higher N (then the higher CS) goes on.",
        "C-11",
        Choice.pairs(("stop", "Both stop"), ("priority", "The faster figure goes on")),
    ),
    FieldSpec(
        "csp.tick_timing",
        "Time a turn takes in a half-phase",
        "choice",
        "per_hex",
        "Figures move together tick by tick (C-11); the text does not say how long a facing "
        "or direction change takes. Default: one tick per hex of movement spent, so a turn "
        "costing N hexes holds the figure N ticks (also the part of a turn finished at the "
        "start of the second half, C-10). 'One tick a step': entering a hex or a turn, "
        "whatever it costs, takes one tick. Our reading (R-4).",
        "R-4",
        Choice.pairs(
            ("per_hex", "One tick per hex of movement spent"),
            ("per_step", "One tick a step, whatever it costs"),
        ),
    ),
    FieldSpec(
        "csp.reach_reading",
        "Weapon reach R",
        "choice",
        "up_to",
        "Default: a reach 2 ('2+') weapon strikes targets 1 or 2 away, a reach 1 weapon only "
        "adjacent ones. 'Exactly': only at its reach.",
        "C-13",
        Choice.pairs(("up_to", "From 1 up to R"), ("exact", "Exactly R")),
    ),
    FieldSpec(
        "csp.attack_arc",
        "Strikes need the target in",
        "choice",
        "arc120",
        "Default: the 120° front arc of the striker.",
        "C-13",
        Choice.pairs(
            ("arc120", "The 120° front arc"), ("half180", "The front half"), ("any", "Any")
        ),
    ),
    FieldSpec(
        "csp.narrative_distance",
        "Hexes separating two figures",
        "choice",
        "distance",
        "How 'hexes separating the two' and weapon reach are counted. Default: hex distance "
        "(the worked example needs it); 'gap': the hexes between them (distance - 1).",
        "C-17",
        Choice.pairs(("distance", "Hex distance"), ("gap", "Hexes between")),
    ),
    FieldSpec(
        "csp.starting_motion",
        "Figures start the encounter",
        "choice",
        "still",
        "The text's example starts from a standstill (the guard runs only 'after a phase "
        "moving at his Combat Speed'); other encounters may start mid-chase. Default: standing "
        "still, so a phase at Combat Speed comes before running (CSP-13). 'At Combat Speed': "
        "each has just moved forward at Combat Speed, so it may run or stop in phase 1 and a "
        "first step backward is a change of direction (C-4). 'Running': each has just run "
        "forward, so it may not stop in phase 1 (CSP-16). Our reading (R-6).",
        "R-6",
        Choice.pairs(
            ("still", "Standing still"),
            ("combat_speed", "Moving forward at Combat Speed"),
            ("running", "Running forward"),
        ),
    ),
    FieldSpec(
        "csp.strikes_per_phase",
        "Strikes per phase",
        "int",
        1,
        "How many strikes a figure may make in a phase's combat step. The text has no combat "
        "chapter; our reading (R-1).",
        "R-1",
        minimum=1,
        maximum=4,
        house_default=True,
    ),
    FieldSpec(
        "csp.hit_points",
        "Hit points",
        "choice",
        "track",
        "The text has no damage. Default: each figure has its own hit points (its Hit points "
        "field, 10 for a new figure); a strike's damage takes them off and at 0 it is down. "
        "'None': no hit points; the GM rules a hit's status and only 'down' takes a figure "
        "out (a borrowed roll deals damage, so it needs the default). Our reading (R-3).",
        "R-3",
        Choice.pairs(
            ("track", "Each figure's own; down at 0"),
            ("none", "None: the GM rules who is down"),
        ),
    ),
    FieldSpec(
        "csp.strike_effects",
        "A strike's damage and status take effect",
        "choice",
        "at_once",
        "The text's combat chapter is missing, so it does not say whether a phase's strikes "
        "are simultaneous. Default: as each strike is logged, so a figure downed first cannot "
        "strike back this phase. 'At the end of combat': every strike of the phase lands "
        "together when the combat step ends, so a figure struck down still strikes this phase "
        "and the order strikes are entered in changes nothing. Our reading (R-7).",
        "R-7",
        Choice.pairs(
            ("at_once", "At once, as each strike is logged"),
            ("end_of_combat", "Together at the end of the combat step"),
        ),
    ),
    FieldSpec(
        "csp.slowing_phase_must_move",
        "The slowing phase must enter a hex",
        "bool",
        True,
        "After a fast phase a figure must spend a phase at Combat Speed before stopping "
        "(CSP-16). Default: in that phase it must enter at least one hex when it can (a plan "
        "that leaves it without one is refused in its last half). Our reading (R-2).",
        "R-2",
    ),
)

# Figure stats, each read through its typed reader (hexcombat/rulesets/common/stats.py).
CS = IntStat(
    FieldSpec(
        "cs",
        "Combat Speed (CS)",
        "int",
        3,
        "Hexes per phase at full combat capability (CSP-1); running reaches 6 x CS (CSP-2).",
        "CSP-1",
        minimum=1,
        maximum=12,
    ),
    fallback=1,
)
ON_KNEES = FlagStat(
    FieldSpec(
        "on_knees",
        "On its knees",
        "bool",
        False,
        "A leg or hip disability forces it to move on its knees: N is at most 1 (CSP-12).",
        "CSP-12",
    ),
)
SHIELD = FlagStat(
    FieldSpec(
        "shield",
        "Carries a shield",
        "bool",
        False,
        "A shield gives no defence while its bearer is impaired (CSP-3, C-2).",
        "C-2",
    ),
    truthy=True,
)
HP = IntStat(
    FieldSpec(
        "hp",
        "Hit points",
        "int",
        10,
        "The text has no damage: a GM's ruling or a borrowed roll takes damage off these "
        "(R-3). At 0 the figure is down. Unused when the option 'Hit points' is 'None'.",
        "R-3",
        minimum=1,
        maximum=999,
        house_default=True,
    ),
)
ATTACK = IntStat(
    FieldSpec(
        "attack",
        "Attack (borrowed d20 roll)",
        "int",
        3,
        "Added to the d20 when strikes borrow skirmish's resolution (C-1).",
        "C-1",
        minimum=-5,
        maximum=20,
        house_default=True,
    ),
)
DEFENCE = IntStat(
    FieldSpec(
        "defence",
        "Defence (borrowed d20 roll)",
        "int",
        12,
        "A borrowed d20 to-hit total must reach this (C-1).",
        "C-1",
        minimum=1,
        maximum=30,
        house_default=True,
    ),
)
FIELDS: tuple[FieldSpec, ...] = tuple(s.spec for s in (CS, ON_KNEES, SHIELD, HP, ATTACK, DEFENCE))

# Item stats (the data table ``weapons``, open to overrides).
REACH = IntStat(FieldSpec("reach", "Reach", "int", 1, "Hexes a weapon reaches (CSP-17).", "CSP-17"))
DAMAGE = TextStat(
    FieldSpec("damage", "Damage", "text", "d6", "A borrowed roll's damage dice (C-1).", "C-1")
)

COMBAT_HELP: dict[str, str] = {
    "none": "Movement only: nobody strikes, as the text has no combat resolution (C-1). Each "
    "figure's panel shows the enemies within its weapons' reach and front arc (CSP-17, C-13).",
    "gm": "Strikes within weapon reach and the front arc (the text's, CSP-17, C-13); the GM "
    "enters each strike's outcome (C-1).",
    "skirmish": "Strikes within weapon reach and the front arc (the text's, CSP-17, C-13); each "
    "strike rolls the skirmish ruleset's d20 to hit, then its damage (borrowed, C-1).",
}
"""The combat step's help for each ``csp.combat_resolver`` (C-1)."""

TIME = Time(
    ("phase", "half-phase"),
    (
        StepDef(
            "declare",
            "Declare speed",
            "declare",
            help="Each figure secretly declares its speed multiple N for the phase (0 stands "
            "still, 1 is Combat Speed, up to 6 running forward); all are revealed together.",
            rule="CSP-8, C-7",
            unit="phase",
        ),
        StepDef(
            "move",
            "Movement",
            "move",
            help="Everyone plans this half-phase's move in secret (first half: half the phase's "
            "hexes, rounded up; second half: the rest); all moves run together when the last "
            "plan is in. Turning or changing direction costs N hexes.",
            rule="CSP-9, CSP-10",
        ),
        StepDef(
            "combat",
            "Combat",
            "act",
            help=COMBAT_HELP["none"],  # the default's; each encounter words its own (C-1)
            rule="CSP-17, C-1, C-13",
            unit="phase",
        ),
    ),
)
