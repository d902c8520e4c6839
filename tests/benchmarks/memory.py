"""The renderer's memory with the app open against the bare Pyodide page, in headless
Chromium: the proportional set size (Linux ``smaps_rollup``) of the browser's renderer
processes (a page's workers run in its renderer), less what they held before the page was
opened. The app is measured ready, and with the engine's worker started (the app playing a
side of the skirmish demo)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

from browser.appdriver import import_encounter, start_app
from playwright.sync_api import Browser
from responsiveness import demo, played_by_app

SETTLE_MS = 3000
"""Left to the page after it is ready (later archives unpacked, garbage collected)."""


def renderers_mb(browser: Browser) -> float:
    """The proportional set size of every renderer process of ``browser``, in MB."""
    cdp = browser.new_browser_cdp_session()
    info = cdp.send("SystemInfo.getProcessInfo")
    cdp.detach()
    pids = [int(p["id"]) for p in info["processInfo"] if p["type"] == "renderer"]
    return sum(_pss_kb(pid) for pid in pids) / 1024


def _pss_kb(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="ascii")
    except OSError:  # the process ended meanwhile
        return 0
    return next((int(line.split()[1]) for line in text.splitlines() if line.startswith("Pss:")), 0)


def measured(browser: Browser, url: str, what: str, bare: str) -> float:
    """The renderers' memory taken by one page: ``what`` is bare, app or app-worker."""
    before = renderers_mb(browser)
    if what == "bare":
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url + bare)
        page.wait_for_selector("html[data-app-state=ready]", timeout=120_000)
    else:
        app = start_app(browser, url, "desktop")
        context, page = app.page.context, app.page
        if what == "app-worker":
            import_encounter(app, played_by_app(demo(), 1))
            page.wait_for_selector("html[data-engine-worker=ready]", timeout=120_000)
    page.wait_for_timeout(SETTLE_MS)
    taken = renderers_mb(browser) - before
    context.close()
    return taken


def rows(table: Any, browser: Browser, url: str, runs: int, bare: str) -> None:
    """Rows for the app ready, and with its engine worker, against the bare page (medians
    of ``runs`` interleaved runs)."""
    seen: dict[str, list[float]] = {"bare": [], "app": [], "app-worker": []}
    for _ in range(runs):
        for what, found in seen.items():
            found.append(measured(browser, url, what, bare))
    bare_mb = statistics.median(seen["bare"])
    for what, label in (("app", "the app ready"), ("app-worker", "with its engine worker")):
        mb = statistics.median(seen[what])
        table.add(
            f"renderer memory, {label} / the bare page",
            f"{mb / bare_mb:.2f}x ({mb:.0f} / {bare_mb:.0f} MB)",
            "<= 1.3x",
            os.getloadavg()[0],
            memory=seen,
        )
