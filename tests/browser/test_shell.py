"""The page shell: offline start-up to ready, loading stages, and the error screen."""

from __future__ import annotations

import json
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Route, expect

import hexcombat
from web import build, site_server

from .appdriver import module_app
from .conftest import App
from .held_runtime import hold_the_runtime, release_the_runtime

pytestmark = pytest.mark.browser

desktop = module_app("desktop")
"""A started page for the tests that store something hostile and start again (reload)."""

STAGES = ["runtime", "python", "engine", "board"]
STAGE_WORDS = [
    "Downloading the runtime",
    "Starting Python",
    "Loading the rules engine",
    "Drawing the board",
]


def test_app_reaches_ready_offline_and_shows_engine_version(app: App) -> None:
    """Start-up ends in data-app-state=ready with the engine version, all from 127.0.0.1."""
    app.open()
    app.wait_ready()

    engine_version = str(getattr(hexcombat, "__version__", "dev"))
    version = app.page.locator("[data-engine-version]").first
    expect(version).to_be_visible()
    expect(version).to_have_attribute("data-engine-version", engine_version)
    expect(version).to_contain_text(engine_version)
    expect(app.page.locator("#boot")).to_be_hidden()
    expect(app.page.locator("#boot-error")).to_be_hidden()
    # Python started from this build's start-up snapshot (the run gives each context the one
    # the build's snapshot worker made): a snapshot that cannot be restored falls back to a
    # plain start with only a warning, which no other test would notice
    expect(app.page.locator("html")).to_have_attribute("data-python-start", "snapshot")
    # the start's archives were decompressed by the page's worker (web/bunzip2.mjs) while
    # Python started, not by Python's bz2 after Python was up (the fallback, silent otherwise)
    expect(app.page.locator("html")).to_have_attribute("data-start-unpacked", "worker")
    app.screenshot("shell-ready")

    paths = app.paths_requested()
    assert "/vendor/pyodide/pyodide.asm.wasm" in paths
    # the start's archives: fetched once each (by python-start.mjs's worker)
    assert paths.count("/hexcombat.tar.bz2") == 1 and paths.count("/web.tar.bz2") == 1
    assert "/favicon.ico" not in paths, "the page must declare its icon"
    assert app.blocked == []


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_loading_screen_shows_stages_in_order_and_what_the_first_draw_needs_not_comes_after(
    app: App,
) -> None:
    """While loading: app name, a progress bar and a stage in words; stages advance in order
    (the runtime's download and Python's start overlap). later.tar.bz2 (the other rulesets, the
    set-up, library and share panels) is requested once the page is ready, and then a
    ruleset and a panel from it work (one start watched for both)."""
    held = hold_the_runtime(app.page)  # the loading screen stays until the test has looked
    app.open()
    assert app.state == "loading"
    expect(app.page.locator("#boot-title")).to_have_text("Hex Combat")
    expect(app.page.locator("#boot-progress")).to_be_visible()
    stage_text = app.page.locator("#boot-stage").inner_text()
    assert any(stage_text.startswith(words) for words in STAGE_WORDS), stage_text
    app.screenshot("shell-loading")

    release_the_runtime(app.page, held)
    app.wait_ready()
    timings = app.page.evaluate("hexcombatBoot.timings")
    reached = [stage for stage in STAGES if stage in timings]
    assert reached == STAGES, f"stages seen: {timings}"
    # Python starts while the runtime's last files are still arriving (python-start.mjs starts
    # it at once), so "runtime" and "python" may be told in either order; the rest is in order
    after_start = [timings[stage] for stage in STAGES[1:]]
    assert after_start == sorted(after_start)
    assert timings["runtime"] <= timings["engine"]
    assert timings["ready"] >= timings["board"]
    assert app.page.locator("#boot-progress").get_attribute("value") == "100"

    app.page.wait_for_function(
        "performance.getEntriesByName(new URL('later.tar.bz2', location.href).href).length > 0"
    )
    requested_at = app.page.evaluate(
        "performance.getEntriesByName(new URL('later.tar.bz2', location.href).href)[0].startTime"
    )
    assert requested_at >= app.page.evaluate("hexcombatBoot.timings.ready")
    # decompressed in a worker and written out without Python's tarfile (0.2 s of the main
    # thread just after ready when it was imported)
    expect(app.page.locator("html")).to_have_attribute("data-later-unpacked", "worker")
    app.page.locator('#mode-switch [data-mode="edit"]').click()  # the set-up panel
    expect(app.page.locator("html")).to_have_attribute("data-mode", "edit")
    app.page.locator("#menu-button").click()
    app.page.locator('#menu [data-cmd="new"]').click()  # the library's new-encounter form
    select = app.page.locator('[data-field="ruleset"] select')
    expect(select).to_be_visible()
    options = select.locator("option").all_inner_texts()
    select.select_option(index=next(i for i, t in enumerate(options) if t.startswith("FIG")))
    expect(app.page.locator('[data-lib="create"]')).to_be_visible()
    assert app.page.evaluate("hexcombatBoot.error") is None


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_missing_wasm_shows_error_screen_with_retry(
    app: App, site_copy: Path, serve_folder: Callable[[Path], str]
) -> None:
    """Without pyodide.asm.wasm the page says so in plain words and offers Retry."""
    (site_copy / "vendor" / "pyodide" / "pyodide.asm.wasm").unlink()
    url = serve_folder(site_copy)
    app.open(url)
    assert app.wait_started() == "error"

    page = app.page
    expect(page.locator("#boot-error")).to_be_visible()
    expect(page.locator("#boot-error-message")).to_contain_text("pyodide.asm.wasm")
    expect(page.locator("#boot-error")).to_contain_text("saved encounters are safe")
    retry = page.locator("#retry-button")
    expect(retry).to_be_visible()
    expect(retry).to_be_enabled()
    expect(page.locator("#boot")).to_be_hidden()
    app.screenshot("shell-missing-wasm")

    with page.expect_navigation():
        retry.click()
    assert app.wait_started() == "error"


RUNTIME_FILES = [
    "vendor/pyscript/core.js",
    "pyscript.json",
    "python-start.mjs",
    "vendor/pyodide/pyodide.mjs",
    "vendor/pyodide/pyodide.asm.mjs",
    "vendor/pyodide/pyodide.asm.wasm",
    "python-stdlib.zip",
    "web/main.py",
    "web.tar.bz2",
    "hexcombat.tar.bz2",
]


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
@pytest.mark.parametrize("path", RUNTIME_FILES)
def test_a_blocked_runtime_file_is_named_on_the_error_screen(app: App, path: str) -> None:
    """Any file the app cannot start without, blocked by the network: the error names it."""
    blocked: list[str] = []

    def abort(route: Route) -> None:
        blocked.append(route.request.url)
        route.abort()

    app.page.route(f"**/{path}", abort)
    app.open()
    assert app.wait_started() == "error"
    assert blocked, f"{path} was never requested"
    name = path.rsplit("/", 1)[-1]
    message = app.page.locator("#boot-error-message")
    expect(message).to_contain_text(name)
    expect(message).not_to_contain_text("directly opening")
    expect(app.page.locator("#retry-button")).to_be_visible()


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_a_start_archive_that_cannot_be_unpacked_is_named_on_the_error_screen(
    app: App, site_copy: Path, serve_folder: Callable[[Path], str]
) -> None:
    """A damaged start archive (python-start.mjs unpacks it, not PyScript): the error names it."""
    (site_copy / build.PAGE_ARCHIVE).write_bytes(b"BZh9 not a bzip2 stream")
    app.open(serve_folder(site_copy))
    assert app.wait_started() == "error"
    message = app.page.locator("#boot-error-message")
    expect(message).to_contain_text(f"could not be unpacked: {build.PAGE_ARCHIVE}")
    expect(app.page.locator("#retry-button")).to_be_visible()


# web/main.py, noting on the page which standard-library modules Python compiled from source
# (Pyodide's zip of sources) by the time the page was ready; a module that runs on first use
# (web/lazy_imports.py) is not compiled until then.
NOTE_COMPILED_AT_READY = """
import json, sys
import js
from web import boot

def origin(module):
    return getattr(getattr(module, "__spec__", None), "origin", None) or ""

def from_source():
    return sorted(name for name, module in sys.modules.items()
                  if type(module).__name__ != "_LazyModule" and origin(module).endswith(".py")
                  and origin(module).startswith("/lib/python314.zip/"))

mark_ready = boot.mark_ready
def noted():
    js.document.documentElement.dataset.fromSource = json.dumps(from_source())
    mark_ready()
boot.mark_ready = noted
from web.start import run
await run()
"""


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_a_plain_start_compiles_no_standard_library_module_before_ready(
    app: App, site_copy: Path, serve_folder: Callable[[Path], str]
) -> None:
    """Every standard-library module a start imports, Pyodide's own start's, the
    engine's and the page's, comes compiled in the app's zip (web/stdlib_zip.py): compiling
    Pyodide's sources was most of Python's own start."""
    (site_copy / "web" / "main.py").write_text(NOTE_COMPILED_AT_READY, encoding="utf-8")
    app.open(serve_folder(site_copy))
    app.wait_ready()
    expect(app.page.locator("html")).to_have_attribute("data-python-start", "plain")
    noted = app.page.evaluate("document.documentElement.dataset.fromSource")
    assert json.loads(noted) == []


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_python_exception_at_start_up_shows_error_screen(
    app: App, site_copy: Path, serve_folder: Callable[[Path], str]
) -> None:
    """An exception while Python starts the app ends in the error screen with the traceback."""
    archive = site_copy / build.ENGINE_ARCHIVE
    with tarfile.open(archive) as original:
        entries = {m.name: original.extractfile(m).read() for m in original}  # type: ignore[union-attr]
    del entries["hexcombat/__init__.pyc"]
    entries["hexcombat/__init__.py"] = b'raise RuntimeError("the engine is broken")\n'
    build.write_tbz(archive, entries)
    app.open(serve_folder(site_copy))
    assert app.wait_started() == "error"

    expect(app.page.locator("#boot-error-message")).to_contain_text("Python code failed")
    expect(app.page.locator("#retry-button")).to_be_visible()
    details = app.page.locator("#boot-error-detail")
    expect(details).to_contain_text("RuntimeError: the engine is broken", use_inner_text=False)
    app.screenshot("shell-python-error")


SNAPSHOT_PAYLOADS = [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="window.pwned=1"><rect width="9"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="x.png" onerror="window.pwned=2"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9"><animate attributeName="x" '
    'dur="1ms" onbegin="window.pwned=3"/></rect></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:window.pwned=4"><text>x</text>'
    '</a><set attributeName="onmouseover" to="window.pwned=5"/></svg>',
    "<svg onload=window.pwned=6><foreignObject><img src=x onerror=window.pwned=7></foreignObject>",
]


def test_a_planted_boot_snapshot_never_runs(desktop: App) -> None:
    """The warm-start board from localStorage is rebuilt from an allow-list: no handler runs."""
    app, page = desktop, desktop.page
    for payload in SNAPSHOT_PAYLOADS:
        page.evaluate(
            "(svg) => localStorage.setItem('hexcombat.snapshot', "
            "JSON.stringify({rect: [0, 0, 200, 200], svg}))",
            payload,
        )
        page.reload(wait_until="domcontentloaded")
        page.wait_for_timeout(300)
        assert page.evaluate("window.pwned") is None, payload
        assert page.locator("#boot-snapshot [onload], #boot-snapshot image").count() == 0
        app.wait_ready()
        assert page.evaluate("window.pwned") is None, payload


def test_a_hostile_last_opened_entry_does_not_stop_start_up(desktop: App) -> None:
    """100,000-deep JSON as the last-opened entry: the app starts on something else."""
    app, page = desktop, desktop.page
    page.evaluate(
        """() => {
            localStorage.setItem("hexcombat:enc:deep:r1", "[".repeat(100000) + "]".repeat(100000));
            localStorage.setItem("hexcombat:last", "deep");
        }"""
    )
    page.reload(wait_until="domcontentloaded")
    app.wait_ready()
    expect(page.locator("#toast")).to_contain_text("could not be opened")
    assert page.evaluate("localStorage.getItem('hexcombat:last')") != "deep"
    assert page.evaluate("localStorage.getItem('hexcombat:enc:deep:r1')").startswith("[[[")


VIOLATIONS_SEEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
  `${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_the_whole_app_runs_under_its_content_security_policy(app: App) -> None:
    """The built page's policy (meta tag and header alike) lets the app do everything it does."""
    app.page.add_init_script(VIOLATIONS_SEEN)
    response = app.page.goto(app.base_url, wait_until="domcontentloaded")
    assert response is not None
    header = response.headers.get("content-security-policy", "")
    meta = app.page.locator('meta[http-equiv="Content-Security-Policy"]')
    assert meta.get_attribute("content") == header
    for needed in ("default-src 'none'", "'wasm-unsafe-eval'", "'unsafe-eval'", "'sha256-"):
        assert needed in header
    assert "'unsafe-inline'" not in header.split("style-src-attr")[0], "inline scripts or <style>"
    app.wait_ready()

    page = app.page
    page.click("[data-cmd=switch-mode][data-mode=edit]")
    page.click("[data-cmd=switch-mode][data-mode=play]")
    page.locator("[data-figure]").first.click()
    page.click("[data-cmd=menu]")
    page.click("[data-cmd=legend]")
    expect(page.locator("#dialog")).to_be_visible()
    page.keyboard.press("Escape")
    page.click("[data-cmd=menu]")
    page.click("[data-cmd=library]")
    expect(page.locator("#dialog")).to_be_visible()
    page.keyboard.press("Escape")
    page.reload(wait_until="domcontentloaded")  # the warm start paints the stored board
    app.wait_ready()
    assert page.evaluate("window.__violations") == []
    assert page.evaluate("hexcombatBoot.violations") == []


def _policy_of(site: Path) -> str:
    """The Content-Security-Policy in a built site's index.html."""
    policy = site_server.page_policy(site)
    assert policy
    return str(policy)


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_a_policy_without_unsafe_eval_ends_on_the_error_screen(
    app: App, site: Path, serve_folder: Callable[..., str]
) -> None:
    """PyScript needs 'unsafe-eval': without it the page says the policy blocked it."""
    strict = _policy_of(site).replace(" 'unsafe-eval'", "")
    app.open(serve_folder(site, strict))
    assert app.wait_started() == "error"
    expect(app.page.locator("#boot-error-message")).to_contain_text("security policy")
    expect(app.page.locator("#boot-error-detail")).to_contain_text("eval", use_inner_text=False)
    expect(app.page.locator("#retry-button")).to_be_visible()


@pytest.mark.parametrize("app", ["desktop"], indirect=True)
def test_a_policy_that_blocks_the_start_up_script_ends_on_the_error_screen(
    app: App, site: Path, serve_folder: Callable[..., str]
) -> None:
    """A policy without the inline script's hash: Python shows the error screen itself."""
    app.open(serve_folder(site, "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'"))
    assert app.wait_started() == "error"
    expect(app.page.locator("#boot-error")).to_be_visible()
    expect(app.page.locator("#boot-error-message")).to_contain_text("start-up script was blocked")
    with app.page.expect_navigation():  # Retry works without the controller too
        app.page.locator("#retry-button").click()
    assert app.wait_started() == "error"
