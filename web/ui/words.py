"""Words and small markup the panels share (pure: no page access, testable under CPython)."""

from __future__ import annotations

import re
from typing import Any

from web.ui.html import Markup, el, joined
from web.ui.html import esc as esc  # kept here for the views that import it with the words

FACING_NAMES = ("north", "north-east", "south-east", "south", "south-west", "north-west")
HOUSE_TAG = el("span", "house default", class_="house-default")


def tagged(text: str) -> Markup:
    """Escaped text with "house default" shown as a tag."""
    return Markup(esc(text).replace("house default", HOUSE_TAG))


def rule_tag(rule: str) -> Markup:
    """A rule id as a small tag (nothing when empty)."""
    return joined((" ", el("span", rule, class_="rule-id"))) if rule else Markup()


def shown(value: Any) -> str:
    """A value as the panel shows it."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None or value == "":
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def counted(number: int, unit: str) -> str:
    """``unit`` as said after ``number``: one of a plural unit is singular ("1 hex", "2
    hexes"); an abbreviation stays as it is ("1 MP").

    >>> [counted(1, "hexes"), counted(2, "hexes"), counted(1, "MP"), counted(1, "points")]
    ['hex', 'hexes', 'MP', 'point']
    """
    if number != 1 or unit.isupper() or not unit.endswith("s"):
        return unit
    if unit.endswith(("xes", "ses", "shes", "ches")):
        return unit[:-2]
    return unit[:-1]


def problems_text(exc: BaseException) -> str:
    """An engine error in plain words: its problems one per line, or its message."""
    problems = getattr(exc, "problems", None)
    if problems:
        return "; ".join(p.message if not p.path else f"{p.path}: {p.message}" for p in problems)
    return str(exc)


_ACTION_PARAM = re.compile(r"^[a-z_]+: ([^()]+?) \([\w.]+\) (.+)$", re.S)
_PATH = re.compile(r"^[\w.\[\]-]+: ")


def plain_error(exc: BaseException) -> tuple[str, str]:
    """An engine error as a player reads it, and the technical text for "details".

    Paths ("figures[2].position: ...") and parameter names go to the details; the plain
    words say what went wrong and, where the engine's message does not, what to do.
    """
    details = problems_text(exc)
    problems = getattr(exc, "problems", None)
    if problems:
        if any(p.path == "format" for p in problems):
            return (
                "This file is not a Hex Combat encounter. Choose a .json file exported from "
                "Hex Combat.",
                details,
            )
        words = "; ".join(_sentence(f"{_subject(p.path)}{p.message}") for p in problems)
        return f"{words}. Change it and try again.", details
    text = str(exc)
    if type(exc).__name__ == "DiceFaceError":
        _, _, why = text.partition(": ")
        return f"A typed die does not fit: {why or text}. Type that face again.", details
    found = _ACTION_PARAM.match(text)
    if found:
        label, why = found.groups()
        return _sentence(f"{label} {why}"), details
    plain = _sentence(_PATH.sub("", text))
    return plain, details if details != plain else ""


_FIGURE_PATH = re.compile(r"^figures\[(\d+)\](?:\.(?:stats\.)?([\w.]+))?$")


def _subject(path: str) -> str:
    """A document path in words: 'figures[2].position' -> "figure 3's position: "."""
    if not path:
        return ""
    found = _FIGURE_PATH.match(path)
    if found:
        number, field = int(found.group(1)) + 1, found.group(2)
        return f"figure {number}'s {field.replace('_', ' ')}: " if field else f"figure {number}: "
    if path.startswith("ruleset.options."):
        return f"option {path.removeprefix('ruleset.options.')}: "
    return f"{path.split('.')[0].split('[')[0].replace('_', ' ')}: "


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:]


def details_html(details: str) -> Markup:
    """The technical text of a message, folded under "details" (nothing when empty)."""
    if not details:
        return Markup()
    return el(
        "details",
        Markup("<summary>details</summary>"),
        el("code", details),
        class_="tech",
        data_details=True,
    )
