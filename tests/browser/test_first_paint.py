"""The board before Python: a first visit shows the demo's board at once, as an inert picture
drawn by the engine at build time (web/board_picture.py), exactly where the live board comes;
a share link shows the shared encounter's board, read from the link without Python
(web/share-picture.js)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from hexcombat import loads
from hexcombat.share import share_fragment

from .conftest import VIEWPORTS, App, new_app
from .held_runtime import hold_the_runtime, release_the_runtime

pytestmark = pytest.mark.browser

# The page's state at the moment the live board first has a hex, the live board's hex count
# at the moment the page turns ready, and every loading picture shown (noted by the page
# itself, not polled).
WATCH = """
(() => {
  window.__seen = {};
  window.__pictures = [];
  new MutationObserver((records) => {
    const html = document.documentElement, seen = window.__seen;
    for (const r of records) for (const n of r.addedNodes)
      if (n.id === "boot-snapshot") window.__pictures.push(n.dataset.source);
    const live = document.querySelectorAll("#board [data-hex]").length;
    const state = html.dataset.appState;
    if (live && seen.stateAtLiveBoard === undefined) seen.stateAtLiveBoard = state;
    if (state === "ready" && seen.liveAtReady === undefined) seen.liveAtReady = live;
  }).observe(document, { attributes: true, childList: true, subtree: true });
})();
"""
PICTURE_FACTS = """() => ({
  "state": document.documentElement.dataset.appState,
  "hexes": document.querySelectorAll("#boot-snapshot [data-hex]").length,
  "figures": document.querySelectorAll("#boot-snapshot [data-figure]").length,
  "hidden from assistive technology": document.getElementById("boot-snapshot").ariaHidden,
  "active content": document.querySelectorAll("#boot-snapshot script, #boot-snapshot [onload]")
    .length,
})"""
HEX_CENTRES = """(scope) => Object.fromEntries(["0,0", "11,3", "5,2"].map((key) => {
  const r = document.querySelector(`${scope} [data-hex="${key}"]`).getBoundingClientRect();
  return [key, [r.x + r.width / 2, r.y + r.height / 2, r.width]];
}))"""


@pytest.fixture(params=["desktop", "tablet-portrait"])
def first_visit(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    viewport = str(request.param)
    app = new_app(browser, base_url, viewport, VIEWPORTS[viewport])
    app.page.add_init_script(WATCH)
    yield app
    app.page.context.close()
    assert app.blocked == []


def test_a_first_visit_shows_the_demo_board_before_python_and_the_live_board_replaces_it_in_place(
    first_visit: App,
) -> None:
    app, page = first_visit, first_visit.page
    held = hold_the_runtime(page)
    app.open()
    page.wait_for_selector("#boot-snapshot[data-source=first-visit] svg", state="attached")
    page.wait_for_function("performance.getEntriesByName('hexcombat:board-painted').length === 1")
    # one look, all at once: the page, the picture and where its hexes are
    seen, before = page.evaluate(f"() => [({PICTURE_FACTS})(), ({HEX_CENTRES})('#boot-snapshot')]")
    assert seen == {
        "state": "loading",
        "hexes": 12 * 9,  # the skirmish demo's board and its six figures
        "figures": 6,
        "hidden from assistive technology": "true",
        "active content": 0,
    }
    release_the_runtime(page, held)
    app.wait_ready()
    assert page.locator("#boot-snapshot").count() == 0
    after = page.evaluate(HEX_CENTRES, "#board")
    for key, (x, y, width) in before.items():  # no jump: each hex where the picture had it
        lx, ly, lwidth = after[key]
        assert abs(x - lx) <= 1.0 and abs(y - ly) <= 1.0 and abs(width - lwidth) <= 1.0, (
            key,
            before,
            after,
        )
    seen = page.evaluate("window.__seen")
    assert seen == {"stateAtLiveBoard": "loading", "liveAtReady": 12 * 9}
    assert page.evaluate("window.__pictures") == ["first-visit"]
    assert page.evaluate("hexcombatBoot.violations") == []


@pytest.mark.parametrize("first_visit", ["desktop"], indirect=True)
def test_a_later_visit_shows_no_first_visit_picture_but_its_own_board(first_visit: App) -> None:
    """Once the library holds an encounter the demo picture would be the wrong board: the
    board kept from last time is shown instead (or, without one, none)."""
    app, page = first_visit, first_visit.page
    app.open()
    app.wait_ready()
    page.evaluate("localStorage.removeItem('hexcombat.snapshot')")
    page.reload()
    app.wait_ready()
    assert "first-visit" not in page.evaluate("window.__pictures")


CENTRES_OF = """([scope, keys]) => Object.fromEntries(keys.map((key) => {
  const r = document.querySelector(`${scope} [data-hex="${key}"]`).getBoundingClientRect();
  return [key, [r.x + r.width / 2, r.y + r.height / 2, r.width]];
}))"""
DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"
SHARED = {"desktop": DEMOS / "fig-percentile.json", "tablet-portrait": DEMOS / "skirmish.json"}
"""A board the live board shows whole at that size (on a touch screen a board too big for
fingers is zoomed in on its figures, which only Python knows: no picture then)."""


def test_a_share_link_shows_the_shared_board_before_python_and_the_live_board_replaces_it_in_place(
    first_visit: App,
) -> None:
    """Python cannot start while the runtime's WebAssembly is held back: the shared encounter's
    board (its own size and terrain) is on screen all the same, and the live board comes
    exactly where it was."""
    app, page = first_visit, first_visit.page
    shared = SHARED[app.viewport]
    document = json.loads(shared.read_text(encoding="utf-8"))
    width, height = document["board"]["width"], document["board"]["height"]
    held = hold_the_runtime(page)
    app.open(app.base_url + share_fragment(loads(shared.read_text(encoding="utf-8"))))
    page.wait_for_selector("#boot-snapshot[data-source=share] svg", state="attached")
    page.wait_for_function("performance.getEntriesByName('hexcombat:board-painted').length === 1")
    keys = ["0,0", f"{width - 1},{-((width - 1) // 2)}", "7,2"]
    seen, before, terrain = page.evaluate(
        f"""() => [({PICTURE_FACTS})(), ({CENTRES_OF})(['#boot-snapshot', {json.dumps(keys)}]),
        Array.from(document.querySelectorAll('#boot-snapshot [data-hex]'),
                   (h) => h.getAttribute('fill'))]"""
    )
    assert seen == {
        "state": "loading",
        "hexes": width * height,
        "figures": 0,  # where they stand comes from Python
        "hidden from assistive technology": "true",
        "active content": 0,
    }
    assert len(set(terrain)) > 2  # the shared board's own terrain, not one colour
    release_the_runtime(page, held)
    app.wait_ready()
    assert page.locator("#boot-snapshot").count() == 0
    after = page.evaluate(CENTRES_OF, ["#board", keys])
    for key, (x, y, size) in before.items():  # no jump: each hex where the picture had it
        lx, ly, lsize = after[key]
        assert abs(x - lx) <= 1.0 and abs(y - ly) <= 1.0 and abs(size - lsize) <= 1.0, (
            key,
            before,
            after,
        )
    assert page.evaluate("window.__pictures") == ["share"]
    assert page.evaluate("hexcombatBoot.violations") == []
