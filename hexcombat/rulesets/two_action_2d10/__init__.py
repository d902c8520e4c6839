"""``two-action-2d10``: two actions a round, 2d10 attack against defence.

Follows ``shared/rules/two-action-2d10.md`` (27 numbered rules): two hidden actions
a round or both combined on one (3d10 keep two), passive defence plus a Parry,
Block or Dodge, damage minus armour class off hit points then body points,
thresholds adding dice, a location and a save, strike order by weapon, and
movement by armour die. Calculators in :mod:`.rules`, options in :mod:`.options`,
figure fields in :mod:`.fields`; the class is a chain of one concern each: :mod:`.state`
(reading the state), :mod:`.flow` (time), :mod:`.offers`, :mod:`.resolve` (rollables and
previews), :mod:`.perform` (what actions do, rolling those rollables), :mod:`.words`, and
:mod:`.ruleset` (its identity).
"""

from __future__ import annotations

from hexcombat.rulesets.two_action_2d10 import rules
from hexcombat.rulesets.two_action_2d10.ruleset import TwoAction2d10

__all__ = ["TwoAction2d10", "rules"]
