"""A new GM at the table, at the size and with the input where each defect was seen: the
figure sheet's words (fig-percentile's run beside its mode, a house-default tag only on a
number still at its house default) on a tablet by touch; Add item keeps the set-up sheet
where it was (by touch on a tablet) and puts the focus on the new item (by keyboard)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from hexcombat import Action, Encounter
from hexcombat.geometry import Hex
from hexcombat.layout import from_offset

from .appdriver import (
    axe_problems,
    figure,
    focused,
    hex_at,
    import_encounter,
    menu,
    module_app,
    new_encounter,
    press,
    press_key_on,
    select,
    set_mode,
    start_app,
    tap_board,
)
from .conftest import App

pytestmark = pytest.mark.browser


desktop = module_app("desktop")


tablet = module_app("tablet-touch")


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


def scrolled_to_add_item(app: App) -> float:
    """A new fig-percentile figure in set-up with its sheet scrolled down to Add item (the
    sheet taller than the panel); the panel's scroll offset."""
    new_encounter(app, "Armoury", "fig-percentile", 8, 6)
    press(app, '#panel-body [data-cmd="tool"][data-tool="add"]')
    press(app, hex_at(app, "2,2"))
    press(app, '#panel-body [data-cmd="edit-figure"]')
    app.page.locator('#panel-body [data-cmd="add-item"]').scroll_into_view_if_needed()
    top = float(app.page.eval_on_selector("#panel-body", "b => b.scrollTop"))
    assert top > 0, "the sheet fits the panel: nothing to keep"
    return top


def test_add_item_keeps_the_sheet_where_it_was_on_a_tablet(tablet: App) -> None:
    page = tablet.page
    top = scrolled_to_add_item(tablet)
    new = f'#panel-body [data-item-state="{items(page)}"]'  # after the starting gear
    page.select_option("#new-item", "Sword")
    press(tablet, '#panel-body [data-cmd="add-item"]')
    expect(page.locator(new)).to_be_visible()
    after = float(page.eval_on_selector("#panel-body", "b => b.scrollTop"))
    assert after >= top - 1, f"the sheet jumped from {top} to {after} after Add item"
    assert in_panel(page, new), "the new item is out of view"
    set_mode(tablet, "play")


def test_add_item_by_keyboard_puts_the_focus_on_the_new_item(desktop: App) -> None:
    page = desktop.page
    scrolled_to_add_item(desktop)
    new = f'#panel-body [data-item-state="{items(page)}"]'  # after the starting gear
    page.select_option("#new-item", "Sword")
    press_key_on(page, '#panel-body [data-cmd="add-item"]')
    expect(page.locator(new)).to_be_visible()
    assert focused(page, new)
    assert in_panel(page, new)
    set_mode(desktop, "play")


def items(page: Page) -> int:
    """How many items the figure on the sheet carries."""
    return page.locator("#panel-body [data-item-state]").count()


def in_panel(page: Page, selector: str) -> bool:
    """True when the element is inside the panel's visible part."""
    return bool(
        page.eval_on_selector(
            selector,
            "el => { const r = el.getBoundingClientRect(),"
            " p = document.getElementById('panel-body').getBoundingClientRect();"
            " return r.top >= p.top - 1 && r.bottom <= p.bottom + 1; }",
        )
    )


def test_ta_14_one_editor_for_gear_with_player_names_and_numbers_by_mouse(desktop: App) -> None:
    """two-action-2d10 chooses weapon, missile and armour in figure fields: set-up offers no
    second Equipment list of table ids beside them, and each choice shows its numbers."""
    page = desktop.page
    new_encounter(desktop, "One armoury", "two-action-2d10", 8, 6)
    press(desktop, '#panel-body [data-cmd="tool"][data-tool="add"]')
    press(desktop, hex_at(desktop, "2,2"))
    press(desktop, '#panel-body [data-cmd="edit-figure"]')
    weapon = page.locator('#figure-form [data-field="stats.weapon"] select')
    expect(weapon).to_be_visible()
    labels = weapon.locator("option").all_text_contents()
    assert "Langasaex — strike rank 3, damage d6" in labels
    missiles = page.locator('#figure-form [data-field="stats.missile"] select option')
    assert "Bow — damage d6, range 12, load before shooting" in missiles.all_text_contents()
    expect(page.locator("#new-item")).to_have_count(0)  # no "langasaex (weapon)" list
    expect(page.locator('#panel-body h3:text-is("Equipment")')).to_have_count(0)
    set_mode(desktop, "play")
    press(desktop, '#panel-body [data-cmd="pick"]')
    numbers = pairs(sheet_row(desktop, "Numbers"))
    assert numbers["Weapon"] == "Sword"  # the player's word, not the table id "sword"
    assert numbers["Armour"] == "None"


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[App]:
    app = start_app(browser, base_url, "phone")
    yield app
    app.page.context.close()


def clear_of_the_sheet(app: App, target: Locator) -> bool:
    """True when ``target`` is inside the board's box and above the bottom sheet."""
    return bool(
        target.evaluate(
            "el => { const r = el.getBoundingClientRect(),"
            " b = document.getElementById('board').getBoundingClientRect(),"
            " s = document.getElementById('panel').getBoundingClientRect();"
            " return r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1"
            " && r.bottom <= Math.min(b.bottom, s.top) + 1; }"
        )
    )


def test_a_new_8x8_board_opens_whole_on_a_phone_and_its_figures_can_be_tapped(
    phone: App,
) -> None:
    page = phone.page
    new_encounter(phone, "Pocket board", "combat-speed-phase", 8, 8)
    hexes = page.locator("#board [data-hex]").all()
    hidden = [h.get_attribute("data-hex") for h in hexes if not clear_of_the_sheet(phone, h)]
    assert hidden == [], f"a new board opens with hexes out of view or under the sheet: {hidden}"
    press(phone, '#panel-body [data-cmd="tool"][data-tool="add"]')
    sides = page.locator('#panel-body [data-cmd="new-side"]')
    for side, cells in ((0, ((1, 1), (1, 6))), (1, ((6, 1), (6, 6)))):
        press(phone, sides.nth(side))
        for col, row in cells:
            at = from_offset(col, row)
            tap_board(phone, hex_at(phone, f"{at.q},{at.r}"))
    expect(page.locator("#board [data-figure]")).to_have_count(4)  # every corner was tapped
    set_mode(phone, "play")
    ids = page.locator("#board [data-figure]").evaluate_all("ts => ts.map(t => t.dataset.figure)")
    for fid in ids:  # each in view, or after one Fit: never left under the sheet
        tap_board(phone, figure(phone, fid))
        expect(figure(phone, fid)).to_have_class(re.compile(r"\bselected\b"))
        press(phone, '#panel-body [data-cmd="deselect"]')


def ring_colour(app: App, fid: str) -> str:
    return str(figure(app, fid).locator(".ring").get_attribute("stroke"))


def test_a_figure_placed_on_red_first_is_drawn_red_and_stays_red(desktop: App) -> None:
    page = desktop.page
    new_encounter(desktop, "Red first", "skirmish", 6, 5)
    press(desktop, '#panel-body [data-cmd="tool"][data-tool="add"]')
    sides = page.locator('#panel-body [data-cmd="new-side"]')
    press(desktop, sides.filter(has_text="Red"))
    press(desktop, hex_at(desktop, "1,1"))
    red = str(page.locator("#board [data-figure]").first.get_attribute("data-figure"))
    assert ring_colour(desktop, red) == "#c8402a"  # red, though placed first
    press(desktop, '#panel-body [data-cmd="tool"][data-tool="add"]')
    press(desktop, sides.filter(has_text="Blue"))
    press(desktop, hex_at(desktop, "4,1"))
    expect(page.locator("#board [data-figure]")).to_have_count(2)
    blue = next(
        f
        for f in page.locator("#board [data-figure]").evaluate_all(
            "ts => ts.map(t => t.dataset.figure)"
        )
        if f != red
    )
    assert ring_colour(desktop, blue) == "#2f6fd6"
    assert ring_colour(desktop, red) == "#c8402a"  # no swap once Blue is on the board
    set_mode(desktop, "play")


@pytest.mark.parametrize("size", ["desktop", "tablet-touch", "phone"])
def test_axe_finds_nothing_serious_on_every_screen(
    size: str, browser: Browser, base_url: str
) -> None:
    """Welcome, guide, play with the figure sheet, set-up with the figure editor, library,
    share, table of devices and the embed view, at desktop, tablet and phone sizes."""
    app = start_app(browser, base_url, size)
    page, found = app.page, []

    def check(screen: str) -> None:
        found.extend(f"{screen}: {p}" for p in axe_problems(page))

    try:
        expect(page.locator("#welcome")).to_be_visible()
        check("welcome")
        press(app, '#welcome [data-cmd="welcome-guide"]')
        expect(page.locator("#guide")).to_be_visible()
        check("guide")
        press(app, '#guide [data-cmd="guide-close"]')
        fid = str(page.locator("#board [data-figure]").first.get_attribute("data-figure"))
        select(app, fid)
        check("play: figure sheet")
        set_mode(app, "edit")
        if not page.locator("#figure-form").count():
            press(app, f'#panel-body [data-cmd="pick"][data-pick="{fid}"]')
        expect(page.locator("#figure-form [data-field]").first).to_be_visible()
        check("set-up: figure editor")
        set_mode(app, "play")
        for command, ready in (
            ("library", "[data-library]"),
            ("share", '#dialog [data-share="link"]'),
            ("table", "#dialog-body button"),
        ):
            menu(app, command)
            page.locator(ready).first.wait_for()
            check(command)
            if command == "share":
                link = page.locator('#dialog [data-share="link"]').input_value()
            press(app, '#dialog [data-cmd="close-dialog"]')
        embed = page.context.new_page()
        embed.goto(base_url + "?embed" + link[link.index("#") :])
        embed.wait_for_selector("html[data-app-state=ready]", timeout=60_000)
        found.extend(f"embed: {p}" for p in axe_problems(embed))
    finally:
        app.page.context.close()
    assert found == []
    assert app.blocked == []
