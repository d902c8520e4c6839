"""The one modal dialog class: messages, confirmations, forms and titled panels.

The app's ``#dialog`` (title, body, close button in index.html) shows the legend and the
library; the library panel makes its own for renaming and confirmations (it also runs on
its own page). Both are this class: :meth:`Dialog.show` fills the whole dialog
(``data-dialog=kind``), :meth:`Dialog.titled` fills a dialog's title and body slots.
"""

from __future__ import annotations

from typing import Any

from web.ui.nodes import present


class Dialog:
    """One ``<dialog>`` element, reused."""

    def __init__(self, element: Any) -> None:
        self.element = element

    @classmethod
    def create(cls, document: Any, parent: Any, class_name: str = "hc-dialog") -> Dialog:
        """A new dialog element appended to ``parent``."""
        element = document.createElement("dialog")
        element.className = class_name
        parent.append(element)
        return cls(element)

    @property
    def is_open(self) -> bool:
        """True while the dialog is shown."""
        return bool(self.element.open)

    def _open(self) -> None:
        if not self.element.open:
            self.element.showModal()

    def show(self, kind: str, html: str, buttons: str) -> None:
        """Fill the dialog (``data-dialog=kind``) and open it modally; focus its first field."""
        self.element.dataset.dialog = kind
        self.element.innerHTML = f'{html}<div class="hc-lib-buttons">{buttons}</div>'
        self._open()
        target = self.element.querySelector("input")
        if not present(target):
            target = self.element.querySelector("button")
        if present(target):
            target.focus()

    def message(self, kind: str, html: str) -> None:
        """A message with an OK button."""
        self.show(
            kind, html, '<button type="button" class="primary" data-lib="dialog-ok">OK</button>'
        )

    def titled(self, title: str, body_html: str) -> Any:
        """Write a title and content into the dialog's ``[data-slot=title]`` and
        ``[data-slot=body]`` children and open it; returns the body element."""
        self.element.querySelector('[data-slot="title"]').textContent = title
        body = self.element.querySelector('[data-slot="body"]')
        body.innerHTML = body_html
        self._open()
        body.scrollTop = 0  # a reused dialog opens at its top, never where the last one was
        return body

    def close(self) -> None:
        """Close the dialog if it is open."""
        if self.element.open:
            self.element.close()
