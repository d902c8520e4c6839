"""HTML built by construction: :func:`el` escapes every text and attribute value it is
given, so a name a player typed can never become markup. :class:`Markup` marks what is
already HTML (made by :func:`el`, or a literal of the page's own), and only it passes
unescaped. Pure Python (tested under CPython)."""

from __future__ import annotations

from collections.abc import Iterable


def esc(value: object) -> str:
    """Text made safe for HTML/SVG character data and double-quoted attributes."""
    text = str(value)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


class Markup(str):
    """HTML that is safe as it is: made by :func:`el` or :func:`joined`, or the page's own
    literal markup (never text from a player or a file)."""

    __slots__ = ()


VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "source", "wbr"})
"""Elements without content or end tag."""


def el(tag: str, *children: str | None, **attrs: str | int | bool | None) -> Markup:
    """``<tag attrs>children</tag>``: each child that is not :class:`Markup` is escaped
    text (None is left out); each attribute value is escaped (True: the bare attribute,
    None or False: left out). A trailing ``_`` is dropped from a name and ``_`` becomes
    ``-``: ``class_="row"``, ``data_cmd="suggest"``, ``aria_busy="true"``."""
    opening = f"<{_tag_and_attributes(tag, attrs)}>"
    if tag in VOID:
        return Markup(opening)
    return Markup(f"{opening}{joined(children)}</{tag}>")


def leaf(tag: str, **attrs: str | int | bool | None) -> Markup:
    """A self-closed SVG element, ``<tag attrs/>``, its attributes as :func:`el` writes them."""
    return Markup(f"<{_tag_and_attributes(tag, attrs)}/>")


def _tag_and_attributes(tag: str, attrs: dict[str, str | int | bool | None]) -> str:
    parts = [tag]
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(key if value is True else f'{key}="{esc(value)}"')
    return " ".join(parts)


def joined(children: Iterable[str | None]) -> Markup:
    """The children one after another, each escaped unless it is :class:`Markup`."""
    return Markup(
        "".join(c if isinstance(c, Markup) else esc(c) for c in children if c is not None)
    )
