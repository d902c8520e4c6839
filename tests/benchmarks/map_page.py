"""The map picture in the page on the tablet profile (820x1180, touch, CPU 4x slower): a
4000x3000 JPEG taken by set-up's Map picture tool (the grid finder's main-thread time and the
time until it is drawn), then a 40x30 board over it: what the picture adds to opening the
fight, frame times while panning and zooming, and a tap's latency. Run through
``tests/bench --only mappage``.
"""

from __future__ import annotations

import base64
import statistics
import time
from typing import Any

from map_grid import BIG
from map_pictures import draw_rgba, png_file
from page import context, library_keys, open_page, ready_ms, tap, timings
from playwright.sync_api import Browser, Page

from hexcombat import Encounter
from hexcombat.layout import from_offset
from hexcombat.map_picture import MapPicture, digest_of

THROTTLE = 4
BOARD = (40, 30)
# The 1024 px test map drawn at 4000x3000 and saved as JPEG by the browser (as a camera or a
# map shop's file would be), handed back in base64.
BIG_JPEG = """async (png) => {
  const bytes = Uint8Array.from(atob(png), c => c.charCodeAt(0));
  const small = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
  const canvas = new OffscreenCanvas(4000, 3000);
  canvas.getContext("2d").drawImage(small, 0, 0, 4000, 3000);
  const blob = await canvas.convertToBlob({type: "image/jpeg", quality: 0.9});
  const data = new Uint8Array(await blob.arrayBuffer());
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000)
    text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  return btoa(text);
}"""
# Frame intervals (ms) from requestAnimationFrame while a gesture runs.
FRAMES_START = """() => { window.__frames = []; let last = performance.now();
  const step = (t) => { window.__frames.push(t - last); last = t;
    if (window.__frames.length < 100000 && !window.__framesStop) requestAnimationFrame(step); };
  window.__framesStop = false; requestAnimationFrame(step); }"""
FRAMES_STOP = "() => { window.__framesStop = true; return window.__frames; }"


def field() -> Encounter:
    """A 40x30 skirmish board with ten figures a side."""
    enc = Encounter.new("skirmish", *BOARD, name="Bench over a big map")
    rs = enc.ruleset
    for i in range(20):
        side = "Blue" if i < 10 else "Red"
        col, row = 2 + 3 * (i % 10), 8 if side == "Blue" else 20
        enc = enc.with_figure(rs.new_figure(f"f{i}", f"{side} {i}", side, from_offset(col, row), 0))
    return enc


def take_big_map(page: Page, jpeg: bytes) -> tuple[float, float, float]:
    """Give the Map picture tool the 4000x3000 JPEG: (the finder's main-thread ms, ms until
    the engine's worker proposed a grid, ms from the file given to the picture drawn)."""
    page.locator('#mode-switch [data-mode="edit"]').click()
    page.locator('[data-cmd="tool"][data-tool="map"]').click()
    with page.expect_file_chooser() as chooser:
        page.locator('[data-cmd="map-choose"]').click()
    started = time.perf_counter()
    chooser.value.set_files(files=[{"name": "big.jpg", "mimeType": "image/jpeg", "buffer": jpeg}])
    page.wait_for_selector(f'#board-picture[data-picture="{digest_of(jpeg)}"]', timeout=120_000)
    found = timings(page)
    return found["map_finder"], found["map_proposal"], (time.perf_counter() - started) * 1000


DRAWN = """async (digest) => {
  const shown = () => {
    const image = document.getElementById("board-picture");
    return digest === null || (image !== null && image.getAttribute("data-picture") === digest);
  };
  while (!shown()) await new Promise(r => setTimeout(r, 10));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now();
}"""
"""Ms from navigation until the picture named by the digest is drawn (the frame after it;
without a digest, the page's own frame after the first one that follows)."""


def opened_ms(page: Page, enc: Encounter, digest: str | None) -> tuple[float, float]:
    """Ms from a reload that opens ``enc`` to the page ready, and to its picture drawn (the
    same without one)."""
    page.evaluate(
        "keys => { localStorage.clear(); for (const [k, v] of Object.entries(keys)) "
        "localStorage.setItem(k, v); }",
        library_keys(enc),
    )
    page.reload()
    ready = ready_ms(page)
    if digest is None:
        return ready, ready
    return ready, max(ready, float(page.evaluate(DRAWN, digest)))


def frames_while(page: Page, gesture: Any) -> list[float]:
    """Frame intervals while ``gesture`` runs (the first, before it, left out)."""
    page.evaluate(FRAMES_START)
    gesture()
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return list(page.evaluate(FRAMES_STOP))[1:]


def pan_and_zoom(page: Page) -> list[float]:
    """Frames of a two-second drag across the board and a wheel zoom in and out."""
    box = page.locator("#board").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def gesture() -> None:
        page.mouse.move(x, y)
        page.mouse.down(button="right")  # the right button pans in every tool
        for i in range(40):
            page.mouse.move(x - i * 6, y - i * 4)
            page.wait_for_timeout(16)
        page.mouse.up(button="right")
        for dy in [-120] * 8 + [120] * 8:
            page.mouse.wheel(0, dy)
            page.wait_for_timeout(16)

    return frames_while(page, gesture)


def big_jpeg(page: Page) -> bytes:
    """The 4000x3000 JPEG of the big test map, made by the browser."""
    drawn = base64.b64encode(png_file(*draw_rgba(BIG))).decode()
    return base64.b64decode(page.evaluate(BIG_JPEG, drawn))


def rows(table: Any, browser: Browser, url: str, runs: int) -> None:
    """Add the big map's rows to the benchmark's table."""
    from page import load

    with context(browser, tablet=True) as ctx:
        page = open_page(ctx, throttle=1)
        page.goto(url)
        ready_ms(page)
        jpeg = big_jpeg(page)
        page.close()
        page = open_page(ctx, throttle=THROTTLE)
        page.goto(url)
        ready_ms(page)
        opened_ms(page, field(), None)
        finder, proposed, drawn = take_big_map(page, jpeg)
        table.add(
            "map picture 4000x3000 JPEG taken in set-up, tablet CPU 4x: grid finder's main-thread "
            "time (decoded copy of at most 1024 px) / until the worker's proposal / file to "
            "picture drawn",
            f"{finder:.0f} ms / {proposed:.0f} ms / {drawn:.0f} ms",
            "< 2000 ms",
            load(),
        )
        over_rows(table, page, digest_of(jpeg), runs)


def over_rows(table: Any, page: Page, digest: str, runs: int) -> None:
    """Opening, panning, zooming and tapping over the stored big map."""
    from page import load

    plain = field()
    picture = MapPicture(digest, "image/jpeg", 4000, 3000, "flat", BIG.hex_size, BIG.offset)
    bare: list[float] = []
    drawn: list[float] = []
    after_ready: list[float] = []
    frames: list[float] = []
    for _ in range(runs):  # in turn, so that both meet the same load
        bare.append(opened_ms(page, plain, None)[1])
        frames.append(float(page.evaluate(DRAWN, None)) - bare[-1])
        ready, shown = opened_ms(page, plain.with_setup(picture=picture), digest)
        drawn.append(shown)
        after_ready.append(shown - ready)
    without, with_map = statistics.median(bare), statistics.median(drawn)
    table.add(
        f"opening a {BOARD[0]}x{BOARD[1]} fight over a 4000x3000 map, tablet CPU 4x: "
        "until the map is drawn / without a map (added; the map drawn after ready; without "
        "a map, the same frames after ready)",
        f"{with_map:.0f} / {without:.0f} ms (+{with_map - without:.0f} ms; "
        f"+{statistics.median(after_ready):.0f} ms; +{statistics.median(frames):.0f} ms)",
        "+500 ms at most",
        load(),
    )
    over = gestures(page)
    opened_ms(page, plain, None)
    bare = gestures(page)
    table.add(
        "pan and zoom, tablet CPU 4x: frame time p95 / worst, over the 4000x3000 map "
        "(same board without it)",
        f"{over[0]:.0f} / {over[1]:.0f} ms ({bare[0]:.0f} / {bare[1]:.0f} ms)",
        "< 32 ms",
        load(),
    )
    table.add(
        "tap a figure, tablet CPU 4x: median / worst, over the 4000x3000 map (without it)",
        f"{over[2]:.0f} / {over[3]:.0f} ms ({bare[2]:.0f} / {bare[3]:.0f} ms)",
        "< 50 ms",
        load(),
    )


def gestures(page: Page) -> tuple[float, float, float, float]:
    """Frame time p95 and worst while panning and zooming, then a tap's median and worst."""
    frames = sorted(pan_and_zoom(page))
    page.click('[data-cmd="fit"]')
    page.wait_for_timeout(300)
    taps = [tap(page, f'#board [data-figure="f{i % 2}"]') for i in range(6)]  # each selects
    return frames[int(0.95 * (len(frames) - 1))], frames[-1], statistics.median(taps), max(taps)
