"""Rollables: what an action rolls, with exact odds for every outcome before any die is cast.

A preview holds any number of :class:`Rollable` objects, all with one shape:

* :class:`Check`: one roll against a target, ``dice + roll_modifiers <comparison> base +
  modifiers`` (roll-under ``d100 le skill``, meet-or-beat ``2d10 + skill ge defence``);
* :class:`OpposedCheck`: both sides roll (``3d10kh2 + skill`` against ``2d10 + defence``);
  outcomes win, tie and lose, the tie going to the side the rules name;
* :class:`Amount`: a rolled number (damage) or a table entry (hit location);
* :class:`Chain`: stages rolled in order, each only on given outcomes of the one before
  (hit -> damage -> location -> save).

Each gives exact :class:`~fractions.Fraction` odds for every :class:`Outcome`, a
breakdown naming every number with its rule id, the dice a player types in roll
order (:class:`Face`), per-defence :class:`Variant` s, and :meth:`Rollable.to_json`
in one shape the page renders without knowing the ruleset. Rolling gives a
:class:`RollResult` that explains itself for the log.

Parts: :mod:`.parts` (what every rollable shares), :mod:`.check`, :mod:`.opposed`,
:mod:`.amount`, :mod:`.chain`; everything is imported from ``hexcombat.checks``.
"""

from __future__ import annotations

from hexcombat.checks.amount import Amount as Amount
from hexcombat.checks.amount import AmountResult as AmountResult
from hexcombat.checks.amount import Band as Band
from hexcombat.checks.chain import Chain as Chain
from hexcombat.checks.chain import ChainResult as ChainResult
from hexcombat.checks.chain import Stage as Stage
from hexcombat.checks.check import Check as Check
from hexcombat.checks.check import CheckResult as CheckResult
from hexcombat.checks.opposed import OpposedCheck as OpposedCheck
from hexcombat.checks.opposed import OpposedResult as OpposedResult
from hexcombat.checks.opposed import OpposedSide as OpposedSide
from hexcombat.checks.parts import MINUS as MINUS
from hexcombat.checks.parts import CheckError as CheckError
from hexcombat.checks.parts import Face as Face
from hexcombat.checks.parts import Modifier as Modifier
from hexcombat.checks.parts import Outcome as Outcome
from hexcombat.checks.parts import Rollable as Rollable
from hexcombat.checks.parts import RollResult as RollResult
from hexcombat.checks.parts import Variant as Variant
from hexcombat.checks.parts import percent as percent
from hexcombat.checks.parts import signed as signed
