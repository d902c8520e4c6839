"""The rulesets: the registry (:mod:`.registry`), which knows every built-in ruleset by a
light entry and imports a ruleset's module (``skirmish``, ``fig_percentile``,
``strike_chance_pulse``, ``combat_speed_phase``, ``two_action_2d10``) only when the
ruleset is first used."""

from __future__ import annotations

from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.registry import (
    RulesetEntry,
    all_rulesets,
    get_ruleset,
    register,
    ruleset_entries,
)

__all__ = [
    "Ruleset",
    "RulesetEntry",
    "all_rulesets",
    "get_ruleset",
    "register",
    "ruleset_entries",
]
