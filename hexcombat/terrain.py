"""Terrain types and the ordered table a ruleset supplies (the specifications' core, §2, §7).

Rule numbers are data: each ruleset gives its own table, usually from a JSON
file, and the board stores terrain ids that the table resolves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from hexcombat.errors import InvalidValueError

PATTERNS: tuple[str, ...] = ("none", "trees", "waves", "dots", "hatch", "contour", "sand", "rock")
"""The fill patterns the renderer knows."""

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass(frozen=True, slots=True)
class Terrain:
    """One terrain type: movement cost, line-of-sight flags and how it is drawn.

    ``move_cost`` is ``None`` for impassable terrain. ``soft_cover`` is what one
    hex adds to the soft total of a sight line (heavy trees: 1; the line is
    blocked when the total reaches the board's soft limit). ``obscures``: fire
    may end in the hex but not pass through it. ``house_default`` marks values
    that are our placeholder rather than the rule text's.
    """

    id: str
    name: str
    move_cost: int | None
    blocks_sight: bool = False
    soft_cover: int = 0
    obscures: bool = False
    breaks_missile: bool = False
    color: str = "#d9d4c0"
    pattern: str = "none"
    help: str = ""
    house_default: bool = False

    def __post_init__(self) -> None:
        where = f"terrain {self.id!r}"
        if not isinstance(self.id, str) or not _ID.fullmatch(self.id):
            raise ValueError(
                "terrain id must be letters, digits, '_', '.' or '-', starting with a letter "
                f"or digit, got {self.id!r}"
            )
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"{where}: name must be a non-empty string, got {self.name!r}")
        if self.move_cost is not None and (not _is_int(self.move_cost) or self.move_cost < 1):
            raise ValueError(
                f"{where}: move_cost must be an integer >= 1 or null (impassable), "
                f"got {self.move_cost!r}"
            )
        for flag in ("blocks_sight", "obscures", "breaks_missile", "house_default"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(
                    f"{where}: {flag} must be true or false, got {getattr(self, flag)!r}"
                )
        if not _is_int(self.soft_cover) or self.soft_cover < 0:
            raise ValueError(
                f"{where}: soft_cover must be an integer >= 0, got {self.soft_cover!r}"
            )
        if not isinstance(self.color, str) or not _COLOR.fullmatch(self.color):
            raise ValueError(f"{where}: color must be '#rgb' or '#rrggbb', got {self.color!r}")
        if self.pattern not in PATTERNS:
            raise ValueError(
                f"{where}: pattern must be one of {', '.join(PATTERNS)}, got {self.pattern!r}"
            )
        if not isinstance(self.help, str):
            raise ValueError(f"{where}: help must be a string, got {self.help!r}")

    @property
    def impassable(self) -> bool:
        """Whether no figure may enter this terrain (``move_cost is None``)."""
        return self.move_cost is None

    def to_json(self) -> dict[str, Any]:
        """Every field as plain JSON data."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FIELD_NAMES = tuple(f.name for f in fields(Terrain))
_REQUIRED = ("id", "name", "move_cost")


def _terrain_from_json(index: int, data: object) -> Terrain:
    if not isinstance(data, Mapping):
        raise ValueError(f"terrain entry {index} must be an object, got {type(data).__name__}")
    label = f"terrain entry {index}" + (f" ({data['id']!r})" if "id" in data else "")
    unknown = sorted(str(k) for k in data if k not in _FIELD_NAMES)
    if unknown:
        raise ValueError(
            f"{label}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_FIELD_NAMES)}"
        )
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"{label}: missing required key(s) {', '.join(missing)}")
    try:
        return Terrain(**{str(k): v for k, v in data.items()})
    except ValueError as exc:
        raise ValueError(f"{label}: {exc}") from None


class TerrainTable:
    """An ordered, immutable table of terrains by id; the first entry is the default.

    Iterating yields the :class:`Terrain` values in order; ``in`` tests ids.
    """

    __slots__ = ("_by_id",)

    _by_id: dict[str, Terrain]

    def __init__(self, terrains: Iterable[Terrain]) -> None:
        by_id: dict[str, Terrain] = {}
        for t in terrains:
            if not isinstance(t, Terrain):
                raise ValueError(f"terrain table entries must be Terrain, got {type(t).__name__}")
            if t.id in by_id:
                raise ValueError(f"duplicate terrain id {t.id!r}")
            by_id[t.id] = t
        if not by_id:
            raise ValueError(
                "a terrain table needs at least one terrain (the first is the default)"
            )
        object.__setattr__(self, "_by_id", by_id)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TerrainTable is immutable")

    @property
    def default(self) -> Terrain:
        """The first terrain: what every hex holds unless painted otherwise."""
        return next(iter(self._by_id.values()))

    def get(self, terrain_id: str) -> Terrain:
        """The terrain with ``terrain_id``; ``ValueError`` listing the known ids otherwise."""
        try:
            return self._by_id[terrain_id]
        except (KeyError, TypeError):
            raise InvalidValueError(
                f"unknown terrain id {terrain_id!r}; known: {', '.join(self._by_id)}"
            ) from None

    def __getitem__(self, terrain_id: str) -> Terrain:
        return self.get(terrain_id)

    def ids(self) -> tuple[str, ...]:
        """The terrain ids in table order."""
        return tuple(self._by_id)

    def __iter__(self) -> Iterator[Terrain]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, terrain_id: object) -> bool:
        return isinstance(terrain_id, str) and terrain_id in self._by_id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TerrainTable):
            return NotImplemented
        return list(self._by_id.values()) == list(other._by_id.values())

    def __hash__(self) -> int:
        return hash(tuple(self._by_id.values()))

    def __repr__(self) -> str:
        return f"TerrainTable({list(self._by_id.values())!r})"

    @classmethod
    def from_json(cls, data: object) -> TerrainTable:
        """Build a table from a JSON list of terrain objects, with clear errors."""
        if not isinstance(data, list):
            raise ValueError(
                f"a terrain table must be a list of objects, got {type(data).__name__}"
            )
        return cls(_terrain_from_json(i, entry) for i, entry in enumerate(data))

    def to_json(self) -> list[dict[str, Any]]:
        """The table as a JSON list (every field written out)."""
        return [t.to_json() for t in self]
