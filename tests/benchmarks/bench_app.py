"""Benchmark: the app in headless Chromium: time to ready, and a 50 x 50 board's redraws and pans.

Run: ``.venv/bin/python tests/benchmarks/bench_app.py [RUNS]`` (builds dist/site when it is
missing). No request routing here (it would turn the HTTP cache off), so the warm start is a
real warm start. Prints figures only; the machine's load average is printed with them, since
other work on a shared machine skews every number.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "dist" / "site"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from main import CHROMIUM_ARGS as ARGS  # noqa: E402  (one list of flags for every benchmark)
from main import site_build, site_server  # noqa: E402


def wait_ready(page: Page) -> dict[str, int]:
    """Wait for data-app-state=ready and return the page's start-up stage times (ms)."""
    page.wait_for_function(
        "document.documentElement.dataset.appState !== 'loading'", timeout=120_000
    )
    state = page.evaluate("document.documentElement.dataset.appState")
    if state != "ready":
        raise SystemExit(f"app start-up ended in {state}: {page.evaluate('hexcombatBoot.error')}")
    return dict(page.evaluate("hexcombatBoot.timings"))


def app_timings(page: Page) -> dict[str, float]:
    """The app's own figures for its last redraw (ms)."""
    return dict(json.loads(page.evaluate("hexcombatApp()")))


def pan(page: Page, moves: int) -> float:
    """Drag the board ``moves`` mouse moves; milliseconds per move, until the next frame."""
    box = page.locator("#board").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    start = time.perf_counter()
    for i in range(moves):
        page.mouse.move(x - i * 4, y - i * 3)
    page.evaluate("new Promise(r => requestAnimationFrame(() => r(0)))")
    elapsed = time.perf_counter() - start
    page.mouse.up()
    return elapsed * 1000 / moves


def big_board(page: Page) -> dict[str, float]:
    """Create, paint, fill, pan and select on a 50 x 50 board through the UI."""
    page.click("#menu-button")
    page.click('#menu [data-cmd="new"]')
    page.fill('[data-field="name"] input', "Benchmark field")
    page.locator('[data-field="ruleset"] select').select_option("0")
    page.fill('[data-field="width"] input', "50")
    page.fill('[data-field="height"] input', "50")
    page.click('[data-lib="create"]')
    page.wait_for_function("document.querySelectorAll('#board [data-hex]').length === 2500")
    out = {"full draw": app_timings(page)["board"]}
    page.click('#panel-body [data-tool="paint"]')
    page.click('[data-terrain-id="woods"]')
    paints = []
    for key in ("25,0", "26,0", "27,0", "28,-1", "29,-1"):
        page.click(f'#board [data-hex="{key}"]')
        paints.append(app_timings(page))
    out["one-hex redraw"] = statistics.median(t["board"] for t in paints)
    out["one-hex update (engine + redraw + panel)"] = statistics.median(t["total"] for t in paints)
    out["one-hex autosave"] = statistics.median(t["save"] for t in paints)
    page.click('[data-cmd="fill"]')
    page.wait_for_function(
        "document.querySelector('#board [data-hex=\"0,0\"]').dataset.terrain === 'woods'"
    )
    fill = app_timings(page)
    out["fill all: redraw"] = fill["board"]
    out["fill all: whole update"] = fill["total"]
    page.click('#panel-body [data-tool="add"]')
    page.click('#board [data-hex="20,10"]')
    page.click('#mode-switch [data-mode="play"]')
    page.wait_for_function("document.documentElement.dataset.mode === 'play'")
    page.click('#turn-tracker [data-pick="blue-a"]')
    out["select a figure (reach, panel)"] = app_timings(page).get("select", float("nan"))
    page.click('[data-cmd="fit"]')
    out["pan, whole board in view (ms per move)"] = pan(page, 40)
    for _ in range(4):
        page.click('[data-cmd="zoom-in"]')
    out["pan, zoomed in (ms per move)"] = pan(page, 40)
    return out


def main(runs: int) -> None:
    """Start the app ``runs`` times cold and once warm, then measure the 50 x 50 board."""
    if not (SITE / "pyscript.json").is_file():
        site_build().build(SITE)
    server = site_server().make_server(SITE, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared with other work)")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=ARGS)
        cold = []
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(url)
            cold.append(wait_ready(page))
            context.close()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        page.reload()
        warm = wait_ready(page)
        started = app_timings(page)["start"]
        for name in ("python", "engine", "board", "ready"):
            values = [c[name] for c in cold]
            print(
                f"cold start, {name:>6} stage reached: best {min(values)} ms, "
                f"median {statistics.median(values):.0f} ms ({runs} runs)"
            )
        print(f"warm start, ready: {warm['ready']} ms (app start itself: {started:.0f} ms)")
        for name, value in big_board(page).items():
            print(f"50x50 board, {name}: {value:.1f} ms")
        browser.close()
    server.shutdown()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
