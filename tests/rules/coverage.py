"""Rule coverage of a ruleset: where each spec rule is implemented and which tests name it.

``python tests/rules/coverage.py fig-percentile`` rewrites
``docs/rules/fig-percentile.md``; ``--check`` only reports whether it is
current. The rule ids come from the spec (``**FP-n — title**`` headings) when
the spec folder is available (``HEXCOMBAT_SPECS`` or ``../shared/rules`` next
to the repository), else from the ruleset's own rule table. Implementations are
the functions, classes and data entries whose text mentions a rule id (ranges
such as ``FP-11...FP-13`` count for every id in them); tests are the test
functions whose names carry the id (``test_fp_12_...``, ``..._g17_...``). A ruleset with a
source text also shows the figures of its sentence map (``tests/rules/sentence_maps.py``):
how many sentences are covered by tests, carry no rule, or are still open.
"""

from __future__ import annotations

import ast
import glob
import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script: the repository's engine
sys.path.insert(0, str(ROOT / "tests"))  # and the tests' helpers
sys.path.insert(0, str(ROOT / "tests" / "rules"))  # and the sentence maps beside this file

import sentence_maps  # noqa: E402
from source_trees import source_tree  # noqa: E402

from hexcombat.rulesets import Ruleset, all_rulesets  # noqa: E402
from hexcombat.rulesets.manifest import Manifest  # noqa: E402
from hexcombat.schema import FieldSpec  # noqa: E402


@dataclass(frozen=True)
class Target:
    """A ruleset, its manifest (where its spec, code, data and tests live) and the options
    and notes it declares."""

    ruleset: str
    manifest: Manifest
    options: tuple[FieldSpec, ...] = ()
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, ruleset: Ruleset | type[Ruleset], manifest: Manifest | None = None) -> Target:
        """The target of a ruleset's declaration (its own manifest unless one is given)."""
        made = manifest or ruleset.manifest
        assert made is not None, f"ruleset {ruleset.id!r} declares no manifest"
        return cls(ruleset.id, made, ruleset.options, ruleset.doc_notes)

    @property
    def doc(self) -> Path:
        """The generated coverage table."""
        return ROOT / "docs" / "rules" / f"{self.ruleset}.md"


def targets() -> dict[str, Target]:
    """Every registered ruleset whose manifest names a rules spec, by id, in listing order."""
    return {
        r.id: Target.of(r) for r in all_rulesets() if r.manifest is not None and r.manifest.prefix
    }


def spec_dir() -> Path | None:
    """The folder of the rule specs, if this machine has it."""
    env = os.environ.get("HEXCOMBAT_SPECS")
    for candidate in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "rules"]:
        if candidate.is_dir():
            return candidate
    return None


def spec_rules(text: str, prefix: str) -> dict[str, str]:
    """Rule id -> title from the spec's ``**FP-n — title**`` headings, in order."""
    pattern = re.compile(rf"^\*\*({prefix}-\d+) — (.+?)\*\*", re.MULTILINE)
    return {m[1]: m[2].strip() for m in pattern.finditer(text)}


def mentioned(text: str, prefix: str) -> set[str]:
    """Every rule id a text mentions, ranges (``FP-11...FP-13``, ``FP-11..FP-13``) expanded."""
    ids = {f"{prefix}-{n}" for n in re.findall(rf"\b{prefix}-(\d+)\b", text)}
    span = rf"\b{prefix}-(\d+)\s*(?:\.{{2,3}}|…)\s*{prefix}-(\d+)\b"
    for low, high in re.findall(span, text):
        ids.update(f"{prefix}-{n}" for n in range(int(low), int(high) + 1))
    return ids


def _scopes(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every class and function, outer first."""
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, outer: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{outer}.{child.name}" if outer else child.name
                found.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name)

    visit(tree, "")
    return found


def implementations(target: Target) -> dict[str, set[str]]:
    """Rule id -> the places (``module.function``, data tables) whose text mentions it."""
    places: dict[str, set[str]] = {}
    for path in sorted((ROOT / target.manifest.package).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        scopes = _scopes(source_tree(path))
        for number, line in enumerate(text.splitlines(), start=1):
            for rule in mentioned(line, target.manifest.prefix):
                inner = [s for s in scopes if s[0] <= number <= s[1]]
                where = f"{path.stem}.{inner[-1][2]}" if inner else path.stem
                places.setdefault(rule, set()).add(where)
    data = json.loads((ROOT / target.manifest.data).read_text(encoding="utf-8"))
    for table, entries in data.items():
        if table == "rules" or not isinstance(entries, list | dict):
            continue
        for rule in mentioned(json.dumps(entries, ensure_ascii=False), target.manifest.prefix):
            places.setdefault(rule, set()).add(f"data: {table}")
    return places


@dataclass
class Tests:
    """Test functions per rule id and per gap (G-n, C-n), inconsistency (I-n) or reading id."""

    rules: dict[str, list[str]] = field(default_factory=dict)
    gaps: dict[str, list[str]] = field(default_factory=dict)
    total: int = 0


def _test_names(paths: Iterable[Path]) -> list[str]:
    names = []
    for path in paths:
        tree = source_tree(path)
        names += [
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return names


def tests(target: Target) -> Tests:
    """Which test functions name which rule and gap ids."""
    found = Tests()
    low = target.manifest.prefix.lower()
    letters = target.manifest.gap_letters.lower()
    for name in _test_names(sorted(map(Path, glob.glob(str(ROOT / target.manifest.tests))))):
        found.total += 1
        for n in re.findall(rf"(?<![a-z0-9]){low}_(\d+)(?![0-9])", name):
            found.rules.setdefault(f"{target.manifest.prefix}-{n}", []).append(name)
        for letter, n in re.findall(rf"(?<![a-z0-9])([{letters}])_?(\d+)(?![0-9])", name):
            found.gaps.setdefault(f"{letter.upper()}-{n}", []).append(name)
    return found


def rule_titles(target: Target) -> dict[str, str]:
    """The rules: from the spec when available, else from the ruleset's data (the test-only
    kit ruleset has no spec in the spec folder)."""
    folder = spec_dir()
    spec = folder / target.manifest.spec if folder and target.manifest.spec else None
    if spec is not None and spec.is_file():
        return spec_rules(spec.read_text(encoding="utf-8"), target.manifest.prefix)
    data = json.loads((ROOT / target.manifest.data).read_text(encoding="utf-8"))
    return dict(data["rules"])


def _options(target: Target) -> list[tuple[str, str, str]]:
    """(option name, default, gap id) of every option of the ruleset."""
    return [(o.name, json.dumps(o.default), o.rule) for o in target.options]


def _cell(items: Iterable[str]) -> str:
    return ", ".join(f"`{i}`" for i in items) or "—"


def _sentence_lines(target: Target) -> list[str]:
    """The figures of the ruleset's sentence map of its source text, and its open sentences."""
    found = sentence_maps.load(target.ruleset)
    if found is None:
        return []
    path = sentence_maps.map_path(target.ruleset).relative_to(ROOT)
    lines = [
        "",
        "## The source text, sentence by sentence",
        "",
        f"`{path}` maps every sentence of `{found.source}` (the module "
        "`tests/rules/sentence_maps.py` says how the text is split); a test fails when a "
        "sentence is missing, its digest no longer matches or a named test does not exist.",
        "",
        f"Sentences: **{len(found.entries)}**. Covered by tests: **{found.count('tested')}**. "
        f"No rule: **{found.count('no rule')}**. Open: **{found.count('open')}**.",
    ]
    still_open = [e for e in found.entries if e.status == "open"]
    if still_open:
        lines += ["", "| Sentence | Says | Open: what is missing |", "|---|---|---|"]
        lines += [f"| {e.n} | {e.says} | {e.open} |" for e in still_open]
    return lines


def render(target: Target) -> str:
    """The coverage document as Markdown."""
    titles = rule_titles(target)
    places = implementations(target)
    found = tests(target)
    covered = [r for r in titles if found.rules.get(r)]
    lines = [
        f"# Rule coverage: `{target.ruleset}`",
        "",
        f"Generated by `python tests/rules/coverage.py {target.ruleset}`; a test fails when "
        "this file is stale or a rule has no test.",
        "",
        f"Rules with a test: **{len(covered)} of {len(titles)}**. "
        f"Test functions: **{found.total}** (parametrized cases counted once).",
        "",
        "| Rule | Title | Implemented in | Tests |",
        "|---|---|---|---|",
    ]
    for rule, title in titles.items():
        names = found.rules.get(rule, [])
        lines.append(
            f"| {rule} | {title} | {_cell(sorted(places.get(rule, ())))} | "
            f"{len(names)}: {_cell(names)} |"
        )
    lines += [
        "",
        "## Options (proposed defaults for the spec's gaps)",
        "",
        "| Option | Default | Gap | Tests naming the gap |",
        "|---|---|---|---|",
    ]
    for name, default, rule in _options(target):
        gaps = re.findall(rf"[{target.manifest.gap_letters}]-\d+", rule)
        names = list(dict.fromkeys(n for g in gaps for n in found.gaps.get(g, [])))
        lines.append(f"| `{name}` | `{default}` | {rule} | {len(names)}: {_cell(names)} |")
    notes = target.notes
    if notes:
        lines += ["", "## Defaults chosen", "", *(f"- {note}" for note in notes)]
    lines += _sentence_lines(target)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write (or with ``--check``, verify) the coverage document of each named ruleset."""
    check = "--check" in argv
    known = targets()
    names = [a for a in argv if not a.startswith("--")] or list(known)
    stale = []
    for name in names:
        target = known[name]
        text = render(target)
        current = target.doc.read_text(encoding="utf-8") if target.doc.exists() else ""
        if check:
            if text != current:
                stale.append(str(target.doc.relative_to(ROOT)))
            continue
        target.doc.parent.mkdir(parents=True, exist_ok=True)
        target.doc.write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {target.doc.relative_to(ROOT)}\n")
    if stale:
        sys.stdout.write(f"stale: {', '.join(stale)}; run python tests/rules/coverage.py\n")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
