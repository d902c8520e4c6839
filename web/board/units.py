"""The live board's units: hex size and margin in board units, a hex's corners and
outlines, coordinates written short, and hexes keyed ``"q,r"`` (with the label a person
reads). Shared by the board's drawing, highlights, camera and gestures."""

from __future__ import annotations

import itertools
import math

from hexcombat.geometry import Hex
from hexcombat.layout import hex_label

HEX = 30.0
"""Hex size (centre to corner) in board units."""
APOTHEM = HEX * math.sqrt(3) / 2
MARGIN = 16.0
TOKEN_R = HEX * 0.52
TOUCH_TOKEN_PX = 44.0
TOUCH_FIT_PX = 30.0
"""On a touch screen, when the whole board would make tokens narrower than TOUCH_FIT_PX,
the camera's fit() zooms to TOUCH_TOKEN_PX tokens instead and centres on the figures (pan
for the rest). A board without figures has no token to tap: it is fitted whole (set-up paints
and places on all of it). web/build.py writes TOUCH_FIT_PX into the scripts that draw the
board's picture before Python (web/index.html, web/share-picture.js)."""
CORNERS = [(HEX * math.cos(math.pi / 3 * i), HEX * math.sin(math.pi / 3 * i)) for i in range(6)]
"""A hex's six corners from its centre, east first."""
OUTLINE = (
    "".join(f"l{b[0] - a[0]:.2f},{b[1] - a[1]:.2f}" for a, b in itertools.pairwise(CORNERS)) + "z"
)
"""One hex outline drawn relative to its east corner."""
REACH_OUTLINE = (
    "".join(
        f"l{(b[0] - a[0]) * 0.94:.2f},{(b[1] - a[1]) * 0.94:.2f}"
        for a, b in itertools.pairwise(CORNERS)
    )
    + "z"
)
"""The same, shrunk to the reach highlight's inset (0.94)."""


def num(x: float) -> str:
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


def friendly(key: str) -> str:
    """The label a person reads for hex ``"q,r"`` (column letter and row number, from the
    engine's :func:`hexcombat.layout.hex_label`)."""
    return hex_label(parse_key(key))
