"""Figures on the board: who they are, where they stand, what they carry and what ails them.

A figure's ruleset-specific numbers live in ``stats`` (described by the
ruleset's figure fields), its percentages or ranks in ``skills``, and the
ruleset's running bookkeeping (move mode, actions used, ...) in ``memory``.

A figure stands on its anchor hex (``position``) and may cover more hexes: its
``footprint`` lists their offsets from the anchor as seen facing north
(facing 0), and turns with the figure, so a two-hex mount ``("0,1",)`` (one
hex behind its head) turns as one body. A rider names its mount in
``mounted_on``: it stands on the mount's anchor with the mount's facing, moves
with it (:func:`place`) and does not count against the stacking limit.

A figure may carry a ``portrait``, drawn on its token: like the board's map picture
(:mod:`hexcombat.map_picture`), the document names it by the digest of its bytes and its
media type; the bytes stay in the page's picture store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexcombat.errors import InvalidValueError, Problem
from hexcombat.geometry import Hex, distance, rotate
from hexcombat.map_picture import picture_name
from hexcombat.validation import Json, Reader, copy_json, describe

EQUIPMENT_KINDS = ("weapon", "armour", "shield", "spell", "other")
EQUIPMENT_STATES = ("ready", "carried", "dropped")
MAX_FOOTPRINT = 6
"""Hexes a footprint may add to the anchor (a figure covers at most seven)."""


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


@dataclass(frozen=True, slots=True)
class Portrait:
    """The picture on a figure's token, named by the SHA-256 digest of its bytes."""

    digest: str
    type: str

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form, as the figure's ``portrait``."""
        return {"digest": self.digest, "type": self.type}


def initials_of(name: str, fallback: str) -> str:
    """Up to two letters for a token, the same on the page and in every export: the first
    letters of the name's capitalised words ('Brie the Oaken' -> 'BO'), else ``fallback``'s."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    caps = [w for w in words if w[:1].isupper()] or words
    return "".join(w[0] for w in caps[:2]).upper() or fallback[:2].upper()


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
    footprint: tuple[Hex, ...] = ()
    mounted_on: str = ""
    character: str = ""
    """The roster character this figure plays (:mod:`hexcombat.roster`), if any."""
    portrait: Portrait | None = None
    """The picture on its token, if any (initials are drawn without one)."""

    def copy(self) -> Figure:
        """A deep copy (cheaper than ``copy.deepcopy``: the fields are JSON data of known shape)."""
        return Figure(
            self.id,
            self.name,
            self.side,
            self.position,
            self.facing,
            copy_json(self.stats),
            dict(self.skills),
            [
                Equipment(i.name, i.kind, i.state, i.loaded, copy_json(i.stats))
                for i in self.equipment
            ],
            {k: Status(s.id, s.remaining, s.note) for k, s in self.statuses.items()},
            {k: Pool(p.current, p.maximum) for k, p in self.pools.items()},
            copy_json(self.memory),
            self.footprint,
            self.mounted_on,
            self.character,
            self.portrait,
        )

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex the figure covers, its anchor first."""
        return cover(self.position, self.facing, self.footprint)

    def hexes_at(self, anchor: Hex, facing: int) -> tuple[Hex, ...]:
        """The hexes the figure would cover standing on ``anchor`` facing ``facing``."""
        return cover(anchor, facing, self.footprint)

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
        raise InvalidValueError(f"{self.name} has no item {name!r}; it carries {carried}")

    def ready_items(self, kind: str | None = None) -> list[Equipment]:
        """Items in hand, optionally only of one kind."""
        return [i for i in self.equipment if i.is_ready and (kind is None or i.kind == kind)]

    @property
    def initials(self) -> str:
        """Up to two letters for a token: 'Brie the Oaken' -> 'BO'."""
        return initials_of(self.name, self.id)

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
        if self.footprint:
            data["footprint"] = [str(h) for h in self.footprint]
        if self.mounted_on:
            data["mounted_on"] = self.mounted_on
        if self.character:
            data["character"] = self.character
        if self.portrait is not None:
            data["portrait"] = self.portrait.to_json()
        return data


def cover(anchor: Hex, facing: int, footprint: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The hexes a footprint covers on ``anchor`` facing ``facing``, anchor first.

    >>> [str(h) for h in cover(Hex(2, 2), 0, (Hex(0, 1),))]
    ['2,2', '2,3']
    >>> [str(h) for h in cover(Hex(2, 2), 1, (Hex(0, 1),))]
    ['2,2', '1,3']
    """
    if not footprint:
        return (anchor,)
    return (anchor, *(anchor + rotate(o, facing) for o in footprint))


def hex_pairs(a: Figure, b: Figure) -> list[tuple[Hex, Hex]]:
    """Every pair of a hex of ``a`` and a hex of ``b``, nearest first (then anchors first)."""
    pairs = [(x, y) for x in a.hexes() for y in b.hexes()]
    return sorted(pairs, key=lambda p: distance(*p)) if len(pairs) > 1 else pairs


def nearest_hexes(a: Figure, b: Figure) -> tuple[Hex, Hex]:
    """The hex of ``a`` and the hex of ``b`` that are closest (anchors win ties)."""
    return hex_pairs(a, b)[0]


def figure_distance(a: Figure, b: Figure) -> int:
    """Hex distance between the nearest covered hexes of two figures (0 when they share one)."""
    if not a.footprint and not b.footprint:
        return distance(a.position, b.position)
    return distance(*nearest_hexes(a, b))


def is_standing(figure: Figure) -> bool:
    """True unless the figure rides a mount (a rider and its mount are one body)."""
    return not figure.mounted_on


def place(figures: Iterable[Figure], figure: Figure, anchor: Hex, facing: int) -> None:
    """Move ``figure`` to ``anchor`` and ``facing``, taking its riders along."""
    figure.position, figure.facing = anchor, facing
    for rider in figures:
        if rider.mounted_on == figure.id:
            rider.position, rider.facing = anchor, facing


def mount_problems(figures: Sequence[tuple[int, Figure]]) -> list[Problem]:
    """Riders whose mount is missing, itself mounted, or elsewhere (paths ``figures[i]...``)."""
    by_id = {f.id: f for _, f in figures}
    problems = []
    for i, rider in figures:
        if not rider.mounted_on:
            continue
        path = f"figures[{i}].mounted_on"
        mount = by_id.get(rider.mounted_on)
        if mount is None or mount.id == rider.id:
            others = ", ".join(f for f in by_id if f != rider.id) or "none"
            problems.append(Problem(path, f"{rider.mounted_on!r} is not a mount here ({others})"))
        elif mount.mounted_on:
            problems.append(Problem(path, f"{mount.id!r} rides {mount.mounted_on!r} itself"))
        elif (rider.position, rider.facing) != (mount.position, mount.facing):
            problems.append(
                Problem(
                    f"figures[{i}].position",
                    f"rides {mount.id!r}, so stands at {mount.position} facing {mount.facing} "
                    f"like it, not {rider.position} facing {rider.facing}",
                )
            )
    return problems


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
    skills = _skills(obj, path, reader)
    equipment, statuses, pools = _carried(obj, path, reader)
    memory = _mapping(obj, "memory", path, reader)
    footprint = _footprint(obj, path, reader)
    mounted_on = reader.string(obj, "mounted_on", path, default="")
    character = reader.string(obj, "character", path, default="")
    portrait = _portrait(obj, path, reader)
    if len(reader.problems) > before or None in (
        fid,
        name,
        side,
        position,
        facing,
        mounted_on,
        character,
    ):
        return None
    assert fid and name and side and position is not None and facing is not None
    return Figure(
        fid,
        name,
        side,
        position,
        facing,
        stats,
        skills,
        equipment,
        statuses,
        pools,
        memory,
        footprint,
        mounted_on or "",
        character or "",
        portrait,
    )


def _carried(
    obj: dict[str, Any], path: str, reader: Reader
) -> tuple[list[Equipment], dict[str, Status], dict[str, Pool]]:
    """The figure's equipment, statuses and pools (the ones that can be read)."""
    equipment = [
        item
        for i, raw in enumerate(_sequence(obj, "equipment", path, reader))
        if (item := _equipment(raw, f"{path}.equipment[{i}]", reader)) is not None
    ]
    statuses = {
        status.id: status
        for i, raw in enumerate(_sequence(obj, "statuses", path, reader))
        if (status := _status(raw, f"{path}.statuses[{i}]", reader)) is not None
    }
    pools = {
        key: pool
        for key, raw in _mapping(obj, "pools", path, reader).items()
        if (pool := _pool(raw, f"{path}.pools.{key}", reader)) is not None
    }
    return equipment, statuses, pools


def _portrait(obj: dict[str, Any], path: str, reader: Reader) -> Portrait | None:
    """The figure's portrait, if it names one: ``digest`` and ``type`` only."""
    if "portrait" not in obj:
        return None
    where = f"{path}.portrait"
    named = reader.object(obj["portrait"], where)
    if named is None:
        return None
    for key in sorted(set(named) - {"digest", "type"}):
        reader.problem(f"{where}.{key}", "is not a portrait field (digest, type)")
    before = len(reader.problems)
    digest, kind = picture_name(named, where, reader)
    return Portrait(digest, kind) if len(reader.problems) == before else None


def _skills(obj: dict[str, Any], path: str, reader: Reader) -> dict[str, int]:
    """Skill name to rank, 0-1000."""
    skills: dict[str, int] = {}
    for key, value in _mapping(obj, "skills", path, reader).items():
        checked = reader.check_integer(value, f"{path}.skills.{key}", minimum=0, maximum=1000)
        if checked is not None:
            skills[key] = checked
    return skills


def _footprint(obj: dict[str, Any], path: str, reader: Reader) -> tuple[Hex, ...]:
    """Offsets from the anchor (facing 0): distinct, not the anchor, joined to it, at most 6."""
    offsets: list[Hex] = []
    for i, raw in enumerate(_sequence(obj, "footprint", path, reader)):
        where = f"{path}.footprint[{i}]"
        h = parse_hex(raw, where, reader)
        if h is None:
            continue
        if h == Hex(0, 0) or h in offsets:
            reader.problem(where, f"{h} is the anchor or already listed")
        else:
            offsets.append(h)
    if len(offsets) > MAX_FOOTPRINT:
        reader.problem(f"{path}.footprint", f"at most {MAX_FOOTPRINT} hexes besides the anchor")
    joined = {Hex(0, 0)}
    grew = True
    while grew:
        grew = False
        for h in offsets:
            if h not in joined and any(distance(h, j) == 1 for j in joined):
                joined.add(h)
                grew = True
    loose = [str(h) for h in offsets if h not in joined]
    if loose:
        reader.problem(f"{path}.footprint", f"{', '.join(loose)} not joined to the anchor")
    return tuple(offsets)


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
