"""Six devices at one table in headless Chromium: a GM's tablet and five phones through the
first round of every ruleset's demo, each side played on a phone of its own. Measured: the
time from a player's last tap or key of an action on a phone to every one of the six
screens showing it (its log changed), median and worst, by ruleset and in all.

Hidden choices are sealed on their phone and change no screen until the reveal: the action
that completes the reveal is the one timed.
"""

from __future__ import annotations

import json
import os
import statistics
from typing import Any

from browser.appdriver import import_encounter, menu, press, start_app, wait_toast_gone
from browser.conftest import ROOT, App
from browser.test_demo_playthrough import DEMOS, carry_out
from browser.test_devices import _still_to_seal, connect, first_round, shared
from playwright.sync_api import Browser, expect

from hexcombat import from_document
from hexcombat.table import is_hidden_choice

PLAYERS = 5
WATCH = """() => {
  // the last input (tap, click or key) and every change of the log, on the shared clock
  const at = () => performance.timeOrigin + performance.now();
  window.__input = 0;
  window.__changes = [];
  for (const kind of ["pointerup", "click", "keydown"]) {
    addEventListener(kind, () => { window.__input = at(); }, true);
  }
  new MutationObserver(() => window.__changes.push(at())).observe(
    document.getElementById("log"), { childList: true, subtree: true, characterData: true });
}"""
SHOWN = (
    "(t0) => { const c = window.__changes.find((t) => t > t0); return c === undefined ? 0 : c; }"
)


def _leave_all(apps: list[App]) -> None:
    """Every player forgets the table, then the GM stops hosting (each keeps its copy)."""
    host, players = apps[0], apps[1:]
    for app in [*players, host]:
        if app.page.evaluate("document.documentElement.dataset.table") is None:
            continue
        menu(app, "table")
        if app.page.locator('[data-table-state="open"]').count():
            press(app, '[data-cmd="table-leave"]')
        press(app, '[data-cmd="table-leave"]')
        expect(app.page.locator("html")).not_to_have_attribute("data-table", "guest")
        expect(app.page.locator("html")).not_to_have_attribute("data-table", "host")
        press(app, '[data-cmd="close-dialog"]')


def _all_shown(apps: list[App], t0: float) -> float:
    """Milliseconds from ``t0`` until the last of ``apps`` showed a change of its log."""
    for _ in range(400):
        shown = [float(app.page.evaluate(SHOWN, t0)) for app in apps]
        if all(shown):
            return max(shown) - t0
        apps[0].page.wait_for_timeout(50)
    raise AssertionError("a screen never showed the action")


def one_demo(apps: list[App], demo: dict[str, Any]) -> list[float]:
    """The first round of ``demo`` at the six-device table; the times of the phones' actions."""
    host, players = apps[0], apps[1:]
    _leave_all(apps)
    document = json.loads((ROOT / "static" / "demos" / demo["file"]).read_text("utf-8"))
    enc = from_document({**document, "log": [], "cursor": 0})
    entries = first_round(document)
    import_encounter(host, enc)
    for i, app in enumerate(players, 1):
        connect(host, app, f"P{i}", f"d{i}")
    sides = sorted({f.side for f in enc.state.figures.values()})
    phone = {side: players[i % PLAYERS] for i, side in enumerate(sides)}
    for i, side in enumerate(sides):
        host.page.select_option("#table-seat-pick", f"d{i % PLAYERS + 1}|{side}")
        press(host, '[data-cmd="table-seat"]')
    press(host, '[data-cmd="table-rolls"]')  # the phones type the demo's own dice
    for app in apps:
        press(app, '[data-cmd="close-dialog"]')
    times: list[float] = []
    sealed, cursor = 0, 0
    for entry in entries:
        mover = enc.state.figures.get(entry.action.figure or "")
        app = phone[mover.side] if mover is not None else host
        hidden = is_hidden_choice(enc, entry.action)
        wait_toast_gone(app)  # a toast of the last action may cover the board
        carry_out(app, enc, entry)
        t0 = float(app.page.evaluate("window.__input"))
        faces = [d.value for r in entry.rolls for d in r.dice]
        if entry.action.kind == "next_step" and faces:  # the GM's page rolls its own dice
            rolls = shared(host, cursor + 1)["log"][cursor]["rolls"]
            faces = [f for r in rolls for f in r["faces"]]
        enc.perform(entry.action, faces or None)
        sealed += hidden
        if hidden and _still_to_seal(enc):  # sealed on its phone: no screen changes yet
            continue
        cursor += sealed + (not hidden)
        sealed = 0
        shown = _all_shown(apps, t0)
        if app is not host:
            times.append(shown)
    return times


def six_devices(browser: Browser, url: str) -> list[dict[str, Any]]:
    """Rows by ruleset and in all: median and worst of the phone-to-every-screen times."""
    apps = [start_app(browser, url, "tablet-touch")]
    apps += [start_app(browser, url, "phone") for _ in range(PLAYERS)]
    rows: list[dict[str, Any]] = []
    every: list[float] = []
    try:
        for app in apps:
            app.page.evaluate(WATCH)
        for demo in DEMOS:
            times = one_demo(apps, demo)
            every += times
            rows.append(_row(demo["ruleset"], times))
            print(f"six devices, {demo['ruleset']}: {len(times)} actions timed", flush=True)
    finally:
        for app in apps:
            app.page.context.close()
    rows.append(_row("every ruleset", every))
    return rows


def _row(what: str, times: list[float]) -> dict[str, Any]:
    return {
        "ruleset": what,
        "actions": len(times),
        "median_ms": statistics.median(times) if times else 0.0,
        "worst_ms": max(times, default=0.0),
        "load": os.getloadavg()[0],
    }
