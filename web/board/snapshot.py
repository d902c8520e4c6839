"""The drawn board kept for the next visit's loading screen: ``index.html``'s start-up
paints it greyed until the app is live."""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]

SNAPSHOT_KEY = "hexcombat.snapshot"
"""localStorage key of the last drawn board (JSON: rect, svg), read by index.html's boot."""
SNAPSHOT_MAX_CHARS = 300_000
SNAPSHOT_DELAY_MS = 800
"""How long the board stays unchanged before it is kept."""


def keep_drawn_board(svg: Any) -> None:
    """Keep the board ``svg``'s markup and place on screen; a board too large to keep leaves
    none, and a full or switched-off storage keeps nothing (the next start shows the plain
    loading card). A board shown moved by a gesture keeps the last one kept."""
    if str(svg.style.transform):
        return
    markup = str(svg.outerHTML)
    rect = svg.getBoundingClientRect()
    try:
        if len(markup) > SNAPSHOT_MAX_CHARS:
            js.localStorage.removeItem(SNAPSHOT_KEY)
            return
        box = [float(rect.left), float(rect.top), float(rect.width), float(rect.height)]
        js.localStorage.setItem(SNAPSHOT_KEY, json.dumps({"rect": box, "svg": markup}))
    except Exception:  # full or switched off: the next start shows the plain loading card
        return
