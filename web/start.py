"""The page's start-up, run by ``web/main.py`` (PyScript's entry): load the engine, draw,
mark ready.

It runs on the page's main thread; it only sequences start-up, the other modules in
``web/`` do the work. Any exception becomes the page's error screen
(``data-app-state="error"``). It lives here, not in ``web/main.py``, because PyScript
compiles its entry from source in the page, while this module comes compiled with the
others (``web/build.py``): 8-16 ms of a cold start.
"""

from __future__ import annotations

import asyncio
import importlib
import traceback

import js  # type: ignore[import-not-found]


async def run() -> None:
    """Start the app, or show why it cannot."""
    js.performance.mark("hexcombat:main")  # PyScript's set-up ends: the page's own Python begins
    if getattr(js, "hexcombatBoot", None) is None:
        show_failure_without_controller(
            "The page's start-up script was blocked, so the app cannot start.",
            "window.hexcombatBoot is missing: a Content-Security-Policy that does not list the "
            "start-up script's hash (web/build.py computes it) blocks the inline script in "
            "index.html.",
        )
        return
    try:
        await start()
    except Exception:
        js.hexcombatBoot.fail(
            "The app's Python code failed while starting.", traceback.format_exc()
        )


async def start() -> None:
    """Import the engine and the app, open and draw the first encounter, mark the page ready."""
    from web import boot, later

    later.install()
    boot.set_stage("engine")
    await boot.next_frame()
    try:  # only a test build has it (web/build.py --extra-ruleset): it registers rulesets
        import hexcombat_extras  # type: ignore[import-not-found]  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name != "hexcombat_extras":
            raise
    from web.share import links

    kind = links.page_kind(str(js.location.search), str(js.location.hash))
    if kind != "app":  # a share link or the embed view: the read-only viewer, no library
        await later.load()  # the viewer is there (a link may be of any ruleset too)
        from web.share import viewer

        boot.set_stage("board")
        await boot.next_frame()
        await viewer.start(kind)
        await boot.next_frame()
        boot.mark_ready()
        return
    from web import app

    # no frame waited for to paint the "board" stage's words before drawing (10-150 ms of a
    # cold start): the next frame shows the board itself
    boot.set_stage("board")
    started = await app.start()
    await boot.next_frame()
    boot.mark_ready()
    started.after_ready()
    await later.load()
    from web.share import PANEL_IMPORTS

    for name in PANEL_IMPORTS:  # one module a task: the page answers between them
        importlib.import_module(name)
        await asyncio.sleep(0)
    from web.share import panel

    panel.after_start(started)


def show_failure_without_controller(message: str, detail: str) -> None:
    """The error screen when the page's start-up controller never ran.

    That happens when a Content-Security-Policy blocks the inline script in index.html
    (a policy without its hash); the page must still say why it does not start.
    """
    document = js.document
    document.documentElement.dataset.appState = "error"
    for element_id, hidden in (("boot", True), ("boot-error", False)):
        element = document.getElementById(element_id)
        if element is not None:
            element.hidden = hidden
    for element_id, text in (("boot-error-message", message), ("boot-error-detail", detail)):
        element = document.getElementById(element_id)
        if element is not None:
            element.textContent = text
    retry = document.getElementById("retry-button")
    if retry is not None:  # the controller would have wired it: Retry reloads the page
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        retry.addEventListener("click", create_proxy(lambda *_: js.location.reload()))
        retry.focus()
