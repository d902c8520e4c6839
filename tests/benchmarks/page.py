"""The page in headless Chromium, measured side by side with a bare Pyodide page.

The bare page (``BARE_HTML``) is written into the built site next to the app, so
both load the same vendored Pyodide from the same server in the same run: it
imports ``pyodide.mjs``, calls ``loadPyodide`` and runs one line of Python. Both
pages are "ready" when ``<html data-app-state>`` becomes ``ready`` (an init
script notes the time). Bytes are counted by the server (bodies sent), so the
service worker's own downloads count too. No request routing (it would turn the
HTTP cache off, and warm starts would not be warm).
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from hexcombat import Encounter, dumps, loads
from hexcombat.layout import from_offset
from hexcombat.share import share_fragment

BARE_NAME = "bench-bare.html"
BARE_SCRIPT_NAME = "bench-bare.js"
# The page's script is a file of its own: the site's Content-Security-Policy (web/build.py's
# server sends it) blocks inline scripts without the app's hash, so an inline one never ran.
BARE_HTML = f"""<!doctype html>
<html lang="en" data-app-state="loading"><head><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module" src="./{BARE_SCRIPT_NAME}"></script>
</head><body><p>bare Pyodide page (benchmark baseline)</p></body></html>
"""
BARE_SCRIPT = """import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "./vendor/pyodide/" });
pyodide.runPython("import sys; sys.version");
document.documentElement.dataset.appState = "ready";
"""
READY_SCRIPT = """
(() => {
  // the snapshot at once (not after the minute a device of few cores waits), or none
  window.hexcombatSnapshot = sessionStorage.getItem("bench-no-snapshot") ? "off" : "now";
  const mark = () => {
    const html = document.documentElement;
    if (html && html.dataset.appState === "ready" && !window.__readyAt) {
      // ready once the page's Python has yielded (this callback waits for it); the bytes
      // before ready are those begun before the app's own mark (its later.tgz comes after)
      window.__readyAt = performance.now();
      const own = performance.getEntriesByName("hexcombat:ready")[0];
      window.__bytesUntil = own ? own.startTime : window.__readyAt;
    }
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true,
                                                 attributeFilter: ["data-app-state"] });
  // Tap latency: from the pointer going up to the frame after the last change it caused.
  window.__tap = { up: 0, last: 0, frame: 0 };
  addEventListener("pointerup", () => {
    window.__tap = { up: performance.now(), last: 0, frame: 0 };
  }, true);
  const seen = () => {
    if (!window.__tap.up) return;
    window.__tap.last = performance.now();
    requestAnimationFrame(() => { window.__tap.frame = performance.now(); });
  };
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(seen).observe(document.body,
                                       { attributes: true, childList: true, subtree: true });
  });
})();
"""
# Drops the Python start-up snapshot and makes none on the next start (a warm start as the
# second visit has it, before the snapshot is made).
DROP_SNAPSHOT = """async () => {
  sessionStorage.setItem("bench-no-snapshot", "1");
  for (const k of await caches.keys())
    if (k.startsWith("hexcombat-python-")) await caches.delete(k);
}"""
PYTHON_UP = "(performance.getEntriesByName('hexcombat:python-up')[0] || {startTime: NaN}).startTime"
UNPACKED = (
    "(performance.getEntriesByName('hexcombat:start-unpacked')[0] || {startTime: NaN}).startTime"
)
MAIN = "(performance.getEntriesByName('hexcombat:main')[0] || {startTime: NaN}).startTime"
READY = "(performance.getEntriesByName('hexcombat:ready')[0] || {startTime: NaN}).startTime"
BOARD_PAINTED = (
    "(performance.getEntriesByName('hexcombat:board-painted')[0] || {startTime: NaN}).startTime"
)
FIRST_PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True, "device_scale_factor": 2}


def load() -> float:
    """The 1-minute load average."""
    return round(os.getloadavg()[0], 2)


class ByteCount:
    """Bytes of response bodies the server sent (all threads), each with the time it began."""

    def __init__(self) -> None:
        self.value = 0
        self.sent: list[tuple[float, int]] = []
        self.lock = threading.Lock()

    def add(self, n: int, started: float) -> None:
        with self.lock:
            self.value += n
            self.sent.append((started, n))

    def since(self, start: float, until: float) -> int:
        """Bytes of the responses that began between two times (``time.time()``)."""
        with self.lock:
            return sum(n for t, n in self.sent if start <= t <= until)


def serve(site_server: Any, site: Path) -> tuple[Any, str, ByteCount]:
    """Serve ``site`` with web/site_server.py's handler, counting body bytes."""
    count = ByteCount()
    server = site_server.make_server(site, 0, quiet=True)
    handler = server.RequestHandlerClass
    base = handler.func if hasattr(handler, "func") else handler

    class Counting(base):  # type: ignore[misc, valid-type]
        def copyfile(self, source: Any, outputfile: Any) -> None:
            started = time.time()
            data = source.read()
            count.add(len(data), started)
            outputfile.write(data)

    kwargs = getattr(handler, "keywords", {})
    server.RequestHandlerClass = lambda *a, **k: Counting(*a, **{**kwargs, **k})
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/", count


@contextmanager
def context(browser: Browser, *, tablet: bool = False) -> Iterator[BrowserContext]:
    """A fresh browser context (its own empty HTTP cache and storage)."""
    ctx = browser.new_context(**(TABLET if tablet else DESKTOP))
    ctx.add_init_script(READY_SCRIPT)
    try:
        yield ctx
    finally:
        ctx.close()


def open_page(ctx: BrowserContext, *, throttle: int = 1) -> Page:
    """A page, with the CPU slowed ``throttle`` times through the DevTools protocol."""
    page = ctx.new_page()
    if throttle > 1:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return page


def ready_ms(page: Page, timeout: float = 180_000) -> float:
    """Wait for ready; milliseconds from navigation start."""
    page.wait_for_function(
        "document.documentElement.dataset.appState !== 'loading' && "
        "(document.documentElement.dataset.appState !== 'ready' || window.__readyAt)",
        timeout=timeout,
    )
    state = page.evaluate("document.documentElement.dataset.appState")
    if state != "ready":
        detail = page.evaluate("window.hexcombatBoot && JSON.stringify(hexcombatBoot.error)")
        raise SystemExit(f"page start-up ended in {state}: {detail}")
    return float(page.evaluate("window.__readyAt"))


def quiet(count: ByteCount, seconds: float = 0.8, limit: float = 60) -> None:
    """Wait until the server sent nothing for ``seconds``."""
    end = time.monotonic() + limit
    last, since = count.value, time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.1)
        if count.value != last:
            last, since = count.value, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def startup(
    browser: Browser, url: str, count: ByteCount, runs: int, *, throttle: int = 1
) -> dict[str, Any]:
    """Cold and warm time to ready of the app and the bare page, interleaved run by run."""
    tablet = throttle > 1
    out: dict[str, list[float]] = {
        k: []
        for k in (
            "app cold",
            "bare cold",
            "app warm",
            "bare warm",
            "app bytes before ready",
            "bare bytes before ready",
            "app bytes in all",
            "bare bytes in all",
            "app warm first paint",
            "app cold board painted",
            "app cold python up",
            "app cold unpacking",
            "app cold pyscript",
            "app cold own python",
            "app warm plain",
            "share link board painted",
            "load",
        )
    }
    # a share link's first visit (the skirmish demo: a board shown whole on the tablet too)
    demo = Path(__file__).resolve().parents[2] / "static" / "demos" / "skirmish.json"
    shared = url + share_fragment(loads(demo.read_text(encoding="utf-8")))
    for _ in range(runs):
        for name, address in (("app", url), ("bare", url + BARE_NAME)):
            with context(browser, tablet=tablet) as ctx:
                page = open_page(ctx, throttle=throttle)
                out["load"].append(load())
                before, began = count.value, time.time()
                page.goto(address)
                out[f"{name} cold"].append(ready_ms(page))
                if name == "app":
                    out["app cold board painted"].append(float(page.evaluate(BOARD_PAINTED)))
                    # where the time goes: Python up (python-start.mjs's mark), then
                    # PyScript's own set-up and the page's Python (web/main.py to ready)
                    marks = f"[{PYTHON_UP}, {UNPACKED}, {MAIN}, {READY}]"
                    up, unpacked, main, ready = map(float, page.evaluate(marks))
                    out["app cold python up"].append(up)
                    out["app cold unpacking"].append(unpacked - up)
                    # PyScript gets Python and runs web/main.py: web/start.py marks "main"
                    out["app cold pyscript"].append(main - unpacked)
                    out["app cold own python"].append(ready - main)
                # the responses the server began before the page was ready (those it begins
                # at once after, such as the app's later.tgz, are not "before ready")
                ready_at = page.evaluate("performance.timeOrigin + window.__bytesUntil") / 1000
                out[f"{name} bytes before ready"].append(count.since(began, ready_at))
                if name == "app":
                    page.evaluate("navigator.serviceWorker.ready.then(() => 0)")
                    page.wait_for_function(
                        "localStorage.getItem('hexcombat.snapshot') !== null", timeout=30_000
                    )
                    # the Python start-up snapshot every later start begins from
                    page.wait_for_selector("html[data-python-snapshot]", timeout=120_000)
                    made = page.evaluate("document.documentElement.dataset.pythonSnapshot")
                    if made != "made":
                        raise SystemExit(f"no Python start-up snapshot: {made}")
                quiet(count)
                out[f"{name} bytes in all"].append(count.value - before)
                page.reload()
                out[f"{name} warm"].append(ready_ms(page))
                if name == "app":
                    paint = page.evaluate(FIRST_PAINT)
                    out["app warm first paint"].append(float(paint or "nan"))
                    # the second start, before a snapshot is made (as when it is thrown away)
                    page.evaluate(DROP_SNAPSHOT)
                    page.reload()
                    out["app warm plain"].append(ready_ms(page))
        with context(browser, tablet=tablet) as ctx:  # only until the shared board is painted
            page = open_page(ctx, throttle=throttle)
            page.goto(shared)
            page.wait_for_function(f"!isNaN({BOARD_PAINTED})", timeout=60_000)
            out["share link board painted"].append(float(page.evaluate(BOARD_PAINTED)))
        quiet(count)
    return {k: statistics.median(v) for k, v in out.items() if v}


# ---- tap latency and board drawing ---------------------------------------------------------
def skirmish_field(size: int, move: int, figures: int = 20) -> Encounter:
    """A size x size skirmish board with ``figures`` figures (two sides) of Move ``move``."""
    enc = Encounter.new("skirmish", size, size, name=f"Bench {size}x{size} move {move}")
    rs = enc.ruleset
    per_side = figures // 2
    for i in range(figures):
        side, k = ("Blue", i) if i < per_side else ("Red", i - per_side)
        col = 1 + k * (size - 2) // per_side
        row = size // 3 if side == "Blue" else 2 * size // 3
        f = rs.new_figure(f"{side[0].lower()}{k}", f"{side} {k}", side, from_offset(col, row), 0)
        f.stats.update(move=move)
        enc = enc.with_figure(f)
    return enc


def library_keys(enc: Encounter) -> dict[str, str]:
    """The localStorage entries that make ``enc`` the encounter the app opens."""
    from web.library.storage import Library, MemoryStore

    store = MemoryStore()
    library = Library(store)
    entry, _ = library.add(enc)
    library.remember(entry.id)
    return {k: store.get(k) or "" for k in list(store.keys())}


def open_encounter(page: Page, enc: Encounter) -> None:
    """Put ``enc`` in the page's library as the last opened one and reload."""
    open_encounter_ms(page, enc)


def timings(page: Page) -> dict[str, float]:
    """The app's own figures for its last redraw (ms)."""
    return dict(json.loads(page.evaluate("hexcombatApp()")))


def tap(page: Page, selector: str) -> float:
    """Click ``selector``; ms from the pointer going up to the frame after the last change."""
    page.click(selector)
    page.wait_for_timeout(150)
    page.wait_for_function("window.__tap.frame > 0", timeout=30_000)
    tap_ = page.evaluate("window.__tap")
    return float(tap_["frame"]) - float(tap_["up"])


def board_and_taps(browser: Browser, url: str, runs: int) -> list[dict[str, Any]]:
    """Tap-to-reach on 20x20 and 50x50 (movement 4 and 12), board draw and redraw per size."""
    rows: list[dict[str, Any]] = []
    with context(browser) as ctx:
        page = open_page(ctx)
        page.goto(url)
        ready_ms(page)
        # later starts (each board below is opened by a reload) begin from the snapshot
        page.wait_for_selector("html[data-python-snapshot]", timeout=120_000)
        for size, move in ((20, 4), (20, 12), (50, 4), (50, 12), (100, 4)):
            enc = skirmish_field(size, move)
            open_encounter(page, enc)
            draw = timings(page)["board"]
            taps = []
            if size <= 50:
                blue = [f for f in enc.setup.figures if f.side == "Blue"]
                for i in range(runs + 1):
                    f = blue[i % len(blue)]
                    taps.append(tap(page, f'#board [data-figure="{f.id}"]'))
                    reach = page.locator('#board [data-highlight~="reach"]').count()
                    if reach == 0:
                        raise SystemExit(f"no reach drawn after tapping {f.id} on {size}x{size}")
                taps = taps[1:]  # the first tap after opening also builds the panel's forms
            redraw = paint_one(page, size)
            rows.append(
                {
                    "size": size,
                    "move": move,
                    "tap_ms": statistics.median(taps) if taps else None,
                    "draw_ms": draw,
                    "redraw_ms": redraw,
                    "load": load(),
                }
            )
    return rows


def paint_one(page: Page, size: int) -> float:
    """Median redraw (ms) after painting single hexes in the editor."""
    page.click('#mode-switch [data-mode="edit"]')
    page.wait_for_function("document.documentElement.dataset.mode === 'edit'")
    page.click('#panel-body [data-tool="paint"]')
    page.click('[data-terrain-id="woods"]')
    out = []
    for col in range(2, 5):
        h = from_offset(col, 1)
        page.click(f'#board [data-hex="{h.q},{h.r}"]', force=True)
        out.append(timings(page)["board"])
    page.click('#mode-switch [data-mode="play"]')
    return statistics.median(out)


def median_of(fn: Callable[[], float], runs: int) -> float:
    """Median of ``runs`` calls."""
    return statistics.median(fn() for _ in range(runs))


# ---- a long fight: undo, redo and opening at 1,000 and 5,000 actions --------------
LONG_FIGHTS = (1000, 5000)


def long_fight_rows(browser: Browser, url: str, runs: int) -> list[dict[str, Any]]:
    """Tap-to-redrawn-board for Undo and Redo, the app's own save and redraw figures, and the
    time to ready when the fight is the encounter the app opens, against the skirmish demo."""
    from bench_long_log import long_fight

    from hexcombat import loads

    demos = Path(__file__).resolve().parents[2] / "static" / "demos"
    demo = loads((demos / "skirmish.json").read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    with context(browser) as ctx:
        page = open_page(ctx)
        page.goto(url)
        ready_ms(page)
        page.wait_for_selector("html[data-python-snapshot]", timeout=120_000)
        opened = [open_encounter_ms(page, demo) for _ in range(runs)]
        rows.append({"actions": len(demo.log), "open_ms": statistics.median(opened), "demo": True})
        for actions in LONG_FIGHTS:
            enc = long_fight("skirmish", actions)
            opened = [open_encounter_ms(page, enc) for _ in range(runs)]
            undo, redo, save, board = [], [], [], []
            for _ in range(runs + 1):
                undo.append(tap(page, "#undo-button"))
                save.append(timings(page)["save"])
                board.append(timings(page)["board"])
                redo.append(tap(page, "#redo-button"))
            rows.append(
                {
                    "actions": len(enc.log),
                    "kb": len(dumps(enc)) // 1000,
                    "open_ms": statistics.median(opened),
                    "undo_ms": statistics.median(undo[1:]),  # the first also builds the panel
                    "redo_ms": statistics.median(redo[1:]),
                    "save_ms": statistics.median(save[1:]),
                    "board_ms": statistics.median(board[1:]),
                    "load": load(),
                }
            )
    return rows


def open_encounter_ms(page: Page, enc: Encounter) -> float:
    """Time to ready (ms) of a reload that opens ``enc``."""
    page.evaluate(
        "keys => { localStorage.clear(); for (const [k, v] of Object.entries(keys)) "
        "localStorage.setItem(k, v); }",
        library_keys(enc),
    )
    page.reload()
    return ready_ms(page)


# ---- taps in each ruleset's demo: its most complex form and its prompt -----------------------
DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"


def demo_cases() -> list[dict[str, Any]]:
    """Per demo: the cursor, figure and action with the most parameters (its most complex
    form), and the first cursor where a prompt is open with the answer to tap (if any)."""
    from hexcombat.document import from_document
    from hexcombat.view import actions_view, prompt_view

    cases: list[dict[str, Any]] = []
    for item in json.loads((DEMOS / "index.json").read_text(encoding="utf-8")):
        doc = json.loads((DEMOS / item["file"]).read_text(encoding="utf-8"))
        full = from_document(doc)
        best: tuple[int, int, str, str] | None = None
        prompt: dict[str, Any] | None = None
        for cursor in range(len(full.log) + 1):
            enc = from_document({**doc, "cursor": cursor})
            state = enc.state
            open_prompt = prompt_view(state)
            if open_prompt is not None and prompt is None:
                answers: Any = open_prompt.get("answers") or []
                prompt = {"cursor": cursor, "answer": answers[0]["kind"] if answers else None}
            for fid in state.figures:
                for action in actions_view(enc, fid):
                    params: Any = action["params"]
                    if best is None or len(params) > best[0]:
                        best = (len(params), cursor, fid, str(action["kind"]))
        rs = item["ruleset"]
        if best is not None:
            n, cursor, fid, kind = best
            form = {"cursor": cursor, "figure": fid, "kind": kind, "fields": n}
            cases.append({"ruleset": rs, "case": "form", "doc": doc, **form})
        if prompt is not None and prompt["answer"] is not None:
            cases.append({"ruleset": rs, "case": "prompt", "doc": doc, **prompt})
    return cases


def open_document(page: Page, doc: dict[str, Any]) -> None:
    """Make ``doc`` the encounter the app opens and reload (from the snapshot)."""
    from hexcombat.document import from_document

    open_encounter(page, from_document(doc))


def settled_tap(page: Page, selector: str, quiet_ms: float = 500) -> float:
    """Click ``selector``; ms from the pointer going up to the frame after the last change it
    caused, once the page has changed nothing for ``quiet_ms`` (work the tap schedules for
    later, such as a preview, counts too)."""
    page.click(selector)
    page.wait_for_function(
        f"window.__tap.frame > 0 && performance.now() - window.__tap.last > {quiet_ms}",
        timeout=30_000,
    )
    tap_ = page.evaluate("window.__tap")
    return float(tap_["frame"]) - float(tap_["up"])


def demo_taps(browser: Browser, url: str, runs: int) -> list[dict[str, Any]]:
    """Tap to form: each demo's most complex action form and its prompt's answer form."""
    rows: list[dict[str, Any]] = []
    with context(browser) as ctx:
        page = open_page(ctx)
        page.goto(url)
        ready_ms(page)
        page.wait_for_selector("html[data-python-snapshot]", timeout=120_000)
        for case in demo_cases():
            open_document(page, {**case["doc"], "cursor": case["cursor"]})
            if case["case"] == "form":
                page.click(f'#turn-tracker [data-pick="{case["figure"]}"]')
                page.wait_for_timeout(300)
                card = f'#panel-body [data-action="{case["kind"]}"]'
                target, close = f"{card} .action-head", f"{card} .action-head"
            else:
                card = f'#panel-body [data-action="{case["answer"]}"]'
                target = f'#panel-body [data-prompt] [data-answer="{case["answer"]}"]'
                close = f"{card} .action-head"
            taps = []
            for _ in range(runs + 1):
                taps.append(settled_tap(page, target))
                # (the card says it is open on its head button, web/play/cards.py)
                if page.get_attribute(f"{card} .action-head", "aria-expanded") != "true":
                    raise SystemExit(f"{target} did not open its form ({case['ruleset']})")
                page.click(close)  # closed again for the next tap
                page.wait_for_timeout(150)
            rows.append(
                {
                    **{k: v for k, v in case.items() if k != "doc"},
                    "first_ms": taps[0],
                    "tap_ms": statistics.median(taps[1:]),
                    "load": load(),
                }
            )
    return rows
