"""A fight whose board names a map picture the device does not hold opens with the plain
board and says so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from factories import skirmish_duel
from playwright.sync_api import Browser, expect

from hexcombat.map_picture import MapPicture, digest_of
from hexcombat.view import PICTURE_MISSING

from .appdriver import import_encounter, started_app_fixture
from .conftest import App

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop", "tablet-touch"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def test_a_fight_whose_picture_is_missing_opens_plain_and_says_so(ui: App) -> None:
    picture = MapPicture(digest_of(b"a map"), "image/png", 1200, 900, "flat", 60.0, (70.0, 55.0))
    enc = skirmish_duel().renamed("Over a missing map").with_setup(picture=picture)
    import_encounter(ui, enc)
    page = ui.page
    expect(page.locator("#toast")).to_contain_text(PICTURE_MISSING)
    expect(page.locator("#board [data-hex]")).to_have_count(8 * 6)
    expect(page.locator('#board [data-hex="3,1"]')).to_have_attribute("data-terrain", "woods")
    ui.screenshot("map-picture-missing")
