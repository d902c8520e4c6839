"""What lists the rulesets, written from their declarations (each ruleset class's id, name,
summary, starter and :class:`~hexcombat.rulesets.manifest.Manifest`).

``python tests/rulesets_index.py`` rewrites: the registry's table of built-in rulesets
(``BUILT_IN`` in ``hexcombat/rulesets/registry.py``), the demo index
(``static/demos/index.json``), the lists of rulesets in ``README.md`` (its sentence and its
links to the players' pages) and ``docs/guide/README.md``. A ruleset is built in when its
package sits in ``hexcombat/rulesets/`` and registers a class; they are listed in the order
of their manifests' ``position``. A new ruleset's demo is left out of the index until its
file exists: run this once to register the ruleset, build the demo, then run it again.
``tests/test_ruleset_registry.py`` fails when a written file is stale.
"""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hexcombat import loads  # noqa: E402
from hexcombat.rulesets import Ruleset, registry  # noqa: E402
from hexcombat.rulesets.manifest import Manifest  # noqa: E402

RULESETS = ROOT / "hexcombat" / "rulesets"
REGISTRY = RULESETS / "registry.py"
DEMO_INDEX = ROOT / "static" / "demos" / "index.json"
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide" / "README.md"
BEGIN = "<!-- rulesets: written by tests/rulesets_index.py from the rulesets' declarations -->"
END = "<!-- end of rulesets -->"
GUIDES_BEGIN = "<!-- ruleset guides: written by tests/rulesets_index.py -->"
GUIDES_END = "<!-- end of ruleset guides -->"
TABLE_BEGIN = "# ---- written by tests/rulesets_index.py from each ruleset's declaration ----\n"
TABLE_END = "# ---- end of the written table ----\n"
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def built_in() -> list[Ruleset]:
    """Every ruleset a package in ``hexcombat/rulesets/`` registers, in listing order."""
    found: list[Ruleset] = []
    for init in sorted(RULESETS.glob("*/__init__.py")):
        package = f"hexcombat.rulesets.{init.parent.name}"
        importlib.import_module(package)
        found += [r for r in registry._REGISTRY.values() if _in_package(type(r), package)]
    return sorted(found, key=lambda r: manifest(r).position)


def _in_package(cls: type[Ruleset], package: str) -> bool:
    """Whether the class is defined in the package (its ``__init__.py`` or a module of it)."""
    return cls.__module__ == package or cls.__module__.startswith(package + ".")


def manifest(ruleset: Ruleset) -> Manifest:
    """The ruleset's manifest (AssertionError when it declares none)."""
    assert ruleset.manifest is not None, f"ruleset {ruleset.id!r} declares no manifest"
    return ruleset.manifest


def _string(text: str, indent: int) -> str:
    """``text`` as a Python string literal, split over lines (at ``indent``) to fit 100
    columns."""
    chunks = textwrap.wrap(text, 96 - indent, drop_whitespace=False) or [""]
    return f"\n{' ' * indent}".join(json.dumps(c, ensure_ascii=False) for c in chunks)


def registry_table(rulesets: list[Ruleset]) -> str:
    """The ``BUILT_IN`` table, between its markers."""
    rows = []
    for r in rulesets:
        texts = [_string(r.id, 8), _string(r.name, 8), _string(r.summary, 8)]
        fields = [*texts, f'"{manifest(r).module}"']
        fields += ["starter=True"] if r.starter else []
        rows.append("    RulesetEntry(\n" + "".join(f"        {f},\n" for f in fields) + "    ),\n")
    return (
        TABLE_BEGIN + "BUILT_IN: tuple[RulesetEntry, ...] = (\n" + "".join(rows) + ")\n" + TABLE_END
    )


def demo_index(rulesets: list[Ruleset]) -> str:
    """The demo index: each ruleset's demo, its title its encounter's name."""
    entries = []
    for r in rulesets:
        m = manifest(r)
        path = DEMO_INDEX.parent / m.demo
        if not m.demo or not path.is_file():
            continue  # a new ruleset's demo is built once the registry lists it; run again then
        demo = loads(path.read_text(encoding="utf-8"))
        entry: dict[str, object] = {"ruleset": r.id, "file": m.demo, "title": demo.setup.name}
        entry["description"] = m.demo_about
        if r.starter:
            entry["first_visit"] = True
        entries.append(entry)
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


def readme_sentence(rulesets: list[Ruleset]) -> str:
    """README's sentence naming every ruleset: those with a rules spec, then the others."""
    spec = [f"`{r.id}`" for r in rulesets if manifest(r).prefix]
    small = [f"`{r.id}`" for r in rulesets if not manifest(r).prefix]
    extra = {0: "", 1: ", plus a small built-in one"}.get(
        len(small), f", plus {NUMBERS[len(small)]} small built-in ones"
    )
    names = [*spec, *small]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    text = f"It enforces {NUMBERS[len(spec)]} tabletop rulesets rule by rule{extra}: {listed}."
    return "\n".join(textwrap.wrap(text, 90, break_on_hyphens=False)) + "\n"


def readme_guides(rulesets: list[Ruleset]) -> str:
    """README's item linking every ruleset's page of the players' guide."""
    links = ",\n  ".join(f"[{r.id}](docs/guide/rulesets/{r.id}.md)" for r in rulesets)
    return f"- The rulesets: {links}\n"


def guide_list(rulesets: list[Ruleset]) -> str:
    """The players' guide's list: each ruleset's page and tagline."""
    return "".join(f"- [{r.id}](rulesets/{r.id}.md): {manifest(r).tagline}\n" for r in rulesets)


def _between(text: str, begin: str, end: str, inner: str, where: Path) -> str:
    """``text`` with what lies between ``begin`` and ``end`` replaced by ``inner``."""
    head, found, rest = text.partition(begin)
    _, closed, tail = rest.partition(end)
    if not (found and closed):
        raise SystemExit(f"{where.relative_to(ROOT)}: the markers {begin!r} ... {end!r} are gone")
    return head + begin + ("\n" if begin.endswith(">") else "") + inner + end + tail


def written() -> dict[Path, str]:
    """Every file this script writes, with what it should hold."""
    rulesets = built_in()
    readme, guide = (p.read_text(encoding="utf-8") for p in (README, GUIDE))
    return {
        REGISTRY: _between(
            REGISTRY.read_text(encoding="utf-8"),
            TABLE_BEGIN,
            TABLE_END,
            registry_table(rulesets)[len(TABLE_BEGIN) : -len(TABLE_END)],
            REGISTRY,
        ),
        DEMO_INDEX: demo_index(rulesets),
        README: _between(
            _between(readme, BEGIN, END, readme_sentence(rulesets), README),
            GUIDES_BEGIN,
            GUIDES_END,
            readme_guides(rulesets),
            README,
        ),
        GUIDE: _between(guide, BEGIN, END, guide_list(rulesets), GUIDE),
    }


def stale() -> list[str]:
    """The written files that differ from what the declarations say."""
    return [
        str(path.relative_to(ROOT))
        for path, text in written().items()
        if path.read_text(encoding="utf-8") != text
    ]


def main() -> int:
    for path, text in written().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
