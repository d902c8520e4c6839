"""The app's side of the library (mixed into :class:`web.app.App`): the library panel
(``web.library.panel``, imported when first opened) in the dialog, opening what it opens,
following renames and the trash, files dropped on the page, and the open encounter's
download."""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter
from web.library import PANEL_IMPORTS, storage
from web.ui.dom import byid, present
from web.ui.files import download_text
from web.ui.html import el
from web.ui.later_tasks import LaterTasks

if TYPE_CHECKING:
    from web.session import Session


LIBRARY_LATER = "library"
"""The later tasks that import and draw the library panel a tap opened."""
OPENING = str(el("p", "Opening the library…", class_="hc-lib-opening"))


class LibraryLink:
    """The library panel, opened from the app."""

    library: Any
    later: LaterTasks
    library_panel: Any
    session: Session
    sync: Any
    _first_drag: Any
    _close_dialog_later: Any

    if TYPE_CHECKING:  # the app's, which this is mixed into

        @property
        def enc(self) -> Encounter | None: ...
        @property
        def entry_id(self) -> str | None: ...
        def open(self, enc: Encounter, entry_id: str | None) -> None: ...
        def toast(
            self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
        ) -> None: ...
        def dialog(self, title: str, body_html: str) -> Any: ...
        def close_welcome(self) -> None: ...

    def export(self) -> None:
        """Download the open encounter as a JSON file."""
        if self.entry_id is None:
            return
        try:
            name, text = self.library.export(self.entry_id)
        except storage.LibraryError as exc:
            self.toast(str(exc), bad=True)
            return
        download_text(name, text)

    def _on_first_drag(self, ev: Any) -> None:
        from web.library.importing import enable_drop_import

        js.document.body.removeEventListener("dragover", self._first_drag)
        drop = enable_drop_import(js.document.body, self.library, on_imported=self._imported)
        drop._dragover(ev)  # this drag too: its drop must be allowed now

    def _library_cmd(self, cmd: str, _element: Any, _event: Any) -> None:
        self.close_welcome()
        self.library_command(cmd)

    def library_command(self, cmd: str) -> None:
        """Open the library panel, for New or Import directly. The dialog opens at once,
        saying so; the panel's modules are imported, then the panel drawn, each in a later
        task of its own after the tap's paint (together they hold a slow tablet half a
        second)."""
        self.close_library()
        body = self.dialog("Library", OPENING)
        byid("dialog").classList.add("wide")
        opening = body.firstElementChild

        def draw() -> None:
            if opening.isConnected and byid("dialog").open:  # not closed or replaced since
                self._draw_library(body, cmd)

        def load(n: int = 0) -> None:
            importlib.import_module(PANEL_IMPORTS[n])
            more = n + 1 < len(PANEL_IMPORTS)
            self.later.soon(LIBRARY_LATER, functools.partial(load, n + 1) if more else draw)

        self.later.after_paint(LIBRARY_LATER, load)

    def _draw_library(self, body: Any, cmd: str) -> None:
        from web.library import panel as library_panel

        body.innerHTML = ""
        self.library_panel = library_panel.open(
            body,
            self.library,
            on_open=self._library_opened,
            on_change=self._library_changed,
            current_id=self.entry_id,
        )
        if cmd in ("new", "import"):
            button = self.library_panel.root.querySelector(f'[data-lib="{cmd}"]')
            if present(button):
                button.click()

    def close_library(self) -> None:
        """Close the library panel if it is open."""
        if self.library_panel is not None:
            self.library_panel.close()
            self.library_panel = None
            byid("dialog").classList.remove("wide")

    def _library_opened(self, entry_id: str, enc: Encounter) -> None:
        # the panel is closed after its own click handler has returned (closing it
        # destroys that handler's proxy)
        js.setTimeout(self._close_dialog_later, 0)
        self.close_welcome()
        self.open(enc, entry_id)
        self.toast(f"Opened “{enc.setup.name}”.")

    def _library_changed(self, entry_id: str, entry: storage.Entry | None) -> None:
        if entry_id != self.entry_id or self.enc is None:
            return
        if entry is None:
            self.sync.library_changed(entry_id, True, 0)
            self.toast("The open encounter is in the library's trash; it is still saved there.")
            return
        self.session.renamed(entry.name)
        self.sync.library_changed(entry_id, False, entry.revision)

    def _imported(self, added: list[tuple[storage.Entry, Encounter]]) -> None:
        entry, enc = added[-1]
        js.setTimeout(self._close_dialog_later, 0)
        self.open(enc, entry.id)
        self.toast(f"Imported “{enc.setup.name}”.")
