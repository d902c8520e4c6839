"""``strike-chance-pulse``: percentile Strike Chance, Pulses, Ranged/Melee/Close combat.

Spec: ``shared/rules/strike-chance-pulse.md`` (58 numbered rules). The pure
calculators (:mod:`.rules`) are importable from here and tested rule by rule;
the ruleset class registers itself as ``strike-chance-pulse``.
"""

from __future__ import annotations

from . import rules
from .ruleset import StrikeChancePulse
from .strike import StrikeCheck, StrikeResult

__all__ = ["StrikeChancePulse", "StrikeCheck", "StrikeResult", "rules"]
