"""docs/dev/adding-a-ruleset.md, checked by the test-only ruleset that follows it.

The files its steps (and docs/architecture.md) name exist, and the kit (tests/kit/) passes
the same coverage checks as a real ruleset: every rule has a test named after it and an
implementation that mentions it, every option's gap has a test, and the coverage table renders.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from kit import KitDuel

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
ADDING = ROOT / "docs" / "dev" / "adding-a-ruleset.md"


def _coverage() -> ModuleType:
    path = ROOT / "tests" / "rules" / "coverage.py"
    spec = importlib.util.spec_from_file_location("rule_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_coverage"] = module
    spec.loader.exec_module(module)
    return module


COVERAGE = _coverage()
KIT = COVERAGE.Target.of(KitDuel)


def adding_section() -> str:
    """The steps (the small ruleset after them names the files it makes)."""
    steps = ADDING.read_text(encoding="utf-8").split("## Steps", 1)[1]
    return steps.split("## A small ruleset, whole", 1)[0]


def test_every_file_the_adding_a_ruleset_steps_name_exists() -> None:
    named = set(re.findall(r"`((?:hexcombat|tests|static|web|docs)/[^`<>* ]+)`", adding_section()))
    assert len(named) > 15
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert missing == []


def test_every_file_the_architecture_page_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:hexcombat|tests|static|web|docs)/[^`<>* ]+)`", text))
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_the_kit_has_a_test_and_an_implementation_for_every_rule() -> None:
    titles = COVERAGE.rule_titles(KIT)
    assert list(titles) == [f"KIT-{n}" for n in range(1, 10)]
    found = COVERAGE.tests(KIT)
    assert [r for r in titles if not found.rules.get(r)] == []
    places = COVERAGE.implementations(KIT)
    assert [r for r in titles if not places.get(r)] == []


def test_every_kit_option_gap_has_a_test() -> None:
    found = COVERAGE.tests(KIT)
    assert [n for n, _, rule in COVERAGE._options(KIT) if not found.gaps.get(rule)] == []
    table = COVERAGE.render(KIT)
    assert "| `kit.block_bonus` | `2` | G-1 |" in table


def test_every_adding_a_ruleset_step_names_the_test_that_checks_it() -> None:
    steps = re.split(r"\n(?=\d+\. \*\*)", adding_section())[1:]
    assert len(steps) == 11
    unchecked = [
        step.split("**")[1]
        for step in steps
        if not any((ROOT / p).is_file() for p in re.findall(r"`(tests/[^`<>* ]+\.py)`", step))
    ]
    assert unchecked == []


def test_the_shape_is_shown_once_and_its_test_is_named() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count("### The shape of a ruleset package") == 1
    assert "`tests/test_ruleset_shape.py`" in text
