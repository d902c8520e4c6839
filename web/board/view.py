"""The SVG hex board: terrain, figures and highlights drawn from the engine's plain-data views.

The board draws what :func:`hexcombat.view.encounter_view` returns and reports
what the player taps; it never decides a rule. It redraws only what changed:
hex polygons are kept and their attributes updated, figures live in their own
layer (one ``<g>`` per figure, moved with a CSS transform so moves animate),
and highlights are overlays that ignore the pointer.

Pan and zoom change one ``transform`` attribute, at most once per animation
frame; pointer handlers only record numbers. One pointer drags (or paints in
the editor), two pointers pinch, the wheel zooms about the pointer, a double
tap fits. Keyboard: arrows move a hex cursor, N / Shift+N put it on the next / previous
figure, Enter taps it, Esc cancels, +/- zoom and F fits.

Test hooks: ``data-hex``, ``data-terrain``, ``data-figure``, ``data-facing``,
``data-highlight`` (space-separated reasons: reach, path, target, los,
blocked, focus, or a band name from a preview), and an ``aria-label`` on
every hex and figure.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat.geometry import Hex
from hexcombat.layout import Layout, from_offset, hex_label, to_offset
from hexcombat.render import pattern_motif
from web.ui.dom import byid, esc, listen, now_ms, present, proxy

HEX = 30.0
"""Hex size (centre to corner) in board units."""
APOTHEM = HEX * math.sqrt(3) / 2
MARGIN = 16.0
TOKEN_R = HEX * 0.52
TAP_SLOP_PX = 8.0
DOUBLE_TAP_MS = 320.0
MIN_ZOOM, MAX_ZOOM = 0.08, 6.0
FAR_PX = 12.0
TOUCH_TOKEN_PX = 44.0
TOUCH_FIT_PX = 30.0
"""On a touch screen, when the whole board would make tokens narrower than TOUCH_FIT_PX,
fit() zooms to TOUCH_TOKEN_PX tokens instead and centres on the figures (pan for the rest)."""
"""Below this hex size on screen, patterns, costs and coordinates are too small to read."""
WHEEL_IDLE_MS = 180
LONG_PRESS_MS = 550
FULL_REDRAW_AT = 400
"""Beyond this many changed hexes one markup write beats per-hex updates."""

_UNIT = Layout(size=1.0)
_CORNERS = [(HEX * math.cos(math.pi / 3 * i), HEX * math.sin(math.pi / 3 * i)) for i in range(6)]
_OUTLINE = (
    "".join(f"l{b[0] - a[0]:.2f},{b[1] - a[1]:.2f}" for a, b in itertools.pairwise(_CORNERS)) + "z"
)
"""One hex outline drawn relative to its east corner."""
_REACH_OUTLINE = (
    "".join(
        f"l{(b[0] - a[0]) * 0.94:.2f},{(b[1] - a[1]) * 0.94:.2f}"
        for a, b in itertools.pairwise(_CORNERS)
    )
    + "z"
)
"""The same, shrunk to the reach highlight's inset (0.94)."""
BADGE_FALLBACK = "#34495e"
"""A badge's colour comes from the ruleset (``badge_colors`` of the figure view); this is
only for a view without one."""


def _n(x: float) -> str:
    """A coordinate with one decimal at most."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def parse_key(key: str) -> Hex:
    """The hex written as ``"q,r"``."""
    q, _, r = key.partition(",")
    return Hex(int(q), int(r))


def facing_angle(facing: int) -> float:
    """Screen angle in degrees of the front hexside's direction (0 = east, y down)."""
    return -90.0 + 60.0 * facing


@dataclass
class Marks:
    """What the board highlights besides terrain and figures (all hexes as ``"q,r"``)."""

    reach: Mapping[str, int] = field(default_factory=dict)
    path: Sequence[str] = ()
    targets: Sequence[str] = ()
    sight: Mapping[str, Any] | None = None
    bands: Mapping[str, Sequence[str]] = field(default_factory=dict)
    focus: str | None = None
    focus_bad: bool = False
    label: str = ""
    """A short caption at the focus hex (a path's cost, a reason)."""
    guide: Sequence[str] = ()
    """Hexes a guided first fight points at (``data-highlight="guide"``)."""
    measure: Sequence[str] = ()
    """The measure tool's two ends (``data-highlight="measure"``)."""


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


class BoardView:
    """The live board in ``<svg id=board>``: drawing, pan/zoom, pointer and keyboard input."""

    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        self.svg = byid("board")
        self.svg.innerHTML = (
            '<defs id="board-defs"></defs>'
            '<g id="board-view">'
            '<rect id="board-bg" class="board-bg" x="0" y="0" width="1" height="1" rx="10"/>'
            '<g id="layer-hexes" class="hexes"></g>'
            '<g id="layer-bands" class="overlay" aria-hidden="true"></g>'
            '<g id="layer-reach" class="overlay" aria-hidden="true"></g>'
            '<g id="layer-coords" class="overlay coords" aria-hidden="true"></g>'
            '<g id="layer-lines" class="overlay" aria-hidden="true"></g>'
            '<g id="layer-cursor" class="overlay" aria-hidden="true"></g>'
            '<g id="layer-figures" class="figures"></g>'
            "</g>"
        )
        self.view_g = byid("board-view")
        self.hex_layer = byid("layer-hexes")
        self.fig_layer = byid("layer-figures")
        self.layout = Layout(size=HEX, origin=(HEX + MARGIN, APOTHEM + MARGIN))
        self.width = 0
        self.height = 0
        self.size = (0.0, 0.0)
        self.signature: tuple[Any, ...] = ()
        self.terrains: dict[str, dict[str, Any]] = {}
        self.default_terrain = ""
        self.painted: dict[str, str] = {}
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.tokens: dict[str, list[Any]] = {}
        self.occupant: dict[str, str] = {}
        self.figure_names: dict[str, str] = {}
        self.selected: str | None = None
        self.highlighted: dict[str, str] = {}
        self.coords = False
        self.cursor: str | None = None
        self.paint_fill: str | None = None
        """Fill shown under a paint stroke before the engine confirms it (None: no painting)."""
        self.insets = (0.0, 0.0, 0.0, 0.0)
        """Screen space covered by panels (top, right, bottom, left) that fit() avoids."""
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
        self._moving = False
        self._far = False
        self._plain = False
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
        self._draw_figures(view["figures"])

    def _rebuild(
        self,
        board: Mapping[str, Any],
        terrain_table: Sequence[Mapping[str, Any]],
        painted: dict[str, str],
    ) -> None:
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
        bg.setAttribute("width", _n(bw))
        bg.setAttribute("height", _n(bh))
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
        self.user_moved = False
        self.fit()

    def _plain_colors(self) -> None:
        """The plain-colour fills of patterned terrain, as a constructed style sheet.

        Not a ``<style>`` element: the page's Content-Security-Policy allows style
        sheets only from the site's files, and constructed sheets (CSSOM) are not text
        the page parses from markup.
        """
        plain = "".join(
            f'#board.plain [data-terrain="{_css_string(t["id"])}"] '
            f"{{ fill: {_css_color(t['color'])}; }}"
            for t in self.terrains.values()
            if t["pattern"] != "none"
        )
        sheet = getattr(BoardView, "_sheet", None)
        if sheet is None:
            sheet = js.CSSStyleSheet.new()
            BoardView._sheet = sheet
            js.document.adoptedStyleSheets = js.Array.of(*js.document.adoptedStyleSheets, sheet)
        sheet.replaceSync(plain)

    def _defs(self) -> str:
        tile = HEX * 0.6
        parts = [
            '<filter id="lift" x="-50%" y="-50%" width="200%" height="200%">'
            '<feDropShadow dx="0" dy="3" stdDeviation="3" flood-opacity="0.45"/></filter>'
        ]
        for t in self.terrains.values():
            if t["pattern"] != "none":
                parts.append(
                    f'<pattern id="tp-{esc(t["id"])}" patternUnits="userSpaceOnUse" '
                    f'width="{_n(tile)}" height="{_n(tile)}">'
                    f'<rect width="{_n(tile)}" height="{_n(tile)}" fill="{esc(t["color"])}"/>'
                    f"{pattern_motif(t['pattern'], tile)}</pattern>"
                )
        return "".join(parts)

    def terrain_fill(self, terrain_id: str) -> str:
        """The SVG fill of a terrain: its pattern (colour plus motif) or its plain colour."""
        t = self.terrains[terrain_id]
        return f"url(#tp-{t['id']})" if t["pattern"] != "none" else str(t["color"])

    def _hex_label(self, key: str, terrain_id: str) -> str:
        t = self.terrains[terrain_id]
        cost = "impassable" if t.get("move_cost") is None else f"move {t['move_cost']}"
        return f"{'hex ' + friendly(key) if key else ''}: {t['name']}, {cost}"

    def _write_hexes(self) -> None:
        """Write every hex in one go: a path from its east corner, the same outline for all."""
        ox, oy = self.layout.origin
        dx, dy = 1.5 * HEX, 2 * APOTHEM
        looks = {
            tid: (esc(tid), self.terrain_fill(tid), esc(self._hex_label("", tid)))
            for tid in self.terrains
        }
        out = []
        i = 0
        for row in range(self.height):
            for col in range(self.width):
                key = self.keys[i]
                i += 1
                tid, fill, label = looks[self.painted.get(key, self.default_terrain)]
                reasons = self.highlighted.get(key)
                hl = f' data-highlight="{reasons}"' if reasons else ""
                x = ox + dx * col + HEX
                y = oy + dy * row + (APOTHEM if col & 1 else 0.0)
                out.append(
                    f'<path data-hex="{key}" data-terrain="{tid}"{hl} '
                    f'role="img" aria-label="hex {friendly(key)}{label}" fill="{fill}" '
                    f'd="M{x:.1f},{y:.1f}{_OUTLINE}"/>'
                )
        self.hex_layer.innerHTML = "".join(out)

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
            body = (f["name"], f["initials"], f["color"], badges, bool(f.get("out")), scale, tail)
            facing = int(f["facing"])
            entry = self.tokens.get(fid)
            if entry is None:
                self.fig_layer.insertAdjacentHTML(
                    "beforeend",
                    f'<g class="token" data-figure="{esc(fid)}" role="button"></g>',
                )
                node = self.fig_layer.lastElementChild
                entry = [None, node, None, None, None, 0.0]
                self.tokens[fid] = entry
                angle = facing_angle(facing)
            else:
                node = entry[1]
                # turn the short way round
                angle = entry[5] + ((facing_angle(facing) - entry[5] + 180.0) % 360.0 - 180.0)
            if entry[0] != body:
                node.innerHTML = self._token_inner(f, badges, scale, angle, tail)
                node.classList.toggle("out", bool(f.get("out")))
                entry[0] = body
            elif entry[5] != angle:
                node.querySelector(".wedge").style.transform = f"rotate({_n(angle)}deg)"
            entry[5] = angle
            if entry[2] != (x, y):
                node.style.transform = f"translate({_n(x)}px, {_n(y)}px)"
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

    def _token_inner(
        self,
        f: Mapping[str, Any],
        badges: Sequence[str],
        scale: float,
        angle: float,
        tail: Sequence[tuple[float, float]] = (),
    ) -> str:
        r = TOKEN_R
        color = esc(f["color"])
        # a figure covering several hexes: one broad band from its anchor over each other hex
        spans = "".join(
            f'<path class="span" d="M0,0 L{_n(dx)},{_n(dy)}" stroke="{color}"/>' for dx, dy in tail
        )
        # the facing: a bold wedge from the ring to the front hexside, and that hexside drawn
        tip, base, half = APOTHEM * 0.98, r * 0.55, r * 0.78
        side = HEX * 0.5
        wedge = (
            f'<g class="wedge" style="transform: rotate({_n(angle)}deg)">'
            f'<path class="front" d="M{_n(APOTHEM - 2)},{_n(-side)} L{_n(APOTHEM - 2)},{_n(side)}" '
            f'stroke="{color}"/>'
            f'<path d="M{_n(tip)},0 L{_n(base)},{_n(-half)} L{_n(base)},{_n(half)} Z" '
            f'fill="{color}" stroke="var(--token-edge)" stroke-width="1"/></g>'
        )
        initials = esc(f["initials"])
        parts = [
            spans,
            f'<g class="token-body" style="transform: scale({scale})">',
            f'<circle class="halo" r="{_n(r + 5)}"/>',
            wedge,
            f'<circle class="ring" r="{_n(r)}" stroke="{color}" stroke-width="{_n(r * 0.24)}"/>',
            # the token's name is its aria-label; its initials are a picture of it
            f'<text class="initials" aria-hidden="true" y="{_n(r * 0.33)}" '
            f'font-size="{_n(r * 0.95)}" fill="{color}">{initials}</text>',
        ]
        if f.get("out"):
            d = r * 0.62
            parts.append(
                f'<path class="out-cross" d="M{_n(-d)},{_n(-d)} L{_n(d)},{_n(d)} '
                f'M{_n(d)},{_n(-d)} L{_n(-d)},{_n(d)}"/>'
            )
        for i, badge in enumerate(badges[:4]):
            bx = r * 0.95 - i * r * 0.62
            by = r * 0.88
            fill = (f.get("badge_colors") or {}).get(badge, BADGE_FALLBACK)
            parts.append(
                f'<g class="badge" aria-hidden="true" transform="translate({_n(bx)},{_n(by)})">'
                f"<title>{esc(badge)}</title>"
                f'<circle r="{_n(r * 0.36)}" fill="{fill}"/>'
                f'<text y="{_n(r * 0.14)}" font-size="{_n(r * 0.42)}">'
                f"{esc(badge[:1].upper())}</text></g>"
            )
        parts.append(f"<title>{esc(f['name'])}</title></g>")
        return "".join(parts)

    # ---- highlights -----------------------------------------------------------
    def mark(self, marks: Marks) -> None:
        """Show reach, path, targets, line of sight, range bands and the focused hex."""
        reasons: dict[str, list[str]] = {}

        def add(key: str, reason: str) -> None:
            if key in self.index and reason not in reasons.setdefault(key, []):
                reasons[key].append(reason)

        for key in marks.reach:
            add(key, "reach")
        for key in marks.path:
            add(key, "path")
        for key in marks.targets:
            add(key, "target")
        for name, keys in marks.bands.items():
            for key in keys:
                add(key, name)
        sight = marks.sight
        if sight:
            for step in sight.get("line", ()):
                for key in step:
                    add(key, "los")
            for key in sight.get("blocking", ()):
                add(key, "blocked")
        if marks.focus:
            add(marks.focus, "focus")
        for key in marks.guide:
            add(key, "guide")
        for key in marks.measure:
            add(key, "measure")
        wanted = {k: " ".join(v) for k, v in reasons.items()}
        for key in set(self.highlighted) | set(wanted):
            if self.highlighted.get(key) != wanted.get(key):
                node = self.hex_node(key)
                if key in wanted:
                    node.setAttribute("data-highlight", wanted[key])
                else:
                    node.removeAttribute("data-highlight")
        self.highlighted = wanted
        byid("layer-bands").innerHTML = self._bands_svg(marks.bands)
        # the focused hex's label ("4 MP") takes the place of its own cost ("4"), never over it
        labelled = marks.focus if marks.label else None
        byid("layer-reach").innerHTML = self._reach_svg(marks.reach, labelled)
        byid("layer-lines").innerHTML = self._lines_svg(marks)

    def _outline(self, key: str, cls: str, inset: float = 1.0) -> str:
        x, y = self.layout.to_pixel(parse_key(key))
        pts = " ".join(f"{_n(x + cx * inset)},{_n(y + cy * inset)}" for cx, cy in _CORNERS)
        return f'<polygon class="{cls}" points="{pts}"/>'

    def _bands_svg(self, bands: Mapping[str, Sequence[str]]) -> str:
        out = []
        for i, (_name, keys) in enumerate(bands.items()):
            out.extend(
                self._outline(k, f"band band-{i % 4}", 0.92) for k in keys if k in self.index
            )
        return "".join(out)

    def _reach_svg(self, reach: Mapping[str, int], labelled: str | None = None) -> str:
        # One path for every reached hex (each outline relative to its east corner) and a
        # cost label each: a hundred reached hexes made two hundred elements, each with six
        # formatted corners, the bulk of a tap's time on a large board.
        index, to_pixel = self.index, self.layout.to_pixel
        rim, drop = HEX * 0.94, APOTHEM * 0.72
        outline, labels = [], []
        for key, cost in reach.items():
            if key not in index:
                continue
            x, y = to_pixel(parse_key(key))
            outline.append(f"M{x + rim:.1f},{y:.1f}{_REACH_OUTLINE}")
            if key != labelled:
                labels.append(f'<text class="cost" x="{_n(x)}" y="{_n(y + drop)}">{cost}</text>')
        if not outline:
            return ""
        return f'<path class="reach" d="{"".join(outline)}"/>' + "".join(labels)

    def _lines_svg(self, marks: Marks) -> str:
        out = []
        for key in marks.targets:
            if key in self.index:
                out.append(self._outline(key, "target-ring", 0.9))
        sight = marks.sight
        if sight:
            a = self.layout.to_pixel(parse_key(str(sight["from"])))
            b = self.layout.to_pixel(parse_key(str(sight["to"])))
            blocking = [str(k) for k in sight.get("blocking", ()) if str(k) in self.index]
            if sight.get("clear") or not blocking:
                out.append(self._segment(a, b, "los clear"))
            else:
                # the line is clear up to the first blocking hex, then red
                bx, by = self.layout.to_pixel(parse_key(blocking[0]))
                dx, dy = b[0] - a[0], b[1] - a[1]
                length2 = dx * dx + dy * dy or 1.0
                t = max(0.0, min(1.0, ((bx - a[0]) * dx + (by - a[1]) * dy) / length2))
                mid = (a[0] + dx * t, a[1] + dy * t)
                out.append(self._segment(a, mid, "los clear"))
                out.append(self._segment(mid, b, "los blocked"))
                for key in blocking:
                    out.append(self._outline(key, "blocker", 0.86))
                    x, y = self.layout.to_pixel(parse_key(key))
                    d = HEX * 0.3
                    out.append(
                        f'<path class="blocker-x" d="M{_n(x - d)},{_n(y - d)} L{_n(x + d)},'
                        f'{_n(y + d)} M{_n(x + d)},{_n(y - d)} L{_n(x - d)},{_n(y + d)}"/>'
                    )
        path = [k for k in marks.path if k in self.index]
        if len(path) > 1:
            pts = " ".join(
                f"{_n(x)},{_n(y)}" for x, y in (self.layout.to_pixel(parse_key(k)) for k in path)
            )
            out.append(f'<polyline class="path-casing" points="{pts}"/>')
            out.append(f'<polyline class="path" points="{pts}"/>')
            for key in path[1:-1]:
                x, y = self.layout.to_pixel(parse_key(key))
                out.append(f'<circle class="path-dot" cx="{_n(x)}" cy="{_n(y)}" r="3.5"/>')
        for key in [*marks.guide, *marks.measure]:
            if key in self.index:
                out.append(
                    self._outline(key, "guide-ring" if key in marks.guide else "measure-end")
                )
        if marks.focus and marks.focus in self.index:
            cls = "focus bad" if marks.focus_bad else "focus"
            out.append(self._outline(marks.focus, cls, 0.9))
            if marks.label:
                x, y = self.layout.to_pixel(parse_key(marks.focus))
                out.append(
                    f'<text class="focus-label{" bad" if marks.focus_bad else ""}" '
                    f'x="{_n(x)}" y="{_n(y + APOTHEM * 0.72)}">{esc(marks.label)}</text>'
                )
        return "".join(out)

    @staticmethod
    def _segment(a: tuple[float, float], b: tuple[float, float], cls: str) -> str:
        return (
            f'<line class="{cls}" x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(b[0])}" y2="{_n(b[1])}"/>'
        )

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
            out.append(f'<text x="{_n(x)}" y="{_n(y - APOTHEM * 0.5)}">{friendly(key)}</text>')
        byid("layer-coords").innerHTML = "".join(out)

    def hex_words(self, key: str) -> str:
        """A hex in words: coordinates, terrain, cost and who stands there."""
        words = self._hex_label(key, self.terrain_at(key))
        who = self.occupant.get(key)
        if who is not None:
            words += f"; {self.figure_names.get(who, who)}"
        return words

    def set_cursor(self, key: str | None) -> None:
        """Put the keyboard cursor on ``key`` (None hides it) and announce the hex."""
        self.cursor = key if key in self.index else None
        layer = byid("layer-cursor")
        if self.cursor is None:
            layer.innerHTML = ""
            return
        layer.innerHTML = self._outline(self.cursor, "cursor", 0.95)
        byid("board-announce").textContent = self.hex_words(self.cursor)
        self.keep_visible(self.cursor)

    def next_figure(self, step: int) -> None:
        """Put the cursor on the next figure (``step`` -1: the one before) in reading order,
        row by row from the top left, so that a keyboard reaches every figure in turn."""
        order = sorted(self.occupant, key=lambda k: to_offset(parse_key(k))[::-1])
        if not order:
            return
        at = order.index(self.cursor) if self.cursor in order else (-1 if step > 0 else 0)
        self.set_cursor(order[(at + step) % len(order)])

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

    def keep_visible(self, key: str) -> None:
        """Pan just enough that hex ``key`` is on screen, clear of the panels."""
        rect = self._screen()
        x, y = self.layout.to_pixel(parse_key(key))
        sx, sy = x * self.k + self.tx, y * self.k + self.ty
        pad = HEX * self.k * 1.5
        top, right, bottom, left = self.insets
        dx = dy = 0.0
        if sx < left + pad:
            dx = left + pad - sx
        elif sx > rect[0] - right - pad:
            dx = rect[0] - right - pad - sx
        if sy < top + pad:
            dy = top + pad - sy
        elif sy > rect[1] - bottom - pad:
            dy = rect[1] - bottom - pad - sy
        if dx or dy:
            self.tx += dx
            self.ty += dy
            self._schedule()

    # ---- view transform ---------------------------------------------------------
    def _screen(self) -> tuple[float, float]:
        rect = self.svg.getBoundingClientRect()
        self._rect = (float(rect.left), float(rect.top), float(rect.width), float(rect.height))
        return (self._rect[2], self._rect[3])

    def fit(self, *, whole: bool = False) -> None:
        """Zoom and centre so the whole board shows in the free part of the screen. On a touch
        screen a board too big for fingers is fitted to finger-sized tokens instead, centred on
        the figures, unless ``whole``."""
        w, h = self._screen()
        top, right, bottom, left = self.insets
        free_w, free_h = max(w - left - right, 50.0), max(h - top - bottom, 50.0)
        bw, bh = self.size
        if bw <= 0 or bh <= 0:
            return
        k = min(free_w / bw, free_h / bh)
        self.finger_fit = coarse_pointer() and 2 * TOKEN_R * k < TOUCH_FIT_PX and not whole
        if self.finger_fit:  # too small for fingers
            k = TOUCH_TOKEN_PX / (2 * TOKEN_R)
        self.k = max(MIN_ZOOM, min(MAX_ZOOM, k))
        cx, cy = self._focus_point(free_w / self.k, free_h / self.k)
        self.tx = _centred(left, free_w, bw * self.k, cx * self.k)
        self.ty = _centred(top, free_h, bh * self.k, cy * self.k)
        self.user_moved = False
        self._apply()

    def fit_again(self) -> None:
        """The Fit button, F and a double tap: fit; pressed again on a board fitted for fingers
        and untouched since, show the whole board (Fit never does nothing)."""
        self.fit(whole=self.finger_fit and not self.user_moved)

    def _focus_point(self, span_w: float, span_h: float) -> tuple[float, float]:
        """Board point to centre when the board is larger than the screen (``span_w`` x
        ``span_h`` board units show): the selected figure, else the middle of all figures when
        they fit together, else the first figure, else the middle of the board."""
        key = self.selected_key()
        keys = [key] if key else [str(t[3][1]) for t in self.tokens.values() if t[3]]
        if not keys:
            return (self.size[0] / 2, self.size[1] / 2)
        xs, ys = zip(*(self.layout.to_pixel(parse_key(k)) for k in keys), strict=True)
        pad = 4 * HEX
        if max(xs) - min(xs) + pad <= span_w and max(ys) - min(ys) + pad <= span_h:
            return ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        return (xs[0], ys[0])

    def zoom_by(self, factor: float, at: tuple[float, float] | None = None) -> None:
        """Zoom by ``factor`` about a screen point (default: the centre of the board area)."""
        if at is None:
            w, h = self._screen()
            at = (w / 2, h / 2)
        k = max(MIN_ZOOM, min(MAX_ZOOM, self.k * factor))
        bx, by = (at[0] - self.tx) / self.k, (at[1] - self.ty) / self.k
        self.k = k
        self.tx, self.ty = at[0] - bx * k, at[1] - by * k
        self.user_moved = True
        self._schedule()

    def forget_tap(self) -> None:
        """Something else was pressed: the next tap on the board starts afresh (two taps
        with a panel button between them are not a double tap)."""
        self._last_tap = (0.0, "", 0.0, 0.0)

    def _schedule(self) -> None:
        if not self._frame_pending:
            self._frame_pending = True
            js.requestAnimationFrame(self._frame_proxy)

    def _frame(self, _time: Any = None) -> None:
        self._frame_pending = False
        self._apply()

    def _apply(self) -> None:
        self.view_g.setAttribute(
            "transform", f"translate({self.tx:.1f} {self.ty:.1f}) scale({self.k:.4f})"
        )
        far = self.k * HEX < FAR_PX
        if far != self._far:
            self._far = far
            self.svg.classList.toggle("far", far)
        self._set_plain()

    def set_moving(self, moving: bool) -> None:
        """While the view moves, terrain is drawn in plain colours (patterns cost 5x per frame)."""
        if moving != self._moving:
            self._moving = moving
            self._set_plain()

    def _set_plain(self) -> None:
        plain = self._moving or self._far
        if plain != self._plain:
            self._plain = plain
            self.svg.classList.toggle("plain", plain)

    def _wheel_done(self, *_args: Any) -> None:
        self._wheel_timer = None
        if not self._pointers:
            self.set_moving(False)

    def hex_at(self, client_x: float, client_y: float) -> str | None:
        """The hex under a screen point (None when off the board)."""
        if self._rect is None:
            self._screen()
        left, top = self._rect[0], self._rect[1]
        bx = (client_x - left - self.tx) / self.k
        by = (client_y - top - self.ty) / self.k
        key = str(self.layout.from_pixel(bx, by))
        return key if key in self.index else None

    # ---- input ---------------------------------------------------------------------
    def _bind(self) -> None:
        svg = self.svg
        listen(svg, "pointerdown", self._on_down)
        listen(svg, "pointermove", self._on_move)
        listen(svg, "pointerup", self._on_up)
        listen(svg, "pointercancel", self._on_cancel)
        listen(svg, "pointerleave", self._on_leave)
        listen(svg, "wheel", self._on_wheel, passive=False)
        listen(svg, "contextmenu", lambda ev: ev.preventDefault())
        listen(svg, "keydown", self._on_key)
        observer = js.ResizeObserver.new(proxy(self._on_resize))
        observer.observe(byid("board-wrap"))

    def _on_resize(self, *_args: Any) -> None:
        self._screen()
        if not self.user_moved:
            self.fit()

    def _hit(self, ev: Any) -> tuple[str | None, str | None]:
        target = ev.target
        if not present(target) or not hasattr(target, "closest"):
            return None, None
        token = target.closest("[data-figure]")
        if present(token):
            return str(token.getAttribute("data-at")), str(token.getAttribute("data-figure"))
        node = target.closest("[data-hex]")
        if present(node):
            key = str(node.getAttribute("data-hex"))
            return key, self.occupant.get(key)
        key = self.hex_at(float(ev.clientX), float(ev.clientY))
        return key, (self.occupant.get(key) if key else None)

    def _on_down(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        x, y = float(ev.clientX), float(ev.clientY)
        self._pointers[pid] = (x, y)
        self.svg.setPointerCapture(pid)
        if self.cursor is not None:
            self.set_cursor(None)
        if len(self._pointers) == 1:
            self._screen()
            key, fid = self._hit(ev)
            button = int(ev.button)
            self._down = {
                "x": x,
                "y": y,
                "t": now_ms(),
                "key": key,
                "fid": fid,
                "tx": self.tx,
                "ty": self.ty,
                "moved": False,
                "pan": button != 0 or self.paint_fill is None,
            }
            if self.paint_fill is not None and button == 0:
                self._stroke = []
                self._paint_preview(self.hex_at(x, y))
            elif button == 0:
                self._press_timer = js.setTimeout(self._press_proxy, LONG_PRESS_MS)
        elif len(self._pointers) == 2:
            self._cancel_press()
            self._abort_stroke()
            (x1, y1), (x2, y2) = self._pointers.values()
            self._pinch = {
                "d": math.hypot(x2 - x1, y2 - y1) or 1.0,
                "mx": (x1 + x2) / 2,
                "my": (y1 + y2) / 2,
                "k": self.k,
                "tx": self.tx,
                "ty": self.ty,
            }
            if self._down is not None:
                self._down["moved"] = True
            self.set_moving(True)

    def _cancel_press(self) -> None:
        if self._press_timer is not None:
            js.clearTimeout(self._press_timer)
            self._press_timer = None

    def _long_press(self, *_args: Any) -> None:
        self._press_timer = None
        down = self._down
        if down is None or down["moved"] or down["key"] is None or len(self._pointers) != 1:
            return
        down["moved"] = True  # the release is then no tap
        self.handlers.inspect(down["key"], down["fid"])

    def _on_move(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        x, y = float(ev.clientX), float(ev.clientY)
        if pid not in self._pointers:
            if str(ev.pointerType) == "mouse":
                key = self.hex_at(x, y)
                if key != self._hover_key:
                    self._hover_key = key
                    self.handlers.hover(key)
            return
        self._pointers[pid] = (x, y)
        if self._pinch is not None and len(self._pointers) >= 2:
            (x1, y1), (x2, y2) = list(self._pointers.values())[:2]
            p = self._pinch
            k = max(MIN_ZOOM, min(MAX_ZOOM, p["k"] * math.hypot(x2 - x1, y2 - y1) / p["d"]))
            left, top = self._rect[0], self._rect[1]
            m0x, m0y = p["mx"] - left, p["my"] - top
            bx, by = (m0x - p["tx"]) / p["k"], (m0y - p["ty"]) / p["k"]
            mx, my = (x1 + x2) / 2 - left, (y1 + y2) / 2 - top
            self.k, self.tx, self.ty = k, mx - bx * k, my - by * k
            self.user_moved = True
            self._schedule()
            return
        down = self._down
        if down is None:
            return
        if not down["moved"] and math.hypot(x - down["x"], y - down["y"]) > TAP_SLOP_PX:
            down["moved"] = True
            self._cancel_press()
        if self._stroke is not None:
            self._paint_preview(self.hex_at(x, y))
        elif down["moved"] and down["pan"]:
            self.set_moving(True)
            self.tx = down["tx"] + x - down["x"]
            self.ty = down["ty"] + y - down["y"]
            self.user_moved = True
            self._schedule()

    def _on_up(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        self._pointers.pop(pid, None)
        self._cancel_press()
        if self.svg.hasPointerCapture(pid):
            self.svg.releasePointerCapture(pid)
        if self._pointers:
            return
        self.set_moving(False)
        self._pinch = None
        down, self._down = self._down, None
        stroke, self._stroke = self._stroke, None
        if stroke is not None:
            if stroke:
                self.handlers.stroke(stroke)
            return
        if down is None or down["moved"] or down["key"] is None:
            return
        t = now_ms()
        last_t, last_key, lx, ly = self._last_tap
        if (
            t - last_t < DOUBLE_TAP_MS
            and last_key == down["key"]
            and math.hypot(down["x"] - lx, down["y"] - ly) < 24
        ):
            self._last_tap = (0.0, "", 0.0, 0.0)
            self.fit_again()
            return
        self._last_tap = (t, down["key"], down["x"], down["y"])
        self.handlers.tap(down["key"], down["fid"])

    def _on_cancel(self, ev: Any) -> None:
        self._pointers.pop(int(ev.pointerId), None)
        self._cancel_press()
        if not self._pointers:
            self._abort_stroke()
            self._down = None
            self._pinch = None
            self.set_moving(False)

    def _on_leave(self, ev: Any) -> None:
        if str(ev.pointerType) == "mouse" and self._hover_key is not None:
            self._hover_key = None
            self.handlers.hover(None)

    def _on_wheel(self, ev: Any) -> None:
        ev.preventDefault()
        self._screen()
        dy = float(ev.deltaY) * (16.0 if int(ev.deltaMode) == 1 else 1.0)
        at = (float(ev.clientX) - self._rect[0], float(ev.clientY) - self._rect[1])
        self.set_moving(True)
        if self._wheel_timer is not None:
            js.clearTimeout(self._wheel_timer)
        self._wheel_timer = js.setTimeout(self._wheel_proxy, WHEEL_IDLE_MS)
        self.zoom_by(math.exp(-dy * 0.0015), at)

    def _paint_preview(self, key: str | None) -> None:
        if key is None or self._stroke is None or key in self._stroke:
            return
        self._stroke.append(key)
        if self.paint_fill is not None:
            self.hex_node(key).setAttribute("fill", self.paint_fill)

    def _abort_stroke(self) -> None:
        if self._stroke:
            for key in self._stroke:
                self._update_hex(key)
        self._stroke = None

    def _on_key(self, ev: Any) -> None:
        key = str(ev.key)
        moves = {
            "ArrowUp": (0, -1),
            "ArrowDown": (0, 1),
            "ArrowLeft": (-1, 0),
            "ArrowRight": (1, 0),
        }
        if key in moves and not (ev.ctrlKey or ev.metaKey or ev.altKey):
            ev.preventDefault()
            self.move_cursor(*moves[key])
        elif key in ("Enter", " "):
            ev.preventDefault()
            if self.cursor is None:
                self.move_cursor(0, 0)
            else:
                self.handlers.confirm(self.cursor, self.occupant.get(self.cursor))
        elif key in ("n", "N") and not (ev.ctrlKey or ev.metaKey or ev.altKey):
            ev.preventDefault()
            self.next_figure(-1 if ev.shiftKey else 1)
        elif key == "Escape":
            self.handlers.cancel()
        elif key in ("+", "="):
            self.zoom_by(1.25)
        elif key in ("-", "_"):
            self.zoom_by(0.8)
        elif key in ("f", "F") and not (ev.ctrlKey or ev.metaKey):
            self.fit_again()


def friendly(key: str) -> str:
    """The label a person reads for hex ``"q,r"`` (column letter and row number, from the
    engine's :func:`hexcombat.layout.hex_label`)."""
    return hex_label(parse_key(key))


def coarse_pointer() -> bool:
    """True on a touch screen (the primary pointer is a finger)."""
    return bool(js.matchMedia("(pointer: coarse)").matches)


def _centred(start: float, free: float, size: float, focus: float) -> float:
    """Offset that centres a board of screen ``size`` in ``free`` pixels from ``start``; a
    board larger than that is centred on ``focus`` but never leaves a gap at either edge."""
    if size <= free:
        return start + (free - size) / 2
    offset = start + free / 2 - focus
    return min(start, max(start + free - size, offset))


NIGHT = (29, 34, 40)
"""The dark theme's background, which terrain colours are mixed toward at night."""


def prefers_dark() -> bool:
    """True when the system asks for the dark theme."""
    return bool(js.matchMedia("(prefers-color-scheme: dark)").matches)


def night_colour(colour: str, keep: float = 0.5) -> str:
    """A ``#rrggbb`` terrain colour dimmed for the dark theme (other colour forms as given)."""
    if len(colour) != 7 or not colour.startswith("#"):
        return colour
    try:
        rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    except ValueError:
        return colour
    mixed = (int(c * keep + n * (1 - keep)) for c, n in zip(rgb, NIGHT, strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _css_string(text: str) -> str:
    """``text`` safe inside a double-quoted CSS string."""
    return "".join(ch if ch.isalnum() or ch in "-_ " else f"\\{ord(ch):x} " for ch in text)


def _css_color(text: str) -> str:
    """A ruleset's colour as a CSS value (anything odd becomes ``currentColor``)."""
    ok = text and all(ch.isalnum() or ch in "#(),.% -" for ch in text)
    return text if ok else "currentColor"
