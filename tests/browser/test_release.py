"""The release zip, unpacked one folder below a host's root, starts and keeps itself offline
from that sub-path: no request leaves the folder and the service worker's scope is the folder."""

from __future__ import annotations

import threading
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from hexcombat import __version__
from web import site_server
from web.release import write_site_zip

from .conftest import NO_SNAPSHOT, READY_TIMEOUT_MS

pytestmark = pytest.mark.browser


def test_the_unzipped_release_plays_and_goes_offline_from_a_sub_path(
    browser: Browser, site: Path, tmp_path: Path
) -> None:
    made = write_site_zip(site, tmp_path / "dist", __version__)
    host_root = tmp_path / "host"
    with zipfile.ZipFile(made) as archive:
        archive.extractall(host_root)
    folder = f"hexcombat-site-{__version__}"
    server = site_server.make_server(
        host_root, 0, quiet=True, policy=site_server.page_policy(host_root / folder)
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(NO_SNAPSHOT)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    try:
        page = context.new_page()
        page.goto(f"{root}{folder}/")
        page.wait_for_selector("html[data-app-state=ready]", timeout=READY_TIMEOUT_MS)
        assert page.locator("#board [data-figure]").count() > 0
        page.wait_for_selector("html[data-offline=ready]", timeout=READY_TIMEOUT_MS)
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{root}{folder}/"
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    assert [u for u in requested if not u.startswith(f"{root}{folder}/")] == []
