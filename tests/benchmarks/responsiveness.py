"""Whether the page answers at the table while the engine works, in headless Chromium.

Each scenario starts the app, opens its fight through the library's import (as a player
would), slows the CPU (the tablet profile: 820x1180, touch, 4x through the DevTools
protocol's ``Emulation.setCPUThrottlingRate``), then starts a Long Tasks observer (every
main-thread task of 50 ms or more) and an Event Timing observer (each interaction's time
from the input to the next paint) and runs:

- ``taps``: a person tapping the demo's figures, one a second;
- ``app-one`` / ``app-both``: the app plays one side / both sides while a person taps a
  figure every 2 s;
- ``open-long``: a skirmish fight of 5,000 actions opened from the library;
- ``device``: a second device of the table (a desktop at full speed) plays the demo's
  first round while a person taps the measured device's figures every 2 s.

Per scenario and profile: the tasks over 50 and 100 ms, the longest, the time they held the
main thread, and the worst tap to next paint (the worst interaction, not a median).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from browser.appdriver import import_encounter, start_app, throttled
from browser.conftest import ROOT, App
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from hexcombat import Encounter, from_document
from hexcombat.document import to_document

SCENARIOS = ("taps", "app-one", "app-both", "open-long", "device")
PROFILES = {"desktop": ("desktop", 1), "tablet": ("tablet-touch", 4)}
"""Profile name -> (the browser tests' viewport, CPU slow-down)."""
LONG_ACTIONS = 5000
SLOWEST_SHOWN = 4
"""The slowest interaction entries kept per run: duration, event, what was tapped (its
``data-cmd``, figure or id), the input's delay and the handlers' time, in ms."""
OBSERVE = """() => {
  const seen = { tasks: [], interactions: {}, slow: [] };
  window.__responsiveness = seen;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.tasks.push(e.duration);
  }).observe({ type: "longtask" });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      const was = seen.interactions[e.interactionId] || 0;
      seen.interactions[e.interactionId] = Math.max(was, e.duration);
      const t = e.target;
      const named = t && t.closest ? t.closest("[data-cmd],[data-figure],[id]") : null;
      const what = named
        ? named.getAttribute("data-cmd") || named.getAttribute("data-figure") || "#" + named.id
        : "?";
      seen.slow.push([Math.round(e.duration), e.name, what,
        Math.round(e.processingStart - e.startTime),
        Math.round(e.processingEnd - e.processingStart)]);
    }
  }).observe({ type: "event", durationThreshold: 16 });
}"""


def demo(ruleset: str = "skirmish") -> Encounter:
    """A ruleset's demo as shipped."""
    text = (ROOT / "static" / "demos" / f"{ruleset}.json").read_text(encoding="utf-8")
    return from_document(json.loads(text))


def played_by_app(enc: Encounter, sides: int) -> Encounter:
    """``enc`` with its last ``sides`` sides played by the app (aggressive)."""
    names = list(dict.fromkeys(f.side for f in enc.setup.figures))
    return enc.with_setup(autopilot={s: "aggressive" for s in names[-sides:]})


def tap_figures(app: App, seconds: float, every: float) -> int:
    """Tap the board's figures in turn, one every ``every`` s for ``seconds``; the taps done
    (a figure covered by a panel or moving is skipped)."""
    page = app.page
    done, i, end = 0, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.monotonic()
        figures = page.locator("#board [data-figure]")
        count = figures.count()
        if count:
            target = figures.nth(i % count)
            i += 1
            try:
                if app.viewport == "desktop":
                    target.click(timeout=2000)
                else:
                    target.tap(timeout=2000)
                done += 1
            except PlaywrightError:
                pass
        page.wait_for_timeout(max(0.0, every - (time.monotonic() - began)) * 1000)
    return done


def observed(app: App, run: Callable[[], int]) -> dict[str, Any]:
    """The observers' figures over ``run`` (which returns how many taps it made)."""
    app.page.evaluate(OBSERVE)
    began = time.monotonic()
    taps = run()
    seconds = time.monotonic() - began
    app.page.wait_for_timeout(500)  # the last entries are delivered
    seen = app.page.evaluate("window.__responsiveness")
    tasks = [float(t) for t in seen["tasks"]]
    worst = max((float(d) for d in seen["interactions"].values()), default=0.0)
    return {
        "over_50": len(tasks),
        "over_100": sum(t > 100 for t in tasks),
        "longest_ms": max(tasks, default=0.0),
        "blocked_ms": sum(tasks),
        "worst_tap_ms": worst,
        "interactions": len(seen["interactions"]),
        "slowest_taps": sorted(seen["slow"], reverse=True)[:SLOWEST_SHOWN],
        "taps": taps,
        "seconds": seconds,
    }


def scenario(browser: Browser, url: str, name: str, profile: str, seconds: float) -> dict[str, Any]:
    """One run of scenario ``name`` on ``profile``."""
    viewport, rate = PROFILES[profile]
    app = start_app(browser, url, viewport)
    others: list[App] = []
    try:
        if name == "taps":
            import_encounter(app, demo())
            throttled(app, rate)
            return observed(app, lambda: tap_figures(app, seconds, 1.0))
        if name in ("app-one", "app-both"):
            import_encounter(app, played_by_app(demo(), 1 if name == "app-one" else 2))
            throttled(app, rate)
            return observed(app, lambda: tap_figures(app, seconds, 2.0))
        if name == "open-long":
            from long_fight import long_fight

            throttled(app, rate)
            enc = long_fight("skirmish", LONG_ACTIONS)
            return observed(app, lambda: _opened(app, enc))
        guest = start_app(browser, url, "desktop")
        others.append(guest)
        return _device_entries(app, guest, rate, seconds)
    finally:
        for a in [app, *others]:
            a.page.context.close()


def _opened(app: App, enc: Encounter) -> int:
    """Open ``enc`` through the library's import, then tap a figure at once."""
    import_encounter(app, enc)
    return tap_figures(app, 4.0, 2.0) + 1


def _device_entries(host: App, guest: App, rate: int, seconds: float) -> dict[str, Any]:
    """The guest, seated for every side, plays the skirmish demo's first round (then again
    from the start until ``seconds`` have passed); the host is measured, and a person taps
    its figures every 2 s."""
    from browser.appdriver import press
    from browser.test_demo_playthrough import carry_out
    from browser.test_devices import connect, first_round, shared

    document = json.loads((ROOT / "static" / "demos" / "skirmish.json").read_text("utf-8"))
    start = from_document({**document, "log": [], "cursor": 0})
    import_encounter(host, start)
    connect(host, guest, "P1", "d1")
    for side in sorted({f.side for f in start.state.figures.values()}):
        host.page.select_option("#table-seat-pick", f"d1|{side}")
        press(host, '[data-cmd="table-seat"]')
    for app in (host, guest):
        press(app, '[data-cmd="close-dialog"]')
    throttled(host, rate)
    entries = first_round(document)

    def play() -> int:
        enc, taps = from_document(to_document(start)), 0
        end, tapped = time.monotonic() + seconds, time.monotonic()
        for cursor, entry in enumerate(entries):
            if time.monotonic() > end:
                break
            device = guest if entry.action.figure else host
            carry_out(device, enc, entry)
            faces = [d.value for r in entry.rolls for d in r.dice]
            if entry.action.kind == "next_step" and faces:  # the host rolls its own dice
                rolls = shared(host, cursor + 1)["log"][cursor]["rolls"]
                faces = [f for r in rolls for f in r["faces"]]
            enc.perform(entry.action, faces or None)
            if time.monotonic() - tapped >= 2.0:
                taps += tap_figures(host, 0.01, 0.0)
                tapped = time.monotonic()
        return taps

    return observed(host, play)


def rows(table: Any, browser: Browser, url: str, runs: int, options: Any) -> None:
    """Table rows per scenario and profile over ``runs`` runs: the range of the counts, the
    worst task and tap (``options``: the bench's ``--scenarios``, ``--profiles``,
    ``--seconds``)."""
    scenarios = [s for s in options.scenarios.split(",") if s] or list(SCENARIOS)
    profiles = [p for p in options.profiles.split(",") if p] or list(PROFILES)
    seconds = float(options.seconds)
    for name in scenarios:
        for profile in profiles:
            results = [scenario(browser, url, name, profile, seconds) for _ in range(runs)]
            print(f"responsiveness {name} {profile}: {results}", flush=True)
            over50 = [r["over_50"] for r in results]
            over100 = [r["over_100"] for r in results]
            table.add(
                f"responsiveness, {WHAT[name]}, {profile}: main-thread tasks over 50 / 100 ms, "
                "longest, held in all; worst tap to next paint",
                f"{_span(over50)} / {_span(over100)}, "
                f"{max(r['longest_ms'] for r in results):.0f} ms, "
                f"{statistics.median(r['blocked_ms'] for r in results) / 1000:.1f} s "
                f"of {statistics.median(r['seconds'] for r in results):.0f} s; "
                f"{max(r['worst_tap_ms'] for r in results):.0f} ms "
                f"({sum(r['interactions'] for r in results)} interactions)",
                "0 over 100 ms; every tap <= 100 ms",
                os.getloadavg()[0],
                scenario=name,
                profile=profile,
                results=results,
            )


def _span(values: list[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


WHAT = {
    "taps": "a person tapping figures in the skirmish demo",
    "app-one": "the app playing one side of the skirmish demo, a person tapping every 2 s",
    "app-both": "the app playing both sides of the skirmish demo, a person tapping every 2 s",
    "open-long": f"opening a skirmish fight of {LONG_ACTIONS:,} actions from the library",
    "device": "a device of the table sending the demo's first round, a person tapping",
}
