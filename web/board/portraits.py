"""The figures' portraits on their tokens: each an SVG ``<image class="portrait">`` cropped to
the inside of the token's ring (``hexcombat.render.portrait_image``, the clip in the board's
defs), its bytes from the page's picture store (``web/library/pictures.py``) by the digest
the figure names.

A token names its portrait's digest in ``data-digest`` and says in ``data-portrait`` whether
it is ``loading``, ``shown`` or ``missing`` (not in this browser); the initials show until
the picture is drawn, and stay when it is missing. Each picture is looked up once and kept as
an object URL for every token that shows it, and for every ``<img data-portrait-preview>``
naming its digest (the figure editor's preview).
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]

from web.library.pictures import PagePictures


class Portraits:
    """The object URLs of the portraits drawn on the board, by digest."""

    def __init__(self, svg: Any, pictures: PagePictures) -> None:
        self.svg = svg
        self.pictures = pictures
        self.urls: dict[str, str] = {}
        self.missing: set[str] = set()
        """Digests the store did not hold when last looked up."""
        self._looking: set[str] = set()
        self._tasks: set[asyncio.Future[None]] = set()

    def state(self, digest: str) -> tuple[str, str]:
        """The ``href`` to draw ``digest`` with now ('' while it loads or is missing) and its
        ``data-portrait``; a digest not looked up yet is looked up."""
        url = self.urls.get(digest)
        if url is not None:
            return url, "shown"
        if digest in self.missing:
            return "", "missing"
        if digest not in self._looking:
            self._looking.add(digest)
            task = asyncio.ensure_future(self._load(digest))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return "", "loading"

    def url(self, digest: str) -> str | None:
        """The object URL of ``digest`` once it is drawn (None before, or when missing)."""
        return self.urls.get(digest)

    def keep(self, digest: str, data: bytes, kind: str) -> None:
        """Draw ``digest`` from ``data`` now (the picture was just chosen and kept)."""
        if digest not in self.urls:
            self._show(digest, data, kind)

    def look_again(self) -> None:
        """Look the missing portraits up again (pictures came from the table's host, or were
        just chosen)."""
        again, self.missing = self.missing, set()
        for digest in again:
            for image in self._images(digest):
                image.setAttribute("data-portrait", self.state(digest)[1])

    async def _load(self, digest: str) -> None:
        store = await self.pictures.store()
        found = await store.get(digest)
        self._looking.discard(digest)
        if found is None:
            self.missing.add(digest)
            for image in self._images(digest):
                image.setAttribute("data-portrait", "missing")
            return
        if digest not in self.urls:
            self._show(digest, found.data, found.type)

    def _show(self, digest: str, data: bytes, kind: str) -> None:
        from pyodide.ffi import to_js  # type: ignore[import-not-found]

        self.missing.discard(digest)
        blob = js.Blob.new([to_js(data)], js.Object.fromEntries([["type", kind]]))
        url = str(js.URL.createObjectURL(blob))
        self.urls[digest] = url
        for image in self._images(digest):
            image.setAttribute("href", url)
            image.setAttribute("data-portrait", "shown")
        for preview in _all(js.document, f'img[data-portrait-preview="{digest}"]'):
            preview.setAttribute("src", url)

    def _images(self, digest: str) -> list[Any]:
        return _all(self.svg, f'image.portrait[data-digest="{digest}"]')


def _all(root: Any, selector: str) -> list[Any]:
    found = root.querySelectorAll(selector)
    return [found.item(i) for i in range(int(found.length))]
