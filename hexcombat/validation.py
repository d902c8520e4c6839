"""Reading untrusted JSON: collect every problem with its path instead of failing at the first.

Untrusted text and values are held to :data:`MAX_DEPTH`, :data:`MAX_STRING` and
:data:`MAX_INTEGER` before anything else reads them, so a hostile document is
refused with a message instead of exhausting the stack or the CPU.
"""

from __future__ import annotations

import math
import re
from itertools import accumulate
from typing import Any

from hexcombat.errors import InvalidDocumentError, Problem

Json = Any
"""A value made of dicts, lists, strings, numbers, booleans and None."""

MAX_DEPTH = 32
"""Lists and objects may nest at most this deep (an encounter needs about 8)."""
MAX_TEXT_DEPTH = 4 * MAX_DEPTH
"""Text nested deeper than this is refused before parsing (shallower is walked for a path)."""
MAX_STRING = 100_000
"""The longest text a document may hold in one string, in characters."""
MAX_INTEGER = 2**64 - 1
"""The largest whole number (in size) a document may hold."""
MAX_PROBLEMS = 50
"""A hostile document gets this many problems reported, not millions."""

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

_TYPE_WORDS = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}


def describe(value: Json) -> str:
    """A short description of a JSON value for messages: ``'7'``, ``a list``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) > MAX_INTEGER:
        return f"a whole number of {_digits(value)} digits"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    return _TYPE_WORDS.get(type(value), type(value).__name__)


def shown(value: object) -> str:
    """``repr(value)`` for a message, except that a value holding an integer too long to write
    out (over 4,300 digits, which ``repr`` refuses) is described instead."""
    if isinstance(value, int) and abs(value) > MAX_INTEGER:
        return describe(value)
    try:
        return repr(value)
    except ValueError:
        return describe(value)


def _digits(value: int) -> int:
    """How many decimal digits ``value`` has, without writing it out (Python refuses to write
    integers of more than 4,300 digits, and writing one is slow)."""
    size = abs(value)
    digits = int(size.bit_length() * math.log10(2)) + 1  # never short by more than one
    return digits - 1 if size < 10 ** (digits - 1) else digits


def text_depth_problem(text: str) -> Problem | None:
    """A problem when JSON ``text`` nests deeper than :data:`MAX_TEXT_DEPTH` (before parsing).

    Strings are blanked first, so brackets inside names do not count; the scan is linear
    and never recurses, unlike a JSON parser (whose stack a browser tab cannot spare).
    """
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub('""', text))
    depth = max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    if depth <= MAX_TEXT_DEPTH:
        return None
    message = f"lists and objects are nested {depth} deep; at most {MAX_DEPTH} are allowed"
    return Problem("", message)


def limit_problems(data: Json, path: str = "") -> list[Problem]:
    """Values beyond the limits: nesting depth, string length, integer size, non-finite numbers.

    Walks ``data`` without recursion, so any value can be checked safely.
    """
    if type(data) is dict and all(_plain(k) and _plain(v) for k, v in data.items()):
        return []  # the common case, an action's few parameters, checked once per logged action
    if _all_within(data):
        return []  # a whole document within limits: walked once, no path made
    problems: list[Problem] = []
    stack: list[tuple[Json, str, int]] = [(data, path, 0)]
    while stack and len(problems) < MAX_PROBLEMS:
        value, where, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                problems.append(
                    Problem(where, f"nests too deep; at most {MAX_DEPTH} levels are allowed")
                )
                continue
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        problems.append(Problem(where, f"has a key that is not text: {key!r}"))
                        continue
                    problems += _string_problems(key, where, "a key")
                    stack.append((item, _join(where, key), depth + 1))
            else:
                stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            problems += _string_problems(value, where, "the text")
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                problems.append(
                    Problem(where, f"is too large a number; at most {MAX_INTEGER} in size")
                )
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_INTEGER:
                problems.append(
                    Problem(where, f"must be a finite number up to {MAX_INTEGER}, got {value}")
                )
        else:
            problems.append(Problem(where, f"must be JSON data, got {type(value).__name__}"))
    return problems


def _all_within(data: Json) -> bool:
    """True when ``data`` is within every limit (only then: a float, or anything else not at a
    glance plainly within, says False and :func:`limit_problems` walks it again for paths)."""
    stack: list[tuple[Json, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                return False
            items = value.items() if kind is dict else enumerate(value)
            for key, item in items:
                if kind is dict and not (type(key) is str and _plain(key)):
                    return False
                if type(item) is dict or type(item) is list:
                    stack.append((item, depth + 1))
                elif not _plain(item):
                    return False
        elif not _plain(value):
            return False
    return True


def _plain(value: object) -> bool:
    """True for text, a whole number or a constant that is within every limit at a glance."""
    if type(value) is str:
        return len(value) <= MAX_STRING and (value.isascii() or not _LONE_SURROGATE.search(value))
    if type(value) is int:
        return -MAX_INTEGER <= value <= MAX_INTEGER
    return type(value) is bool or value is None


def _string_problems(text: str, path: str, what: str) -> list[Problem]:
    if len(text) > MAX_STRING:
        return [
            Problem(path, f"{what} is {len(text)} characters long; at most {MAX_STRING} allowed")
        ]
    if _LONE_SURROGATE.search(text):
        return [Problem(path, f"{what} holds a broken character (a lone UTF-16 surrogate)")]
    return []


def copy_json(value: Json) -> Json:
    """A deep copy of JSON data (lists and dicts copied, everything else shared)."""
    if isinstance(value, dict):  # scalars are shared without a call: copies run per action
        return {k: copy_json(v) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) if isinstance(v, _CONTAINERS) else v for v in value]
    return value


_CONTAINERS = (dict, list)


class Reader:
    """Collects problems while reading a JSON document; ``raise_if_any`` reports them all."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        """Record one problem at ``path``."""
        self.problems.append(Problem(path, message))

    def extend(self, problems: list[Problem], prefix: str = "") -> None:
        """Record problems found by another reader, under ``prefix``."""
        for p in problems:
            path = f"{prefix}.{p.path}" if prefix and p.path else (prefix or p.path)
            self.problems.append(Problem(path, p.message))

    def raise_if_any(self, summary: str = "invalid encounter") -> None:
        """Raise :class:`InvalidDocumentError` listing every problem, if there are any."""
        if self.problems:
            raise InvalidDocumentError(self.problems, summary)

    def object(self, data: Json, path: str) -> dict[str, Json] | None:
        """``data`` if it is a JSON object, else record a problem and return None."""
        if isinstance(data, dict):
            return data
        self.problem(path, f"must be an object, got {describe(data)}")
        return None

    def list(self, data: Json, path: str) -> list[Json] | None:
        """``data`` if it is a JSON list, else record a problem and return None."""
        if isinstance(data, list):
            return data
        self.problem(path, f"must be a list, got {describe(data)}")
        return None

    def string(
        self, obj: dict[str, Json], key: str, path: str, *, default: str | None = None
    ) -> str | None:
        """A non-empty string field; ``default`` when absent (and a default is given)."""
        if key not in obj:
            if default is None:
                self.problem(_join(path, key), "is required")
            return default
        value = obj[key]
        if isinstance(value, str) and value.strip():
            return value
        self.problem(_join(path, key), f"must be a non-empty string, got {describe(value)}")
        return None

    def integer(
        self,
        obj: dict[str, Json],
        key: str,
        path: str,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        default: int | None = None,
    ) -> int | None:
        """An integer field within ``minimum``..``maximum``; ``default`` when absent."""
        if key not in obj:
            if default is None:
                self.problem(_join(path, key), "is required")
            return default
        return self.check_integer(obj[key], _join(path, key), minimum=minimum, maximum=maximum)

    def check_integer(
        self,
        value: Json,
        path: str,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        """``value`` if it is an integer within the bounds, else record why not."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(
                path, f"must be a whole number{_bounds(minimum, maximum)}, got {describe(value)}"
            )
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            message = f"must be a whole number{_bounds(minimum, maximum)}, got {describe(value)}"
            self.problem(path, message)
            return None
        return value

    def boolean(self, obj: dict[str, Json], key: str, path: str, *, default: bool) -> bool:
        """A true/false field; ``default`` when absent."""
        value = obj.get(key, default)
        if isinstance(value, bool):
            return value
        self.problem(_join(path, key), f"must be true or false, got {describe(value)}")
        return default


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _bounds(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f" {minimum}-{maximum}"
    if minimum is not None:
        return f" of at least {minimum}"
    if maximum is not None:
        return f" of at most {maximum}"
    return ""
