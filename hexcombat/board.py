"""The map: a rectangular hex board with terrain per hex, features and line of sight.

A board of ``width`` x ``height`` holds the hexes whose odd-q offset
``(col, row)`` lies in ``[0, width) x [0, height)`` (see :mod:`hexcombat.layout`).
Terrain is stored only where it differs from the table's default.
Line of sight follows ``shared/rules/README.md`` §2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from hexcombat.errors import InvalidValueError
from hexcombat.geometry import Hex, LineStep, _line_cells, distance, line_steps
from hexcombat.layout import from_offset, hex_label, to_offset
from hexcombat.terrain import Terrain, TerrainTable
from hexcombat.validation import describe

MAX_SIDE = 1000
"""The largest board width or height accepted (guards against absurd documents)."""

TIE_POLICIES: tuple[str, ...] = ("both_must_block", "either_blocks")
"""How a sight line along a hexside treats the tied pair of hexes (``core.los_tie_policy``)."""


_Evidence = tuple[str, tuple[LineStep, ...], tuple[Hex, ...], tuple[Hex, ...], tuple[Hex, ...], int]
"""reason, steps, intervening, blocking, soft, soft_total"""


class SightLine:
    """The verdict on a line of sight, with the evidence for it.

    ``intervening`` holds the on-board hexes strictly between the ends (both
    hexes of a tie). ``blocking`` holds the hexes that stopped the line; ``soft`` those
    whose soft cover was counted, adding up to ``soft_total``.

    :meth:`Board.line_of_sight` decides ``clear`` at once, stopping at the first hex
    that settles it; the evidence (and ``reason``) is worked out the first time it is
    read. Equality and ``repr`` cover every field.
    """

    __slots__ = ("_evidence", "_trace", "clear")

    clear: bool
    _evidence: _Evidence | None
    _trace: Callable[[], _Evidence] | None

    def __init__(
        self,
        clear: bool,
        reason: str,
        steps: tuple[LineStep, ...],
        intervening: tuple[Hex, ...],
        blocking: tuple[Hex, ...],
        soft: tuple[Hex, ...],
        soft_total: int = 0,
    ) -> None:
        object.__setattr__(self, "clear", clear)
        object.__setattr__(self, "_trace", None)
        object.__setattr__(
            self, "_evidence", (reason, steps, intervening, blocking, soft, soft_total)
        )

    @classmethod
    def _deferred(cls, clear: bool, trace: Callable[[], _Evidence]) -> SightLine:
        line = cls.__new__(cls)
        object.__setattr__(line, "clear", clear)
        object.__setattr__(line, "_trace", trace)
        object.__setattr__(line, "_evidence", None)
        return line

    def _facts(self) -> _Evidence:
        facts = self._evidence
        if facts is None:
            assert self._trace is not None
            facts = self._trace()
            object.__setattr__(self, "_evidence", facts)
            object.__setattr__(self, "_trace", None)
        return facts

    @property
    def reason(self) -> str:
        """Why the line is clear or not, in words, naming the hexes."""
        return self._facts()[0]

    @property
    def steps(self) -> tuple[LineStep, ...]:
        """The line from end to end (:func:`~hexcombat.geometry.line_steps`)."""
        return self._facts()[1]

    @property
    def intervening(self) -> tuple[Hex, ...]:
        """The on-board hexes strictly between the ends."""
        return self._facts()[2]

    @property
    def blocking(self) -> tuple[Hex, ...]:
        """The hexes that stopped the line."""
        return self._facts()[3]

    @property
    def soft(self) -> tuple[Hex, ...]:
        """The hexes whose soft cover was counted."""
        return self._facts()[4]

    @property
    def soft_total(self) -> int:
        """The soft cover added up along the line."""
        return self._facts()[5]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("SightLine is immutable")

    def _fields(self) -> tuple[object, ...]:
        return (self.clear, *self._facts())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SightLine):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("clear", "reason", "steps", "intervening", "blocking", "soft", "soft_total")
        body = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"SightLine({body})"


def _check_side(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIDE:
        raise InvalidValueError(
            f"board {name} must be an integer from 1 to {MAX_SIDE}, got {describe(value)}"
        )
    return value


def _row_col_key(h: Hex) -> tuple[int, int]:
    col, row = to_offset(h)
    return (row, col)


class Board:
    """An immutable hex board: size, terrain table, terrain per hex and features per hex."""

    __slots__ = ("_features", "_grid", "_height", "_table", "_terrain", "_width")

    _width: int
    _height: int
    _table: TerrainTable
    _terrain: Mapping[Hex, str]
    _features: Mapping[Hex, tuple[str, ...]]
    _grid: list[Terrain]

    def __init__(
        self,
        width: int,
        height: int,
        terrain_table: TerrainTable,
        terrain: Mapping[Hex, str] | None = None,
        features: Mapping[Hex, Sequence[str]] | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "_width", _check_side("width", width))
        set_(self, "_height", _check_side("height", height))
        if not isinstance(terrain_table, TerrainTable):
            raise ValueError(f"terrain_table must be a TerrainTable, got {terrain_table!r}")
        set_(self, "_table", terrain_table)
        default_id = terrain_table.default.id
        cleaned: dict[Hex, str] = {}
        for h, terrain_id in (terrain or {}).items():
            self._check_on_board(h)
            terrain_table.get(terrain_id)
            if terrain_id != default_id:
                cleaned[h] = terrain_id
        set_(self, "_terrain", MappingProxyType(dict(sorted(cleaned.items(), key=_by_row_col))))
        # terrain by offset, row * width + col: look-ups without hashing a Hex
        grid = [terrain_table.default] * (self._width * self._height)
        for h, terrain_id in cleaned.items():
            col, row = to_offset(h)
            grid[row * self._width + col] = terrain_table.get(terrain_id)
        set_(self, "_grid", grid)
        feats: dict[Hex, tuple[str, ...]] = {}
        for h, names in (features or {}).items():
            self._check_on_board(h)
            if isinstance(names, str) or not all(isinstance(n, str) and n for n in names):
                raise ValueError(
                    f"features at {h} must be a list of non-empty strings, got {names!r}"
                )
            if names:
                feats[h] = tuple(names)
        set_(self, "_features", MappingProxyType(dict(sorted(feats.items(), key=_by_row_col))))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable; use painted() or resized() for a new board")

    @property
    def width(self) -> int:
        """Number of columns."""
        return self._width

    @property
    def height(self) -> int:
        """Number of rows."""
        return self._height

    @property
    def terrain_table(self) -> TerrainTable:
        """The table that resolves this board's terrain ids."""
        return self._table

    @property
    def terrain(self) -> Mapping[Hex, str]:
        """Terrain ids of the hexes that differ from the default, in (row, col) order."""
        return self._terrain

    @property
    def features(self) -> Mapping[Hex, tuple[str, ...]]:
        """Feature names per hex (only hexes that have some), in (row, col) order."""
        return self._features

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the board."""
        q = h.q
        row = h.r + (q - (q & 1)) // 2
        return 0 <= q < self._width and 0 <= row < self._height

    def _check_on_board(self, h: object) -> None:
        if not isinstance(h, Hex) or not self.contains(h):
            raise self._off_board(h)

    def _off_board(self, h: object) -> InvalidValueError:
        if not isinstance(h, Hex):
            return InvalidValueError(f"expected a Hex, got {h!r}")
        return InvalidValueError(f"hex {h} is off the {self._width}x{self._height} board")

    def hexes(self) -> list[Hex]:
        """Every hex of the board, row by row, columns left to right."""
        return [from_offset(col, row) for row in range(self._height) for col in range(self._width)]

    def terrain_id_at(self, h: Hex) -> str:
        """The terrain id of ``h`` (``ValueError`` if off the board)."""
        return self.terrain_at(h).id

    def terrain_at(self, h: Hex) -> Terrain:
        """The terrain of ``h`` (``ValueError`` if off the board)."""
        q = h.q
        row = h.r + (q - (q & 1)) // 2
        if 0 <= q < self._width and 0 <= row < self._height:
            return self._grid[row * self._width + q]
        raise self._off_board(h)

    def features_at(self, h: Hex) -> tuple[str, ...]:
        """The feature names on ``h`` (empty if none; ``ValueError`` if off the board)."""
        self._check_on_board(h)
        return self._features.get(h, ())

    def painted(self, hexes: Iterable[Hex], terrain_id: str) -> Board:
        """A new board with ``hexes`` set to ``terrain_id`` (all validated first)."""
        self._table.get(terrain_id)
        terrain = dict(self._terrain)
        for h in hexes:
            self._check_on_board(h)
            terrain[h] = terrain_id
        return Board(self._width, self._height, self._table, terrain, self._features)

    def resized(self, width: int, height: int) -> Board:
        """A new board of the given size; terrain and features off the new edge are dropped."""
        new = Board(width, height, self._table)
        return Board(
            width,
            height,
            self._table,
            {h: t for h, t in self._terrain.items() if new.contains(h)},
            {h: f for h, f in self._features.items() if new.contains(h)},
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._width == other._width
            and self._height == other._height
            and self._table == other._table
            and dict(self._terrain) == dict(other._terrain)
            and dict(self._features) == dict(other._features)
        )

    def __hash__(self) -> int:
        return hash(
            (
                self._width,
                self._height,
                self._table,
                frozenset(self._terrain.items()),
                frozenset(self._features.items()),
            )
        )

    def __repr__(self) -> str:
        return (
            f"Board({self._width}, {self._height}, terrain={len(self._terrain)} painted, "
            f"features={len(self._features)})"
        )

    def to_json(self) -> dict[str, Any]:
        """The board as JSON data; hex keys are ``"q,r"``, the terrain table is not included."""
        return {
            "width": self._width,
            "height": self._height,
            "terrain": {str(h): t for h, t in self._terrain.items()},
            "features": {str(h): list(f) for h, f in self._features.items()},
        }

    @classmethod
    def from_json(cls, data: object, table: TerrainTable) -> Board:
        """Read :meth:`to_json` data back, resolving terrain ids with ``table``."""
        if not isinstance(data, Mapping):
            raise ValueError(f"board must be an object, got {type(data).__name__}")
        unknown = sorted(str(k) for k in data if k not in _JSON_KEYS)
        if unknown:
            raise ValueError(
                f"board: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_JSON_KEYS)}"
            )
        for key in ("width", "height"):
            if key not in data:
                raise ValueError(f"board: missing required key {key!r}")
        empty = cls(
            _check_side("width", data["width"]), _check_side("height", data["height"]), table
        )
        terrain: dict[Hex, str] = {}
        for key, value in _json_object(data, "terrain").items():
            h = _json_hex(empty, "terrain", key)
            if not isinstance(value, str) or value not in table:
                raise ValueError(
                    f"board.terrain[{key!r}]: unknown terrain id {value!r}; "
                    f"known: {', '.join(table.ids())}"
                )
            terrain[h] = value
        features: dict[Hex, tuple[str, ...]] = {}
        for key, value in _json_object(data, "features").items():
            h = _json_hex(empty, "features", key)
            if not isinstance(value, list) or not all(isinstance(n, str) and n for n in value):
                raise ValueError(
                    f"board.features[{key!r}]: must be a list of non-empty strings, got {value!r}"
                )
            features[h] = tuple(value)
        return cls(empty.width, empty.height, table, terrain, features)

    def line_of_sight(
        self,
        a: Hex,
        b: Hex,
        *,
        tie_policy: str = "both_must_block",
        soft_limit: int = 2,
        count_ends: bool = False,
    ) -> SightLine:
        """Whether ``a`` sees ``b`` over this board's terrain, and why.

        The hexes strictly between the ends are checked (also the ends when
        ``count_ends``): a hex that blocks sight stops the line; an obscuring
        hex stops it only when the line would pass through (never at an end);
        soft cover adds up and blocks at ``soft_limit``. Where the line runs
        along a hexside, ``tie_policy`` decides: ``"both_must_block"`` lets the
        line pass on the better side (the pair stops it only if both hexes do,
        and counts as soft only if both are soft, the lesser of the two);
        ``"either_blocks"`` takes the worse side. A line along the board's
        zigzag edge can touch hexes off the board: they count as open and are
        left out of ``intervening``.
        """
        self._check_on_board(a)
        self._check_on_board(b)
        if tie_policy not in TIE_POLICIES:
            raise ValueError(
                f"unknown tie policy {tie_policy!r}; allowed: {', '.join(TIE_POLICIES)}"
            )
        if isinstance(soft_limit, bool) or not isinstance(soft_limit, int) or soft_limit < 1:
            raise ValueError(f"soft_limit must be an integer >= 1, got {soft_limit!r}")
        best = tie_policy == "both_must_block"
        clear = self._sees(a, b, best, soft_limit, count_ends)
        return SightLine._deferred(
            clear, functools.partial(self._sight_evidence, a, b, best, soft_limit, count_ends)
        )

    def _sees(self, a: Hex, b: Hex, best: bool, soft_limit: int, count_ends: bool) -> bool:
        """Whether the line is clear, stopping at the first hex that settles it.

        The same rules as :meth:`_sight_evidence`, on plain numbers: terrain by offset
        index, no :class:`Hex` or words built.
        """
        width, height, grid = self._width, self._height, self._grid
        last = distance(a, b)
        soft_total = 0
        for i, (q, r, q2, r2) in enumerate(_line_cells(a, b, True)):
            if not count_ends and (i == 0 or i == last):
                continue
            at_end = i == 0 or i == last
            row = r + (q - (q & 1)) // 2
            t = grid[row * width + q] if 0 <= q < width and 0 <= row < height else None
            if q == q2 and r == r2:  # one hex
                if t is None:
                    continue
                if t.blocks_sight or (t.obscures and not at_end):
                    return False
                soft_total += t.soft_cover
            else:  # a tie: two hexes, either may be off the board (open)
                row2 = r2 + (q2 - (q2 & 1)) // 2
                u = grid[row2 * width + q2] if 0 <= q2 < width and 0 <= row2 < height else None
                stop_t = t is not None and (t.blocks_sight or (t.obscures and not at_end))
                stop_u = u is not None and (u.blocks_sight or (u.obscures and not at_end))
                if stop_t and stop_u:
                    return False
                st = 0 if t is None else t.soft_cover
                su = 0 if u is None else u.soft_cover
                if stop_t or stop_u:
                    if not best:
                        return False
                    soft_total += su if stop_t else st  # the line passes on the open side
                else:
                    soft_total += min(st, su) if best else max(st, su)
            if soft_total >= soft_limit:
                return False
        return True

    def _sight_evidence(
        self, a: Hex, b: Hex, best: bool, soft_limit: int, count_ends: bool
    ) -> _Evidence:
        """The full account of a sight line: every step, what blocked it and why."""
        steps = tuple(line_steps(a, b))
        last = len(steps) - 1
        contains = self.contains
        intervening = tuple(h for step in steps[1:last] for h in step.hexes if contains(h))
        checked = range(len(steps)) if count_ends else range(1, last)
        blocking: list[Hex] = []
        first_block: str = ""
        soft: list[Hex] = []
        soft_total = 0
        for i in checked:
            at_end = i in (0, last)
            verdicts = [(h, self.terrain_at(h)) for h in steps[i].hexes if contains(h)]
            stoppers = [(h, t) for h, t in verdicts if _stops(t, at_end)]
            passable = [(h, t) for h, t in verdicts if not _stops(t, at_end)]
            open_sides = len(steps[i].hexes) - len(stoppers)
            if stoppers and (not open_sides or not best):
                blocking.extend(h for h, _ in stoppers)
                if not first_block:
                    first_block = _block_reason(stoppers)
                continue
            values = [t.soft_cover for _, t in passable]
            if len(verdicts) < len(steps[i].hexes):
                values.append(0)  # the off-board side of a tie is open
            value = min(values) if best else max(values)
            if value > 0:
                soft_total += value
                soft.extend(h for h, t in passable if t.soft_cover > 0)
        soft_names = ", ".join(f"{self.terrain_at(h).name} at {hex_label(h)}" for h in soft)
        if first_block:
            reason = first_block
        elif soft_total >= soft_limit:
            reason = f"soft cover {soft_total} in between ({soft_limit} blocks): {soft_names}"
        elif soft_total:
            reason = f"clear (soft cover {soft_total}, {soft_limit} blocks): {soft_names}"
        else:
            reason = "clear"
        return reason, steps, intervening, tuple(blocking), tuple(soft), soft_total


_JSON_KEYS = ("width", "height", "terrain", "features")


def _by_row_col(item: tuple[Hex, object]) -> tuple[int, int]:
    return _row_col_key(item[0])


def _json_object(data: Mapping[Any, Any], key: str) -> Mapping[Any, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"board.{key} must be an object keyed by 'q,r', got {value!r}")
    return value


def _json_hex(board: Board, key: str, text: object) -> Hex:
    if not isinstance(text, str):
        raise ValueError(f"board.{key}: hex key must be a 'q,r' string, got {text!r}")
    try:
        h = Hex.parse(text)
    except ValueError as exc:
        raise ValueError(f"board.{key}[{text!r}]: {exc}") from None
    if not board.contains(h):
        raise ValueError(
            f"board.{key}[{text!r}]: hex {h} is off the {board.width}x{board.height} board"
        )
    return h


def _stops(t: Terrain, at_end: bool) -> bool:
    return t.blocks_sight or (t.obscures and not at_end)


def _block_reason(stoppers: list[tuple[Hex, Terrain]]) -> str:
    parts = " and ".join(f"{t.name} at {hex_label(h)}" for h, t in stoppers)
    if all(t.blocks_sight for _, t in stoppers):
        return f"blocked by {parts}"
    return f"cannot pass through {parts} (fire may end there, not pass through)"
