"""The share and library panels' modules, imported one a task (``web.share.PANEL_IMPORTS``
once the page is ready, ``web.library.PANEL_IMPORTS`` when Library is tapped), are exactly
those the start has not imported, each after the first-party modules it imports (read from
the sources' module-level imports)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from web import library, share

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("hexcombat", "web")


def source(module: str) -> Path | None:
    """The file of a first-party module or package (None for anything else)."""
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_by(module: str) -> set[str]:
    """The first-party modules ``module`` imports when it is run (module-level statements,
    not those inside functions or under ``if TYPE_CHECKING``), with their packages."""
    path = source(module)
    assert path is not None, module
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] in FIRST_PARTY and source(name) is not None:
                parts = name.split(".")
                found |= {".".join(parts[: n + 1]) for n in range(len(parts))}
    return found - {module}


def closure(modules: set[str]) -> set[str]:
    """``modules`` and every first-party module they import, transitively."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += imported_by(name)
    return seen


@pytest.mark.parametrize(
    ("panel", "imports"),
    [("web.share.panel", share.PANEL_IMPORTS), ("web.library.panel", library.PANEL_IMPORTS)],
)
def test_a_panel_is_imported_a_module_a_task_after_what_each_needs(
    panel: str, imports: tuple[str, ...]
) -> None:
    started = closure({"web.main", "web.start", "web.app"})
    assert set(imports) == closure({panel}) - started
    for n, name in enumerate(imports):
        assert imported_by(name) - started <= set(imports[:n]), name
