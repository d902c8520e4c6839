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
