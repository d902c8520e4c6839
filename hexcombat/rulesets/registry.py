"""The ruleset registry: every ruleset the engine knows, by id, imported when first used.

The registry knows every built-in ruleset up front by a light :class:`RulesetEntry` (id,
name, summary, the module that defines it) and imports that module only when the ruleset
is first asked for (:func:`get_ruleset`), so a program that opens one encounter imports
one ruleset. :func:`all_rulesets` imports them all (the CLI, the tests, the new-encounter
form's full views); :func:`ruleset_entries` lists them without importing any.

A ruleset module registers its class with :func:`register` when it is imported (a
ruleset that is not built in, say a test build's extra one, is listed from then on).
Ruleset modules import this module, never the package, so there is no import cycle
between the registry and the rulesets; the modules are imported by name here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from hexcombat.errors import UnknownRulesetError
from hexcombat.rulesets.base import Ruleset


@dataclass(frozen=True)
class RulesetEntry:
    """What the registry knows of a ruleset without importing it."""

    id: str
    name: str
    summary: str
    module: str
    starter: bool = False


# The built-in rulesets, in the order the app lists them in. ``register`` checks that each
# class says the same (id, name, summary, starter), so this table cannot drift from them.
BUILT_IN: tuple[RulesetEntry, ...] = (
    RulesetEntry(
        "skirmish",
        "Skirmish (engine demo)",
        "Minimal built-in rules: move with terrain costs, then a d20 melee attack.",
        "hexcombat.rulesets.skirmish",
        starter=True,
    ),
    RulesetEntry(
        "fig-percentile",
        "FIG percentile",
        "Movement from the Fighting Attribute (FIG/10 hexes at top speed after a round at "
        "FIG/20), to-hit penalties from both opponents' combined speed, range bands on a "
        "10-yard hex, and a D100 roll at or under skill plus modifiers.",
        "hexcombat.rulesets.fig_percentile",
    ),
    RulesetEntry(
        "strike-chance-pulse",
        "Strike Chance, Pulses",
        "Pulses in which engaged figures act first; Strike Chance = Base + MD + 4 x Rank minus "
        "the target's Defense Rating, D100 at or under it hits; missiles checked against every "
        "figure on their line; six special attacks, parry and riposte, unarmed and mounted "
        "combat, infection after combat.",
        "hexcombat.rulesets.strike_chance_pulse",
    ),
    RulesetEntry(
        "combat-speed-phase",
        "Combat Speed and phases",
        "Each phase every figure secretly declares a multiple N of its Combat Speed (up to 6 "
        "forward, 2 backward or oblique, 1 on its knees); all move together in two half-phases "
        "(first half rounded up); turning or changing direction costs N hexes; a phase at "
        "Combat Speed comes before running and before stopping; above it weapons and shields "
        "are impaired. The text's rules stop at weapon reach and arc: movement only by "
        "default; as options the GM enters each strike's outcome, or a landed ruleset's roll "
        "is borrowed.",
        "hexcombat.rulesets.combat_speed_phase",
    ),
    RulesetEntry(
        "two-action-2d10",
        "Two actions, 2d10",
        "Two hidden actions a round (or both on one: 3d10 keep two); 2d10 + skill + weapon "
        "against defence; strike order by weapon; Parry, Block, Dodge; hit and body points.",
        "hexcombat.rulesets.two_action_2d10",
    ),
)

_ENTRIES: dict[str, RulesetEntry] = {entry.id: entry for entry in BUILT_IN}
_REGISTRY: dict[str, Ruleset] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make a ruleset available by its id."""
    if cls.id in _REGISTRY:
        raise ValueError(f"a ruleset with id {cls.id!r} is already registered")
    entry = _ENTRIES.get(cls.id)
    if entry is None:
        _ENTRIES[cls.id] = RulesetEntry(
            cls.id, cls.name, cls.summary, cls.__module__, starter=cls.starter
        )
    elif (entry.name, entry.summary, entry.starter) != (cls.name, cls.summary, cls.starter):
        raise ValueError(
            f"ruleset {cls.id!r}: the registry's entry (hexcombat/rulesets/registry.py) "
            "does not match the class's name, summary or starter"
        )
    _REGISTRY[cls.id] = cls()
    return cls


def ruleset_entries() -> list[RulesetEntry]:
    """Every known ruleset's light entry, in listing order; imports no ruleset."""
    return list(_ENTRIES.values())


def is_loaded(ruleset_id: str) -> bool:
    """Whether the ruleset's module has been imported (registered) yet."""
    return ruleset_id in _REGISTRY


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset known as ``ruleset_id``, importing its module the first time
    (UnknownRulesetError listing the known ids)."""
    found = _REGISTRY.get(ruleset_id)
    if found is not None:
        return found
    entry = _ENTRIES.get(ruleset_id)
    if entry is None:
        known = ", ".join(_ENTRIES)
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r}; known rulesets: {known}"
        ) from None
    importlib.import_module(entry.module)
    found = _REGISTRY.get(ruleset_id)
    if found is None:
        raise UnknownRulesetError(
            f"ruleset {ruleset_id!r}: importing {entry.module} did not register it"
        )
    return found


def all_rulesets() -> list[Ruleset]:
    """Every known ruleset, in listing order (imports those not imported yet)."""
    ids = [*_ENTRIES, *(i for i in _REGISTRY if i not in _ENTRIES)]  # and any put in by hand
    return [get_ruleset(ruleset_id) for ruleset_id in ids]
