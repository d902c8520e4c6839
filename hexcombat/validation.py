"""Reading untrusted JSON: collect every problem with its path instead of failing at the first."""

from __future__ import annotations

from typing import Any

from .errors import InvalidDocumentError, Problem

Json = Any
"""A value made of dicts, lists, strings, numbers, booleans and None."""

_TYPE_WORDS = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}


def describe(value: Json) -> str:
    """A short description of a JSON value for messages: ``'7'``, ``a list``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    return _TYPE_WORDS.get(type(value), type(value).__name__)


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
            self.problem(path, f"must be a whole number{_bounds(minimum, maximum)}, got {value}")
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
