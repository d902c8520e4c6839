"""Static SVG pictures of a board and its figures, for pages without JavaScript (wikis).

The output is standalone and deterministic: the same board and tokens give
the same text. It carries the page's test hooks (``data-hex``,
``data-terrain``, ``data-figure``, ``data-facing``) and an accessible name on
every hex and figure.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hexcombat.board import Board
from hexcombat.figures import initials_of
from hexcombat.geometry import DIRECTION_NAMES, DIRECTIONS, Hex
from hexcombat.layout import Layout, hex_label
from hexcombat.map_picture import MapPicture, TerrainShown, data_url, placement
from hexcombat.terrain import Terrain, terrain_facts

__all__ = ["PORTRAIT_CLIP", "Token", "portrait_image", "render_svg"]


@dataclass(frozen=True, slots=True)
class Token:
    """A figure as drawn: where it stands, where it faces, its side colour and status badges.

    ``body``: the other hexes a figure covering several hexes spans (drawn joined to ``hex``).
    ``initials``: the letters on the token (default: from the name). ``out``: no longer in
    the fight (drawn crossed out and greyed, and said so in its name). ``portrait``: the
    figure's picture as a ``data:`` URL, drawn cropped to the inside of the token's ring in
    place of its initials.
    """

    id: str
    name: str
    side: str
    hex: Hex
    facing: int
    color: str = "#3366cc"
    badges: tuple[str, ...] = ()
    body: tuple[Hex, ...] = ()
    initials: str = ""
    out: bool = False
    portrait: str = ""


_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


@functools.cache
def xml_invalid() -> re.Pattern[str]:
    """The characters XML 1.0 does not allow (all but tab, newline, return, U+0020-U+D7FF,
    U+E000-U+FFFD and U+10000-U+10FFFF). Made on first use: a character class over
    U+0100-U+FFFF takes Python's regular expressions a 64K-entry table, 13 ms of the page's
    start in Pyodide, which draws no SVG of its own."""
    return re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text: str) -> str:
    """Text made safe for XML character data and double-quoted attributes."""
    text = xml_invalid().sub("\ufffd", text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _num(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (never ``-0``)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


PORTRAIT_CLIP = (
    '<clipPath id="portrait-clip" clipPathUnits="objectBoundingBox">'
    '<circle cx="0.5" cy="0.5" r="0.5"/></clipPath>'
)
"""The circle a portrait is cropped to: the round middle of the square it is drawn in."""


def portrait_image(href: str, cx: float, cy: float, inner: float, hooks: str = "") -> str:
    """A portrait filling the circle of radius ``inner`` about ``cx``, ``cy`` (the inside of
    a token's ring), cropped to it: the picture's middle, scaled to cover the circle. Without
    ``href`` nothing shows (yet); ``hooks``: further attributes, as markup."""
    source = f' href="{_esc(href)}"' if href else ""
    return (
        f'<image class="portrait"{source}{hooks} x="{_num(cx - inner)}" '
        f'y="{_num(cy - inner)}" width="{_num(2 * inner)}" height="{_num(2 * inner)}" '
        'preserveAspectRatio="xMidYMid slice" clip-path="url(#portrait-clip)"/>'
    )


def _initials(token: Token) -> str:
    return token.initials or initials_of(token.name, token.id)


def pattern_motif(pattern: str, s: float) -> str:
    """The drawing inside one tile (``s`` by ``s``) of a terrain pattern."""
    ink = 'fill="none" stroke="#000" stroke-opacity="0.35" stroke-width="1"'
    dot = 'fill="#000" fill-opacity="0.3"'
    h = s / 2
    if pattern == "trees":
        return (
            f'<circle cx="{_num(s * 0.3)}" cy="{_num(s * 0.35)}" r="{_num(s * 0.18)}" {dot}/>'
            f'<circle cx="{_num(s * 0.75)}" cy="{_num(s * 0.8)}" r="{_num(s * 0.15)}" {dot}/>'
        )
    if pattern == "waves":
        return (
            f'<path d="M0,{_num(h)} q{_num(s / 4)},{_num(-s / 5)} {_num(h)},0 t{_num(h)},0" {ink}/>'
        )
    if pattern == "dots":
        return f'<circle cx="{_num(h)}" cy="{_num(h)}" r="{_num(s * 0.1)}" {dot}/>'
    if pattern == "hatch":
        return f'<path d="M0,{_num(s)} L{_num(s)},0" {ink}/>'
    if pattern == "contour":
        low, high = _num(s * 0.7), _num(s * 0.2)
        return f'<path d="M0,{low} Q{_num(h)},{high} {_num(s)},{low}" {ink}/>'
    if pattern == "sand":
        return (
            f'<circle cx="{_num(s * 0.2)}" cy="{_num(s * 0.3)}" r="{_num(s * 0.05)}" {dot}/>'
            f'<circle cx="{_num(s * 0.7)}" cy="{_num(s * 0.55)}" r="{_num(s * 0.05)}" {dot}/>'
            f'<circle cx="{_num(s * 0.4)}" cy="{_num(s * 0.85)}" r="{_num(s * 0.05)}" {dot}/>'
        )
    if pattern == "rock":
        return (
            f'<path d="M{_num(s * 0.15)},{_num(s * 0.7)} L{_num(s * 0.35)},{_num(s * 0.35)} '
            f'L{_num(s * 0.6)},{_num(s * 0.45)} L{_num(s * 0.7)},{_num(s * 0.75)} Z" {ink}/>'
        )
    return ""


def _fill(terrain: Terrain) -> str:
    return _esc(terrain.color) if terrain.pattern == "none" else f"url(#terrain-{terrain.id})"


def render_svg(
    board: Board,
    tokens: Sequence[Token] = (),
    *,
    hex_size: float = 30.0,
    show_coords: bool = False,
    title: str = "",
    margin: float | None = None,
    legend: bool = True,
    backdrop: tuple[MapPicture, bytes] | None = None,
) -> str:
    """The board, its terrain legend and the given figures as a standalone SVG document.

    ``margin`` (default half a hex) is the space around the board; without ``legend`` the
    picture is the board alone, laid out as the page's live board is (hex 0,0's centre at
    ``(margin + hex_size, margin + apothem)``). ``backdrop``: the board's map picture and
    its bytes (checked against its digest), drawn under the hexes, the painted terrain over
    it as the picture says (tint, outline or hidden).
    """
    if not hex_size > 0:
        raise ValueError(f"hex_size must be > 0, got {hex_size}")
    if margin is not None and not margin >= 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    for token in tokens:
        for h in (token.hex, *token.body):
            if not board.contains(h):
                raise ValueError(f"figure {token.id!r} stands on {h}, off the board")
        if isinstance(token.facing, bool) or token.facing not in range(6):
            raise ValueError(f"figure {token.id!r} has facing {token.facing!r}; allowed: 0-5")

    s = hex_size
    apothem = s * math.sqrt(3) / 2
    margin = s * 0.5 if margin is None else margin
    heading = s * 1.2 if title else 0.0
    hexes = board.hexes()
    unit = Layout(size=s)
    centres = [unit.to_pixel(h) for h in hexes]
    min_x = min(x for x, _ in centres) - s
    min_y = min(y for _, y in centres) - apothem
    board_w = max(x for x, _ in centres) + s - min_x
    board_h = max(y for _, y in centres) + apothem - min_y
    layout = Layout(size=s, origin=(margin - min_x, margin + heading - min_y))

    used_ids = {board.terrain_id_at(h) for h in hexes}
    used = [t for t in board.terrain_table if t.id in used_ids]
    line_h = max(s * 0.7, 14.0)
    legend_top = margin + heading + board_h + margin
    width = margin * 2 + (max(board_w, s * 8) if legend else board_w)
    height = legend_top + (line_h * len(used) + margin if legend else 0.0)
    font = max(s * 0.4, 9.0)

    label = title or f"Hex board, {board.width} by {board.height}"
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'role="img" aria-label="{_esc(label)}" font-family="{_FONT}">',
        f"<title>{_esc(label)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    if title:
        out.append(
            f'<text x="{_num(margin)}" y="{_num(margin + s * 0.8)}" font-size="{_num(s * 0.7)}" '
            f'font-weight="bold" fill="#222">{_esc(title)}</text>'
        )

    tile = s * 0.6
    patterned = [t for t in used if t.pattern != "none"]
    portraits = any(t.portrait for t in tokens)
    if patterned or portraits:
        out.append("<defs>")
        if portraits:
            out.append(PORTRAIT_CLIP)
        for t in patterned:
            out.append(
                f'<pattern id="terrain-{t.id}" patternUnits="userSpaceOnUse" '
                f'width="{_num(tile)}" height="{_num(tile)}">'
                f'<rect width="{_num(tile)}" height="{_num(tile)}" fill="{_esc(t.color)}"/>'
                f"{pattern_motif(t.pattern, tile)}</pattern>"
            )
        out.append("</defs>")

    out.extend(_backdrop_svg(backdrop, layout))
    out.extend(_hexes_svg(board, layout, backdrop[0].terrain if backdrop else None))

    if show_coords:
        out.append(
            f'<g class="coords" font-size="{_num(s * 0.28)}" fill="#333" text-anchor="middle" '
            'aria-hidden="true">'
        )
        for h in hexes:
            x, y = layout.to_pixel(h)
            out.append(f'<text x="{_num(x)}" y="{_num(y - apothem * 0.6)}">{hex_label(h)}</text>')
        out.append("</g>")

    if tokens:
        out.append('<g class="tokens">')
        out.extend(_tokens_svg(tokens, layout, font))
        out.append("</g>")

    if legend:
        out.extend(_legend_svg(used, margin, legend_top, line_h, font))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _backdrop_svg(backdrop: tuple[MapPicture, bytes] | None, layout: Layout) -> list[str]:
    """The map picture laid under the board's hexes, if there is one."""
    if backdrop is None:
        return []
    picture, data = backdrop
    return [
        f'<image class="map-picture" href="{data_url(picture, data)}" '
        f'width="{picture.width}" height="{picture.height}" preserveAspectRatio="none" '
        f'transform="{placement(picture, layout.to_pixel(Hex(0, 0)), layout.size)}"/>'
    ]


def _hexes_svg(board: Board, layout: Layout, over_picture: TerrainShown | None) -> list[str]:
    """The hexes, filled with their terrain; over a map picture only the painted ones, as a
    see-through tint, an outline in their colour, or not at all."""
    out = ['<g class="hexes" stroke="#555555" stroke-width="1">']
    for h in board.hexes():
        t = board.terrain_at(h)
        look = f'fill="{_fill(t)}"'
        if over_picture is not None:
            painted = h in board.terrain
            look = 'fill="none" stroke-opacity="0.5"'
            if painted and over_picture == "tint":
                look = f'fill="{_fill(t)}" fill-opacity="0.45"'
            elif painted and over_picture == "outline":
                look = f'fill="none" stroke="{_esc(t.color)}" stroke-width="3"'
        out.append(
            f'<polygon data-hex="{h}" data-terrain="{t.id}" '
            f'aria-label="hex {hex_label(h)}: {_esc(t.name)}" {look} '
            f'points="{_points(layout.corners(h))}"/>'
        )
    out.append("</g>")
    return out


def _legend_svg(
    used: Sequence[Terrain], margin: float, top: float, line_h: float, font: float
) -> list[str]:
    out = [f'<g class="legend" font-size="{_num(font)}" fill="#222">']
    sw = line_h * 0.8
    for i, t in enumerate(used):
        y = top + i * line_h
        out.append(
            f'<rect x="{_num(margin)}" y="{_num(y)}" width="{_num(sw * 1.5)}" height="{_num(sw)}" '
            f'fill="{_fill(t)}" stroke="#555555"/>'
            f'<text x="{_num(margin + sw * 2)}" y="{_num(y + sw * 0.8)}">'
            f"{_esc(t.name)} ({terrain_facts(t.to_json())})</text>"
        )
    out.append("</g>")
    return out


def _token_head(token: Token) -> str:
    """A token's opening ``<g>``: its test hooks and its name in words (greyed when out)."""
    badges = f"; {', '.join(token.badges)}" if token.badges else ""
    facing = DIRECTION_NAMES[token.facing]
    at = " and ".join(str(h) for h in (token.hex, *token.body))
    gone = ", out of the fight" if token.out else ""
    name = f"{token.name} ({token.side}){gone}, facing {facing}, at {at}{badges}"
    greyed = ' data-out="true" opacity="0.55"' if token.out else ""
    return (
        f'<g data-figure="{_esc(token.id)}" data-facing="{token.facing}" '
        f'data-side="{_esc(token.side)}" aria-label="{_esc(name)}"{greyed}>'
    )


def _out_cross(cx: float, cy: float, radius: float) -> str:
    """A cross over a token out of the fight, as the live board draws it."""
    d = radius * 0.62
    low, high, left_x, right_x = _num(cy - d), _num(cy + d), _num(cx - d), _num(cx + d)
    return (
        f'<path class="out" d="M{left_x},{low} L{right_x},{high} M{right_x},{low} '
        f'L{left_x},{high}" stroke="#111111" '
        f'stroke-width="{_num(max(radius * 0.18, 2.0))}" stroke-linecap="round"/>'
    )


def _tokens_svg(tokens: Sequence[Token], layout: Layout, font: float) -> list[str]:
    s = layout.size
    by_hex: dict[Hex, list[Token]] = {}
    for token in tokens:
        by_hex.setdefault(token.hex, []).append(token)
    out: list[str] = []
    for token in tokens:
        sharing = by_hex[token.hex]
        n, i = len(sharing), sharing.index(token)
        radius = s * (0.5 if n == 1 else 0.32)
        cx, cy = layout.to_pixel(token.hex)
        cx += (i - (n - 1) / 2) * radius * 2.2
        # the facing wedge points at the middle of the front hexside
        dx, dy = Layout(size=1.0).to_pixel(DIRECTIONS[token.facing])
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        tip = (cx + ux * radius * 1.55, cy + uy * radius * 1.55)
        left = (
            cx + ux * radius * 0.6 - uy * radius * 0.7,
            cy + uy * radius * 0.6 + ux * radius * 0.7,
        )
        right = (
            cx + ux * radius * 0.6 + uy * radius * 0.7,
            cy + uy * radius * 0.6 - ux * radius * 0.7,
        )
        color = _esc(token.color)
        out.append(_token_head(token))
        for h in token.body:
            # the rest of the body: a broad band from the anchor to each covered hex
            bx, by = layout.to_pixel(h)
            out.append(
                f'<path class="body" d="M{_num(cx)},{_num(cy)} L{_num(bx)},{_num(by)}" '
                f'stroke="{color}" stroke-opacity="0.45" stroke-width="{_num(s * 0.9)}" '
                'stroke-linecap="round" fill="none"/>'
            )
        out.append(f'<polygon points="{_points([tip, left, right])}" fill="{color}"/>')
        ring = max(radius * 0.22, 2.0)
        out.append(
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" fill="#ffffff" '
            f'stroke="{color}" stroke-width="{_num(ring)}"/>'
        )
        if token.portrait:
            out.append(portrait_image(token.portrait, cx, cy, radius - ring / 2))
        else:
            out.append(
                f'<text x="{_num(cx)}" y="{_num(cy + radius * 0.3)}" text-anchor="middle" '
                f'font-size="{_num(radius * 0.85)}" font-weight="bold" fill="{color}">'
                f"{_esc(_initials(token))}</text>"
            )
        if token.out:
            out.append(_out_cross(cx, cy, radius))
        if token.badges:
            out.append(
                f'<text class="badges" x="{_num(cx)}" y="{_num(cy + radius + font * 0.9)}" '
                f'text-anchor="middle" font-size="{_num(font * 0.75)}" fill="#111" '
                f'stroke="#ffffff" stroke-width="2" paint-order="stroke">'
                f"{_esc(', '.join(token.badges))}</text>"
            )
        out.append("</g>")
    return out
