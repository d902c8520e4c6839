"""One full round of each ruleset's demo played with the keyboard alone:
Tab moves between controls, Enter presses them, arrow keys pick from a list, and nothing is
clicked or focused by the test itself. What a screen-reader user hears is checked after every
action: the polite live region ``#log-announce`` says exactly the new log entries' words.

The driver is generic (it names no ruleset): while a question is open it answers it; else it
takes the first figure the tracker says is to act, opens its actions in order and carries out
the first one whose form can be completed from the keyboard; when nobody is left to act it
presses the step button. The round is over when the outermost unit's counter reaches 2.
Every round is played on one started desktop page (each demo opened at its start).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from hexcombat.document import from_document

from .appdriver import press_key_on, started_app_fixture
from .conftest import ROOT, App

pytestmark = pytest.mark.browser

INDEX = json.loads((ROOT / "static" / "demos" / "index.json").read_text(encoding="utf-8"))
DEMOS: list[dict[str, Any]] = INDEX["demos"] if isinstance(INDEX, dict) else INDEX
MOVES_LIMIT = 60
MAIN_BUTTON = '[data-commit-bar] [data-cmd="commit"], [data-commit-bar] [data-cmd="roll"]'


def new_words(page: Page, before: int) -> str:
    """The words of the log entries added since the log had ``before`` entries."""
    texts = page.locator("#log > li .text").all_text_contents()
    return " ".join(t.strip() for t in texts[before:])


def log_size(page: Page) -> int:
    return page.locator("#log > li").count()


def heard_after(page: Page, before: int) -> None:
    """The live region says what the action just did, in the log's words."""
    expect(page.locator("#log > li")).not_to_have_count(before)
    said = " ".join(str(page.locator("#log-announce").text_content()).split())
    assert said == " ".join(new_words(page, before).split())


def complete_form(page: Page) -> bool:
    """Pick the first offered entry of every list left empty (a later list may depend on an
    earlier one); True when the card's main button is there."""
    for _ in range(8):
        empty = page.locator("#action-form select").evaluate_all(
            "ss => ss.map((s, i) => [i, s.value === '' && !s.closest('[hidden]')])"
        )
        todo = [i for i, is_empty in empty if is_empty]
        if not todo:
            break
        page.locator("#action-form select").nth(todo[0]).evaluate("s => s.dataset.kbd = 'next'")
        press_key_on(page, '#action-form select[data-kbd="next"]', "ArrowDown")
        page.locator('#action-form select[data-kbd="next"]').evaluate("s => delete s.dataset.kbd")
    return bool(page.locator(MAIN_BUTTON).count())


refused: list[str] = []
"""Why the engine refused a keyboard attempt (shown if the round gets stuck)."""


def act_once(page: Page, tried: set[tuple[str, str]]) -> str:
    """One keyboard action; returns what was done."""
    if page.locator("#panel-body [data-prompt]").count():
        before = log_size(page)
        press_key_on(page, "#panel-body [data-prompt] [data-answer]")
        if complete_form(page):
            press_key_on(page, MAIN_BUTTON)
        heard_after(page, before)
        return "answered"
    chips = page.locator("#turn-tracker [data-pick]")
    to_act = [
        str(chips.nth(i).get_attribute("data-pick"))
        for i in range(chips.count())
        if str(chips.nth(i).get_attribute("title")).endswith(": to act")
    ]
    for fid in to_act:
        press_key_on(page, f'#turn-tracker [data-pick="{fid}"]')
        expect(page.locator(f'#board [data-figure="{fid}"]')).to_have_class(
            re.compile(r"\bselected\b")
        )
        kinds = page.locator('#panel-body [data-cmd="open-action"]').evaluate_all(
            "bs => bs.filter(b => !b.closest('details')).map(b => b.dataset.kind)"
        )
        for kind in kinds:
            if (fid, kind) in tried:
                continue
            tried.add((fid, kind))
            press_key_on(page, f'#panel-body [data-cmd="open-action"][data-kind="{kind}"]')
            if not complete_form(page):
                continue
            before = log_size(page)
            press_key_on(page, MAIN_BUTTON)
            if page.locator("#action-error").count():
                refused.append(str(page.locator("#action-error").text_content()))
                continue
            heard_after(page, before)
            return f"{fid} {kind}"
    step = page.locator('#turn-tracker [data-action="next_step"]')
    assert step.count(), f"nobody can act and no step button ({sorted(tried)}: {refused})"
    before = log_size(page)
    rolls = step.get_attribute("data-rolls") == "true"
    press_key_on(page, '#turn-tracker [data-action="next_step"]')
    if rolls:  # finishing the step rolls dice: its card opens with the odds, then Roll
        expect(page.locator('#panel-body [data-action="next_step"] #preview')).to_be_visible()
        press_key_on(page, MAIN_BUTTON)
    heard_after(page, before)
    return "next step"


@pytest.fixture(scope="module", params=["desktop"])
def desk(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """One started desktop page for every round: the demo first opened from the welcome
    card, the others from the library, by keyboard too (one Python start, not five)."""
    yield from started_app_fixture(request, browser, base_url)


def open_demo(page: Page, demo: dict[str, Any]) -> None:
    """Open ``demo`` at its start by keyboard: from the first visit's welcome card while it is
    up, else from the library's list of demos (Menu, Library, the demo)."""
    card = page.locator("#welcome")
    other = f'#welcome [data-cmd="welcome-demo"][data-file="{demo["file"]}"]'
    if card.is_visible() and page.locator(other).count():
        press_key_on(page, other)
    elif card.is_visible():
        press_key_on(page, '#welcome [data-cmd="welcome-close"]:not([aria-label])')
    else:
        press_key_on(page, "#menu-button")
        press_key_on(page, '#menu [data-cmd="library"]')
        demos = page.locator('[data-library] details[data-slot="demos"]')
        expect(demos.locator(f'[data-demo="{demo["file"]}"]')).to_have_count(1)
        if demos.get_attribute("open") is None:  # the list folds away once one has entries
            press_key_on(page, '[data-library] details[data-slot="demos"] > summary')
        press_key_on(page, f'[data-library] [data-demo="{demo["file"]}"] [data-lib="demo"]')
        expect(page.locator("#dialog")).not_to_have_attribute("open", "")
    expect(card).to_be_hidden()
    text = (ROOT / "static" / "demos" / demo["file"]).read_text(encoding="utf-8")
    expect(page.locator("#enc-name")).to_have_text(from_document(json.loads(text)).setup.name)
    expect(page.locator("#log-count")).to_have_text("0")  # at its start


@pytest.mark.parametrize("demo", DEMOS, ids=[d["ruleset"] for d in DEMOS])
def test_a_full_round_by_keyboard_alone_is_heard_in_the_live_region(
    desk: App, demo: dict[str, Any]
) -> None:
    page = desk.page
    open_demo(page, demo)
    expect(page.locator("#log-announce")).to_have_attribute("aria-live", "polite")
    line = page.locator("#turn-line .turn-text")
    first = str(line.text_content()).split(" · ")[0]  # "Round 1", "Phase 1"
    unit = first.rsplit(" ", 1)[0]
    done: list[str] = []
    tried: set[tuple[str, str]] = set()
    refused.clear()
    while not str(line.text_content()).startswith(f"{unit} 2"):
        assert len(done) < MOVES_LIMIT, done
        done.append(act_once(page, tried))
        if done[-1] == "next step":
            tried.clear()
    assert "next step" in done
    desk.screenshot(f"keyboard-round-{demo['ruleset']}")
