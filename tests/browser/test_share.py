"""Share links, the embed view, static exports, the manifest and the update prompt.

- share link round trip: the app's Share dialog gives a link (and its QR code); a fresh
  browser opens it read-only, imports a copy, and the copy's document equals the original;
  opening the link again is recognised; a link that adds entries to one's copy marks them;
- the embed view inside an iframe of a host page on another site (localhost vs 127.0.0.1),
  at 700x500 and 400x300, storage blocked (or partitioned) and same-site: every control
  in the frame, replay steps, and nothing written to any storage;
- the exported SVG parses and shows every figure and the same terrain as the CLI's picture;
  PNG and Markdown download;
- the manifest is valid and its icons load;
- a second build: "a new version is ready", no reload until the user agrees, old caches gone.
"""

from __future__ import annotations

import shutil
import struct
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Frame, Page, expect

from hexcombat import Action, Encounter, Hex, loads, to_document
from hexcombat.share import board_svg, encounter_from_fragment, share_fragment
from web import site_server
from web.library.storage import Library, MemoryStore
from web.share import backup

from .conftest import ARTIFACTS, GIVEN, NO_SNAPSHOT, READY_TIMEOUT_MS, give_snapshots, site_build

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "static" / "demos" / "fig-percentile.json"
SVG = "{http://www.w3.org/2000/svg}"

# Counts every storage write a page makes (localStorage, sessionStorage, IndexedDB, Cache
# Storage, service workers) in window.__writes.
WATCH_WRITES = """
(() => {
  window.__writes = [];
  const wrap = (proto, name, what) => {
    if (!proto || !proto[name]) return;
    const real = proto[name];
    proto[name] = function (...args) { window.__writes.push(what); return real.apply(this, args); };
  };
  for (const name of ["setItem", "removeItem", "clear"]) wrap(Storage.prototype, name, name);
  if (window.IDBFactory) wrap(IDBFactory.prototype, "open", "indexedDB.open");
  if (window.CacheStorage) wrap(CacheStorage.prototype, "open", "caches.open");
  if (window.ServiceWorkerContainer) {
    wrap(ServiceWorkerContainer.prototype, "register", "serviceWorker.register");
  }
})();
"""


def demo():  # type: ignore[no-untyped-def]
    """The demo at the start of a round's declarations: no secret kept, so a link carries
    the whole log (a declaration made would be kept back until the reveal)."""
    enc = loads(DEMO.read_text(encoding="utf-8"))
    while enc.can_redo and enc.cursor < 29:
        enc.redo()
    return enc


def shared_log(enc):  # type: ignore[no-untyped-def]
    """The log a link of ``enc`` carries (undone entries only as far as no secret is kept)."""
    linked = encounter_from_fragment(share_fragment(enc))
    assert linked is not None
    return linked.log


def serve(folder: Path) -> tuple[Any, int]:
    server = site_server.make_server(folder, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, int(server.server_address[1])


def context(browser: Browser, width: int, height: int, **options: Any) -> BrowserContext:
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, service_workers="block", **options
    )
    ctx.set_default_timeout(20_000)
    give_snapshots(ctx)
    return ctx


def wait_ready(page: Page | Frame) -> None:
    page.wait_for_function(
        "document.documentElement.dataset.appState !== 'loading'", timeout=READY_TIMEOUT_MS
    )
    state = page.evaluate("document.documentElement.dataset.appState")
    assert state == "ready", page.evaluate("JSON.stringify(window.hexcombatBoot.error)")


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def exported(page: Page | Frame, owner: Page, cmd_selector: str) -> bytes:
    with owner.expect_download() as info:
        page.locator(cmd_selector).click()
    path = info.value.path()
    assert path is not None
    return Path(path).read_bytes()


@pytest.fixture(scope="module")
def bases(site: Path, base_url: str) -> Iterator[tuple[str, str]]:
    """The site on 127.0.0.1, and the same server's address as localhost (another site);
    pages at both start from the build's snapshot (see given_snapshot.py)."""
    server, port = serve(site)
    urls = f"http://127.0.0.1:{port}/", f"http://localhost:{port}/"
    for url in urls:
        GIVEN[url] = GIVEN[base_url]
    yield urls
    for url in urls:
        del GIVEN[url]
    server.shutdown()
    server.server_close()


# ---- share link round trip ---------------------------------------------------------------------
def test_share_link_round_trip(browser: Browser, bases: tuple[str, str]) -> None:
    base = bases[0]
    enc = demo()
    # The sharer: the app with the encounter open (it arrives through a link and an import).
    sharer = context(browser, 1280, 800)
    page = sharer.new_page()
    page.goto(base + share_fragment(enc))
    wait_ready(page)
    expect(page.locator("#viewer")).to_have_attribute("data-viewer", "view")
    page.locator('[data-cmd="import-copy"]').click()
    page.wait_for_url(base)
    wait_ready(page)
    expect(page.locator("#enc-name")).to_have_text(enc.setup.name)
    page.locator("#menu-button").click()
    page.locator('#menu [data-cmd="share"]').click()
    link = page.locator('[data-share="link"]').input_value()
    assert link.startswith(base + "#e=")
    expect(page.locator('[data-share="qr"] svg')).to_be_visible()
    assert "?embed#e=" in page.locator('[data-share="embed"]').input_value()
    shot(page, "share-dialog-desktop")
    sharer.close()

    # The receiver: a fresh browser opens the link, sees it read-only, imports a copy.
    receiver = context(browser, 1024, 1366, has_touch=True, is_mobile=True)
    view = receiver.new_page()
    view.goto(link)
    wait_ready(view)
    expect(view.locator('[data-cmd="switch-mode"]')).to_have_count(0)  # no editor
    expect(view.locator("#replay-pos")).to_have_attribute("data-step", str(enc.cursor))
    expect(view.locator("[data-figure]")).to_have_count(len(enc.state.figures))
    shot(view, "share-view-tablet-portrait")
    assert view.evaluate("localStorage.length") == 0  # nothing kept before the import
    view.locator('[data-cmd="import-copy"]').tap()
    view.wait_for_url(base)
    wait_ready(view)
    library = Library(
        MemoryStore(view.evaluate("Object.fromEntries(Object.entries(localStorage))"))
    )
    (entry,) = library.entries()
    linked = encounter_from_fragment(share_fragment(enc))  # the demo's last step plans moves:
    assert linked is not None and len(linked.log) < len(enc.log)  # the link stops before them
    assert to_document(library.load(entry.id)) == to_document(linked)

    # The same link again: recognised, with the copy to open.
    view.goto("about:blank")
    view.goto(link)
    wait_ready(view)
    expect(view.locator("#viewer-note")).to_contain_text("You imported this link before")
    expect(view.locator('[data-cmd="import-copy"]')).to_have_text("Import another copy")

    # Play by post: a link three entries further on marks them as new.
    theirs = enc.copy()
    for _ in range(3):
        theirs.redo()
    view.goto("about:blank")
    view.goto(base + share_fragment(theirs))
    wait_ready(view)
    expect(view.locator("#viewer-note")).to_contain_text("3 new log entries")
    new_entries = view.eval_on_selector_all(
        "#log > li[data-new]", "els => [...new Set(els.map(e => e.dataset.entry))]"
    )
    assert new_entries == [str(enc.cursor), str(enc.cursor + 1), str(enc.cursor + 2)]
    shot(view, "share-play-by-post-tablet-portrait")
    receiver.close()


def test_phone_share_view(browser: Browser, bases: tuple[str, str]) -> None:
    ctx = context(browser, 390, 844, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(bases[0] + share_fragment(demo()))
    wait_ready(page)
    for cmd in ("import-copy", "replay-first", "replay-prev", "replay-play", "replay-next"):
        expect(page.locator(f'[data-cmd="{cmd}"]')).to_be_in_viewport()
    page.locator('[data-cmd="replay-prev"]').tap()
    expect(page.locator("#replay-pos")).to_have_attribute("data-step", "28")
    shot(page, "share-view-phone")
    ctx.close()


def test_a_damaged_link_says_so(browser: Browser, bases: tuple[str, str]) -> None:
    ctx = context(browser, 1280, 800)
    page = ctx.new_page()
    page.goto(bases[0] + share_fragment(demo())[:200])
    wait_ready(page)
    expect(page.locator("#viewer-broken")).to_contain_text("cannot be opened")
    ctx.close()


def test_names_typed_like_markup_stay_text_in_the_share_view(
    browser: Browser, bases: tuple[str, str]
) -> None:
    """An encounter's and its figures' names that look like markup show as their text in the
    read-only view (title, log) and in its embed code, which is text to copy."""
    hostile = "<img src=x onerror=window.pwned=1>"
    enc = Encounter.new("skirmish", 6, 4, name=f"Duel {hostile}")
    enc = enc.with_figure(enc.ruleset.new_figure("ash", f"Ash {hostile}", "W", Hex(1, 1), 1))
    enc.perform(Action("move", "ash", {"to": "2,1"}))
    ctx = context(browser, 1280, 800)
    page = ctx.new_page()
    page.goto(bases[0] + share_fragment(enc))
    wait_ready(page)
    expect(page.locator("#viewer-name")).to_have_text(f"Duel {hostile}")
    expect(page.locator("#log")).to_contain_text(f"Ash {hostile} moves")
    page.locator('[data-cmd="viewer-menu"]').click()
    page.locator('#viewer-menu [data-cmd="embed-code"]').click()
    embed = page.locator('[data-share="embed"]').input_value()
    assert embed.startswith("<iframe src=")
    assert 'title="Duel &lt;img src=x onerror=window.pwned=1&gt; (Hex Combat)"' in embed
    assert page.locator('img[src="x"], iframe').count() == 0
    assert page.evaluate("window.pwned") is None
    ctx.close()


# ---- backups ------------------------------------------------------------------------------------
def test_import_all_refuses_a_deep_backup_and_the_next_import_works(
    browser: Browser, bases: tuple[str, str], tmp_path: Path
) -> None:
    """A backup nested 100,000 deep used to kill Python (stack overflow, then every later
    command failed): it gets the reader's message, and a valid backup right after imports."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    good = tmp_path / "good.json"
    enc = demo().renamed("From the backup")
    good.write_text(backup.bundle([to_document(enc)], "2026-01-01"), encoding="utf-8")
    ctx = context(browser, 1280, 800)
    try:
        page = ctx.new_page()
        page.goto(bases[0])
        wait_ready(page)

        def import_all(path: Path) -> None:
            page.locator("#menu-button").click()
            page.locator('#menu [data-cmd="storage"]').click()
            with page.expect_file_chooser() as chooser:
                page.locator('[data-cmd="import-all"]').click()
            chooser.value.set_files(str(path))

        import_all(deep)
        expect(page.locator("#toast")).to_contain_text("deep.json: lists and objects are nested")
        page.locator('[data-cmd="close-dialog"]').first.click()
        import_all(good)
        expect(page.locator("#toast")).to_contain_text("Imported 1 encounter")
        names = page.evaluate(
            """() => Object.values(JSON.parse(localStorage.getItem('hexcombat:index')).entries)
                     .map(e => e.name)"""
        )
        assert "From the backup" in names
    finally:
        ctx.close()


# ---- embed ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "where"),
    [((700, 500), "cross-site"), ((400, 300), "same-site")],
    ids=["700x500-cross-site", "400x300-same-site"],
)
def test_embed_in_a_cross_site_iframe(
    browser: Browser, bases: tuple[str, str], tmp_path: Path, size: tuple[int, int], where: str
) -> None:
    """Cross-site: the host page is on localhost, the frame on 127.0.0.1 (the browser blocks
    the frame's storage, as headless Chromium does here, or partitions it). Same-site: the
    host is another port of 127.0.0.1 (cross-origin, storage available and shared). Each
    frame size is tried once, with one of the two hosts (the size is about the controls
    fitting, the host about storage: neither depends on the other)."""
    base = bases[0]
    enc = demo()
    width, height = size
    host = tmp_path / "host"
    host.mkdir()
    src = f"{base}?embed{share_fragment(enc)}"
    (host / "index.html").write_text(
        '<!doctype html><html><body style="margin:0">'
        f'<iframe id="embed" src="{src}" width="{width}" height="{height}" '
        'style="border:0;display:block"></iframe></body></html>',
        encoding="utf-8",
    )
    server, port = serve(host)
    host_name = "localhost" if where == "cross-site" else "127.0.0.1"
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script(WATCH_WRITES)
    give_snapshots(ctx)
    try:
        page = ctx.new_page()
        page.goto(f"http://{host_name}:{port}/index.html")
        frame = page.frame_locator("#embed")
        inner = next(f for f in page.frames if f.url.startswith(base))
        wait_ready(inner)
        pos = frame.locator("#replay-pos")
        expect(pos).to_have_attribute("data-step", str(enc.cursor))
        controls = [
            "replay-first", "replay-prev", "replay-play", "replay-next", "replay-last",
            "viewer-log", "viewer-menu", "import-copy", "fit",
        ]  # fmt: skip
        for cmd in controls:
            box = frame.locator(f'[data-cmd="{cmd}"]').bounding_box()
            assert box is not None, cmd
            assert box["x"] >= 0 and box["y"] >= 0, cmd
            assert box["x"] + box["width"] <= width + 0.5, (cmd, box)
            assert box["y"] + box["height"] <= height + 0.5, (cmd, box)
            assert box["width"] >= 40 and box["height"] >= 40, (cmd, box)
        expect(frame.locator("[data-figure]")).to_have_count(len(enc.state.figures))
        page.screenshot(path=str(ARTIFACTS / f"embed-{width}x{height}-{where}.png"))
        frame.locator('[data-cmd="replay-first"]').click()
        expect(pos).to_have_attribute("data-step", "0")
        expect(frame.locator("#log > li[data-entry]")).to_have_count(0)
        frame.locator('[data-cmd="replay-next"]').click()
        frame.locator('[data-cmd="replay-next"]').click()
        expect(pos).to_have_attribute("data-step", "2")
        frame.locator('[data-cmd="replay-prev"]').click()
        expect(pos).to_have_attribute("data-step", "1")
        frame.locator('[data-cmd="replay-play"]').click()
        expect(pos).to_have_attribute("data-step", "3", timeout=5000)
        frame.locator('[data-cmd="replay-play"]').click()  # pause
        frame.locator('[data-cmd="replay-last"]').click()
        carried = len(shared_log(enc))  # the link stops where a secret would be kept
        expect(pos).to_have_attribute("data-step", str(carried))
        frame.locator('[data-cmd="viewer-log"]').click()
        expect(frame.locator("#viewer-log")).to_be_visible()
        assert frame.locator("#log > li[data-entry]").count() >= carried
        page.screenshot(path=str(ARTIFACTS / f"embed-{width}x{height}-{where}-log.png"))
        frame.locator('[data-cmd="viewer-log"]').click()
        frame.locator('[data-cmd="viewer-menu"]').click()
        for cmd in ("export-svg", "export-png", "export-md", "embed-code"):
            item = frame.locator(f'[data-cmd="{cmd}"]')
            item.scroll_into_view_if_needed()  # the menu scrolls in a small frame
            box = item.bounding_box()
            assert box is not None and box["y"] + box["height"] <= height + 0.5, cmd
        frame.locator('[data-cmd="viewer-menu"]').click()
        assert_links_leave_the_frame(inner)
        writes = inner.evaluate("window.__writes")
        assert writes == [], f"the embed view wrote to storage: {writes}"
        kept = inner.evaluate(
            "(() => { try { return localStorage.length; } catch (e) { return 'blocked'; } })()"
        )
        assert kept in (0, "blocked")
        if where == "same-site":
            assert kept == 0
        assert inner.evaluate("navigator.serviceWorker.controller") is None
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()


def assert_links_leave_the_frame(frame: Frame) -> None:
    """Every link the embed view shows opens a new tab without a handle on the frame."""
    found = frame.eval_on_selector_all(
        "a[href]", "els => els.map(a => [a.textContent, a.target, a.rel])"
    )
    for text, target, rel in found:
        assert target == "_blank" and "noopener" in rel.split(), (text, target, rel)


@pytest.mark.parametrize("where", ["cross-site", "same-site"])
def test_embed_of_a_damaged_link_opens_the_app_outside_the_frame(
    browser: Browser, bases: tuple[str, str], tmp_path: Path, where: str
) -> None:
    """The "cannot be opened" page of the embed view: its "Open Hex Combat" opens the app in
    a new tab; the frame stays on the embed view and writes nothing to any storage."""
    base = bases[0]
    host = tmp_path / "host"
    host.mkdir()
    src = f"{base}?embed{share_fragment(demo())[:200]}"
    (host / "index.html").write_text(
        f'<!doctype html><html><body><iframe id="embed" src="{src}" width="700" height="500">'
        "</iframe></body></html>",
        encoding="utf-8",
    )
    server, port = serve(host)
    host_name = "localhost" if where == "cross-site" else "127.0.0.1"
    ctx = browser.new_context(viewport={"width": 800, "height": 600}, service_workers="block")
    give_snapshots(ctx)
    ctx.add_init_script(WATCH_WRITES)
    try:
        page = ctx.new_page()
        page.goto(f"http://{host_name}:{port}/index.html")
        inner = next(f for f in page.frames if f.url.startswith(base))
        wait_ready(inner)
        link = page.frame_locator("#embed").locator("#viewer-broken a")
        expect(link).to_have_text("Open Hex Combat")
        assert_links_leave_the_frame(inner)
        with ctx.expect_page() as opened:
            link.click()
        tab = opened.value
        tab.wait_for_load_state("domcontentloaded")
        assert tab.url == base
        assert tab.evaluate("window.opener") is None
        tab.close()
        assert inner.url == src
        expect(page.frame_locator("#embed").locator("#viewer-broken")).to_be_visible()
        assert inner.evaluate("window.__writes") == []
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()


# ---- static exports ------------------------------------------------------------------------------
def test_exports_are_the_cli_picture_and_the_log(browser: Browser, bases: tuple[str, str]) -> None:
    enc = demo()
    ctx = context(browser, 1280, 800, accept_downloads=True)
    page = ctx.new_page()
    page.goto(f"{bases[0]}?embed{share_fragment(enc)}")
    wait_ready(page)
    page.locator('[data-cmd="replay-prev"]').click()
    enc.undo()
    page.locator('[data-cmd="viewer-menu"]').click()
    svg = exported(page, page, '[data-cmd="export-svg"]').decode()
    root = ET.fromstring(svg)
    cli = ET.fromstring(board_svg(enc))

    def figures(tree: ET.Element) -> dict[str, str]:
        return {
            str(g.get("data-figure")): str(g.get("data-facing"))
            for g in tree.iter(f"{SVG}g")
            if g.get("data-figure")
        }

    def terrain(tree: ET.Element) -> dict[str, str]:
        return {
            str(p.get("data-hex")): str(p.get("data-terrain"))
            for p in tree.iter(f"{SVG}polygon")
            if p.get("data-hex")
        }

    assert figures(root) == figures(cli) and set(figures(root)) == set(enc.state.figures)
    assert terrain(root) == terrain(cli)
    assert svg == board_svg(enc)
    page.locator('[data-cmd="viewer-menu"]').click()
    png = exported(page, page, '[data-cmd="export-png"]')
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    page.locator('[data-cmd="viewer-menu"]').click()
    markdown = exported(page, page, '[data-cmd="export-md"]').decode()
    assert markdown.startswith(f"# {enc.setup.name}")
    steps = [e for e in enc.events if e.kind == "clock"]  # each new step is a heading
    assert markdown.count("\n- ") == len(enc.events) - len(steps)
    assert markdown.count("\n### ") == len(steps)
    ctx.close()


# ---- manifest ---------------------------------------------------------------------------
def test_manifest_is_valid_and_its_icons_load(browser: Browser, bases: tuple[str, str]) -> None:
    base = bases[0]
    ctx = context(browser, 1280, 800)
    page = ctx.new_page()
    page.goto(base)
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href is not None
    manifest_url = base + href.removeprefix("./")
    response = page.request.get(manifest_url)
    assert response.ok and "manifest+json" in response.headers["content-type"]
    manifest = response.json()
    for key in ("name", "short_name", "start_url", "display", "icons", "background_color"):
        assert manifest.get(key), key
    assert manifest["display"] in ("fullscreen", "standalone")
    purposes = set()
    for icon in manifest["icons"]:
        url = manifest_url.rsplit("/", 1)[0] + "/" + icon["src"]
        got = page.request.get(url)
        assert got.ok, url
        purposes.add(icon.get("purpose", "any"))
        if icon["type"] == "image/png":
            body = got.body()
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = struct.unpack(">II", body[16:24])
            assert icon["sizes"] == f"{w}x{h}"
    assert {"any", "maskable"} <= purposes
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    start = page.request.get(manifest_url.rsplit("/", 1)[0] + "/" + manifest["start_url"])
    assert start.ok and "hexcombat" in start.text().lower().replace(" ", "")
    ctx.close()


# ---- updates ----------------------------------------------------------------------------
def test_a_new_build_asks_before_reloading(browser: Browser, site: Path, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    shutil.copytree(site, folder)
    server, port = serve(folder)
    url = f"http://127.0.0.1:{port}/"
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(NO_SNAPSHOT)  # one cache per build is what this test counts
    try:
        page = ctx.new_page()
        page.goto(url)
        wait_ready(page)
        page.wait_for_function(
            "navigator.serviceWorker.controller !== null", timeout=READY_TIMEOUT_MS
        )
        first = page.evaluate("caches.keys()")
        assert len(first) == 1
        # A second build: one file changes, and with it the worker's version.
        css = folder / "static" / "share.css"
        css.write_text(css.read_text(encoding="utf-8") + "\n/* build 2 */\n", encoding="utf-8")
        (folder / "sw.js").unlink()
        site_build.write_service_worker(folder)
        page.evaluate("window.__sameDocument = true")
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        banner = page.locator("#update-banner")
        expect(banner).to_contain_text("A new version", timeout=READY_TIMEOUT_MS)
        page.wait_for_timeout(500)
        assert page.evaluate("window.__sameDocument") is True  # nothing reloaded on its own
        shot(page, "update-banner-desktop")
        page.locator('[data-cmd="update-later"]').click()
        expect(banner).to_have_count(0)
        page.reload()  # still the old build until the user agrees; asks again
        wait_ready(page)
        expect(banner).to_be_visible(timeout=READY_TIMEOUT_MS)
        page.evaluate("window.__sameDocument = true")
        page.locator('[data-cmd="update-reload"]').click()
        page.wait_for_function("window.__sameDocument === undefined", timeout=READY_TIMEOUT_MS)
        wait_ready(page)
        # the new worker deletes the old build's cache as it activates; its own cache is made
        # as files pass (cache on fetch), so wait for the new one rather than for any one
        # (wait_for_function does not wait for a promise, so poll from here)
        deadline = time.monotonic() + READY_TIMEOUT_MS / 1000
        while (keys := page.evaluate("caches.keys()")) == first or len(keys) != 1:
            assert time.monotonic() < deadline, f"caches after the update: {keys}"
            page.wait_for_timeout(200)
        assert "build 2" in page.evaluate("fetch('./static/share.css').then(r => r.text())")
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()
