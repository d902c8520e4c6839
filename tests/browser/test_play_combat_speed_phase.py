"""combat-speed-phase in the browser, through the page alone, at desktop and tablet-touch sizes:
two figures declare speed multiples in secret, both half-phases are drawn as they happen, a
GM-entered strike outcome is logged, and at N = 2 a turn costs 2 hexes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Encounter, Hex
from hexcombat.layout import from_offset, hex_label
from hexcombat.rulesets import all_rulesets

from .appdriver import (
    choose,
    figure,
    hex_at,
    import_encounter,
    log_texts,
    next_step,
    open_action,
    press,
    select,
    started_app_fixture,
    wait_toast_gone,
)
from .conftest import App

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        "combat-speed-phase" not in {r.id for r in all_rulesets()},
        reason="combat-speed-phase is not registered",
    ),
]


@pytest.fixture(scope="module", params=["desktop", "tablet-landscape"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def at(col: int, row: int) -> str:
    return str(from_offset(col, row))


def chase() -> Encounter:
    """Ann (CS 2, spear) five hexes north of Bob (CS 3, short sword), facing each other."""
    enc = Encounter.new(
        "combat-speed-phase",
        7,
        8,
        name="Spear against sword",
        options={"csp.combat_resolver": "gm"},  # the GM rules strikes (C-1 option)
    )
    rs = enc.ruleset
    ann = rs.new_figure("ann", "Ann", "North", from_offset(3, 1), 3)
    ann.stats["cs"] = 2
    ann.equipment = [rs.item("Spear")]  # type: ignore[attr-defined]
    bob = rs.new_figure("bob", "Bob", "South", from_offset(3, 6), 0)
    bob.equipment = [rs.item("Short sword")]  # type: ignore[attr-defined]
    return enc.with_figure(ann).with_figure(bob)


def declare(ui: App, fid: str, label: str) -> None:
    select(ui, fid)
    open_action(ui, "declare_speed")
    choose(ui, "n", label)
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    expect(ui.page.locator("#panel-body .declared")).to_contain_text("stays hidden")


def plan(ui: App, fid: str, to: str, facing: int | None = None) -> None:
    """Plan this half's move: tap the hex (or pick the own hex and a facing), then commit."""
    select(ui, fid)
    if facing is None:
        press(ui, hex_at(ui, to))
    else:
        open_action(ui, "plan_half")
        key = to.split(",")
        choose(ui, "to", hex_label(Hex(int(key[0]), int(key[1]))))
        radio = ui.page.locator(f'#action-form [data-field="facing"] input[value="{facing}"]')
        press(ui, radio.locator("xpath=.."))
    expect(ui.page.locator("[data-commit-bar] [data-cmd='commit']")).to_be_visible()


def commit(ui: App) -> None:
    press(ui, '[data-commit-bar] [data-cmd="commit"]')


def test_two_figures_declare_move_in_half_phases_and_the_gm_rules_a_strike(ui: App) -> None:
    page = ui.page
    import_encounter(ui, chase())
    expect(page.locator("#turn-tracker")).to_contain_text("Phase 1")
    expect(page.locator("#turn-tracker")).to_contain_text("Declare speed")
    declare(ui, "ann", "1 x CS = 2 hexes (1 + 1)")
    assert log_texts(ui)[-1] == "Ann has declared (hidden until everyone has)"
    declare(ui, "bob", "1 x CS = 3 hexes (2 + 1)")
    assert log_texts(ui)[-1] == (
        "Every figure has declared its speed: secret until the first half-phase's moves are "
        "revealed (C-7, C-12)"
    )
    next_step(ui, "Finish: Declare speed")
    expect(page.locator("#turn-tracker")).to_contain_text("Half-phase 1")

    # half-phase 1: plans are secret; both moves are drawn when the last plan is in
    plan(ui, "ann", at(3, 2))
    expect(page.locator("#preview")).to_contain_text("Cost: 1 hex")
    commit(ui)
    expect(figure(ui, "ann")).to_have_attribute("data-at", at(3, 1))  # not yet
    plan(ui, "bob", at(3, 4))
    expect(page.locator("#preview")).to_contain_text("Cost: 2 hexes")
    commit(ui)
    expect(figure(ui, "ann")).to_have_attribute("data-at", at(3, 2))
    expect(figure(ui, "bob")).to_have_attribute("data-at", at(3, 4))
    assert "Ann declared N = 1: 2 hexes this phase (1 + 1)" in log_texts(ui)[-5:]
    assert log_texts(ui)[-1] == "After half-phase 1: Ann and Bob: 2 hexes apart"
    wait_toast_gone(ui)
    ui.screenshot("csp-half-phase-1")
    next_step(ui, "Finish: Movement")
    expect(page.locator("#turn-tracker")).to_contain_text("Half-phase 2")

    # half-phase 2: Ann steps in, Bob (moving forward) turns one hexside: 1 hex at N = 1
    plan(ui, "ann", at(3, 3))
    commit(ui)
    plan(ui, "bob", at(3, 4), facing=1)
    expect(page.locator("#preview")).to_contain_text("Cost: 1 hex")
    expect(page.locator("#preview .notes")).to_contain_text("1 hex at N = 1 (CSP-6, C-3)")
    commit(ui)
    expect(figure(ui, "ann")).to_have_attribute("data-at", at(3, 3))
    expect(figure(ui, "bob")).to_have_attribute("data-facing", "1")
    assert log_texts(ui)[-1] == "After half-phase 2: Ann and Bob: 1 hex apart"
    wait_toast_gone(ui)
    ui.screenshot("csp-half-phase-2")
    next_step(ui, "Finish: Movement")
    expect(page.locator("#turn-tracker")).to_contain_text("Combat")

    # combat: reach and arc are the text's; the outcome is the GM's, logged like any event
    select(ui, "ann")
    press(ui, figure(ui, "bob"))  # a tap on the enemy asks: strike it, or select it
    press(ui, '#panel-body [data-choice="bob"] [data-kind="strike"]')
    card = page.locator('#panel-body [data-action="strike"]')
    expect(card).to_have_attribute("data-expanded", "true")
    expect(card).to_contain_text("the GM's to enter (C-1)")
    choose(ui, "outcome", "Hit")
    page.locator('#action-form [data-field="damage"] input').fill("2")
    page.locator('#action-form [data-field="damage"] input').dispatch_event("input")
    expect(page.locator("#preview .notes")).to_contain_text("Text: Bob is 1 away")
    expect(page.locator("#preview .notes")).to_contain_text("GM: enter hit or miss")
    wait_toast_gone(ui)
    ui.screenshot("csp-gm-strike")
    commit(ui)
    ruling = "Ann hits Bob with the Spear: 2 damage (8/10 hp left) (GM's ruling, C-1)"
    assert log_texts(ui)[-1] == ruling
    expect(page.locator("#panel-body .result")).to_contain_text(ruling)
    next_step(ui, "Finish: Combat")

    # phase 2: Ann ran nothing yet but moved at CS: she may declare N = 2; a turn costs 2
    declare(ui, "ann", "2 x CS = 4 hexes (2 + 2)")
    declare(ui, "bob", "1 x CS")
    next_step(ui, "Finish: Declare speed")
    expect(figure(ui, "ann")).not_to_have_attribute("aria-label", re.compile(r"\bimpaired\b"))
    plan(ui, "ann", at(3, 3), facing=2)
    expect(page.locator("#preview")).to_contain_text("Cost: 2 hexes")
    expect(page.locator("#preview .notes")).to_contain_text("2 hexes at N = 2 (CSP-15, C-3)")
    wait_toast_gone(ui)
    ui.screenshot("csp-turn-costs-n")
    commit(ui)
