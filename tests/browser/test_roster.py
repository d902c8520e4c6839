"""The roster in the page: a figure saved to the roster in set-up, added to a new encounter
of the same ruleset, hurt in a fight the app plays to its end, the change written back at the
end-of-fight prompt, the roster seen changed in the library, then carried out and back by
Export all / Import all; a corrupt roster in a backup is refused with its problem's path.

The fight is short by construction: the character stands between two enemies of 1 hit point
that always hit (so it is hurt) and always falls to its blow (so it wins)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Encounter, Hex

from .appdriver import close_started, figure, import_encounter, menu, press, set_mode, start_app
from .conftest import App

pytestmark = pytest.mark.browser

FIGHT_TIMEOUT_MS = 60_000
ROSTER_KEY = "hexcombat:roster:skirmish:r"


@pytest.fixture(scope="module")
def desk(browser: Browser, base_url: str) -> Iterator[App]:
    """One started desktop page for the module."""
    app = start_app(browser, base_url, "desktop")
    yield app
    close_started(app)


def recruit() -> Encounter:
    """Where the hero is made: one figure, strong and easy to hit."""
    enc = Encounter.new("skirmish", 5, 4, name="Recruit", seed=3)
    hero = enc.ruleset.new_figure("hero", "Hero", "Blue", Hex(2, 2), 0)
    hero.stats.update(hp=30, attack=20, defence=1, damage="d4")
    return enc.with_figure(hero)


def ambush() -> Encounter:
    """Two weak enemies on both sides of the first free hex, (0,0), where the hero joins."""
    enc = Encounter.new("skirmish", 5, 4, name="Ambush", seed=5)
    for fid, at in (("ra", Hex(1, 0)), ("rb", Hex(0, 1))):
        foe = enc.ruleset.new_figure(fid, f"Raider {fid[1].upper()}", "Red", at, 3)
        foe.stats.update(hp=1, attack=20, defence=2, damage="d2")
        enc = enc.with_figure(foe)
    return enc


def stored_roster(app: App) -> dict:
    """The skirmish roster as this browser stores it."""
    text = app.page.evaluate(
        f"""() => Object.keys(localStorage).filter(k => k.startsWith('{ROSTER_KEY}'))
                  .map(k => localStorage.getItem(k))"""
    )
    assert len(text) == 1
    return json.loads(text[0])


def storage_dialog(app: App) -> None:
    menu(app, "storage")
    app.page.locator("[data-storage-dialog]").wait_for()


def import_all(app: App, path: Path) -> None:
    storage_dialog(app)
    with app.page.expect_file_chooser() as chooser:
        press(app, '[data-cmd="import-all"]')
    chooser.value.set_files(str(path))


def test_roster_a_character_saved_added_hurt_written_back_exported_and_imported(
    desk: App, tmp_path: Path
) -> None:
    page = desk.page
    card = page.locator("#welcome")
    if card.is_visible():
        press(desk, card.locator('[data-cmd="welcome-close"]').first)

    import_encounter(desk, recruit())
    set_mode(desk, "edit")
    press(desk, figure(desk, "hero"))
    press(desk, '#panel-body [data-cmd="roster-save"]')
    expect(page.locator("#toast")).to_contain_text("Saved Hero to the")
    assert [c["name"] for c in stored_roster(desk)["characters"]] == ["Hero"]

    import_encounter(desk, ambush())
    set_mode(desk, "edit")
    row = page.locator('#panel-body [data-roster-character="hero"]')
    expect(row).to_contain_text("Hero")
    press(desk, row.locator('[data-cmd="roster-add"]'))
    expect(page.locator('#board [data-figure][data-at="0,0"]')).to_have_count(1)
    expect(page.locator("#toast")).to_contain_text("Added Hero at A1")

    set_mode(desk, "play")
    for side in ("Blue", "Red"):
        button = page.locator(f'#autopilot-sides [data-side="{side}"]')
        press(desk, button)
        expect(button).to_have_attribute("data-played-by", re.compile(".+"))
    expect(page.locator("#panel-body [data-outcome]")).to_have_attribute(
        "data-outcome", "Blue", timeout=FIGHT_TIMEOUT_MS
    )
    prompt = page.locator("#panel-body [data-roster-write]")
    expect(prompt).to_be_visible()
    line = prompt.locator('[data-roster-change="hero"] li').first
    expect(line).to_have_text(re.compile(r"^Hit points: full → \d+ of 30$"))
    left = int(re.findall(r"(\d+) of 30", line.inner_text())[0])
    assert 0 < left < 30
    desk.screenshot("roster-end-of-fight-prompt")
    press(desk, prompt.locator('[data-cmd="roster-write"]'))
    expect(page.locator("#toast")).to_contain_text("Wrote back to the")
    expect(prompt).to_have_count(0)
    [hero] = stored_roster(desk)["characters"]
    assert hero["pools"]["hp"] == {"current": left, "maximum": 30}

    menu(desk, "library")
    rosters = page.locator('[data-library] [data-slot="rosters"]')
    expect(rosters.locator('[data-roster-character="hero"]')).to_contain_text("Hero")
    page.keyboard.press("Escape")

    storage_dialog(desk)
    with page.expect_download() as download:
        press(desk, '[data-cmd="export-all"]')
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    [carried] = json.loads(exported)["rosters"]
    assert carried["characters"][0]["pools"]["hp"]["current"] == left
    page.locator('[data-cmd="close-dialog"]').first.click()

    menu(desk, "library")
    press(desk, rosters.locator("summary"))
    press(desk, rosters.locator('[data-lib="roster-remove"]'))
    expect(rosters).to_be_hidden()
    assert stored_roster(desk)["characters"] == []
    page.keyboard.press("Escape")

    corrupt = json.loads(exported)
    corrupt["rosters"][0]["characters"][0]["pools"]["hp"] = {"current": "lots", "maximum": 30}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(corrupt), encoding="utf-8")
    import_all(desk, bad)
    expect(page.locator("#toast")).to_contain_text("rosters[0]: characters[0].pools.hp")
    assert stored_roster(desk)["characters"] == []  # nothing of the bad roster came in
    page.locator('[data-cmd="close-dialog"]').first.click()

    good = tmp_path / "good.json"
    good.write_text(exported, encoding="utf-8")
    import_all(desk, good)
    expect(page.locator("#toast")).to_contain_text("1 roster character")
    [back] = stored_roster(desk)["characters"]
    assert back["pools"]["hp"] == {"current": left, "maximum": 30}
