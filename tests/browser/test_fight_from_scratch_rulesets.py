"""A whole fight from scratch in every ruleset, through the page: a new encounter with the
rule options that let it end (the form says it cannot end before they are chosen), a small
board, a painted hex, two figures a side placed from the set-up panel with their starting
gear and their pools lowered in the figure form (tests/scratch_fights.py), then played to
its end (one side out of the fight) with no refused action and no stuck step:

- by taps on a phone: built by taps, then both sides given to the app (skirmish's is in
  test_fight_from_scratch.py);
- by the keyboard alone on a desktop (Tab, arrows, Enter: no click, no focus() call): built
  by keyboard, then played to its end by keyboard, each action as Suggest fills its card
  (test_fight_to_the_end_by_hand.played_on; that module plays the same fights by taps).

The app's pause before each of its moves is shortened (``window.hexcombatAppPause``): the
fights are short by construction (a 6 by 5 board, every figure next to a foe, low pools).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

import pytest
from playwright.sync_api import Browser, Page, expect
from scratch_fights import FIGHTS, HEIGHT, PAINTED, PLACES, WIDTH, ScratchFight, key_hex

from hexcombat.layout import to_offset
from hexcombat.rulesets import get_ruleset
from hexcombat.validation import Json
from hexcombat.view import ruleset_view

from .appdriver import (
    close_started,
    figure,
    hex_at,
    menu,
    press,
    press_key_on,
    set_mode,
    start_app,
    stored_document,
    tab_to,
    tap_board,
    terrains,
    wait_toast_gone,
)
from .conftest import ARTIFACTS, App
from .test_fight_to_the_end_by_hand import played_on

pytestmark = pytest.mark.browser

FIGHT_TIMEOUT_MS = 150_000
APP_PAUSE_MS = 60
"""The app's pause before each of its moves here (0.9 s for players)."""


def fast_app(app: App) -> App:
    """``app`` with the app's pause before each move shortened to :data:`APP_PAUSE_MS`."""
    app.page.evaluate(f"window.hexcombatAppPause = {APP_PAUSE_MS}")
    return app


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[App]:
    """One started phone page for the module."""
    app = fast_app(start_app(browser, base_url, "phone"))
    yield app
    close_started(app)


@pytest.fixture(scope="module")
def desk(browser: Browser, base_url: str) -> Iterator[App]:
    """One started desktop page for the module."""
    app = fast_app(start_app(browser, base_url, "desktop"))
    yield app
    close_started(app)


def option_index(ruleset_id: str, name: str, value: Json) -> str:
    """The form's value (an index) of option ``name``'s choice ``value``."""
    spec = next(o for o in ruleset_view(get_ruleset(ruleset_id))["options"] if o["name"] == name)
    return str([c["value"] for c in spec["choices"]].index(value))


def ruleset_index(page: Page, ruleset_id: str) -> str:
    """The New encounter form's value (an index) of the ruleset ``ruleset_id``."""
    labels = page.locator('[data-field="ruleset"] select option').all_inner_texts()
    name = get_ruleset(ruleset_id).name
    return str(next(i for i, t in enumerate(labels) if t.startswith(name)))


def ending_line(page: Page) -> str:
    """What the New encounter form says about a fight that cannot end ('' when it can)."""
    line = page.locator("[data-ending]")
    return "" if line.is_hidden() else str(line.text_content())


def assert_fight_ended(app: App) -> None:
    """The app played on to the end: the outcome shows, nothing was refused."""
    page = app.page
    outcome = page.locator("#panel-body [data-outcome]")
    try:
        expect(outcome).to_be_visible(timeout=FIGHT_TIMEOUT_MS)
    except AssertionError:  # what the fight came to, to play it again in the engine
        app.screenshot("from-scratch-no-end")
        kept = json.dumps(stored_document(app), indent=1)
        (ARTIFACTS / f"from-scratch-no-end-{app.viewport}.json").write_text(kept, "utf-8")
        raise
    assert outcome.get_attribute("data-outcome") in [*PLACES, ""]
    expect(page.locator("#action-error")).to_have_count(0)
    expect(page.locator("#turn-line .turn-text")).to_have_attribute("data-over", "true")


# ---- by taps on a phone ---------------------------------------------------------------------
def new_encounter_by_taps(app: App, fight: ScratchFight) -> None:
    page = app.page
    card = page.locator("#welcome")
    if card.is_visible():
        press(app, card.locator('[data-cmd="welcome-close"]').first)
    menu(app, "new")
    page.locator('[data-lib="create"]').wait_for()
    page.fill('[data-field="name"] input', f"From scratch: {fight.ruleset}")
    page.locator('[data-field="ruleset"] select').select_option(ruleset_index(page, fight.ruleset))
    page.fill('[data-field="width"] input', str(WIDTH))
    page.fill('[data-field="height"] input', str(HEIGHT))
    if fight.options:
        press(app, "[data-options] > summary")
        if get_ruleset(fight.ruleset).ending_note(get_ruleset(fight.ruleset).default_options()):
            assert "cannot end" in ending_line(page)
    set_options(app, fight.ruleset, fight.options)
    assert ending_line(page) == ""
    press(app, '[data-lib="create"]')
    expect(page.locator("[data-hex]")).to_have_count(WIDTH * HEIGHT)
    expect(page.locator("html")).to_have_attribute("data-mode", "edit")


def set_options(app: App, ruleset_id: str, options: Mapping[str, Json]) -> None:
    page = app.page
    for name, value in options.items():
        field = page.locator(f'[data-options] [data-field="{name}"]')
        if field.locator("select").count():
            field.locator("select").select_option(option_index(ruleset_id, name, value))
        else:
            field.locator("input").fill(str(value))
            field.locator("input").dispatch_event("change")


def tool(app: App, name: str) -> None:
    press(app, f'#panel-body [data-cmd="tool"][data-tool="{name}"]')
    expect(app.page.locator(f'[data-tool="{name}"]')).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("ruleset_id", [r for r in FIGHTS if r != "skirmish"])
def test_a_fight_from_scratch_by_taps_on_a_phone_then_the_app_plays_both_sides(
    phone: App, ruleset_id: str
) -> None:
    fight = FIGHTS[ruleset_id]
    page = phone.page
    new_encounter_by_taps(phone, fight)

    wait_toast_gone(phone)  # "Opened ..." lies over the board's top rows on a phone
    tool(phone, "paint")
    press(phone, f'[data-terrain-id="{fight.terrain}"]')
    tap_board(phone, hex_at(phone, PAINTED))
    assert terrains(phone)[PAINTED] == fight.terrain

    tool(phone, "add")
    for side, keys in PLACES.items():
        press(phone, f'#panel-body [data-cmd="new-side"][data-side="{side}"]')
        for key in keys:
            tap_board(phone, hex_at(phone, key))
            expect(page.locator(f'#board [data-figure][data-at="{key}"]')).to_have_count(1)
    ids = page.locator("#board [data-figure]").evaluate_all("fs => fs.map(f => f.dataset.figure)")
    assert len(ids) == 4

    tool(phone, "select")
    for fid in ids:
        tap_board(phone, figure(phone, fid))
        for name, value in fight.low.items():
            page.locator(f'#figure-form [data-field="stats.{name}"] input').fill(str(value))
        press(phone, '[data-cmd="apply-figure"]')
        expect(page.locator("#action-error, #figure-form [aria-invalid=true]")).to_have_count(0)
        press(phone, '#panel-body [data-cmd="deselect"]')
    expect(page.locator("#panel-body [data-ending]")).to_have_count(0)
    wait_toast_gone(phone)
    phone.screenshot(f"from-scratch-{ruleset_id}-set-up")

    set_mode(phone, "play")
    for side in PLACES:
        button = page.locator(f'#autopilot-sides [data-side="{side}"]')
        press(phone, button)
        expect(button).to_have_attribute("data-played-by", "aggressive")
    assert_fight_ended(phone)
    wait_toast_gone(phone)
    phone.screenshot(f"from-scratch-{ruleset_id}-end")


# ---- by the keyboard alone on a desktop -----------------------------------------------------
def type_into(page: Page, selector: str, text: str) -> None:
    """Tab to a text field, select what it holds and type ``text`` over it."""
    assert tab_to(page, selector), f"Tab never reaches {selector}"
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def choose_by_arrows(page: Page, selector: str, index: str) -> None:
    """Tab to a select and press arrows until its value is ``index``."""
    assert tab_to(page, selector), f"Tab never reaches {selector}"
    for _ in range(40):
        now = page.locator(selector).input_value()
        if now == index:
            return
        page.keyboard.press("ArrowDown" if now == "" or int(now) < int(index) else "ArrowUp")
    raise AssertionError(f"{selector} never reached option {index}")


def cursor_to(page: Page, key: str) -> None:
    """Tab to the board and move its cursor to ``key`` with the arrow keys."""
    assert tab_to(page, "#board"), "Tab never reaches the board"
    layer = page.locator("#layer-cursor")
    if layer.get_attribute("data-at") is None:
        page.keyboard.press("ArrowUp")
    for _ in range(WIDTH + HEIGHT + 2):
        at = str(layer.get_attribute("data-at"))
        if at == key:
            return
        (col, row), (to_col, to_row) = to_offset(key_hex(at)), to_offset(key_hex(key))
        if col != to_col:
            page.keyboard.press("ArrowRight" if to_col > col else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if to_row > row else "ArrowUp")
    raise AssertionError(f"the cursor never reached {key}")


def new_encounter_by_keys(page: Page, fight: ScratchFight) -> None:
    if page.locator("#welcome").is_visible():
        press_key_on(page, '#welcome [data-cmd="welcome-close"]:not([aria-label])')
    press_key_on(page, "#menu-button")
    press_key_on(page, '#menu [data-cmd="new"]')
    page.locator('[data-lib="create"]').wait_for()
    page.keyboard.press("Control+a")
    page.keyboard.type(f"From scratch: {fight.ruleset}")
    choose_by_arrows(page, '[data-field="ruleset"] select', ruleset_index(page, fight.ruleset))
    type_into(page, '[data-field="width"] input', str(WIDTH))
    type_into(page, '[data-field="height"] input', str(HEIGHT))
    if fight.options:
        press_key_on(page, "[data-options] > summary")
    for name, value in fight.options.items():
        field = f'[data-options] [data-field="{name}"]'
        if page.locator(f"{field} select").count():
            choose_by_arrows(page, f"{field} select", option_index(fight.ruleset, name, value))
        else:
            type_into(page, f"{field} input", str(value))
    page.keyboard.press("Tab")
    assert ending_line(page) == ""
    press_key_on(page, '[data-lib="create"]')
    expect(page.locator("[data-hex]")).to_have_count(WIDTH * HEIGHT)
    expect(page.locator("html")).to_have_attribute("data-mode", "edit")


@pytest.mark.parametrize("ruleset_id", list(FIGHTS))
def test_a_fight_from_scratch_built_and_played_to_its_end_by_the_keyboard_alone(
    desk: App, ruleset_id: str
) -> None:
    fight = FIGHTS[ruleset_id]
    page = desk.page
    new_encounter_by_keys(page, fight)

    press_key_on(page, '#panel-body [data-cmd="tool"][data-tool="paint"]')
    press_key_on(page, f'[data-terrain-id="{fight.terrain}"]')
    cursor_to(page, PAINTED)
    page.keyboard.press("Enter")
    expect(hex_at(desk, PAINTED)).to_have_attribute("data-terrain", fight.terrain)

    press_key_on(page, '#panel-body [data-cmd="tool"][data-tool="add"]')
    for side, keys in PLACES.items():
        press_key_on(page, f'#panel-body [data-cmd="new-side"][data-side="{side}"]')
        for key in keys:
            cursor_to(page, key)
            page.keyboard.press("Enter")
            expect(page.locator(f'#board [data-figure][data-at="{key}"]')).to_have_count(1)

    press_key_on(page, '#panel-body [data-cmd="tool"][data-tool="select"]')
    for keys in PLACES.values():
        for key in keys:
            cursor_to(page, key)
            page.keyboard.press("Enter")
            expect(page.locator("#figure-form")).to_be_visible()
            for name, value in fight.low.items():
                type_into(page, f'#figure-form [data-field="stats.{name}"] input', str(value))
            press_key_on(page, '[data-cmd="apply-figure"]')
            expect(page.locator("#figure-form [aria-invalid=true]")).to_have_count(0)
            press_key_on(page, '#panel-body [data-cmd="deselect"]')
    expect(page.locator("#panel-body [data-ending]")).to_have_count(0)
    wait_toast_gone(desk)
    desk.screenshot(f"from-scratch-keys-{ruleset_id}-set-up")

    press_key_on(page, '#mode-switch [data-mode="play"]')
    expect(page.locator("html")).to_have_attribute("data-mode", "play")
    played_on(desk, "keys", f"from-scratch-keys-{ruleset_id}")
    assert_fight_ended(desk)
    wait_toast_gone(desk)
    desk.screenshot(f"from-scratch-keys-{ruleset_id}-end")
