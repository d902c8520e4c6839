"""Options, figure fields and the round of ``fig-percentile``.

Every option is a proposed default of ``shared/rules/fig-percentile.md`` §5/§6
that the text leaves open; ``rule`` names the gap (G-*) or inconsistency (I-*).
"""

from __future__ import annotations

from hexcombat.rulesets.common.stats import FlagStat, IntStat, TextStat
from hexcombat.schema import Choice, FieldSpec
from hexcombat.time import StepDef, Time

DOC_NOTES = (
    '`fp.empty_acceleration` (G-11) defaults to `"stopped"`, the spec\'s G-11: a figure '
    "that enters no hex in a round has stopped 'for any reason', and its G-18 keeps a FIG "
    "5-9 figure still while it accelerates; together such a figure never reaches top "
    'speed. `"counts"` is the text\'s "it takes one round to reach top speed": the round '
    "counts though FIG/20 rounds to 0 hexes, and the figure runs 1 hex a round after it.",
    '`fp.turn_policy` (G-12) defaults to `"per_step"`, the spec\'s G-12: "one movement" is '
    "each hex step, so a runner may turn one hexside free before every step (two for 1 "
    'hex). `"per_round"` reads "one movement" as the round\'s move: one such turn in the '
    'whole round. `"free"` lifts the limits.',
)
"""Notes for docs/rules/fig-percentile.md on the defaults chosen (tests/rules/coverage.py)."""

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "fp.hit_comparison",
        "To-hit roll",
        "choice",
        "le",
        'The example says both "needs 59 or lower" and "roll under 23". '
        "Default: at or under the target hits. A target of 0 or less always misses.",
        "G-1",
        Choice.pairs(("le", "At or under the target"), ("lt", "Strictly under the target")),
    ),
    FieldSpec(
        "fp.rounding",
        "Rounding of halves",
        "choice",
        "half_up",
        "How FIG/10, FIG/20 and halved skills round a .5. The example halves 97 to 49, "
        "which needs halves up.",
        "I-2",
        Choice.pairs(
            ("half_up", "Halves round up (97/2 = 49)"), ("half_down", "Halves round down")
        ),
    ),
    FieldSpec(
        "fp.damage_model",
        "Damage",
        "choice",
        "none",
        "The text has no damage rules: by default hits are only recorded. 'Hit points' rolls "
        "each weapon's placeholder damage dice against the figure's hit points.",
        "G-2",
        Choice.pairs(("none", "Record hits only"), ("hp", "Hit points (placeholder damage dice)")),
    ),
    FieldSpec(
        "fp.dodge",
        "Dodge rolls",
        "bool",
        True,
        "A figure with a dodge skill may spend an action to dodge a hit: D100 against its "
        "dodge skill cancels the hit. Allowed only at speed up to half its FIG (FP-10).",
        "G-3",
    ),
    FieldSpec(
        "fp.ready_costs_action",
        "Readying a weapon uses an action",
        "bool",
        False,
        "Default: drawing a weapon costs only the half skill of FP-23, no action, so the "
        "example's Brie can still attack in round 2.",
        "G-5",
    ),
    FieldSpec(
        "fp.cast_requires_stationary",
        "Who may begin a spell",
        "choice",
        "stationary_or_stopping",
        "Default: a caster must not have moved this round, or must declare a stop, as Brie "
        "does in the example's round 3.",
        "G-6",
        Choice.pairs(
            ("stationary_or_stopping", "Stationary, or declaring a stop"),
            ("stationary", "Only a figure that did not move this round"),
            ("no", "Anyone, even while running"),
        ),
    ),
    FieldSpec(
        "fp.melee_reach",
        "Melee reach (hexes)",
        "int",
        1,
        'How far "within striking range" is: 1 is an adjacent hex.',
        "G-8",
        minimum=1,
        maximum=3,
    ),
    FieldSpec(
        "fp.stationary_band",
        "Both stationary",
        "choice",
        "none",
        "The speed bands start at 1, so two stationary figures get no speed modifier by default.",
        "G-10",
        Choice.pairs(("none", "No speed modifier"), ("slow", "Slow (-5)")),
    ),
    FieldSpec(
        "fp.walk_speed",
        "Speed of a walker",
        "choice",
        7,
        "The text gives walking no number. Default: 7 speed points for the hex walked "
        "(two walkers make 14, still Slow); 'Slow band' makes any pair Slow when one walks "
        "and neither runs.",
        "G-11",
        Choice.pairs((7, "7 per hex walked"), ("slow_band", "Slow band whenever one walks")),
    ),
    FieldSpec(
        "fp.empty_acceleration",
        "An acceleration round of 0 hexes",
        "choice",
        "stopped",
        "FIG 5-9 accelerate at FIG/20, which rounds to 0 hexes. Default, as the spec's G-11: "
        "a figure that enters no hex has stopped 'for any reason', so such a figure never "
        "reaches top speed. 'Counts': the text's 'it takes one round to reach top speed' "
        "holds for it too: the round counts and it runs at top speed (1 hex) the next.",
        "G-11",
        Choice.pairs(("stopped", "It has stopped"), ("counts", "It counts: top speed next round")),
    ),
    FieldSpec(
        "fp.turn_policy",
        "Turning limits",
        "choice",
        "per_step",
        "Default, as the spec's G-12: a figure that is not Slow steps into its front hex and "
        "may turn before each hex step: one hexside free, two for 1 hex of movement (FP-9). "
        "'Once a round' reads 'one movement' as the round's: one such turn in the whole "
        "round.",
        "G-12",
        Choice.pairs(
            ("per_step", "Per hex step (FP-9)"),
            ("per_round", "Once a round"),
            ("free", "No turning limits"),
        ),
    ),
    FieldSpec(
        "fp.terrain_reduces_speed",
        "Terrain lowers speed",
        "bool",
        False,
        'The text calls costly terrain a "-10" or "-20 penalty to movement". Default: '
        "terrain costs movement points only. On: the movement cost stays, and the figure's "
        "speed this round drops by 10 for each extra movement point it actually spent on "
        "terrain (woods -10, deep snow -20, summed over the hexes entered), never below 0.",
        "G-13",
    ),
    FieldSpec(
        "fp.tree_cover_modifier",
        "One heavy-tree hex in between",
        "int",
        0,
        "To-hit modifier when exactly one heavy-tree hex lies between the figures. The "
        "text gives none.",
        "G-16",
        minimum=-30,
        maximum=0,
    ),
    FieldSpec(
        "fp.terrain_entry",
        "Entering costly terrain",
        "choice",
        "need_full_cost",
        "Default: a hex costing more than the points left cannot be entered and the rest "
        "is wasted. 'Literal' stops only a figure with exactly 1 point left.",
        "G-17",
        Choice.pairs(
            ("need_full_cost", "Need the full cost"),
            ("literal_one_left", "Only 1 point left stops entry"),
        ),
    ),
    FieldSpec(
        "fp.min_one_hex_move",
        "Slow figures can enter costly terrain",
        "bool",
        True,
        "A figure whose top speed is below a hex's cost could never enter it. Default: it "
        "may enter one such adjacent hex with its whole allowance, then stops.",
        "G-18",
    ),
    FieldSpec(
        "fp.round_order",
        "Results in the action step",
        "choice",
        "simultaneous",
        "Every figure chooses its action hidden; the choices are revealed together and rolled "
        "in setup order from the positions after movement. Default: all results apply "
        "together, so a figure taken out still makes its chosen attack. 'One by one': a "
        "figure taken out loses the rolls it has not made.",
        "G-19",
        Choice.pairs(("simultaneous", "All together"), ("sequential", "One by one")),
    ),
    FieldSpec(
        "fp.unreleased_spell",
        "A finished spell not released",
        "choice",
        "kept",
        "The text only says the caster 'can cast it' once the casting round is over. "
        "Default: the spell stays ready until released in a later action step; it is lost "
        "if the caster readies a weapon or begins another spell.",
        "G-26",
        Choice.pairs(
            ("kept", "Kept until released"),
            ("lost_after_next_step", "Lost after the next action step"),
        ),
    ),
    FieldSpec(
        "fp.figures_block_los",
        "Figures block line of sight",
        "bool",
        False,
        "Default: figures on the line of fire neither block it nor give a penalty.",
        "G-22",
    ),
    FieldSpec(
        "fp.turn_speed_basis",
        "Whose speed makes turning free",
        "choice",
        "own",
        "Default: a figure turns freely when its own speed is below 15 (Slow); "
        "'combined': when its combined speed with every opponent is Slow.",
        "G-23",
        Choice.pairs(("own", "Its own speed"), ("combined", "Combined with each opponent")),
    ),
    FieldSpec(
        "fp.range_band_distance",
        "Range bands count",
        "choice",
        "distance",
        "Default: the hex distance (\"4-6 hexes away\"); 'gap' counts the hexes between "
        "the figures.",
        "G-24",
        Choice.pairs(("distance", "Hex distance"), ("gap", "Hexes between")),
    ),
    FieldSpec(
        "fp.spells_as_ranged",
        "Spells count as ranged weapons",
        "bool",
        True,
        "Default: spell attacks need line of sight and get all three range bands, Point "
        "Blank +5 included.",
        "G-25",
    ),
    FieldSpec(
        "fp.combined_speed_unit",
        "Combined speed measured in",
        "choice",
        "points",
        "The example adds speed points (29/2 + 52/2 = 40.5). 'Hexes' adds hexes per round "
        "with the hex limits of the band table.",
        "I-4",
        Choice.pairs(("points", "Speed points"), ("hexes", "Hexes per round")),
    ),
    FieldSpec(
        "core.stacking",
        "Figures per hex",
        "int",
        1,
        "How many figures may share a hex. Sharing allows Point Blank and melee in the same hex.",
        "G-21",
        minimum=1,
        maximum=4,
    ),
    FieldSpec(
        "core.los_tie_policy",
        "Sight along a hexside",
        "choice",
        "both_must_block",
        "When a line of sight runs exactly between two hexes: default, it is blocked only "
        "if both block (a pair of tree hexes counts once).",
        "G-15",
        Choice.pairs(("both_must_block", "Both must block"), ("either_blocks", "Either blocks")),
    ),
    FieldSpec(
        "core.hidden_declarations",
        "Hidden declarations",
        "bool",
        True,
        "Declarations and planned moves stay secret until every figure has made its own.",
        "G-19",
    ),
)

# Figure stats, each read through its typed reader (hexcombat/rulesets/common/stats.py).
FIG = IntStat(
    FieldSpec(
        "fig",
        "Fighting Attribute (FIG)",
        "int",
        30,
        "Sets movement (FIG/10 hexes at top speed, FIG/20 accelerating) and speed.",
        minimum=1,
        maximum=200,
    ),
    fallback=0,
)
MAX_ACTIONS = IntStat(
    FieldSpec(
        "max_actions",
        "Actions per round",
        "int",
        1,
        "Attacks, reloads, spell releases and dodges per round (FP-24). The text gives "
        "no source for it (G-4).",
        minimum=1,
        maximum=5,
        house_default=True,
    ),
    fallback=1,
)
DODGE_SKILL = IntStat(
    FieldSpec(
        "dodge_skill",
        "Dodge skill (%)",
        "int",
        0,
        "D100 at or under this cancels a hit (G-3). 0: the figure does not dodge.",
        minimum=0,
        maximum=100,
        house_default=True,
    ),
    fallback=0,
)
HP = IntStat(
    FieldSpec(
        "hp",
        "Hit points",
        "int",
        20,
        "Used only with the 'Hit points' damage option (G-2).",
        minimum=1,
        maximum=999,
        house_default=True,
    ),
    fallback=1,
)
FIELDS: tuple[FieldSpec, ...] = tuple(s.spec for s in (FIG, MAX_ACTIONS, DODGE_SKILL, HP))

# Item stats (the data tables ``weapons`` and ``spells``, open to overrides).
SKILL = TextStat(FieldSpec("skill", "Skill", "text", "", "The skill the item uses."), reads="text")
ATTACK_KIND = TextStat(
    FieldSpec("attack", "Attack", "text", "", "A weapon's attack: melee or ranged."), reads="text"
)
DAMAGE = TextStat(FieldSpec("damage", "Damage", "text", "", "Damage dice."), reads="text")
MAX_RANGE_YARDS = IntStat(FieldSpec("max_range_yards", "Maximum range (yards)", "int", 0))
RELOAD_ROUNDS = IntStat(FieldSpec("reload_rounds", "Rounds to reload", "int", 0))
CAST_ROUNDS = IntStat(FieldSpec("cast_rounds", "Rounds to cast", "int", 1))
REQUIRES_LOS = FlagStat(
    FieldSpec("requires_los", "Needs a line of sight", "bool", True, rule="FP-15"), fallback=True
)

TIME = Time(
    ("round",),
    (
        StepDef(
            "declare",
            "Declarations",
            "declare",
            help="Each figure declares how it moves this round (stay, walk or run) and which "
            "weapon it draws.",
            rule="G-19",
        ),
        StepDef(
            "move",
            "Movement",
            "move",
            help="Each figure plans its move within its allowance; all moves happen together "
            "when the step ends.",
            rule="FP-1, FP-2, FP-9",
        ),
        StepDef(
            "stop",
            "Stop or keep running",
            "declare",
            help="Every running figure declares whether it stops at the end of the round; "
            "casters begin their spells.",
            rule="FP-27",
        ),
        StepDef(
            "act",
            "Actions",
            "act",
            help="Attacks and spells from where everyone now stands; the round ends after this.",
            rule="FP-21, FP-24",
        ),
    ),
)
