"""Figures on the board: who they are, where they stand, what they carry and what ails them.

A figure's ruleset-specific numbers live in ``stats`` (described by the
ruleset's figure fields), its percentages or ranks in ``skills``, and the
ruleset's running bookkeeping (move mode, actions used, ...) in ``memory``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any

from .geometry import Hex
from .validation import Json, Reader, describe

EQUIPMENT_KINDS = ("weapon", "armour", "shield", "spell", "other")
EQUIPMENT_STATES = ("ready", "carried", "dropped")


@dataclass
class Equipment:
    """One item: a weapon, armour, shield or spell, with its state in play.

    ``stats`` are the item's numbers (skill used, range, damage, ...), usually
    copied from the ruleset's data tables and open to a GM's overrides.
    """

    name: str
    kind: str = "weapon"
    state: str = "carried"
    loaded: bool | None = None
    stats: dict[str, Json] = field(default_factory=dict)

    @property
    def is_ready(self) -> bool:
        """True when the item is in hand (or worn) and usable now."""
        return self.state == "ready"

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        data: dict[str, Json] = {"name": self.name, "kind": self.kind, "state": self.state}
        if self.loaded is not None:
            data["loaded"] = self.loaded
        if self.stats:
            data["stats"] = dict(self.stats)
        return data


@dataclass
class Status:
    """A condition on a figure, with the time units it has left (None: until removed)."""

    id: str
    remaining: int | None = None
    note: str = ""

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        data: dict[str, Json] = {"id": self.id}
        if self.remaining is not None:
            data["remaining"] = self.remaining
        if self.note:
            data["note"] = self.note
        return data


@dataclass
class Pool:
    """A current/maximum pair such as hit points or endurance; current never exceeds maximum."""

    current: int
    maximum: int

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        return {"current": self.current, "maximum": self.maximum}


@dataclass
class Figure:
    """A combatant: identity, side, position and facing, numbers, equipment and statuses."""

    id: str
    name: str
    side: str
    position: Hex
    facing: int = 0
    stats: dict[str, Json] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    equipment: list[Equipment] = field(default_factory=list)
    statuses: dict[str, Status] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)
    memory: dict[str, Json] = field(default_factory=dict)

    def copy(self) -> Figure:
        """A deep copy (cheaper than ``copy.deepcopy``: the fields' shapes are known)."""
        return Figure(
            self.id,
            self.name,
            self.side,
            self.position,
            self.facing,
            copy.deepcopy(self.stats),
            dict(self.skills),
            [replace(i, stats=copy.deepcopy(i.stats)) for i in self.equipment],
            {k: replace(s) for k, s in self.statuses.items()},
            {k: replace(p) for k, p in self.pools.items()},
            copy.deepcopy(self.memory),
        )

    def hexes(self) -> tuple[Hex, ...]:
        """The hexes the figure occupies (one, for now)."""
        return (self.position,)

    def has_status(self, status_id: str) -> bool:
        """True when the figure has the status ``status_id``."""
        return status_id in self.statuses

    def tick_statuses(self, units: int = 1) -> list[str]:
        """Take ``units`` of time off every timed status; returns the ids that expired."""
        expired = []
        for status in list(self.statuses.values()):
            if status.remaining is None:
                continue
            status.remaining = max(0, status.remaining - units)
            if status.remaining == 0:
                expired.append(status.id)
                del self.statuses[status.id]
        return expired

    def item(self, name: str) -> Equipment:
        """The piece of equipment called ``name`` (ValueError listing what it carries)."""
        for item in self.equipment:
            if item.name == name:
                return item
        carried = ", ".join(i.name for i in self.equipment) or "nothing"
        raise ValueError(f"{self.name} has no item {name!r}; it carries {carried}")

    def ready_items(self, kind: str | None = None) -> list[Equipment]:
        """Items in hand, optionally only of one kind."""
        return [i for i in self.equipment if i.is_ready and (kind is None or i.kind == kind)]

    @property
    def initials(self) -> str:
        """Up to two letters for a token: 'Brie the Oaken' -> 'BO'."""
        words = [w for w in self.name.replace("-", " ").split() if w[:1].isalnum()]
        caps = [w for w in words if w[:1].isupper()] or words
        return "".join(w[0] for w in caps[:2]).upper() or self.id[:2].upper()

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form, as stored in encounter documents."""
        data: dict[str, Json] = {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "position": str(self.position),
            "facing": self.facing,
        }
        if self.stats:
            data["stats"] = dict(self.stats)
        if self.skills:
            data["skills"] = dict(self.skills)
        if self.equipment:
            data["equipment"] = [i.to_json() for i in self.equipment]
        if self.statuses:
            data["statuses"] = [s.to_json() for s in self.statuses.values()]
        if self.pools:
            data["pools"] = {k: p.to_json() for k, p in self.pools.items()}
        if self.memory:
            data["memory"] = dict(self.memory)
        return data


def parse_hex(value: Json, path: str, reader: Reader) -> Hex | None:
    """Read a hex written as ``"q,r"``, recording a problem if it is not one."""
    if isinstance(value, str):
        parts = value.split(",")
        if len(parts) == 2:
            try:
                return Hex(int(parts[0]), int(parts[1]))
            except ValueError:
                pass
    reader.problem(path, f'must be a hex written "q,r" (e.g. "3,-1"), got {describe(value)}')
    return None


def figure_from_json(data: Json, path: str, reader: Reader) -> Figure | None:
    """Read one figure, recording every problem under ``path``; None if it cannot be built."""
    obj = reader.object(data, path)
    if obj is None:
        return None
    before = len(reader.problems)
    fid = reader.string(obj, "id", path)
    name = reader.string(obj, "name", path)
    side = reader.string(obj, "side", path)
    position = parse_hex(obj.get("position"), f"{path}.position", reader)
    facing = reader.integer(obj, "facing", path, minimum=0, maximum=5, default=0)
    stats = _mapping(obj, "stats", path, reader)
    skills: dict[str, int] = {}
    for key, value in _mapping(obj, "skills", path, reader).items():
        checked = reader.check_integer(value, f"{path}.skills.{key}", minimum=0, maximum=1000)
        if checked is not None:
            skills[key] = checked
    equipment = [
        item
        for i, raw in enumerate(_sequence(obj, "equipment", path, reader))
        if (item := _equipment(raw, f"{path}.equipment[{i}]", reader)) is not None
    ]
    statuses: dict[str, Status] = {}
    for i, raw in enumerate(_sequence(obj, "statuses", path, reader)):
        status = _status(raw, f"{path}.statuses[{i}]", reader)
        if status is not None:
            statuses[status.id] = status
    pools: dict[str, Pool] = {}
    for key, raw in _mapping(obj, "pools", path, reader).items():
        pool = _pool(raw, f"{path}.pools.{key}", reader)
        if pool is not None:
            pools[key] = pool
    memory = _mapping(obj, "memory", path, reader)
    if len(reader.problems) > before or None in (fid, name, side, position, facing):
        return None
    assert fid and name and side and position is not None and facing is not None
    return Figure(
        fid, name, side, position, facing, stats, skills, equipment, statuses, pools, memory
    )


def _mapping(obj: dict[str, Any], key: str, path: str, reader: Reader) -> dict[str, Json]:
    value = obj.get(key, {})
    checked = reader.object(value, f"{path}.{key}")
    return dict(checked) if checked is not None else {}


def _sequence(obj: dict[str, Any], key: str, path: str, reader: Reader) -> list[Json]:
    value = obj.get(key, [])
    checked = reader.list(value, f"{path}.{key}")
    return checked if checked is not None else []


def _equipment(data: Json, path: str, reader: Reader) -> Equipment | None:
    obj = reader.object(data, path)
    if obj is None:
        return None
    name = reader.string(obj, "name", path)
    kind = reader.string(obj, "kind", path, default="weapon")
    state = reader.string(obj, "state", path, default="carried")
    if kind is not None and kind not in EQUIPMENT_KINDS:
        reader.problem(f"{path}.kind", f"must be one of {', '.join(EQUIPMENT_KINDS)}, got {kind!r}")
        kind = None
    if state is not None and state not in EQUIPMENT_STATES:
        reader.problem(
            f"{path}.state", f"must be one of {', '.join(EQUIPMENT_STATES)}, got {state!r}"
        )
        state = None
    loaded = obj.get("loaded")
    if loaded is not None and not isinstance(loaded, bool):
        reader.problem(f"{path}.loaded", f"must be true, false or absent, got {describe(loaded)}")
        return None
    stats = _mapping(obj, "stats", path, reader)
    if name is None or kind is None or state is None:
        return None
    return Equipment(name, kind, state, loaded, stats)


def _status(data: Json, path: str, reader: Reader) -> Status | None:
    obj = reader.object(data, path)
    if obj is None:
        return None
    sid = reader.string(obj, "id", path)
    remaining = obj.get("remaining")
    if remaining is not None:
        remaining = reader.check_integer(remaining, f"{path}.remaining", minimum=0)
        if remaining is None:
            return None
    note = obj.get("note", "")
    if not isinstance(note, str):
        reader.problem(f"{path}.note", f"must be a string, got {describe(note)}")
        return None
    return Status(sid, remaining, note) if sid else None


def _pool(data: Json, path: str, reader: Reader) -> Pool | None:
    obj = reader.object(data, path)
    if obj is None:
        return None
    maximum = reader.integer(obj, "maximum", path, minimum=0)
    current = reader.integer(obj, "current", path, maximum=maximum)
    if maximum is None or current is None:
        return None
    return Pool(current, maximum)
