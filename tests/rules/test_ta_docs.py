"""two-action-2d10 files outside the engine: the rule coverage table and the app's demo.

These read files of the repository (and the spec folder when it is there), so
they run under CPython only.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from ta_fixtures import DEMO, demo, demo_text

from hexcombat import loads
from hexcombat.document import to_document
from hexcombat.rulesets import get_ruleset


def _coverage() -> ModuleType:
    """tests/rules/coverage.py under its own name (``coverage`` is a PyPI package)."""
    if "rule_coverage" in sys.modules:
        return sys.modules["rule_coverage"]
    path = Path(__file__).with_name("coverage.py")
    spec = importlib.util.spec_from_file_location("rule_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_coverage"] = module
    spec.loader.exec_module(module)
    return module


COVERAGE = _coverage()
TARGET = COVERAGE.TARGETS["two-action-2d10"]


def test_every_ta_rule_has_a_test_and_an_implementation() -> None:
    titles = COVERAGE.rule_titles(TARGET)
    assert list(titles) == [f"TA-{n}" for n in range(1, 28)]
    found = COVERAGE.tests(TARGET)
    untested = [rule for rule in titles if not found.rules.get(rule)]
    assert untested == [], f"rules without a test named after them: {untested}"
    places = COVERAGE.implementations(TARGET)
    unplaced = [rule for rule in titles if not places.get(rule)]
    assert unplaced == [], f"rules no code or data mentions: {unplaced}"


def test_every_ta_option_gap_has_a_test() -> None:
    found = COVERAGE.tests(TARGET)
    missing = [
        name
        for name, _, rule in COVERAGE._options(TARGET)
        if not any(found.gaps.get(g) for g in rule.replace(" ", "").split(","))
    ]
    assert missing == []


def test_the_ta_rule_table_of_the_ruleset_matches_the_spec() -> None:
    folder = COVERAGE.spec_dir()
    if folder is None:
        pytest.skip("the spec folder (../shared/rules or HEXCOMBAT_SPECS) is not on this machine")
    text = (folder / "two-action-2d10.md").read_text(encoding="utf-8")
    assert COVERAGE.spec_rules(text, "TA") == get_ruleset("two-action-2d10").rules  # type: ignore[attr-defined]


def test_the_committed_ta_coverage_table_is_current() -> None:
    committed = TARGET.doc.read_text(encoding="utf-8")
    assert committed == COVERAGE.render(TARGET), (
        "run: python tests/rules/coverage.py two-action-2d10"
    )


def test_the_ta_demo_file_is_what_the_generator_builds_and_replays() -> None:
    text = DEMO.read_text(encoding="utf-8")
    assert text == demo_text(), "run: python tests/rules/ta_fixtures.py"
    enc = loads(text)
    assert enc.ruleset.id == "two-action-2d10" and enc.cursor == 0
    assert to_document(enc) == to_document(demo())
    while enc.can_redo:
        enc.redo()
    kinds = [e.kind for e in enc.events]
    assert {"declare", "attack", "reaction", "damage", "tactical"} <= set(kinds)


def test_the_ta_demo_is_listed_for_the_app() -> None:
    index = json.loads((DEMO.parent / "index.json").read_text(encoding="utf-8"))
    entry = next(e for e in index if e["ruleset"] == "two-action-2d10")
    assert entry["file"] == DEMO.name and entry["title"] == demo().setup.name
