"""strike-chance-pulse in the browser, through the page alone, at desktop and tablet-touch sizes:
a Pulse in which the engaged pair acts first (the tracker shows the order), a Melee attack that
misses by 30 or more (typed dice), the defender's parry prompt with the D10 parry table, then a
Fire action whose missile line checks a figure in between."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from hexcombat.rulesets import all_rulesets

from .appdriver import (
    choose,
    import_encounter,
    log_texts,
    next_step,
    open_action,
    press,
    select,
    started_app_fixture,
    type_faces,
    wait_toast_gone,
)
from .conftest import App

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from strike_chance_pulse_fixtures import signature

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        "strike-chance-pulse" not in {r.id for r in all_rulesets()},
        reason="strike-chance-pulse is not registered",
    ),
]


@pytest.fixture(scope="module", params=["desktop", "tablet-landscape"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def who_acts(ui: App) -> list[str]:
    who = ui.page.locator('#turn-tracker [aria-label="Who acts"]')
    return list(who.locator("[data-pick]").evaluate_all("els => els.map(e => e.dataset.pick)"))


def test_engaged_pair_first_parry_table_then_a_shot_past_a_friend(ui: App) -> None:
    page = ui.page
    tracker = page.locator("#turn-tracker")
    import_encounter(ui, signature())
    expect(tracker).to_contain_text("Pulse 1")
    expect(tracker).to_contain_text("Initiative")
    next_step(ui, "Finish: Initiative")  # the encounter's seeded D10s: Ann 10, Cy 9, Bo 7, Di 6
    expect(tracker).to_contain_text("Engaged combat")
    log = page.locator("#log")
    expect(log).to_contain_text("Initiative: Ann 10, Cy 9, Bo 7, Di 6; engaged first: Ann, Bo")
    # Cy's 9 beats Bo's 7, but the engaged pair acts first (SCP-6)
    expect(tracker.locator('[aria-label="Who acts"]')).to_have_attribute(
        "title", re.compile(r"engaged first, SCP-6")
    )
    assert who_acts(ui)[:2] == ["ann", "bo"]
    wait_toast_gone(ui)
    ui.screenshot("scp-engaged-first")

    # Ann's Broadsword at Bo: MSC 51 (E-2); a typed 81 misses by 30: Bo may parry
    select(ui, "ann")
    open_action(ui, "melee")
    choose(ui, "weapon", "Broadsword")
    choose(ui, "target", "Bo")
    expect(page.locator("#preview")).to_contain_text("need 51 or lower")
    type_faces(ui, [81])
    card = page.locator("#panel-body [data-prompt]")
    expect(card).to_contain_text("Bo: parry Ann's Broadsword?")
    assert log_texts(ui)[-2:] == [
        "Ann strikes at Bo with the Broadsword: MSC 51, rolled 81: miss: the defender may parry",
        "Bo may parry: the Melee attack missed by 30 or more (SCP-32)",
    ]
    expect(page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(0)
    press(ui, card.locator('[data-answer="parry"]'))
    expect(page.locator('#panel-body [data-action="parry"]')).to_have_attribute(
        "data-expanded", "true"
    )
    preview = page.locator("#preview")
    expect(preview).to_contain_text("1-3: Parried: the defender must Pass next Pulse")
    expect(preview).to_contain_text("4-7: The attacker is Disarmed")
    expect(preview).to_contain_text("8-10: Parried, the attacker is Disarmed, and a Riposte")
    wait_toast_gone(ui)
    ui.screenshot("scp-parry-table")
    type_faces(ui, [5])
    expect(page.locator("#panel-body [data-prompt]")).to_have_count(0)
    texts = log_texts(ui)
    assert "Bo parries: D10 5 + Rank 3 - Rank 3 = 5: Ann is disarmed" in texts
    assert "Ann is disarmed: drops the Broadsword" in texts
    expect(page.locator("#panel-body [data-prompt]")).to_have_count(0)

    # Bo lets it rest; the engaged step ends; Cy, then Di
    select(ui, "bo")
    open_action(ui, "pass")
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    next_step(ui, "Finish: Engaged combat")
    expect(tracker).to_contain_text("Other figures")
    assert who_acts(ui)[:2] == ["cy", "di"]

    # Cy fires at Bo: the line passes Di first (SCP-12); 90 misses Di, 20 hits Bo, 3 damage
    select(ui, "cy")
    open_action(ui, "fire")
    choose(ui, "target", "Bo")
    expect(preview).to_contain_text("Cy's Short Bow at Di")
    expect(preview).to_contain_text("Cy's Short Bow at Bo")
    # the card's chance is hitting Bo (52% x 47%), not the first check on the line
    expect(page.locator('#panel-body [data-action="fire"]')).to_contain_text("24.4%")
    los = page.eval_on_selector_all(
        '#board [data-highlight~="los"]', "els => els.map(e => e.dataset.hex)"
    )
    assert "6,2" in los  # Di's hex is on the drawn line
    wait_toast_gone(ui)
    ui.screenshot("scp-missile-line")
    type_faces(ui, [90, 20])
    type_faces(ui, [90, 20, 3])
    expect(page.locator("#log > li .text").last).to_have_text(
        "Bo takes 3 damage (3 Fatigue, 0 Endurance)"
    )
    assert log_texts(ui)[-4:-1] == [
        "Cy fires the Short Bow at Bo",
        "Cy's Short Bow shot reaches Di (in the line of fire, SCP-12): MSC 48, rolled 90: miss",
        "Cy's Short Bow shot reaches Bo: MSC 47, rolled 20: hit",
    ]
    wait_toast_gone(ui)
    ui.screenshot("scp-after-the-shot")
