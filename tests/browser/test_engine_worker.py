"""The engine's heavy work off the page's main thread, in real Chromium: the app's decisions
(its moves, Suggest) are made in the engine's worker (``web/engine-worker.mjs``) and reach the
page only through the boundary (``web/engine_boundary.py``).

Every message between the page and the worker is recorded as it crosses (the page's
``Worker`` wrapped before the app starts). What the worker answers is what the engine under
CPython answers to the same command, so what the page renders of it (the log's notes, the
suggestion) round-trips the boundary; the same decisions come out on the desktop profile and
on the tablet profile with its CPU slowed 4x (a counted budget, no clock); and while the worker
is held the page decides nothing by itself, yet shows the pressed Suggest at once and answers
taps."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from web import engine_boundary as boundary

from .appdriver import SIZES, close_started, import_encounter, log_texts, press, throttled
from .conftest import READY_TIMEOUT_MS, ROOT, VIEWPORTS, App, new_app

sys.path.insert(0, str(ROOT / "tests"))
from factories import skirmish_duel

from hexcombat.autopilot.view import played_by

pytestmark = pytest.mark.browser

RECORD = """(() => {
  const Real = window.Worker;
  const seen = window.__engineMessages = { sent: [], answered: [], held: false, waiting: [] };
  function Recorded(url, options) {
    const worker = new Real(url, options);
    if (!String(url).includes("engine-worker")) return worker;
    const post = worker.postMessage.bind(worker);
    seen.release = () => { seen.held = false; for (const m of seen.waiting.splice(0)) post(m); };
    worker.postMessage = (message) => {
      seen.sent.push(Array.from(message));
      if (seen.held) seen.waiting.push(message); else post(message);
    };
    worker.addEventListener("message", (event) => seen.answered.push(Array.from(event.data)));
    return worker;
  }
  Recorded.prototype = Real.prototype;
  window.Worker = Recorded;
})();"""
"""Init script: every command the page sends the engine's worker and every answer, in order;
``__engineMessages.held = true`` keeps the commands from the worker until ``release()``."""
APP_MOVES = 4
"""How many of the app's moves each profile plays before the decisions are compared."""


def recording_app(browser: Browser, base_url: str, viewport: str) -> App:
    """A started app whose engine worker's messages are recorded."""
    options = SIZES.get(viewport) or VIEWPORTS[viewport]
    app = new_app(browser, base_url, viewport, options)
    app.page.set_default_timeout(20_000)
    app.page.add_init_script(RECORD)
    app.open()
    app.wait_ready(READY_TIMEOUT_MS)
    return app


def messages(app: App) -> list[tuple[str, str]]:
    """Each command sent to the worker with the answer it got, in order."""
    seen: dict[str, Any] = app.page.evaluate("window.__engineMessages")
    answers = {int(a[0]): a[1] for a in seen["answered"]}
    return [(str(s[1]), str(answers[int(s[0])])) for s in seen["sent"] if int(s[0]) in answers]


def the_engines_answer(command: str) -> str:
    """What the engine under CPython answers to ``command`` (a worker that opened nothing)."""
    boundary.OPENED.document, boundary.OPENED.encounter = None, None
    return boundary.serve(command)


def both_sides_played() -> Any:
    enc = played_by(skirmish_duel().renamed("The app plays both"), "Red", "aggressive")
    return played_by(enc, "Blue", "careful")


def app_plays(browser: Browser, base_url: str, viewport: str, rate: int) -> list[tuple[str, str]]:
    """The app plays both sides of the duel at ``viewport`` with the CPU slowed ``rate``
    times until it has made :data:`APP_MOVES` moves; the worker's messages, each checked
    against the engine under CPython and against what the page logged."""
    app = recording_app(browser, base_url, viewport)
    try:
        throttled(app, rate)
        import_encounter(app, both_sides_played())
        app.page.wait_for_function(
            "n => [...document.querySelectorAll('#log > li')]"
            ".filter(li => li.textContent.includes('The app (')).length >= n",
            arg=APP_MOVES,
            timeout=90_000,
        )
        expect(app.page.locator("html")).to_have_attribute("data-engine-worker", "ready")
        assert any(w.url.endswith("/engine-worker.mjs") for w in app.page.workers)
        logged = [t for t in log_texts(app) if t.startswith("The app (")]
        crossed = messages(app)
        decisions = []
        for command, answer in crossed:
            assert answer == the_engines_answer(command)  # the worker's engine is the engine
            decision = json.loads(answer)["decision"]
            if decision is not None and decision["note"]:
                decisions.append(decision["note"])
        assert len(logged) >= APP_MOVES
        assert logged == decisions[: len(logged)]  # the page logged what the worker answered
        return crossed
    finally:
        close_started(app)


def test_the_apps_decisions_are_made_in_the_worker_the_same_on_desktop_and_a_slow_tablet(
    browser: Browser, base_url: str
) -> None:
    desktop = app_plays(browser, base_url, "desktop", 1)
    tablet = app_plays(browser, base_url, "tablet-touch", 4)
    assert len(desktop) >= APP_MOVES and len(tablet) >= APP_MOVES
    asked_on_desktop = dict(desktop)
    same_positions = [(c, a) for c, a in tablet if c in asked_on_desktop]
    assert len(same_positions) >= APP_MOVES  # the same fight, position by position
    assert all(asked_on_desktop[c] == a for c, a in same_positions)


def test_while_the_worker_thinks_the_page_decides_nothing_and_answers_taps(
    browser: Browser, base_url: str
) -> None:
    app = recording_app(browser, base_url, "tablet-touch")
    page = app.page
    try:
        import_encounter(app, skirmish_duel().renamed("Held"))
        page.evaluate("window.__engineMessages.held = true")
        press(app, '#turn-tracker [data-pick="ann"]')
        suggest = page.locator('#panel-body [data-cmd="suggest"]')
        press(app, suggest)
        expect(suggest).to_have_attribute("aria-busy", "true")  # pressed at once
        page.wait_for_timeout(1500)
        expect(page.locator("#suggestion")).to_have_count(0)  # nothing decided on the page
        press(app, '#turn-tracker [data-pick="bo"]')  # the page still answers a tap
        expect(page.locator('#board [data-figure="bo"]')).to_have_class(re.compile(r"\bselected\b"))
        press(app, '#turn-tracker [data-pick="ann"]')
        press(app, '#panel-body [data-cmd="suggest"]')
        page.evaluate("window.__engineMessages.release()")
        suggestion = page.locator("#suggestion")
        expect(suggestion).to_contain_text("Suggestion:")
        crossed = messages(app)
        suggested = [json.loads(a) for _, a in crossed if json.loads(a)["kind"] == "suggest"]
        assert suggested, crossed
        reason = str(suggested[-1]["suggestion"]["reason"])
        assert reason in (suggestion.text_content() or "")
        for command, answer in crossed:
            assert answer == the_engines_answer(command)
    finally:
        close_started(app)
