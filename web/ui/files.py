"""The page's one way to hand out a file: a Blob behind a hidden ``<a download>``."""

from __future__ import annotations

from typing import Any


def download_blob(filename: str, blob: Any) -> None:
    """Offer ``blob`` as a file download (its URL is revoked a second later)."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    url = js.URL.createObjectURL(blob)
    link = js.document.createElement("a")
    link.href = url
    link.download = filename
    link.hidden = True
    js.document.body.append(link)
    link.click()
    link.remove()
    js.setTimeout(create_once_callable(lambda: js.URL.revokeObjectURL(url)), 1000)


def download_text(filename: str, text: str, mime: str = "application/json") -> None:
    """Offer ``text`` as a file download of type ``mime``."""
    import js

    options = js.Object.fromEntries([["type", mime]])
    download_blob(filename, js.Blob.new([text], options))
