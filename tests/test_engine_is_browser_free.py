"""The engine stays pure: no browser modules, no hidden randomness, no ``round()``.

Reads the engine's source files next to this test, so it runs the same under
CPython and inside Pyodide (where the runner copies ``hexcombat/`` along).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from source_trees import source_tree

pytestmark = pytest.mark.pyodide

ENGINE = Path(__file__).resolve().parent.parent / "hexcombat"
BROWSER_MODULES = {"js", "pyodide", "pyodide_js", "pyscript", "micropip"}
RANDOM_ALLOWED_IN = {"dice/rolls.py"}
SOURCES = sorted(ENGINE.rglob("*.py"))


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Return (line, top-level module name) for every absolute import in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def round_calls(tree: ast.AST) -> list[int]:
    """Return the lines that call the builtin ``round``."""
    calls = (node for node in ast.walk(tree) if isinstance(node, ast.Call))
    return [c.lineno for c in calls if isinstance(c.func, ast.Name) and c.func.id == "round"]


def parse(path: Path) -> ast.AST:
    """One engine source file's tree (shared, read only: ``source_tree``)."""
    return source_tree(path)


def test_engine_sources_are_found() -> None:
    """The walk sees the engine package, so the checks below are not vacuous."""
    names = {path.name for path in SOURCES}
    assert "__init__.py" in names
    assert len(SOURCES) >= 2


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_imports_no_browser_or_random_module(path: Path) -> None:
    """Engine modules import no js/pyodide/pyscript, and only dice/rolls.py may import random."""
    banned = set(BROWSER_MODULES)
    if path.relative_to(ENGINE).as_posix() not in RANDOM_ALLOWED_IN:
        banned.add("random")
    bad = [f"line {line}: {name}" for line, name in imported_modules(parse(path)) if name in banned]
    assert bad == [], f"{path.name} imports modules the engine must not use: {bad}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_never_calls_builtin_round(path: Path) -> None:
    """Engine modules never call round() (it rounds half to even)."""
    lines = round_calls(parse(path))
    assert lines == [], f"{path.name} calls round() on lines {lines}; use math.floor(x + 0.5)"


def test_checker_catches_what_it_looks_for() -> None:
    """The two detectors flag a banned import and a round() call in a sample."""
    sample = ast.parse("import js\nfrom random import choice\nfrom . import dice\nx = round(2.5)\n")
    assert imported_modules(sample) == [(1, "js"), (2, "random")]
    assert round_calls(sample) == [4]
