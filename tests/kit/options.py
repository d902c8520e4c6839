"""Options, figure fields and time of the test-only ``kit-duel`` ruleset (step 3 of
docs/dev/adding-a-ruleset.md).

Every option names the gap (G-*) it settles, as a real ruleset's options do.
"""

from __future__ import annotations

from hexcombat.rulesets.common import IntStat, TextStat
from hexcombat.schema import FieldSpec
from hexcombat.time import StepDef, Time

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "kit.block_bonus",
        "Block bonus",
        "int",
        2,
        "Added to the defender's total when it blocks (KIT-6).",
        "G-1",
        minimum=0,
        maximum=6,
    ),
    FieldSpec(
        "core.stacking",
        "Figures per hex",
        "int",
        2,
        "How many figures may share a hex (KIT-9).",
        "G-2",
        minimum=1,
        maximum=3,
    ),
)

# Figure stats, each declared once and read through its typed reader (SKILL(figure) -> int).
SKILL = IntStat(
    FieldSpec(
        "skill", "Skill", "int", 3, "Added to the attack roll (KIT-5).", minimum=0, maximum=9
    ),
    fallback=0,
)
DEFENCE = IntStat(
    FieldSpec(
        "defence", "Defence", "int", 3, "Added to the defence roll (KIT-5).", minimum=0, maximum=9
    ),
    fallback=0,
)
HP = IntStat(
    FieldSpec("hp", "Hit points", "int", 8, "Damage the figure can take (KIT-7).", minimum=1),
    fallback=1,
)
WEAPONS = TextStat(
    FieldSpec(
        "weapons",
        "Weapons",
        "text",
        "sword",
        "Comma-separated weapon names of the data table (KIT-4).",
        house_default=True,
    ),
    fallback="",
    reads="filled",
)
FIELDS: tuple[FieldSpec, ...] = tuple(s.spec for s in (SKILL, DEFENCE, HP, WEAPONS))

TIME = Time(
    ("round", "pass"),
    (
        StepDef(
            "stance",
            "Stances",
            "declare",
            "Everyone picks a stance in secret: press or cede the initiative.",
            "KIT-1",
            unit="round",
        ),
        StepDef(
            "strike",
            "Strikes",
            "act",
            "One figure at a time in strike order: strike or wait.",
            "KIT-2",
        ),
    ),
)
PASSES = 2
"""Passes of strikes in a round (KIT-8)."""
