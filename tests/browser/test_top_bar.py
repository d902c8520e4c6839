"""The top bar: at phone size, at every ruleset's longest clock label, Menu, the
mode switch, Next, Undo, Redo and Log all whole and inside the screen, none over another, and
the step button's card takes typed initiative dice; at tablet size every who-acts chip whole.

The longest labels come from the engine: each ruleset's demo set-up is played (the step
finished whenever it may be, else a seeded random offered action) into its tenth outermost
unit, so the numbers have two digits ("Phase 10 · Half-phase 2"); the state with the longest
clock label is opened in the page, once with the step button offered and once without (the
top bar's clock shows then).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from playouts import random_action
from playwright.sync_api import Browser, expect

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.document import from_document

from .appdriver import box, import_encounter, overlaps, press, roll_typed, start_app
from .conftest import ROOT, App

pytestmark = pytest.mark.browser

INDEX = json.loads((ROOT / "static" / "demos" / "index.json").read_text(encoding="utf-8"))
DEMOS: list[dict[str, Any]] = INDEX["demos"] if isinstance(INDEX, dict) else INDEX
TOP_BAR = ("#menu-button", "#mode-switch", '#turn-tracker [data-action="next_step"]')
TOP_BAR += ("#undo-button", "#redo-button", "#log-button")
UNITS = 10
"""Play into this outermost unit: two-digit numbers make the longest labels."""


def clock_text(enc: Encounter) -> str:
    """What the top bar's clock says: the units, then the step."""
    time = enc.ruleset.time
    return time.label(enc.state.clock)


def steps_offered(enc: Encounter) -> bool:
    return any(s.kind == "next_step" for s in enc.legal_actions(None))


def longest_clocks(file: str) -> dict[bool, Encounter]:
    """The demo's fight played into unit 10: by whether the step button is offered, a copy
    of the encounter at its longest clock label."""
    demo = from_document(json.loads((ROOT / "static" / "demos" / file).read_text("utf-8")))
    enc = Encounter(demo.setup)
    pick = random.Random(22).randrange
    best: dict[bool, tuple[int, int]] = {}
    for _ in range(4000):
        if enc.state.clock.counters[0] > UNITS or enc.ruleset.fight_outcome(enc.state) is not None:
            break
        offered = steps_offered(enc)
        size = len(clock_text(enc))
        if size > best.get(offered, (0, 0))[0]:
            best[offered] = (size, enc.cursor)
        action = Action("next_step") if offered else random_action(enc, pick)
        if action is None:
            break
        try:
            enc.perform(action)
        except HexcombatError:
            continue
    return {k: Encounter(enc.setup, enc.log[:at]) for k, (_size, at) in best.items()}


@pytest.fixture(scope="module")
def phone(browser: Browser, base_url: str) -> Iterator[App]:
    app = start_app(browser, base_url, "phone")
    app.page.locator('#welcome [data-cmd="welcome-close"]').first.click()
    yield app
    app.page.context.close()
    assert app.blocked == []


def assert_top_bar_whole(app: App, label: str) -> None:
    page = app.page
    width = (page.viewport_size or {"width": 0})["width"]
    shown = [s for s in TOP_BAR if page.locator(f"#topbar {s}").first.is_visible()]
    boxes = [box(page, f"#topbar {s}") for s in shown]
    bar = box(page, "#topbar")
    for name, b in zip(shown, boxes, strict=True):
        assert b["x"] >= -0.5 and b["x"] + b["width"] <= width + 0.5, f"{name} off screen: {label}"
        assert b["y"] >= bar["y"] - 0.5 and b["y"] + b["height"] <= bar["y"] + bar["height"] + 0.5
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            assert not overlaps(a, boxes[j]), f"{shown[i]} overlaps {shown[j]} at {label}"
    tracker = box(page, "#turn-tracker")
    if page.locator(f"#topbar {TOP_BAR[2]}").count():
        step = box(page, f"#topbar {TOP_BAR[2]}")
        assert tracker["x"] - 0.5 <= step["x"], f"Next is cut at {label}"
        assert step["x"] + step["width"] <= tracker["x"] + tracker["width"] + 0.5, label
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the screen at {label}"


@pytest.mark.parametrize("demo", DEMOS, ids=[d["ruleset"] for d in DEMOS])
def test_phone_top_bar_is_whole_at_the_longest_clock_label(
    phone: App, demo: dict[str, Any]
) -> None:
    found = longest_clocks(demo["file"])
    assert found, "the fight never started"
    for offered, enc in sorted(found.items()):
        label = clock_text(enc)
        import_encounter(phone, enc)
        page = phone.page
        expect(page.locator("#turn-line .turn-text")).to_contain_text(label.split(" · ")[0])
        step = page.locator(f"#topbar {TOP_BAR[2]}")
        expect(step).to_have_count(1 if offered else 0)
        expect(page.locator("#log-button")).to_contain_text("Log")
        phone.screenshot(f"phone-clock-{demo['ruleset']}-{'next' if offered else 'wait'}")
        assert_top_bar_whole(phone, label)


def test_finishing_the_initiative_step_on_a_phone_takes_typed_dice(phone: App) -> None:
    """Strike-chance-pulse's initiative is rolled by the step button: it opens the step's card
    with each figure's D10 and its odds (A-13), and the faces typed there are the ones logged."""
    demo = next(d for d in DEMOS if d["ruleset"] == "strike-chance-pulse")
    file = ROOT / "static" / "demos" / demo["file"]
    enc = Encounter(from_document(json.loads(file.read_text("utf-8"))).setup)
    import_encounter(phone, enc)
    page = phone.page
    step = page.locator(f"#topbar {TOP_BAR[2]}")
    expect(step).to_have_attribute("data-rolls", "true")
    press(phone, step)
    card = page.locator('#panel-body [data-action="next_step"][data-expanded="true"]')
    rolls = enc.preview(Action("next_step")).rollables
    for r in rolls:
        expect(card.locator("#preview")).to_contain_text(r.label)
    expect(card.locator("#preview")).to_contain_text("(A-13)")
    faces = [9, 4, 6, 1, 7, 2, 8, 3][: len(rolls)]
    phone.screenshot("phone-initiative-dice")
    roll_typed(phone, faces)
    expect(card).to_have_count(0)
    expected = enc.perform(Action("next_step"), faces)
    text = next(e.text for e in expected if e.kind == "initiative")
    expect(page.locator("#log")).to_contain_text(text)
    assert_top_bar_whole(phone, "after initiative")


def test_tablet_who_acts_chips_are_all_whole(browser: Browser, base_url: str) -> None:
    """At 820x1180 the chips wrap into two rows rather than being cut at the bar's edge; a
    chip is either whole in view or in a row scrolled below (never cut left or right)."""
    app = start_app(browser, base_url, "tablet-touch")
    try:
        page = app.page
        press(app, page.locator('#welcome [data-cmd="welcome-close"]').first)
        chips = page.locator("#turn-tracker .who button")
        expect(chips.first).to_be_visible()
        assert chips.count() >= 6, "the first-visit demo has six figures"
        who = page.evaluate(
            "(() => { const w = document.querySelector('#turn-tracker .who');"
            " const r = w.getBoundingClientRect(); return {x: r.x, y: r.y,"
            " w: w.clientWidth, h: w.clientHeight, sw: w.scrollWidth}; })()"
        )
        assert who["sw"] <= who["w"], "chips hidden sideways"
        rows = set()
        for i in range(chips.count()):
            c = chips.nth(i).bounding_box()
            assert c is not None
            assert who["x"] - 0.5 <= c["x"] and c["x"] + c["width"] <= who["x"] + who["w"] + 0.5
            bottom = who["y"] + who["h"]
            assert c["y"] + c["height"] <= bottom + 0.5 or c["y"] >= bottom - 0.5, f"chip {i} cut"
            rows.add(round(c["y"]))
        assert len(rows) >= 2, "six chips in one row: the bar had room, nothing was tested"
        app.screenshot("tablet-chips")
        assert_top_bar_whole(app, "tablet, six chips")
    finally:
        page.context.close()
    assert app.blocked == []
