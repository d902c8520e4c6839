"""Data tables of the rulesets, as JSON files beside this module."""

from __future__ import annotations

import json
import os
from typing import Any


def load(name: str) -> Any:
    """The parsed JSON data file ``<name>.json`` of this folder.

    Read through this package's loader (as ``pkgutil.get_data`` does: a folder or a zip
    alike), not ``importlib.resources``, whose eight modules a page start would import
    for this one read.
    """
    assert __spec__ is not None and __spec__.loader is not None
    path = os.path.join(os.path.dirname(__file__), f"{name}.json")
    return json.loads(__spec__.loader.get_data(path).decode("utf-8"))  # type: ignore[attr-defined]
