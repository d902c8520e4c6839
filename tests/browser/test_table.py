"""At the table, through the page alone, at desktop (mouse), a small tablet in
portrait (820x1180, fingers) and a phone (390x844, fingers): a guided first visit, typed
figure edits never lost, selecting distinct from targeting, fights that end with a summary,
who acts always visible, the main button and its chance always in view, one current thing at
a time, friendly coordinates (remembered), the measure tool, the help panel, the GM's tools
and free dice in the log, and keyboard and screen-reader paths.

Driven through the test hooks of design.md section 5 and ``data-*`` attributes the page sets
for them (``data-choice``, ``data-target``, ``data-outcome``, ``data-commit-bar``,
``data-measure``, ``data-guide-step``, ``data-gm``), never through CSS classes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, expect

from hexcombat import Action, Encounter, Hex
from hexcombat.layout import hex_label

from .appdriver import (
    figure,
    hex_at,
    import_encounter,
    log_texts,
    menu,
    press,
    set_mode,
    start_app,
    started_app_fixture,
    touch,
    wait_toast_gone,
)
from .conftest import App

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["desktop", "tablet-touch", "phone"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per size for this module (its first test sees a first visit)."""
    yield from started_app_fixture(request, browser, base_url)


def duel(dax_hp: int = 10, *, attacks: bool = False) -> Encounter:
    """Ash (Wardens) and Dax (Raiders) side by side on an open 8x6 board, Bryn behind Ash."""
    enc = Encounter.new("skirmish", 8, 6, name="Table duel", seed=3)
    rs = enc.ruleset
    ash = rs.new_figure("ash", "Ash the Warden", "Wardens", Hex(2, 2), 1)
    bryn = rs.new_figure("bryn", "Bryn Spear", "Wardens", Hex(1, 2), 1)
    dax = rs.new_figure("dax", "Dax the Red", "Raiders", Hex(3, 2), 4)
    dax.stats["hp"] = dax_hp
    enc = enc.with_figure(ash).with_figure(bryn).with_figure(dax)
    if attacks:
        enc.perform(Action("next_step"))
    return enc


def in_view(ui: App, locator: Locator) -> None:
    """The element is on screen, inside the viewport, and nothing covers its middle."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None
    size = ui.page.viewport_size
    assert size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, box
    hit = ui.page.evaluate(
        "([x, y]) => { const e = document.elementFromPoint(x, y); return e && "
        "(e.closest('[data-commit-bar], #turn-line, button') || e).outerHTML.slice(0, 80); }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    handle = locator.element_handle()
    assert handle is not None
    covered = ui.page.evaluate(
        "([el, x, y]) => !el.contains(document.elementFromPoint(x, y))",
        [handle, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert not covered, f"covered by {hit}"


def tap_figure(ui: App, fid: str) -> None:
    press(ui, figure(ui, fid))


# ---- 12: a guided first visit ---------------------------------------------------------------
def test_first_visit_guides_three_steps_and_focuses_the_card(ui: App) -> None:
    """The first visit opens the simplest demo with focus in the welcome card; "Show me how"
    rings a figure, then a hex it can reach, then the enemies, as the player goes."""
    page = ui.page
    card = page.locator("#welcome")
    expect(card).to_be_visible()
    expect(page.locator("#enc-name")).to_have_text("Skirmish at the ford")
    start = card.locator('[data-cmd="welcome-guide"]')
    expect(start).to_be_focused()
    ui.screenshot("table-welcome")
    press(ui, start)
    expect(card).to_be_hidden()
    guide = page.locator("#guide")
    expect(guide).to_have_attribute("data-guide-step", "1")
    ringed = page.locator('#board [data-highlight~="guide"]')
    expect(ringed).to_have_count(1)
    key = str(ringed.get_attribute("data-hex"))
    token = page.locator(f'#board [data-figure][data-at="{key}"]')
    press(ui, token)
    expect(guide).to_have_attribute("data-guide-step", "2")
    expect(ringed).to_have_count(1)
    wait_toast_gone(ui)
    ui.screenshot("table-guide-step2")
    press(ui, hex_at(ui, str(ringed.get_attribute("data-hex"))))
    press(ui, page.locator('[data-commit-bar] [data-cmd="commit"]'))
    expect(guide).to_have_attribute("data-guide-step", "3")
    expect(page.locator('#board [data-highlight~="guide"]').first).to_be_visible()
    press(ui, guide.locator('[data-cmd="guide-close"]'))
    expect(guide).to_be_hidden()


def test_picking_another_demo_closes_the_card(browser: Browser, base_url: str) -> None:
    """Another demo chosen on the welcome card opens it and puts the card away."""
    app = start_app(browser, base_url, "desktop")
    try:
        page = app.page
        card = page.locator("#welcome")
        expect(card).to_be_visible()
        other = card.locator('[data-cmd="welcome-demo"]').first
        title = str(other.text_content())
        press(app, other)
        expect(page.locator("#enc-name")).to_have_text(title)
        expect(card).to_be_hidden()
    finally:
        app.page.context.close()
    assert app.blocked == []


# ---- 1: typed edits are never lost ----------------------------------------------------------
def test_typed_figure_edits_survive_rotate_another_figure_play_and_enter(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    set_mode(ui, "edit")
    tap_figure(ui, "ash")
    name = page.locator('#figure-form [data-field="name"] input')
    name.fill("Ash Renamed")
    page.locator('#figure-form [data-field="stats.attack"] input').fill("7")
    press(ui, '#panel-body [data-cmd="rotate"][data-by="1"]')
    expect(figure(ui, "ash")).to_have_attribute("data-facing", "2")
    expect(name).to_have_value("Ash Renamed")
    expect(page.locator('#figure-form [data-field="stats.attack"] input')).to_have_value("7")
    expect(figure(ui, "ash")).to_have_attribute("aria-label", re.compile("^Ash Renamed,"))
    # tap another figure: the typing is applied, not dropped
    name.fill("Ash Again")
    tap_figure(ui, "dax")
    expect(figure(ui, "ash")).to_have_attribute("aria-label", re.compile("^Ash Again,"))
    # Enter in the form applies it
    page.locator('#figure-form [data-field="name"] input').fill("Dax Entered")
    page.locator('#figure-form [data-field="name"] input').press("Enter")
    expect(figure(ui, "dax")).to_have_attribute("aria-label", re.compile("^Dax Entered,"))
    # Play applies it too
    page.locator('#figure-form [data-field="name"] input').fill("Dax Played")
    set_mode(ui, "play")
    expect(figure(ui, "dax")).to_have_attribute("aria-label", re.compile("^Dax Played,"))


# ---- 2: selecting and targeting are distinct ----------------------------------------------------
def test_a_fresh_play_selects_nothing_and_a_tap_asks_attack_or_select(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel(attacks=True))
    set_mode(ui, "edit")
    tap_figure(ui, "ash")
    set_mode(ui, "play")
    expect(page.locator("#board .selected[data-figure]")).to_have_count(0)
    tap_figure(ui, "ash")
    expect(figure(ui, "ash")).to_have_class(re.compile(r"\bselected\b"))
    tap_figure(ui, "dax")  # not an attack: a choice
    choice = page.locator('#panel-body [data-choice="dax"]')
    expect(choice).to_be_visible()
    expect(page.locator("[data-commit-bar]")).to_have_count(0)
    expect(figure(ui, "ash")).to_have_class(re.compile(r"\bselected\b"))
    wait_toast_gone(ui)
    ui.screenshot("table-attack-or-select")
    press(ui, choice.get_by_role("button", name="Select Dax the Red"))
    expect(figure(ui, "dax")).to_have_class(re.compile(r"\bselected\b"))
    tap_figure(ui, "ash")  # Dax's attack on Ash is offered too: ask again, select
    press(ui, page.locator('#panel-body [data-choice="ash"] [data-cmd="pick"]'))
    expect(figure(ui, "ash")).to_have_class(re.compile(r"\bselected\b"))
    tap_figure(ui, "dax")
    press(ui, page.locator('#panel-body [data-choice="dax"] [data-cmd="choose-target"]'))
    target = page.locator('#preview [data-target="dax"]')
    expect(target).to_contain_text("Dax the Red")
    roll = page.locator('[data-commit-bar] [data-cmd="roll"]')
    expect(roll).to_contain_text("Dax the Red")
    # 7: the main button and its chance are in view at every size
    in_view(ui, roll)
    expect(page.locator("[data-bar-chance]")).to_contain_text("%")
    wait_toast_gone(ui)
    ui.screenshot("table-target-before-roll")
    # 15: after Roll, focus is on the result
    press(ui, roll)
    expect(page.locator("#panel-body .result[role=status]").first).to_be_focused()


def test_move_here_is_in_view_after_choosing_a_hex(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    tap_figure(ui, "bryn")
    press(ui, hex_at(ui, "1,4"))
    button = page.locator('[data-commit-bar] [data-cmd="commit"]')
    expect(button).to_have_text("Move here")
    in_view(ui, button)
    wait_toast_gone(ui)
    ui.screenshot("table-move-here")
    press(ui, button)
    # 8: one current thing: the result shows, opening an action replaces it
    result = page.locator("#panel-body .result[role=status]")
    expect(result).to_have_count(1)
    assert log_texts(ui)[-1] == "Bryn Spear moves B3 → B5 (2 MP)"  # 9: friendly coordinates
    tap_figure(ui, "ash")
    press(ui, page.locator('#panel-body [data-action="move"] .action-head'))
    expect(result).to_have_count(0)
    # a step change is no result card: the turn line says it
    press(ui, page.locator('#turn-tracker [data-action="next_step"]'))
    expect(page.locator("#turn-line")).to_contain_text("Attacks")
    expect(page.locator("#panel-body .result[role=status]")).to_have_count(0)


# ---- 3: fights end ------------------------------------------------------------------------------
def test_a_fight_ends_with_the_winner_and_a_summary_and_undo_goes_back(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel(dax_hp=1, attacks=True))
    tap_figure(ui, "ash")
    tap_figure(ui, "dax")
    press(ui, page.locator('#panel-body [data-choice="dax"] [data-cmd="choose-target"]'))
    faces = page.locator("#preview .dice-row input")
    faces.first.fill("20")
    press(ui, '#preview [data-cmd="use-faces"]')
    faces = page.locator("#preview .dice-row input")
    expect(faces).to_have_count(2)
    faces.nth(1).fill("3")
    press(ui, '#preview [data-cmd="use-faces"]')
    outcome = page.locator('#panel-body [data-outcome="Wardens"]')
    expect(outcome).to_contain_text("Victory for Wardens")
    summary = outcome.locator("[data-summary] li")
    expect(summary).to_have_text(
        ["1 round", "1 hit, 3 damage", "2 dice rolled", "Fell: Dax the Red"]
    )
    expect(page.locator("#turn-line")).to_contain_text("Fight over")
    expect(page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(0)
    expect(page.locator('#panel-body .actions > [data-action="attack"]')).to_have_count(0)
    wait_toast_gone(ui)
    ui.screenshot("table-fight-over")
    press(ui, "#undo-button")
    expect(page.locator("#panel-body [data-outcome]")).to_have_count(0)
    expect(page.locator("#turn-line")).not_to_contain_text("Fight over")


# ---- 6: who acts, always visible ---------------------------------------------------------------
def test_round_step_and_who_acts_are_visible(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    line = page.locator("#turn-line")
    in_view(ui, line)
    expect(line).to_contain_text("Round 1 · Movement")
    expect(line).to_contain_text("3 to act: Ash the Warden, Bryn Spear, Dax the Red")


# ---- 9: coordinates -----------------------------------------------------------------------------
def test_hexes_read_as_column_letter_and_row_and_show_coordinates_is_kept(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    expect(hex_at(ui, "2,2")).to_have_attribute("aria-label", re.compile(r"^hex C4: "))
    assert hex_label(Hex(2, 2)) == "C4"
    press(ui, "#menu-button")
    page.locator("#coords-toggle").check()
    expect(page.locator("#layer-coords text").first).to_have_text("A1")
    assert page.evaluate("localStorage.getItem('hexcombat.coords')") == "on"
    page.locator("#coords-toggle").uncheck()
    assert page.evaluate("localStorage.getItem('hexcombat.coords')") == "off"
    press(ui, "#menu-button")
    expect(page.locator("#menu")).to_be_hidden()


# ---- 11: measure --------------------------------------------------------------------------------
def sheet_to_peek(ui: App) -> None:
    """On touch sizes, the sheet down to its peek, so the board is free to tap."""
    if touch(ui):
        page = ui.page
        page.locator("#sheet-handle").focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        expect(page.locator("#panel")).to_have_attribute("data-sheet", "peek")


def test_measure_two_hexes_for_distance_and_sight(ui: App) -> None:
    """The ruler (or M) measures between two tapped hexes: distance, sight with its reason."""
    page = ui.page
    enc = duel().painted([Hex(2, 3)], "wall")
    import_encounter(ui, enc)
    sheet_to_peek(ui)
    press(ui, "#measure-button")
    expect(page.locator("#measure-button")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#measure-info [data-measure=waiting]")).to_be_visible()
    press(ui, hex_at(ui, "1,3"))
    press(ui, hex_at(ui, "3,3"))
    done = page.locator("#measure-info [data-measure=done]")
    expect(done).to_have_attribute("data-distance", "2")
    expect(done).to_have_attribute("data-clear", "false")
    wall = hex_label(Hex(2, 3))
    expect(done).to_contain_text(f"{hex_label(Hex(1, 3))} → {hex_label(Hex(3, 3))}: 2 hexes")
    expect(done).to_contain_text(f"blocked by Wall at {wall}")
    expect(page.locator('#board [data-highlight~="measure"]')).to_have_count(2)
    expect(page.locator('#board [data-highlight~="blocked"]')).to_have_count(1)
    wait_toast_gone(ui)
    ui.screenshot("table-measure")
    # the tool neither selects nor moves anything; it goes away with its button
    expect(page.locator("#board .selected[data-figure]")).to_have_count(0)
    press(ui, "#measure-button")
    expect(page.locator("#measure-info")).to_be_hidden()


def test_measure_from_an_archer_names_its_range_band(ui: App) -> None:
    """Where the ruleset has range bands (fig-percentile), measuring from a figure names the
    band its ranged weapon shoots in, with the rule (the engine's words, FP-17)."""
    page = ui.page
    enc = Encounter.new("fig-percentile", 8, 6, name="Measure bands", seed=2)
    rs = enc.ruleset
    archer = rs.new_figure("archer", "Ada Archer", "Bows", Hex(0, 2), 1)
    archer.skills["Crossbow"] = 50
    archer.equipment.append(rs.item("Crossbow", state="ready"))  # type: ignore[attr-defined]
    enc = enc.with_figure(archer).with_figure(rs.new_figure("foe", "Foe", "Axes", Hex(3, 2), 4))
    import_encounter(ui, enc)
    sheet_to_peek(ui)
    press(ui, "#measure-button")
    press(ui, figure(ui, "archer"))  # a tapped figure measures from (or to) its hex
    press(ui, figure(ui, "foe"))
    done = page.locator("#measure-info [data-measure=done]")
    expect(done).to_have_attribute("data-distance", "3")
    band = done.locator("[data-band]")
    expect(band).to_have_text("Medium range (0) with the Crossbow (FP-17)")
    ui.screenshot("table-measure-band")
    press(ui, "#measure-button")
    expect(page.locator("#measure-info")).to_be_hidden()


# ---- 13: help ---------------------------------------------------------------------------------
def test_help_panel_names_gestures_keys_and_colours(ui: App) -> None:
    page = ui.page
    menu(ui, "help")
    dialog = page.locator("#dialog")
    expect(dialog.locator("[data-help]")).to_contain_text("Gestures")
    expect(dialog.locator("[data-help]")).to_contain_text("Keys")
    expect(dialog.locator("[data-help]")).to_contain_text("Colours")
    expect(dialog.locator("[data-help]")).to_contain_text("measure")
    assert page.evaluate("document.getElementById('dialog').contains(document.activeElement)")
    ui.screenshot("table-help")
    press(ui, dialog.locator('[data-cmd="close-dialog"]'))
    expect(dialog).not_to_have_attribute("open", "")


# ---- 14: GM tools -------------------------------------------------------------------------------
def test_gm_sets_hit_points_and_rolls_free_dice_into_the_log_and_undo(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    tap_figure(ui, "dax")
    gm = page.locator("#panel-body [data-gm]")
    press(ui, gm.locator("summary"))
    press(ui, gm.locator('[data-action="gm_pool"] .action-head'))
    chosen = gm.locator('[data-field="figure"] select option:checked')
    expect(chosen).to_have_text("Dax the Red")  # the selected figure, preset
    gm.locator('[data-field="value"] input').fill("4")
    wait_toast_gone(ui)
    ui.screenshot("table-gm-pool")
    press(ui, page.locator('[data-commit-bar] [data-cmd="commit"]'))
    expect(page.locator("#log > li .text").last).to_have_text(
        "GM sets Dax the Red's hit points to 4 of 10 (was 10)"
    )
    expect(figure(ui, "dax")).to_have_attribute("aria-label", re.compile("4 of 10 hit points"))
    press(ui, "#undo-button")
    expect(figure(ui, "dax")).to_have_attribute("aria-label", re.compile("10 of 10 hit points"))
    gm = page.locator("#panel-body [data-gm]")
    if gm.get_attribute("open") is None:
        press(ui, gm.locator("summary"))
    press(ui, gm.locator('[data-action="roll_dice"] .action-head'))
    roll = page.locator('[data-commit-bar] [data-cmd="roll"]')  # its odds shown, as any roll
    expect(roll).to_have_text("Roll dice")
    press(ui, roll)
    expect(page.locator("#log > li .text").last).to_have_text(re.compile(r"^Rolled 3d6: \d+$"))


# ---- 15: keyboard and screen reader ----------------------------------------------------
def test_labels_escape_and_the_action_key(ui: App) -> None:
    page = ui.page
    import_encounter(ui, duel())
    expect(figure(ui, "ash")).to_have_attribute(
        "aria-label", "Ash the Warden, Wardens, at C4, facing north-east, 10 of 10 hit points"
    )
    if touch(ui):
        return
    tap_figure(ui, "ash")
    page.keyboard.press("a")
    focused = page.evaluate("document.activeElement.closest('#panel') !== null")
    assert focused
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    expect(page.locator("#board .selected[data-figure]")).to_have_count(0)
