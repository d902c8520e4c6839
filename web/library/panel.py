"""The encounter library panel: list, open, new, rename, duplicate, delete/undo, import, export.

H5's top bar menu opens it into any container element::

    panel = library_panel.open(
        container,                      # an element; the panel is appended to it
        library,                        # a storage.Library (storage.browser_library())
        on_open=lambda entry_id, enc: ...,     # the user opened/created/imported-and-opened one
        on_change=lambda entry_id, entry: ..., # an entry was renamed (entry) or trashed (None)
        on_close=panel_closed,          # optional: shows a Close button, Esc closes
        current_id=app.current_id,      # optional: marks the encounter that is open now
    )
    panel.root.querySelector('[data-lib="new"]').click()   # New or Import… straight away
    panel.close()                       # remove it and release its listeners

``on_open`` receives the entry id and the engine ``Encounter`` (already
remembered as the last opened); the panel stays open until the caller closes
it. ``on_change`` matters for the open encounter: after a rename adopt the new
name (``enc = enc.renamed(entry.name)``) or the next autosave writes the old
name back; ``None`` means it went to the trash (Undo in the toast, or
"Recently deleted", brings it back; a save keeps it in the trash).

Dropping ``.json`` files on the panel imports them (:mod:`web.library.importing`). For
drops anywhere on the page, the app calls ``importing.enable_drop_import(js.document.body,
library, on_imported=...)`` once. The new-encounter form is :mod:`web.library.new_encounter`.
Imports never overwrite: a name in use gets " (2)";
an invalid file changes nothing and every engine problem (``path: message``)
is listed in a dialog.

Test hooks: ``[data-library]`` on the panel, ``[data-entry=<id>]`` on each row
(``data-unreadable`` when it cannot be read, ``data-current`` for the open
one), ``[data-lib=<command>]`` on every button (open, rename, duplicate,
export, delete, restore, purge, purge-confirm, new, create, cancel, import,
demo, rename-save,
close, dialog-ok, toast-action), ``[data-demo=<file>]`` on demo rows and
``dialog[data-dialog=<kind>]`` for dialogs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hexcombat.document import read_json
from hexcombat.encounter import Encounter
from hexcombat.errors import InvalidDocumentError
from hexcombat.rulesets import ruleset_entries
from web.engine_slices import opened_in_slices
from web.library.entries import when_words
from web.library.importing import DropImport, problem_items, spawn
from web.library.new_encounter import NewEncounterForm
from web.library.roster_list import RosterList
from web.library.storage import DamagedEntryError, Entry, Library, LibraryError
from web.ui.dialog import Dialog
from web.ui.files import download_text
from web.ui.forms import Form, ensure_stylesheet
from web.ui.html import Markup, el, joined
from web.ui.nodes import present, pyodide_ffi
from web.ui.toast import Toast

OnOpen = Callable[[str, Encounter], None]
OnChange = Callable[[str, Entry | None], None]
DEMOS_URL = "./static/demos/index.json"
TOAST_MS = 10_000


def _js() -> Any:
    import js  # type: ignore[import-not-found]

    return js


class LibraryPanel(NewEncounterForm, RosterList):
    """The library UI inside a container; see the module docstring for the callbacks."""

    def __init__(
        self,
        container: Any,
        library: Library,
        *,
        on_open: OnOpen,
        on_change: OnChange | None = None,
        on_close: Callable[[], None] | None = None,
        current_id: str | None = None,
        demos_url: str = DEMOS_URL,
    ) -> None:
        self.library = library
        self.on_open = on_open
        self.on_change = on_change
        self.on_close = on_close
        self.current_id = current_id
        self.demos_url = demos_url
        self.demos: list[dict[str, str]] | None = None
        self.demos_problem = ""
        # names and summaries only: a ruleset's module is imported when the form shows it
        self.rulesets = [
            {"id": e.id, "name": e.name, "summary": e.summary} for e in ruleset_entries()
        ]
        self._ruleset_names = {str(r["id"]): str(r["name"]) for r in self.rulesets}
        self._base_form: Form | None = None
        self._options_form: Form | None = None
        self._renaming = ""
        self._purging = ""
        self._tasks: set[asyncio.Future[None]] = set()
        document = container.ownerDocument
        self.document = document
        ensure_stylesheet(document)
        root = document.createElement("section")
        root.className = "hc-library"
        root.dataset.library = ""
        root.setAttribute("aria-labelledby", "hc-lib-title")
        root.innerHTML = _panel_markup(closable=on_close is not None)
        container.append(root)
        self.root = root
        self.dialog = Dialog.create(document, root)
        self._toast = Toast(self._slot("toast"), duration_ms=TOAST_MS, text_tag="p")
        ffi = pyodide_ffi()
        self._listeners = {
            "click": ffi.create_proxy(self._click),
            "submit": ffi.create_proxy(self._submit),
            "keydown": ffi.create_proxy(self._keydown),
        }
        for name, handler in self._listeners.items():
            root.addEventListener(name, handler)
        self._file_listener = ffi.create_proxy(self._files_chosen)
        self._slot("file").addEventListener("change", self._file_listener)
        self._drop = DropImport(root, library, self._imported, self.dialog)
        self._slot("memory").hidden = library.persistent
        self.refresh()
        spawn(self._tasks, self._load_demos())
        self._slot_title().focus()

    # ---- drawing -------------------------------------------------------------
    def _slot(self, name: str) -> Any:
        return self.root.querySelector(f'[data-slot="{name}"]')

    def _slot_title(self) -> Any:
        return self.root.querySelector("#hc-lib-title")

    def refresh(self) -> None:
        """Redraw the list, the trash and the start section from the library."""
        entries = self.library.entries()
        self._slot("list").innerHTML = joined(
            entry_markup(
                e,
                self._ruleset_name(e.ruleset),
                self._when(e.changed),
                current=e.id == self.current_id,
            )
            for e in entries
        )
        self._slot("list").hidden = not entries
        trash = self.library.trash()
        self._slot("trash").hidden = not trash
        self._slot("trash-title").textContent = f"Recently deleted ({len(trash)})"
        self._slot("trash-list").innerHTML = joined(
            trash_markup(e, self._when(e.deleted)) for e in trash
        )
        self._draw_demos(bool(entries))
        self.draw_rosters()

    def _ruleset_name(self, ruleset_id: str) -> str:
        return self._ruleset_names.get(ruleset_id, ruleset_id or "unknown rules")

    def _when(self, iso: str) -> str:
        """``iso`` in this device's time zone, in the list's words."""
        date = _js().Date.new(iso) if iso else None
        if date is None or date.getTime() != date.getTime():  # none, or not a time (NaN)
            return "time unknown"
        year, month, day = int(date.getFullYear()), int(date.getMonth()), int(date.getDate())
        return when_words(year, month, day, int(date.getHours()), int(date.getMinutes()))

    def _draw_demos(self, has_entries: bool) -> None:
        if self.demos is None:
            items = Markup("" if self.demos_problem else "<li>Loading the demo encounters…</li>")
        else:
            items = joined(
                el(
                    "li",
                    el(
                        "button",
                        d["title"],
                        type="button",
                        class_="hc-secondary hc-lib-demo-open",
                        data_lib="demo",
                    ),
                    el("p", f"{self._ruleset_name(d['ruleset'])}: {d['description']}"),
                    class_="hc-lib-demo",
                    data_demo=d["file"],
                )
                for d in self.demos
            )
        if self.demos_problem:
            items = joined((items, el("li", self.demos_problem, class_="hc-lib-problem")))
        start = self._slot("start")
        demos = self._slot("demos")
        if has_entries:
            start.hidden = True
            start.innerHTML = ""
            self._slot("demo-list").innerHTML = items
            demos.hidden = not items
        else:
            demos.hidden = True
            start.hidden = False
            start.innerHTML = (
                "<h3>No saved encounters yet</h3>"
                "<p>Start a new encounter on an empty board, or open a demo to see how a "
                "fight plays out. Either one is saved here as you change it.</p>"
                '<div class="hc-lib-buttons"><button type="button" class="primary" data-lib="new">'
                "New encounter</button></div>"
                "<h3>Demo encounters</h3>" + el("ul", items, class_="hc-lib-demos")
            )

    async def _load_demos(self) -> None:
        js = _js()
        try:
            response = await js.fetch(self.demos_url)
            if not response.ok:
                raise OSError(f"HTTP {response.status}")
            data = read_json(str(await response.text()))
            self.demos = [
                {k: str(d[k]) for k in ("ruleset", "file", "title", "description")} for d in data
            ]
        except Exception as exc:
            self.demos = []
            self.demos_problem = f"The demo encounters could not be loaded ({exc})."
        if self.root.isConnected:
            self._draw_demos(bool(self.library.entries()))

    # ---- messages ------------------------------------------------------------
    def toast(
        self, text: str, action: str = "", on_action: Callable[[], None] | None = None
    ) -> None:
        """Show a short message at the bottom, with an optional button (e.g. Undo)."""
        self._toast.show(
            text, button=action, button_attrs={"data_lib": "toast-action"}, on_action=on_action
        )

    def _error(self, title: str, exc: Exception) -> None:
        problems = getattr(exc, "problems", ())
        details = el("ul", problem_items(list(problems))) if problems else None
        text = str(exc) if not isinstance(exc, InvalidDocumentError) else ""
        self.dialog.message(
            "error", joined([el("h3", title), el("p", text) if text else None, details])
        )

    # ---- commands ------------------------------------------------------------
    def _click(self, event: Any) -> None:
        target = event.target
        if not present(target):
            return
        button = target.closest("[data-lib]")
        if not present(button) or not self.root.contains(button) or button.disabled:
            return
        command = str(button.dataset.lib)
        row = button.closest("[data-entry]")
        entry_id = (
            str(row.dataset.entry) if present(row) else str(button.getAttribute("data-arg") or "")
        )
        demo = button.closest("[data-demo]")
        if command == "demo" and present(demo):
            event.preventDefault()
            spawn(self._tasks, self._open_demo(str(demo.dataset.demo)))
            return
        handler = getattr(self, "_cmd_" + command.replace("-", "_"), None)
        if handler is not None:
            event.preventDefault()
            handler(entry_id)

    def _submit(self, event: Any) -> None:
        event.preventDefault()
        if self.dialog.element.open and self._renaming:
            self._cmd_rename_save("")
        elif not self._slot("new").hidden:
            self._cmd_create("")

    def _keydown(self, event: Any) -> None:
        if str(event.key) == "Escape" and not self.dialog.element.open and self.on_close:
            event.preventDefault()
            self.on_close()

    def _cmd_close(self, _: str) -> None:
        if self.on_close:
            self.on_close()

    def _cmd_open(self, entry_id: str) -> None:
        spawn(self._tasks, self._open(entry_id))

    async def _open(self, entry_id: str) -> None:
        """Open an entry, a long fight in slices (the page answers meanwhile)."""
        try:
            encounter = await opened_in_slices(self.library.load_in_steps(entry_id))
        except (InvalidDocumentError, LibraryError) as exc:
            self.refresh()
            self._error("This encounter cannot be opened", exc)
            return
        self.library.remember(entry_id)
        self.current_id = entry_id
        self.refresh()
        self.on_open(entry_id, encounter)

    def _cmd_rename(self, entry_id: str) -> None:
        entry = self.library.entry(entry_id)
        self._renaming = entry_id
        self.dialog.show(
            "rename",
            rename_form(entry.name),
            '<button type="button" class="primary" data-lib="rename-save">Rename</button>'
            '<button type="button" class="hc-secondary" data-lib="dialog-ok">Cancel</button>',
        )
        field = self.dialog.element.querySelector("input")
        field.select()

    def _cmd_rename_save(self, _: str) -> None:
        entry_id = self._renaming
        name = str(self.dialog.element.querySelector("#hc-rename-input").value).strip()
        problem = self.dialog.element.querySelector("#hc-rename-problem")
        try:
            entry = self.library.rename(entry_id, name)
        except InvalidDocumentError as exc:
            problem.textContent = "The name " + "; ".join(p.message for p in exc.problems)
            problem.hidden = False
            return
        except LibraryError as exc:
            problem.textContent = str(exc)[:1].upper() + str(exc)[1:]
            problem.hidden = False
            return
        self._renaming = ""
        self.dialog.close()
        self.refresh()
        self._focus_entry(entry_id)
        if self.on_change:
            self.on_change(entry_id, entry)

    def _cmd_dialog_ok(self, _: str) -> None:
        self._renaming = ""
        self._purging = ""
        self.dialog.close()

    def _cmd_duplicate(self, entry_id: str) -> None:
        try:
            entry, _enc = self.library.duplicate(entry_id)
        except (InvalidDocumentError, LibraryError) as exc:
            self._error("This encounter cannot be duplicated", exc)
            return
        self.refresh()
        self._focus_entry(entry.id)
        self.toast(f"Made a copy: “{entry.name}”.")

    def _cmd_export(self, entry_id: str) -> None:
        try:
            filename, text = self.library.export(entry_id)
        except (DamagedEntryError, LibraryError) as exc:
            self._error("There is nothing to export", exc)
            return
        download_text(filename, text)
        self.toast(f"Exported as {filename}.")

    def _cmd_delete(self, entry_id: str) -> None:
        try:
            entry = self.library.delete(entry_id)
        except LibraryError as exc:
            self._error("This encounter cannot be deleted", exc)
            return
        self.refresh()
        self.toast(f"Deleted “{entry.name}”.", "Undo", lambda: self._cmd_restore(entry_id))
        if self.on_change:
            self.on_change(entry_id, None)

    def _cmd_toast_action(self, _: str) -> None:
        action = self._toast.take_action()
        self._toast.hide()
        if action is not None:
            action()

    def _cmd_restore(self, entry_id: str) -> None:
        try:
            entry = self.library.restore(entry_id)
        except LibraryError as exc:
            self._error("This encounter cannot be restored", exc)
            return
        self.refresh()
        self._focus_entry(entry_id)
        self.toast(f"Restored “{entry.name}”.")
        if self.on_change:
            self.on_change(entry_id, entry)

    def _cmd_purge(self, entry_id: str) -> None:
        entry = self.library.entry(entry_id)
        self._purging = entry_id
        self.dialog.show(
            "purge",
            joined(
                [
                    el("h3", f"Delete “{entry.name}” for good?"),
                    el(
                        "p",
                        "It cannot be restored afterwards. "
                        "Export it first if you may want it again.",
                    ),
                ]
            ),
            '<button type="button" class="hc-danger danger" data-lib="purge-confirm">'
            "Delete for good</button>"
            '<button type="button" class="hc-secondary" data-lib="dialog-ok">Cancel</button>',
        )

    def _cmd_purge_confirm(self, _: str) -> None:
        entry_id, self._purging = self._purging, ""
        self.dialog.close()
        try:
            self.library.purge(entry_id)
        except LibraryError as exc:
            self._error("This encounter cannot be removed", exc)
        self.refresh()

    def _cmd_import(self, _: str) -> None:
        self._slot("file").click()

    def _files_chosen(self, event: Any) -> None:
        chooser = self._slot("file")
        files = chooser.files
        spawn(self._tasks, self._import_chosen(files, chooser))

    async def _import_chosen(self, files: Any, chooser: Any) -> None:
        await self._drop.import_files(files)
        chooser.value = ""

    def _imported(self, added: list[tuple[Entry, Encounter]]) -> None:
        self.refresh()
        self._focus_entry(added[-1][0].id)
        names = ", ".join(f"“{entry.name}”" for entry, _ in added)
        if len(added) == 1:
            entry = added[0][0]
            self.toast(f"Imported {names}.", "Open", lambda: self._cmd_open(entry.id))
        else:
            self.toast(f"Imported {names}.")

    async def _open_demo(self, file: str) -> None:
        js = _js()
        base = self.demos_url.rsplit("/", 1)[0]
        try:
            response = await js.fetch(f"{base}/{file}")
            if not response.ok:
                raise OSError(f"HTTP {response.status}")
            text = str(await response.text())
            entry, encounter = self.library.import_text(text)
        except (InvalidDocumentError, LibraryError, OSError) as exc:
            self._error("The demo could not be opened", exc)
            return
        except Exception as exc:
            self._error("The demo could not be loaded", exc)
            return
        self.library.remember(entry.id)
        self.current_id = entry.id
        self.refresh()
        self.on_open(entry.id, encounter)

    def _focus_entry(self, entry_id: str) -> None:
        row = self.root.querySelector(f'[data-entry="{entry_id}"] button')
        if present(row):
            row.focus()

    # ---- closing -------------------------------------------------------------
    def close(self) -> None:
        """Remove the panel and release its listeners."""
        self._toast.cancel_timer()
        for form in (self._base_form, self._options_form):
            if form is not None:
                form.destroy()
        self._drop.disable()
        # Listeners are removed but their proxies not destroyed (see DropImport.disable):
        # this close() itself usually runs inside one of them.
        for name, handler in self._listeners.items():
            self.root.removeEventListener(name, handler)
        self._slot("file").removeEventListener("change", self._file_listener)
        self.dialog.close()
        self.root.remove()


def _panel_markup(*, closable: bool) -> str:
    """The panel's frame: head with New, Import (and Close when ``closable``), the slots the
    panel fills (list, new-encounter form, demos, trash, toast) and the file input."""
    close = (
        '<button type="button" class="hc-secondary" data-lib="close">Close</button>'
        if closable
        else ""
    )
    return f"""
<header class="hc-lib-head">
  <h2 id="hc-lib-title" tabindex="-1">Encounters</h2>
  <div class="hc-lib-tools">
    <button type="button" class="primary" data-lib="new">New encounter</button>
    <button type="button" class="hc-secondary" data-lib="import">Import…</button>
    {close}
  </div>
</header>
<p class="hc-lib-note" data-slot="memory" hidden>This browser does not let the app keep data:
encounters last only until this tab closes. Export the ones you want to keep.</p>
<section class="hc-lib-new" data-slot="new" aria-labelledby="hc-lib-new-title" hidden></section>
<ul class="hc-lib-list" data-slot="list" aria-label="Saved encounters"></ul>
<section class="hc-lib-start" data-slot="start" aria-label="Getting started" hidden></section>
<details data-slot="demos" hidden><summary>Demo encounters</summary>
  <ul class="hc-lib-demos" data-slot="demo-list"></ul></details>
<details data-slot="rosters" hidden><summary>Rosters</summary>
  <p class="hc-lib-hint">The characters kept from fight to fight, per ruleset: set-up saves
  and adds them, a fight's end writes back what it changed.</p>
  <div data-slot="roster-list"></div></details>
<details data-slot="trash" hidden><summary data-slot="trash-title">Recently deleted</summary>
  <ul class="hc-lib-trash-list" data-slot="trash-list"></ul></details>
<p class="hc-lib-hint">Import takes an encounter <code>.json</code> file; you can also drop files
here. Encounters are saved in this browser as you change them.</p>
<input type="file" accept=".json,application/json" multiple hidden data-slot="file"
 aria-label="Encounter files to import">
<div class="hc-toast" role="status" aria-live="polite" data-slot="toast" hidden></div>
"""


def open(
    container: Any,
    library: Library,
    *,
    on_open: OnOpen,
    on_change: OnChange | None = None,
    on_close: Callable[[], None] | None = None,
    current_id: str | None = None,
    demos_url: str = DEMOS_URL,
) -> LibraryPanel:
    """Show the library panel in ``container`` and return it (``.close()`` removes it)."""
    return LibraryPanel(
        container,
        library,
        on_open=on_open,
        on_change=on_change,
        on_close=on_close,
        current_id=current_id,
        demos_url=demos_url,
    )


def rename_form(name: str) -> Markup:
    """The rename dialog's form, the field holding the encounter's ``name``."""
    field = el(
        "input",
        type="text",
        id="hc-rename-input",
        value=name,
        maxlength="120",
        aria_describedby="hc-rename-problem",
        autocomplete="off",
    )
    problem = el("p", class_="hc-problem", id="hc-rename-problem", role="alert", hidden=True)
    return el(
        "form",
        el("h3", "Rename encounter"),
        el(
            "div",
            el("label", "New name", for_="hc-rename-input"),
            field,
            problem,
            class_="hc-field",
        ),
    )


def entry_markup(entry: Entry, ruleset_name: str, changed: str, *, current: bool) -> Markup:
    """An encounter's row in the list: its name opens it (when it can be read), with rename,
    duplicate, export and delete beside it; ``current``: the one open now."""
    name = entry.name
    meta = f"{ruleset_name} · changed {changed}" + (" · open now" if current else "")
    problem = None if entry.readable else _unreadable(entry)
    if entry.readable:
        open_button = el(
            "button",
            name,
            type="button",
            class_="hc-lib-open",
            data_lib="open",
            aria_label=f"Open {name}",
            title=name,
        )
        edit: Markup | None = joined(
            el(
                "button",
                word,
                type="button",
                class_="hc-secondary",
                data_lib=lib,
                aria_label=f"{word} {name}",
            )
            for word, lib in (("Rename", "rename"), ("Duplicate", "duplicate"))
        )
    else:
        open_button = el("button", name, type="button", class_="hc-lib-open", disabled=True)
        edit = None
    export = el(
        "button",
        "Export" if entry.readable else "Export as is",
        type="button",
        class_="hc-secondary",
        data_lib="export",
        aria_label=f"Export {name}",
    )
    delete = el(
        "button",
        "Delete",
        type="button",
        class_="hc-danger danger",
        data_lib="delete",
        aria_label=f"Delete {name}",
    )
    return el(
        "li",
        el("div", open_button, el("p", meta, class_="hc-lib-meta"), problem, class_="hc-lib-main"),
        el("div", edit, export, delete, class_="hc-lib-actions"),
        class_="hc-lib-entry",
        data_entry=entry.id,
        data_unreadable=not entry.readable,
        data_current=current,
    )


def _unreadable(entry: Entry) -> Markup:
    """Why an entry cannot be opened: its first three problems."""
    shown = "; ".join(str(p) for p in entry.problems[:3])
    more = len(entry.problems) - 3
    if more > 0:
        shown += f"; and {more} more"
    return el("p", f"Cannot be opened: {shown}", class_="hc-lib-problem")


def trash_markup(entry: Entry, deleted: str) -> Markup:
    """A deleted encounter's row in the trash: restore it, or delete it for good."""
    name = entry.name
    restore = el(
        "button",
        "Restore",
        type="button",
        class_="hc-secondary",
        data_lib="restore",
        aria_label=f"Restore {name}",
    )
    purge = el(
        "button",
        "Delete for good",
        type="button",
        class_="hc-danger danger",
        data_lib="purge",
        aria_label=f"Delete {name} for good",
    )
    return el(
        "li",
        el(
            "div",
            el("span", name),
            el("p", f"deleted {deleted}", class_="hc-lib-meta"),
            class_="hc-lib-main",
        ),
        el("div", restore, purge, class_="hc-lib-actions"),
        class_="hc-lib-entry",
        data_entry=entry.id,
        data_deleted=True,
    )
