"""The page's one picture store: opened on the first call, the same store for every caller
(even callers that ask at once, before it is open)."""

from __future__ import annotations

import asyncio

from web.library.pictures import MemoryShelf, PagePictures, PictureStore


def test_the_page_opens_one_store_for_every_caller() -> None:
    opened: list[PictureStore] = []

    async def opener() -> PictureStore:
        await asyncio.sleep(0)
        opened.append(PictureStore(MemoryShelf()))
        return opened[-1]

    async def main() -> list[PictureStore]:
        pictures = PagePictures(opener)
        together = await asyncio.gather(pictures.store(), pictures.store())
        return [*together, await pictures.store()]

    stores = asyncio.run(main())
    assert len(opened) == 1 and all(s is opened[0] for s in stores)
