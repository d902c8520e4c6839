"""The docs stay true: every Python block is a doctest that passes, every ``hexcombat`` command
shown prints what is shown, every shell command names a script and flags that exist, every
link leads to a file of the repository, and the generated pages are current."""

from __future__ import annotations

import doctest
import io
import os
import re
import shlex
from pathlib import Path

import pytest
from api_reference import page as api_page
from cli_examples import BLOCK, DOCS, masked, run
from guide_options import PAGES, ROSTER_PAGE, page_with_tables

from hexcombat.rulesets import all_rulesets
from web.share.links import embed_code

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def blocks(kind: str) -> list[tuple[str, int, str]]:
    """Every fenced block of ``kind``: (file, number of the block in it, its text)."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for i, (lang, body) in enumerate((m.group(1), m.group(2)) for m in BLOCK.finditer(text)):
            if lang == kind:
                found.append((_name(path), i, body))
    return found


def examples() -> list[tuple[str, str, str]]:
    """Each ``$ hexcombat ...`` line of a console block with the output shown after it."""
    found = []
    for name, _, body in blocks("console"):
        lines = body.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            found.append((name, lines[start][2:], "\n".join(lines[start + 1 : end]) + "\n"))
    return found


def python_files() -> list[str]:
    return sorted({name for name, _, _ in blocks("python")})


@pytest.mark.parametrize("name", python_files())
def test_every_python_block_is_a_doctest_that_passes(name: str) -> None:
    """A file's blocks run in order in one namespace, from the repository's root."""
    namespace: dict[str, object] = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    previous = Path.cwd()
    os.chdir(ROOT)
    try:
        for _, number, body in (b for b in blocks("python") if b[0] == name):
            assert ">>> " in body, f"{name}: a Python block is written as a doctest (>>> lines)"
            test = doctest.DocTestParser().get_doctest(
                body, namespace, f"{name}[{number}]", name, 0
            )
            runner.run(test, out=out.write, clear_globs=False)
            namespace = test.globs  # the next block goes on from this one's names
    finally:
        os.chdir(previous)
    assert runner.failures == 0, out.getvalue()


@pytest.mark.parametrize(
    ("name", "command", "shown"),
    examples(),
    ids=[f"{name}: {command}" for name, command, _ in examples()],
)
def test_every_cli_example_prints_what_it_shows(name: str, command: str, shown: str) -> None:
    """``python tests/cli_examples.py`` writes the outputs anew after a change to the rules."""
    got = masked(run(command))
    checker = doctest.OutputChecker()
    assert checker.check_output(masked(shown), got, doctest.ELLIPSIS), f"{name}: {command}\n{got}"


SCRIPTS = ("web/serve", "tests/run", "tests/bench", "tests/fuzz", "web/build.py")


def test_every_shell_command_names_a_script_and_flags_it_has() -> None:
    checked = 0
    for name, _, body in blocks("sh"):
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            words = [w for w in words if "=" not in w or w.startswith("-")]  # VAR=1 before it
            if words[:1] == [".venv/bin/python"]:
                words = words[1:]
            if not words or (words[0] not in SCRIPTS and not words[0].startswith("tests/")):
                continue
            script = ROOT / words[0]
            assert script.is_file(), f"{name}: {line}"
            source = script.read_text(encoding="utf-8")
            if words[0] == "tests/bench":
                source += (ROOT / "tests" / "benchmarks" / "main.py").read_text(encoding="utf-8")
            for flag in (w.split("=")[0] for w in words[1:] if w.startswith("--")):
                assert flag in source, f"{name}: {words[0]} has no {flag}"
            checked += 1
    assert checked >= 5


IFRAME = re.compile(
    r'<iframe src="(?P<base>[^"?]*)\?embed(?P<fragment>#[^"]*)"'
    r'.*?title="(?P<title>[^"]*) \(Hex Combat\)"'
)


def test_every_embed_snippet_is_the_one_the_share_dialog_gives() -> None:
    snippets = [line for _, _, body in blocks("html") for line in body.splitlines()]
    snippets = [line.strip() for line in snippets if "<iframe" in line]
    assert len(snippets) >= 3
    for snippet in snippets:
        found = IFRAME.search(snippet)
        assert found, snippet
        assert snippet == embed_code(found["base"], found["fragment"], found["title"])


def test_every_link_leads_to_a_file_of_the_repository() -> None:
    broken = []
    for path in DOCS:
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:", "#")):
                continue
            where = (path.parent / target.split("#")[0]).resolve()
            if not where.is_relative_to(ROOT) or not where.exists():
                broken.append(f"{_name(path)}: {target}")
    assert broken == []


def test_the_docs_keep_no_work_journal() -> None:
    journal = re.compile(r"\b(?:session|issue) \d|#\d{2}\b|\b20\d\d-\d\d-\d\d\b", re.I)
    found = [
        f"{_name(p)}: {m.group(0)}"
        for p in DOCS
        if p.parent.name != "rules" and p.name != "CHANGELOG.md"
        for m in journal.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []


CODE_SUFFIXES = {".py", ".mjs", ".js", ".html", ".css", ".toml", ".yml"}
SKIPPED = {"node_modules", "vendor", "__pycache__"}


def code_files() -> list[Path]:
    """The project's own code and scripts (vendored and installed packages left out)."""
    found = [ROOT / "web" / "serve", ROOT / "tests" / "run", ROOT / "tests" / "bench"]
    found += [ROOT / "tests" / "fuzz", ROOT / "pyproject.toml"]
    for root in ("hexcombat", "web", "tests", ".github", ".ci"):
        for top, folders, names in os.walk(ROOT / root):
            folders[:] = [f for f in folders if f not in SKIPPED]
            found += [Path(top) / n for n in names if Path(n).suffix in CODE_SUFFIXES]
    return found


def test_the_code_speaks_of_itself_not_of_its_making() -> None:
    """No comment or docstring names a work session or an issue: history is git's."""
    journal = re.compile(r"\b(?:session|issue) \d|\bthe issue's\b|\bissue\d|\(items? \d", re.I)
    found = [
        f"{_name(p)}: {m.group(0)}"
        for p in code_files()
        for m in journal.finditer(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []


def test_tests_are_named_for_what_they_check_not_for_an_issues_item() -> None:
    """A test's name starts with what it checks or a rule id (``test_fp_12_...``), never with
    the bare number of the issue or item that asked for it (``test_22_3_...``)."""
    numbered = re.compile(r"^(?:async )?def (test_\d{1,2}_(?:\d{1,2}_)?[a-z]\w*)", re.M)
    found = [
        f"{_name(p)}: {m.group(1)}"
        for p in code_files()
        if p.name.startswith("test_")
        for m in numbered.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_api_reference_is_current() -> None:
    page = (ROOT / "docs" / "dev" / "api.md").read_text(encoding="utf-8")
    assert page == api_page(), "run: python tests/api_reference.py"


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_each_rulesets_guide_page_has_its_current_tables(ruleset: str) -> None:
    chosen = next(r for r in all_rulesets() if r.id == ruleset)
    text = (PAGES / f"{ruleset}.md").read_text(encoding="utf-8")
    assert text == page_with_tables(text, chosen), "run: python tests/guide_options.py"


def test_the_roster_guide_page_lists_the_rosters_current_options() -> None:
    text = ROSTER_PAGE.read_text(encoding="utf-8")
    assert "roster.gather_dropped" in text
    assert text == page_with_tables(text, None), "run: python tests/guide_options.py"
