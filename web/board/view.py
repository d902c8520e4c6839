"""The SVG hex board: terrain, figures and highlights drawn from the engine's plain-data views.

The board draws what :func:`hexcombat.view.encounter_view` returns and reports
what the player taps; it never decides a rule. It redraws only what changed:
hex polygons are kept and their attributes updated, figures live in their own
layer (one ``<g>`` per figure, moved with a CSS transform so moves animate),
and highlights are overlays that ignore the pointer.

Its parts: :mod:`web.board.marks` (the highlights), :mod:`web.board.camera` (pan and zoom:
one ``transform`` attribute, at most once per animation frame; during a gesture the drawn
board moved whole by the compositor), :mod:`web.board.gestures`
(pointer, wheel and keyboard: one pointer drags or paints, two pinch, the wheel zooms about
the pointer, a double tap fits; arrows move a hex cursor, N / Shift+N put it on the next /
previous figure, Enter taps it, Esc cancels, +/- zoom and F fits), :mod:`web.board.units`
and :mod:`web.board.colours`. This module draws hexes, figures, coordinates and the cursor.

Test hooks: ``data-hex``, ``data-terrain``, ``data-figure``, ``data-facing``,
``data-highlight`` (space-separated reasons: reach, path, target, los,
blocked, focus, or a band name from a preview), and an ``aria-label`` on
every hex and figure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import js  # type: ignore[import-not-found]

from hexcombat.layout import Layout, from_offset, to_offset
from hexcombat.render import PORTRAIT_CLIP, pattern_motif, portrait_image
from hexcombat.terrain import terrain_cost
from web.board.backdrop import Backdrop
from web.board.camera import Camera
from web.board.colours import BADGE_FALLBACK, css_color, css_string, night_colour, prefers_dark
from web.board.gestures import Gestures
from web.board.marks import Highlights, Marks
from web.board.portraits import Portraits
from web.board.units import (
    APOTHEM,
    HEX,
    MARGIN,
    OUTLINE,
    TOKEN_R,
    facing_angle,
    friendly,
    num,
    parse_key,
)
from web.library.pictures import PagePictures
from web.ui.dom import byid, esc, proxy
from web.ui.html import Markup, el, joined, leaf

__all__ = ["BoardView", "Handlers", "Marks", "facing_angle", "friendly", "parse_key"]
"""What other modules import from here (the board's units and highlights live in their own
modules: ``units``, ``marks``, ``camera``, ``gestures``, ``colours``)."""

FULL_REDRAW_AT = 400
"""Beyond this many changed hexes one markup write beats per-hex updates."""
LAYERS = (
    '<defs id="board-defs"></defs>'
    '<g id="board-view">'
    '<rect id="board-bg" class="board-bg" x="0" y="0" width="1" height="1" rx="10"/>'
    '<image id="board-picture" class="map-picture" preserveAspectRatio="none" '
    'aria-hidden="true"/>'
    '<g id="layer-hexes" class="hexes"></g>'
    '<g id="layer-bands" class="overlay" aria-hidden="true"></g>'
    '<g id="layer-reach" class="overlay" aria-hidden="true"></g>'
    '<g id="layer-coords" class="overlay coords" aria-hidden="true"></g>'
    '<g id="layer-lines" class="overlay" aria-hidden="true"></g>'
    '<g id="layer-cursor" class="overlay" aria-hidden="true"></g>'
    '<g id="layer-figures" class="figures"></g>'
    "</g>"
)
"""The board's layers, bottom first: the map picture (``web/board/backdrop.py``), terrain,
bands, reach, coordinates, lines, the keyboard cursor, figures (the overlays ignore the
pointer)."""


@dataclass
class Handlers:
    """What the board reports: taps, hover, finished paint strokes, Esc."""

    tap: Callable[[str, str | None], None]
    confirm: Callable[[str, str | None], None] = lambda key, fid: None
    """Enter on the keyboard cursor: like a tap, or a confirmation of what it chose before."""
    inspect: Callable[[str, str | None], None] = lambda key, fid: None
    """A long press: show details without selecting or acting."""
    hover: Callable[[str | None], None] = lambda key: None
    stroke: Callable[[list[str]], None] = lambda keys: None
    cancel: Callable[[], None] = lambda: None
    picture_missing: Callable[[Mapping[str, Any]], None] = lambda picture: None
    """The board names a map picture (this view of it) that this device does not hold."""
    viewed: Callable[[], None] = lambda: None
    """The view was panned or zoomed (and drawn so): what floats over the board may move."""


class BoardView(Highlights, Camera, Gestures):
    """The live board in ``<svg id=board>``: drawing, pan/zoom, pointer and keyboard input."""

    _sheet: ClassVar[Any] = None
    """The page's style sheet of plain terrain colours, made on the first draw."""

    def __init__(self, handlers: Handlers, pictures: PagePictures) -> None:
        self.handlers = handlers
        self.svg = byid("board")
        self.svg.innerHTML = LAYERS
        self.view_g = byid("board-view")
        self.hex_layer = byid("layer-hexes")
        self.fig_layer = byid("layer-figures")
        self.layout = Layout(size=HEX, origin=(HEX + MARGIN, APOTHEM + MARGIN))
        self.backdrop = Backdrop(self.svg, self.layout.origin, pictures, handlers.picture_missing)
        self.portraits = Portraits(self.svg, pictures)
        self.width = self.height = 0
        self.size = (0.0, 0.0)
        self.signature: tuple[Any, ...] = ()
        self.terrains: dict[str, dict[str, Any]] = {}
        self.default_terrain = ""
        self.painted: dict[str, str] = {}
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.tokens: dict[str, list[Any]] = {}
        self.occupant: dict[str, str] = {}
        self.stacked: dict[str, list[str]] = {}
        """The figures standing in each hex (several where a ruleset lets them share it)."""
        self.figure_names: dict[str, str] = {}
        self.selected: str | None = None
        self.highlighted: dict[str, str] = {}
        self.coords = False
        self.cursor: str | None = None
        self.cursor_figure: str | None = None
        """The figure the cursor is on in its hex (N / Shift+N reach each of a shared hex's)."""
        self.paint_fill: str | None = None
        """Fill shown under a paint stroke before the engine confirms it (None: no painting)."""
        self.drag_picture: Callable[[float, float], None] | None = None
        self.tapped_at = (0.0, 0.0)
        self.insets = (0.0, 0.0, 0.0, 0.0)
        """Screen space covered by panels (top, right, bottom, left) that fit() avoids."""
        self.fitted_insets = self.insets
        """The insets of the last fit()."""
        # view transform: screen = board * k + t
        self.k = 1.0
        self.tx = 0.0
        self.ty = 0.0
        self.user_moved = False
        self.finger_fit = False
        self._frame_pending = False
        self._rect: Any = None
        self._pointers: dict[int, tuple[float, float]] = {}
        self._down: dict[str, Any] | None = None
        self._pinch: dict[str, float] | None = None
        self._stroke: list[str] | None = None
        self._last_tap = (0.0, "", 0.0, 0.0)
        self._hover_key: str | None = None
        self._held: tuple[float, float, float] | None = None
        self._drawn = (1.0, 0.0, 0.0)
        self._far = False
        self._wheel_timer: Any = None
        self._wheel_proxy = proxy(self._wheel_done)
        self._press_timer: Any = None
        self._press_proxy = proxy(self._long_press)
        self._frame_proxy = proxy(self._frame)
        self._bind()

    # ---- drawing --------------------------------------------------------------
    def draw(self, view: Mapping[str, Any], terrain_table: Sequence[Mapping[str, Any]]) -> None:
        """Bring the board in line with an encounter view, touching only what changed."""
        board = view["board"]
        signature = (
            board["width"],
            board["height"],
            tuple((t["id"], t["color"], t["pattern"], t["name"]) for t in terrain_table),
            prefers_dark(),
        )
        painted = dict(board["terrain"])
        if signature != self.signature:
            self._rebuild(board, terrain_table, painted)
            self.signature = signature
        else:
            changed = [
                k
                for k in set(self.painted) | set(painted)
                if self.painted.get(k, self.default_terrain) != painted.get(k, self.default_terrain)
            ]
            self.painted = painted
            if len(changed) > FULL_REDRAW_AT:
                self._write_hexes()
            else:
                for key in changed:
                    self._update_hex(key)
        self.backdrop.follow(view.get("picture"))
        self._draw_figures(view["figures"])
        self._say_cursor_again()

    def _say_cursor_again(self) -> None:
        """The live region says the cursor's hex as it is now (painted, or a figure gone in
        or out), and only when that changed."""
        if self.cursor not in self.index:
            return
        region = byid("board-announce")
        words = self.hex_words(str(self.cursor))
        if str(region.textContent) != words:
            region.textContent = words

    def _rebuild(
        self,
        board: Mapping[str, Any],
        terrain_table: Sequence[Mapping[str, Any]],
        painted: dict[str, str],
    ) -> None:
        screen = self._screen()  # before the hexes are written: measuring then lays them out
        self.width, self.height = int(board["width"]), int(board["height"])
        dark = prefers_dark()
        self.terrains = {
            t["id"]: {**t, "color": night_colour(str(t["color"])) if dark else t["color"]}
            for t in terrain_table
        }
        self.default_terrain = terrain_table[0]["id"]
        self.painted = painted
        self.keys = [
            str(from_offset(col, row)) for row in range(self.height) for col in range(self.width)
        ]
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.highlighted = {}
        bw = 1.5 * HEX * (self.width - 1) + 2 * HEX + 2 * MARGIN
        bh = 2 * APOTHEM * self.height + (APOTHEM if self.width > 1 else 0) + 2 * MARGIN
        self.size = (bw, bh)
        bg = byid("board-bg")
        bg.setAttribute("width", num(bw))
        bg.setAttribute("height", num(bh))
        byid("board-defs").innerHTML = self._defs()
        self._plain_colors()
        self.svg.setAttribute("aria-label", f"Hex board, {self.width} by {self.height}")
        self._write_hexes()
        for layer in ("layer-bands", "layer-reach", "layer-lines", "layer-cursor"):
            byid(layer).innerHTML = ""
        if self.coords:
            self._write_coords()
        if self.cursor is not None and self.cursor not in self.index:
            self.cursor = None
            byid("layer-cursor").removeAttribute("data-at")
        self.user_moved = False
        self.fit(screen=screen)

    def _plain_colors(self) -> None:
        """The plain-colour fills of patterned terrain, as a constructed style sheet.

        Not a ``<style>`` element: the page's Content-Security-Policy allows style
        sheets only from the site's files, and constructed sheets (CSSOM) are not text
        the page parses from markup.
        """
        plain = "".join(
            f'#board.plain [data-terrain="{css_string(t["id"])}"] '
            f"{{ fill: {css_color(t['color'])}; }}"
            for t in self.terrains.values()
            if t["pattern"] != "none"
        )
        # over a map picture: the unpainted hexes show the picture; painted ones are a tint,
        # or an outline in their terrain's colour
        plain += f'#board[data-map] .hexes [data-terrain="{css_string(self.default_terrain)}"] '
        plain += "{ fill-opacity: 0; }"
        plain += "".join(
            f'#board[data-map="outline"] .hexes [data-terrain="{css_string(t["id"])}"] '
            f"{{ stroke: {css_color(t['color'])}; stroke-width: 3; }}"
            for t in self.terrains.values()
            if t["id"] != self.default_terrain
        )
        sheet = BoardView._sheet
        if sheet is None:
            sheet = js.CSSStyleSheet.new()
            BoardView._sheet = sheet
            js.document.adoptedStyleSheets = js.Array.of(*js.document.adoptedStyleSheets, sheet)
        sheet.replaceSync(plain)

    def _defs(self) -> str:
        tile = num(HEX * 0.6)
        parts = [
            Markup(
                '<filter id="lift" x="-50%" y="-50%" width="200%" height="200%">'
                '<feDropShadow dx="0" dy="3" stdDeviation="3" flood-opacity="0.45"/></filter>'
            ),
            Markup(PORTRAIT_CLIP),
        ]
        for t in self.terrains.values():
            if t["pattern"] != "none":
                parts.append(
                    el(
                        "pattern",
                        leaf("rect", width=tile, height=tile, fill=str(t["color"])),
                        Markup(pattern_motif(t["pattern"], HEX * 0.6)),
                        id=f"tp-{t['id']}",
                        patternUnits="userSpaceOnUse",
                        width=tile,
                        height=tile,
                    )
                )
        return joined(parts)

    def terrain_fill(self, terrain_id: str) -> str:
        """The SVG fill of a terrain: its pattern (colour plus motif) or its plain colour."""
        t = self.terrains[terrain_id]
        return f"url(#tp-{t['id']})" if t["pattern"] != "none" else str(t["color"])

    def _hex_label(self, key: str, terrain_id: str) -> str:
        t = self.terrains[terrain_id]
        return f"{'hex ' + friendly(key) if key else ''}: {t['name']}, {terrain_cost(t)}"

    def _write_hexes(self) -> None:
        """Write every hex in one go: a path from its east corner, the same outline for all."""
        ox, oy = self.layout.origin
        dx, dy = 1.5 * HEX, 2 * APOTHEM
        looks = {
            tid: (self._hex_markup(tid, False).format, self._hex_markup(tid, True).format)
            for tid in self.terrains
        }
        out = []
        i = 0
        for row in range(self.height):
            for col in range(self.width):
                key = self.keys[i]
                i += 1
                plain, marked = looks[self.painted.get(key, self.default_terrain)]
                reasons = self.highlighted.get(key)
                x = ox + dx * col + HEX
                y = oy + dy * row + (APOTHEM if col & 1 else 0.0)
                if reasons:
                    out.append(marked(key, friendly(key), x, y, esc(reasons)))
                else:
                    out.append(plain(key, friendly(key), x, y))
        self.hex_layer.innerHTML = "".join(out)

    def _hex_markup(self, terrain_id: str, highlighted: bool) -> str:
        """A hex of ``terrain_id`` as markup made once per terrain, every value of the terrain
        escaped by :func:`leaf`; left to fill per hex (``str.format``, in this order): its
        key, its coordinates in words, its east corner's x and y and, when ``highlighted``,
        the escaped reasons."""

        def literal(text: str) -> str:  # a value kept whole through str.format
            return text.replace("{", "{{").replace("}", "}}")

        return leaf(
            "path",
            data_hex="{0}",
            data_terrain=literal(terrain_id),
            data_highlight="{4}" if highlighted else None,
            role="img",
            aria_label="hex {1}" + literal(self._hex_label("", terrain_id)),
            fill=literal(self.terrain_fill(terrain_id)),
            d="M{2:.1f},{3:.1f}" + OUTLINE,
        )

    def hex_node(self, key: str) -> Any:
        """The polygon of hex ``key``."""
        return self.hex_layer.children.item(self.index[key])

    def _update_hex(self, key: str) -> None:
        if key not in self.index:
            return
        tid = self.painted.get(key, self.default_terrain)
        node = self.hex_node(key)
        node.setAttribute("data-terrain", tid)
        node.setAttribute("fill", self.terrain_fill(tid))
        node.setAttribute("aria-label", self._hex_label(key, tid))

    def revert(self, key: str) -> None:
        """Draw hex ``key`` as the engine has it again (after a refused paint stroke)."""
        self._update_hex(key)

    def terrain_at(self, key: str) -> str:
        """The terrain id drawn at ``key``."""
        return self.painted.get(key, self.default_terrain)

    # ---- figures ----------------------------------------------------------------
    def select(self, figure_id: str | None) -> None:
        """Lift the token of ``figure_id`` (None: no selection)."""
        if figure_id == self.selected:
            return
        for fid in (self.selected, figure_id):
            if fid is not None and fid in self.tokens:
                node = self.tokens[fid][1]
                node.classList.toggle("selected", fid == figure_id)
                if fid == figure_id:
                    self.fig_layer.appendChild(node)  # on top of its neighbours
        self.selected = figure_id

    def _draw_figures(self, figures: Sequence[Mapping[str, Any]]) -> None:
        stacks: dict[str, list[str]] = {}
        covered: dict[str, list[str]] = {}
        for f in figures:
            stacks.setdefault(str(f["position"]), []).append(str(f["id"]))
            for h in f.get("hexes") or [f["position"]]:
                covered.setdefault(str(h), []).append(str(f["id"]))
        self.occupant = {key: ids[0] for key, ids in covered.items()}
        self.stacked = stacks
        self.figure_names = {str(f["id"]): str(f["name"]) for f in figures}
        seen = set()
        for f in figures:
            fid = str(f["id"])
            seen.add(fid)
            key = str(f["position"])
            group = stacks[key]
            n, i = len(group), group.index(fid)
            x, y = self.layout.to_pixel(parse_key(key))
            scale = 1.0 if n == 1 else 0.62
            x += (i - (n - 1) / 2) * TOKEN_R * 1.25
            hexes = [str(h) for h in f.get("hexes") or [key]]
            centres = (self.layout.to_pixel(parse_key(h)) for h in hexes[1:])
            tail = tuple((px - x, py - y) for px, py in centres)
            badges = tuple(str(b) for b in f.get("badges", ()))
            label = str(f.get("label") or f["name"])
            portrait = (f.get("portrait") or {}).get("digest", "")
            out = bool(f.get("out"))
            body = (f["name"], f["initials"], f["color"], badges, out, scale, tail, portrait)
            facing = int(f["facing"])
            entry, node, angle = self._token(fid, facing)
            if entry[0] != body:
                node.innerHTML = self._token_inner(f, badges, scale, angle, tail)
                node.classList.toggle("out", bool(f.get("out")))
                entry[0] = body
            elif entry[5] != angle:
                node.querySelector(".wedge").style.transform = f"rotate({num(angle)}deg)"
            entry[5] = angle
            if entry[2] != (x, y):
                node.style.transform = f"translate({num(x)}px, {num(y)}px)"
                entry[2] = (x, y)
            if entry[3] != (facing, key, label):
                node.setAttribute("data-facing", str(facing))
                node.setAttribute("data-at", key)
                node.setAttribute("data-side", str(f["side"]))
                node.setAttribute("aria-label", label)
                entry[3] = (facing, key, label)
            node.classList.toggle("selected", fid == self.selected)
        for fid in [fid for fid in self.tokens if fid not in seen]:
            self.tokens.pop(fid)[1].remove()
        if self.selected not in self.tokens:
            self.selected = None

    def _token(self, fid: str, facing: int) -> tuple[list[Any], Any, float]:
        """Figure ``fid``'s token (made when new): its record, its node, and the angle that
        turns it to ``facing`` the short way round."""
        entry = self.tokens.get(fid)
        if entry is None:
            self.fig_layer.insertAdjacentHTML(
                "beforeend",
                el("g", class_="token", data_figure=fid, role="button"),
            )
            node = self.fig_layer.lastElementChild
            entry = [None, node, None, None, None, 0.0]
            self.tokens[fid] = entry
            return entry, node, facing_angle(facing)
        # turn the short way round
        angle = entry[5] + ((facing_angle(facing) - entry[5] + 180.0) % 360.0 - 180.0)
        return entry, entry[1], angle

    def _token_inner(
        self,
        f: Mapping[str, Any],
        badges: Sequence[str],
        scale: float,
        angle: float,
        tail: Sequence[tuple[float, float]] = (),
    ) -> str:
        r = TOKEN_R
        color = str(f["color"])
        # a figure covering several hexes: one broad band from its anchor over each other hex
        spans = joined(
            leaf("path", class_="span", d=f"M0,0 L{num(dx)},{num(dy)}", stroke=color)
            for dx, dy in tail
        )
        body = [
            leaf("circle", class_="halo", r=num(r + 5)),
            self._wedge(color, angle),
            leaf("circle", class_="ring", r=num(r), stroke=color, stroke_width=num(r * 0.24)),
            Markup(self._portrait(f, r * 0.88)),
            # the token's name is its aria-label; its initials are a picture of it
            el(
                "text",
                str(f["initials"]),
                class_="initials",
                aria_hidden="true",
                y=num(r * 0.33),
                font_size=num(r * 0.95),
                fill=color,
            ),
        ]
        if f.get("out"):
            d = num(r * 0.62)
            cross = f"M-{d},-{d} L{d},{d} M{d},-{d} L-{d},{d}"
            body.append(leaf("path", class_="out-cross", d=cross))
        for i, badge in enumerate(badges[:4]):
            bx = r * 0.95 - i * r * 0.62
            by = r * 0.88
            fill = (f.get("badge_colors") or {}).get(badge, BADGE_FALLBACK)
            body.append(
                el(
                    "g",
                    el("title", badge),
                    leaf("circle", r=num(r * 0.36), fill=str(fill)),
                    el("text", badge[:1].upper(), y=num(r * 0.14), font_size=num(r * 0.42)),
                    class_="badge",
                    aria_hidden="true",
                    transform=f"translate({num(bx)},{num(by)})",
                )
            )
        body.append(el("title", str(f["name"])))
        return spans + el("g", *body, class_="token-body", style=f"transform: scale({scale})")

    @staticmethod
    def _wedge(color: str, angle: float) -> Markup:
        """The facing: a bold wedge from the ring to the front hexside, and that hexside drawn."""
        tip, base, half = APOTHEM * 0.98, TOKEN_R * 0.55, TOKEN_R * 0.78
        side, edge = num(HEX * 0.5), num(APOTHEM - 2)
        return el(
            "g",
            leaf("path", class_="front", d=f"M{edge},-{side} L{edge},{side}", stroke=color),
            leaf(
                "path",
                d=f"M{num(tip)},0 L{num(base)},{num(-half)} L{num(base)},{num(half)} Z",
                fill=color,
                stroke="var(--token-edge)",
                stroke_width="1",
            ),
            class_="wedge",
            style=f"transform: rotate({num(angle)}deg)",
        )

    def _portrait(self, f: Mapping[str, Any], inner: float) -> str:
        """The figure's portrait inside its ring (over the ring's face, so the ring and the
        facing wedge stay whole), or nothing without one; its initials show until it is
        drawn."""
        named = f.get("portrait")
        if not named:
            return ""
        digest = str(named["digest"])
        href, shown = self.portraits.state(digest)
        hooks = f' data-digest="{esc(digest)}" data-portrait="{shown}" aria-hidden="true"'
        return portrait_image(href, 0.0, 0.0, inner, hooks)

    # ---- highlights -----------------------------------------------------------
    # ---- coordinates and cursor ---------------------------------------------------
    def show_coords(self, on: bool) -> None:
        """Show or hide every hex's coordinates."""
        self.coords = on
        if on:
            self._write_coords()
        else:
            byid("layer-coords").innerHTML = ""

    def _write_coords(self) -> None:
        out = []
        for key in self.keys:
            x, y = self.layout.to_pixel(parse_key(key))
            out.append(el("text", friendly(key), x=num(x), y=num(y - APOTHEM * 0.5)))
        byid("layer-coords").innerHTML = "".join(out)

    def hex_words(self, key: str) -> str:
        """A hex in words: coordinates, terrain, cost and who stands there."""
        words = self._hex_label(key, self.terrain_at(key))
        who = self.figure_at_cursor() if key == self.cursor else self.occupant.get(key)
        if who is not None:
            words += f"; {self.figure_names.get(who, who)}"
            others = [f for f in self.stacked.get(key, []) if f != who]
            if others:
                words += "; also here: " + ", ".join(self.figure_names.get(f, f) for f in others)
        return words

    def figure_at_cursor(self) -> str | None:
        """The figure the cursor is on: the one N / Shift+N chose in a shared hex while it
        still stands there, else the hex's first."""
        key = self.cursor or ""
        chosen = self.cursor_figure
        return chosen if chosen in self.stacked.get(key, []) else self.occupant.get(key)

    def set_cursor(self, key: str | None, figure_id: str | None = None) -> None:
        """Put the keyboard cursor on ``key`` (None hides it), on ``figure_id`` among the
        figures there, and announce the hex."""
        self.cursor = key if key in self.index else None
        here = self.stacked.get(key or "", [])
        self.cursor_figure = figure_id if figure_id in here else self.occupant.get(key or "")
        layer = byid("layer-cursor")
        if self.cursor is None:
            layer.innerHTML = ""
            layer.removeAttribute("data-at")
            return
        layer.innerHTML = self._outline(self.cursor, "cursor", 0.95)
        layer.setAttribute("data-at", self.cursor)  # a test hook: where the cursor is
        byid("board-announce").textContent = self.hex_words(self.cursor)
        self.keep_visible(self.cursor)

    def next_figure(self, step: int) -> None:
        """Put the cursor on the next figure (``step`` -1: the one before) in reading order,
        row by row from the top left, so that a keyboard reaches every figure in turn (each
        of a shared hex's)."""
        hexes = sorted(self.stacked, key=lambda k: to_offset(parse_key(k))[::-1])
        order = [(key, fid) for key in hexes for fid in self.stacked[key]]
        if not order:
            return
        now = (self.cursor, self.cursor_figure)
        at = order.index(now) if now in order else (-1 if step > 0 else 0)
        self.set_cursor(*order[(at + step) % len(order)])

    def move_cursor(self, dcol: int, drow: int) -> None:
        """Move the cursor by columns and rows on the board's rectangular grid."""
        if not self.keys:
            return
        start = self.cursor or self.selected_key() or self.keys[len(self.keys) // 2]
        col, row = to_offset(parse_key(start))
        col = max(0, min(self.width - 1, col + dcol))
        row = max(0, min(self.height - 1, row + drow))
        self.set_cursor(str(from_offset(col, row)))

    def selected_key(self) -> str | None:
        """The hex of the selected figure, if any."""
        if self.selected is None or self.selected not in self.tokens:
            return None
        info = self.tokens[self.selected][3]
        return str(info[1]) if info else None

    # ---- view transform ---------------------------------------------------------
    # ---- input ---------------------------------------------------------------------
