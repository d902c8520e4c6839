"""Highlights on the live board (mixed into :class:`web.board.view.BoardView`): reach with
each hex's cost, the path, targets, line of sight with its blockers, range bands, the focused
hex with its caption, the guide's and the measure tool's hexes. Each hex carries its reasons
in ``data-highlight``; the outlines are overlays that ignore the pointer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from web.board.units import APOTHEM, CORNERS, HEX, REACH_OUTLINE, num, parse_key
from web.ui.dom import byid
from web.ui.html import Markup, el, joined, leaf

COST_LABEL = el("text", "{2}", class_="cost", x="{0}", y="{1}")
"""A reached hex's cost as markup, filled (``str.format``) with its x, y and the cost, a number."""


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


class Highlights:
    """The board's highlight layers."""

    layout: Any
    index: dict[str, int]
    highlighted: dict[str, str]

    if TYPE_CHECKING:  # the board's, which this is mixed into

        def hex_node(self, key: str) -> Any: ...

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

    def _outline(self, key: str, cls: str, inset: float = 1.0) -> Markup:
        x, y = self.layout.to_pixel(parse_key(key))
        pts = " ".join(f"{num(x + cx * inset)},{num(y + cy * inset)}" for cx, cy in CORNERS)
        return leaf("polygon", class_=cls, points=pts)

    def _bands_svg(self, bands: Mapping[str, Sequence[str]]) -> str:
        out: list[str] = []
        for i, (_name, keys) in enumerate(bands.items()):
            out.extend(
                self._outline(k, f"band band-{i % 4}", 0.92) for k in keys if k in self.index
            )
        return joined(out)

    def _reach_svg(self, reach: Mapping[str, int], labelled: str | None = None) -> str:
        # One path for every reached hex (each outline relative to its east corner) and a
        # cost label each: a hundred reached hexes made two hundred elements, each with six
        # formatted corners, the bulk of a tap's time on a large board.
        index, to_pixel = self.index, self.layout.to_pixel
        rim, drop = HEX * 0.94, APOTHEM * 0.72
        outline, labels = [], []
        cost_label = COST_LABEL.format
        for key, cost in reach.items():
            if key not in index:
                continue
            x, y = to_pixel(parse_key(key))
            outline.append(f"M{x + rim:.1f},{y:.1f}{REACH_OUTLINE}")
            if key != labelled:
                labels.append(cost_label(num(x), num(y + drop), int(cost)))
        if not outline:
            return ""
        return leaf("path", class_="reach", d="".join(outline)) + "".join(labels)

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
                    cross = (
                        f"M{num(x - d)},{num(y - d)} L{num(x + d)},{num(y + d)} "
                        f"M{num(x + d)},{num(y - d)} L{num(x - d)},{num(y + d)}"
                    )
                    out.append(leaf("path", class_="blocker-x", d=cross))
        path = [k for k in marks.path if k in self.index]
        if len(path) > 1:
            pts = " ".join(
                f"{num(x)},{num(y)}" for x, y in (self.layout.to_pixel(parse_key(k)) for k in path)
            )
            out.append(leaf("polyline", class_="path-casing", points=pts))
            out.append(leaf("polyline", class_="path", points=pts))
            for key in path[1:-1]:
                x, y = self.layout.to_pixel(parse_key(key))
                out.append(leaf("circle", class_="path-dot", cx=num(x), cy=num(y), r="3.5"))
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
                    el(
                        "text",
                        marks.label,
                        class_="focus-label bad" if marks.focus_bad else "focus-label",
                        x=num(x),
                        y=num(y + APOTHEM * 0.72),
                    )
                )
        return joined(out)

    @staticmethod
    def _segment(a: tuple[float, float], b: tuple[float, float], cls: str) -> Markup:
        return leaf("line", class_=cls, x1=num(a[0]), y1=num(a[1]), x2=num(b[0]), y2=num(b[1]))
