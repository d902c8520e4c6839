"""The Python start-up snapshot, made once per test run and given to each fresh context.

A plain start (Python's own start-up plus the engine's imports) is most of a browser test's
time on this machine. A kept snapshot skips it, as it does for a player whose browser keeps
the app: one is made for this build as the app makes it (a page with its service worker and
``window.hexcombatSnapshot = 'now'``), read out of Cache Storage, kept under ``.cache/`` by
the build's snapshot key, and each context made by ``new_app`` starts from it
(``window.hexcombatSnapshot = 'given'``, see web/python-start.mjs). Tests of the plain start
and of the snapshot itself make their own contexts and never get it.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import http.server
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext

ROOT = Path(__file__).resolve().parents[2]
KEPT = ROOT / ".cache" / "test-snapshot"
GIVE = "window.hexcombatSnapshot = 'given';"
MAKE_NOW = "window.hexcombatSnapshot = 'now';"
CHUNK = 4 << 20
MAKE_TIMEOUT_MS = 180_000


@dataclass
class GivenSnapshot:
    """A build's snapshot bytes and the SHA-256 digest the page checks them against, served
    on 127.0.0.1 (a route that fulfils 31 MB itself is many times slower than a server)."""

    data: bytes
    digest: str
    url: str = field(init=False, default="")

    def serve(self) -> None:
        """Serve the snapshot with its digest header (once; a daemon thread)."""
        snapshot = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("content-type", "application/octet-stream")
                self.send_header("content-length", str(len(snapshot.data)))
                self.send_header("x-hexcombat-sha256", snapshot.digest)
                self.end_headers()
                self.wfile.write(snapshot.data)

            def log_message(self, *args: object) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/python-snapshot.bin"

    def give(self, context: BrowserContext, base_url: str) -> None:
        """Make every page of ``context`` at ``base_url`` (the build this snapshot belongs
        to) start Python from this snapshot; pages of other builds start plain."""
        if not self.url:
            self.serve()
        context.add_init_script(GIVE)
        context.route(f"{base_url}python-snapshot.bin", lambda route: route.continue_(url=self.url))


def snapshot_key(site: Path) -> str:
    """The build's snapshot key, as web/build.py wrote it into python-start.mjs."""
    text = (site / "python-start.mjs").read_text(encoding="utf-8")
    found = re.search(r'"hexcombat-python-([^"]+)"', text)
    assert found, "python-start.mjs names no snapshot cache"
    return found.group(1)


def kept_or_made(browser: Browser, site: Path, url: str) -> GivenSnapshot:
    """This build's snapshot: kept from an earlier run (or another worker), else made now."""
    KEPT.mkdir(parents=True, exist_ok=True)
    key = snapshot_key(site)
    data_path, digest_path = KEPT / f"{key}.bin", KEPT / f"{key}.sha256"
    with (KEPT / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two pytest workers make it once
        if data_path.is_file() and digest_path.is_file():
            data, digest = data_path.read_bytes(), digest_path.read_text().strip()
            if hashlib.sha256(data).hexdigest() == digest:
                return GivenSnapshot(data, digest)
        for old in [*KEPT.glob("*.bin"), *KEPT.glob("*.sha256")]:  # other builds'
            old.unlink()
        snapshot = _make(browser, url)
        data_path.write_bytes(snapshot.data)
        digest_path.write_text(snapshot.digest)
        return snapshot


def _make(browser: Browser, url: str) -> GivenSnapshot:
    """Start the app with its service worker until it has made its snapshot; read it out."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(MAKE_NOW)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-python-snapshot]", timeout=MAKE_TIMEOUT_MS)
        made = page.evaluate("document.documentElement.dataset.pythonSnapshot")
        assert made == "made", f"the app made no snapshot ({made})"
        head = page.evaluate(
            """async () => {
              const name = (await caches.keys()).find(k => k.startsWith("hexcombat-python-"));
              const cache = await caches.open(name);
              const [request] = await cache.keys();
              const entry = await cache.match(request);
              window.givenSnapshot = new Uint8Array(await entry.arrayBuffer());
              return [window.givenSnapshot.length, entry.headers.get("x-hexcombat-sha256")];
            }"""
        )
        size, digest = int(head[0]), str(head[1])
        parts = [
            base64.b64decode(
                page.evaluate(
                    """([start, end]) => {
                      const bytes = window.givenSnapshot.subarray(start, end);
                      let text = "";
                      for (let i = 0; i < bytes.length; i += 32768) {
                        text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
                      }
                      return btoa(text);
                    }""",
                    [start, min(start + CHUNK, size)],
                )
            )
            for start in range(0, size, CHUNK)
        ]
    finally:
        context.close()
    data = b"".join(parts)
    assert hashlib.sha256(data).hexdigest() == digest, "the snapshot read out is not the one kept"
    return GivenSnapshot(data, digest)
