"""A map picture under the board: named by its digest, aligned to the board's hexes.

The picture's bytes never live in the encounter's document (the page keeps them in the
browser's storage for large data under their digest); the document names them by their
SHA-256 digest, with the alignment: the grid's orientation, its hex size and the centre of
the board's hex in column 0, row 0, in the picture's pixels, and the few degrees the print
is turned (``tilt``: the picture is turned back about its middle under the board).
Pointed-topped grids are measured after a quarter turn clockwise, which makes their rows the
board's columns (as ``hexcombat.map_grid`` proposes them). ``terrain`` says how painted
terrain shows over the picture.
"""

from __future__ import annotations

import base64
import hashlib
import math
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from hexcombat.errors import HexcombatError
from hexcombat.map_grid import GridProposal, Orientation
from hexcombat.validation import Json, Reader, describe

__all__ = [
    "MAX_PICTURE_BYTES",
    "MEDIA_TYPES",
    "TERRAIN_SHOWN",
    "MapPicture",
    "NamedPicture",
    "PictureMismatchError",
    "data_url",
    "digest_of",
    "map_picture_from_json",
    "picture_name",
    "placement",
]

TerrainShown = Literal["tint", "outline", "hidden"]
TERRAIN_SHOWN: tuple[TerrainShown, ...] = ("tint", "outline", "hidden")
"""How painted terrain shows over a picture: a see-through tint, its outline, or not."""
MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp")
MAX_PICTURE_BYTES = 40 * 1024 * 1024
"""The largest picture kept or sent to another device, in bytes."""
MAX_SIDE = 20_000
"""The longest side of a picture, in pixels."""
_SQRT3 = math.sqrt(3.0)
_FIELDS = (
    "digest",
    "type",
    "width",
    "height",
    "orientation",
    "hex_size",
    "offset",
    "tilt",
    "terrain",
)
MOST_TILT = 5.0
"""The most a picture's print may be turned, in degrees."""


class PictureMismatchError(HexcombatError):
    """The bytes given are not the picture the encounter names."""


@dataclass(frozen=True, slots=True)
class MapPicture:
    """The picture an encounter's board lies over, and how it is aligned."""

    digest: str
    type: str
    width: int
    height: int
    orientation: Orientation = "flat"
    hex_size: float = 50.0
    offset: tuple[float, float] = (50.0, 43.3)
    terrain: TerrainShown = "tint"
    tilt: float = 0.0
    """Degrees the print is turned clockwise; the offset is exact at the picture's middle."""

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form, as the document's ``board.picture`` (``tilt`` only when turned)."""
        data: dict[str, Json] = {
            "digest": self.digest,
            "type": self.type,
            "width": self.width,
            "height": self.height,
            "orientation": self.orientation,
            "hex_size": self.hex_size,
            "offset": [self.offset[0], self.offset[1]],
            "terrain": self.terrain,
        }
        if self.tilt:
            data["tilt"] = self.tilt
        return data

    def aligned(self, proposal: GridProposal) -> MapPicture:
        """This picture aligned as the grid finder proposes."""
        return replace(
            self,
            orientation=proposal.orientation,
            hex_size=proposal.hex_size,
            offset=proposal.offset,
            tilt=proposal.tilt,
        )

    def two_taps(
        self,
        taps: tuple[tuple[float, float], tuple[float, float]],
        hexes_apart: int,
        origin: tuple[float, float],
        board_hex_size: float,
    ) -> MapPicture:
        """This picture aligned by two taps on the centres of two of its hexes
        ``hexes_apart`` hexes apart in a straight line, tapped on a board drawn with hex
        (0, 0) centred at ``origin`` and hexes of ``board_hex_size``: the size from their
        distance, the offset moved to the nearest centre of the new grid (the first tap
        stays a centre)."""
        if isinstance(hexes_apart, bool) or not isinstance(hexes_apart, int) or hexes_apart < 1:
            raise ValueError(f"the two hexes must be 1 or more hexes apart, got {hexes_apart!r}")
        k = self.hex_size / board_hex_size
        (ax, ay), (bx, by) = (
            (self.offset[0] + (x - origin[0]) * k, self.offset[1] + (y - origin[1]) * k)
            for x, y in taps
        )
        size = math.hypot(bx - ax, by - ay) / (hexes_apart * _SQRT3)
        if not 1.0 <= size <= max(self.width, self.height):
            raise ValueError(
                "tap the centres of two different hexes, further apart: they are "
                f"{math.hypot(bx - ax, by - ay):.0f} px apart in the picture"
            )
        pitch, height = 1.5 * size, _SQRT3 * size
        i = math.floor((self.offset[0] - ax) / pitch + 0.5)
        j = math.floor((self.offset[1] - ay - i * height / 2.0) / height + 0.5)
        offset = (ax + i * pitch, ay + (j + i / 2.0) * height)
        return replace(self, hex_size=size, offset=offset)


def digest_of(data: bytes) -> str:
    """The SHA-256 digest of a picture's bytes, as lowercase hexadecimal."""
    return hashlib.sha256(data).hexdigest()


class NamedPicture(Protocol):
    """A picture as a document names it: the digest of its bytes and its media type."""

    @property
    def digest(self) -> str:
        """The SHA-256 digest of its bytes."""

    @property
    def type(self) -> str:
        """Its media type (one of :data:`MEDIA_TYPES`)."""


def data_url(picture: NamedPicture, data: bytes, what: str = "map picture") -> str:
    """The picture's bytes as a ``data:`` URL, once they are checked to be the named ones
    (``what`` the encounter calls the picture, for the error)."""
    if digest_of(data) != picture.digest:
        raise PictureMismatchError(
            f"the file given is not the encounter's {what} (its SHA-256 digest is "
            f"{digest_of(data)[:12]}…, the encounter names {picture.digest[:12]}…)"
        )
    return f"data:{picture.type};base64,{base64.b64encode(data).decode('ascii')}"


def placement(picture: MapPicture, origin: tuple[float, float], hex_size: float) -> str:
    """The SVG transform that lays the picture (drawn at 0,0 at its own size) under a board
    whose hex (0, 0) has its centre at ``origin`` and whose hexes have size ``hex_size``."""
    k = hex_size / picture.hex_size
    x = origin[0] - k * picture.offset[0]
    y = origin[1] - k * picture.offset[1]
    pointed = picture.orientation == "pointed"
    turn = f" translate({picture.height} 0) rotate(90)" if pointed else ""
    if picture.tilt:  # turned back about the middle of the (quarter-turned) picture
        w, h = (picture.height, picture.width) if pointed else (picture.width, picture.height)
        cx, cy = _num(w / 2.0), _num(h / 2.0)
        turn = f" translate({cx} {cy}) rotate({-picture.tilt:.6g}) translate(-{cx} -{cy}){turn}"
    return f"translate({_num(x)} {_num(y)}) scale({k:.6g}){turn}"


def _num(x: float) -> str:
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def picture_name(obj: dict[str, Json], path: str, reader: Reader) -> tuple[str, str]:
    """A picture's ``digest`` and media ``type`` as a document names it (``board.picture``,
    a figure's ``portrait``), each problem recorded in ``reader`` under ``path``."""
    digest = obj.get("digest")
    if not (
        isinstance(digest, str)
        and len(digest) == 64
        and all(c in "0123456789abcdef" for c in digest)
    ):
        reader.problem(
            f"{path}.digest",
            f"must be the picture's SHA-256 digest (64 lowercase hexadecimal digits), got "
            f"{describe(digest)}",
        )
    kind = obj.get("type")
    if kind not in MEDIA_TYPES:
        reader.problem(
            f"{path}.type", f"must be one of {', '.join(MEDIA_TYPES)}, got {describe(kind)}"
        )
    return str(digest), str(kind)


def map_picture_from_json(data: Json, path: str, reader: Reader) -> MapPicture | None:
    """Read ``board.picture``, every problem recorded in ``reader`` under ``path``."""
    obj = reader.object(data, path)
    if obj is None:
        return None
    before = len(reader.problems)
    for key in sorted(set(obj) - set(_FIELDS)):
        reader.problem(f"{path}.{key}", f"is not a map picture field ({', '.join(_FIELDS)})")
    digest, kind = picture_name(obj, path, reader)
    width = reader.integer(obj, "width", path, minimum=1, maximum=MAX_SIDE)
    height = reader.integer(obj, "height", path, minimum=1, maximum=MAX_SIDE)
    orientation = obj.get("orientation", "flat")
    if orientation not in ("flat", "pointed"):
        reader.problem(
            f"{path}.orientation",
            f"must be flat (flat-topped hexes) or pointed (pointed-topped), got "
            f"{describe(orientation)}",
        )
    longest = max(width or 1, height or 1)
    hex_size = _number(obj.get("hex_size"), f"{path}.hex_size", reader, 1.0, float(longest))
    x, y = _offset(obj.get("offset"), f"{path}.offset", reader, 4.0 * longest)
    tilt = _number(obj.get("tilt", 0.0), f"{path}.tilt", reader, -MOST_TILT, MOST_TILT)
    terrain = obj.get("terrain", "tint")
    if terrain not in TERRAIN_SHOWN:
        reader.problem(
            f"{path}.terrain", f"must be one of {', '.join(TERRAIN_SHOWN)}, got {describe(terrain)}"
        )
    if (
        len(reader.problems) > before
        or width is None
        or height is None
        or hex_size is None
        or x is None
        or y is None
        or tilt is None
    ):
        return None
    turned: Orientation = "pointed" if orientation == "pointed" else "flat"
    shown = next(t for t in TERRAIN_SHOWN if t == terrain)
    return MapPicture(digest, kind, width, height, turned, hex_size, (x, y), shown, tilt)


def _offset(
    value: Json, path: str, reader: Reader, reach: float
) -> tuple[float | None, float | None]:
    """``[x, y]``, each a number within ``reach`` of the picture's corner, or problems."""
    if not isinstance(value, list) or len(value) != 2:
        reader.problem(
            path,
            f"must be [x, y], the centre of the board's first hex in the picture, got "
            f"{describe(value)}",
        )
        return None, None
    x, y = (_number(v, f"{path}[{i}]", reader, -reach, reach) for i, v in enumerate(value))
    return x, y


def _number(value: Json, path: str, reader: Reader, low: float, high: float) -> float | None:
    """A finite number from ``low`` to ``high``, or a problem saying so."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        reader.problem(
            path, f"must be a number from {_num(low)} to {_num(high)}, got {describe(value)}"
        )
        return None
    return float(value)
