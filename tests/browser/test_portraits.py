"""A figure's portrait on its token: chosen in set-up's figure editor on a tablet, drawn inside
the token's ring with its side's ring and facing wedge whole, kept over a reload, removed
again; the editor with a portrait passes axe-core."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from factories import skirmish_duel
from map_pictures import png_file
from playwright.sync_api import Browser, Page, expect

from hexcombat.figures import Portrait
from hexcombat.map_picture import digest_of

from .appdriver import (
    axe_problems,
    figure,
    import_encounter,
    menu,
    press,
    set_mode,
    started_app_fixture,
    stored_document,
)
from .conftest import READY_TIMEOUT_MS, App

pytestmark = pytest.mark.browser

GREEN = (40, 170, 60)
"""The portrait's colour: neither side's, nor the token's face."""
WIDTH, HEIGHT = 600, 400
"""The chosen file's size: larger than a portrait is kept (256 px on its short side)."""


def portrait_file() -> bytes:
    """A green picture with a white corner (so it is a picture, not one flat colour)."""
    rows = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            rows.append(bytes((255, 255, 255, 255)) if x < 20 and y < 20 else bytes((*GREEN, 255)))
    return png_file(WIDTH, HEIGHT, b"".join(rows))


@pytest.fixture(scope="module", params=["tablet-touch"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app on a tablet used with fingers, started once for this module."""
    yield from started_app_fixture(request, browser, base_url)


def colours(page: Page, points: list[tuple[float, float]]) -> list[tuple[int, int, int]]:
    """The colours the screen shows at ``points`` (CSS pixels), read from a screenshot."""
    shot = base64.b64encode(page.screenshot()).decode()
    found: list[list[int]] = page.evaluate(
        """async ([shot, points, ratio]) => {
          const bytes = Uint8Array.from(atob(shot), c => c.charCodeAt(0));
          const image = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
          const canvas = document.createElement("canvas");
          canvas.width = image.width; canvas.height = image.height;
          const context = canvas.getContext("2d");
          context.drawImage(image, 0, 0);
          return points.map(([x, y]) =>
            Array.from(context.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1)
              .data.slice(0, 3)));
        }""",
        [shot, points, page.evaluate("devicePixelRatio")],
    )
    return [(c[0], c[1], c[2]) for c in found]


def token_points(page: Page, fid: str) -> dict[str, Any]:
    """Figure ``fid``'s token on the screen: its centre, a point on its ring away from the
    wedge, a point of the wedge outside the ring, and its side's colour."""
    return dict(
        page.evaluate(
            """fid => {
              const token = document.querySelector(`#board [data-figure="${fid}"]`);
              const ring = token.querySelector(".ring");
              const wedge = token.querySelector(".wedge path:not(.front)");
              const at = (el, x, y) => {
                const p = new DOMPoint(x, y).matrixTransform(el.getScreenCTM());
                return [p.x, p.y];
              };
              const r = ring.r.baseVal.value;
              const tip = wedge.getPointAtLength(0);
              const angle = Math.atan2(tip.y, tip.x);
              return {
                centre: at(ring, r * 0.3, r * 0.3),
                ring: at(ring, -r * Math.cos(angle), -r * Math.sin(angle)),
                wedge: at(wedge, tip.x * 0.85, tip.y * 0.85),
                side: ring.getAttribute("stroke"),
              };
            }""",
            fid,
        )
    )


def near(found: tuple[int, int, int], wanted: tuple[int, int, int], within: int = 48) -> bool:
    return all(abs(a - b) <= within for a, b in zip(found, wanted, strict=True))


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def choose_portrait(app: App, data: bytes) -> None:
    """Tap Choose a portrait in the open figure editor and give it the file."""
    page = app.page
    with page.expect_file_chooser() as chooser:
        press(app, '[data-cmd="portrait-choose"]')
    chooser.value.set_files(files=[{"name": "ann.png", "mimeType": "image/png", "buffer": data}])


def test_a_portrait_chosen_on_a_tablet_is_on_the_token_within_its_ring_after_a_reload(
    ui: App,
) -> None:
    page = ui.page
    import_encounter(ui, skirmish_duel().renamed("Portrait duel"))
    set_mode(ui, "edit")
    press(ui, figure(ui, "ann"))
    expect(page.locator('[data-portrait-now="none"]')).to_be_visible()
    choose_portrait(ui, portrait_file())
    expect(page.locator("#toast")).to_contain_text("Ann Archer's portrait is ann.png")
    image = figure(ui, "ann").locator("image.portrait")
    expect(image).to_have_attribute("data-portrait", "shown")
    assert (image.get_attribute("href") or "").startswith("blob:")
    expect(figure(ui, "ann").locator(".initials")).to_be_hidden()
    expect(figure(ui, "bo").locator("image.portrait")).to_have_count(0)  # Bo keeps initials
    expect(page.locator("#panel-body img.portrait-preview")).to_have_attribute(
        "src", re.compile("^blob:")
    )
    chip = page.locator("#panel-body .chip-token img.chip-portrait")  # the editor's heading
    expect(chip).to_have_attribute("src", re.compile("^blob:"))

    named = page.locator("#panel-body img.portrait-preview").get_attribute("data-portrait-preview")
    saved = next(f for f in stored_document(ui)["figures"] if f["id"] == "ann")
    assert saved["portrait"] == {"digest": named, "type": "image/png"}  # by digest only

    drawn(ui)
    assert axe_problems(page) == []
    ui.screenshot("portrait-editor")
    kept = exported_portrait(ui)
    assert digest_of(kept) == named
    assert png_size(kept) == (384, 256)  # drawn smaller: 256 px on its short side

    page.reload()
    page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
    expect(page.locator("#enc-name")).to_have_text("Portrait duel")
    image = figure(ui, "ann").locator("image.portrait")
    expect(image).to_have_attribute("data-portrait", "shown")
    expect(image).to_have_attribute("data-digest", named)
    drawn(ui)

    set_mode(ui, "edit")
    press(ui, figure(ui, "ann"))
    press(ui, '[data-cmd="portrait-remove"]')
    expect(page.locator("#toast")).to_contain_text("Ann Archer's portrait removed")
    expect(figure(ui, "ann").locator("image.portrait")).to_have_count(0)
    expect(figure(ui, "ann").locator(".initials")).to_be_visible()


def exported_portrait(app: App) -> bytes:
    """The bytes of Ann's portrait in the board's SVG export (Bo's token keeps initials)."""
    page = app.page
    with page.expect_download() as download:
        menu(app, "share")
        press(app, '[data-cmd="export-svg"]')
    press(app, '#dialog [data-cmd="close-dialog"]')
    path = download.value.path()
    assert path is not None
    svg = Path(path).read_text(encoding="utf-8")
    found = re.findall(r'<image class="portrait" href="data:image/png;base64,([^"]+)"', svg)
    assert len(found) == 1 and ">BB</text>" in svg
    return base64.b64decode(found[0])


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG file's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def drawn(app: App) -> None:
    """Ann's token on the screen: the portrait's green inside, her side's colour on the ring
    and on the facing wedge beyond it."""
    page = app.page
    page.wait_for_function(
        "() => document.querySelector('#board [data-figure=\"ann\"] image.portrait')"
        ".getBoundingClientRect().width > 0"
    )
    page.wait_for_timeout(400)  # the token's move and turn transitions settle
    points = token_points(page, "ann")
    centre, ring, wedge = colours(page, [points["centre"], points["ring"], points["wedge"]])
    side = rgb(points["side"])
    assert near(centre, GREEN), centre
    assert near(ring, side), (ring, side)
    assert near(wedge, side), (wedge, side)


def test_a_figure_whose_portrait_is_not_in_this_browser_keeps_its_initials(ui: App) -> None:
    page = ui.page
    elsewhere = Portrait(digest_of(b"a portrait kept on another device"), "image/png")
    enc = skirmish_duel().renamed("Portrait elsewhere")
    enc = enc.with_figure(replace(enc.setup_figure("bo"), portrait=elsewhere))
    import_encounter(ui, enc)
    image = figure(ui, "bo").locator("image.portrait")
    expect(image).to_have_attribute("data-portrait", "missing")
    assert image.get_attribute("href") is None
    expect(figure(ui, "bo").locator(".initials")).to_be_visible()
    expect(figure(ui, "bo").locator(".initials")).to_have_text("BB")
    set_mode(ui, "edit")
    press(ui, figure(ui, "bo"))
    expect(page.locator("[data-portrait-missing]")).to_contain_text("does not hold the portrait")
    assert axe_problems(page) == []
