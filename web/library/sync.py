"""Two tabs (or windows) on one encounter: nobody's change is overwritten or lost silently.

Every save names the revision it started from (:meth:`Library.save` with ``base``); a
save refused because another tab saved in between, or because the entry went to the
trash or was removed, opens the conflict dialog, and nothing is written until the user
picks: keep mine as a copy (both versions stay, nothing is lost), take theirs, or
restore the deleted entry. The ``storage`` event (fired in every other tab of the
site when localStorage changes) tells an open tab at once: a rename elsewhere is
adopted quietly (top bar included); a changed fight, the trash or removal opens the
dialog. A tab whose save was refused also writes a marker key, so the tab that won
says so too.

The app gives this class a :class:`Host` (``web/app.py``); the decisions are the
library's (:meth:`Library.outside_change`), tested under CPython.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Protocol

from hexcombat import Encounter
from web.library.storage import (
    INDEX_KEY,
    PREFIX,
    ConflictError,
    EntryGoneError,
    Library,
    LibraryError,
)
from web.session import Session
from web.ui.html import Markup, el, joined

CONFLICT_PREFIX = PREFIX + "conflict:"
"""``hexcombat:conflict:<entry id>``: a tab's save of that entry was refused (JSON note)."""


class Host(Protocol):
    """What the tab sync needs of the app."""

    library: Library
    session: Session

    def open(self, enc: Encounter, entry_id: str | None) -> None: ...

    def dialog(self, title: str, body_html: str) -> Any: ...

    def close_dialog(self) -> None: ...

    def draw_topbar(self) -> None: ...

    def toast(self, message: str, *, bad: bool = False, undo: bool = False) -> None: ...


class TabSync:
    """The open entry's revision, the checked save, and the conflict dialog."""

    COMMANDS = ("conflict-copy", "conflict-theirs", "conflict-restore", "conflict-close")

    def __init__(self, host: Host, store: Any = None) -> None:
        self.host = host
        self.revision = 0
        """The revision of the open entry this tab opened or saved last."""
        self.state = ""
        """'' (in step), 'changed', 'trashed' or 'gone' while the conflict is unresolved."""
        self.store = store

    # ---- revisions ---------------------------------------------------------------------
    def opened(self, entry_id: str | None) -> None:
        """An entry was opened (or a new one saved): remember its revision."""
        self.state = ""
        self.revision = 0
        if entry_id is not None:
            with contextlib.suppress(LibraryError):
                self.revision = self.host.library.entry(entry_id).revision

    def save(self, entry_id: str, enc: Encounter) -> None:
        """Save from the remembered revision; a refusal opens the dialog (raises nothing)."""
        if self.state:
            self._refused(self.state)
            return
        try:
            entry = self.host.library.save(entry_id, enc, base=self.revision)
        except ConflictError:
            self._refused("changed")
        except EntryGoneError as exc:
            self._refused("trashed" if exc.entry is not None else "gone")
        else:
            self.revision = entry.revision

    def library_changed(self, entry_id: str, deleted: bool, revision: int) -> None:
        """This tab's library renamed, restored or deleted the open entry."""
        if deleted:
            self.state = "trashed"
        else:
            self.state = ""
            self.revision = revision
        self.host.draw_topbar()

    def title_suffix(self) -> str:
        """Words after the encounter's name in the top bar while it is not in step."""
        return {
            "trashed": " (in the trash)",
            "gone": " (deleted)",
            "changed": " (changed in another tab)",
        }.get(self.state, "")

    # ---- the storage event ---------------------------------------------------------------
    def on_storage(self, key: str | None) -> None:
        """Another tab changed localStorage (``key`` None: it was cleared)."""
        session = self.host.session
        entry_id = session.entry_id
        if entry_id is None or session.enc is None:
            return
        if key is not None and key == CONFLICT_PREFIX + entry_id:
            if self._marker(entry_id):
                self.host.toast(
                    "Another tab has changes to this encounter that conflict with this one; "
                    "it asks there which to keep.",
                    bad=True,
                )
            return
        # a revision's parts come with its manifest (``...:r<n>``): one check per save, not per part
        if key is not None and key != INDEX_KEY and not key.startswith(f"{PREFIX}enc:{entry_id}:r"):
            return
        self.check()

    def check(self) -> None:
        """Compare the open encounter with the library and act on what changed elsewhere."""
        session = self.host.session
        entry_id, mine = session.entry_id, session.enc
        if entry_id is None or mine is None:
            return
        kind, entry = self.host.library.outside_change(entry_id, self.revision, mine)
        if kind == "same":
            if self.state in ("trashed", "gone"):  # restored elsewhere
                self.state = ""
                self.host.draw_topbar()
            return
        if kind == "renamed" and entry is not None:
            self.revision = entry.revision
            if session.renamed(entry.name):
                self.host.draw_topbar()
                self.host.toast(f"Renamed to “{entry.name}” in another tab.")
            return
        if self.state != kind:
            self.state = kind
            self.host.draw_topbar()
            self.show()

    # ---- the dialog ----------------------------------------------------------------------
    def show(self) -> None:
        """The conflict dialog for the current state, with the choices that fit it."""
        name = self.host.session.encounter.setup.name
        words = {
            "changed": f"“{name}” was changed in another tab or window.",
            "trashed": f"“{name}” was deleted: it is in the library's trash.",
            "gone": f"“{name}” was deleted for good in another tab or window.",
        }[self.state]
        buttons = [
            el(
                "button",
                "Keep mine as a copy",
                type="button",
                class_="primary",
                data_cmd="conflict-copy",
            )
        ]
        if self.state == "changed":
            buttons.append(el("button", "Take theirs", type="button", data_cmd="conflict-theirs"))
        if self.state == "trashed":
            buttons.append(el("button", "Restore it", type="button", data_cmd="conflict-restore"))
        if self.state in ("trashed", "gone"):
            buttons.append(el("button", "Close it", type="button", data_cmd="conflict-close"))
        self.host.dialog(
            "Two versions of this encounter",
            el(
                "div",
                el("p", words),
                Markup(
                    "<p>What this tab shows is not saved over it. Keep this tab's version as a "
                    "new encounter (nothing is lost), or choose the other one.</p>"
                ),
                el("div", joined(buttons), class_="row"),
                data_conflict=self.state,
            ),
        )

    def command(self, cmd: str) -> None:
        """Run one of :attr:`COMMANDS` (a button of the conflict dialog)."""
        host, session = self.host, self.host.session
        entry_id = session.entry_id
        mine = session.encounter
        if cmd == "conflict-copy":
            try:
                entry, enc = host.library.add(mine)
            except LibraryError as exc:
                host.toast(str(exc), bad=True)
                return
            self._resolved(entry_id)
            host.close_dialog()
            host.open(enc, entry.id)
            host.toast(f"This tab's version is saved as “{entry.name}”.")
            return
        if cmd == "conflict-restore" and entry_id is not None:
            host.library.restore(entry_id)
            self.state = ""
            self._resolved(entry_id)
            host.close_dialog()
            self.check()  # restored: saved over only if nothing else changed meanwhile
            if not self.state:
                self.save(entry_id, mine)
                host.draw_topbar()
            return
        self._resolved(entry_id)
        host.close_dialog()
        if cmd == "conflict-theirs" and entry_id is not None:
            host.open(host.library.load(entry_id), entry_id)
            host.toast("Showing the other tab's version.")
            return
        other = host.library.latest()
        if other is not None:
            host.open(host.library.load(other), other)
        else:
            entry, enc = host.library.add(mine)
            host.open(enc, entry.id)

    # ---- internals -------------------------------------------------------------------------
    def _refused(self, state: str) -> None:
        self.state = state
        entry_id = self.host.session.entry_id
        if state == "changed" and entry_id is not None and self.store is not None:
            note = json.dumps({"revision": self.revision})
            with contextlib.suppress(Exception):
                self.store.set(CONFLICT_PREFIX + entry_id, note)
        self.host.draw_topbar()
        self.show()

    def _marker(self, entry_id: str) -> bool:
        if self.store is None:
            return False
        with contextlib.suppress(Exception):
            return self.store.get(CONFLICT_PREFIX + entry_id) is not None
        return False

    def _resolved(self, entry_id: str | None) -> None:
        self.state = ""
        if entry_id is not None and self.store is not None:
            with contextlib.suppress(Exception):
                self.store.remove(CONFLICT_PREFIX + entry_id)
