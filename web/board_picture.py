"""Build step: the first-visit board as a picture the loading screen shows before Python runs.

A first visit opens the demo that ``static/demos/index.json`` lists first for first visits
(``web/app.py``'s ``first_visit_order``). ``web/build.py`` renders its board and figures
with the engine's ``hexcombat.render`` into ``index.html`` (an inert ``<template>``), laid
out in the live board's own units (``web/board/units.py``: hex size 30, margin 16), so the
start-up script in ``index.html`` places it exactly where the live board will draw it.
Standard library, the engine and the HTML helper (``web/ui/html.py``) only; not shipped
to the page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hexcombat.board import Board
from hexcombat.document import from_document, read_json
from hexcombat.geometry import Hex
from hexcombat.layout import from_offset
from hexcombat.render import Token, render_svg
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.registry import BUILT_IN
from hexcombat.view import encounter_view
from web.ui.html import Markup, el, leaf

HEX = 30.0
"""The live board's hex size (``web/board/units.py``'s ``HEX``)."""
MARGIN = 16.0
"""The live board's margin (``web/board/units.py``'s ``MARGIN``)."""
WHITE_PAGE = '<rect width="100%" height="100%" fill="#ffffff"/>'
"""``hexcombat.render``'s background, replaced by the live board's."""
VIEW_BOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
UNSPOKEN = re.compile(r' (?:aria-label|data-terrain|role)="[^"]*"|<title>[^<]*</title>')
"""What the picture leaves out of ``hexcombat.render``'s markup."""
HEX_POLYGON = re.compile(r'<polygon data-hex="([^"]+)" fill="(#[0-9a-fA-F]+)" points="([^"]+)"/>')
"""A hex of one plain colour (a patterned one keeps its polygon: its tiles stay in place)."""
HEX_SHAPE = "fbh"
"""The id of the one hex shape every plain hex of the picture uses."""
SLOT = "<!--first-visit-board-->"
"""Where ``web/index.html`` takes the picture."""


def _hex(key: str) -> Hex:
    q, _, r = key.partition(",")
    return Hex(int(q), int(r))


def _num(value: float) -> str:
    return f"{round(value, 2):g}"


def _shared_shape(svg: str) -> str:
    """``svg`` with its plain hexes as ``<use>``s of one shape, the most common colour on their
    group: a third of the bytes, drawn the same (the corners as ``hexcombat.render`` rounds
    them, to within 0.01 px)."""
    plain = HEX_POLYGON.findall(svg)
    if not plain:
        return svg
    fills = [fill for _, fill, _ in plain]
    common = max(fills, key=fills.count)
    shape: list[str] = []

    def used(match: re.Match[str]) -> str:
        key, fill, points = match.groups()
        corners = [tuple(float(v) for v in p.split(",")) for p in points.split()]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        x, y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        if not shape:
            shape.append(" ".join(f"{_num(cx - x)},{_num(cy - y)}" for cx, cy in corners))
        return leaf(
            "use",
            data_hex=key,
            href=f"#{HEX_SHAPE}",
            x=_num(x),
            y=_num(y),
            fill=None if fill == common else fill,
        )

    svg = HEX_POLYGON.sub(used, svg)
    defs = leaf("polygon", id=HEX_SHAPE, points=shape[0])
    svg = (
        svg.replace("</defs>", defs + "</defs>", 1)
        if "</defs>" in svg
        else svg.replace('<g class="hexes"', el("defs", defs) + '<g class="hexes"', 1)
    )
    return svg.replace('<g class="hexes"', f'<g class="hexes" fill="{common}"', 1)


def first_demo(static: Path) -> Path | None:
    """The demo file a first visit opens (None when the index lists none)."""
    listed: Any = read_json((static / "demos" / "index.json").read_text(encoding="utf-8"))
    entries = listed.get("demos", []) if isinstance(listed, dict) else listed
    demos = [d for d in entries if isinstance(d, dict) and d.get("file")]
    ordered = [d for d in demos if d.get("first_visit")] + [
        d for d in demos if not d.get("first_visit")
    ]
    return static / "demos" / str(ordered[0]["file"]) if ordered else None


def picture(document: Path) -> str:
    """The demo's board and figures as the page first draws them, as one ``<svg>``."""
    enc = from_document(read_json(document.read_text(encoding="utf-8")))
    figures: Any = encounter_view(enc)["figures"]
    tokens = [
        Token(
            id=str(f["id"]),
            name=str(f["name"]),
            side=str(f["side"]),
            hex=_hex(str(f["position"])),
            facing=int(f["facing"]),
            color=str(f["color"]),
            badges=tuple(str(b) for b in f.get("badges", ())),
            body=tuple(_hex(str(h)) for h in (f.get("hexes") or [])[1:]),
            initials=str(f["initials"]),
            out=bool(f.get("out")),
        )
        for f in figures
    ]
    svg = render_svg(enc.setup.board, tokens, hex_size=HEX, margin=MARGIN, legend=False)
    width, height = (float(v) for v in VIEW_BOX.search(svg).groups())  # type: ignore[union-attr]
    # the live board's background: the board's own rectangle in the page's colours
    background = leaf(
        "rect",
        x=0,
        y=0,
        width=f"{width:g}",
        height=f"{height:g}",
        rx=10,
        style="fill: var(--board-bg); stroke: var(--board-edge); stroke-width: 2",
    )
    if WHITE_PAGE not in svg:
        raise ValueError("hexcombat.render no longer draws its white page: update board_picture")
    # a picture hidden from assistive technology (its box is aria-hidden): no names, fewer bytes
    svg = _shared_shape(UNSPOKEN.sub("", svg))
    return svg.replace(WHITE_PAGE, background).strip().replace("\n", "")


def terrain_looks() -> dict[str, dict[str, Any]]:
    """Per built-in ruleset, its terrain as ``hexcombat.render`` draws it: the default terrain's
    id, each terrain's fill and the patterns' definitions (for ``web/share-picture.js``)."""
    looks: dict[str, dict[str, Any]] = {}
    for entry in BUILT_IN:
        table = get_ruleset(entry.id).terrain
        ids = [t.id for t in table]
        board = Board(len(ids), 1, table, {from_offset(i, 0): t for i, t in enumerate(ids)})
        svg = render_svg(board, hex_size=HEX, margin=MARGIN, legend=False)
        defs = re.search(r"<defs>(.*?)</defs>", svg, re.DOTALL)
        fills = dict(re.findall(r'data-terrain="([^"]+)"[^>]*? fill="([^"]+)"', svg))
        if sorted(fills) != sorted(ids):
            raise ValueError("hexcombat.render draws terrain differently: update board_picture")
        looks[entry.id] = {
            "default": table.default.id,
            "fill": fills,
            "defs": defs[1].replace("\n", "") if defs else "",
        }
    return looks


def with_picture(html: str, static: Path) -> str:
    """``html`` with the first-visit picture in its slot (an empty slot without a demo), the
    demo's file named in ``data-file`` (the page requests it while Python starts)."""
    if SLOT not in html:
        raise ValueError(f"web/index.html has no {SLOT} slot for the first-visit board")
    demo = first_demo(static)
    if demo is None:
        return html.replace(SLOT, '<template id="first-board"></template>')
    board = Markup(picture(demo))  # the engine's own SVG
    return html.replace(SLOT, el("template", board, id="first-board", data_file=demo.name))
