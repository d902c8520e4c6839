"""The one toast: a short message over the page that hides itself, with an optional button.

A toast never stops a tap: its words let pointers through to what lies beneath (the board's
top rows on a phone), and only its controls take a press, once armed (``data-arming``).

The app shows its messages in ``#toast`` (its Undo button is a ``data-cmd``); the library
panel, which also runs on its own page, keeps a toast in its own markup. Both are this class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from web.ui.html import el, joined
from web.ui.words import details_html


def _js() -> Any:
    import js  # type: ignore[import-not-found]

    return js


GAP = 8
"""Pixels between a moved toast and the token it keeps clear of."""
ARMING_MS = 450
"""How long a new toast lets no pointer press its button: on a touch screen the tap that made
it is followed by a click at the same spot, which must not land on a button (Undo) that has
just appeared under the finger. Keys reach the button at once."""


def toast_top(
    token: tuple[float, float, float, float],
    toast: tuple[float, float, float, float],
    room: tuple[float, float],
) -> float | None:
    """Where a toast (top, bottom, left, right on the page) goes so as not to cover the token
    (the same), as a top within ``room`` (its holder's top and bottom): None when it covers
    nothing; below the token when it fits there, else above it.

    >>> toast_top((100.0, 140.0, 50.0, 90.0), (110.0, 150.0, 0.0, 400.0), (0.0, 800.0))
    148.0
    >>> toast_top((700.0, 760.0, 50.0, 90.0), (710.0, 750.0, 0.0, 400.0), (0.0, 800.0))
    652.0
    >>> toast_top((10.0, 40.0, 50.0, 90.0), (100.0, 140.0, 0.0, 400.0), (0.0, 800.0)) is None
    True
    """
    ttop, tbottom, tleft, tright = token
    top, bottom, left, right = toast
    if bottom <= ttop or top >= tbottom or right <= tleft or left >= tright:
        return None
    height = bottom - top
    below = tbottom + GAP - room[0]
    if room[0] + below + height <= room[1]:
        return below
    return max(0.0, ttop - GAP - height - room[0])


class Toast:
    """A message box (``element``) shown for ``duration_ms``, twice as long for a problem."""

    def __init__(self, element: Any, *, duration_ms: int, text_tag: str = "span") -> None:
        self.element = element
        self.duration_ms = duration_ms
        self.text_tag = text_tag
        self.on_action: Callable[[], None] | None = None
        self._timer: Any = None
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        self._hide_later = create_proxy(lambda *_: self.hide())
        """Kept for the page's lifetime: a timer may fire after its owner has closed."""
        self._arm_timer: Any = None
        self._arm = create_proxy(lambda *_: self._armed())

    def show(
        self,
        text: str,
        *,
        bad: bool = False,
        button: str = "",
        button_attrs: dict[str, str] | None = None,
        on_action: Callable[[], None] | None = None,
        details: str = "",
    ) -> None:
        """Show ``text`` (with a button labelled ``button`` carrying ``button_attrs``, named
        as :func:`web.ui.html.el` takes them, and the technical ``details`` folded away under
        "details")."""
        js = _js()
        tag = self.text_tag
        extra = el("button", button, type="button", **(button_attrs or {})) if button else None
        self.element.innerHTML = el(tag, text) + joined((extra, details_html(details)))
        self.element.classList.toggle("bad", bad)
        self.element.hidden = False
        self.on_action = on_action
        self.element.setAttribute("data-arming", "")
        if self._arm_timer is not None:
            js.clearTimeout(self._arm_timer)
        self._arm_timer = js.setTimeout(self._arm, ARMING_MS)
        self.cancel_timer()
        self._timer = js.setTimeout(self._hide_later, self.duration_ms * (2 if bad else 1))

    def _armed(self) -> None:
        """Let pointers press the toast's button (:data:`ARMING_MS` after it showed)."""
        self._arm_timer = None
        self.element.removeAttribute("data-arming")

    def take_action(self) -> Callable[[], None] | None:
        """The button's callback, once (None when there is none)."""
        action, self.on_action = self.on_action, None
        return action

    def cancel_timer(self) -> None:
        """Stop the hiding timer (before closing the toast's owner)."""
        if self._timer is not None:
            _js().clearTimeout(self._timer)
            self._timer = None

    def hide(self) -> None:
        """Hide the message box."""
        self._timer = None
        self.on_action = None
        self.element.hidden = True
