"""Small settings the browser keeps in localStorage: whether hex coordinates are shown, and
the mode (set-up or play) each encounter was left in. Quietly skipped when storage is off or
full: they are niceties."""

from __future__ import annotations

import js  # type: ignore[import-not-found]

COORDS_KEY = "hexcombat.coords"
"""localStorage key: "on" when hex coordinates are shown."""


def remembered(key: str) -> str | None:
    """A small setting the browser kept (None when absent or storage is off)."""
    try:
        value = js.localStorage.getItem(key)
    except Exception:  # storage switched off
        return None
    return None if value is None else str(value)


def remember(key: str, value: str) -> None:
    """Keep a small setting (quietly skipped when storage refuses)."""
    try:
        js.localStorage.setItem(key, value)
    except Exception:  # full or switched off: a nicety
        return


MODE_KEY = "hexcombat.mode."
"""localStorage key prefix: the mode (edit or play) each encounter was left in."""


def remembered_mode(entry_id: str | None) -> str | None:
    """The mode encounter ``entry_id`` was left in, if the browser kept it."""
    if entry_id is None:
        return None
    try:
        mode = js.localStorage.getItem(MODE_KEY + entry_id)
    except Exception:  # storage switched off: open in the default mode
        return None
    return str(mode) if mode in ("edit", "play") else None


def remember_mode(entry_id: str | None, mode: str) -> None:
    """Note the mode encounter ``entry_id`` is in (quietly skipped when storage refuses)."""
    if entry_id is None:
        return
    try:
        js.localStorage.setItem(MODE_KEY + entry_id, mode)
    except Exception:  # full or switched off: the mode is a nicety
        return
