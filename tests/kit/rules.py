"""Pure calculators of ``kit-duel``, each naming its rule id (step 5 of "Adding a ruleset")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import front_hexes

ZONES = ("close", "adjacent", "front", "reach")


def weapon_list(text: object) -> list[str]:
    """The weapon names of a figure's ``weapons`` field, in order (KIT-4)."""
    return [w.strip() for w in str(text or "").split(",") if w.strip()]


def strike_key(
    stance: str, weapons: Sequence[str], skill: int, table: Mapping[str, Any]
) -> tuple[bool, int, int]:
    """Sort key of the strike order: pressing before ceding (KIT-3), then the longest
    reach among the figure's weapons (KIT-2), then the higher skill (KIT-2)."""
    reach = max((int(table[w]["reach"]) for w in weapons if w in table), default=0)
    return (stance == "cede", -reach, -skill)


def in_zone(zone: str, attacker: Figure, target: Figure) -> bool:
    """Whether ``target`` (any hex of its body) is in a special's zone (KIT-4, KIT-9):
    ``close`` shares a hex, ``adjacent`` is 1 hex away, ``front`` is a front hex, ``reach``
    is 1 or 2 hexes away."""
    gap = figure_distance(attacker, target)
    if zone == "close":
        return gap == 0
    if zone == "adjacent":
        return gap == 1
    if zone == "front":
        front = set(front_hexes(attacker.position, attacker.facing))
        return any(h in front for h in target.hexes())
    if zone == "reach":
        return gap in (1, 2)
    raise ValueError(f"unknown zone {zone!r} (zones: {', '.join(ZONES)})")


def damage_left(hp: int, damage: int) -> int:
    """Hit points after damage, never below 0; at 0 the figure is down (KIT-7)."""
    return max(0, hp - damage)
