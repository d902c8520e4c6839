"""Drive the whole app through its page: one started page per module and viewport, taps or
clicks as the viewport's input, and helpers for the menu, the library and the board.

Starting Python takes seconds, so the board, editor and play tests share a started page per
module and viewport (``started_app``); each test opens its own encounter through the app's
own UI (new encounter, import) instead of reloading. Every request that is not local is
aborted and fails the module at teardown, as in ``conftest.App``.
"""

from __future__ import annotations

import json
import re
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from hexcombat import Encounter, dumps
from web import site_server

from .conftest import READY_TIMEOUT_MS, ROOT, VIEWPORTS, App, new_app

TOUCH = {"tablet-portrait", "tablet-landscape", "phone", "tablet-touch"}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "service_workers": "block",
}
"""A phone in portrait (not one of the shared fixture's viewports: one start, one test)."""
TABLET_TOUCH: dict[str, Any] = {
    "viewport": {"width": 820, "height": 1180},
    "has_touch": True,
    "is_mobile": True,
    "service_workers": "block",
}
"""A small tablet in portrait, used with fingers."""
SIZES = {"phone": PHONE, "tablet-touch": TABLET_TOUCH}


SETTLED = "!document.documentElement.dataset.waiting"
"""True once the page has done what a change left for later tasks (the log, the save)."""


def start_app(browser: Browser, base_url: str, viewport: str) -> App:
    """A fresh context and page at ``viewport`` with the app started (data-app-state=ready).

    Chromium's renderer crashed once while a page started (in about 2,000 starts of this
    session's full runs; the page had not run anything of the app's yet): such a start is
    made again once in a fresh context, with a warning in the test report."""
    options = SIZES.get(viewport) or VIEWPORTS[viewport]
    for attempt in (1, 2):
        app = new_app(browser, base_url, viewport, options)
        app.page.set_default_timeout(20_000)
        app.open()
        try:
            app.wait_ready(READY_TIMEOUT_MS)
            return app
        except PlaywrightError as exc:
            if "Target crashed" not in str(exc) or attempt == 2:
                raise
            app.page.context.close()
            warnings.warn(
                f"Chromium's renderer crashed while the app started at {viewport}; "
                "started again in a fresh context",
                stacklevel=2,
            )
    raise AssertionError("unreachable")


def started_app_fixture(
    request: pytest.FixtureRequest, browser: Browser, base_url: str
) -> Iterator[App]:
    """Body of a module-scoped fixture: one started app per viewport param."""
    app = start_app(browser, base_url, str(request.param))
    yield app
    close_started(app)


def module_app(viewport: str) -> Any:
    """A module-scoped fixture: one app started at ``viewport`` for all the module's tests
    (``desktop = module_app("desktop")``)."""

    @pytest.fixture(scope="module")
    def started(browser: Browser, base_url: str) -> Iterator[App]:
        app = start_app(browser, base_url, viewport)
        yield app
        close_started(app)

    return started


def close_started(app: App) -> None:
    """Close a shared started app; fail if it made a non-local request or had page errors."""
    errors = [
        # with the line before it: what the page was doing
        " <- ".join(app.console[max(0, i - 1) : i + 1][::-1])
        for i, line in enumerate(app.console)
        if line.startswith("pageerror") or (line.startswith("error") and "Traceback" in line)
    ]
    app.page.context.close()
    assert app.blocked == [], f"the page made non-local requests: {app.blocked}"
    assert errors == [], f"errors in the page (uncaught, or caught and shown): {errors}"


def throttled(app: App, rate: int) -> None:
    """Slow the page's CPU ``rate`` times (the DevTools protocol), as a slow tablet."""
    if rate > 1:
        cdp = app.page.context.new_cdp_session(app.page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})


def touch(app: App) -> bool:
    """True when the viewport is a touch tablet (tests tap instead of clicking)."""
    return app.viewport in TOUCH


def press(app: App, target: Locator | str) -> None:
    """Tap (touch viewports) or click (desktop) an element."""
    locator = app.page.locator(target) if isinstance(target, str) else target
    if touch(app):
        locator.tap()
    else:
        locator.click()


def menu(app: App, command: str) -> None:
    """Choose a command from the top bar's menu (the library's, once its panel is drawn: a
    task after the tap's paint)."""
    press(app, "#menu-button")
    press(app, f'#menu [data-cmd="{command}"]')
    if command in ("library", "new", "import"):
        app.page.locator("[data-library]").wait_for()


def new_encounter(app: App, name: str, ruleset_id: str, width: int, height: int) -> None:
    """Create an encounter through the library's new-encounter form (it opens in set-up)."""
    menu(app, "new")
    page = app.page
    page.locator('[data-lib="create"]').wait_for()
    page.fill('[data-field="name"] input', name)
    select = page.locator('[data-field="ruleset"] select')
    labels = select.locator("option").all_inner_texts()
    names = [r["name"] for r in ruleset_ids()]
    wanted = names[[r["id"] for r in ruleset_ids()].index(ruleset_id)]
    select.select_option(str(next(i for i, t in enumerate(labels) if t.startswith(wanted))))
    page.fill('[data-field="width"] input', str(width))
    page.fill('[data-field="height"] input', str(height))
    press(app, '[data-lib="create"]')
    expect(page.locator("#enc-name")).to_have_text(name)
    expect(page.locator("[data-hex]")).to_have_count(width * height)


def ruleset_ids() -> list[dict[str, Any]]:
    """Id and name of every registered ruleset."""
    from hexcombat.view import rulesets_view

    return [{"id": r["id"], "name": r["name"]} for r in rulesets_view()]


def import_encounter(app: App, enc: Encounter) -> None:
    """Open ``enc`` in the app through the library's import (as a player loading a file)."""
    menu(app, "library")
    page = app.page
    page.locator("[data-library]").wait_for()
    page.set_input_files(
        '[data-library] input[type="file"]',
        files=[
            {
                "name": "encounter.json",
                "mimeType": "application/json",
                "buffer": dumps(enc).encode(),
            }
        ],
    )
    press(app, '[data-lib="toast-action"]')
    # a name already in the library gets " (2)"
    named = re.compile("^" + re.escape(enc.setup.name) + r"( \(\d+\))?$")
    expect(page.locator("#enc-name")).to_have_text(named)
    expect(page.locator("#dialog")).not_to_have_attribute("open", "")


def set_mode(app: App, mode: str) -> None:
    """Switch to set-up ("edit") or play mode with the top bar's switch."""
    press(app, f'#mode-switch [data-mode="{mode}"]')
    expect(app.page.locator("html")).to_have_attribute("data-mode", mode)


def hex_at(app: App, key: str) -> Locator:
    """The board hex ``key``."""
    return app.page.locator(f'#board [data-hex="{key}"]')


def figure(app: App, fid: str) -> Locator:
    """The token of figure ``fid``."""
    return app.page.locator(f'#board [data-figure="{fid}"]')


def highlighted(app: App, reason: str) -> list[str]:
    """The hexes whose data-highlight includes ``reason``, as "q,r" (once the page has drawn
    what a selection marks)."""
    app.page.wait_for_function(SETTLED)
    return list(
        app.page.eval_on_selector_all(
            f'#board [data-highlight~="{reason}"]', "els => els.map(e => e.dataset.hex)"
        )
    )


def terrains(app: App) -> dict[str, str]:
    """Every drawn hex's terrain id."""
    return dict(
        app.page.eval_on_selector_all(
            "#board [data-hex]", "els => els.map(e => [e.dataset.hex, e.dataset.terrain])"
        )
    )


def timings(app: App) -> dict[str, float]:
    """The app's own timings of its last redraw (view, board, total, save, start; ms)."""
    return dict(json.loads(app.page.evaluate("hexcombatApp()")))


def wait_toast_gone(app: App) -> None:
    """Let the message box fade (it never blocks the board, but screenshots read better)."""
    app.page.evaluate("document.getElementById('toast').hidden = true")
    time.sleep(0.05)


# ---- the keyboard alone -------------------------------------------------------------------
TAB_LIMIT = 300
"""More Tab presses than the page has stops: a control never reached is not reachable."""


def focused(page: Page, selector: str) -> bool:
    """True when the focused element matches ``selector``."""
    return bool(
        page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        )
    )


def tab_to(page: Page, selector: str) -> bool:
    """Press Tab until the focused element matches ``selector`` (False if it never does)."""
    for _ in range(TAB_LIMIT):
        if focused(page, selector):
            return True
        page.keyboard.press("Tab")
    return False


def press_key_on(page: Page, selector: str, key: str = "Enter") -> None:
    """Tab to the element matching ``selector`` and press ``key`` there (no click, no focus())."""
    assert tab_to(page, selector), f"Tab never reaches {selector}"
    page.keyboard.press(key)


# ---- accessibility and layout ---------------------------------------------------------------
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
"""Axe-core, the pinned dev dependency of web/package.json: its source is evaluated in the
page through Playwright (the page's Content-Security-Policy is not involved), never shipped."""
BLOCKING = {"serious", "critical"}


def axe_problems(page: Page) -> list[str]:
    """Axe-core's serious and critical violations on the page (label-content-name-mismatch,
    experimental in axe, is run too), one line each with a few of the nodes."""
    assert AXE.is_file(), "axe-core is missing: cd web && npm install (a pinned dev dependency)"
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    found: list[dict[str, Any]] = page.evaluate(
        "axe.run(document, {resultTypes: ['violations'], rules: "
        "{'label-content-name-mismatch': {enabled: true}}}).then(r => r.violations.map(v => "
        "({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))"
    )
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found if v["impact"] in BLOCKING]


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


# ---- playing ------------------------------------------------------------------------------
def log_texts(app: App) -> list[str]:
    """The combat log's entries, oldest first."""
    app.page.wait_for_function(SETTLED)
    return [t.strip() for t in app.page.locator("#log > li .text").all_text_contents()]


def select(app: App, fid: str) -> None:
    """Select a figure with its chip in the turn tracker (a tap on the board could target it);
    where the tracker shows no chips (a phone), with a tap on its token if it is in sight,
    else from the panel's list of figures."""
    token = figure(app, fid)
    if "selected" not in (token.get_attribute("class") or "").split():
        chip = app.page.locator(f'#turn-tracker [data-pick="{fid}"]')
        if chip.is_visible():
            press(app, chip)
        elif in_sight(token):
            press(app, token)
        else:
            if app.page.locator('#panel-body [data-cmd="deselect"]').count():
                press(app, app.page.locator('#panel-body [data-cmd="deselect"]').first)
            press(app, f'#panel-body [data-cmd="pick"][data-pick="{fid}"]')
    expect(token).to_have_class(re.compile(r"\bselected\b"))
    app.page.wait_for_function(SETTLED)  # the lifted token is painted before its panel and marks


def open_action(app: App, kind: str) -> None:
    """Open the selected figure's action card ``kind``."""
    card = app.page.locator(f'#panel-body [data-action="{kind}"]')
    if card.get_attribute("data-expanded") != "true":
        press(app, card.locator(".action-head"))
    expect(card).to_have_attribute("data-expanded", "true")


def choose(app: App, field: str, label: str) -> None:
    """Pick the option of the open form's select whose text starts with ``label``."""
    select_ = app.page.locator(f'#action-form [data-field="{field}"] select')
    labels = select_.locator("option").all_text_contents()
    # a dependent choice may be listed once per case of its ``when``; only one is enabled
    enabled = select_.locator("option").evaluate_all("os => os.map(o => !o.disabled)")
    index = next(i for i, t in enumerate(labels) if t.startswith(label) and enabled[i])
    select_.select_option(index=index)


def type_faces(app: App, faces: list[int]) -> None:
    """Type the dice's faces into the roll preview and use them."""
    inputs = app.page.locator("#preview .dice-row input")
    expect(inputs.nth(len(faces) - 1)).to_be_visible()
    for i, face in enumerate(faces):
        inputs.nth(i).fill(str(face))
    press(app, '#preview [data-cmd="use-faces"]')


STEP_CARD = '#panel-body [data-action="next_step"][data-expanded="true"]'
"""The step's card, opened by the step button when finishing the step rolls dice."""


def next_step(app: App, label: str) -> None:
    """Press the table's button that finishes the step (its text contains ``label``); when
    that opens the step's card (the step rolls dice), roll with the app's dice."""
    page = app.page
    button = page.locator('#turn-tracker [data-action="next_step"]')
    expect(button).to_contain_text(label)
    rolls = button.get_attribute("data-rolls") == "true"
    press(app, button)
    if rolls:
        expect(page.locator(STEP_CARD)).to_be_visible()
        press(app, page.locator(MAIN_BUTTON).first)


# ---- carrying out a logged action as a player would ----------------------------------------
MAIN_BUTTON = '[data-commit-bar] [data-cmd="commit"], [data-commit-bar] [data-cmd="roll"]'
"""The open card's primary button: commit, or roll for an action that rolls dice."""


def stored_document(app: App) -> dict[str, Any]:
    """The open encounter's document as the page saved it (read with the library's own code)."""
    app.page.wait_for_function(SETTLED)
    return read_stored(app.page.evaluate("Object.fromEntries(Object.entries(localStorage))"))


def read_stored(items: dict[str, str]) -> dict[str, Any]:
    """The document of the encounter opened last, read from a page's localStorage ``items``
    with the library's own code."""
    from web.library.storage import Library, MemoryStore

    text = Library(MemoryStore(dict(items))).export(items["hexcombat:last"])[1]
    return dict(json.loads(text))


def in_sight(target: Locator) -> bool:
    """True when a tap at the middle of ``target`` reaches it (inside the window, not under
    the sheet or another control)."""
    return bool(
        target.evaluate(
            "el => { const r = el.getBoundingClientRect(); const x = r.x + r.width / 2,"
            " y = r.y + r.height / 2; if (x < 0 || y < 0 || x > innerWidth || y > innerHeight)"
            " return false; const top = document.elementFromPoint(x, y);"
            " return !!top && (top === el || el.contains(top)); }"
        )
    )


def tap_board(app: App, target: Locator) -> None:
    """Tap a hex or a figure on the board, fitting the board to the screen first when it is
    out of sight (as a player would)."""
    if not in_sight(target):
        press(app, '[data-cmd="fit"]')
    if not in_sight(target):
        app.screenshot("unreachable-board-tap")
        raise AssertionError(f"{target.get_attribute('aria-label')} cannot be reached with a tap")
    press(app, target)


def fill_param(app: App, param: dict[str, Any], value: Any) -> None:
    """Give the open form's field ``param`` the value ``value`` through the field itself; a
    hex or a figure is picked by tapping the board, as the form asks."""
    page, name, kind = app.page, param["name"], param["type"]
    field = page.locator(f'#action-form [data-field="{name}"]')
    if kind == "hex":
        standing = app.page.locator(f'#board [data-figure][data-at="{value}"]')
        tap_board(app, standing.first if standing.count() else hex_at(app, str(value)))
        if not param.get("choices"):
            expect(field.locator("input")).to_have_value(str(value))
            return
        index = [c["value"] for c in param["choices"]].index(value)
        expect(field.locator("select")).to_have_value(str(index))
    elif kind in ("choice", "figure"):
        if kind == "figure" and in_sight(figure(app, str(value))):
            press(app, figure(app, str(value)))
        # a dependent choice may be described once per case of its ``when``; the list shows
        # the one offered with the values chosen so far
        wanted = next(
            str(i)
            for i, c in enumerate(param["choices"])
            if c["value"] == value and field.locator(f'select option[value="{i}"]').count()
        )
        if field.locator("select").input_value() != wanted:
            field.locator("select").select_option(value=wanted)
        expect(field.locator("select")).to_have_value(wanted)
    elif kind == "bool":
        box = field.locator('input[type="checkbox"]')
        if box.is_checked() != bool(value):
            press(app, box)
        expect(box).to_be_checked(checked=bool(value))
    elif kind == "facing":
        radio = field.locator(f'input[value="{value}"]')
        if not radio.is_checked():
            press(app, radio)
        expect(radio).to_be_checked()
    else:  # int, text, path
        text = " ".join(value) if isinstance(value, list) else str(value)
        field.locator("input").fill(text)


def roll_typed(app: App, faces: list[int]) -> None:
    """Type the dice's faces into the card's typed-dice fields and use them; a die asked for
    once the roll before it comes out gets its own field, filled in turn."""
    page = app.page
    inputs = page.locator("#preview .dice-row input")
    typed = 0
    for _ in range(len(faces) + 1):
        expect(inputs.first).to_be_visible()
        for i in range(typed, min(inputs.count(), len(faces))):
            inputs.nth(i).fill(str(faces[i]))
        typed = min(inputs.count(), len(faces))
        before = inputs.count()
        press(app, '#preview [data-cmd="use-faces"]')
        if not page.locator("#preview .dice-row").count() or inputs.count() == before:
            return
    raise AssertionError(f"the card kept asking for dice after {faces}")


def play_logged(app: App, spec: dict[str, Any], params: dict[str, Any], faces: list[int]) -> None:
    """Carry out one action through its open card: fill each logged parameter (in the form's
    order), then type the logged dice faces, or press the primary button."""
    page = app.page
    for param in spec["params"]:
        if param["name"] in params:
            fill_param(app, param, params[param["name"]])
    if faces and page.locator("#preview .dice-row").count():
        roll_typed(app, faces)
    else:
        press(app, page.locator(MAIN_BUTTON).first)


@contextmanager
def served(site: Path) -> Iterator[tuple[Any, str]]:
    """The built ``site`` served from a thread on a free port: the server (a test may shut
    it down to go offline) and its URL; closed afterwards."""
    server = site_server.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.server_close()
