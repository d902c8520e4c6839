"""Set-up helpers for the editor: the items a ruleset's data tables offer, new copies of them,
and new figures carrying the ruleset's starting gear.

A ruleset's data tables (``weapons``, ``spells``, ...) map item names to their
numbers. The editor lists them with :func:`catalogue` and gives a figure a new
item with :func:`new_item`, which uses the ruleset's own ``item`` builder when
it has one (so ruleset conventions such as loaded ranged weapons hold) and
otherwise copies the table entry's numbers. Whether the figure may carry it is
still decided by the engine when the figure is saved (``Encounter.with_figure``).

>>> from hexcombat.rulesets import get_ruleset
>>> rs = get_ruleset("skirmish")
>>> catalogue(rs.default_data())
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from hexcombat.errors import IllegalActionError
from hexcombat.figures import Equipment, Figure
from hexcombat.geometry import Hex
from hexcombat.rulesets.base import Ruleset
from hexcombat.validation import Json, copy_json

TABLE_KINDS: dict[str, str] = {
    "weapons": "weapon",
    "spells": "spell",
    "armour": "armour",
    "armor": "armour",
    "shields": "shield",
}
"""Data tables whose entries are items, and the equipment kind of their items."""


def catalogue(data: Mapping[str, Json]) -> list[dict[str, Json]]:
    """Every item the data tables offer: name, kind, table, its numbers in words (``facts``,
    so an editor shows them before the item is added), the skill it is used with
    (``skill``, when its entry names one) and the entry's note if any.

    Items come in table order (:data:`TABLE_KINDS`), then in each table's own order.
    """
    items: list[dict[str, Json]] = []
    for table, kind in TABLE_KINDS.items():
        entries = data.get(table)
        if not isinstance(entries, dict):
            continue
        for name, entry in entries.items():
            if not isinstance(entry, dict):
                continue
            item: dict[str, Json] = {"name": name, "kind": kind, "table": table}
            facts = item_facts(entry)
            if facts:
                item["facts"] = facts
            if isinstance(entry.get("skill"), str):
                item["skill"] = entry["skill"]
            if entry.get("house_default") is True:
                item["house_default"] = True
            if isinstance(entry.get("note"), str):
                item["note"] = entry["note"]
            items.append(item)
    return items


def item_facts(entry: Mapping[str, Json]) -> str:
    """A table entry's numbers in words, in the table's order ('damage d10 · reload rounds 1');
    an empty value (no categories) is left out.

    >>> item_facts({"damage": "d10", "reload_rounds": 1, "two_handed": True, "note": "x"})
    'damage d10 · reload rounds 1 · two handed yes'
    >>> item_facts({"damage": "d6", "categories": []})
    'damage d6'
    """
    words = []
    for key, value in entry.items():
        if key in ("note", "house_default"):
            continue
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, int | float | str):
            shown = str(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            shown = ", ".join(str(v) for v in value)
        else:
            continue
        if shown:
            words.append(f"{key.replace('_', ' ')} {shown}")
    return " · ".join(words)


def new_item(ruleset: Ruleset, data: Mapping[str, Json], name: str) -> Equipment:
    """A new item ``name`` from the data tables (IllegalActionError naming those that exist)."""
    builder: Any = getattr(ruleset, "item", None)
    if callable(builder):
        try:
            built = builder(name, data=data)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        if isinstance(built, Equipment):
            return built
    for entry in catalogue(data):
        if entry["name"] == name:
            table = data[str(entry["table"])]
            assert isinstance(table, dict)
            stats = copy_json(table[name])
            return Equipment(name, str(entry["kind"]), "carried", None, dict(stats))
    known = ", ".join(str(e["name"]) for e in catalogue(data)) or "none"
    raise IllegalActionError(f"there is no item called {name!r} in the data tables; items: {known}")


def new_figure(
    ruleset: Ruleset,
    data: Mapping[str, Json],
    figure_id: str,
    name: str,
    side: str,
    position: Hex,
    facing: int = 0,
) -> Figure:
    """A figure new in the set-up editor: the ruleset's field defaults, carrying its starting
    gear (:attr:`Ruleset.starting_gear`) from ``data`` with the skill each item is used with;
    an item the tables no longer offer, or that the figure may not carry, is left out.

    >>> from hexcombat.rulesets import get_ruleset
    >>> rs = get_ruleset("fig-percentile")
    >>> fig = new_figure(rs, rs.default_data(), "a", "Blue A", "Blue", Hex(0, 0))
    >>> [item.name for item in fig.equipment], fig.skills
    (['Sword'], {'Sword': 50})
    """
    figure = ruleset.new_figure(figure_id, name, side, position, facing)
    for start in ruleset.starting_gear:
        try:
            item = new_item(ruleset, data, start.item)
        except IllegalActionError:
            continue
        if start.state:
            item = replace(item, state=start.state)
        skills = {start.skill: start.level, **figure.skills} if start.skill else figure.skills
        armed = replace(figure, skills=skills, equipment=[*figure.equipment, item])
        if not ruleset.figure_problems(armed, data):
            figure = armed
    return figure
