"""The rulesets: the registry (:mod:`.registry`) and every built-in ruleset, registered here."""

from __future__ import annotations

from .base import Ruleset
from .registry import all_rulesets, get_ruleset, register

# Each import registers its ruleset; the order is the order the app lists them in.
# isort: off
from . import skirmish
from . import fig_percentile
from . import strike_chance_pulse
from . import combat_speed_phase
from . import two_action_2d10

# isort: on

__all__ = [
    "Ruleset",
    "all_rulesets",
    "combat_speed_phase",
    "fig_percentile",
    "get_ruleset",
    "register",
    "skirmish",
    "strike_chance_pulse",
    "two_action_2d10",
]
