"""The GM's map picture under the board: a fight whose picture is missing opens plain and says
so; a picture taken in set-up has its grid found, is dragged and aligned by two taps, painted
over, played on, and is all in place after an offline reload; a picture that would not fit is
refused before anything is written."""

from __future__ import annotations

import base64
import functools
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from factories import skirmish_duel
from map_pictures import MapCase, draw_rgba, png_file
from playwright.sync_api import Browser, Page, expect

from hexcombat.map_picture import MapPicture, digest_of
from hexcombat.view import PICTURE_LEFT_OUT, PICTURE_MISSING
from web.library.storage import Library, MemoryStore

from .appdriver import (
    hex_at,
    import_encounter,
    menu,
    press,
    select,
    served,
    set_mode,
    started_app_fixture,
)
from .conftest import NO_SNAPSHOT, READY_TIMEOUT_MS, VIEWPORTS, App, new_app

pytestmark = pytest.mark.browser

MAP = MapCase("flat", 60.0, (80.0, 20.0 + 30.0 * math.sqrt(3.0)), 790, 715, noise=2, seed=38)
"""An 8 by 6 board printed with hexes of 60 px, its first hex's centre at ``MAP.offset``."""


@functools.cache
def map_file() -> bytes:
    """The test map as the GM's PNG file."""
    return png_file(*draw_rgba(MAP))


@pytest.fixture(scope="module", params=["desktop", "tablet-touch"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


def test_a_fight_whose_picture_is_missing_opens_plain_and_says_so(ui: App) -> None:
    picture = MapPicture(digest_of(b"a map"), "image/png", 1200, 900, "flat", 60.0, (70.0, 55.0))
    enc = skirmish_duel().renamed("Over a missing map").with_setup(picture=picture)
    import_encounter(ui, enc)
    page = ui.page
    expect(page.locator("#toast")).to_contain_text(PICTURE_MISSING)
    expect(page.locator("#board-picture")).to_have_attribute("data-picture", "missing")
    expect(page.locator("#board")).not_to_have_attribute("data-map", "tint")
    expect(page.locator("#board [data-hex]")).to_have_count(8 * 6)
    expect(page.locator('#board [data-hex="3,1"]')).to_have_attribute("data-terrain", "woods")
    ui.screenshot("map-picture-missing")


SHELVE = """async ([digest, bytes]) => {
  const db = await new Promise((ok, bad) => {
    const r = indexedDB.open("hexcombat-pictures", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("pictures");
    r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error); });
  await new Promise((ok, bad) => {
    const tx = db.transaction("pictures", "readwrite");
    const pictures = tx.objectStore("pictures");
    if (bytes === null) pictures.delete(digest);
    else pictures.put(
      new Blob([Uint8Array.from(atob(bytes), c => c.charCodeAt(0))], {type: "image/png"}), digest);
    tx.oncomplete = ok; tx.onerror = () => bad(tx.error); });
  db.close();
}"""
"""Keep a picture file's bytes (base64) in the page's picture database under a digest
(null: remove what is there)."""


def test_a_stored_picture_whose_bytes_are_not_its_digest_is_not_kept_on_the_board(
    ui: App,
) -> None:
    digest = digest_of(b"a map whose record was damaged")
    page = ui.page
    page.evaluate(SHELVE, [digest, base64.b64encode(map_file()).decode()])
    picture = MapPicture(digest, "image/png", MAP.width, MAP.height, "flat", 60.0, MAP.offset)
    enc = skirmish_duel().renamed("Over a damaged map").with_setup(picture=picture)
    import_encounter(ui, enc)
    expect(page.locator("#toast")).to_contain_text(PICTURE_MISSING)
    expect(page.locator("#board-picture")).to_have_attribute("data-picture", "missing")
    expect(page.locator("#board-picture")).not_to_have_attribute("href", re.compile("."))
    expect(page.locator("#board")).not_to_have_attribute("data-map", "tint")
    page.evaluate(SHELVE, [digest, None])


WATCH_PICTURE_STORE = """(() => {
  const open = IDBFactory.prototype.open;
  window.__openedNow = false;
  window.__mapAsked = [];
  IDBFactory.prototype.open = function (name, ...rest) {
    if (name === "hexcombat-pictures" && window.__hexesWhenPicturesAsked === undefined)
      window.__hexesWhenPicturesAsked = document.querySelectorAll("#board [data-hex]").length;
    const request = open.call(this, name, ...rest);
    if (name === "hexcombat-pictures")  // the first of its success listeners
      request.addEventListener("success", () => {
        window.__openedNow = true;
        setTimeout(() => { window.__openedNow = false; }, 0);
      });
    return request;
  };
  new MutationObserver(() => {
    if (document.documentElement.dataset.appState === "ready" && !("__mapWhenReady" in window))
      window.__mapWhenReady = document.getElementById("board-picture").getAttribute("data-picture");
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-app-state"]});
  const get = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (key) {
    window.__mapAsked.push([String(key), window.__openedNow]);
    return get.call(this, key);
  };
})();"""
"""Init script: record how many of the board's hexes were drawn when the page first asked to
open the picture database, each record asked for with whether it was in the event that said
the database is open, and the board's picture when the page became ready."""


def test_a_fight_over_a_picture_opens_with_its_map_on_the_board_read_as_the_store_opens(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(NO_SNAPSHOT)
    try:
        page = context.new_page()
        page.goto(base_url)
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        page.evaluate(SHELVE, [digest_of(map_file()), base64.b64encode(map_file()).decode()])
        picture = MapPicture(
            digest_of(map_file()), "image/png", MAP.width, MAP.height, "flat", 60.0, MAP.offset
        )
        store = MemoryStore()
        library = Library(store)
        entry, _ = library.add(skirmish_duel().renamed("Over my map").with_setup(picture=picture))
        library.remember(entry.id)
        page.evaluate(
            "keys => { localStorage.clear(); for (const [k, v] of Object.entries(keys)) "
            "localStorage.setItem(k, v); }",
            store.data,
        )
        page.add_init_script(WATCH_PICTURE_STORE)
        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        expect(page.locator("#board-picture")).to_have_attribute(
            "data-picture", digest_of(map_file())
        )
        expect(page.locator("#board [data-hex]")).to_have_count(8 * 6)
        # the browser opens the store while the board is drawn, not after
        assert page.evaluate("window.__hexesWhenPicturesAsked") == 0
        # and the map's record is asked for in the event that says the store is open, in
        # time for the board to draw it with its first hexes
        assert page.evaluate("window.__mapAsked")[0] == [digest_of(map_file()), True]
        assert page.evaluate("window.__mapWhenReady") == digest_of(map_file())
    finally:
        context.close()


def alignment(page: Page) -> tuple[float, float, float]:
    """The open picture's hex size and offset, as the map picture tool shows them."""
    text = page.locator("[data-map-alignment]").get_attribute("data-map-alignment") or ""
    size, x, y, _ = text.split()
    return float(size), float(x), float(y)


def on_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where the picture's pixel ``x``, ``y`` is drawn on the screen."""
    return tuple(
        page.evaluate(
            "([x, y]) => { const p = new DOMPoint(x, y).matrixTransform("
            "document.getElementById('board-picture').getScreenCTM()); return [p.x, p.y]; }",
            [x, y],
        )
    )


def load_map(page: Page) -> None:
    """Choose the map picture tool and give it the test map's file."""
    page.locator('[data-cmd="tool"][data-tool="map"]').click()
    with page.expect_file_chooser() as chooser:
        page.locator('[data-cmd="map-choose"]').click()
    chooser.value.set_files(
        files=[{"name": "map.png", "mimeType": "image/png", "buffer": map_file()}]
    )
    expect(page.locator("#board-picture")).to_have_attribute("data-picture", digest_of(map_file()))


def test_a_map_picture_aligned_painted_and_played_is_in_place_after_an_offline_reload(
    browser: Browser, site: Path
) -> None:
    with served(site) as (server, url):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(NO_SNAPSHOT)
        try:
            played_offline(context.new_page(), url, server)
        finally:
            context.close()


def played_offline(page: Page, url: str, server: Any) -> None:
    """The map picture's whole way on ``page``: loaded, aligned, painted, played, reloaded
    offline (``server`` shut down)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
    app = App(page, url, "desktop")
    import_encounter(app, skirmish_duel().renamed("Over my map"))
    set_mode(app, "edit")
    load_map(page)
    size, x, y = alignment(page)  # the grid found: within 2% and a tenth of a hex
    assert abs(size / MAP.hex_size - 1) < 0.02
    assert math.hypot(x - MAP.offset[0], y - MAP.offset[1]) < 0.1 * MAP.hex_size
    expect(page.locator("#board")).to_have_attribute("data-map", "tint")
    dragged_and_tapped(app, (x, y))
    painted_and_played(app)

    placed = page.locator("#board-picture").get_attribute("transform")
    page.wait_for_selector("html[data-offline=ready]", timeout=READY_TIMEOUT_MS)
    server.shutdown()
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
    expect(page.locator("#board-picture")).to_have_attribute("data-picture", digest_of(map_file()))
    expect(page.locator("#board")).to_have_attribute("data-map", "tint")
    expect(page.locator('#board [data-figure="ann"]')).to_have_attribute("data-at", "2,1")
    expect(hex_at(app, "5,2")).to_have_attribute("data-terrain", "woods")
    assert page.locator("#board-picture").get_attribute("transform") == placed
    app.screenshot("map-picture-offline")
    assert errors == []


def dragged_and_tapped(app: App, found: tuple[float, float]) -> None:
    """The picture dragged off by a third of a hex, then aligned again by two taps four
    hexes apart."""
    page = app.page
    start = on_screen(page, 300.0, 300.0)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 10, start[1] + 6, steps=4)
    page.mouse.up()
    dragged = alignment(page)
    assert math.hypot(dragged[1] - found[0], dragged[2] - found[1]) > 5
    press(app, '[data-cmd="map-taps"]')
    pitch, down = 1.5 * MAP.hex_size, math.sqrt(3.0) * MAP.hex_size
    first = (MAP.offset[0] + 2 * pitch, MAP.offset[1] + 1 * down)
    second = (first[0], first[1] + 4 * down)
    for point in (first, second):
        page.mouse.click(*on_screen(page, *point))
    page.locator('#map-taps-form input[type="number"]').fill("4")
    press(app, '[data-cmd="map-apply-taps"]')
    expect(page.locator("[data-map-taps]")).to_have_count(0)
    size, x, y = alignment(page)
    assert abs(size / MAP.hex_size - 1) < 0.01
    assert math.hypot(x - MAP.offset[0], y - MAP.offset[1]) < 0.05 * MAP.hex_size


def painted_and_played(app: App) -> None:
    """Terrain painted over the picture (a see-through tint; the open hexes show the
    picture), then a move played over it."""
    press(app, '[data-cmd="tool"][data-tool="paint"]')
    hex_at(app, "5,2").click()
    expect(hex_at(app, "5,2")).to_have_attribute("data-terrain", "woods")
    looks = "el => getComputedStyle(el).fillOpacity"
    assert hex_at(app, "5,2").evaluate(looks) == "0.45"
    assert hex_at(app, "0,4").evaluate(looks) == "0"

    set_mode(app, "play")
    select(app, "ann")
    press(app, hex_at(app, "2,1"))
    press(app, '[data-commit-bar] [data-cmd="commit"]')
    expect(app.page.locator('#board [data-figure="ann"]')).to_have_attribute("data-at", "2,1")
    app.screenshot("map-picture-played")


def stored_pictures(page: Page) -> int:
    """How many pictures the site's picture database holds (0 when there is none)."""
    return int(
        page.evaluate(
            """async () => {
              const names = (await indexedDB.databases()).map(d => d.name);
              if (!names.includes("hexcombat-pictures")) return 0;
              const db = await new Promise(ok => {
                const r = indexedDB.open("hexcombat-pictures"); r.onsuccess = () => ok(r.result);
              });
              const n = await new Promise(ok => {
                const r = db.transaction("pictures").objectStore("pictures").count();
                r.onsuccess = () => ok(r.result);
              });
              db.close();
              return n;
            }"""
        )
    )


@pytest.mark.parametrize("ui", ["desktop"], indirect=True)
def test_a_picture_that_would_not_fit_is_refused_before_anything_is_written(ui: App) -> None:
    page = ui.page
    import_encounter(ui, skirmish_duel().renamed("Too big a map"))
    set_mode(ui, "edit")
    before = stored_pictures(page)
    page.evaluate("navigator.storage.estimate = async () => ({usage: 5000000, quota: 5400000})")
    try:
        page.locator('[data-cmd="tool"][data-tool="map"]').click()
        with page.expect_file_chooser() as chooser:
            page.locator('[data-cmd="map-choose"]').click()
        chooser.value.set_files(
            files=[{"name": "map.png", "mimeType": "image/png", "buffer": map_file()}]
        )
        expect(page.locator("#toast")).to_contain_text("map.png: not kept: the picture")
        expect(page.locator("#toast")).to_contain_text("does not fit")
        expect(page.locator("[data-map-alignment]")).to_have_count(0)
        assert page.locator("#board-picture").get_attribute("data-picture") is None
        assert stored_pictures(page) == before
        menu(ui, "storage")
        usage = page.locator("[data-picture-usage]")
        expect(usage).to_contain_text(f"{before} pictures")
        expect(usage).to_contain_text("the site uses 5.0 MB of the 5.4 MB")
        press(ui, '#dialog [data-cmd="close-dialog"]')
    finally:
        page.evaluate("delete navigator.storage.estimate")


@pytest.mark.parametrize("ui", ["desktop"], indirect=True)
def test_the_map_goes_into_exports_and_embeds_and_a_share_link_says_it_is_left_out(
    ui: App, browser: Browser
) -> None:
    page = ui.page
    import_encounter(ui, skirmish_duel().renamed("Shared map"))
    set_mode(ui, "edit")
    load_map(page)
    with page.expect_download() as download:
        menu(ui, "share")
        page.locator('[data-cmd="export-svg"]').click()
    path = download.value.path()
    assert path is not None
    svg = Path(path).read_text(encoding="utf-8")
    assert f'href="data:image/png;base64,{base64.b64encode(map_file()).decode()}"' in svg
    expect(page.locator('[data-share="no-picture"]')).to_have_text(PICTURE_LEFT_OUT)
    link = page.locator('[data-share="link"]').input_value()
    press(ui, '#dialog [data-cmd="close-dialog"]')

    embed = page.context.new_page()  # this browser holds the picture: the embed draws it
    embed.goto(link.replace("#", "?embed#", 1))
    expect(embed.locator("#board-picture")).to_have_attribute("data-picture", digest_of(map_file()))
    embed.close()
    elsewhere = new_app(browser, ui.base_url, "desktop", VIEWPORTS["desktop"])
    try:  # another browser: the link carries no picture, and the view says so
        elsewhere.open(link)
        elsewhere.wait_ready()
        expect(elsewhere.page.locator("#toast")).to_contain_text(PICTURE_LEFT_OUT)
        expect(elsewhere.page.locator("#board-picture")).to_have_attribute(
            "data-picture", "missing"
        )
        made = elsewhere.page.evaluate("indexedDB.databases().then(d => d.map(b => b.name))")
        assert "hexcombat-pictures" not in made  # a view makes no picture database
    finally:
        elsewhere.page.context.close()


CAMERA = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([\d.]+)\)")


def camera(page: Page) -> tuple[float, float, float]:
    """The board's drawn camera (tx, ty, k) from its view's ``transform``."""
    found = CAMERA.fullmatch(page.locator("#board-view").get_attribute("transform") or "")
    assert found, "the board's view has no camera"
    return float(found[1]), float(found[2]), float(found[3])


def centre(page: Page, selector: str) -> tuple[float, float]:
    """The middle of an element's box on the screen (as shown, CSS transforms included)."""
    box = page.locator(selector).bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def picture_pixel(page: Page, x: float, y: float) -> tuple[float, float]:
    """The map picture's pixel shown at screen point ``x``, ``y`` (the picture is unturned)."""
    box = page.locator("#board-picture").bounding_box()
    assert box
    return (x - box["x"]) / box["width"] * MAP.width, (y - box["y"]) / box["height"] * MAP.height


def next_frame(page: Page) -> None:
    """Wait until the page has drawn a frame after what it was just given."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


RING = "getComputedStyle(document.getElementById('board')).outlineStyle"
"""The board's focus ring as drawn now ("none": not drawn)."""


@pytest.mark.parametrize("ui", ["tablet-touch"], indirect=True)
def test_a_touch_pan_and_a_wheel_zoom_move_the_drawn_board_whole_and_end_with_their_camera(
    ui: App,
) -> None:
    """While a finger pans, the board drawn when it went down is moved whole (a CSS transform
    on the board, its view's camera not redrawn) with the map, hexes and tokens together; at
    the finger's lift the board is drawn with the camera the pan made (moved by exactly the
    finger's way) and the same picture pixel is under each hex. A wheel zoom ends the same
    way: the point under the pointer stays under it, on the map and on the board. No focus
    ring is drawn around the moved board (it would have the board painted every frame)."""
    page = ui.page
    page.evaluate(SHELVE, [digest_of(map_file()), base64.b64encode(map_file()).decode()])
    picture = MapPicture(
        digest_of(map_file()), "image/png", MAP.width, MAP.height, "flat", 60.0, MAP.offset
    )
    import_encounter(ui, skirmish_duel().renamed("Panned over a map").with_setup(picture=picture))
    expect(page.locator("#board-picture")).to_have_attribute("data-picture", digest_of(map_file()))
    hexes = ('#board [data-hex="3,1"]', '#board [data-hex="5,2"]', '#board [data-figure="bo"]')
    tx, ty, k = camera(page)
    before = {s: centre(page, s) for s in hexes}
    under = {s: picture_pixel(page, *before[s]) for s in hexes}
    x, y = before[hexes[0]]
    dx, dy = -70.0, 45.0
    cdp = page.context.new_cdp_session(page)

    def finger(fx: float, fy: float, kind: str = "touchMove") -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": fx, "y": fy}]})

    page.locator("#board").focus()  # its focus ring (drawn from the keyboard's focus) ...
    assert page.evaluate(RING) != "none"
    finger(x, y, "touchStart")
    for step in range(1, 6):
        finger(x + dx * step / 5, y + dy * step / 5)
    next_frame(page)
    assert camera(page) == (tx, ty, k), "the board is not drawn again while the finger moves"
    assert page.evaluate("document.getElementById('board').style.transform") != ""
    assert page.evaluate(RING) == "none"  # ... is not drawn around the moved board
    for s in hexes:  # shown moved with the finger, the map under them as before
        now = centre(page, s)
        assert math.hypot(now[0] - before[s][0] - dx, now[1] - before[s][1] - dy) < 0.6, s
        assert math.dist(picture_pixel(page, *now), under[s]) < 0.6, s
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    next_frame(page)
    assert page.evaluate("document.getElementById('board').style.transform") == ""
    ptx, pty, pk = camera(page)
    assert abs(ptx - tx - dx) < 0.11 and abs(pty - ty - dy) < 0.11 and pk == k
    for s in hexes:
        now = centre(page, s)
        assert math.hypot(now[0] - before[s][0] - dx, now[1] - before[s][1] - dy) < 0.6, s
        assert math.dist(picture_pixel(page, *now), under[s]) < 0.6, s

    at = centre(page, hexes[1])
    hex_there = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('[data-hex]').dataset.hex", at
    )
    pixel_there = picture_pixel(page, *at)
    page.mouse.move(*at)
    for _ in range(3):
        page.mouse.wheel(0, -120)
    expect(page.locator("#board")).not_to_have_attribute("style", re.compile("transform"))
    ztx, zty, zk = camera(page)
    factor = math.exp(3 * 120 * 0.0015)
    assert abs(zk / pk - factor) < 1e-3
    box = page.locator("#board").bounding_box()
    assert box
    ax, ay = at[0] - box["x"], at[1] - box["y"]
    assert abs(ztx - (ax - (ax - ptx) * zk / pk)) < 0.3
    assert abs(zty - (ay - (ay - pty) * zk / pk)) < 0.3
    assert math.dist(picture_pixel(page, *at), pixel_there) < 0.6
    assert hex_there == page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('[data-hex]').dataset.hex", at
    )
    ui.screenshot("map-picture-panned-and-zoomed")
