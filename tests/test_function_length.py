"""Functions a screen long: no function or method in ``hexcombat/`` or ``web/`` is longer than
``LIMIT`` lines (decorators aside, docstring included), but for the ones listed in
``LONGER``, each at most as long as it is now. The list only shrinks: a listed function that
grew fails, and so does one that is now short enough or gone (take it off the list).
Split a long function into named steps rather than raising its number.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from source_trees import source_tree

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hexcombat", "web")
LIMIT = 60
pytestmark = pytest.mark.xdist_group("function_length")  # one worker measures them once

LONGER = {
    "hexcombat/render.py:render_svg": 104,
    "hexcombat/movement.py:lockstep": 63,
    "hexcombat/geometry.py:_line_cells": 61,
}
"""Functions longer than LIMIT lines today (``path:qualified name`` -> lines), to be split."""


@functools.cache
def lengths() -> dict[str, int]:
    """Every function and method of the packages by ``path:qualified name`` -> its lines
    (measured once per test process; read only)."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            where = path.relative_to(ROOT).as_posix()
            todo: list[tuple[ast.AST, str]] = [(source_tree(path), "")]
            while todo:
                node, prefix = todo.pop()
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        name = prefix + child.name
                        if not isinstance(child, ast.ClassDef):
                            found[f"{where}:{name}"] = (
                                (child.end_lineno or child.lineno) - child.lineno + 1
                            )
                        todo.append((child, name + "."))
    return found


def test_functions_are_a_screen_long() -> None:
    long = {name: n for name, n in lengths().items() if n > LIMIT}
    new = {name: n for name, n in long.items() if name not in LONGER}
    assert not new, f"functions over {LIMIT} lines: split them into named steps: {new}"
    grown = {name: (LONGER[name], n) for name, n in long.items() if n > LONGER.get(name, n)}
    assert not grown, f"listed long functions grew (allowed, now): {grown}"


def test_the_list_of_longer_functions_only_shrinks() -> None:
    found = lengths()
    stale = sorted(name for name in LONGER if found.get(name, 0) <= LIMIT)
    assert not stale, f"short enough now or gone: take them off LONGER: {stale}"


def test_lengths_see_methods_and_async_functions() -> None:
    found = lengths()
    assert found["web/app.py:App.__init__"] > 1
    assert found["web/welcome.py:Welcome.open_first"] > 1
