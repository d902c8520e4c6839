"""fig-percentile files outside the engine: the rule coverage table and the app's demo.

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
from fig_percentile_fixtures import DEMO, demo, demo_text

from hexcombat import loads
from hexcombat.document import to_document
from hexcombat.rulesets import get_ruleset


def _coverage() -> ModuleType:
    """tests/rules/coverage.py, loaded under its own name (``coverage`` is a PyPI package)."""
    path = Path(__file__).with_name("coverage.py")
    spec = importlib.util.spec_from_file_location("rule_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_coverage"] = module
    spec.loader.exec_module(module)
    return module


COVERAGE = _coverage()
TARGET = COVERAGE.TARGETS["fig-percentile"]


def test_every_spec_rule_has_a_test_and_an_implementation() -> None:
    titles = COVERAGE.rule_titles(TARGET)
    assert list(titles) == [f"FP-{n}" for n in range(1, 28)]
    found = COVERAGE.tests(TARGET)
    untested = [rule for rule in titles if not found.rules.get(rule)]
    assert untested == [], f"rules without a test named after them: {untested}"
    places = COVERAGE.implementations(TARGET)
    unplaced = [rule for rule in titles if not places.get(rule)]
    assert unplaced == [], f"rules no code or data mentions: {unplaced}"


def test_every_option_gap_has_a_test() -> None:
    found = COVERAGE.tests(TARGET)
    missing = [
        name
        for name, _, rule in COVERAGE._options(TARGET)
        if not any(found.gaps.get(g) for g in rule.replace(" ", "").split(","))
    ]
    assert missing == []


def test_the_rule_table_of_the_ruleset_matches_the_spec() -> None:
    folder = COVERAGE.spec_dir()
    if folder is None:
        pytest.skip("the spec folder (../shared/rules or HEXCOMBAT_SPECS) is not on this machine")
    text = (folder / "fig-percentile.md").read_text(encoding="utf-8")
    assert COVERAGE.spec_rules(text, "FP") == get_ruleset("fig-percentile").rules  # type: ignore[attr-defined]


def test_the_committed_coverage_table_is_current() -> None:
    committed = TARGET.doc.read_text(encoding="utf-8")
    assert committed == COVERAGE.render(TARGET), (
        "run: python tests/rules/coverage.py fig-percentile"
    )


def test_mentions_expand_rule_ranges() -> None:
    text = "terrain (FP-11...FP-13), bands FP-16…FP-18 and FP-21..FP-22; not FP-2x"
    assert COVERAGE.mentioned(text, "FP") == {
        "FP-11", "FP-12", "FP-13", "FP-16", "FP-17", "FP-18", "FP-21", "FP-22",
    }  # fmt: skip


def test_the_demo_file_is_what_the_generator_builds_and_replays() -> None:
    text = DEMO.read_text(encoding="utf-8")
    assert text == demo_text(), "run: python tests/rules/fig_percentile_fixtures.py"
    enc = loads(text)
    assert enc.ruleset.id == "fig-percentile" and enc.cursor == 0
    built = demo()
    assert to_document(enc) == to_document(built)
    while enc.can_redo:
        enc.redo()
    assert enc.state.clock.counters == (4,)
    assert next(e.text for e in enc.events if e.kind == "attack") == (
        "Brie the Oaken fires the Crossbow at Barclay the Black: needs 59 or lower, rolled 43: hit"
    )


def test_the_demo_is_listed_for_the_app() -> None:
    index = json.loads((DEMO.parent / "index.json").read_text(encoding="utf-8"))
    entry = next(e for e in index if e["ruleset"] == "fig-percentile")
    assert entry["file"] == DEMO.name and entry["title"] == demo().setup.name
