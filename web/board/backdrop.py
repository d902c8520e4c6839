"""The map picture under the board: an SVG ``<image>`` in the board's own units, below the
hexes, drawn straight from the page's picture store's Blob (``web/library/pictures.py``; its
bytes never copied into Python) by the digest the encounter's view names, or, for the fight
a start opens, from the Blob ``index.html``'s start-up read while Python started (drawn
with the board's first hexes). The Blob's digest is checked by the browser once it is drawn
and the page idle; a record whose bytes are not that digest's is taken down again and
reported missing.

It is placed with the engine's ``placement`` (the picture under a board whose hex (0, 0) is
centred at 0,0 with hexes of size 1), moved and scaled to the live board's hex (0, 0) and hex
size, so it stays exact at every zoom, after reopening and on every device. The board's
``data-map`` attribute says how painted terrain shows over it (tint, outline or hidden;
``static/app.css`` and the board's constructed style sheet draw it). A picture the store
does not hold leaves the board plain and says so, once per opened picture.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

from web.board.units import HEX, num
from web.library.pictures import PagePictures, blob_digest


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
        self.image.setAttribute("transform", self.placed)
        self.image.setAttribute("width", str(picture["width"]))
        self.image.setAttribute("height", str(picture["height"]))
        digest = str(picture["digest"])
        if digest != self.shown:
            self.shown = digest
            self.drawn = False
            self.svg.removeAttribute("data-map")
            self._revoke()
            self.image.removeAttribute("href")
            self.image.setAttribute("data-picture", "loading")
            ahead = read_at_start(digest)
            if ahead is None:
                work = self._load(digest, picture)
            else:  # drawn with the board's first hexes
                blob, url = ahead
                self._show(digest, url)
                work = self._check(digest, picture, blob)
            task = asyncio.ensure_future(work)
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
        self._show(digest, str(js.URL.createObjectURL(blob)))
        await self._check(digest, picture, blob)

    def _show(self, digest: str, url: str) -> None:
        self.url = url
        self.image.setAttribute("href", url)
        self.image.setAttribute("data-picture", digest)
        self.drawn = True
        self.svg.setAttribute("data-map", self.terrain)

    async def _check(self, digest: str, picture: Mapping[str, Any], blob: Any) -> None:
        """A damaged record is never shown as the encounter's: checked once it is drawn (its
        bytes read again in the page then, not while the first frames with it are made)."""
        await _idle_after_load(self.image)
        if digest != self.shown:
            return
        if await blob_digest(blob) != digest and digest == self.shown:
            self._clear()
            self.shown = digest
            self._missing(picture)

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
        self.image.setAttribute("transform", moved + self.placed)

    def _clear(self) -> None:
        self.shown = None
        self.drawn = False
        self._revoke()
        self.svg.removeAttribute("data-map")
        self.image.removeAttribute("href")
        self.image.removeAttribute("data-picture")

    def _revoke(self) -> None:
        if self.url is not None:
            js.URL.revokeObjectURL(self.url)
        self.url = None


def read_at_start(digest: str) -> tuple[Any, str] | None:
    """The Blob and object URL of the picture under ``digest`` if ``index.html``'s start-up
    has read it (``hexcombatBoot.mapAhead``: the fight opened last names it), taken once."""
    boot: Any = getattr(js, "hexcombatBoot", None)
    ahead = getattr(boot, "mapAhead", None)
    if not ahead or str(ahead.digest) != digest or not ahead.url:
        return None
    boot.mapAhead = None
    return ahead.blob, str(ahead.url)


CHECK_WAIT_MS = 3000
"""How long the check of a drawn picture's bytes waits at most for an idle moment."""


def _idle_after_load(image: Any) -> asyncio.Future[None]:
    """Done at the page's first idle moment (or :data:`CHECK_WAIT_MS` later) after ``image``
    has loaded its picture or failed to."""
    from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()

    def idle(*_: Any) -> None:
        if not done.done():
            done.set_result(None)

    def loaded(*_: Any) -> None:
        for kind in ("load", "error"):
            image.removeEventListener(kind, handler)
        handler.destroy()
        wait = js.Object.fromEntries([["timeout", CHECK_WAIT_MS]])
        js.requestIdleCallback(create_once_callable(idle), wait)

    handler = create_proxy(loaded)
    for kind in ("load", "error"):
        image.addEventListener(kind, handler)
    return done
