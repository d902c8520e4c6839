"""No import cycles in ``hexcombat/`` or ``web/``: static analysis of every import statement.

Every ``import x``, ``from x import y`` (``y`` counts as a module when it is one) and
relative import, wherever it stands (inside functions too), is an edge between two modules
of the package. A cycle fails the test with its path. Imports for type checking only
(``if TYPE_CHECKING:``) never run and are left out here (the engine's state names the
ruleset type that way); the mode panels may not have even those (last test). Importing a
submodule is not counted as importing its parent package's ``__init__``.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from source_trees import source_tree

pytestmark = [pytest.mark.pyodide, pytest.mark.xdist_group("import_graph")]  # one worker parses

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hexcombat", "web")


def module_name(path: Path) -> str:
    """'web/play/panel.py' -> 'web.play.panel'; a package's __init__ is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` by name."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        if "node_modules" in path.parts or "__pycache__" in path.parts:
            continue
        found[module_name(path)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields that hold statements: an import is a statement, so expressions are not walked."""


def statements(tree: ast.AST, *, typing_only: bool) -> list[ast.AST]:
    """Every statement of ``tree``, nested ones too (in functions, classes, branches); with
    ``typing_only=False`` not those under TYPE_CHECKING."""
    found: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if _type_checking(node) and not typing_only:
            todo.extend(getattr(node, "orelse", []))
            continue
        for field in STATEMENT_LISTS:
            nested = getattr(node, field, None)
            if isinstance(nested, list):
                todo.extend(nested)
    return found


def parsed(path: Path) -> ast.Module:
    """The module's tree (shared, read only: ``source_tree``)."""
    return source_tree(path)


def imports(
    name: str, path: Path, known: dict[str, Path], *, typing_only: bool = False
) -> set[str]:
    """The modules of ``known`` that module ``name`` imports (``typing_only``: with the
    imports made for type checking only)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in statements(parsed(path), typing_only=typing_only):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            targets = []
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                targets.append(sub if sub in known else origin)
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as a path that ends where it starts, or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


@functools.cache
def graph_of(package: str, *, typing_only: bool = False) -> dict[str, set[str]]:
    """Each module of ``package`` with the package's modules it imports (made once; read only)."""
    known = modules(package)
    return {
        name: imports(name, path, known, typing_only=typing_only) for name, path in known.items()
    }


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package: str) -> None:
    cycle = find_cycle(graph_of(package))
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_the_checker_sees_relative_and_from_package_imports() -> None:
    web = graph_of("web")
    assert "web.ui.dom" in web["web.app"]  # from web.ui.dom import ...
    assert "web.library.storage" in web["web.app"]  # from web.library import storage
    engine = graph_of("hexcombat")
    assert "hexcombat.rulesets.base" in engine["hexcombat.view"] or any(
        m.startswith("hexcombat.rulesets") for m in engine["hexcombat.view"]
    )
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


PANELS = {
    "play": ("web.play.",),
    "setup": ("web.setup.",),
    "library": ("web.library.panel", "web.library.importing", "web.library.new_encounter"),
}
"""Each mode panel with its parts (modules named, or every module under a package)."""
APP = {"web.app", "web.welcome", "web.chrome", "web.library_link"}
"""The app and the parts mixed into it."""


def panel_of(module: str) -> str | None:
    """The mode panel ``module`` belongs to, if any."""
    return next(
        (
            name
            for name, parts in PANELS.items()
            if any(module == p or (p.endswith(".") and module.startswith(p)) for p in parts)
        ),
        None,
    )


def test_mode_panels_do_not_import_each_other_or_the_app() -> None:
    web = graph_of("web", typing_only=True)
    assert {panel_of(m) for m in web} >= set(PANELS)  # every panel still has its modules
    assert set(web) >= APP
    for module, targets in web.items():
        panel = panel_of(module)
        if panel is None:
            continue
        others = {t for t in targets if panel_of(t) not in (None, panel)}
        assert not others, f"{module} imports another mode panel: {sorted(others)}"
        assert not (targets & APP), f"{module} imports the app: {sorted(targets & APP)}"
