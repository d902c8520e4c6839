"""A fight from scratch played to its end by a person, every action entered by hand: by the
keyboard alone on a desktop (Tab and Enter: no click, no focus() call) and by taps on a
phone. The person asks Suggest what each figure should do, and enters it: Suggest opens the
action's card filled in, the person presses its button (Roll where it rolls), answers every
prompt with its first answer and finishes each step with the turn tracker's step button.

Here every ruleset's fight from scratch (tests/scratch_fights.py: a 6 by 5 board, every
figure next to a foe, low pools; the very set-up the editor makes, tests/test_editing.py) is
opened from a file and played by taps on a phone; test_fight_from_scratch_rulesets.py builds
the same fights in the editor by keys and plays them to the end with :func:`played_on` by
keys, and by taps before the app plays both sides.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from scratch_fights import FIGHTS, built

from .appdriver import (
    MAIN_BUTTON,
    figure,
    import_encounter,
    module_app,
    press,
    press_key_on,
    select,
    wait_toast_gone,
)
from .conftest import App

pytestmark = pytest.mark.browser

phone = module_app("phone")

ACTIONS = 160
"""More actions than any of these fights takes: past them the fight is stuck."""
ANSWER_MS = 20_000
"""How long Suggest may take to answer (the engine's worker starts on first use)."""


class Hand:
    """How the person presses a control: by keys (Tab to it, Enter) or by a tap."""

    def __init__(self, app: App, way: str) -> None:
        self.app, self.way = app, way
        self.page: Page = app.page

    def press(self, selector: str) -> None:
        if self.way == "keys":
            press_key_on(self.page, selector)
        else:
            press(self.app, self.page.locator(selector).first)

    def pick(self, fid: str) -> None:
        """Take figure ``fid`` in hand: its chip in the turn tracker by keys, its token on
        the board by a tap (a phone's top bar has no room for the tracker's chips)."""
        if self.way == "taps":  # a tap on a foe with a figure in hand offers to attack it
            token = figure(self.app, fid)
            held = self.page.locator('#panel-body [data-cmd="deselect"]')
            if "selected" not in str(token.get_attribute("class")).split() and held.count():
                press(self.app, held.first)
            select(self.app, fid)
        elif "selected" not in str(figure(self.app, fid).get_attribute("class")).split():
            press_key_on(self.page, f'#turn-tracker [data-pick="{fid}"]')

    def fill_lists(self) -> None:
        """Pick the first entry of every list the card leaves empty."""
        for _ in range(8):
            lists = self.page.locator("#action-form select:visible")
            empty = [i for i in range(lists.count()) if lists.nth(i).input_value() == ""]
            if not empty:
                return
            chosen = lists.nth(empty[0])
            if self.way == "keys":
                chosen.evaluate("s => s.dataset.hand = 'next'")
                press_key_on(self.page, '#action-form select[data-hand="next"]', "ArrowDown")
                chosen.evaluate("s => delete s.dataset.hand")
            else:  # a native list on a phone: the first offered entry
                values = chosen.locator("option:not([disabled])").evaluate_all(
                    "os => os.map(o => o.value).filter(v => v !== '')"
                )
                chosen.select_option(values[0])


def log_size(page: Page) -> int:
    return page.locator("#log > li").count()


def entered(hand: Hand, what: str, before: int, *, fill: bool = False) -> str:
    """Press the open card's button (again where a first press leads to a roll) until the
    log grows, first picking an entry in each empty list when ``fill`` (a prompt's card, such
    as a riposte's with its weapon to choose; a suggested card comes filled in); ``what`` it
    was."""
    page = hand.page
    for _ in range(3):
        if fill:
            hand.fill_lists()
        if not page.locator(MAIN_BUTTON).count():
            break
        hand.press(MAIN_BUTTON)
        error = page.locator("#action-error")
        assert not error.count(), f"{what} was refused: {error.text_content()}"
        if log_size(page) != before:
            return what
        page.wait_for_timeout(50)
        if log_size(page) != before:
            return what
    expect(page.locator("#log > li")).not_to_have_count(before)
    return what


def suggested(hand: Hand, fid: str) -> bool:
    """Ask Suggest for ``fid`` (in hand): True when it opened a filled-in card."""
    page = hand.page
    hand.press(f'#panel-body [data-cmd="suggest"][data-figure="{fid}"]')
    card, said = page.locator(MAIN_BUTTON), page.locator("#suggestion")
    expect(card.or_(said).first).to_be_visible(timeout=ANSWER_MS)
    return bool(card.count())


def one_action(hand: Hand, skipped: set[str]) -> str:
    """Enter one action by hand; what it was."""
    page = hand.page
    before = log_size(page)
    if page.locator("#panel-body [data-prompt]").count():  # the answer opens its card
        hand.press("#panel-body [data-prompt] [data-answer]")
        return entered(hand, "answered", before, fill=True)
    chips = page.locator("#turn-tracker [data-pick]")
    to_act = [
        str(chips.nth(i).get_attribute("data-pick"))
        for i in range(chips.count())
        if str(chips.nth(i).get_attribute("title")).endswith(": to act")
    ]
    for fid in (f for f in to_act if f not in skipped):
        hand.pick(fid)
        expect(figure(hand.app, fid)).to_have_class(re.compile(r"\bselected\b"))
        if suggested(hand, fid):
            return entered(hand, f"{fid} as suggested", before)
        skipped.add(fid)  # Suggest says it should do nothing more this step
    step = page.locator('#turn-tracker [data-action="next_step"]')
    assert step.count(), f"nobody can act and there is no step button ({sorted(skipped)})"
    rolls = step.get_attribute("data-rolls") == "true"
    hand.press('#turn-tracker [data-action="next_step"]')
    skipped.clear()
    if rolls:  # finishing the step rolls: its card shows the odds, then Roll
        return entered(hand, "next step", before)
    expect(page.locator("#log > li")).not_to_have_count(before)
    return "next step"


def played_on(app: App, way: str, label: str) -> list[str]:
    """Play the open fight to its end by ``way``; what was done (``label`` names the
    screenshots)."""
    page = app.page
    line = page.locator("#turn-line .turn-text")
    done: list[str] = []
    skipped: set[str] = set()
    hand = Hand(app, way)
    while line.get_attribute("data-over") != "true":
        assert len(done) < ACTIONS, f"no end after {ACTIONS} actions: {done[-12:]}"
        try:
            done.append(one_action(hand, skipped))
        except AssertionError as exc:
            app.screenshot(f"{label}-stuck")
            raise AssertionError(f"stuck after {done[-8:]}: {exc}") from exc
    expect(page.locator("#panel-body [data-outcome]")).to_be_visible()
    expect(page.locator("#action-error")).to_have_count(0)
    assert any(d.endswith("as suggested") for d in done), done
    app.screenshot(f"{label}-end")
    return done


@pytest.mark.parametrize("ruleset_id", list(FIGHTS))
def test_a_fight_from_scratch_played_to_its_end_by_taps_on_a_phone(
    phone: App, ruleset_id: str
) -> None:
    import_encounter(phone, built(FIGHTS[ruleset_id]).renamed(f"By taps: {ruleset_id}"))
    wait_toast_gone(phone)
    played_on(phone, "taps", f"by-taps-{ruleset_id}")
