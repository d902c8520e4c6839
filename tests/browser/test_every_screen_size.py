"""At the table, every size, through the page alone: the welcome card and dialogs
open at their top, the guide is never covered and names the step button as shown, the
phone's top bar keeps every button whole, Fit always changes something, the embed's log
leaves the board in view, axe-core finds nothing serious (with a question open too), and the
board's arrow keys name each hex and who stands there (tests/browser/test_keyboard_round.py
plays whole rounds).

axe-core (``appdriver.axe_problems``) is the pinned dev dependency in web/package.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from built_site import SITE
from playwright.sync_api import Browser, expect

from hexcombat import Encounter
from hexcombat.document import from_document

from .appdriver import (
    axe_problems,
    box,
    import_encounter,
    menu,
    overlaps,
    press,
    press_key_on,
    set_mode,
    started_app_fixture,
)
from .conftest import ROOT, App
from .test_desktop_guide_and_panel import DEMOS, demo_at

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop", "tablet-touch", "phone"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per size (its first test sees a first visit)."""
    yield from started_app_fixture(request, browser, base_url)


def skirmish_demo() -> Encounter:
    """The demo a first visit opens, at its start."""
    return from_document(json.loads((DEMOS / "skirmish.json").read_text(encoding="utf-8")))


def past_welcome(ui: App) -> None:
    """Close the first-visit card when this worker's page still shows it (with two pytest
    workers a test may get a fresh page, without the welcome test before it)."""
    card = ui.page.locator("#welcome")
    if card.is_visible():
        press(ui, card.locator('[data-cmd="welcome-close"]').first)
        expect(card).to_be_hidden()


# ---- the welcome card and the share dialog open at their top --------------------------
def test_welcome_card_opens_at_its_title_with_focus_on_its_first_button(ui: App) -> None:
    page = ui.page
    card = page.locator("#welcome")
    expect(card).to_be_visible()
    assert page.evaluate("document.getElementById('welcome').scrollTop") == 0
    title = box(page, "#welcome-title")
    outer = box(page, "#welcome")
    assert title["y"] >= outer["y"], "the card's title is scrolled out of view"
    expect(card.locator(".primary")).to_be_focused()
    first = box(page, "#welcome .primary")
    assert first["y"] + first["height"] <= outer["y"] + outer["height"] + 0.5
    assert axe_problems(page) == []
    ui.screenshot("welcome")
    press(ui, card.locator('[data-cmd="welcome-close"]').first)
    expect(card).to_be_hidden()


def test_share_dialog_opens_at_its_top_with_the_link_whole(ui: App) -> None:
    page = ui.page
    menu(ui, "share")
    link = page.locator('#dialog [data-share="link"]')
    expect(link).to_be_visible()
    assert page.evaluate("document.getElementById('dialog-body').scrollTop") == 0
    field, body = box(page, '#dialog [data-share="link"]'), box(page, "#dialog-body")
    assert field["y"] >= body["y"] and field["y"] + field["height"] <= body["y"] + body["height"]
    assert axe_problems(page) == []
    ui.screenshot("share")
    press(ui, '#dialog [data-cmd="close-dialog"]')


# ---- the phone's top bar and turn line -------------------------------------------------
def test_top_bar_buttons_never_overlap_and_the_turn_line_is_whole(ui: App) -> None:
    page = ui.page
    past_welcome(ui)
    bar = ("#menu-button", "#mode-switch", '#turn-tracker [data-action="next_step"]')
    bar += ('[data-cmd="undo"]', '[data-cmd="redo"]', "#log-button")
    shown = [s for s in bar if page.locator(f"#topbar {s}").first.is_visible()]
    boxes = [box(page, f"#topbar {s}") for s in shown]
    width = (page.viewport_size or {"width": 0})["width"]
    for i, a in enumerate(boxes):
        assert a["x"] >= 0 and a["x"] + a["width"] <= width + 0.5, shown[i]
        for j in range(i + 1, len(boxes)):
            assert not overlaps(a, boxes[j]), f"{shown[i]} overlaps {shown[j]}"
    expect(page.locator("#log-button")).to_contain_text("Log")
    whole = page.evaluate(
        "(() => { const t = document.querySelector('#turn-line .turn-text');"
        " return t.scrollWidth <= t.clientWidth + 1; })()"
    )
    assert whole, "the turn line is cut off"
    ui.screenshot("topbar")


# ---- Fit, and axe on the play panel, the editor and the library ----------------
def test_fit_pressed_again_always_changes_the_view_or_shows_the_whole_board(ui: App) -> None:
    page = ui.page
    past_welcome(ui)
    fit = page.locator('#board-tools [data-cmd="fit"]')
    press(ui, fit)
    first = page.evaluate("document.getElementById('board-view').getAttribute('transform')")
    press(ui, fit)
    whole = page.evaluate(
        "(() => { const b = document.getElementById('board-view').getBoundingClientRect();"
        " const s = document.getElementById('board').getBoundingClientRect();"
        " return b.top >= s.top - 1 && b.bottom <= s.bottom + 1; })()"
    )
    second = page.evaluate("document.getElementById('board-view').getAttribute('transform')")
    assert whole or second != first, "Fit changed nothing and the board is not whole"


def test_axe_finds_nothing_serious_on_the_play_panel_editor_and_library(ui: App) -> None:
    page = ui.page
    past_welcome(ui)
    assert axe_problems(page) == [], "main screen"
    chip = page.locator("#turn-tracker [data-pick]").first
    if chip.is_visible():
        press(ui, chip)
    else:  # the phone keeps the chips in the sheet's list
        press(ui, page.locator("#panel-body [data-pick], #panel-body [data-select]").first)
    expect(page.locator("#board .token.selected")).to_have_count(1)
    assert axe_problems(page) == [], "play panel with a figure selected"
    ui.screenshot("selected")
    set_mode(ui, "edit")
    assert axe_problems(page) == [], "set-up editor"
    set_mode(ui, "play")
    menu(ui, "library")
    page.locator("[data-library]").wait_for()
    assert axe_problems(page) == [], "library"
    press(ui, '#dialog [data-cmd="close-dialog"]')


def test_axe_finds_nothing_serious_with_a_question_open(ui: App) -> None:
    past_welcome(ui)
    import_encounter(ui, demo_at("strike-chance-pulse.json", "prompt"))
    expect(ui.page.locator("#panel-body [data-prompt]")).to_be_visible()
    assert axe_problems(ui.page) == []
    ui.screenshot("prompt")


# ---- the embed at 400x300 --------------------------------------------------------
@pytest.mark.parametrize("ui", ["desktop"], indirect=True)
def test_embed_at_400x300_keeps_open_whole_and_the_board_beside_its_log(ui: App) -> None:
    page = ui.page
    import_encounter(ui, skirmish_demo())
    menu(ui, "share")
    link = page.locator('#dialog [data-share="link"]').input_value()
    press(ui, '#dialog [data-cmd="close-dialog"]')
    embed = page.context.new_page()
    try:
        embed.set_viewport_size({"width": 400, "height": 300})
        embed.goto(ui.base_url + "?embed" + link[link.index("#") :])
        embed.wait_for_selector("html[data-app-state=ready]", timeout=60_000)
        opener = box(embed, "#import-button")
        more = box(embed, '.viewer-bar [aria-haspopup="menu"]')
        assert not overlaps(opener, more) and opener["x"] + opener["width"] <= 400.5
        assert axe_problems(embed) == [], "embed view"
        embed.click("#viewer-log-button")
        log = box(embed, "#viewer-log")
        assert log["width"] <= 0.6 * 400, "the log covers the board"
        embed.screenshot(path=str(ROOT / "test-artifacts" / "embed-400x300.png"))
    finally:
        embed.close()


# ---- the board without sight: a hex cursor that names each hex and who stands there ------------
@pytest.mark.parametrize("ui", ["desktop"], indirect=True)
def test_arrow_keys_and_n_name_each_hex_and_every_figure_in_turn(ui: App) -> None:
    page = ui.page
    if page.locator("#welcome").is_visible():  # a first visit: the card closes by keyboard too
        press_key_on(page, '#welcome [data-cmd="welcome-close"]:not([aria-label])')
    import_encounter(ui, skirmish_demo())
    chip = page.locator("#turn-tracker [data-pick]").first
    fid = str(chip.get_attribute("data-pick"))
    name = str(chip.get_attribute("title")).split(":")[0]
    press_key_on(page, f'#turn-tracker [data-pick="{fid}"]')
    press_key_on(page, "#board", "ArrowRight")
    said = page.locator("#board-announce")
    expect(said).to_have_text(re.compile(r"^hex [A-Z]+\d+: "))
    page.keyboard.press("ArrowLeft")  # back onto the figure's own hex
    expect(said).to_have_text(re.compile(rf"^hex [A-Z]+\d+: .*; {re.escape(name)}$"))
    expect(said).to_have_attribute("aria-live", "polite")
    names = [
        str(t).split(":")[0]
        for t in page.locator("#turn-tracker [data-pick]").evaluate_all(
            "cs => cs.map(c => c.title)"
        )
    ]
    heard = []
    for _ in names:  # N visits every figure once, in reading order, and names it
        page.keyboard.press("n")
        heard.append(str(said.text_content()).rsplit("; ", 1)[-1])
    assert sorted(heard) == sorted(names)
    page.keyboard.press("Shift+N")
    assert str(said.text_content()).endswith(heard[-2])


def test_axe_core_is_never_shipped_in_the_site() -> None:
    lock = json.loads((ROOT / "web" / "package.json").read_text(encoding="utf-8"))
    assert lock["devDependencies"]["axe-core"].startswith("4.")
    shipped = [p for p in Path(SITE).rglob("*axe*")] if SITE.is_dir() else []
    assert shipped == []
