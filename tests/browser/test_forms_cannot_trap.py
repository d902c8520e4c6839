"""Forms that cannot trap a player, in the page where they were seen: two-action-2d10's
Declare form with a mouse on a desktop (each foe listed once, a fresh form that says what it
still needs beside a greyed Declare, a target kept when the first action is picked again,
Suggest filling only what the form can send), and fig-percentile on a tablet by touch with
a side played by the app (the turn line says when the app is done with its figures)."""

from __future__ import annotations

import re
import sys

import pytest
from playwright.sync_api import Browser, Page, expect

from hexcombat import Encounter
from hexcombat.geometry import Hex
from hexcombat.layout import from_offset

from .appdriver import (
    axe_problems,
    figure,
    focused,
    hex_at,
    highlighted,
    import_encounter,
    log_texts,
    menu,
    module_app,
    new_encounter,
    open_action,
    overlaps,
    press,
    press_key_on,
    select,
    set_mode,
    start_app,
)
from .conftest import ROOT, App

sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rules"))
from test_forms_cannot_trap import app_passes
from two_action_2d10_fixtures import duel

from web.ui.toast import ARMING_MS

pytestmark = pytest.mark.browser


desktop = module_app("desktop")


phone = module_app("phone")


tablet = module_app("tablet-touch")


def listed(app: App, field: str) -> list[str]:
    """The entries of the open form's list ``field`` (what a player sees in it)."""
    return app.page.locator(f'#action-form [data-field="{field}"] select option').all_inner_texts()


def pick(app: App, field: str, label: str) -> None:
    """Choose the entry of the open form's list ``field`` whose words start with ``label``."""
    entries = listed(app, field)
    index = next(i for i, text in enumerate(entries) if text.startswith(label))
    app.page.locator(f'#action-form [data-field="{field}"] select').select_option(index=index)


def test_the_declare_form_lists_each_foe_once_and_says_what_it_needs(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, duel(seed=35).renamed("Forms"))
    select(desktop, "ann")
    open_action(desktop, "declare")
    form = page.locator("#action-form")
    for field in ("target", "guard"):
        entries = listed(desktop, field)
        assert len(entries) == len(set(entries)), entries  # each foe once, nothing greyed
        assert page.locator(f'#action-form [data-field="{field}"] option[disabled]').count() == 0
    expect(form.locator('[data-field="style"]')).to_be_hidden()
    bar = page.locator("[data-commit-bar]")
    expect(bar).to_contain_text("needs a target")  # not the hidden Brawl field's refusal
    expect(page.locator("#preview")).not_to_contain_text("pummel")
    expect(bar.locator("button.primary")).to_be_disabled()

    pick(desktop, "target", "Bo")
    pick(desktop, "guard", "Bo")
    pick(desktop, "first", "Move")
    expect(form.locator('[data-field="target"]')).to_be_hidden()  # nothing aimed at anyone
    pick(desktop, "first", "Attack")  # picked again: the target comes back
    expect(form.locator('[data-field="target"] select option:checked')).to_have_text("Bo")
    press(desktop, '[data-commit-bar] [data-cmd="commit"]')
    assert log_texts(desktop)[-1] == "Ann has declared (hidden until everyone has)"

    select(desktop, "bo")
    press(desktop, '#panel-body [data-cmd="suggest"]')
    expect(page.locator("#suggestion")).to_contain_text("Suggestion:")
    expect(page.locator("#preview")).not_to_contain_text("nothing can be chosen")
    expect(page.locator("#preview .problem")).to_have_count(0)
    expect(page.locator('[data-commit-bar] [data-cmd="commit"]')).to_be_enabled()
    press(desktop, '[data-commit-bar] [data-cmd="commit"]')
    expect(page.locator("#log > li").last).to_contain_text("declare", ignore_case=True)


def test_the_app_is_done_in_the_turn_line_and_a_facing_clears_on_a_tablet(tablet: App) -> None:
    enc, left = app_passes()
    import_encounter(tablet, enc.renamed("The app passes"))
    line = tablet.page.locator("#turn-line")
    names = [enc.state.figures[fid].name for fid in left]
    expect(line).to_contain_text(re.compile(r"app is done with"))
    for name in names:
        expect(line).to_contain_text(name)
    people = next(f for f in enc.state.figures if f not in left and enc.legal_actions(f))
    select(tablet, people)
    open_action(tablet, "plan_move")
    facing = tablet.page.locator('#action-form [data-field="facing"]')
    radios = facing.locator("input[type=radio]")
    expect(radios.last).to_be_checked()  # "Any": nothing chosen for it
    press(tablet, facing.locator("label.hc-segment").first)
    expect(radios.first).to_be_checked()
    press(tablet, facing.locator("label.hc-segment").last)  # and cleared again
    expect(facing.locator("input[type=radio]:checked")).to_have_count(1)
    expect(radios.last).to_be_checked()
    press(tablet, '#panel-body [data-action="plan_move"] .action-head')  # closed again
    press(tablet, '#turn-tracker [data-cmd="next-step"]')  # Next goes on
    expect(line).not_to_contain_text(names[0])


def test_axe_finds_nothing_serious_on_tokens_or_a_house_default_tag(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, duel(seed=35).renamed("Axe"))
    select(desktop, "ann")
    found = [f"play: {p}" for p in axe_problems(page)]
    set_mode(desktop, "edit")
    press(desktop, figure(desktop, "ann"))
    expect(page.locator(".hc-house").first).to_be_visible()
    found += [f"set-up: {p}" for p in axe_problems(page)]
    set_mode(desktop, "play")
    assert found == []


def shared_hex() -> Encounter:
    """strike-chance-pulse close combat: A's figure and one of B's in one hex, another of B's
    beside them."""
    enc = Encounter.new("strike-chance-pulse", 6, 6, name="Shared hex", seed=3)
    rows = (("a1", "Ash", Hex(2, 2), 2), ("b1", "Bea", Hex(2, 2), 5), ("b2", "Cy", Hex(3, 2), 5))
    for fid, name, at, facing in rows:
        side = "A" if fid.startswith("a") else "B"
        enc = enc.with_figure(enc.ruleset.new_figure(fid, name, side, at, facing))
    return enc


def test_n_and_shift_n_reach_every_figure_in_a_shared_hex(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, shared_hex())
    press_key_on(page, "#board", "n")
    heard = []
    for _ in range(3):
        heard.append(str(page.locator("#board-announce").text_content()).split("; ")[1])
        page.keyboard.press("n")
    assert sorted(heard) == ["Ash", "Bea", "Cy"], heard
    page.keyboard.press("Shift+N")
    page.keyboard.press("Shift+N")  # back to the second figure of the shared hex
    if str(page.locator("#board-announce").text_content()).split("; ")[1] != "Bea":
        page.keyboard.press("Shift+N")
    page.keyboard.press("Enter")
    expect(figure(desktop, "b1")).to_have_class(re.compile(r"\bselected\b"))


def test_the_live_region_says_a_hex_as_painted(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, shared_hex().renamed("Painted"))
    set_mode(desktop, "edit")
    press_key_on(page, '#panel-body [data-cmd="tool"][data-tool="paint"]')
    button = page.locator("#panel-body [data-terrain-id]").nth(1)
    name = str(button.get_attribute("data-terrain-id"))
    press_key_on(page, f'#panel-body [data-terrain-id="{name}"]')
    press_key_on(page, "#board", "ArrowRight")
    before = str(page.locator("#board-announce").text_content())
    page.keyboard.press("Enter")
    expect(page.locator(f'#board [data-terrain="{name}"]')).to_have_count(1)
    expect(page.locator("#board-announce")).not_to_have_text(before)
    label = str(page.locator(f'[data-terrain-id="{name}"]').text_content()).strip()
    expect(page.locator("#board-announce")).to_contain_text(label.split("\n")[0].strip()[:6])
    set_mode(desktop, "play")


def on_body(page: Page) -> bool:
    return bool(page.evaluate("document.activeElement === document.body"))


def test_focus_stays_on_what_enter_pressed_in_set_up_and_play(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, duel(seed=35).renamed("Focus"))
    set_mode(desktop, "edit")
    for selector in (
        '#panel-body [data-cmd="tool"][data-tool="paint"]',
        "#panel-body [data-terrain-id]:nth-child(2)",
        '#panel-body [data-cmd="tool"][data-tool="add"]',
        '#panel-body [data-cmd="tool"][data-tool="select"]',
    ):
        press_key_on(page, selector)
        assert not on_body(page), f"Enter on {selector} left the focus on the page body"
        assert focused(page, selector), selector
    set_mode(desktop, "play")
    select(desktop, "ann")
    press_key_on(page, '#panel-body [data-cmd="open-action"][data-kind="declare"]')
    assert focused(page, '#panel-body [data-cmd="open-action"][data-kind="declare"]')
    press_key_on(page, '#panel-body [data-cmd="deselect"]')
    assert not on_body(page)
    press_key_on(page, '#autopilot-sides [data-side="Red"], #autopilot-sides [data-side]')
    assert not on_body(page)
    assert focused(page, "#autopilot-sides [data-side]")
    # the app's declaration is hidden until everyone has declared: its entry, not its note
    expect(page.locator("#log > li", has_text="has declared").first).to_be_attached()
    page.wait_for_timeout(300)
    assert not on_body(page), "the app's move left the focus on the page body"


def test_create_is_a_few_tabs_from_the_board_size_in_the_new_encounter_form(desktop: App) -> None:
    page = desktop.page
    menu(desktop, "new")
    height = page.locator('[data-slot="new"] [data-field="height"] input')
    expect(height).to_be_visible()
    height.focus()
    tabs = 0
    while not focused(page, '[data-lib="create"]'):
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 3, "Create is past the rule options"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # the rule options open from the keyboard
    expect(page.locator('[data-slot="new"] [data-options]')).to_have_attribute("open", "")
    press(desktop, '[data-lib="cancel"]')
    press(desktop, '#dialog [data-cmd="close-dialog"]')
    expect(page.locator("#dialog")).not_to_have_attribute("open", "")


def test_a_new_encounter_starts_adding_figures_on_its_first_side(desktop: App) -> None:
    page = desktop.page
    new_encounter(desktop, "First sides", "skirmish", 6, 5)
    press(desktop, '#panel-body [data-cmd="tool"][data-tool="add"]')
    sides = page.locator('#panel-body [data-cmd="new-side"]')
    press(desktop, sides.nth(1))  # Red, in this encounter
    expect(sides.nth(1)).to_have_attribute("aria-pressed", "true")
    new_encounter(desktop, "Second sides", "skirmish", 6, 5)
    press(desktop, '#panel-body [data-cmd="tool"][data-tool="add"]')
    expect(sides.nth(0)).to_have_attribute("aria-pressed", "true")  # not Red kept from before
    set_mode(desktop, "play")


def test_a_guide_left_open_in_the_demo_is_put_away_in_a_new_encounter(
    browser: Browser, base_url: str
) -> None:
    app = start_app(browser, base_url, "desktop")
    try:
        press(app, '#welcome [data-cmd="welcome-guide"]')
        guide = app.page.locator("#guide")
        expect(guide).to_be_visible()
        new_encounter(app, "After the guide", "skirmish", 6, 5)
        expect(guide).to_be_hidden()
        expect(app.page.locator('#board [data-highlight~="guide"]')).to_have_count(0)
    finally:
        app.page.context.close()


def test_axe_finds_no_token_name_mismatch_on_a_phone(phone: App) -> None:
    import_encounter(phone, shared_hex().renamed("Tokens"))
    assert axe_problems(phone.page) == []


def test_a_toast_never_covers_the_selected_token_on_a_phone(phone: App) -> None:
    toast_stays_off_the_moved_token(phone)


def test_a_toast_never_covers_the_selected_token_on_a_tablet(tablet: App) -> None:
    toast_stays_off_the_moved_token(tablet)


def toast_stays_off_the_moved_token(app: App) -> None:
    """The selected figure moves to the hex of its reach nearest where the toast shows: the
    toast that follows does not cover its token (each size's shared page: its fixture named
    in the test, so the test runs on the worker that holds that page)."""
    page = app.page
    enc = Encounter.new("skirmish", 6, 6, name="Toast", seed=4)
    for fid, col_row, side in (("ann", (2, 0), "Blue"), ("bo", (5, 5), "Red")):
        at = from_offset(*col_row)
        enc = enc.with_figure(enc.ruleset.new_figure(fid, fid.title(), side, at, 2))
    import_encounter(app, enc)
    select(app, "ann")
    wrap = page.locator("#board-wrap").bounding_box()
    assert wrap
    # where the toast starts at this size (static/app.css)
    band = wrap["y"] + float(
        page.eval_on_selector("#toast", "t => parseFloat(getComputedStyle(t).top)")
    )
    start = figure(app, "ann").get_attribute("data-at")
    reach = [k for k in highlighted(app, "reach") if k != start]
    centres = {k: hex_at(app, k).bounding_box() for k in reach}
    middle = wrap["x"] + wrap["width"] / 2  # the toast is centred over the board

    def off_the_toast(k: str) -> float:
        c = centres[k]
        return abs(c["y"] + c["height"] / 2 - band - 20) + abs(c["x"] + c["width"] / 2 - middle)

    key = min(reach, key=off_the_toast)
    press(app, hex_at(app, key))  # Ann moves under where the toast would be
    press(app, '[data-commit-bar] [data-cmd="commit"]')
    box = page.locator("#toast")
    expect(box).to_be_visible()
    expect(figure(app, "ann")).to_have_attribute("data-at", key)
    page.wait_for_function(  # the token glides to its hex: measured where it comes to rest
        "() => { const t = document.querySelector('#board [data-figure=\"ann\"]');"
        " return !t.getAnimations({subtree: true}).length; }"
    )
    a, b = figure(app, "ann").bounding_box(), box.bounding_box()
    assert a and b
    assert not overlaps(a, b), f"the toast covers Ann's token at {key}: {a}, {b}"


def test_a_house_default_tag_goes_once_a_value_is_typed_over_it(desktop: App) -> None:
    page = desktop.page
    import_encounter(desktop, duel(seed=35).renamed("House"))
    set_mode(desktop, "edit")
    press(desktop, figure(desktop, "ann"))
    field = page.locator('#figure-form [data-field]:has(.hc-house):has(input[type="number"])')
    field = field.first
    tag, typed = field.locator(".hc-house"), field.locator('input[type="number"]')
    expect(tag).to_be_visible()
    before = typed.input_value()
    typed.fill(str(int(before) + 1))
    expect(tag).to_be_hidden()  # the player's own value, no longer the house's
    typed.fill(before)
    expect(tag).to_be_visible()
    set_mode(desktop, "play")


def test_a_fight_that_cannot_end_says_so_before_create_on_a_phone(phone: App) -> None:
    app, page = phone, phone.page
    menu(app, "new")
    form = page.locator('[data-slot="new"]')
    rules = form.locator('[data-field="ruleset"] select')
    labels = rules.locator("option").all_inner_texts()
    rules.select_option(index=next(i for i, t in enumerate(labels) if "speed" in t.lower()))
    note = form.locator("[data-ending]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("cannot end")
    press(app, form.locator("[data-options] summary"))
    resolver = form.locator('[data-field="csp.combat_resolver"] select')
    resolver.select_option(index=1)  # the GM enters each strike's outcome
    expect(note).to_be_hidden()
    press(app, '[data-lib="cancel"]')
    press(app, '#dialog [data-cmd="close-dialog"]')


def hit_at_centre(page: Page, selector: str) -> str:
    """What a tap at the centre of ``selector`` lands on: ``toast``, ``button`` (the toast's
    own), ``board`` or ``other``."""
    return str(
        page.eval_on_selector(
            selector,
            """el => { const r = el.getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                if (hit && hit.closest('#toast button')) return 'button';
                if (hit && hit.closest('#toast')) return 'toast';
                if (hit && hit.closest('#board')) return 'board';
                return 'other'; }""",
        )
    )


def test_a_tap_on_a_toasts_words_reaches_the_board_beneath_on_a_phone(phone: App) -> None:
    page = phone.page
    new_encounter(phone, "Under the toast", "skirmish", 6, 5)
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    page.wait_for_timeout(ARMING_MS + 150)  # armed: its button would take a press now
    # the board's top rows brought under the toast's words, as on a bigger board
    box, words = page.locator("#board").bounding_box(), toast.bounding_box()
    assert box and words
    page.evaluate(
        "dy => { document.getElementById('board').style.transform = `translateY(${dy}px)`; }",
        words["y"] - box["y"] - 10,
    )
    try:
        assert hit_at_centre(page, "#toast > span") == "board"
    finally:
        page.evaluate("document.getElementById('board').style.transform = ''")
    # its Undo button still takes a press, once armed
    enc = Encounter.new("skirmish", 6, 6, name="Undo under the toast", seed=4)
    enc = enc.with_figure(enc.ruleset.new_figure("ann", "Ann", "Blue", from_offset(2, 2), 2))
    import_encounter(
        phone, enc.with_figure(enc.ruleset.new_figure("bo", "Bo", "Red", from_offset(5, 5), 2))
    )
    select(phone, "ann")
    start = figure(phone, "ann").get_attribute("data-at")
    press(phone, hex_at(phone, next(k for k in highlighted(phone, "reach") if k != start)))
    press(phone, '[data-commit-bar] [data-cmd="commit"]')
    button = page.locator("#toast button")
    expect(button).to_be_visible()
    page.wait_for_timeout(ARMING_MS + 150)
    expect(toast).not_to_have_attribute("data-arming", "")
    assert hit_at_centre(page, "#toast button") == "button"
