"""Offline play: after one visit the service worker's cache starts the whole app with no server."""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from web import site_server

from .appdriver import new_encounter, ruleset_ids
from .conftest import ARTIFACTS, NO_SNAPSHOT, READY_TIMEOUT_MS, SNAPSHOT_NOW, App

pytestmark = pytest.mark.browser


def serving_counted(site: Path) -> tuple[Any, list[str]]:
    """A server of ``site`` (web/site_server.py's) and the paths of the files it sent."""
    server = site_server.make_server(site, 0, quiet=True)
    handler = server.RequestHandlerClass
    sent: list[str] = []

    class Counted(handler.func):  # type: ignore[attr-defined, misc, name-defined]
        def do_GET(self) -> None:
            sent.append(self.path)
            super().do_GET()

    server.RequestHandlerClass = functools.partial(Counted, *handler.args, **handler.keywords)  # type: ignore[attr-defined]
    return server, sent


def test_the_app_starts_with_the_server_gone_after_one_visit(browser: Browser, site: Path) -> None:
    server, sent = serving_counted(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1366, "height": 1024}, has_touch=True)
    context.add_init_script(NO_SNAPSHOT)  # the second start, before any snapshot is made
    outside: list[str] = []
    context.on("request", lambda r: None if r.url.startswith(url) else outside.append(r.url))
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        # The worker installs (precaching the app's own files), takes control, keeps the
        # runtime as it arrives and, told what the page fetched, the rest of it.
        page.wait_for_selector("html[data-offline=ready]", timeout=READY_TIMEOUT_MS)
        cached = page.evaluate(
            "caches.keys().then(k => caches.open(k[0])).then(c => c.keys())"
            ".then(r => r.map(q => new URL(q.url).pathname))"
        )
        for needed in (
            "/hexcombat.tar.bz2",
            "/web.tar.bz2",
            "/vendor/pyodide/pyodide.asm.wasm",
            "/pyscript.json",
        ):
            assert needed in cached
        assert not [u for u in cached if "xterm" in u or "codemirror" in u]  # never loaded
        # the .wasm the page fetched before the worker controlled it (its preload): handed
        # over, not downloaded again, though the new worker took control during the start
        assert "hexcombat:handoff" not in page.evaluate("caches.keys()")
        assert sent.count("/vendor/pyodide/pyodide.asm.wasm") == 1
        server.shutdown()
        server.server_close()
        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.locator("[data-hex]").count() > 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "offline-reload-tablet-landscape.png"))
    finally:
        context.close()
        server.server_close()
    assert outside == []


def test_a_later_start_begins_from_the_python_snapshot_offline(
    browser: Browser, site: Path
) -> None:
    """A start kept offline makes the start-up snapshot; the next start, with no server,
    begins from it (Python started, engine imported) and every ruleset still works."""
    server = site_server.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(SNAPSHOT_NOW)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonStart") == "plain"
        page.wait_for_selector("html[data-python-snapshot]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonSnapshot") == "made"
        kept = page.evaluate("caches.keys()")
        assert len([k for k in kept if k.startswith("hexcombat-python-")]) == 1, kept
        server.shutdown()
        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonStart") == "snapshot"
        assert page.locator("[data-hex]").count() > 0
        app = App(page, url, "desktop")
        for ruleset in ruleset_ids():  # each ruleset's module and data files, from the snapshot
            new_encounter(app, f"From snapshot {ruleset['id']}", ruleset["id"], 4, 3)
        assert page.evaluate("hexcombatBoot.violations") == []
        assert page.evaluate("hexcombatBoot.error") is None
        # a damaged snapshot: Python starts plain, and the damaged one is thrown away
        page.evaluate(
            """async () => {
              const name = (await caches.keys()).find(k => k.startsWith("hexcombat-python-"));
              const cache = await caches.open(name);
              const [key] = await cache.keys();
              await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
            }"""
        )
        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonStart") == "plain"
        assert not [k for k in page.evaluate("caches.keys()") if k.startswith("hexcombat-python-")]
    finally:
        context.close()
        server.server_close()


def test_a_snapshot_with_bytes_flipped_in_the_middle_is_deleted_and_python_starts_plain(
    browser: Browser, site: Path
) -> None:
    """The kept snapshot is used only if its bytes have the SHA-256 digest recorded when it
    was made: 4 KB flipped in the middle of a real one (its entry otherwise untouched) is
    caught, deleted, Python starts plain and a warning says why."""
    server = site_server.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(SNAPSHOT_NOW)
    warnings: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        page.goto(url)
        page.wait_for_selector("html[data-python-snapshot]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonSnapshot") == "made"
        flipped = page.evaluate(
            """async () => {
              const name = (await caches.keys()).find(k => k.startsWith("hexcombat-python-"));
              const cache = await caches.open(name);
              const [key] = await cache.keys();
              const kept = await cache.match(key);
              const bytes = new Uint8Array(await kept.arrayBuffer());
              const middle = bytes.length >> 1;
              for (let i = middle; i < middle + 4096; i++) bytes[i] ^= 0xff;
              await cache.put(key, new Response(bytes, { headers: kept.headers }));
              const again = await (await caches.open(name)).match(key);
              return { size: bytes.length, digest: again.headers.get("x-hexcombat-sha256") };
            }"""
        )
        assert flipped["size"] > 1_000_000 and len(flipped["digest"]) == 64, flipped
        page.add_init_script(NO_SNAPSHOT)  # no new snapshot after this start
        page.reload()
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.pythonStart") == "plain"
        assert not [k for k in page.evaluate("caches.keys()") if k.startswith("hexcombat-python-")]
        said = [w for w in warnings if "snapshot was not used" in w]
        assert said and "digest" in said[0], warnings
        assert page.locator("[data-hex]").count() > 0
        assert page.evaluate("hexcombatBoot.error") is None
    finally:
        context.close()
        server.server_close()


@pytest.mark.parametrize(("cores", "wait_ms"), [(2, 60_000), (8, 2_000)])
def test_the_snapshot_worker_waits_a_minute_on_a_device_of_few_cores(
    browser: Browser, site: Path, cores: int, wait_ms: int
) -> None:
    """The worker that makes the snapshot is a second Python: on a tablet's few cores it
    must not compete with a fight's first minute (a desktop's many cores: a moment)."""
    server = site_server.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True)
    context.add_init_script(
        f"Object.defineProperty(navigator, 'hardwareConcurrency', {{ get: () => {cores} }});"
    )
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-offline=ready]", timeout=READY_TIMEOUT_MS)
        page.wait_for_function("hexcombatBoot.snapshotWait !== null")
        assert page.evaluate("hexcombatBoot.snapshotWait") == wait_ms
        if cores == 2:
            page.keyboard.press("Shift")  # play goes on: no second Python meanwhile
            page.wait_for_timeout(4_000)
            assert page.evaluate("document.documentElement.dataset.pythonSnapshot") is None
            assert page.evaluate("hexcombatBoot.error") is None
    finally:
        context.close()
        server.server_close()
