"""Our source files as parsed trees, each parsed once a test process: the structure checks
(import cycles, the browser-free engine, rule coverage, ruleset shape, the page's engine
surface and commands, function lengths) read the same files. Every caller shares a tree, so
none may change one."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def source_tree(path: Path) -> ast.Module:
    """``path`` parsed (a source file does not change while the tests run)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
