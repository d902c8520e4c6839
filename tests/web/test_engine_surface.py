"""The page imports only the engine's documented surface (docs/architecture.md, "The engine's
surface for the page"), never a private name: one boundary between page and engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from source_trees import source_tree

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
HEADING = "## The engine's surface for the page"


def documented() -> dict[str, set[str]]:
    """Module -> names, from the list under the heading ("the package" allows ``import``)."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :].split("\n#", 1)[0]
    surface: dict[str, set[str]] = {}
    for module, names in re.findall(r"^- `(hexcombat[\w.]*)`: (.+)$", section, re.M):
        surface[module] = set(re.findall(r"`(\w+)`", names))
        if "the package" in names:
            surface[module].add("*module*")
    return surface


def engine(module: str) -> bool:
    return module == "hexcombat" or module.startswith("hexcombat.")


def imported(folder: Path) -> list[tuple[str, str, str]]:
    """(file, module, name) for every engine import under ``folder`` (``*module*``: the
    module itself)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        where = str(path.relative_to(folder.parent))
        for node in ast.walk(source_tree(path)):
            if isinstance(node, ast.ImportFrom) and engine(node.module or ""):
                found += [(where, str(node.module), a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                found += [(where, a.name, "*module*") for a in node.names if engine(a.name)]
    return found


def outside(folder: Path) -> list[str]:
    """Engine imports under ``folder`` that the documented surface does not list."""
    surface = documented()
    return [
        f"{where}: {module}.{name}"
        for where, module, name in imported(folder)
        if name not in surface.get(module, set()) or name.startswith("_")
    ]


def test_the_surface_is_documented() -> None:
    surface = documented()
    assert {"encounter_view", "actions_view"} <= surface["hexcombat.view"]
    assert "*module*" in surface["hexcombat"]


def test_web_imports_only_the_documented_surface_and_no_private_name() -> None:
    found = outside(ROOT / "web")
    assert found == [], "not in docs/architecture.md's surface for the page: " + ", ".join(found)


def test_the_scan_catches_a_private_name_and_an_undocumented_module(tmp_path: Path) -> None:
    page = tmp_path / "web"
    (page / "board").mkdir(parents=True)
    (page / "board" / "view.py").write_text(
        "from hexcombat.render import _pattern_motif, render_svg\n"
        "import hexcombat.movement\n"
        "from hexcombat.view import encounter_view\n",
        encoding="utf-8",
    )
    assert outside(page) == [
        "web/board/view.py: hexcombat.render._pattern_motif",
        "web/board/view.py: hexcombat.movement.*module*",
    ]
