"""Every registered ruleset's files outside the engine, found through its manifest
(``Ruleset.manifest``): for a ruleset with a rules spec, the rule coverage table (every rule
tested and implemented, every option's gap tested, the rule table the same as the spec's,
the committed table current); for every ruleset, the app's demo (the file is what its
builder makes, it replays, and the app lists it).

These read files of the repository (and the spec folder when it is there), so they run under
CPython only. A ruleset's own checks of its replayed demo are in ``DEMO_CHECKS``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import demo_files
import pytest

from hexcombat import Encounter, loads
from hexcombat.geometry import distance
from hexcombat.rulesets import all_rulesets, get_ruleset
from hexcombat.rulesets.combat_speed_phase.options import OPTIONS, READINGS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the manifests
import manifests


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
NAMES = list(COVERAGE.targets())
"""Every registered ruleset whose manifest names a rules spec."""
DEMOS = [r.id for r in all_rulesets() if r.manifest is not None and r.manifest.demo]
"""Every registered ruleset with a demo file (its manifest's ``demo``)."""


def test_every_registered_ruleset_has_a_manifest_and_a_demo() -> None:
    missing = [r.id for r in all_rulesets() if r.manifest is None or not r.manifest.demo]
    assert missing == [], "declare a Manifest with a demo on each ruleset class"
    assert set(DEMO_CHECKS) <= set(DEMOS), "DEMO_CHECKS names a ruleset without a demo"


# ---- the rule coverage table ---------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_rule_has_a_test_and_an_implementation(name: str) -> None:
    target = COVERAGE.targets()[name]
    titles = COVERAGE.rule_titles(target)
    prefix, count = target.manifest.prefix, target.manifest.rules
    assert list(titles) == [f"{prefix}-{n}" for n in range(1, count + 1)]
    found = COVERAGE.tests(target)
    untested = [rule for rule in titles if not found.rules.get(rule)]
    assert untested == [], f"rules without a test named after them: {untested}"
    places = COVERAGE.implementations(target)
    unplaced = [rule for rule in titles if not places.get(rule)]
    assert unplaced == [], f"rules no code or data mentions: {unplaced}"


@pytest.mark.parametrize("name", NAMES)
def test_every_option_gap_has_a_test(name: str) -> None:
    target = COVERAGE.targets()[name]
    found = COVERAGE.tests(target)
    missing = [
        option
        for option, _, rule in COVERAGE._options(target)
        if not any(found.gaps.get(g) for g in rule.replace(" ", "").split(","))
    ]
    assert missing == []


def test_every_combat_speed_phase_reading_an_option_names_is_written_down() -> None:
    readings = {o.rule for o in OPTIONS if o.rule.startswith("R-")}
    assert readings <= set(READINGS)


@pytest.mark.parametrize("name", NAMES)
def test_the_rule_table_of_the_ruleset_matches_the_spec(name: str) -> None:
    folder = COVERAGE.spec_dir()
    if folder is None:
        pytest.skip("the spec folder (../shared/rules or HEXCOMBAT_SPECS) is not on this machine")
    target = COVERAGE.targets()[name]
    spec = folder / target.manifest.spec
    assert spec.is_file(), f"a ruleset with rule ids has its spec in the spec folder: {spec}"
    text = spec.read_text(encoding="utf-8")
    assert COVERAGE.spec_rules(text, target.manifest.prefix) == get_ruleset(name).rules  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", NAMES)
def test_the_committed_coverage_table_is_current(name: str) -> None:
    target = COVERAGE.targets()[name]
    committed = target.doc.read_text(encoding="utf-8")
    assert committed == COVERAGE.render(target), f"run: python tests/rules/coverage.py {name}"


def test_mentions_expand_rule_ranges() -> None:
    text = "terrain (FP-11...FP-13), bands FP-16…FP-18 and FP-21..FP-22; not FP-2x"
    assert COVERAGE.mentioned(text, "FP") == {
        "FP-11", "FP-12", "FP-13", "FP-16", "FP-17", "FP-18", "FP-21", "FP-22",
    }  # fmt: skip


# ---- the app's demo ------------------------------------------------------------------------
def _fig_percentile(enc: Encounter) -> None:
    """E-3 to the end of round 4; Brie's first bolt hits Barclay."""
    while enc.can_redo:
        enc.redo()
    assert enc.state.clock.counters == (4,)
    assert next(e.text for e in enc.events if e.kind == "attack") == (
        "Brie the Oaken fires the Crossbow at Barclay the Black: needs 59 or lower, rolled 43: hit"
    )


def _combat_speed_phase(enc: Encounter) -> None:
    """CSP-9, E-2: redo gives the example's separation after every half-phase."""
    seen = []
    while enc.can_redo:
        enc.redo()
        if any(e.kind == "separation" for e in enc.entry_events(enc.cursor - 1)):
            s = enc.state.figures
            seen.append(distance(s["guard"].position, s["derek"].position))
    assert seen == importlib.import_module("combat_speed_phase_fixtures").E2_SEPARATIONS
    assert enc.state.clock.counters == (3, 2) and enc.state.step.id == "combat"


def _kinds_at_least(*kinds: str) -> Callable[[Encounter], None]:
    """The replayed demo shows every one of ``kinds`` of event."""

    def check(enc: Encounter) -> None:
        while enc.can_redo:
            enc.redo()
        assert set(kinds) <= {e.kind for e in enc.events}

    return check


DEMO_CHECKS: dict[str, Callable[[Encounter], None]] = {
    "fig-percentile": _fig_percentile,
    "combat-speed-phase": _combat_speed_phase,
    "strike-chance-pulse": _kinds_at_least("initiative", "attack", "reaction", "parry", "fire"),
    "two-action-2d10": _kinds_at_least("declare", "attack", "reaction", "damage", "tactical"),
}
"""What a ruleset's demo must show once replayed to its end (others: that it replays)."""


@pytest.mark.parametrize("name", DEMOS)
def test_the_demo_file_is_what_the_generator_builds_and_replays(name: str) -> None:
    made = manifests.manifest(name)
    text = (manifests.DEMOS / made.demo).read_text(encoding="utf-8")
    assert text == demo_files.text(manifests.builder(name)()), f"rebuild it: {made.builder}"
    enc = loads(text)
    assert enc.ruleset.id == name and enc.cursor == 0
    DEMO_CHECKS.get(name, _kinds_at_least())(enc)


@pytest.mark.parametrize("name", DEMOS)
def test_the_demo_is_listed_for_the_app(name: str) -> None:
    made = manifests.manifest(name)
    index = json.loads((manifests.DEMOS / "index.json").read_text(encoding="utf-8"))
    entry = next(e for e in index if e["ruleset"] == name)
    assert (
        entry["file"] == made.demo
        and entry["title"]
        == loads((manifests.DEMOS / made.demo).read_text(encoding="utf-8")).setup.name
    )
