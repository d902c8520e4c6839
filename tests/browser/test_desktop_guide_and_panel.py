"""Seen at desktop size (1280x800, a mouse), through the page alone: the guide
never covered by a message and naming the step button as it reads, fig-percentile's
panel and board and a player's words; axe-core on an open question at every
size is in test_every_screen_size.py, on its page of each size.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from hexcombat import Encounter
from hexcombat.document import from_document

from .appdriver import (
    box,
    figure,
    hex_at,
    import_encounter,
    overlaps,
    press,
    started_app_fixture,
)
from .conftest import ROOT, App

pytestmark = pytest.mark.browser

DEMOS = ROOT / "static" / "demos"


def demo_at(file: str, stop: str) -> Encounter:
    """A demo redone until ``stop`` ("prompt": a question is open; else a step id)."""
    enc = from_document(json.loads((DEMOS / file).read_text(encoding="utf-8")))
    while enc.can_redo and not (
        enc.state.prompt is not None if stop == "prompt" else enc.state.step.id == stop
    ):
        enc.redo()
    return enc


def now_value(page: Page, label: str) -> str:
    """The figure panel's "Now" value named ``label``."""
    return str(
        page.evaluate(
            "l => { const dt = [...document.querySelectorAll('#panel-body dl dt')]"
            ".find(d => d.textContent.trim() === l); return dt ? dt.nextElementSibling"
            ".textContent : null; }",
            label,
        )
    )


@pytest.fixture(scope="module", params=["desktop"])
def desk(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app at desktop size, started once for this module (a first visit)."""
    yield from started_app_fixture(request, browser, base_url)


# ---- the guide ------------------------------------------------------------------------
def test_guide_messages_never_cover_its_words_and_step_3_names_the_button(
    desk: App,
) -> None:
    page = desk.page
    press(desk, '#welcome [data-cmd="welcome-guide"]')
    guide = page.locator("#guide")
    ringed = page.locator('#board [data-highlight~="guide"]')
    key = str(ringed.get_attribute("data-hex"))
    press(desk, page.locator(f'#board [data-figure][data-at="{key}"]'))
    expect(guide).to_have_attribute("data-guide-step", "2")
    press(desk, hex_at(desk, str(ringed.get_attribute("data-hex"))))
    press(desk, page.locator('[data-commit-bar] [data-cmd="commit"]'))
    expect(guide).to_have_attribute("data-guide-step", "3")
    toast = page.locator("#toast")
    expect(toast).to_be_visible()  # "... moves ... Undo"
    assert not overlaps(box(page, "#toast"), box(page, "#guide")), "a message covers the guide"
    button = page.locator('#turn-tracker [data-action="next_step"]')
    shown = str(button.inner_text()).replace("▸", "").strip()
    expect(guide).to_contain_text(f"Press “{shown}” (top bar)")
    desk.screenshot("guide-step3")
    press(desk, guide.locator('[data-cmd="guide-close"]'))


# ---- fig-percentile's panel and board ---------------------------------------------------
def test_g19_declared_shows_yes_and_a_long_choice_is_written_out(desk: App) -> None:
    page = desk.page
    import_encounter(desk, demo_at("fig-percentile.json", "declare"))
    press(desk, '#turn-tracker [data-pick="barclay"]')
    assert now_value(page, "Declared") == "no"
    press(desk, '#panel-body [data-cmd="open-action"][data-kind="declare"]')
    select = page.locator('#action-form [data-field="mode"] select')
    labels = select.locator("option").all_text_contents()
    running = next(i for i, t in enumerate(labels) if t.startswith("Start running"))
    select.select_option(index=running)
    whole = page.locator('#action-form [data-field="mode"] [data-chosen]')
    expect(whole).to_be_visible()
    expect(whole).to_have_text(labels[running])
    chosen = box(page, '#action-form [data-field="mode"] [data-chosen]')
    assert chosen["width"] <= box(page, "#action-form")["width"] + 0.5
    press(desk, '[data-commit-bar] [data-cmd="commit"]')
    expect(page.locator("#panel-body")).to_contain_text("Chosen in this step (Declarations)")
    assert now_value(page, "Declared") == "yes"  # hidden is what it chose, not that it did


def test_the_path_label_takes_its_hex_cost_place_and_measuring_clears_the_tooltip(
    desk: App,
) -> None:
    page = desk.page
    enc = demo_at("fig-percentile.json", "move")
    import_encounter(desk, enc)
    press(desk, '#turn-tracker [data-pick="barclay"]')
    reach = page.locator('#board [data-highlight~="reach"]')
    expect(reach.first).to_be_visible()
    target = str(reach.last.get_attribute("data-hex"))
    press(desk, hex_at(desk, target))
    label = page.locator("#layer-lines text")
    expect(label).to_contain_text("MP")
    mine = box(page, "#layer-lines text")
    costs = page.locator("#layer-reach text")
    clashes = [
        str(costs.nth(i).text_content())
        for i in range(costs.count())
        if overlaps(mine, costs.nth(i).bounding_box() or {"x": 0, "y": 0, "width": 0, "height": 0})
    ]
    assert clashes == [], f"the path label is drawn over {clashes}"
    press(desk, '[data-cmd="close-action"]')
    press(desk, "#measure-button")
    press(desk, hex_at(desk, target))
    expect(page.locator("#measure-info")).to_be_visible()
    hex_at(desk, target).hover()
    hover = page.locator("#hover-info")
    expect(hover).to_be_visible()
    assert not overlaps(box(page, "#hover-info"), box(page, "#measure-info"))
    desk.screenshot("measure")
    press(desk, "#measure-button")
    assert figure(desk, "barclay").count() == 1


# ---- a player's words ------------------------------------------------------------------
NOTATION = re.compile(r"\d*d\d+k[hl]\d|\bmin \d|\b(?:gm|sc): |[A-Z]-\d+ placeholder")


def test_the_panel_shows_no_engine_notation(desk: App) -> None:
    """Dice read "best two of 3d10" (two-action-2d10's combined attack) and typed dice name
    their die in words; no "3d10kh2", "d10+2 min 0", "gm: outcome" or "A-15 placeholder"."""
    page = desk.page
    enc = demo_at("two-action-2d10.json", "prompt")
    import_encounter(desk, enc)
    body = page.locator("#panel-body")
    expect(body.locator("[data-prompt]")).to_be_visible()
    press(desk, body.locator("[data-prompt] [data-answer]").first)
    texts = " ".join([str(body.inner_text()), *page.locator("#log > li").all_text_contents()])
    assert not NOTATION.search(texts), NOTATION.findall(texts)
    assert "best two of 3d10" in " ".join(page.locator("#log > li").all_text_contents())
