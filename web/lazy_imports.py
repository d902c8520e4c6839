"""Standard-library modules the page's start imports but never uses, run on first use.

PyScript imports its ``pyscript`` package before it runs ``web/main.py``, and that imports
``html`` for ``pyscript.display`` (which the app does not call); ``html`` imports
``html.entities``, a table of 2,231 named character references: about 50 ms of a cold
start's main thread in the page. ``python-start.mjs`` installs
:class:`LazyFinder` before PyScript gets Python: the first import of such a module makes
it with Python's ``importlib.util.LazyLoader``, which runs the module when one of its
names is first read (a later ``import`` statement of it reads one).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

LAZY = frozenset({"html"})


class LazyFinder(importlib.abc.MetaPathFinder):
    """Finds a ``LAZY`` module where the usual path finder does, to be run on first use."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> Any:
        if fullname not in LAZY:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, LazyFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, LazyFinder())
