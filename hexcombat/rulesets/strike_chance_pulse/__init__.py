"""``strike-chance-pulse``: percentile Strike Chance, Pulses, Ranged/Melee/Close combat.

Spec: ``shared/rules/strike-chance-pulse.md`` (58 numbered rules). The pure
calculators (:mod:`.rules`) are importable from here and tested rule by rule;
the ruleset class registers itself as ``strike-chance-pulse``.
"""

from __future__ import annotations

from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.ruleset import StrikeChancePulse
from hexcombat.rulesets.strike_chance_pulse.strike import StrikeCheck, StrikeResult

__all__ = ["StrikeChancePulse", "StrikeCheck", "StrikeResult", "rules"]
