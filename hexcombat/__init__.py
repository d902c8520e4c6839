"""hexcombat: a pure-Python rules engine for tactical combat on a hex map.

Standard library only; runs the same under CPython and Pyodide.

>>> from hexcombat import Encounter, Action
>>> enc = Encounter.new("skirmish", 8, 6, name="Demo")
>>> enc.state.board.width
8
"""

from __future__ import annotations

from hexcombat.actions import Action, ActionSpec
from hexcombat.document import dumps, from_document, loads, to_document
from hexcombat.encounter import Encounter, LogEntry, MoreDiceNeededError, Setup
from hexcombat.errors import (
    HexcombatError,
    IllegalActionError,
    InvalidDocumentError,
    InvalidValueError,
    Problem,
    UnknownRulesetError,
    UnsupportedVersionError,
)
from hexcombat.figures import Equipment, Figure, Pool, Status
from hexcombat.geometry import Hex
from hexcombat.rulesets import all_rulesets, get_ruleset
from hexcombat.schema import Choice, FieldSpec
from hexcombat.version import __version__

__all__ = [
    "Action",
    "ActionSpec",
    "Choice",
    "Encounter",
    "Equipment",
    "FieldSpec",
    "Figure",
    "Hex",
    "HexcombatError",
    "IllegalActionError",
    "InvalidDocumentError",
    "InvalidValueError",
    "LogEntry",
    "MoreDiceNeededError",
    "Pool",
    "Problem",
    "Setup",
    "Status",
    "UnknownRulesetError",
    "UnsupportedVersionError",
    "__version__",
    "all_rulesets",
    "dumps",
    "from_document",
    "get_ruleset",
    "loads",
    "to_document",
]
