"""Importing encounter files into the library: read a file list (too large ones refused
before reading), import each text (a name in use gets " (2)"; an invalid file changes
nothing), list the refused files with every engine problem, and import files dropped on an
element (the library panel, or the whole page once the app asks)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from hexcombat.document import MAX_DOCUMENT_CHARS, loads_in_steps
from hexcombat.encounter import Encounter
from hexcombat.errors import InvalidDocumentError, Problem
from web.engine_slices import in_slices, opened_in_slices
from web.library.storage import Entry, Library, LibraryError
from web.ui.dialog import Dialog
from web.ui.html import Markup, el, joined
from web.ui.nodes import present, pyodide_ffi


def spawn(tasks: set[asyncio.Future[None]], coroutine: Coroutine[Any, Any, None]) -> None:
    """Run ``coroutine`` on the page's event loop, keeping a reference until it is done."""
    task = asyncio.ensure_future(coroutine)
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def problem_items(problems: Sequence[Problem]) -> Markup:
    """``<li>`` items, one per problem: its path in code, then the message."""
    return joined(
        el("li", el("code", p.path), ": ", p.message) if p.path else el("li", p.message)
        for p in problems
    )


async def read_files(files: Any) -> list[tuple[str, str | None]]:
    """(file name, text) of each file of a FileList; text None when it is too large to import."""
    found: list[tuple[str, str | None]] = []
    for i in range(int(files.length)):
        file = files.item(i)
        if int(file.size) > MAX_DOCUMENT_CHARS * 4:
            found.append((str(file.name), None))
        else:
            found.append((str(file.name), str(await file.text())))
    return found


async def import_texts(
    library: Library, files: Sequence[tuple[str, str | None]]
) -> tuple[list[tuple[Entry, Encounter]], list[tuple[str, list[Problem]]]]:
    """Import each (name, text): the entries added, and the files refused with their problems.
    A long fight is opened and saved in slices (:mod:`web.engine_slices`): the page answers
    meanwhile."""
    added: list[tuple[Entry, Encounter]] = []
    refused: list[tuple[str, list[Problem]]] = []
    for name, text in files:
        if text is None:
            refused.append((name, [Problem("", "the file is too large to be an encounter")]))
            continue
        try:
            opened = await opened_in_slices(loads_in_steps(text))
            added.append(await in_slices(library.add_in_steps(opened)))
        except InvalidDocumentError as exc:
            refused.append((name, list(exc.problems) or [Problem("", str(exc))]))
        except LibraryError as exc:
            refused.append((name, [Problem("", str(exc))]))
    return added, refused


def refused_markup(refused: Sequence[tuple[str, list[Problem]]]) -> Markup:
    """Dialog body for files that could not be imported."""
    title = (
        f"“{refused[0][0]}” cannot be imported"
        if len(refused) == 1
        else f"{len(refused)} files cannot be imported"
    )
    body = joined(
        joined(
            [
                el("h4", name) if len(refused) > 1 else None,
                el("ul", problem_items(problems), class_="hc-import-problems"),
            ]
        )
        for name, problems in refused
    )
    has = "It has" if len(refused) == 1 else "They have"
    return joined([el("h3", title), el("p", f"Nothing was changed. {has} these problems:"), body])


class DropImport:
    """Import ``.json`` files dropped on an element (see :func:`enable_drop_import`)."""

    def __init__(
        self,
        target: Any,
        library: Library,
        on_imported: Callable[[list[tuple[Entry, Encounter]]], None],
        dialog: Dialog | None = None,
    ) -> None:
        self.target = target
        self.library = library
        self.on_imported = on_imported
        self.dialog = dialog or Dialog.create(target.ownerDocument, target.ownerDocument.body)
        self._tasks: set[asyncio.Future[None]] = set()
        ffi = pyodide_ffi()
        self._handlers = {
            name: ffi.create_proxy(getattr(self, "_" + name))
            for name in ("dragover", "dragleave", "drop")
        }
        for name, handler in self._handlers.items():
            target.addEventListener(name, handler)

    def disable(self) -> None:
        """Stop listening."""
        # The proxies are not destroyed: an event already queued for them (or the handler
        # that is running now) would then raise "Object has already been destroyed".
        for name, handler in self._handlers.items():
            self.target.removeEventListener(name, handler)
        self._handlers = {}

    def _has_files(self, event: Any) -> bool:
        transfer = event.dataTransfer
        return present(transfer) and "Files" in list(transfer.types)

    def _dragover(self, event: Any) -> None:
        if self._has_files(event):
            event.preventDefault()
            event.stopPropagation()
            event.dataTransfer.dropEffect = "copy"
            self.target.classList.add("hc-dropping")

    def _dragleave(self, event: Any) -> None:
        self.target.classList.remove("hc-dropping")

    def _drop(self, event: Any) -> None:
        self.target.classList.remove("hc-dropping")
        if not self._has_files(event):
            return
        event.preventDefault()
        event.stopPropagation()
        spawn(self._tasks, self.import_files(event.dataTransfer.files))

    async def import_files(self, files: Any) -> None:
        """Read and import every file; refused ones are listed in the dialog."""
        added, refused = await import_texts(self.library, await read_files(files))
        if refused:
            self.dialog.message("import-problems", refused_markup(refused))
        if added:
            self.on_imported(added)


def enable_drop_import(
    target: Any,
    library: Library,
    *,
    on_imported: Callable[[list[tuple[Entry, Encounter]]], None],
) -> DropImport:
    """Import encounter files dropped anywhere on ``target`` (e.g. ``document.body``).

    ``on_imported`` gets the (entry, encounter) pairs added; files the engine
    refuses are listed with every problem in a dialog and change nothing.
    ``.disable()`` on the result stops it.
    """
    return DropImport(target, library, on_imported)
