"""The test-only ruleset ``kit-duel`` (tests/kit/) played in the page, at desktop and tablet.

The app never registers it: this module builds a second site with
``web/build.py --extra-ruleset tests/kit:KitDuel`` (the kit ships in that site's
``hexcombat.tar.bz2`` with a generated ``hexcombat_extras.py`` that registers it, which
``web/start.py`` imports when present). The page then renders hidden stances, a strike
order, weapon -> special -> target choices filtered as earlier fields change, a chain's
per-stage odds, a block prompt, typed dice, a two-hex mount targeted through its second
hex and two figures sharing a hex, with nothing in ``web/`` naming the ruleset.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Encounter
from hexcombat.geometry import Hex
from hexcombat.rulesets import registry

from .appdriver import figure, hex_at, import_encounter, press, started_app_fixture, touch
from .conftest import ROOT, App, site_build

sys.path.insert(0, str(ROOT / "tests"))
from kit import KitDuel

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("kit-site")]
"""One group: both viewports' pages on the worker that built the kit's site (a build took
20-35 s under load, once per worker that ran one of them)."""


@pytest.fixture(scope="module")
def kit_url(
    tmp_path_factory: pytest.TempPathFactory, serve_folder: Callable[[Path], str]
) -> Iterator[str]:
    """A second site with the kit registered, served; the kit is registered here too while
    the module runs (documents are written by the test process)."""
    folder = tmp_path_factory.mktemp("kit") / "site"
    site_build.build(folder, ["tests/kit:KitDuel"])
    registry._REGISTRY[KitDuel.id] = KitDuel()
    yield serve_folder(folder)
    registry._REGISTRY.pop(KitDuel.id, None)


@pytest.fixture(scope="module", params=["desktop", "tablet-portrait"])
def ui(request: pytest.FixtureRequest, browser: Browser, kit_url: str) -> Iterator[App]:
    yield from started_app_fixture(request, browser, kit_url)


def duel() -> Encounter:
    enc = Encounter.new("kit-duel", 7, 6, name="Kit duel", seed=3)
    rows = (
        ("ann", "Ann Blade", "Blue", Hex(3, 3), 0, {"weapons": "sword,dagger"}, ()),
        ("cy", "Cy Knife", "Red", Hex(3, 3), 0, {"weapons": "dagger", "skill": 2}, ()),
        ("bo", "Bo Pike", "Red", Hex(3, 2), 3, {"weapons": "spear", "defence": 2}, ()),
        ("horse", "Warhorse", "Blue", Hex(4, 2), 0, {"weapons": "hooves", "skill": 1},
         (Hex(0, 1),)),
    )  # fmt: skip
    for fid, name, side, at, facing, stats, footprint in rows:
        f = enc.ruleset.new_figure(fid, name, side, at, facing)
        enc = enc.with_figure(
            dataclasses.replace(f, stats={**f.stats, **stats}, footprint=footprint)
        )
    return enc


def log_texts(ui: App) -> list[str]:
    return [t.strip() for t in ui.page.locator("#log > li .text").all_text_contents()]


def open_action(ui: App, fid: str, kind: str) -> None:
    press(ui, f'#turn-tracker [data-pick="{fid}"]')
    expect(figure(ui, fid)).to_have_class(re.compile(r"\bselected\b"))
    card = ui.page.locator(f'#panel-body [data-action="{kind}"]')
    if card.get_attribute("data-expanded") != "true":
        press(ui, card.locator(".action-head"))
    expect(card).to_have_attribute("data-expanded", "true")


def choose(ui: App, field: str, label: str) -> None:
    select = ui.page.locator(f'#panel-body [data-field="{field}"] select')
    options = select.locator("option")
    labels = options.all_inner_texts()
    at = next(i for i, t in enumerate(labels) if t.startswith(label))
    select.select_option(options.nth(at).get_attribute("value"))


def tap_centre(ui: App, key: str) -> None:
    """Tap or click the middle of a hex, whatever is drawn on top of it."""
    box = hex_at(ui, key).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch(ui):
        ui.page.touchscreen.tap(x, y)
    else:
        ui.page.mouse.click(x, y)


def offered(ui: App, field: str) -> list[str]:
    return list(
        ui.page.eval_on_selector_all(
            f'#panel-body [data-field="{field}"] option:not([disabled])',
            "els => els.filter(e => e.value !== '').map(e => e.textContent)",
        )
    )


def test_kit_round_in_the_page_stances_order_choices_prompt_dice_bodies(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    expect(page.locator("#turn-tracker")).to_contain_text("Stances")
    assert set(page.locator("#board [data-figure]").evaluate_all(
        "els => els.map(e => e.dataset.figure)")) == {"ann", "cy", "bo", "horse"}  # fmt: skip
    for fid in ("cy", "ann", "horse", "bo"):
        open_action(ui, fid, "stance")
        if fid == "cy":
            choose(ui, "stance", "Cede")
        press(ui, '[data-commit-bar] [data-cmd="commit"]')
    assert log_texts(ui)[-4:] == [
        "Ann Blade presses", "Cy Knife cedes the initiative", "Bo Pike presses", "Warhorse presses",
    ]  # fmt: skip
    press(ui, '#turn-tracker [data-action="next_step"]')
    tracker = page.locator("#turn-tracker")
    expect(tracker).to_contain_text("Pass 1")
    who = tracker.locator('[aria-label="Who acts"]')
    expect(who).to_have_attribute("title", re.compile(r"Bo Pike's longer weapon strikes before"))
    chips = who.locator("[data-pick]").evaluate_all("els => els.map(e => e.dataset.pick)")
    assert chips == ["bo", "ann", "horse", "cy"]  # the strike order

    open_action(ui, "bo", "strike")
    choose(ui, "special", "Butt")
    assert offered(ui, "target") == ["Ann Blade", "Warhorse"]
    choose(ui, "special", "Thrust")
    assert offered(ui, "target") == ["Ann Blade", "Warhorse"]
    tap_centre(ui, "4,3")  # the Warhorse's second hex (its body drawn over it) targets it
    expect(page.locator("#preview")).to_contain_text("Bo Pike: thrust with the spear at Warhorse")
    expect(page.locator('#preview [data-stage="damage"]')).to_contain_text("if Bo Pike wins")
    expect(page.locator('#preview [data-variant="Warhorse blocks"]')).to_have_count(1)
    ui.screenshot("kit-strike-preview")
    press(ui, '[data-commit-bar] [data-cmd="roll"]')  # the strike only asks; the answer rolls
    card = page.locator("#panel-body [data-prompt]")
    expect(card).to_contain_text("Warhorse: block this attack?")
    press(ui, card.locator('[data-answer="take"]'))
    inputs = page.locator("#preview .dice-row input")
    for i, face in enumerate([6, 5, 1, 2]):
        inputs.nth(i).fill(str(face))
    press(ui, '#preview [data-cmd="use-faces"]')
    expect(inputs).to_have_count(5)
    inputs.nth(4).fill("7")
    press(ui, '#preview [data-cmd="use-faces"]')
    hit = "Bo Pike hits Warhorse for 7 (1 hp left)"
    expect(page.locator("#log > li .text").last).to_have_text(hit)

    open_action(ui, "ann", "strike")
    choose(ui, "weapon", "Dagger")
    choose(ui, "special", "Stab")
    assert offered(ui, "target") == ["Cy Knife"]  # sharing her hex
    choose(ui, "weapon", "Sword")
    assert offered(ui, "special") == ["Cut — zone: adjacent", "Lunge — zone: front"]
    press(ui, "#undo-button")
    press(ui, "#redo-button")
    expect(page.locator("#log > li .text").last).to_have_text(hit)
