"""Small page helpers shared by the app's views: escaping, element lookup, event listeners.

Views build their markup as text (one ``innerHTML`` write is far cheaper from
Pyodide than one call per node) and listen once per container, finding the
element that was hit through ``data-`` attributes (event delegation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from web.ui.html import esc as esc  # the one escaping, kept here for the views
from web.ui.nodes import present as present  # the one test for a missing node

_KEEP: list[Any] = []
"""Proxies handed to the page for its lifetime (listeners are never removed)."""


def byid(element_id: str) -> Any:
    """The page element with ``element_id`` (KeyError when it is missing)."""
    found = js.document.getElementById(element_id)
    if not present(found):
        raise KeyError(f"the page has no element #{element_id}")
    return found


def proxy(fn: Callable[..., Any]) -> Any:
    """A JavaScript function calling ``fn``, kept alive for the page's lifetime."""
    p = create_proxy(fn)
    _KEEP.append(p)
    return p


def listen(
    target: Any, event: str, fn: Callable[[Any], Any], *, passive: bool | None = None
) -> None:
    """Call ``fn(event)`` on each ``event``; ``passive=False`` lets ``fn`` prevent the default."""
    if passive is None:
        target.addEventListener(event, proxy(fn))
    else:
        options = to_js({"passive": passive}, dict_converter=js.Object.fromEntries)
        target.addEventListener(event, proxy(fn), options)


def closest_data(event: Any, name: str) -> tuple[Any, str | None]:
    """The nearest element (from the event target up) carrying ``data-<name>``, and its value."""
    target = event.target
    if not present(target) or not hasattr(target, "closest"):
        return None, None
    found = target.closest(f"[data-{name}]")
    if not present(found):
        return None, None
    return found, str(found.getAttribute(f"data-{name}"))


def focus_quietly(element: Any) -> None:
    """Focus ``element`` without scrolling its container (a card keeps its title in view)."""
    element.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))


def bring_into_view(element: Any) -> None:
    """Scroll ``element``'s container just enough to show it (no scroll when it is in view)."""
    element.scrollIntoView(to_js({"block": "nearest"}, dict_converter=js.Object.fromEntries))


def now_ms() -> float:
    """The page clock in milliseconds (``performance.now()``)."""
    return float(js.performance.now())
