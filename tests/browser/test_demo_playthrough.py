"""Every ruleset's demo played to its end through the page at phone and tablet size (issue 22,
item 10): the demo opened from the welcome card, each logged action carried out with the top
bar's Redo (a tap); a demo with no logged fight (skirmish's open board) is played for three
full rounds with the step button. At every change of step a screenshot a person can look through
(``test-artifacts/demo-<ruleset>-<size>-NN.png``, not committed). At each step the turn line is
whole, the top bar's buttons are whole and apart, and the polite live region has said what the
action did.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from hexcombat.document import from_document

from .appdriver import press, start_app
from .conftest import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser

INDEX = json.loads((ROOT / "static" / "demos" / "index.json").read_text(encoding="utf-8"))
DEMOS: list[dict[str, Any]] = INDEX["demos"] if isinstance(INDEX, dict) else INDEX
MAX_ACTIONS = 80
"""A demo longer than this is played to its first 80 actions (every demo today is shorter)."""


def logged_actions(file: str) -> int:
    """How many actions the demo's log holds (Redo steps through them all)."""
    enc = from_document(json.loads((ROOT / "static" / "demos" / file).read_text(encoding="utf-8")))
    return len(enc.log)


TOP_BAR = ("#menu-button", "#mode-switch", '[data-action="next_step"]', "#undo-button")
TOP_BAR += ("#redo-button", "#log-button")


@pytest.mark.parametrize("size", ["phone", "tablet-touch"])
@pytest.mark.parametrize("demo", DEMOS, ids=[d["ruleset"] for d in DEMOS])
def test_22_10_each_demo_plays_to_its_end_through_the_page(
    browser: Browser, base_url: str, demo: dict[str, Any], size: str
) -> None:
    app = start_app(browser, base_url, size)
    try:
        page = app.page
        card = page.locator("#welcome")
        other = card.locator(f'[data-cmd="welcome-demo"][data-file="{demo["file"]}"]')
        press(app, other if other.count() else card.locator('[data-cmd="welcome-close"]').first)
        expect(card).to_be_hidden()
        actions = min(logged_actions(demo["file"]), MAX_ACTIONS)
        line = page.locator("#turn-line .turn-text")
        heard = page.locator("#log-announce")
        shots, last_step = 0, ""

        def look(final: bool) -> None:
            nonlocal shots, last_step
            step = str(line.text_content())
            if step == last_step and not final:
                return
            last_step = step
            shots += 1
            page.evaluate("document.getElementById('toast').hidden = true")
            page.screenshot(path=str(ARTIFACTS / f"demo-{demo['ruleset']}-{size}-{shots:02d}.png"))
            assert page.evaluate(
                "(() => { const t = document.querySelector('#turn-line .turn-text');"
                " return t.scrollWidth <= t.clientWidth + 1; })()"
            ), f"the turn line is cut off: {step}"
            boxes = [
                page.locator(f"#topbar {s}").first.bounding_box()
                for s in TOP_BAR
                if page.locator(f"#topbar {s}").first.is_visible()
            ]
            edges = sorted((b["x"], b["x"] + b["width"]) for b in boxes if b)
            overlapping = [(a, b) for a, b in itertools.pairwise(edges) if a[1] > b[0] + 0.5]
            assert overlapping == [], f"top-bar buttons overlap at {step}"

        look(False)
        if actions:
            for done in range(1, actions + 1):
                press(app, "#redo-button")
                expect(page.locator("#log-count")).not_to_have_text("0")
                expect(heard).not_to_be_empty()
                look(done == actions)
            expect(page.locator("#redo-button")).to_be_disabled()
        else:  # three full rounds with the step button
            step_button = page.locator('#turn-tracker [data-action="next_step"]')
            for _ in range(MAX_ACTIONS):
                if "Round 4" in str(line.text_content()):
                    break
                press(app, step_button)
                expect(heard).not_to_be_empty()
                look(False)
            expect(line).to_contain_text("Round 4")
        assert shots >= 2
    finally:
        app.page.context.close()
    assert app.blocked == []
