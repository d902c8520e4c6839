"""Page nodes as Pyodide hands them to Python: JS ``null`` comes as ``jsnull``, not None.

``pyodide`` is imported when first needed (it exists only in the browser), so modules that
must also import under CPython (:mod:`web.ui.forms`, the library panel) use these too.
"""

from __future__ import annotations

import functools
from typing import Any


def pyodide_ffi() -> Any:
    """Pyodide's ``pyodide.ffi`` (imported when first needed: it exists only in the browser)."""
    import pyodide.ffi  # type: ignore[import-not-found]

    return pyodide.ffi


@functools.cache
def _jsnull() -> Any:
    return pyodide_ffi().jsnull


def present(node: Any) -> bool:
    """True unless ``node`` is None or JS null (Pyodide gives null as ``jsnull``, not None)."""
    return node is not None and node is not _jsnull()
