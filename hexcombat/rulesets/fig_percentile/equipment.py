"""A ``fig-percentile`` figure's equipment: weapons in hand, spells, item stats and the
catalogue (the bookkeeping is in :mod:`.state`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexcombat.rulesets.common import int_or

from ...errors import IllegalActionError
from ...figures import Equipment, Figure
from ...validation import Json

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


def stat_int(item: Equipment, key: str, default: int = 0) -> int:
    """A whole-number stat of an item (``default`` when missing)."""
    return int_or(item.stats.get(key), default)


def stat_text(item: Equipment, key: str, default: str = "") -> str:
    """A text stat of an item (``default`` when missing)."""
    value = item.stats.get(key, default)
    return value if isinstance(value, str) else default


def is_ranged(item: Equipment) -> bool:
    """A ranged weapon or a spell: both have a maximum range."""
    return item.kind == "spell" or stat_text(item, "attack") == "ranged"


def needs_los(item: Equipment) -> bool:
    """The item's ``requires_los`` flag, True unless set to false (FP-15)."""
    return item.stats.get("requires_los", True) is not False


def catalogue_item(
    data: Mapping[str, Json], name: str, *, state: str = "carried", loaded: bool | None = None
) -> Equipment:
    """An item built from the ruleset's data tables (``weapons`` or ``spells``), stats copied."""
    for table, kind in (("weapons", "weapon"), ("spells", "spell")):
        entries: Any = data.get(table, {})
        if isinstance(entries, dict) and name in entries and isinstance(entries[name], dict):
            stats = dict(entries[name])
            if kind == "spell":
                return Equipment(name, "spell", "carried", None, stats)
            if stats.get("attack") == "ranged" and loaded is None:
                loaded = True
            return Equipment(name, kind, state, loaded, stats)
    known = [n for t in ("weapons", "spells") for n in (data.get(t) or {})]
    raise ValueError(f"no weapon or spell called {name!r}; known: {', '.join(known)}")
