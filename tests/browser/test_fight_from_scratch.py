"""A whole fight from scratch on a phone, by taps only: a new encounter through the library's
form, a small board, a painted wall, two figures a side placed from the set-up panel with
their hit points lowered in the figure form, then both sides given to the app, which plays
the fight to its end (one side out of it) with no refused action and no stuck step.

The fight is short by construction: a 6 by 5 board, the sides two hexes apart, few hit points.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .appdriver import (
    close_started,
    figure,
    hex_at,
    new_encounter,
    press,
    set_mode,
    start_app,
    tap_board,
    terrains,
    wait_toast_gone,
)
from .conftest import App

pytestmark = pytest.mark.browser

PLACES = {"Blue": ("1,1", "1,2"), "Red": ("3,0", "3,1")}
"""Where each side's two figures stand on the 6 by 5 board (q,r): the sides two hexes apart."""
WALL = "2,3"
FIGHT_TIMEOUT_MS = 180_000
"""The app pauses 0.9 s before each of its moves: a short fight takes well under a minute."""


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[App]:
    """One started phone page for the module."""
    app = start_app(browser, base_url, "phone")
    yield app
    close_started(app)


def tool(app: App, name: str) -> None:
    press(app, f'#panel-body [data-cmd="tool"][data-tool="{name}"]')
    expect(app.page.locator(f'[data-tool="{name}"]')).to_have_attribute("aria-pressed", "true")


def test_skirmish_fight_from_scratch_by_taps_on_a_phone_the_app_plays_both_sides_to_the_end(
    phone: App,
) -> None:
    page = phone.page
    card = page.locator("#welcome")
    if card.is_visible():
        press(phone, card.locator('[data-cmd="welcome-close"]').first)
    new_encounter(phone, "From scratch", "skirmish", 6, 5)
    expect(page.locator("html")).to_have_attribute("data-mode", "edit")

    tool(phone, "paint")
    press(phone, '[data-terrain-id="wall"]')
    tap_board(phone, hex_at(phone, WALL))
    assert terrains(phone)[WALL] == "wall"

    tool(phone, "add")
    for side, keys in PLACES.items():
        press(phone, f'#panel-body [data-cmd="new-side"][data-side="{side}"]')
        expect(page.locator(f'[data-cmd="new-side"][data-side="{side}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        for key in keys:
            tap_board(phone, hex_at(phone, key))
            expect(page.locator(f'#board [data-figure][data-at="{key}"]')).to_have_count(1)
    ids = page.locator("#board [data-figure]").evaluate_all("fs => fs.map(f => f.dataset.figure)")
    assert len(ids) == 4
    sides = page.locator("#board [data-figure]").evaluate_all(
        "fs => fs.map(f => f.getAttribute('aria-label').split(', ')[1])"
    )
    assert sorted(sides) == ["Blue", "Blue", "Red", "Red"]

    tool(phone, "select")
    for fid in ids:  # weak figures: a short fight
        tap_board(phone, figure(phone, fid))
        field = page.locator('#figure-form [data-field="stats.hp"] input')
        field.fill("3")
        press(phone, '[data-cmd="apply-figure"]')
        expect(figure(phone, fid)).to_have_attribute(
            "aria-label", re.compile(r"3 of 3 hit points$")
        )
        press(phone, '#panel-body [data-cmd="deselect"]')
    wait_toast_gone(phone)
    phone.screenshot("from-scratch-skirmish-set-up")

    set_mode(phone, "play")
    for side in PLACES:
        button = page.locator(f'#autopilot-sides [data-side="{side}"]')
        press(phone, button)
        expect(button).to_have_attribute("data-played-by", "aggressive")
    outcome = page.locator("#panel-body [data-outcome]")
    expect(outcome).to_be_visible(timeout=FIGHT_TIMEOUT_MS)
    assert outcome.get_attribute("data-outcome") in PLACES
    expect(page.locator("#action-error")).to_have_count(0)
    expect(page.locator("#turn-line .turn-text")).to_have_attribute("data-over", "true")
    wait_toast_gone(phone)
    phone.screenshot("from-scratch-skirmish-end")
