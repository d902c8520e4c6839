"""The figure fields and the Pulse of ``strike-chance-pulse`` (options in :mod:`.options`)."""

from __future__ import annotations

from ...schema import Choice, FieldSpec
from ...time import StepDef, Time


def _choices(*pairs: tuple[str | int, str]) -> tuple[Choice, ...]:
    return tuple(Choice(value, label) for value, label in pairs)


FIELDS: tuple[FieldSpec, ...] = (
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
    FieldSpec(
        "size",
        "Size",
        "choice",
        "human",
        "Trip and Knockout need human size or less (A-20).",
        "A-20",
        _choices(("small", "Small"), ("human", "Human"), ("large", "Large")),
    ),
    FieldSpec(
        "primary_hand",
        "Primary hand",
        "choice",
        "right",
        "The attack hand (SCP-7) and the shield side (A-30).",
        "SCP-7",
        _choices(("right", "Right"), ("left", "Left")),
    ),
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
    FieldSpec("humanoid", "Humanoid", "bool", True, "Humanoids punch (SCP-43).", "SCP-43"),
)

TIME = Time(
    ("pulse",),
    (
        StepDef(
            "initiative",
            "Initiative",
            "upkeep",
            help="Each figure rolls initiative when this step ends (D10 + AG // 5, A-13).",
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
