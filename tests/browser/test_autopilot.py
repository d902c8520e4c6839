"""The app plays a side, in the page, at desktop, tablet (touch) and phone sizes: "Suggest
a move" fills in the figure's action without doing it; a side set to "the app
(aggressive)" plays its moves one at a time after a pause, each logged with its reason;
Undo takes the move back and the app waits; the setting is saved with the encounter (it
survives a reload)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .appdriver import import_encounter, log_texts, press, select, started_app_fixture
from .conftest import ROOT, App

sys.path.insert(0, str(ROOT / "tests"))
from factories import skirmish_duel

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop", "tablet-touch", "phone"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def test_suggest_then_the_app_plays_a_side_logged_undoable_and_saved(ui: App) -> None:
    page = ui.page
    import_encounter(ui, skirmish_duel().renamed("App plays Red"))
    before = len(log_texts(ui))
    if ui.viewport == "phone":  # the turn tracker shows no chips: the panel's list does
        press(ui, '#panel-body [data-pick="ann"]')
    else:
        select(ui, "ann")
    press(ui, '#panel-body [data-cmd="suggest"]')
    suggestion = page.locator("#suggestion")
    expect(suggestion).to_contain_text(re.compile(r"Suggestion: .+"))
    expect(page.locator('#panel-body [data-action][data-expanded="true"]')).to_have_count(1)
    assert len(log_texts(ui)) == before  # nothing was done
    ui.screenshot("autopilot-suggest")
    press(ui, '#panel-body [data-cmd="deselect"]')
    red = page.locator('#autopilot-sides [data-side="Red"]')
    press(ui, red)
    expect(red).to_have_attribute("data-played-by", "aggressive")
    note = page.locator("#log > li", has_text="The app (aggressive) plays Red")
    expect(note.first).to_be_attached(timeout=20_000)
    ui.screenshot("autopilot-played")
    moved = len(log_texts(ui))
    press(ui, "#undo-button")
    expect(page.locator("#log > li")).to_have_count(moved - 2 if moved - 2 > before else before)
    expect(page.locator('[data-cmd="autopilot-resume"]')).to_be_visible()
    page.wait_for_timeout(1500)  # the app waits after Undo: nothing is played again
    assert not any("The app (aggressive) plays Red" in t for t in log_texts(ui)[before:])
    page.reload(wait_until="domcontentloaded")
    ui.wait_ready()
    expect(page.locator('#autopilot-sides [data-side="Red"]')).to_have_attribute(
        "data-played-by", "aggressive"
    )
