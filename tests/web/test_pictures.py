"""The picture store over a dict shelf: put/get/has/delete/usage by digest, a picture that
would not fit refused before anything is written, and Export all / Import all carrying
pictures."""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Coroutine

import pytest

from hexcombat.map_picture import digest_of
from web.library.pictures import (
    HEADROOM,
    MAX_PICTURE_BYTES,
    MemoryShelf,
    PictureRefusedError,
    PictureStore,
    StoredPicture,
    Usage,
    media_type,
    usage_words,
)
from web.share import backup

pytestmark = pytest.mark.pyodide


def png(seed: int, size: int = 64) -> bytes:
    """A small real PNG file of ``size`` x 1 grey pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body).to_bytes(4, "big")
        return len(body).to_bytes(4, "big") + kind + body + crc

    header = size.to_bytes(4, "big") + (1).to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    pixels = zlib.compress(bytes([0]) + bytes((seed + i) % 256 for i in range(size)))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def run(coroutine: Coroutine[object, object, object]) -> object:
    """Drive a coroutine that awaits only the memory shelf (no event loop, as in Pyodide)."""
    try:
        while True:
            coroutine.send(None)
    except StopIteration as done:
        return done.value


def test_put_names_a_picture_by_its_digest_and_get_has_delete_usage_follow() -> None:
    store = PictureStore(MemoryShelf())
    data = png(1)
    digest = run(store.put(data, "image/png"))
    assert digest == digest_of(data)
    assert run(store.has(digest)) is True
    got = run(store.get(digest))
    assert got == StoredPicture(digest, "image/png", data)
    assert run(store.put(data, "image/png")) == digest  # the same bytes are kept once
    usage = run(store.usage())
    assert (usage.pictures, usage.picture_bytes, usage.blocked) == (1, len(data), False)
    run(store.delete(digest))
    assert run(store.has(digest)) is False and run(store.get(digest)) is None


def test_a_picture_that_would_not_fit_is_refused_with_the_reason_before_any_write() -> None:
    first, second = png(1, 4000), png(2, 4000)
    shelf = MemoryShelf(quota=len(first) + len(second) + HEADROOM - 1)
    store = PictureStore(shelf)
    run(store.put(first, "image/png"))
    with pytest.raises(PictureRefusedError, match="does not fit: this browser lets the site keep"):
        run(store.put(second, "image/png"))
    assert list(shelf.pictures) == [digest_of(first)]  # nothing written, nothing evicted
    usage = run(store.usage())
    assert usage.quota == shelf.quota and usage.used == len(first)


def test_a_file_that_is_not_the_picture_it_says_is_refused() -> None:
    store = PictureStore(MemoryShelf())
    with pytest.raises(PictureRefusedError, match="PNG, JPEG or WebP"):
        run(store.put(png(1), "image/gif"))
    with pytest.raises(PictureRefusedError, match="its bytes are image/png"):
        run(store.put(png(1), "image/jpeg"))
    with pytest.raises(PictureRefusedError, match="first bytes are not a picture"):
        run(store.put(b"<svg/>", "image/png"))
    big = b"\x89PNG\r\n\x1a\n" + bytes(MAX_PICTURE_BYTES)
    with pytest.raises(PictureRefusedError, match=r"at most 41\.9 MB is kept"):
        run(store.put(big, "image/png"))
    assert run(store.usage()).pictures == 0


def test_media_type_reads_png_jpeg_and_webp_signatures() -> None:
    assert media_type(png(3)) == "image/png"
    assert media_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert media_type(b"RIFF\x10\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert media_type(b"JUNK\x10\x00\x00\x00WEBPVP8 ") is None


def test_damaged_bytes_are_never_given_as_the_named_picture() -> None:
    shelf = MemoryShelf()
    store = PictureStore(shelf)
    digest = run(store.put(png(4), "image/png"))
    shelf.pictures[digest] = StoredPicture(digest, "image/png", png(5))
    assert run(store.get(digest)) is None


def test_blocked_storage_says_so_and_asks_no_promise() -> None:
    store = PictureStore(MemoryShelf(), blocked=True)
    run(store.put(png(6), "image/png"))
    usage = run(store.usage())
    assert usage.blocked is True and usage.kept is False


def test_export_all_and_import_all_carry_the_pictures() -> None:
    pictures = [StoredPicture(digest_of(d), "image/png", d) for d in (png(7), png(8))]
    text = backup.bundle([], "2026-01-01", pictures)
    read = backup.unbundle(text)
    assert read.pictures == pictures and read.refused_pictures == []


def test_import_all_keeps_no_picture_whose_bytes_are_not_its_digest() -> None:
    good = StoredPicture(digest_of(png(9)), "image/png", png(9))
    data = json.loads(backup.bundle([], "2026-01-01", [good]))
    data["pictures"] += [
        {"digest": good.digest, "type": "image/png", "data": base64.b64encode(png(10)).decode()},
        {"digest": good.digest, "type": "image/png", "data": "not base64!"},
        {"digest": good.digest, "type": "text/html", "data": ""},
        "junk",
    ]
    read = backup.unbundle(json.dumps(data))
    assert read.pictures == [good]
    assert [r.split(": ", 1)[1] for r in read.refused_pictures] == [
        "its bytes are not the picture its digest names",
        "its data is not base64",
        "text/html is not a PNG, JPEG or WebP picture",
        "must have a digest, a type and data",
    ]


def test_usage_words_give_the_pictures_with_the_browsers_quota() -> None:
    store = PictureStore(MemoryShelf(quota=50_000_000))
    run(store.put(png(11), "image/png"))
    words = usage_words(run(store.usage()))
    assert words.startswith("1 picture (0.0 MB); the site uses 0.0 MB of the 50.0 MB")
    assert words.endswith("(0%). Nothing is removed without your word.")
    assert "2 pictures" in usage_words(Usage(2, 3_000_000, None, None, False, False))
    assert "does not say" in usage_words(Usage(2, 3_000_000, None, None, False, False))
    blocked = usage_words(Usage(1, 10, None, None, False, True))
    assert "kept only while this page is open" in blocked


def test_every_gives_the_stored_pictures_for_export_all() -> None:
    store = PictureStore(MemoryShelf())
    digests = [run(store.put(png(seed), "image/png")) for seed in (12, 13)]
    every = run(store.every())
    assert sorted(p.digest for p in every) == sorted(digests)
    text = backup.bundle([], "2026-01-01", every)
    assert backup.unbundle(text).pictures == every
