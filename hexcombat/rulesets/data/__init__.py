"""Data tables of the rulesets, as JSON files beside this module."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load(name: str) -> Any:
    """The parsed JSON data file ``<name>.json`` of this folder."""
    text = resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)
