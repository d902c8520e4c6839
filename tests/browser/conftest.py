"""Browser test fixtures: one site build, one local server and one Chromium per session.

Every page runs in a fresh context whose requests are all recorded: anything not
addressed to 127.0.0.1 is routed, aborted, recorded, and fails the test at teardown.
(Routing turns Chromium's HTTP cache off; that is fine here, but keep it out of
load-time benchmarks.) Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from built_site import ROOT, fresh_site
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    Route,
    expect,
    sync_playwright,
)

from web import site_server

from .chromium_flags import CHROMIUM_ARGS
from .given_snapshot import GivenSnapshot, kept_or_made

ARTIFACTS = ROOT / "test-artifacts"
READY_TIMEOUT_MS = 60_000
expect.set_options(timeout=20_000)
"""An expectation waits for its condition up to 20 s (Playwright's default, 5 s, is short for
a page on two loaded cores shared by four test workers and the Pyodide stage)."""
NO_SNAPSHOT = "window.hexcombatSnapshot = 'off';"
"""Init script for a context whose test does not need the Python start-up snapshot (made in
a worker beside the page a moment after an offline-kept start; see web/python-start.mjs)."""
SNAPSHOT_NOW = "window.hexcombatSnapshot = 'now';"
"""Init script for a context whose test needs the snapshot without the wait a device of few
cores (this machine too) has before making it (web/index.html, makeSnapshotLater)."""
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
NOT_LOCAL = re.compile(r"^(?!https?://127\.0\.0\.1(:\d+)?/)")
"""Every URL whose host is not 127.0.0.1: aborted and recorded by the fixtures' contexts."""

# Browser context options per viewport. The offline service worker is blocked here (it
# would precache the whole 15 MB site in every test's fresh context); test_offline.py
# tests it on its own.
VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "service_workers": "block"},
    "tablet-portrait": {
        "viewport": {"width": 1024, "height": 1366},
        "has_touch": True,
        "is_mobile": True,
        "service_workers": "block",
    },
    "tablet-landscape": {
        "viewport": {"width": 1366, "height": 1024},
        "has_touch": True,
        "is_mobile": True,
        "service_workers": "block",
    },
}


def _load_site_build() -> ModuleType:
    """Import web/build.py (the build script and its static server) as a module."""
    spec = importlib.util.spec_from_file_location("hexcombat_site_build", ROOT / "web" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site_build = _load_site_build()


def _write_line(config: pytest.Config, line: str) -> None:
    """Print a line in pytest's terminal output, even while output is captured."""
    capture = config.pluginmanager.get_plugin("capturemanager")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if capture is None or reporter is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(line)


SHARED_SCOPES = {"module", "class", "package"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the browser tests that share a started page on one pytest-xdist worker.

    A test whose fixtures include a module-scoped (or wider) page gets the xdist group
    ``<file>::<fixture>=<param>`` (tests/run passes ``--dist loadgroup``): one group per
    module and viewport, so each such page starts once and the viewports of a module can
    still run on both workers. A test that starts its own page stays ungrouped; a module
    that names its own group (its viewports share something costlier than a page) keeps it."""
    here = Path(__file__).parent
    for item in items:
        if here not in item.path.parents or item.get_closest_marker("xdist_group"):
            continue
        defs = getattr(item, "_fixtureinfo", None)
        if defs is None:
            continue
        shared = sorted(
            name
            for name, found in defs.name2fixturedefs.items()
            if found and found[-1].scope in SHARED_SCOPES
        )
        if not shared:
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        key = ",".join(f"{name}={params.get(name, '')}" for name in shared)
        item.add_marker(pytest.mark.xdist_group(f"{item.path.name}::{key}"))


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site folder (built once per session when missing or stale; pytest's
    workers take turns, so only the first builds it)."""
    return fresh_site(site_build.build)


@pytest.fixture(scope="session")
def serve_folder() -> Iterator[Callable[[Path], str]]:
    """A function that serves a folder on 127.0.0.1 (free port) and returns its base URL.

    Responses carry the Content-Security-Policy header of the folder's ``index.html``
    (as ``web/serve`` sends it), or ``policy`` when one is given.
    """
    servers = []

    def serve(folder: Path, policy: str | None = None) -> str:
        server = site_server.make_server(folder, 0, quiet=True, policy=policy)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


GIVEN: dict[str, GivenSnapshot] = {}
"""The Python start-up snapshot given to the contexts ``new_app`` makes, by the base URL of
the build it belongs to (see given_snapshot.py)."""


def give_snapshots(context: BrowserContext) -> None:
    """Start every page of ``context`` from its build's snapshot, at every base URL whose
    build has one (a test that serves the site at more addresses adds them to GIVEN)."""
    for url, snapshot in GIVEN.items():
        snapshot.give(context, url)


@pytest.fixture(scope="session")
def base_url(site: Path, serve_folder: Callable[[Path], str], browser: Browser) -> str:
    """Base URL of the built site, served for the whole session, with its snapshot made."""
    url = serve_folder(site)
    GIVEN[url] = kept_or_made(browser, site, url)
    return url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """The Playwright driver (sync API)."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright, pytestconfig: pytest.Config) -> Iterator[Browser]:
    """Headless Chromium: Debian's /usr/bin/chromium if present, else Playwright's own."""
    if DEBIAN_CHROMIUM.exists():
        launched = playwright.chromium.launch(
            executable_path=str(DEBIAN_CHROMIUM), args=CHROMIUM_ARGS
        )
        where = f"Debian Chromium at {DEBIAN_CHROMIUM}"
    else:
        launched = playwright.chromium.launch(args=CHROMIUM_ARGS)
        where = "Playwright's own Chromium (no /usr/bin/chromium)"
    _write_line(pytestconfig, f"browser tests: {where}, version {launched.version}")
    _write_line(pytestconfig, f"launched with: {' '.join(CHROMIUM_ARGS)}")
    yield launched
    launched.close()


@dataclass
class App:
    """One page of the app in a fresh browser context, with its request log."""

    page: Page
    base_url: str
    viewport: str
    requested: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def open(self, url: str | None = None) -> None:
        """Navigate to the app (or another local URL) without waiting for start-up."""
        self.page.goto(url or self.base_url, wait_until="domcontentloaded")

    @property
    def state(self) -> str:
        """The page's ``data-app-state``."""
        return str(self.page.evaluate("document.documentElement.dataset.appState"))

    def wait_started(self, timeout_ms: int = READY_TIMEOUT_MS) -> str:
        """Wait until start-up ends (ready or error) and return the state."""
        # A selector, not a function: a page whose policy forbids eval can still be waited on.
        self.page.wait_for_selector(
            "html:not([data-app-state=loading])", state="attached", timeout=timeout_ms
        )
        return self.state

    def wait_ready(self, timeout_ms: int = READY_TIMEOUT_MS) -> None:
        """Wait for ``html[data-app-state=ready]``; fail with the page's own error otherwise."""
        state = self.wait_started(timeout_ms)
        if state != "ready":
            error = self.page.evaluate("window.hexcombatBoot && window.hexcombatBoot.error")
            recent = "\n".join(self.console[-15:])
            pytest.fail(f"app start-up ended in {state!r}: {error}\nconsole:\n{recent}")

    def screenshot(self, name: str) -> Path:
        """Save a full-page screenshot as test-artifacts/NAME-VIEWPORT.png and return its path."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}-{self.viewport}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def paths_requested(self) -> list[str]:
        """The URL paths of every request the page made."""
        return [urlsplit(url).path for url in self.requested]


def new_app(
    browser: Browser,
    base_url: str,
    viewport: str,
    options: dict[str, Any],
    *,
    plain_start: bool = False,
) -> App:
    """A fresh context and page with ``options``, whose requests and console are watched.

    Every request that is not to 127.0.0.1 is aborted and recorded in ``app.blocked``;
    console lines and page errors (with their JS stack) go to ``app.console``. Python starts
    from the build's snapshot when the session made one for ``base_url``, unless
    ``plain_start``.
    """
    context = browser.new_context(**options)
    page = context.new_page()
    app = App(page, base_url, viewport)

    def block(route: Route) -> None:
        app.blocked.append(route.request.url)
        route.abort()

    # Only the requests that leave 127.0.0.1 are routed (Playwright matches the pattern in
    # its driver): a local one no longer waits for this process to let it through, which
    # the busy test worker made slow; every request is still recorded, from its event.
    context.on("request", lambda request: app.requested.append(request.url))
    context.route(NOT_LOCAL, block)
    given = None if plain_start else GIVEN.get(base_url)
    if given is not None:
        given.give(context, base_url)
    page.on("console", lambda message: app.console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: app.console.append(f"pageerror: {error}\n{error.stack}"))
    return app


@pytest.fixture(params=list(VIEWPORTS))
def app(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """A fresh context and page at one viewport; asserts no non-local request was made.

    Parametrized over desktop and tablet (touch) sizes; a test can pick some with
    ``@pytest.mark.parametrize("app", ["desktop"], indirect=True)``.
    """
    viewport = str(request.param)
    app = new_app(browser, base_url, viewport, VIEWPORTS[viewport])
    yield app
    app.page.context.close()
    assert app.blocked == [], f"the page made non-local requests: {app.blocked}"


@pytest.fixture
def site_copy(site: Path, tmp_path: Path) -> Path:
    """A private copy of the built site, for tests that break it on purpose."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    return copy
