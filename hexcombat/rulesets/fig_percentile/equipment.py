"""A ``fig-percentile`` figure's equipment: weapons in hand, spells, item stats and the
catalogue (the bookkeeping is in :mod:`.state`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexcombat.errors import IllegalActionError
from hexcombat.figures import Equipment, Figure
from hexcombat.rulesets.fig_percentile.options import ATTACK_KIND, REQUIRES_LOS
from hexcombat.validation import Json

# ---- equipment ---------------------------------------------------------------


def in_hand(figure: Figure) -> Equipment | None:
    """The weapon in the figure's hand (state ``ready``), or None."""
    for item in figure.equipment:
        if item.kind == "weapon" and item.is_ready:
            return item
    return None


def weapons(figure: Figure) -> list[Equipment]:
    """The figure's weapons that are not dropped."""
    return [i for i in figure.equipment if i.kind == "weapon" and i.state != "dropped"]


def spells(figure: Figure) -> list[Equipment]:
    """The spells the figure knows."""
    return [i for i in figure.equipment if i.kind == "spell"]


def find(figure: Figure, name: str, kind: str) -> Equipment:
    """The figure's item ``name`` of ``kind`` (IllegalActionError when it has none)."""
    for item in figure.equipment:
        if item.name == name and item.kind == kind:
            return item
    raise IllegalActionError(f"{figure.name} has no {kind} called {name!r}")


def is_ranged(item: Equipment) -> bool:
    """A ranged weapon or a spell: both have a maximum range."""
    return item.kind == "spell" or ATTACK_KIND(item) == "ranged"


def needs_los(item: Equipment) -> bool:
    """The item's ``requires_los`` flag, True unless set to false (FP-15)."""
    return REQUIRES_LOS(item)


def catalogue_item(
    data: Mapping[str, Json], name: str, *, state: str = "carried", loaded: bool | None = None
) -> Equipment:
    """An item built from the ruleset's data tables (``weapons`` or ``spells``), stats copied."""
    for table, kind in (("weapons", "weapon"), ("spells", "spell")):
        entries: Any = data.get(table, {})
        if isinstance(entries, dict) and name in entries and isinstance(entries[name], dict):
            numbers = dict(entries[name])
            if kind == "spell":
                return Equipment(name, "spell", "carried", None, numbers)
            item = Equipment(name, kind, state, loaded, numbers)
            if ATTACK_KIND.raw(item) == "ranged" and loaded is None:
                item.loaded = True
            return item
    known = [n for t in ("weapons", "spells") for n in (data.get(t) or {})]
    raise ValueError(f"no weapon or spell called {name!r}; known: {', '.join(known)}")
