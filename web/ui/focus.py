"""Focus after an action: a panel drawn again never leaves the keyboard on the page body.

Panels are drawn as text (one ``innerHTML`` write), so the button a player pressed with
Enter is replaced by a new one and the browser puts the focus on ``<body>``: 14 to 39 Tabs
back to where they were. :func:`kept` runs an action and then, when the focus was lost,
puts it on what the action produced (an element marked ``data-focus-here``: a new skill's
field, an item just added), else on the same control drawn again (the Paint tool, a side
button, an action's head), else on the open panel's heading. The identity of a control is
its ``data-cmd`` and the ``data-`` attributes that name what it is about (never its state).
The page is reached when first needed, so :func:`selector_of` is tested under CPython.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from web.ui.nodes import present

NAMING: Final = (
    "data-cmd",
    "data-kind",
    "data-side",
    "data-pick",
    "data-tool",
    "data-terrain-id",
    "data-mode",
    "data-skill",
    "data-index",
    "data-by",
    "data-commit",
    "data-answer",
)
"""The attributes that say what a control is about (its state, such as ``aria-pressed`` or
``data-played-by``, changes when it is pressed and is left out)."""
FALLBACK: Final = (
    "[data-focus-here]",
    "#panel-body .result[tabindex]",
    "#panel-body h2",
)
"""Where the focus goes when the pressed control is gone, in this order."""


def selector_of(attributes: dict[str, str], tag: str) -> str:
    """A CSS selector finding a control drawn again from its naming attributes ('' when it
    has none).

    >>> selector_of({"data-cmd": "tool", "data-tool": "paint", "aria-pressed": "false"}, "BUTTON")
    'button[data-cmd="tool"][data-tool="paint"]'
    """
    named = [(k, attributes[k]) for k in NAMING if k in attributes]
    if not named:
        return ""
    return tag.lower() + "".join(f'[{k}="{_quoted(v)}"]' for k, v in named)


def _quoted(value: str) -> str:
    """``value`` inside a CSS attribute selector's double quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _selector(element: Any) -> str:
    if not present(element) or not hasattr(element, "getAttribute"):
        return ""
    found = {name: str(element.getAttribute(name)) for name in NAMING if element.hasAttribute(name)}
    element_id = str(element.id or "") if hasattr(element, "id") else ""
    if element_id and not found:
        return f"#{element_id}"
    return selector_of(found, str(element.tagName))


def _document() -> Any:
    import js  # type: ignore[import-not-found]

    return js.document


def lost() -> bool:
    """True when the keyboard's focus is nowhere useful (the page body, or a removed node)."""
    active = _document().activeElement
    return not present(active) or active == _document().body or not bool(active.isConnected)


def kept(run: Callable[[], Any], element: Any = None) -> Any:
    """Run ``run``; if it lost the focus, put it back (see the module's words). ``element``:
    the control pressed (by default the one focused before)."""
    pressed = element if present(element) else _document().activeElement
    selector = _selector(pressed)
    result = run()
    if lost():
        land(selector)
    return result


def land(selector: str = "") -> None:
    """Focus what the last action produced, else ``selector``'s control, else the panel's
    heading (made focusable for this)."""
    from web.ui.dom import focus_quietly

    marked = _document().querySelector(FALLBACK[0])
    if present(marked):
        marked.removeAttribute("data-focus-here")
        focus_quietly(marked)
        return
    for found in (_document().querySelector(selector) if selector else None,
                  *(_document().querySelector(s) for s in FALLBACK[1:])):  # fmt: skip
        if present(found) and not bool(found.closest("[hidden]")):
            if found.tagName.lower() == "h2" and not found.hasAttribute("tabindex"):
                found.setAttribute("tabindex", "-1")
            focus_quietly(found)
            return
