"""Typed readers of figure stats, built from the ``FieldSpec`` that declares each stat.

A ruleset declares a stat once (``MOVE = IntStat(FieldSpec("move", ...))``), lists
``MOVE.spec`` among its figure fields and reads ``MOVE(figure) -> int``. ``fallback`` is
what a figure without the stat (or with a value of the wrong type) reads as; by default the
spec's own default.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexcombat.figures import Figure
from hexcombat.schema import FieldSpec

from .numbers import int_or, is_int


@dataclass(frozen=True)
class IntStat:
    """A whole-number figure stat: ``stat(figure) -> int``."""

    spec: FieldSpec
    fallback: int | None = None

    @property
    def name(self) -> str:
        """The stat's key in ``Figure.stats``."""
        return self.spec.name

    def __call__(self, figure: Figure) -> int:
        """The figure's value, or the fallback when missing or not a whole number."""
        if self.fallback is not None:
            default = self.fallback
        else:
            default = self.spec.default if is_int(self.spec.default) else 0
        return int_or(figure.stats.get(self.spec.name), default)


@dataclass(frozen=True)
class TextStat:
    """A text figure stat: ``stat(figure) -> str`` (a value of another type reads as text)."""

    spec: FieldSpec
    fallback: str | None = None

    @property
    def name(self) -> str:
        """The stat's key in ``Figure.stats``."""
        return self.spec.name

    def __call__(self, figure: Figure) -> str:
        """The figure's value as text, or the fallback when missing."""
        default = self.fallback if self.fallback is not None else str(self.spec.default or "")
        value = figure.stats.get(self.spec.name)
        return default if value is None else str(value)
