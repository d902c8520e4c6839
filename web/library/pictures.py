"""The picture store: pictures (the GM's map pictures, the figures' portraits) kept in the
browser's storage meant for large data, IndexedDB, each under the SHA-256 digest of its bytes.

An encounter names its pictures by digest (``hexcombat.map_picture``, a figure's
``portrait``); their bytes live here, never in the encounter's document. The API:
:meth:`PictureStore.put` (bytes, type) -> digest, :meth:`~PictureStore.get`,
:meth:`~PictureStore.has`, :meth:`~PictureStore.delete`, :meth:`~PictureStore.usage`. A
picture that would not fit in the site's quota
(``navigator.storage.estimate``) is refused with the reason before anything is written; the
store never removes a picture by itself, and asks the browser to keep its storage
(``navigator.storage.persist``) when it first writes one. Where the browser blocks storage
(a wiki's embed, a private window) the store keeps pictures in memory and says so
(``blocked``).

Everything here is plain Python over a :class:`Shelf`: :class:`IndexedDbShelf` adapts the
browser's IndexedDB (imported only when it is opened, so CPython tests use
:class:`MemoryShelf`); :func:`browser_pictures` picks it, or memory when storage is blocked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hexcombat.map_picture import MAX_PICTURE_BYTES, MEDIA_TYPES, digest_of

__all__ = [
    "MAX_PICTURE_BYTES",
    "IndexedDbShelf",
    "MemoryShelf",
    "PagePictures",
    "PictureRefusedError",
    "PictureStore",
    "Shelf",
    "StoredPicture",
    "Usage",
    "blob_digest",
    "browser_pictures",
    "check_type",
    "held_pictures",
    "media_type",
    "usage_words",
]

HEADROOM = 1024 * 1024
"""What a write is reckoned to need beyond the picture's bytes (the database's own records)."""
DATABASE = "hexcombat-pictures"
SHELF = "pictures"
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"WEBP", 8, "image/webp"),
)
"""A picture file's first bytes (at an offset) and the type they mark."""


class PictureRefusedError(Exception):
    """A picture was not kept, and why (nothing was written)."""


@dataclass(frozen=True, slots=True)
class StoredPicture:
    """A picture's bytes and media type, under their digest."""

    digest: str
    type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Usage:
    """How much the store holds, against what the browser lets the site use."""

    pictures: int
    picture_bytes: int
    used: int | None
    """Bytes the whole site uses (None: the browser does not say)."""
    quota: int | None
    """Bytes the browser lets the site use (None: the browser does not say)."""
    kept: bool
    """True when the browser promised not to clear the site's storage to free space."""
    blocked: bool
    """True when storage is blocked: pictures last only as long as the page."""


class Shelf(Protocol):
    """Where the store's pictures are: a key/value store of bytes, and the site's quota."""

    async def read(self, digest: str) -> StoredPicture | None:
        """The picture under ``digest``, or None."""

    async def blob(self, digest: str) -> Any:
        """The picture under ``digest`` as the browser's Blob (its bytes not copied into
        Python), or None; browser only."""

    async def write(self, picture: StoredPicture) -> None:
        """Keep ``picture`` completely or not at all (PictureRefusedError when full)."""

    async def remove(self, digest: str) -> None:
        """Remove the picture under ``digest`` (nothing happens when it is absent)."""

    async def sizes(self) -> dict[str, int]:
        """The size in bytes of each picture, by digest."""

    async def estimate(self) -> tuple[int, int] | None:
        """(bytes the site uses, bytes it may use), or None when the browser does not say."""

    async def persist(self) -> bool:
        """Ask the browser to keep the site's storage; True when it promised."""


def media_type(data: bytes) -> str | None:
    """The type a picture file's first bytes mark (PNG, JPEG, WebP), or None."""
    for signature, at, kind in _SIGNATURES:
        if data[at : at + len(signature)] == signature:
            if kind == "image/webp" and data[:4] != b"RIFF":
                continue
            return kind
    return None


def check_type(data: bytes, kind: str) -> None:
    """Refuse (PictureRefusedError) a file that is not a PNG, JPEG or WebP picture of ``kind``."""
    if kind not in MEDIA_TYPES:
        raise PictureRefusedError(
            f"a picture must be a PNG, JPEG or WebP file, not {kind or 'an unknown type'}"
        )
    found = media_type(data)
    if found != kind:
        raise PictureRefusedError(
            f"the file is not the {kind.removeprefix('image/').upper()} picture it says "
            "it is (its first bytes are not a picture's)"
            if found is None
            else f"the file says it is {kind} but its bytes are {found}"
        )


def megabytes(n: int) -> str:
    """``n`` bytes in MB, as people read it."""
    return f"{n / 1_000_000:.1f} MB"


class PictureStore:
    """Pictures by digest over a :class:`Shelf`; see the module's docstring."""

    def __init__(self, shelf: Shelf, *, blocked: bool = False) -> None:
        self.shelf = shelf
        self.blocked = blocked
        self.kept = False
        self._asked = False

    async def put(self, data: bytes, kind: str) -> str:
        """Keep a picture's bytes; its digest. Refused (PictureRefusedError, nothing written)
        when it is not a PNG, JPEG or WebP file of that type, too large, or would not fit."""
        check_type(data, kind)
        if len(data) > MAX_PICTURE_BYTES:
            raise PictureRefusedError(
                f"the picture is {megabytes(len(data))}; at most "
                f"{megabytes(MAX_PICTURE_BYTES)} is kept (save it smaller, e.g. as JPEG)"
            )
        digest = digest_of(data)
        if await self.has(digest):
            return digest
        estimate = await self.shelf.estimate()
        if estimate is not None:
            used, quota = estimate
            if used + len(data) + HEADROOM > quota:
                raise PictureRefusedError(
                    f"the picture ({megabytes(len(data))}) does not fit: this browser lets "
                    f"the site keep {megabytes(quota)} and {megabytes(used)} is used "
                    f"({megabytes(max(0, quota - used))} free); delete pictures or encounters "
                    "you no longer need, or choose a smaller file"
                )
        await self.shelf.write(StoredPicture(digest, kind, data))
        if not self._asked and not self.blocked:
            self._asked = True
            self.kept = await self.shelf.persist()
        return digest

    async def get(self, digest: str) -> StoredPicture | None:
        """The picture under ``digest`` (None when absent, or its bytes are not that picture:
        a damaged record is never shown as the encounter's)."""
        found = await self.shelf.read(digest)
        if found is None or digest_of(found.data) != digest:
            return None
        return found

    async def blob(self, digest: str) -> Any:
        """The picture under ``digest`` as the browser's Blob, to draw at once (None when
        absent). Its digest is not checked here: a drawer checks it afterwards with
        :func:`blob_digest`, in the background."""
        return await self.shelf.blob(digest)

    async def has(self, digest: str) -> bool:
        """True when the store holds the picture under ``digest``."""
        return digest in await self.shelf.sizes()

    async def delete(self, digest: str) -> None:
        """Remove the picture under ``digest`` (only ever on the user's word)."""
        await self.shelf.remove(digest)

    async def every(self) -> list[StoredPicture]:
        """Every picture the store holds whose bytes are its digest's (for *Export all*)."""
        found = [await self.get(digest) for digest in sorted(await self.shelf.sizes())]
        return [p for p in found if p is not None]

    async def usage(self) -> Usage:
        """How many pictures, their bytes, and the site's use against its quota."""
        sizes = await self.shelf.sizes()
        estimate = await self.shelf.estimate()
        used, quota = estimate if estimate is not None else (None, None)
        return Usage(len(sizes), sum(sizes.values()), used, quota, self.kept, self.blocked)


def usage_words(usage: Usage) -> str:
    """The Storage dialog's line on pictures: how many, their size, the site's use against
    the browser's quota, and whether they last."""
    words = (
        f"{usage.pictures} picture{'s' if usage.pictures != 1 else ''} "
        f"({megabytes(usage.picture_bytes)})"
    )
    if usage.blocked:
        return words + ", kept only while this page is open: this browser blocks storage here."
    if usage.used is not None and usage.quota:
        words += (
            f"; the site uses {megabytes(usage.used)} of the {megabytes(usage.quota)} this "
            f"browser lets it keep ({usage.used / usage.quota:.0%})"
        )
    else:
        words += "; this browser does not say how much it lets the site keep"
    return words + ". Nothing is removed without your word."


class MemoryShelf:
    """A :class:`Shelf` in a dict, with an optional quota: for tests, and for browsers that
    block storage."""

    def __init__(self, quota: int | None = None) -> None:
        self.pictures: dict[str, StoredPicture] = {}
        self.quota = quota

    async def read(self, digest: str) -> StoredPicture | None:
        """The picture under ``digest``, or None."""
        return self.pictures.get(digest)

    async def blob(self, digest: str) -> Any:
        """The picture under ``digest`` as a Blob of its bytes, or None (browser only)."""
        found = self.pictures.get(digest)
        return None if found is None else _js_blob(found)

    async def write(self, picture: StoredPicture) -> None:
        """Keep ``picture`` (PictureRefusedError beyond the quota)."""
        if self.quota is not None and self._used() + len(picture.data) > self.quota:
            raise PictureRefusedError("the browser's storage for this site is full")
        self.pictures[picture.digest] = picture

    async def remove(self, digest: str) -> None:
        """Remove the picture under ``digest`` if present."""
        self.pictures.pop(digest, None)

    async def sizes(self) -> dict[str, int]:
        """The size of each picture, by digest."""
        return {d: len(p.data) for d, p in self.pictures.items()}

    async def estimate(self) -> tuple[int, int] | None:
        """(bytes held, the quota), or None without a quota."""
        return None if self.quota is None else (self._used(), self.quota)

    async def persist(self) -> bool:
        """Memory is never kept."""
        return False

    def _used(self) -> int:
        return sum(len(p.data) for p in self.pictures.values())


def _js_blob(picture: StoredPicture) -> Any:
    """A browser Blob of ``picture``'s bytes, of its type."""
    import js  # type: ignore[import-not-found]  # only in the browser
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    return js.Blob.new([to_js(picture.data)], js.Object.fromEntries([["type", picture.type]]))


async def blob_digest(blob: Any) -> str:
    """The SHA-256 digest of a Blob's bytes as lowercase hexadecimal, worked out by the
    browser (``crypto.subtle``, off the page's thread; only the 32-byte result comes into
    Python), or by :func:`~hexcombat.map_picture.digest_of` where the page has no
    ``crypto.subtle`` (an insecure origin)."""
    import js

    data = await blob.arrayBuffer()
    subtle = getattr(getattr(js, "crypto", None), "subtle", None)
    if subtle is None:
        return digest_of(bytes(data.to_bytes()))
    found = await subtle.digest("SHA-256", data)
    return bytes(js.Uint8Array.new(found).to_bytes()).hex()


def _settled(target: Any, ok: str, bad: tuple[str, ...]) -> asyncio.Future[Any]:
    """What an IndexedDB request or transaction's ``ok`` event gives (its ``result``), or
    PictureRefusedError on one of ``bad`` (a full quota says so). Its handlers are set at
    once, so an event the browser sends before the caller awaits is not lost."""
    from pyodide.ffi import create_proxy

    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    handlers: list[Any] = []

    def done(event: Any) -> None:
        for handler in handlers:
            handler.destroy()
        if future.done():
            return
        if str(event.type) == ok:
            future.set_result(getattr(target, "result", None))
            return
        error = getattr(target, "error", None)
        name = str(getattr(error, "name", "") or "")
        future.set_exception(
            PictureRefusedError(
                "the browser's storage for this site is full"
                if name == "QuotaExceededError"
                else f"the browser could not keep the picture ({name or event.type})"
            )
        )

    for kind in (ok, *bad):
        handler = create_proxy(done)
        handlers.append(handler)
        setattr(target, f"on{kind}", handler)
    return future


class IndexedDbShelf:
    """A :class:`Shelf` in the browser's IndexedDB: one object store of Blobs by digest."""

    def __init__(self, database: Any, ahead: dict[str, asyncio.Future[Any]] | None = None) -> None:
        self._db = database
        self._ahead = ahead if ahead is not None else {}
        """The reads made as the database opened, by digest (taken by :meth:`blob`)."""

    @classmethod
    def open(cls, factory: Any = None, ahead: Sequence[str] = ()) -> Awaitable[IndexedDbShelf]:
        """The site's picture database (PictureRefusedError when the browser blocks it), from
        ``factory`` (default: the page's ``indexedDB``). Its open request is made by the call
        itself, so the browser opens the database while the page's Python goes on; the
        pictures under the digests ``ahead`` are asked for in the event that says it is open
        (not a turn of the page's Python later), for the first :meth:`blob` of each."""
        import js  # only in the browser
        from pyodide.ffi import create_once_callable

        factory = factory or getattr(js, "indexedDB", None)
        if factory is None:
            raise PictureRefusedError("this browser has no storage for large data here")
        request = factory.open(DATABASE, 1)
        reads: dict[str, asyncio.Future[Any]] = {}

        def upgrade(_event: Any) -> None:
            request.result.createObjectStore(SHELF)

        def read_ahead(_event: Any) -> None:
            for digest in ahead:
                store = request.result.transaction(SHELF, "readonly").objectStore(SHELF)
                reads[digest] = _settled(store.get(digest), "success", ("error",))

        request.onupgradeneeded = create_once_callable(upgrade)
        opened = _settled(request, "success", ("error", "blocked"))
        if ahead:
            request.addEventListener("success", create_once_callable(read_ahead))
        return cls._opened(opened, reads)

    @classmethod
    async def _opened(
        cls, database: Awaitable[Any], reads: dict[str, asyncio.Future[Any]]
    ) -> IndexedDbShelf:
        return cls(await database, reads)

    def _store(self, mode: str) -> tuple[Any, Any]:
        tx = self._db.transaction(SHELF, mode)
        return tx, tx.objectStore(SHELF)

    async def read(self, digest: str) -> StoredPicture | None:
        """The picture under ``digest``, or None."""
        _tx, store = self._store("readonly")
        blob = await _settled(store.get(digest), "success", ("error",))
        if blob is None or not hasattr(blob, "arrayBuffer"):
            return None
        data = bytes((await blob.arrayBuffer()).to_bytes())
        return StoredPicture(digest, str(blob.type), data)

    async def blob(self, digest: str) -> Any:
        """The stored Blob under ``digest``, or None (no bytes read)."""
        read = self._ahead.pop(digest, None)
        if read is None:
            _tx, store = self._store("readonly")
            read = _settled(store.get(digest), "success", ("error",))
        blob = await read
        return blob if blob is not None and hasattr(blob, "arrayBuffer") else None

    async def write(self, picture: StoredPicture) -> None:
        """Keep ``picture`` as a Blob; done when its transaction is."""
        tx, store = self._store("readwrite")
        store.put(_js_blob(picture), picture.digest)
        await _settled(tx, "complete", ("error", "abort"))

    async def remove(self, digest: str) -> None:
        """Remove the picture under ``digest``."""
        tx, store = self._store("readwrite")
        store.delete(digest)
        await _settled(tx, "complete", ("error", "abort"))

    async def sizes(self) -> dict[str, int]:
        """The size of each picture, by digest (Blobs are read lazily: no bytes copied)."""
        _tx, store = self._store("readonly")
        keys = await _settled(store.getAllKeys(), "success", ("error",))
        _tx, store = self._store("readonly")
        blobs = await _settled(store.getAll(), "success", ("error",))
        return {str(k): int(b.size) for k, b in zip(keys, blobs, strict=False)}

    async def estimate(self) -> tuple[int, int] | None:
        """``navigator.storage.estimate()``'s usage and quota, when the browser has it."""
        import js

        manager = getattr(js.navigator, "storage", None)
        if manager is None or not hasattr(manager, "estimate"):
            return None
        found = await manager.estimate()
        return int(found.usage or 0), int(found.quota or 0)

    async def persist(self) -> bool:
        """``navigator.storage.persist()`` (False when the browser has no such promise)."""
        import js

        manager = getattr(js.navigator, "storage", None)
        try:
            return bool(await manager.persist()) if manager is not None else False
        except Exception:
            return False


def browser_pictures(ahead: Sequence[str] = ()) -> Awaitable[PictureStore]:
    """The page's picture store: IndexedDB, or memory (``blocked``) when the browser blocks it.
    The database's open request is made by the call itself, and the pictures under ``ahead``
    asked for as soon as it is open (see :meth:`IndexedDbShelf.open`)."""
    try:
        opening: Awaitable[IndexedDbShelf] | None = IndexedDbShelf.open(ahead=ahead)
    except Exception:
        opening = None
    return _browser_store(opening)


async def _browser_store(opening: Awaitable[IndexedDbShelf] | None) -> PictureStore:
    if opening is not None:
        try:
            return PictureStore(await opening)
        except Exception:
            pass
    return PictureStore(MemoryShelf(), blocked=True)


async def held_pictures(ahead: Sequence[str] = ()) -> PictureStore:
    """The picture store of a read-only view (a share link, an embed): the site's database
    when this browser already holds it (the pictures under ``ahead`` asked for as it opens),
    else an empty memory store (a view never makes one)."""
    import js  # only in the browser

    # the embed view keeps the real IndexedDB aside for this (index.html)
    factory = getattr(js, "hexcombatPictureDatabases", None) or js.indexedDB
    try:
        if DATABASE in [str(d.name) for d in await factory.databases()]:
            return PictureStore(await IndexedDbShelf.open(factory, ahead))
    except Exception:
        pass
    return PictureStore(MemoryShelf())


class PagePictures:
    """The page's one picture store, opened when first asked for (every caller gets the same)."""

    def __init__(
        self, opener: Callable[[Sequence[str]], Awaitable[PictureStore]] = browser_pictures
    ) -> None:
        self._opener = opener
        self._opening: asyncio.Future[PictureStore] | None = None

    def begin(self, ahead: Sequence[str] = ()) -> None:
        """Start opening the store now (its first request made at once), for a page that will
        soon ask for it: the browser opens it while the page goes on, and reads the pictures
        under the digests ``ahead`` as soon as it is open (ignored once it is opening)."""
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._opener(tuple(ahead)))

    async def store(self) -> PictureStore:
        """The store, opening it on the first call."""
        self.begin()
        assert self._opening is not None
        return await self._opening
