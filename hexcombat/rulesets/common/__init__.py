"""Rule helpers several rulesets share: reading whole numbers out of JSON (:mod:`.numbers`),
typed readers of figure and item stats built from their ``FieldSpec`` (:mod:`.stats`), damage
into a pool, then down (:mod:`.damage`), a planned move's preview (:mod:`.moves`), typed
options made once per options table (:mod:`.settings`) and typed bookkeeping over the JSON
memory (:mod:`.memory`)."""

from __future__ import annotations

from hexcombat.rulesets.common.damage import knock_down, lose_points
from hexcombat.rulesets.common.numbers import int_or, is_int
from hexcombat.rulesets.common.stats import FlagStat, IntStat, TextsStat, TextStat

__all__ = [
    "FlagStat",
    "IntStat",
    "TextStat",
    "TextsStat",
    "int_or",
    "is_int",
    "knock_down",
    "lose_points",
]
