"""This checkout's built site, ``dist/site``: tests/run builds it before pytest; a test that
needs it gets it rebuilt only when it is missing or older than its sources, under a lock,
so pytest's workers build it once between them (the browser tests and the build's own)."""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "dist" / "site"
SITE_SOURCES = ("hexcombat", "static", "web")
"""Source trees whose changes make dist/site stale."""


def is_stale() -> bool:
    """True when dist/site is missing or older than any of its sources."""
    stamp = SITE / "pyscript.json"  # written fresh by every build
    if not stamp.is_file():
        return True
    built = stamp.stat().st_mtime
    for top in SITE_SOURCES:
        for path in (ROOT / top).rglob("*"):
            if "node_modules" in path.parts or "__pycache__" in path.parts:
                continue
            if path.is_file() and path.stat().st_mtime > built:
                return True
    return False


def fresh_site(build: Callable[[Path], None]) -> Path:
    """dist/site, built with ``build`` first when it is stale (one worker at a time)."""
    SITE.parent.mkdir(parents=True, exist_ok=True)
    with (SITE.parent / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if is_stale():
            build(SITE)
    return SITE
