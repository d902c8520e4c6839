"""The page's one picture store: opened on the first call, the same store for every caller
(even callers that ask at once, before it is open), told at once which pictures to read
as soon as it is open."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

from web.library.pictures import MemoryShelf, PagePictures, PictureStore


def test_the_page_opens_one_store_for_every_caller() -> None:
    opened: list[PictureStore] = []

    async def opener(_ahead: Sequence[str]) -> PictureStore:
        await asyncio.sleep(0)
        opened.append(PictureStore(MemoryShelf()))
        return opened[-1]

    async def main() -> list[PictureStore]:
        pictures = PagePictures(opener)
        together = await asyncio.gather(pictures.store(), pictures.store())
        return [*together, await pictures.store()]

    stores = asyncio.run(main())
    assert len(opened) == 1 and all(s is opened[0] for s in stores)


def test_beginning_makes_the_stores_opening_request_at_once_and_opens_it_once() -> None:
    asked: list[str] = []

    def opener(_ahead: Sequence[str]) -> Awaitable[PictureStore]:
        asked.append("open")  # the opener's request, made by the call itself

        async def opened() -> PictureStore:
            return PictureStore(MemoryShelf())

        return opened()

    async def main() -> tuple[list[str], PictureStore, PictureStore]:
        pictures = PagePictures(opener)
        pictures.begin()
        at_once = list(asked)  # before the page's Python awaits anything
        pictures.begin()
        return at_once, await pictures.store(), await pictures.store()

    at_once, first, again = asyncio.run(main())
    assert at_once == ["open"] and asked == ["open"] and first is again


def test_the_pictures_to_read_ahead_reach_the_opener_with_its_request_not_later() -> None:
    asked: list[tuple[str, ...]] = []

    def opener(ahead: Sequence[str]) -> Awaitable[PictureStore]:
        asked.append(tuple(ahead))

        async def opened() -> PictureStore:
            return PictureStore(MemoryShelf())

        return opened()

    async def main() -> list[tuple[str, ...]]:
        pictures = PagePictures(opener)
        pictures.begin(["a" * 64])
        at_once = list(asked)
        pictures.begin(["b" * 64])  # the store is opening: its reads were asked for already
        await pictures.store()
        return at_once

    assert asyncio.run(main()) == [("a" * 64,)] and asked == [("a" * 64,)]
