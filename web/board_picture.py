"""Build step: the first-visit board as a picture the loading screen shows before Python runs.

A first visit opens the demo that ``static/demos/index.json`` lists first for first visits
(``web/app.py``'s ``first_visit_order``). ``web/build.py`` renders its board and figures
with the engine's ``hexcombat.render`` into ``index.html`` (an inert ``<template>``), laid
out in the live board's own units (``web/board/units.py``: hex size 30, margin 16), so the
start-up script in ``index.html`` places it exactly where the live board will draw it.
Standard library and the engine only; not shipped to the page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hexcombat.document import from_document, read_json
from hexcombat.geometry import Hex
from hexcombat.render import Token, render_svg
from hexcombat.view import encounter_view

HEX = 30.0
"""The live board's hex size (``web/board/units.py``'s ``HEX``)."""
MARGIN = 16.0
"""The live board's margin (``web/board/units.py``'s ``MARGIN``)."""
WHITE_PAGE = '<rect width="100%" height="100%" fill="#ffffff"/>'
"""``hexcombat.render``'s background, replaced by the live board's."""
VIEW_BOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
UNSPOKEN = re.compile(r' (?:aria-label|data-terrain|role)="[^"]*"|<title>[^<]*</title>')
"""What the picture leaves out of ``hexcombat.render``'s markup."""
SLOT = "<!--first-visit-board-->"
"""Where ``web/index.html`` takes the picture."""


def _hex(key: str) -> Hex:
    q, _, r = key.partition(",")
    return Hex(int(q), int(r))


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
        )
        for f in figures
    ]
    svg = render_svg(enc.setup.board, tokens, hex_size=HEX, margin=MARGIN, legend=False)
    width, height = (float(v) for v in VIEW_BOX.search(svg).groups())  # type: ignore[union-attr]
    # the live board's background: the board's own rectangle in the page's colours
    background = (
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" rx="10" '
        'style="fill: var(--board-bg); stroke: var(--board-edge); stroke-width: 2"/>'
    )
    if WHITE_PAGE not in svg:
        raise ValueError("hexcombat.render no longer draws its white page: update board_picture")
    # a picture hidden from assistive technology (its box is aria-hidden): no names, fewer bytes
    svg = UNSPOKEN.sub("", svg)
    return svg.replace(WHITE_PAGE, background).strip().replace("\n", "")


def with_picture(html: str, static: Path) -> str:
    """``html`` with the first-visit picture in its slot (an empty slot without a demo)."""
    if SLOT not in html:
        raise ValueError(f"web/index.html has no {SLOT} slot for the first-visit board")
    demo = first_demo(static)
    markup = picture(demo) if demo is not None else ""
    return html.replace(SLOT, f'<template id="first-board">{markup}</template>')
