"""The figure fields and the Pulse of ``strike-chance-pulse`` (options in :mod:`.options`)."""

from __future__ import annotations

from hexcombat.rulesets.common.stats import FlagStat, IntStat, TextsStat, TextStat
from hexcombat.schema import Choice, FieldSpec
from hexcombat.time import StepDef, Time

# Figure stats, each read through its typed reader (hexcombat/rulesets/common/stats.py).
PS = IntStat(
    FieldSpec(
        "ps",
        "Physical Strength (PS)",
        "int",
        14,
        "Used by punches (SCP-43).",
        "SCP-43",
        minimum=1,
        maximum=60,
    ),
    fallback=0,
)
MD = IntStat(
    FieldSpec(
        "md",
        "Modified Manual Dexterity (MD)",
        "int",
        12,
        "Added to Strike Chances (SCP-24).",
        "SCP-24",
        minimum=1,
        maximum=60,
    ),
    fallback=0,
)
AG = IntStat(
    FieldSpec(
        "ag",
        "Modified Agility (AG)",
        "int",
        12,
        "Defense Rating (SCP-37).",
        "SCP-37",
        minimum=1,
        maximum=60,
    ),
    fallback=0,
)
EN = IntStat(
    FieldSpec(
        "en",
        "Endurance (EN)",
        "int",
        15,
        "Original Endurance (SCP-56).",
        "SCP-56",
        minimum=1,
        maximum=200,
    ),
    fallback=0,
)
FT = IntStat(
    FieldSpec(
        "ft",
        "Fatigue (FT)",
        "int",
        20,
        "Damage comes off Fatigue first (A-26).",
        "A-26",
        minimum=0,
        maximum=200,
        house_default=True,
    ),
    fallback=0,
)
TMR = IntStat(
    FieldSpec(
        "tmr",
        "Tactical Movement Rate (TMR)",
        "int",
        4,
        "Hexes per Pulse (A-14 placeholder).",
        "A-14",
        minimum=0,
        maximum=30,
        house_default=True,
    ),
    fallback=0,
)
SIZE = TextStat(
    FieldSpec(
        "size",
        "Size",
        "choice",
        "human",
        "Trip and Knockout need human size or less (A-20).",
        "A-20",
        Choice.pairs(("small", "Small"), ("human", "Human"), ("large", "Large")),
    ),
    fallback="human",
    reads="text",
)
PRIMARY_HAND = TextStat(
    FieldSpec(
        "primary_hand",
        "Primary hand",
        "choice",
        "right",
        "The attack hand (SCP-7) and the shield side (A-30).",
        "SCP-7",
        Choice.pairs(("right", "Right"), ("left", "Left")),
    ),
    fallback="right",
    reads="text",
)
ARMOUR = IntStat(
    FieldSpec(
        "armour",
        "Armour protection",
        "int",
        0,
        "Subtracted from damage (A-26).",
        "A-26",
        minimum=0,
        maximum=20,
        house_default=True,
    ),
    fallback=0,
)
HUMANOID = FlagStat(
    FieldSpec("humanoid", "Humanoid", "bool", True, "Humanoids punch (SCP-43).", "SCP-43"),
    fallback=True,
)
FIELDS: tuple[FieldSpec, ...] = tuple(
    s.spec for s in (PS, MD, AG, EN, FT, TMR, SIZE, PRIMARY_HAND, ARMOUR, HUMANOID)
)

# Item stats (the data tables, open to overrides; ``lies_at``, ``stuck_in`` and ``broken``
# change in play).
BASE_CHANCE = IntStat(FieldSpec("base_chance", "Base Chance", "int", 0, rule="SCP-1"))
RATED = TextsStat(FieldSpec("rated", "Rated for", "text", None, "melee, close, thrown, ..."))
CATEGORIES = TextsStat(FieldSpec("categories", "Categories", "text", None, "natural, ..."))
DAMAGE = TextStat(FieldSpec("damage", "Damage", "text", "d10"), fallback="d10", reads="filled")
SKILL = TextStat(FieldSpec("skill", "Skill", "text", "", "Else the weapon's name."), reads="text")
RANGE_HEXES = IntStat(FieldSpec("range_hexes", "Range (hexes)", "int", 0))
TWO_HANDED = FlagStat(FieldSpec("two_handed", "Two-handed", "bool", False, rule="SCP-14"))
SHIELD_TYPE = TextStat(FieldSpec("type", "Shield type", "text", "", "main_gauche, ..."))
DEFENSE_PER_RANK = IntStat(FieldSpec("defense_per_rank", "Defense per Rank", "int", 0))
BROKEN = FlagStat(FieldSpec("broken", "Broken", "bool", False, "A fumble broke it."))
LIES_AT = TextStat(FieldSpec("lies_at", "Lies at", "hex", None, "The hex a dropped item lies in."))
STUCK_IN = TextStat(
    FieldSpec("stuck_in", "Stuck in", "text", None, "The figure a thrown weapon struck (SCP-12).")
)

TIME = Time(
    ("pulse",),
    (
        StepDef(
            "initiative",
            "Initiative",
            "upkeep",
            help="Each figure rolls initiative when this step ends (D10 + a fifth of AG, "
            "rounded down, A-13).",
            rule="SCP-6, A-13",
        ),
        StepDef(
            "engaged",
            "Engaged combat",
            "act",
            help="Figures engaged with a hostile act first, in initiative order (SCP-6).",
            rule="SCP-6, A-12",
        ),
        StepDef(
            "free",
            "Other figures",
            "act",
            help="Figures that were not engaged act, in initiative order (SCP-6).",
            rule="SCP-6",
        ),
    ),
)
