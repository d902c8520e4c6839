"""The first screen drawn once the engine is loaded (a placeholder until the board exists)."""

from __future__ import annotations

import js  # type: ignore[import-not-found]

APP_NAME = "Hex Combat"


def render(engine_version: str) -> None:
    """Draw the app name and the engine version into ``#app-root``."""
    document = js.document
    root = document.getElementById("app-root")
    root.replaceChildren()
    box = document.createElement("section")
    box.className = "placeholder"
    title = document.createElement("h1")
    title.className = "app-name"
    title.textContent = APP_NAME
    version = document.createElement("p")
    version.className = "version"
    version.id = "engine-version"
    version.dataset.engineVersion = engine_version
    version.textContent = f"Rules engine {engine_version}"
    box.append(title, version)
    root.append(box)
