"""docs/architecture.md names every module of the engine (``hexcombat/``) and
the page (``web/``), so a newcomer finds what each file is for.

A module is named by its path (``web/play/panel.py``, ``play/panel.py``), its dotted name
(``hexcombat.render``) or its name (``panel``, ``panel.py``) in backticks on a line whose
folder is known: a heading, the paragraph above a table, a paragraph or a table row naming
the folder (``hexcombat/autopilot/``, ``board/``; a row's first cell may leave out the
slash). A ruleset package's modules follow the one shape of docs/architecture.md
(``tests/test_ruleset_shape.py``); the package itself must be named.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/architecture.md",)
TICKED = re.compile(r"`([^`\n]+)`")
RULESETS = ROOT / "hexcombat" / "rulesets"


def _folders(tokens: set[str], bases: set[str]) -> set[str]:
    """Folder paths the tokens name: as written, and under each base folder."""
    found = {t for t in tokens if t.endswith("/")}
    return found | {b + t for b in bases for t in found}


def lines_with_folders(text: str) -> list[tuple[set[str], set[str]]]:
    """Each line's backticked names and the folders it is about."""
    out: list[tuple[set[str], set[str]]] = []
    heading: set[str] = set()
    paragraph: set[str] = set()
    above_table: set[str] = set()
    for line in text.splitlines():
        tokens = set(TICKED.findall(line))
        if line.startswith("#"):
            heading, paragraph = _folders(tokens, set()), set()
            continue
        if not line.strip():
            above_table, paragraph = paragraph or above_table, set()
            continue
        if line.startswith("|"):
            bases = heading | above_table | {""}
            first = {
                t if t.endswith((".py", "/")) else t + "/"
                for t in TICKED.findall(line.split("|")[1])
            }
            out.append((tokens, bases | _folders(first | tokens, bases)))
            continue
        paragraph |= _folders(tokens, heading | {""})
        out.append((tokens, heading | paragraph | above_table))
    return out


def unnamed(modules: list[Path], texts: list[str]) -> list[str]:
    """The modules (paths from the repository root) no line of ``texts`` names."""
    lines = [entry for text in texts for entry in lines_with_folders(text)]
    anywhere = {t for tokens, _ in lines for t in tokens}
    missing = []
    for path in modules:
        parts = path.with_suffix("").parts
        folder = "/".join(path.parts[:-1]) + "/"
        forms = {path.as_posix(), "/".join(path.parts[1:]), ".".join(parts)}
        names = {path.stem, path.name}
        if forms & anywhere:
            continue
        if not any(names & tokens and folder in folders for tokens, folders in lines):
            missing.append(path.as_posix())
    return missing


def modules() -> list[Path]:
    found = []
    for top in ("hexcombat", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            in_package = rel.parts[:2] == ("hexcombat", "rulesets") and len(rel.parts) > 3
            if "node_modules" in rel.parts or path.name == "__init__.py":
                continue
            if in_package and rel.parts[2] != "common":
                continue
            found.append(rel)
    return found


def packages() -> list[str]:
    return sorted(
        p.name
        for p in RULESETS.iterdir()
        if (p / "__init__.py").exists() and p.name not in ("common", "data")
    )


def test_the_docs_name_every_module() -> None:
    texts = [(ROOT / d).read_text(encoding="utf-8") for d in DOCS]
    assert unnamed(modules(), texts) == []


def test_the_docs_name_every_ruleset_package() -> None:
    text = "\n".join((ROOT / d).read_text(encoding="utf-8") for d in DOCS)
    assert [p for p in packages() if f"rulesets/{p}/" not in text] == []


def test_the_check_knows_a_folder_from_a_heading_a_paragraph_and_a_row() -> None:
    text = (
        "## The app plays a side (`hexcombat/autopilot/`)\n\n- `pilot.py`: the pilot.\n\n"
        "## Web\n\nThe page (`web/`):\n\n| Module | Holds |\n|---|---|\n"
        "| `board/` | `view` (hexes), `marks` |\n| `app.py` | wiring |\n\n"
        "Elsewhere `web/table/` has `codes.py`.\n"
    )
    paths = [
        Path(p)
        for p in (
            "hexcombat/autopilot/pilot.py",
            "web/board/view.py",
            "web/app.py",
            "web/table/codes.py",
            "web/table/rtc.py",
            "hexcombat/autopilot/view.py",
        )
    ]
    assert unnamed(paths, [text]) == ["web/table/rtc.py", "hexcombat/autopilot/view.py"]
