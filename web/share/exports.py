"""Files and text the page hands out: downloads (JSON, SVG, Markdown), the board as PNG, the
clipboard, and the share dialog's parts (link, QR code, embed code) as markup."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter, dumps
from hexcombat.qr import QrTooLongError, encode, to_svg
from hexcombat.share import LINK_LIMIT, QR_LIMIT, board_svg, log_markdown
from web.library.pictures import PagePictures
from web.library.storage import safe_filename
from web.ui.dom import proxy
from web.ui.files import download_blob, download_text
from web.ui.html import Markup, el

PNG_SCALE = 2
"""The PNG is drawn at twice the SVG's size, so it stays sharp on a wiki page."""


def _options(**values: Any) -> Any:
    return js.Object.fromEntries([[k, v] for k, v in values.items()])


async def export_board(
    enc: Encounter, pictures: PagePictures, kind: str, on_error: Callable[[str], None]
) -> None:
    """The board at the current step as an SVG or PNG file (``kind``), over its map picture
    and with its figures' portraits, those this device holds."""
    store = await pictures.store()
    named = enc.setup.picture
    found = await store.get(named.digest) if named is not None else None
    data = found.data if found is not None else None
    portraits: dict[str, bytes] = {}
    for figure in enc.setup.figures:
        if figure.portrait is not None and figure.portrait.digest not in portraits:
            held = await store.get(figure.portrait.digest)
            if held is not None:
                portraits[held.digest] = held.data
    if kind == "svg":
        export_svg(enc, data, portraits)
    else:
        export_png(enc, on_error, data, portraits)


def export_svg(
    enc: Encounter, picture: bytes | None = None, portraits: Mapping[str, bytes] | None = None
) -> None:
    """The board at the current step as a standalone SVG (the CLI's ``render`` picture), over
    the bytes of its map ``picture`` if given, with the ``portraits`` given (by digest)."""
    svg = board_svg(enc, picture=picture, portraits=portraits)
    download_text(safe_filename(enc.setup.name, ".svg"), svg, "image/svg+xml")


def export_json(enc: Encounter) -> None:
    """The encounter file, to import in any Hex Combat."""
    download_text(safe_filename(enc.setup.name), dumps(enc), "application/json")


def export_markdown(enc: Encounter) -> None:
    """The combat log up to the current step as Markdown."""
    download_text(safe_filename(enc.setup.name, ".md"), log_markdown(enc), "text/markdown")


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height attributes of a standalone SVG."""
    found = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    return (float(found.group(1)), float(found.group(2))) if found else (800.0, 600.0)


def export_png(
    enc: Encounter,
    on_error: Any,
    picture: bytes | None = None,
    portraits: Mapping[str, bytes] | None = None,
) -> None:
    """The same picture as a PNG, drawn by the browser from the SVG onto a canvas."""
    svg = board_svg(enc, picture=picture, portraits=portraits)
    width, height = svg_size(svg)
    url = js.URL.createObjectURL(js.Blob.new([svg], _options(type="image/svg+xml")))
    image = js.Image.new()
    name = safe_filename(enc.setup.name, ".png")
    kept: list[Any] = []

    def done(blob: Any) -> None:
        if blob:
            download_blob(name, blob)
        else:
            on_error("The browser could not make the PNG; use the SVG instead.")
        for p in kept:
            p.destroy()

    def loaded(*_: Any) -> None:
        js.URL.revokeObjectURL(url)
        canvas = js.document.createElement("canvas")
        canvas.width = int(width * PNG_SCALE)
        canvas.height = int(height * PNG_SCALE)
        context = canvas.getContext("2d")
        context.drawImage(image, 0, 0, canvas.width, canvas.height)
        kept.append(proxy(done))
        canvas.toBlob(kept[-1], "image/png")

    def failed(*_: Any) -> None:
        js.URL.revokeObjectURL(url)
        on_error("The browser could not draw the board as a picture; use the SVG instead.")

    image.onload = proxy(loaded)
    image.onerror = proxy(failed)
    image.src = url


async def copy_text(text: str) -> bool:
    """Put ``text`` on the clipboard (False when the browser refuses, e.g. in a frame)."""
    try:
        await js.navigator.clipboard.writeText(text)
    except Exception:
        return False
    return True


def qr_markup(link: str) -> str:
    """The link as a QR code (an inline SVG), or why there is none."""
    if len(link) > QR_LIMIT:
        return (
            '<p class="muted" data-share="no-qr">This link is too long for a QR code a phone can '
            "read; copy the link instead.</p>"
        )
    try:
        code = encode(link, "L")
    except QrTooLongError:
        return '<p class="muted" data-share="no-qr">This link is too long for a QR code.</p>'
    svg = to_svg(code, module=3, label="QR code of the share link")
    return el("div", Markup(svg), class_="share-qr", data_share="qr", data_qr_version=code.version)


def link_markup(link: str) -> str:
    """The share link with its Copy button, or the too-long message with the file export."""
    if len(link) > LINK_LIMIT:
        return el(
            "div",
            el(
                "p",
                el("strong", "This encounter is too long for a link"),
                f" ({len(link):,} characters; chat apps, mail and wikis cut links beyond about "
                f"{LINK_LIMIT:,}). Share the file instead: the other person imports it from "
                "their library.",
            ),
            Markup(
                '<button type="button" class="primary" data-cmd="export">Export the file</button>'
            ),
            class_="share-too-long",
            data_share="too-long",
            role="alert",
        )
    return (
        el(
            "label",
            "Link (everything is in the link; nothing is uploaded)",
            el("textarea", link, readonly=True, rows=3, data_share="link"),
            class_="share-field",
        )
        + '<div class="row"><button type="button" class="primary" data-cmd="share-copy" '
        'data-copy="link">Copy link</button>'
        + el("span", f"{len(link):,} characters", class_="muted")
        + "</div>"
    )
