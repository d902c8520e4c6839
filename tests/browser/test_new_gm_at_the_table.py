"""A new GM at the table, at the size and with the input where each defect was seen: the
figure sheet's words (fig-percentile's run beside its mode, a house-default tag only on a
number still at its house default) on a tablet by touch."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, expect

from hexcombat import Action, Encounter
from hexcombat.geometry import Hex

from .appdriver import import_encounter, select, start_app
from .conftest import App

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tablet(browser: Browser, base_url: str) -> Iterator[App]:
    app = start_app(browser, base_url, "tablet-touch")
    yield app
    app.page.context.close()


def sheet_row(app: App, heading: str) -> Locator:
    """The figure sheet's list of name/value pairs under ``heading`` ("Now", "Numbers")."""
    return app.page.locator(f'#panel-body h3:text-is("{heading}") + dl')


def pairs(dl: Locator) -> dict[str, str]:
    """A sheet list's names and values (a name's tags left off)."""
    return dict(
        dl.evaluate(
            "dl => [...dl.querySelectorAll('dt')].map(dt => [dt.firstChild.textContent.trim(),"
            " dt.nextElementSibling.textContent.trim()])"
        )
    )


def starting_runners() -> Encounter:
    """fig-percentile after its declarations: Ann starts to run, Bo walks; Ann's hit points
    are typed over their house default."""
    enc = Encounter.new("fig-percentile", 10, 8, name="Starting to run", seed=3)
    rs = enc.ruleset
    ann = rs.new_figure("ann", "Ann", "Blue", Hex(2, 3), 2)
    ann.stats["hp"] = 25
    bo = rs.new_figure("bo", "Bo", "Red", Hex(7, 2), 5)
    enc = enc.with_figure(ann).with_figure(bo)
    enc.perform(Action("declare", "ann", {"mode": "accelerate"}))
    enc.perform(Action("declare", "bo", {"mode": "walk"}))
    enc.perform(Action("next_step"))
    return enc


def test_fp_3_the_sheet_says_a_run_from_last_round_beside_starting_to_run(tablet: App) -> None:
    import_encounter(tablet, starting_runners())
    select(tablet, "ann")
    now = pairs(sheet_row(tablet, "Now"))
    assert now["Mode"] == "starting to run"
    assert "Running" not in now  # "Running: no" beside "starting to run" contradicted it
    assert now["Running since last round (FP-3)"] == "no"


def test_a_house_default_tag_shows_only_on_a_number_still_at_it_on_the_sheet(
    tablet: App,
) -> None:
    import_encounter(tablet, starting_runners())
    select(tablet, "ann")
    numbers = sheet_row(tablet, "Numbers")
    hp = numbers.locator("dt", has_text=re.compile(r"^Hit points"))
    expect(hp).to_have_count(1)
    expect(hp.locator(".house-default")).to_have_count(0)  # 25, typed over the house's 20
    actions = numbers.locator("dt", has_text=re.compile(r"^Actions"))
    expect(actions.locator(".house-default")).to_have_count(1)  # still the house's 1
