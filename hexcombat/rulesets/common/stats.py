"""Typed readers of figure and item stats, built from the ``FieldSpec`` that declares each stat.

A ruleset declares a stat once (``MOVE = IntStat(FieldSpec("move", ...))``), lists
``MOVE.spec`` among its figure fields and reads ``MOVE(figure) -> int``. The same readers
read an item's stats (``REACH(item)``): anything with a ``stats`` table of JSON.
``fallback`` is what a holder without the stat (or with a value of the wrong type) reads
as; by default the spec's own default. A call may pass its own ``default`` where the rules
read a missing stat differently there. This is the only module that names ``.stats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from hexcombat.rulesets.common.numbers import int_or, is_int
from hexcombat.schema import FieldSpec
from hexcombat.validation import Json


class HasStats(Protocol):
    """A figure or an item: something with a table of JSON stats."""

    stats: dict[str, Json]


@dataclass(frozen=True)
class Stat:
    """What every reader shares: the declaring spec, the raw value and writing it."""

    spec: FieldSpec

    @property
    def name(self) -> str:
        """The stat's key in the holder's ``stats``."""
        return self.spec.name

    def raw(self, holder: HasStats, missing: Json = None) -> Json:
        """The stored JSON as it is (``missing`` when absent), for checks of its shape."""
        return holder.stats.get(self.spec.name, missing)

    def has(self, holder: HasStats) -> bool:
        """Whether the holder has the stat at all."""
        return self.spec.name in holder.stats

    def put(self, holder: HasStats, value: Json) -> None:
        """Set the stat (an item broken in play, a proxy's damage dice)."""
        holder.stats[self.spec.name] = value

    def clear(self, holder: HasStats) -> None:
        """Remove the stat (nothing when absent)."""
        holder.stats.pop(self.spec.name, None)


@dataclass(frozen=True)
class IntStat(Stat):
    """A whole-number stat: ``stat(holder) -> int``."""

    fallback: int | None = None

    def __call__(self, holder: HasStats, default: int | None = None) -> int:
        """The value, or ``default`` (else the fallback) when missing or not a whole number."""
        if default is None:
            default = self.fallback
        if default is None:
            default = self.spec.default if is_int(self.spec.default) else 0
        return int_or(holder.stats.get(self.spec.name), default)


TextReading = Literal["any", "text", "filled"]
"""How a :class:`TextStat` reads a value: ``any`` present value as text (``5`` -> ``"5"``);
only ``text`` (any other value reads as the fallback); or ``filled``: any value that is not
empty, zero or false, as text (else the fallback)."""


@dataclass(frozen=True)
class TextStat(Stat):
    """A text stat: ``stat(holder) -> str``, read as ``reads`` says (:data:`TextReading`)."""

    fallback: str | None = None
    reads: TextReading = "any"

    def __call__(self, holder: HasStats, default: str | None = None) -> str:
        """The value as text, or ``default`` (else the fallback) when missing."""
        if default is None:
            default = self.fallback
        if default is None:
            default = str(self.spec.default or "")
        value = holder.stats.get(self.spec.name)
        if self.reads == "text":
            return value if isinstance(value, str) else default
        if self.reads == "filled":
            return str(value) if value else default
        return default if value is None else str(value)


@dataclass(frozen=True)
class FlagStat(Stat):
    """A yes/no stat: ``stat(holder) -> bool``. A value that is not a bool reads as the
    fallback, unless ``truthy`` (then any value reads as Python's ``bool``, missing as the
    fallback)."""

    fallback: bool = False
    truthy: bool = False

    def __call__(self, holder: HasStats) -> bool:
        """The flag."""
        value = holder.stats.get(self.spec.name)
        if self.truthy:
            return self.fallback if value is None else bool(value)
        return value if isinstance(value, bool) else self.fallback


@dataclass(frozen=True)
class TextsStat(Stat):
    """A list of names (an item's ratings or categories): ``stat(holder) -> tuple[str, ...]``;
    items that are not text are left out, and a value that is not a list reads as empty."""

    def __call__(self, holder: HasStats) -> tuple[str, ...]:
        """The texts in order."""
        value = holder.stats.get(self.spec.name)
        return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()
