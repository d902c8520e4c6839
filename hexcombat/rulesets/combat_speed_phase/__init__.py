"""``combat-speed-phase``: Combat Speed multiples, half-phase simultaneous movement, reach.

Spec: ``shared/rules/combat-speed-phase.md`` (17 numbered rules).
The pure calculators are importable from here and tested rule by rule; the
ruleset class registers itself as ``combat-speed-phase``.
"""

from __future__ import annotations

from hexcombat.rulesets.combat_speed_phase.combat import separation, strike_check, weapon_reach
from hexcombat.rulesets.combat_speed_phase.moves import (
    RELATIVE,
    Motion,
    MoveRules,
    step_function,
    tick_poses,
)
from hexcombat.rulesets.combat_speed_phase.ruleset import CombatSpeedPhase
from hexcombat.rulesets.combat_speed_phase.speed import (
    MAX_MULTIPLE,
    PhaseRecord,
    allowance,
    change_cost,
    half_allowance,
    half_split,
    max_running_speed,
    may_run,
    moved_multiple,
    must_keep_moving,
    offered_multiples,
)

__all__ = [
    "MAX_MULTIPLE",
    "RELATIVE",
    "CombatSpeedPhase",
    "Motion",
    "MoveRules",
    "PhaseRecord",
    "allowance",
    "change_cost",
    "half_allowance",
    "half_split",
    "max_running_speed",
    "may_run",
    "moved_multiple",
    "must_keep_moving",
    "offered_multiples",
    "separation",
    "step_function",
    "strike_check",
    "tick_poses",
    "weapon_reach",
]
