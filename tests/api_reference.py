"""docs/dev/api.md, the engine's API reference, made from its docstrings.

``python tests/api_reference.py`` rewrites the page: for each module of the library's
surface, its docstring's first paragraph, then every public class and function defined
there with its signature and the first paragraph of its docstring (a class's public
methods too). ``tests/test_docs.py`` fails when the page is stale.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "dev" / "api.md"
MODULES = (
    "hexcombat",
    "hexcombat.encounter",
    "hexcombat.document",
    "hexcombat.errors",
    "hexcombat.geometry",
    "hexcombat.layout",
    "hexcombat.board",
    "hexcombat.terrain",
    "hexcombat.movement",
    "hexcombat.figures",
    "hexcombat.actions",
    "hexcombat.events",
    "hexcombat.schema",
    "hexcombat.time",
    "hexcombat.state",
    "hexcombat.dice",
    "hexcombat.checks",
    "hexcombat.view",
    "hexcombat.render",
    "hexcombat.share",
    "hexcombat.qr",
    "hexcombat.summary",
    "hexcombat.words",
    "hexcombat.rulesets",
    "hexcombat.rulesets.base",
    "hexcombat.autopilot",
    "hexcombat.table",
)
HEAD = """# API reference

Made from the docstrings by `python tests/api_reference.py` (a test fails when it is
stale); the modules' roles are in [the architecture page](../architecture.md), a worked
example in [the library page](library.md). Every name below is importable from its module;
`hexcombat` re-exports the ones most scripts need.
"""


def _first_paragraph(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _signature(obj: object) -> str:
    """The signature as written, without the memory addresses of default values' reprs."""
    try:
        return ADDRESS.sub("", str(inspect.signature(obj)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(...)"


def _public(module: ModuleType) -> list[tuple[str, object]]:
    """What the module offers: its ``__all__``, else the classes and functions defined in it
    (in a package: in its modules)."""
    home = module.__name__
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            n
            for n, o in vars(module).items()
            if not n.startswith("_")
            and (inspect.isclass(o) or inspect.isfunction(o))
            and (
                o.__module__ == home
                or (hasattr(module, "__path__") and o.__module__.startswith(home + "."))
            )
        ]
    found = [(name, getattr(module, name)) for name in sorted(names)]
    return [(n, o) for n, o in found if inspect.isclass(o) or inspect.isfunction(o)]


def _methods(cls: type) -> list[str]:
    lines = []
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_"):
            continue
        attribute = isinstance(member, property | functools.cached_property)
        target = member.fget if isinstance(member, property) else member
        if isinstance(member, functools.cached_property):
            target = member.func
        if isinstance(member, classmethod | staticmethod):
            target = member.__func__
        if not inspect.isfunction(target):
            continue
        shown = name if attribute else f"{name}{_signature(target)}"
        summary = _first_paragraph(target)
        lines.append(f"  - `{shown}`" + (f": {summary}" if summary else ""))
    return lines


def page() -> str:
    parts = [HEAD]
    for dotted in MODULES:
        module = importlib.import_module(dotted)
        parts.append(f"## `{dotted}`\n\n{_first_paragraph(module)}\n")
        entries = []
        for name, obj in _public(module):
            kind = "class" if inspect.isclass(obj) else "def"
            summary = _first_paragraph(obj)
            entry = f"- {kind} `{name}{_signature(obj)}`"
            entries.append(entry + (f": {summary}" if summary else ""))
            if inspect.isclass(obj) and dotted != "hexcombat":
                entries += _methods(obj)
        parts.append("\n".join(entries) + "\n")
    return "\n".join(parts)


def main() -> None:
    PAGE.write_text(page(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
