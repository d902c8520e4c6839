"""The engine's version and the identity of its code, in a module of its own: engine modules
read them without importing the package.

A library entry's seal (:mod:`hexcombat.sealing`) names the code that checked it by
:func:`engine_digest`, so a seal made by any other code, a rules fix included, is never
trusted: that entry is replayed with every check once.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

__version__ = "0.1.0"

# web/build.py writes the shipped engine's digest here; a checkout works it out from its files.
BUILD_DIGEST = ""
_worked_out: list[str] = []


def files_digest(files: Iterable[tuple[str, bytes]]) -> str:
    """The digest of the engine's Python files, given as (path in the package, bytes)."""
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(f"{name}\n{len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def _package_files() -> list[tuple[str, bytes]]:
    root = os.path.dirname(os.path.abspath(__file__))
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if name.endswith(".py") and name != "version.py":
                path = os.path.join(folder, name)
                with open(path, "rb") as file:
                    found.append((os.path.relpath(path, root).replace(os.sep, "/"), file.read()))
    return found


def engine_digest() -> str:
    """What identifies this engine's code (the build's stamp, else its files' digest)."""
    if BUILD_DIGEST:
        return BUILD_DIGEST
    if not _worked_out:
        _worked_out.append(files_digest(_package_files()))
    return _worked_out[0]
