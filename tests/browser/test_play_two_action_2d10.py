"""two-action-2d10 in the browser, through the page alone, at desktop and tablet-touch sizes:
two figures declare two actions each in secret (Bo combines both on one attack: 3d10 keep
the best two), the strike order by weapon is shown (Spear before Axe), a Parry answers Bo's
attack through the prompt, and the hit's result stops Ann's later Axe blow (TA-13).

The dice are the encounter's seeded dice; the expected log is what the same actions give
through the Encounter API (seed 35 makes the torso hit fail its save)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Action, Encounter
from hexcombat.rulesets import all_rulesets

from .appdriver import (
    choose,
    import_encounter,
    next_step,
    open_action,
    press,
    select,
    started_app_fixture,
    wait_toast_gone,
)
from .appdriver import log_texts as every_log_text
from .conftest import ROOT, App

sys.path.insert(0, str(ROOT / "tests" / "rules"))
from two_action_2d10_fixtures import duel

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        "two-action-2d10" not in {r.id for r in all_rulesets()},
        reason="two-action-2d10 is not registered",
    ),
]

SEED = 35
ANN = {"first": "attack", "second": "parry", "target": "bo", "guard": "bo"}
BO = {"first": "attack", "second": "attack", "combine": True, "target": "ann"}


@pytest.fixture(scope="module", params=["desktop", "tablet-landscape"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def fight() -> Encounter:
    return duel(seed=SEED).renamed("Spear and axe")


def expected() -> list[str]:
    """The log the page must show: the same actions through the Encounter API."""
    enc = fight()
    for action in (
        Action("declare", "ann", ANN),
        Action("declare", "bo", BO),
        Action("next_step"),
        Action("next_step"),
        Action("strike", "bo"),
        Action("parry", "ann"),
    ):
        enc.perform(action)
    return [e.text for e in enc.events if e.kind != "clock"]


def log_texts(ui: App) -> list[str]:
    return [t for t in every_log_text(ui) if not t.startswith("Round ")]


def declare(ui: App, fid: str, fields: dict[str, str], combine: bool = False) -> None:
    select(ui, fid)
    open_action(ui, "declare")
    for field, label in fields.items():
        choose(ui, field, label)
    if combine:
        box = ui.page.locator('#action-form [data-field="combine"] input[type="checkbox"]')
        press(ui, box)
        expect(box).to_be_checked()
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    # the step's own name, as the turn line shows it (never "Done for declare")
    expect(ui.page.locator("#panel-body .declared")).to_have_text(
        "Chosen in this step (Declare): the choice stays hidden until everyone has chosen."
    )


def test_two_actions_a_combined_attack_the_strike_order_a_parry_and_a_lost_blow(ui: App) -> None:
    page = ui.page
    want = expected()
    import_encounter(ui, fight())
    tracker = page.locator("#turn-tracker")
    expect(tracker).to_contain_text("Declare")

    declare(ui, "ann", {"first": "Attack", "second": "Parry", "target": "Bo", "guard": "Bo"})
    assert log_texts(ui)[-1] == "Ann has declared (hidden until everyone has)"
    select(ui, "bo")
    open_action(ui, "declare")
    choose(ui, "first", "Attack")
    choose(ui, "second", "Attack")
    # two attacks name a target but guard no one (D-18, D-2): the guard field is put away
    expect(page.locator('#action-form [data-field="guard"]')).to_be_hidden()
    choose(ui, "target", "Ann")
    box = page.locator('#action-form [data-field="combine"] input[type="checkbox"]')
    press(ui, box)
    expect(page.locator("#preview")).to_contain_text("3d10, keep the best two (TA-5)")
    expect(page.locator("#preview")).to_contain_text("best two of 3d10")
    wait_toast_gone(ui)
    ui.screenshot("ta-declare-combined")
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    assert log_texts(ui)[-2:] == [
        "Ann declares attack and parry at Bo",
        "Bo declares attack with both actions (best two of 3d10, TA-5) at Ann",
    ]
    next_step(ui, "Finish: Declare")
    expect(tracker).to_contain_text("Movement")
    next_step(ui, "Finish: Movement")
    expect(tracker).to_contain_text("Combat")

    # the strike order by weapon: Spear before Axe
    who = tracker.locator('[aria-label="Who acts"]')
    expect(who).to_have_attribute("title", re.compile(r"Spear strikes before Axe \(TA-14\)"))
    chips = who.locator("[data-pick]").evaluate_all("els => els.map(e => e.dataset.pick)")
    assert chips == ["bo", "ann"]
    select(ui, "bo")
    open_action(ui, "strike")
    expect(page.locator('#preview [data-variant="Ann commits a Parry"]')).to_have_count(1)
    wait_toast_gone(ui)
    ui.screenshot("ta-strike-order-preview")
    press(ui, '[data-commit-bar] [data-cmd="roll"]')

    # Ann is asked: the parry answers the attack
    card = page.locator("#panel-body [data-prompt]")
    expect(card).to_contain_text("Ann: Parry this attack")
    wait_toast_gone(ui)
    ui.screenshot("ta-parry-prompt")
    press(ui, card.locator('[data-answer="parry"]'))
    press(ui, '[data-commit-bar] [data-cmd="roll"]')
    expect(page.locator("#log > li .text").last).to_have_text(want[-1])
    assert log_texts(ui) == want
    assert "fails the save: lose actions" in want[-1]

    # Ann's later Axe blow is gone: nobody is left to strike, the step may end
    acting = who.locator("[data-pick]").evaluate_all("els => els.map(e => e.dataset.pick)")
    assert acting == ["bo", "ann"]
    select(ui, "ann")
    expect(page.locator("#panel-body")).to_contain_text("stopped by an earlier result (TA-13)")
    wait_toast_gone(ui)
    ui.screenshot("ta-blow-stopped")
    next_step(ui, "Finish: Combat")
    expect(tracker).to_contain_text("Round 2")
