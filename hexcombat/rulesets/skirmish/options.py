"""``skirmish`` options, figure fields and time: what an encounter may set and the round's steps."""

from __future__ import annotations

from hexcombat.geometry import DIRECTION_SHORT
from hexcombat.rulesets.common import IntStat, TextStat
from hexcombat.schema import Choice, FieldSpec
from hexcombat.time import StepDef, Time

FACINGS = tuple(Choice(i, label) for i, label in enumerate(DIRECTION_SHORT))

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "skirmish.stacking",
        "Figures per hex",
        "int",
        1,
        "How many figures may share a hex.",
        minimum=1,
        maximum=4,
    ),
    FieldSpec(
        "skirmish.rear_bonus",
        "Rear attack bonus",
        "int",
        2,
        "Added to an attack made from one of the target's rear hexes.",
        minimum=0,
        maximum=10,
    ),
)

# Figure stats, each read through its typed reader; the fallback is what a document's
# figure without the stat reads as.
MOVE = IntStat(
    FieldSpec("move", "Move", "int", 4, "Movement points per round.", minimum=0, maximum=20),
    fallback=0,
)
ATTACK = IntStat(
    FieldSpec(
        "attack", "Attack", "int", 3, "Added to the d20 attack roll.", minimum=-5, maximum=20
    ),
    fallback=0,
)
DEFENCE = IntStat(
    FieldSpec(
        "defence",
        "Defence",
        "int",
        12,
        "An attack total must reach this to hit.",
        minimum=1,
        maximum=30,
    ),
    fallback=1,
)
HP = IntStat(
    FieldSpec("hp", "Hit points", "int", 10, "Damage the figure can take.", minimum=1, maximum=200),
    fallback=1,
)
DAMAGE = TextStat(
    FieldSpec("damage", "Damage dice", "text", "d6", "Dice rolled for damage on a hit."),
    fallback="d6",
)
FIELDS: tuple[FieldSpec, ...] = tuple(s.spec for s in (MOVE, ATTACK, DEFENCE, HP, DAMAGE))

TIME = Time(
    ("round",),
    (
        StepDef(
            "move", "Movement", "move", help="Each figure may move once, paying terrain costs."
        ),
        StepDef("attack", "Attacks", "act", help="Each figure may attack one adjacent enemy once."),
    ),
)
