"""Set-up mode in the browser: paint terrain, place, rotate and edit figures, refusals, undo,
and everything restored after a reload; with the mouse on a desktop and taps on a tablet."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Encounter, Hex
from hexcombat.figures import Equipment
from hexcombat.layout import hex_label
from hexcombat.rulesets import all_rulesets

from .appdriver import (
    figure,
    hex_at,
    import_encounter,
    menu,
    new_encounter,
    press,
    set_mode,
    started_app_fixture,
    terrains,
    touch,
    wait_toast_gone,
)
from .conftest import READY_TIMEOUT_MS, App
from .held_runtime import hold_the_runtime, release_the_runtime

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop", "tablet-portrait"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def tool(ui: App, name: str) -> None:
    press(ui, f'#panel-body [data-cmd="tool"][data-tool="{name}"]')
    expect(ui.page.locator(f'[data-tool="{name}"]')).to_have_attribute("aria-pressed", "true")


def test_create_paint_place_rotate_edit_and_reload_restores_everything(ui: App) -> None:
    """A GM's flow: new encounter, terrain, two figures, a rotation, a reload."""
    page = ui.page
    new_encounter(ui, "Ford ambush", "skirmish", 10, 8)
    expect(page.locator("html")).to_have_attribute("data-mode", "edit")
    assert set(terrains(ui).values()) == {"open"}

    tool(ui, "paint")
    press(ui, '[data-terrain-id="woods"]')
    for key in ("3,2", "4,1", "4,2"):
        press(ui, hex_at(ui, key))
    press(ui, '[data-terrain-id="water"]')
    if touch(ui):
        press(ui, hex_at(ui, "6,1"))
        press(ui, hex_at(ui, "6,2"))
    else:  # a drag paints every hex it crosses, as one undoable stroke
        a, b = hex_at(ui, "6,1").bounding_box(), hex_at(ui, "6,2").bounding_box()
        assert a and b
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
        page.mouse.up()
    painted = terrains(ui)
    assert [painted[k] for k in ("3,2", "4,1", "4,2", "6,1", "6,2")] == ["woods"] * 3 + [
        "water"
    ] * 2
    assert (
        hex_at(ui, "3,2").get_attribute("aria-label")
        == f"hex {hex_label(Hex(3, 2))}: Woods, move 2"
    )

    tool(ui, "add")
    press(ui, hex_at(ui, "1,3"))
    expect(figure(ui, "blue-a")).to_have_attribute("data-facing", "3")
    press(ui, '[data-cmd="new-side"][data-side="Red"]')
    press(ui, hex_at(ui, "8,0"))
    red = figure(ui, "red-a")
    expect(red).to_have_attribute("data-facing", "0")
    where = hex_label(Hex(8, 0))
    expect(red).to_have_attribute(
        "aria-label", f"Red A, Red, at {where}, facing north, 10 of 10 hit points"
    )

    press(ui, '[data-cmd="rotate"][data-by="1"]')
    expect(red).to_have_attribute("data-facing", "1")
    if not touch(ui):  # R and Shift+R turn the selected figure
        page.keyboard.press("r")
        expect(red).to_have_attribute("data-facing", "2")
        page.keyboard.press("Shift+R")
        expect(red).to_have_attribute("data-facing", "1")

    tool(ui, "select")
    press(ui, figure(ui, "blue-a"))
    page.fill('#figure-form [data-field="name"] input', "Brie the Oaken")
    page.fill('#figure-form [data-field="stats.move"] input', "5")
    press(ui, '[data-cmd="apply-figure"]')
    blue = figure(ui, "blue-a")
    expect(blue).to_have_attribute(
        "aria-label",
        f"Brie the Oaken, Blue, at {hex_label(Hex(1, 3))}, facing south, 10 of 10 hit points",
    )
    expect(blue.locator(".initials")).to_have_text("BO")
    wait_toast_gone(ui)
    ui.screenshot("editor-set-up")

    # a warm visit paints the last board, greyed, while Python starts; gone once ready
    page.wait_for_function("(localStorage.getItem('hexcombat.snapshot') || '').includes('blue-a')")
    held = hold_the_runtime(page)  # Python waits until the test has seen the picture
    page.reload(wait_until="domcontentloaded")
    expect(page.locator('#boot-snapshot [data-figure="blue-a"]')).to_have_count(1)
    release_the_runtime(page, held)
    ui.wait_ready(READY_TIMEOUT_MS)
    expect(page.locator("#boot-snapshot")).to_have_count(0)
    if not touch(ui):  # a damaged snapshot is ignored: the app still starts
        page.evaluate("localStorage.setItem('hexcombat.snapshot', '{\"svg\": 3, \"rect\"')")
        page.reload()
        ui.wait_ready(READY_TIMEOUT_MS)
    expect(page.locator("#enc-name")).to_have_text("Ford ambush")
    assert terrains(ui) == painted
    expect(figure(ui, "blue-a")).to_have_attribute(
        "aria-label",
        f"Brie the Oaken, Blue, at {hex_label(Hex(1, 3))}, facing south, 10 of 10 hit points",
    )
    expect(figure(ui, "red-a")).to_have_attribute("data-facing", "1")
    expect(page.locator("html")).to_have_attribute("data-mode", "edit")  # left in set-up
    ui.screenshot("editor-reloaded")


def test_refused_edits_explain_themselves_and_deletes_can_be_undone(ui: App) -> None:
    """The engine's problems are shown by field; nothing destructive lacks an undo."""
    page = ui.page
    new_encounter(ui, "Refusals", "skirmish", 8, 6)
    tool(ui, "add")
    press(ui, hex_at(ui, "2,2"))
    tool(ui, "paint")
    press(ui, '[data-terrain-id="wall"]')
    press(ui, figure(ui, "blue-a"))  # painting a wall under a figure is refused
    expect(page.locator("#toast")).to_contain_text("which no one can enter")
    assert terrains(ui)["2,2"] == "open"

    tool(ui, "select")
    press(ui, figure(ui, "blue-a"))
    page.fill('#figure-form [data-field="stats.damage"] input', "2x")
    page.fill('#figure-form [data-field="stats.hp"] input', "-3")
    press(ui, '[data-cmd="apply-figure"]')
    for field in ("stats.damage", "stats.hp"):  # every problem at once, not one per Apply
        problem = page.locator(f'#figure-form [data-field="{field}"] .hc-problem')
        expect(problem).to_be_visible()
        expect(problem).not_to_be_empty()

    press(ui, '[data-cmd="delete"]')
    expect(figure(ui, "blue-a")).to_have_count(0)
    press(ui, "#toast [data-cmd=undo]")
    expect(figure(ui, "blue-a")).to_have_count(1)
    press(ui, "#redo-button")
    expect(figure(ui, "blue-a")).to_have_count(0)
    if not touch(ui):
        page.locator("#board").focus()
        page.keyboard.press("Control+z")
        expect(figure(ui, "blue-a")).to_have_count(1)
        page.keyboard.press("Control+Shift+z")
        expect(figure(ui, "blue-a")).to_have_count(0)
        page.keyboard.press("Control+z")
    else:
        press(ui, "#undo-button")
    expect(figure(ui, "blue-a")).to_have_count(1)

    menu(ui, "settings")
    page.fill('#settings-form [data-field="width"] input', "5")
    page.fill('#settings-form [data-field="height"] input', "4")
    press(ui, '[data-cmd="apply-settings"]')
    expect(page.locator("[data-hex]")).to_have_count(20)
    press(ui, "#undo-button")
    expect(page.locator("[data-hex]")).to_have_count(48)


@pytest.mark.skipif(
    "fig-percentile" not in {r.id for r in all_rulesets()}, reason="needs fig-percentile"
)
def test_skills_and_equipment_from_the_data_tables_are_checked_by_the_engine(ui: App) -> None:
    """A new figure carries the starting sword, drawn, with its skill; another weapon needs its own
    skill: the list says which, and adding the weapon adds it too."""
    page = ui.page
    new_encounter(ui, "Armoury", "fig-percentile", 8, 6)
    tool(ui, "add")
    press(ui, hex_at(ui, "2,2"))
    press(ui, '[data-cmd="edit-figure"]')
    expect(page.locator('#panel-body input[data-skill="Sword"]')).to_have_value("50")
    expect(page.locator('#panel-body [data-item-state="0"]')).to_have_value("ready")
    # the list names the skill an item is used with and its numbers before it is added
    axe = page.locator('#new-item option[value="Beaked axe"]')
    expect(axe).to_contain_text("Pole Arm skill")
    expect(axe).to_contain_text("damage")
    page.select_option("#new-item", "Beaked axe")
    page.fill("#new-skill-value", "65")
    press(ui, '[data-cmd="add-item"]')  # the skill it needs comes with it, at the value typed
    expect(page.locator("#gear-problems")).to_be_hidden()
    expect(page.locator('#panel-body input[data-skill="Pole Arm"]')).to_have_value("65")
    expect(page.locator('#panel-body [data-item-state="1"]')).to_have_value("carried")
    page.select_option('#panel-body [data-item-state="1"]', "ready")
    press(ui, '[data-cmd="apply-figure"]')
    expect(page.locator('#panel-body [data-item-state="1"]')).to_have_value("ready")

    press(ui, '[data-cmd="duplicate"]')  # the copy keeps skills and equipment
    expect(page.locator("#board [data-figure]")).to_have_count(2)
    expect(page.locator('#panel-body input[data-skill="Pole Arm"]')).to_have_value("65")
    wait_toast_gone(ui)
    ui.screenshot("editor-equipment")


def test_names_typed_like_markup_stay_text_in_the_figure_editor(ui: App) -> None:
    """A figure's, a side's, a skill's and an item's name that look like markup show as their
    text in the set-up's figure editor, its gear and its Add figure sides."""
    page = ui.page
    hostile = "<img src=x onerror=window.pwned=1>"
    enc = Encounter.new("fig-percentile", 8, 6, name=f"Gear {hostile}")
    ash = enc.ruleset.new_figure("ash", f"Ash {hostile}", f"W {hostile}", Hex(2, 2), 1)
    weapon = {"skill": hostile, "attack": "melee", "damage": "d6"}
    enc = enc.with_figure(
        replace(ash, skills={hostile: 30}, equipment=[Equipment(hostile, "weapon", stats=weapon)])
    )
    import_encounter(ui, enc)
    set_mode(ui, "edit")
    press(ui, figure(ui, "ash"))
    expect(page.locator("#panel-body h2")).to_have_text(f"Ash {hostile}")
    expect(page.locator("#panel-body li:has([data-cmd=remove-skill]) .grow")).to_have_text(hostile)
    expect(page.locator('#panel-body [data-cmd="remove-skill"]')).to_have_attribute(
        "aria-label", f"Remove the {hostile} skill"
    )
    expect(page.locator("#panel-body .kv-list strong")).to_have_text(hostile)
    expect(page.locator('#panel-body [data-item-state="0"]')).to_have_attribute(
        "aria-label", f"{hostile}: state"
    )
    press(ui, '#panel-body [data-cmd="deselect"]')
    tool(ui, "add")
    expect(page.locator('#panel-body [data-cmd="new-side"]').first).to_have_text(f"W {hostile}")
    tool(ui, "select")
    assert page.locator('img[src="x"]').count() == 0
    assert page.evaluate("window.pwned") is None
