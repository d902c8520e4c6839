"""Every ruleset's demo played to its end through the page, each demo at
one of the phone, small-tablet and desktop sizes in turn, as a player would: the demo opened
from the welcome card (it opens at its start; the demos of one size share a started page, so a
later one opens from the library's demos), then each logged action carried out through the
page: the acting figure selected, the action's card opened (or the prompt answered through its
answer card, or the table's step button pressed), each parameter filled through the form's own
fields (a hex or a figure tapped on the board), and the logged dice faces typed into the card's
typed-dice fields. The first action sets the rest of the worked example aside, so at the end
the saved document's log is the demo's log. A demo with no logged fight (skirmish's open
board) is played for three full rounds, each figure to act carrying out the first offered
action its form can complete.

At every change of step a screenshot a person can look through
(``test-artifacts/demo-<ruleset>-<size>-NN.png``, not committed). At each step the turn line is
whole, the top bar's buttons are whole and apart, and the polite live region has said what the
action did.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from hexcombat import Encounter
from hexcombat.document import from_document
from hexcombat.view import actions_view, encounter_view

from .appdriver import (
    MAIN_BUTTON,
    STEP_CARD,
    close_started,
    figure,
    hex_at,
    in_sight,
    menu,
    play_logged,
    press,
    roll_typed,
    select,
    start_app,
    stored_document,
    tap_board,
)
from .conftest import ARTIFACTS, ROOT, App

pytestmark = pytest.mark.browser

INDEX = json.loads((ROOT / "static" / "demos" / "index.json").read_text(encoding="utf-8"))
DEMOS: list[dict[str, Any]] = INDEX["demos"] if isinstance(INDEX, dict) else INDEX
MAX_ACTIONS = 80
"""A demo longer than this is played to its first 80 actions (every demo today is shorter)."""
TOP_BAR = ("#menu-button", "#mode-switch", '[data-action="next_step"]', "#undo-button")
TOP_BAR += ("#redo-button", "#log-button")
STEP = '#turn-tracker [data-action="next_step"]'


def demo_document(file: str) -> dict[str, Any]:
    return dict(json.loads((ROOT / "static" / "demos" / file).read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def started(browser: Browser, base_url: str) -> Iterator[Callable[[str], App]]:
    """The started page of a size, started when a test first needs it: the demos of one size
    are played on one page (one Python start per size, not per demo)."""
    apps: dict[str, App] = {}

    def at(size: str) -> App:
        if size not in apps:
            apps[size] = start_app(browser, base_url, size)
        return apps[size]

    yield at
    for app in apps.values():
        close_started(app)


def open_demo(app: App, file: str) -> None:
    """Open a demo at its start: from the first visit's welcome card while it is up (the
    first demo played at a size), else from the library's list of demos."""
    page = app.page
    card = page.locator("#welcome")
    other = card.locator(f'[data-cmd="welcome-demo"][data-file="{file}"]')
    if card.is_visible():
        press(app, other if other.count() else card.locator('[data-cmd="welcome-close"]').first)
    else:
        menu(app, "library")
        demos = page.locator('[data-library] details[data-slot="demos"]')
        expect(demos.locator(f'[data-demo="{file}"]')).to_have_count(1)
        if demos.get_attribute("open") is None:  # the list folds away once one has entries
            press(app, demos.locator("summary"))
        press(app, f'[data-library] [data-demo="{file}"] [data-lib="demo"]')
        expect(page.locator("#dialog")).not_to_have_attribute("open", "")
    expect(card).to_be_hidden()
    name = from_document(demo_document(file)).setup.name
    expect(page.locator("#enc-name")).to_have_text(name)
    expect(page.locator("#log-count")).to_have_text("0")  # the demo opens at its start


def log_size(page: Page) -> int:
    return page.locator("#log > li").count()


def carry_out(page_app: Any, enc: Encounter, entry: Any) -> dict[str, Any]:
    """One logged action through the page (``enc`` is the fight just before it); returns the
    defaults of its form's fields (the page may send one the log leaves out)."""
    action = entry.action
    faces = [d.value for r in entry.rolls for d in r.dice]
    if action.kind == "next_step":
        rolls = page_app.page.locator(STEP).get_attribute("data-rolls") == "true"
        press(page_app, STEP)
        if rolls:  # its card opens with the odds and the typed-dice fields
            expect(page_app.page.locator(STEP_CARD)).to_be_visible()
            roll_typed(page_app, faces)
        return {}
    prompt = encounter_view(enc)["prompt"]
    answer = page_app.page.locator(f'#panel-body [data-prompt] [data-answer="{action.kind}"]')
    if prompt is not None and prompt["figure"] == action.figure and answer.count():
        press(page_app, answer)
    else:
        select(page_app, str(action.figure))
        card = page_app.page.locator(f'#panel-body [data-action="{action.kind}"]')
        closed = card.locator("xpath=ancestor::details[not(@open)]")
        if closed.count():
            press(page_app, closed.locator("summary"))
        if card.get_attribute("data-expanded") != "true":
            press(page_app, card.locator(".action-head"))
        expect(card).to_have_attribute("data-expanded", "true")
    spec = next(s for s in actions_view(enc, action.figure) if s["kind"] == action.kind)
    play_logged(page_app, spec, dict(action.params), faces)
    return {p["name"]: p["default"] for p in spec["params"] if p.get("default") is not None}


def play_offered(app: Any, tried: set[tuple[str, str]]) -> bool:
    """Carry out the first offered action of a figure to act that its form can complete (the
    first entry of each list, the first reachable hex); False when nobody can act."""
    page = app.page
    chips = page.locator("#turn-tracker [data-pick]")
    to_act = [
        str(chips.nth(i).get_attribute("data-pick"))
        for i in range(chips.count())
        if str(chips.nth(i).get_attribute("title")).endswith(": to act")
    ]
    for fid in to_act:
        select(app, fid)
        kinds = page.locator('#panel-body [data-cmd="open-action"]').evaluate_all(
            "bs => bs.filter(b => !b.closest('details')).map(b => b.dataset.kind)"
        )
        for kind in kinds:
            if (fid, kind) in tried:
                continue
            tried.add((fid, kind))
            press(app, f'#panel-body [data-cmd="open-action"][data-kind="{kind}"]')
            for field in page.locator('#action-form [data-type="hex"]').all():
                reach = page.locator('#board [data-highlight~="reach"]').all()
                control = field.locator("select, input").first
                if control.input_value() or not reach or not in_sight(reach[-1]):
                    continue
                press(app, hex_at(app, str(reach[-1].get_attribute("data-hex"))))
            for sel in page.locator("#action-form select").all():
                if sel.input_value() == "" and sel.is_visible():
                    sel.select_option(index=1)
            if not page.locator(MAIN_BUTTON).count():
                continue
            before = log_size(page)
            press(app, page.locator(MAIN_BUTTON).first)
            if page.locator("#action-error").count():
                press(app, '[data-commit-bar] [data-cmd="close-action"]')
                continue
            expect(page.locator("#log > li")).not_to_have_count(before)
            return True
    return False


def saved(app: Any, played: int) -> dict[str, Any]:
    """The document the page saved once it holds ``played`` actions (autosave may lag)."""
    for _ in range(50):
        doc = stored_document(app)
        if doc.get("cursor") == played:
            return doc
        app.page.wait_for_timeout(100)
    raise AssertionError(f"the page never saved the fight at {played} actions")


def same_entry(mine: dict[str, Any], theirs: dict[str, Any], default: dict[str, Any]) -> None:
    """A played log entry is the demo's: the same action, a field the log leaves out sent at
    its form's default, and the same dice (every roll typed, the step button's too)."""
    action, logged = dict(mine["action"]), dict(theirs["action"])
    params, logged_params = action.pop("params", {}), logged.pop("params", {})
    assert action == logged
    assert params == {**{k: default.get(k) for k in params}, **logged_params}
    assert mine.get("rolls") == theirs.get("rolls")


SIZES = ("phone", "tablet-touch", "desktop")
PLAYED = [(demo, SIZES[i % len(SIZES)]) for i, demo in enumerate(DEMOS)]
"""Each demo at one size, the sizes taken in turn (a phone, a small tablet with fingers, a
desktop with a mouse), so every size plays a whole demo and every demo is played once; the
demos of one size are played on one started page."""


@pytest.mark.parametrize(
    ("demo", "size"), PLAYED, ids=[f"{d['ruleset']}-{size}" for d, size in PLAYED]
)
def test_each_demo_is_played_to_its_end_through_the_page(
    started: Callable[[str], App], demo: dict[str, Any], size: str
) -> None:
    app = started(size)
    page = app.page
    open_demo(app, demo["file"])
    document = demo_document(demo["file"])
    logged = from_document(document).log[:MAX_ACTIONS]
    enc = from_document({**document, "log": [], "cursor": 0})
    line = page.locator("#turn-line .turn-text")
    heard = page.locator("#log-announce")
    shots, last_step = 0, ""
    for old in ARTIFACTS.glob(f"demo-{demo['ruleset']}-{size}-*.png"):
        old.unlink()  # the pictures of this run only

    def look(final: bool) -> None:
        nonlocal shots, last_step
        step = str(line.text_content())
        if step == last_step and not final:
            return
        last_step = step
        shots += 1
        page.evaluate("document.getElementById('toast').hidden = true")
        page.screenshot(path=str(ARTIFACTS / f"demo-{demo['ruleset']}-{size}-{shots:02d}.png"))
        assert page.evaluate(
            "(() => { const t = document.querySelector('#turn-line .turn-text');"
            " return t.scrollWidth <= t.clientWidth + 1; })()"
        ), f"the turn line is cut off: {step}"
        boxes = [
            page.locator(f"#topbar {s}").first.bounding_box()
            for s in TOP_BAR
            if page.locator(f"#topbar {s}").first.is_visible()
        ]
        edges = sorted((b["x"], b["x"] + b["width"]) for b in boxes if b)
        overlapping = [(a, b) for a, b in itertools.pairwise(edges) if a[1] > b[0] + 0.5]
        assert overlapping == [], f"top-bar buttons overlap at {step}"

    look(False)
    defaults: list[dict[str, Any]] = []
    for done, entry in enumerate(logged, start=1):
        before = log_size(page)
        defaults.append(carry_out(app, enc, entry))
        expect(page.locator("#action-error")).to_have_count(0)
        expect(page.locator("#log > li")).not_to_have_count(before)
        expect(heard).not_to_be_empty()
        faces = [d.value for r in entry.rolls for d in r.dice]
        enc.perform(entry.action, faces or None)
        look(done == len(logged))
    if logged:
        expect(page.locator("#redo-button")).to_be_disabled()  # the example set aside
        played = saved(app, len(logged))
        assert len(played["log"]) == len(logged)
        demo_log = document["log"][: len(logged)]
        for i, (mine, theirs) in enumerate(zip(played["log"], demo_log, strict=True)):
            same_entry(mine, theirs, defaults[i])
        replayed = from_document(played)
        assert [e.text for e in replayed.events] == [e.text for e in enc.events]
    else:  # three full rounds, each figure doing the first thing its form can complete
        tried: set[tuple[str, str]] = set()
        acted = 0
        for _ in range(MAX_ACTIONS):
            if "Round 4" in str(line.text_content()):
                break
            if play_offered(app, tried):
                acted += 1
            else:
                press(app, STEP)
                tried.clear()
            expect(heard).not_to_be_empty()
            look(False)
        expect(line).to_contain_text("Round 4")
        kinds = [e["action"]["kind"] for e in stored_document(app)["log"]]
        assert len(kinds) - kinds.count("next_step") == acted >= 3, kinds
    assert shots >= 2


def test_a_tap_on_the_selected_figure_picks_its_own_hex_when_the_action_asks_for_one(
    started: Callable[[str], App],
) -> None:
    """To stay put (or only turn) a player taps the figure's own token: inside an open action
    whose hex field offers that hex, the tap picks it (it used to do nothing)."""
    demo = next(d for d in DEMOS if d["ruleset"] == "combat-speed-phase")
    app = started("tablet-touch")
    page = app.page
    open_demo(app, demo["file"])
    document = demo_document(demo["file"])
    enc = from_document({**document, "log": [], "cursor": 0})
    for entry in from_document(document).log[:3]:  # both declare, the step ends
        carry_out(app, enc, entry)
        enc.perform(entry.action)
    fid = "derek"
    spec = next(s for s in actions_view(enc, fid) if s["kind"] == "plan_half")
    select(app, fid)
    press(app, '#panel-body [data-action="plan_half"] .action-head')
    field = page.locator('#action-form [data-field="to"] select')
    expect(field).to_have_value("")
    tap_board(app, figure(app, fid))
    param = next(p for p in spec["params"] if p["name"] == "to")
    own = str(figure(app, fid).get_attribute("data-at"))
    assert own == str(enc.state.figure(fid).position)
    index = [c["value"] for c in param["choices"]].index(own)
    expect(field).to_have_value(str(index))
    expect(figure(app, fid)).to_have_class(re.compile(r"\bselected\b"))
