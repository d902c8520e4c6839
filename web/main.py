"""PyScript entry point of the Hex Combat page: load the engine, draw, mark ready.

PyScript runs this file on the page's main thread with top-level ``await``. It
only sequences start-up; the modules in ``web/`` do the work. Any exception
becomes the page's error screen (``data-app-state="error"``).
"""

from __future__ import annotations

import traceback

import js  # type: ignore[import-not-found]


async def start() -> None:
    """Import the engine and the app, open and draw the first encounter, mark the page ready."""
    from web import boot

    boot.set_stage("engine")
    await boot.next_frame()
    try:  # only a test build has it (web/build.py --extra-ruleset): it registers rulesets
        import hexcombat_extras  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name != "hexcombat_extras":
            raise
    from web import app

    boot.set_stage("board")
    await boot.next_frame()
    await app.start()
    await boot.next_frame()
    boot.mark_ready()


try:
    await start()  # noqa: F704 -- PyScript runs this file asynchronously
except Exception:
    js.hexcombatBoot.fail("The app's Python code failed while starting.", traceback.format_exc())
