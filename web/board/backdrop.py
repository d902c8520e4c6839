"""The map picture under the board: an SVG ``<image>`` in the board's own units, below the
hexes, drawn straight from the page's picture store's Blob (``web/library/pictures.py``; its
bytes never copied into Python) by the digest the encounter's view names. The Blob's digest
is checked by the browser just after it is drawn; a record whose bytes are not that digest's
is taken down again and reported missing.

It is placed with the engine's ``placement`` (the picture under a board whose hex (0, 0) is
centred at 0,0 with hexes of size 1), moved and scaled to the live board's hex (0, 0) and hex
size, so it stays exact at every zoom, after reopening and on every device. The board's
``data-map`` attribute says how painted terrain shows over it (tint, outline or hidden;
``static/app.css`` and the board's constructed style sheet draw it). A picture the store
does not hold leaves the board plain and says so, once per opened picture.

A big picture also gets a coarse copy (at most :data:`COARSE_SIDE` px on its long side,
``<image id="board-picture-coarse">``, same placement; the board's ``data-coarse`` once it is
made) drawn instead of it while the board pans or zooms (the board's ``moving`` class):
painting millions of pixels anew each frame is what makes panning over a big map slow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

from web.board.units import HEX, num
from web.library.pictures import PagePictures, blob_digest

COARSE_SIDE = 1024
"""The long side, in pixels, of the copy drawn while the board moves."""
COARSE_AFTER_S = 2.0
"""Seconds after the picture is drawn that its coarse copy is made."""


class Backdrop:
    """Keeps the board's ``<image id="board-picture">`` in line with the view's picture."""

    def __init__(
        self,
        svg: Any,
        origin: tuple[float, float],
        pictures: PagePictures,
        missing: Callable[[Mapping[str, Any]], None],
    ) -> None:
        self.svg = svg
        self.image = svg.querySelector("#board-picture")
        self.coarse = svg.querySelector("#board-picture-coarse")
        self.origin = origin
        """The centre of the live board's hex (0, 0), in the board's units."""
        self.pictures = pictures
        self.missing = missing
        self.shown: str | None = None
        """The digest drawn (or looked for) now; None without a picture."""
        self.drawn = False
        """True once the store gave the picture's bytes and they are drawn."""
        self.terrain = ""
        self.placed = ""
        """The picture's ``transform`` as the view places it."""
        self.url: str | None = None
        """The object URL of the drawn picture's bytes."""
        self.coarse_url: str | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    def follow(self, picture: Mapping[str, Any] | None) -> None:
        """Draw ``picture`` (a view's ``picture``) under the board, looking its bytes up in the
        store when its digest is new (``missing`` is told when they are not there)."""
        if picture is None:
            self._clear()
            return
        self.terrain = str(picture["terrain"])
        if self.drawn:
            self.svg.setAttribute("data-map", self.terrain)
        ox, oy = self.origin
        self.placed = f"translate({num(ox)} {num(oy)}) scale({num(HEX)}) {picture['placement']}"
        for image in (self.image, self.coarse):
            image.setAttribute("transform", self.placed)
            image.setAttribute("width", str(picture["width"]))
            image.setAttribute("height", str(picture["height"]))
        digest = str(picture["digest"])
        if digest != self.shown:
            self.shown = digest
            self.drawn = False
            self.svg.removeAttribute("data-map")
            self._revoke()
            self.image.removeAttribute("href")
            self.image.setAttribute("data-picture", "loading")
            task = asyncio.ensure_future(self._load(digest, picture))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _load(self, digest: str, picture: Mapping[str, Any]) -> None:
        store = await self.pictures.store()
        blob = await store.blob(digest)
        if digest != self.shown:
            return  # another picture was opened meanwhile
        if blob is None:
            self._missing(picture)
            return
        self.url = str(js.URL.createObjectURL(blob))
        self.image.setAttribute("href", self.url)
        self.image.setAttribute("data-picture", digest)
        self.drawn = True
        self.svg.setAttribute("data-map", self.terrain)
        if await blob_digest(blob) != digest:
            if digest == self.shown:  # a damaged record is never shown as the encounter's
                self._clear()
                self.shown = digest
                self._missing(picture)
            return
        await asyncio.sleep(COARSE_AFTER_S)  # not while the fight opens: decoding takes CPU
        if digest != self.shown:
            return
        coarse = await _coarse_copy(blob, int(picture["width"]), int(picture["height"]))
        if coarse is not None and digest == self.shown:
            self.coarse_url = str(js.URL.createObjectURL(coarse))
            self.coarse.setAttribute("href", self.coarse_url)
            self.svg.setAttribute("data-coarse", "")

    def _missing(self, picture: Mapping[str, Any]) -> None:
        self.image.setAttribute("data-picture", "missing")
        self.missing(picture)

    def look_again(self) -> None:
        """Look the picture up in the store again on the next draw (its bytes were just
        kept)."""
        self.shown = None

    def shift(self, dx: float, dy: float) -> None:
        """Show the picture moved by ``dx``, ``dy`` board units while it is dragged."""
        moved = f"translate({num(dx)} {num(dy)}) " if dx or dy else ""
        for image in (self.image, self.coarse):
            image.setAttribute("transform", moved + self.placed)

    def _clear(self) -> None:
        self.shown = None
        self.drawn = False
        self._revoke()
        self.svg.removeAttribute("data-map")
        self.image.removeAttribute("href")
        self.image.removeAttribute("data-picture")

    def _revoke(self) -> None:
        self.svg.removeAttribute("data-coarse")
        self.coarse.removeAttribute("href")
        for url in (self.url, self.coarse_url):
            if url is not None:
                js.URL.revokeObjectURL(url)
        self.url = self.coarse_url = None


async def _coarse_copy(blob: Any, width: int, height: int) -> Any:
    """The picture at most :data:`COARSE_SIDE` px on its long side, as a Blob (None when it
    is that small already, or the browser cannot make one)."""
    scale = COARSE_SIDE / max(width, height)
    if scale >= 0.5:
        return None
    options = [["resizeWidth", max(1, round(width * scale))]]
    options.append(["resizeHeight", max(1, round(height * scale))])
    try:
        bitmap = await js.createImageBitmap(blob, js.Object.fromEntries(options))
        canvas = js.OffscreenCanvas.new(bitmap.width, bitmap.height)
        canvas.getContext("2d").drawImage(bitmap, 0, 0)
        bitmap.close()
        kind = "image/png" if str(blob.type) == "image/png" else "image/jpeg"
        return await canvas.convertToBlob(js.Object.fromEntries([["type", kind]]))
    except Exception:
        return None
