"""A tap on the board is answered in the frame it lands in: the tapped figure's token is
lifted and painted first, its panel drawn in a task after that paint; a tap on the panel
before it is redrawn (it still shows the figure selected before) only redraws it. A tap on
Library paints the dialog saying the library opens, then the panel is drawn; a dialog closed
before that stays closed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .appdriver import figure, import_encounter, press, start_app
from .test_play import skirmish_duel

pytestmark = pytest.mark.browser

LIFTED = re.compile(r"\bselected\b")

RECORD_FRAMES = """([fid, name]) => {
  const frames = [];
  window.__frames = frames;
  const look = () => {
    const token = document.querySelector(`#board [data-figure="${fid}"]`);
    const heading = document.querySelector("#panel-body h2");
    frames.push([
      Boolean(token && token.classList.contains("selected")),
      Boolean(heading && heading.textContent.includes(name)),
    ]);
    if (frames.length < 2000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
"""Record, in each frame before it is painted, whether ``fid``'s token is lifted and whether
the panel shows ``name`` (a figure's panel is headed by its name)."""


def test_a_tapped_token_is_painted_lifted_before_its_panel_is_drawn(
    browser: Browser, base_url: str
) -> None:
    app = start_app(browser, base_url, "tablet-touch")
    try:
        import_encounter(app, skirmish_duel())
        app.page.evaluate(RECORD_FRAMES, ["ash", "Ash the Warden"])
        press(app, figure(app, "ash"))
        heading = app.page.locator("#panel-body h2")
        expect(heading).to_contain_text("Ash the Warden")
        expect(figure(app, "ash")).to_have_class(LIFTED)
        app.page.wait_for_timeout(100)  # a frame or two more are recorded
        frames = [tuple(f) for f in app.page.evaluate("window.__frames")]
        lifted = frames.index((True, False))  # a frame painted with the token lifted alone
        assert (True, True) in frames[lifted:], frames
        assert (False, True) not in frames, frames  # never the panel before the token
    finally:
        app.page.context.close()


def test_a_tap_on_the_panel_before_it_is_redrawn_only_redraws_it(
    browser: Browser, base_url: str
) -> None:
    """A pointer's tap on Ash's token and a click on the panel's "Finish" button in the same
    task (before any frame): the click lands on the overview shown before the tap, so it is
    not taken; the panel is Ash's at once, and the step has not moved."""
    app = start_app(browser, base_url, "desktop")
    try:
        import_encounter(app, skirmish_duel())
        step = app.page.locator("#turn-line").inner_text()
        finish = app.page.locator('#panel-body [data-cmd="next-step"]')
        expect(finish).to_have_count(1)
        shown = app.page.evaluate(
            """() => {
              const token = document.querySelector('#board [data-figure="ash"]');
              const box = token.getBoundingClientRect();
              const at = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2,
                pointerId: 1, pointerType: "mouse", isPrimary: true, button: 0, buttons: 1,
                bubbles: true, cancelable: true, composed: true };
              token.dispatchEvent(new PointerEvent("pointerdown", at));
              token.dispatchEvent(new PointerEvent("pointerup", { ...at, buttons: 0 }));
              const before = document.querySelector("#panel-body h2").textContent;
              document.querySelector('#panel-body [data-cmd="next-step"]').click();
              return [before, document.querySelector("#panel-body h2").textContent];
            }"""
        )
        assert "Ash the Warden" not in shown[0]  # the tap left the panel for after its paint
        assert "Ash the Warden" in shown[1]  # the click on the old panel redrew it at once
        expect(figure(app, "ash")).to_have_class(LIFTED)
        assert app.page.locator("#turn-line").inner_text() == step
        assert app.page.evaluate("document.documentElement.dataset.waiting") == ""
    finally:
        app.page.context.close()


RECORD_LIBRARY = """() => {
  const frames = [];
  window.__frames = frames;
  const look = () => {
    const dialog = document.querySelector("#dialog");
    frames.push([
      dialog.open,
      Boolean(dialog.querySelector(".hc-lib-opening")),
      Boolean(dialog.querySelector("[data-library]")),
    ]);
    if (frames.length < 2000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
"""Record, in each frame before it is painted, whether the dialog is open, says the library is
opening, and holds the library panel."""


def test_a_tap_on_library_paints_the_dialog_opening_before_the_panel_is_drawn(
    browser: Browser, base_url: str
) -> None:
    app = start_app(browser, base_url, "tablet-touch")
    try:
        press(app, "#menu-button")
        app.page.evaluate(RECORD_LIBRARY)
        press(app, '#menu [data-cmd="library"]')
        expect(app.page.locator("[data-library]")).to_be_visible()
        app.page.wait_for_timeout(100)
        frames = [tuple(f) for f in app.page.evaluate("window.__frames")]
        opening = frames.index((True, True, False))  # painted open, saying so, no panel yet
        assert frames[-1] == (True, False, True), frames[opening:]
    finally:
        app.page.context.close()


def test_a_library_closed_before_its_panel_is_drawn_stays_closed(
    browser: Browser, base_url: str
) -> None:
    app = start_app(browser, base_url, "desktop")
    try:
        app.page.locator("#menu-button").click()
        app.page.evaluate(
            """() => {
              document.querySelector('#menu [data-cmd="library"]').click();
              document.querySelector('#dialog [data-cmd="close-dialog"]').click();
            }"""
        )
        app.page.wait_for_timeout(1500)
        expect(app.page.locator("#dialog")).not_to_have_attribute("open", "")
        expect(app.page.locator("[data-library]")).to_have_count(0)
        press(app, "#menu-button")
        press(app, '#menu [data-cmd="library"]')
        expect(app.page.locator("[data-library]")).to_be_visible()
    finally:
        app.page.context.close()
