"""A long fight in the page: undo and redo write a small manifest, not the whole
document; the log drawer draws the last entries and more on demand, and an undo takes its
items off the end; the saved fight reopens where it was. Timings are the benchmark's
(``tests/bench --only longlog``), not asserted here."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from hexcombat import Encounter, dumps, loads
from web.library.storage import Library, MemoryStore

from .appdriver import start_app

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
# web/play/log.py's WINDOW (that module needs the browser's js to import)
WINDOW = int(re.findall(r"^WINDOW = (\d+)", (ROOT / "web/play/log.py").read_text(), re.M)[0])
ACTIONS = WINDOW + 200

# Records every localStorage write's key and size in window.__sets.
WATCH_SETS = """
(() => {
  window.__sets = [];
  const real = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key.startsWith("hexcombat:")) window.__sets.push([key, String(value).length]);
    return real.call(this, key, value);
  };
})();
"""


def long_fight(actions: int) -> Encounter:
    """The skirmish demo's set-up, then ``actions`` random legal actions."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from playouts import played_at_random

    doc = json.loads((ROOT / "static" / "demos" / "skirmish.json").read_text(encoding="utf-8"))
    doc["log"] = []
    enc = loads(json.dumps(doc))
    played_at_random(enc, random.Random(5).randrange, actions)
    assert len(enc.log) == actions
    return enc


def open_in_page(page: Page, enc: Encounter) -> None:
    """Make ``enc`` the library's only, last opened entry and reload."""
    store = MemoryStore()
    library = Library(store)
    entry, _ = library.add(enc)
    library.remember(entry.id)
    page.evaluate(
        "keys => { localStorage.clear(); for (const [k, v] of Object.entries(keys)) "
        "localStorage.setItem(k, v); }",
        store.data,
    )
    page.reload()
    page.wait_for_selector("html[data-app-state=ready]", timeout=120_000)


def sets(page: Page) -> list[Any]:
    return list(page.evaluate("window.__sets.splice(0)"))


def test_undo_and_redo_in_a_long_fight_write_little_and_the_log_draws_a_window(
    browser: Browser, base_url: str
) -> None:
    enc = long_fight(ACTIONS)
    events = [len(enc.entry_events(i)) for i in range(len(enc.log))]
    app = start_app(browser, base_url, "desktop")
    page = app.page
    try:
        page.add_init_script(WATCH_SETS)
        open_in_page(page, enc)
        expect(page.locator("#log-count")).to_have_text(str(sum(events)))
        shown = sum(events[-WINDOW:])
        expect(page.locator("#log > li")).to_have_count(shown)
        assert page.locator("#log > li").first.get_attribute("data-entry") == str(ACTIONS - WINDOW)
        sets(page)

        for _ in range(3):
            page.locator("#undo-button").click()
        expect(page.locator("#log > li")).to_have_count(shown - sum(events[-3:]))
        expect(page.locator("#log-count")).to_have_text(str(sum(events[:-3])))
        written = sets(page)
        assert {key.rsplit(":", 1)[0] for key, _ in written} <= {
            "hexcombat",
            f"hexcombat:enc:{page.evaluate('localStorage.getItem(`hexcombat:last`)')}",
        }
        assert max(n for _, n in written) < 2000, written  # a manifest and the index
        page.locator("#redo-button").click()
        expect(page.locator("#log > li")).to_have_count(shown - sum(events[-2:]))
        assert max(n for _, n in sets(page)) < 2000

        page.locator("#log-button").click()
        earlier = page.locator("#log-earlier")
        expect(earlier).to_have_text("Show 200 earlier actions")
        app.screenshot("long-fight-log-earlier")
        earlier.click()
        expect(earlier).to_be_hidden()
        expect(page.locator("#log > li")).to_have_count(sum(events[:-2]))
        assert page.locator("#log > li").first.get_attribute("data-entry") == "0"
        app.screenshot("long-fight-log")

        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=120_000)
        expect(page.locator("#log-count")).to_have_text(str(sum(events[:-2])))
        page.locator("#redo-button").click()
        page.locator("#redo-button").click()
        expect(page.locator("#log-count")).to_have_text(str(sum(events)))
    finally:
        page.context.close()


HEARTBEAT = """() => {
  const beats = window.__beats = [performance.now()];
  window.__beating = setInterval(() => beats.push(performance.now()), 10);
}"""
"""A timer every 10 ms that notes when it ran: it runs only between the page's tasks."""
LONG_IMPORT = 3000


def test_importing_a_long_fight_leaves_the_page_answering_between_slices(
    browser: Browser, base_url: str
) -> None:
    enc = long_fight(LONG_IMPORT)
    app = start_app(browser, base_url, "desktop")
    page = app.page
    try:
        page.locator("#menu-button").click()
        page.locator('#menu [data-cmd="library"]').click()
        page.locator("[data-library]").wait_for()
        page.evaluate(HEARTBEAT)
        page.set_input_files(
            '[data-library] input[type="file"]',
            files=[
                {"name": "long.json", "mimeType": "application/json", "buffer": dumps(enc).encode()}
            ],
        )
        expect(page.locator('[data-lib="toast-action"]')).to_be_visible(timeout=120_000)
        beats = page.evaluate("clearInterval(window.__beating) || window.__beats")
        # the timer ran between the import's slices (one long task would let it run once at
        # most); how long each slice holds the page is the benchmark's to measure
        assert len(beats) > 3, f"the timer ran {len(beats)} times while the fight was read"
        page.locator('[data-lib="toast-action"]').click()
        expect(page.locator("#log > li").last).to_have_attribute("data-entry", str(LONG_IMPORT - 1))
        # opened from the import's own copy, and again read back from storage: the same
        # figures, where the engine has them, and the same log
        events = sum(len(enc.entry_events(i)) for i in range(len(enc.log)))
        for _ in ("imported", "reloaded"):
            expect(page.locator("#log-count")).to_have_text(str(events))
            assert figures_drawn(page) == figures_of(enc)
            page.reload()
            page.wait_for_selector("html[data-app-state=ready]", timeout=120_000)
    finally:
        page.context.close()


def figures_drawn(page: Page) -> dict[str, list[str]]:
    """Each figure token on the board: [its hex, its facing]."""
    return dict(
        page.eval_on_selector_all(
            "#board [data-figure]",
            "ts => ts.map(t => [t.dataset.figure, [t.dataset.at, t.dataset.facing]])",
        )
    )


def figures_of(enc: Encounter) -> dict[str, list[str]]:
    """Each figure in ``enc``'s state: [its hex, its facing]."""
    return {
        f.id: [f"{f.position.q},{f.position.r}", str(f.facing)] for f in enc.state.figures.values()
    }
