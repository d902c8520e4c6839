"""A figure's portrait in set-up's figure editor (mixed into :class:`web.setup.panel.Editor`):
choose a PNG, JPEG or WebP file (or a tablet camera's photo) to draw on the figure's token,
or remove it.

The chosen picture is drawn smaller first (at most :data:`PORTRAIT_SIDE` px on its short
side: the token shows no more, and every device of a table is sent it), then kept in the
page's picture store (``web/library/pictures.py``; refused with the reason before anything
is written) under its digest, which the figure names (``hexcombat.figures.Portrait``). Either
change is one undoable set-up edit, applied with what is typed in the figure's form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat.figures import Figure, Portrait
from hexcombat.map_picture import MEDIA_TYPES
from web.library.pictures import PictureRefusedError, check_type, media_type
from web.ui.dom import listen, present
from web.ui.html import Markup, el
from web.ui.shell import Shell

COMMANDS = ("portrait-choose", "portrait-remove")
"""The portrait part's buttons (``data-cmd``), registered in the "edit" scope."""
PORTRAIT_SIDE = 256
"""The short side, in pixels, a portrait is kept at (a smaller picture is kept as it is)."""


class PortraitEdits:
    """Choosing and removing the selected figure's portrait."""

    app: Shell
    apply_figure: Callable[[Callable[[Figure], str] | None], bool]

    def portrait_html(self, figure: Figure) -> str:
        """The editor's Portrait part: the picture as the token crops it, Choose and Remove."""
        accept = ",".join(MEDIA_TYPES)
        parts = ["<h3>Portrait</h3>"]
        named = figure.portrait
        if named is None:
            parts.append(
                '<p class="hint" data-portrait-now="none">A picture on the token in place of '
                "its initials: a PNG, JPEG or WebP file or a photo.</p>"
            )
        else:
            href, shown = self.app.board.portraits.state(named.digest)
            preview = el(
                "img",
                class_="portrait-preview",
                data_portrait_preview=named.digest,
                src=href or None,
                alt=f"{figure.name}'s portrait",
            )
            missing = Markup(
                '<p class="hint grow" data-portrait-missing>This browser does not hold '
                "the portrait: the token shows initials.</p>"
            )
            parts.append(el("div", preview, missing if shown == "missing" else None, class_="row"))
        parts.append(
            '<div class="row wrap">'
            '<button type="button" data-cmd="portrait-choose">'
            f"{'Choose a portrait…' if named is None else 'Another portrait…'}</button>"
        )
        if named is not None:
            parts.append('<button type="button" data-cmd="portrait-remove">Remove</button>')
        parts.append("</div>")
        parts.append(
            el(
                "input",
                type="file",
                accept=accept,
                data_portrait_file=True,
                hidden=True,
                aria_label="Portrait file",
            )
        )
        return "".join(parts)

    def chip_html(self, f: Mapping[str, Any]) -> str:
        """A view figure's chip: its side's ring round its portrait (shown once read, as on
        the board) or its initials."""
        named = f.get("portrait")
        face = ""
        if named:
            digest = str(named["digest"])
            href = self.app.board.portraits.url(digest)
            face = el(
                "img",
                class_="chip-portrait",
                data_portrait_preview=digest,
                src=href or None,
                alt="",
            )
        return el("span", face, f["initials"], class_="chip-token", style=f"--side:{f['color']}")

    def bind_portrait(self, body: Any, fid: str) -> None:
        """Listen to the Portrait file input of the editor just drawn for figure ``fid``."""
        chooser = body.querySelector("[data-portrait-file]")
        if not present(chooser):
            return

        def chosen(ev: Any) -> None:
            files = ev.target.files
            if files and files.length:
                self.app.spawn(self.take_portrait(fid, files.item(0)))

        listen(chooser, "change", chosen)

    def on_portrait_command(self, cmd: str, element: Any, event: Any) -> None:
        """Choose (opens the file chooser) or Remove the selected figure's portrait."""
        if cmd == "portrait-choose":
            chooser = js.document.querySelector("#panel-body [data-portrait-file]")
            if present(chooser):
                chooser.click()
        elif self.app.selected is not None:
            name = self.app.encounter.setup_figure(self.app.selected).name
            self._set_portrait(self.app.selected, None, f"{name}'s portrait removed.")

    async def take_portrait(self, fid: str, file: Any) -> None:
        """Keep a chosen picture (drawn smaller) and put it on figure ``fid``'s token."""
        app = self.app
        name = str(file.name)
        data = bytes((await file.arrayBuffer()).to_bytes())
        kind = str(file.type) if str(file.type) in MEDIA_TYPES else (media_type(data) or "")
        try:
            check_type(data, kind)
            data, kind = await _token_copy(data, kind)
            digest = await (await app.pictures.store()).put(data, kind)
        except PictureRefusedError as exc:
            app.toast(f"{name}: not kept: {exc}.", bad=True)
            return
        if fid not in {f.id for f in app.encounter.setup.figures}:
            return  # the figure was deleted meanwhile
        app.board.portraits.keep(digest, data, kind)
        figure = app.encounter.setup_figure(fid).name
        self._set_portrait(fid, Portrait(digest, kind), f"{figure}'s portrait is {name}.")

    def _set_portrait(self, fid: str, portrait: Portrait | None, done: str) -> None:
        """Give figure ``fid`` ``portrait`` (None: none), with what is typed in its form when
        it is the one being edited."""

        def change(fig: Figure) -> str:
            fig.portrait = portrait
            return done

        if self.app.selected == fid:
            self.apply_figure(change)
            return
        fig = self.app.encounter.setup_figure(fid)
        change(fig)
        self.app.change(lambda enc: enc.with_figure(fig), done)


async def _token_copy(data: bytes, kind: str) -> tuple[bytes, str]:
    """The picture at most :data:`PORTRAIT_SIDE` px on its short side (PNG when it was one,
    for its transparency; else JPEG), or as it is when that small already."""
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    blob = js.Blob.new([to_js(data)], js.Object.fromEntries([["type", kind]]))
    try:
        bitmap = await js.createImageBitmap(blob)
    except Exception:
        raise PictureRefusedError("this browser could not read the picture") from None
    width, height = int(bitmap.width), int(bitmap.height)
    scale = PORTRAIT_SIDE / min(width, height)
    if scale >= 1:
        bitmap.close()
        return data, kind
    canvas = js.OffscreenCanvas.new(max(1, round(width * scale)), max(1, round(height * scale)))
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    bitmap.close()
    made = "image/png" if kind == "image/png" else "image/jpeg"
    options = js.Object.fromEntries([["type", made], ["quality", 0.9]])
    smaller = await canvas.convertToBlob(options)
    return bytes((await smaller.arrayBuffer()).to_bytes()), made
