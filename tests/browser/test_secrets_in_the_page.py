"""A secret in the page: the app's note naming a hidden choice it made stays out of the log
drawer and the page until everyone has chosen; then the log tells it."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .appdriver import import_encounter, log_texts, press, started_app_fixture
from .conftest import ROOT, App

sys.path.insert(0, str(ROOT / "tests"))
from test_autopilot import fp_four

from hexcombat.autopilot.view import played_by

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once for this module."""
    yield from started_app_fixture(request, browser, base_url)


def test_the_apps_note_of_a_hidden_choice_waits_for_the_reveal(ui: App) -> None:
    page = ui.page
    enc = played_by(fp_four().renamed("The app declares in secret"), "B", "aggressive")
    import_encounter(ui, enc)
    declared = page.locator("#log > li", has_text="B2 has declared (hidden until everyone has)")
    expect(declared.first).to_be_attached(timeout=20_000)
    page.wait_for_timeout(500)
    said = [*log_texts(ui), page.locator("body").inner_text()]
    assert not any("The app (aggressive) plays B" in t for t in said)
    press(ui, '#autopilot-sides [data-side="A"]')  # the app plays A too: all is revealed
    note = page.locator("#log > li", has_text="The app (aggressive) plays B")
    expect(note.first).to_be_attached(timeout=30_000)
