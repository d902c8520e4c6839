"""Whole numbers out of JSON: figure stats, options and memory are plain JSON, where ``true``
is no number (``bool`` is an ``int`` subclass in Python)."""

from __future__ import annotations

from typing import TypeGuard

from hexcombat.validation import Json


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number and not a bool.

    >>> is_int(3), is_int(True), is_int(2.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def int_or(value: Json | object, default: int) -> int:
    """``value`` when it is a whole number (not a bool), else ``default``.

    >>> int_or(4, 0), int_or(None, 1), int_or(False, 7)
    (4, 1, 7)
    """
    return value if is_int(value) else default
