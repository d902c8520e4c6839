"""The board's colours: terrain dimmed for the dark theme, and text and colours a ruleset
gives made safe for CSS."""

from __future__ import annotations

import js  # type: ignore[import-not-found]

BADGE_FALLBACK = "#34495e"
"""A badge's colour comes from the ruleset (``badge_colors`` of the figure view); this is
only for a view without one."""
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


def css_string(text: str) -> str:
    """``text`` safe inside a double-quoted CSS string."""
    return "".join(ch if ch.isalnum() or ch in "-_ " else f"\\{ord(ch):x} " for ch in text)


def css_color(text: str) -> str:
    """A ruleset's colour as a CSS value (anything odd becomes ``currentColor``)."""
    ok = text and all(ch.isalnum() or ch in "#(),.% -" for ch in text)
    return text if ok else "currentColor"
