"""Talk to the page's start-up controller (the ``hexcombatBoot`` object in index.html)."""

from __future__ import annotations

import js  # type: ignore[import-not-found]

STAGES = ("runtime", "python", "engine", "board")


def set_stage(stage: str) -> None:
    """Show a start-up stage (one of ``STAGES``) in the loading screen."""
    if stage not in STAGES:
        raise ValueError(f"unknown start-up stage {stage!r}; expected one of {', '.join(STAGES)}")
    js.hexcombatBoot.stage(stage)


async def next_frame() -> None:
    """Let the browser paint (for example the progress bar) before continuing."""
    await js.hexcombatBoot.nextFrame()


def mark_ready() -> None:
    """Mark the page ready: engine loaded and first screen drawn."""
    js.hexcombatBoot.ready()


def show_failure(message: str, detail: str = "") -> None:
    """Switch the page to its error screen with a plain-words message and details."""
    js.hexcombatBoot.fail(message, detail)


def keep_offline() -> None:
    """Register the service worker that caches the whole app for offline play.

    Skipped where the browser has none (or the page is not served over http(s));
    a failure only means no offline copy, so it is logged, never shown as an error.
    """
    navigator = js.navigator
    if not hasattr(navigator, "serviceWorker") or not str(js.location.protocol).startswith("http"):
        return
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    promise = navigator.serviceWorker.register("./sw.js")
    # a plain lambda would be a proxy destroyed when .catch() returns, before the promise
    # settles ("Object has already been destroyed" when registration is refused)
    promise.catch(
        create_once_callable(lambda error: js.console.warn("hexcombat: no offline copy:", error))
    )
