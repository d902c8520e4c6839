"""Holding back the runtime's WebAssembly, so a test can look at the page before Python starts
(on a busy machine Python, started from the build's snapshot, can otherwise win the race)."""

from __future__ import annotations

from playwright.sync_api import Page, Route

ASKED_WITHIN_MS = 30_000
RUNTIME = "**/pyodide.asm.wasm"


def hold_the_runtime(page: Page) -> list[Route]:
    """Hold every request for ``pyodide.asm.wasm`` of ``page``; the held routes, in order."""
    held: list[Route] = []
    page.route(RUNTIME, lambda route: held.append(route))
    return held


def release_the_runtime(page: Page, held: list[Route]) -> None:
    """Let the held WebAssembly through once the page has asked for it (a busy machine may
    show the loading screen before the loader asks); Python must not be up before. Later
    loads of the page are not held."""
    for _ in range(ASKED_WITHIN_MS // 100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page never asked for the runtime's WebAssembly"
    assert not page.evaluate("performance.getEntriesByName('hexcombat:python-up').length")
    held[0].continue_()
    page.unroute(RUNTIME)
