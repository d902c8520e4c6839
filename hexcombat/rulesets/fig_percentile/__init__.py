"""``fig-percentile``: FIG-scaled movement, combined-speed penalties and a D100 to-hit roll.

Spec: ``shared/rules/fig-percentile.md`` (27 numbered rules). The pure
calculators are importable from here and tested rule by rule; the ruleset
class registers itself as ``fig-percentile``.
"""

from __future__ import annotations

from hexcombat.rulesets.fig_percentile.equipment import catalogue_item
from hexcombat.rulesets.fig_percentile.ranges import HEX_YARDS, max_range_hexes, range_band, sight
from hexcombat.rulesets.fig_percentile.ruleset import FigPercentile
from hexcombat.rulesets.fig_percentile.speed import (
    Band,
    Motion,
    accel_speed,
    allowance,
    can_dodge,
    combined_band,
    combined_speed,
    half_skill,
    is_slow,
    rounded,
    speed_band,
    speed_value,
    top_speed,
)

__all__ = [
    "HEX_YARDS",
    "Band",
    "FigPercentile",
    "Motion",
    "accel_speed",
    "allowance",
    "can_dodge",
    "catalogue_item",
    "combined_band",
    "combined_speed",
    "half_skill",
    "is_slow",
    "max_range_hexes",
    "range_band",
    "rounded",
    "sight",
    "speed_band",
    "speed_value",
    "top_speed",
]
