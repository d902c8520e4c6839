"""The registry imports a ruleset's module only when the ruleset is first used.

Start-up in the browser pays for every module it imports, so opening one encounter must
import one ruleset; the registry's light entries (id, name, summary, module) list them all
without importing any, and must say what the classes say.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rulesets_index import stale

from hexcombat import UnknownRulesetError
from hexcombat.rulesets import all_rulesets, get_ruleset, registry, ruleset_entries
from hexcombat.rulesets.manifest import Manifest

ROOT = Path(__file__).resolve().parent.parent
RULESET_MODULES = (
    "hexcombat.rulesets.skirmish",
    "hexcombat.rulesets.fig_percentile",
    "hexcombat.rulesets.strike_chance_pulse",
    "hexcombat.rulesets.combat_speed_phase",
    "hexcombat.rulesets.two_action_2d10",
)


def imported_after(code: str) -> list[str]:
    """The ruleset modules a fresh interpreter has imported after running ``code``."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"print(json.dumps([m for m in {list(RULESET_MODULES)!r} if m in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_engine_imports_no_ruleset() -> None:
    code = "import hexcombat, hexcombat.view, hexcombat.document, hexcombat.rulesets"
    assert imported_after(code) == []


def test_listing_entries_imports_no_ruleset() -> None:
    code = "from hexcombat.rulesets import ruleset_entries\nassert len(ruleset_entries()) >= 4"
    assert imported_after(code) == []


def test_opening_an_encounter_imports_only_its_ruleset() -> None:
    demo = ROOT / "static" / "demos" / "fig-percentile.json"
    code = f"import hexcombat\nhexcombat.loads(open({str(demo)!r}).read())"
    assert imported_after(code) == ["hexcombat.rulesets.fig_percentile"]
    code = "import hexcombat\nhexcombat.Encounter.new('skirmish', 4, 4)"
    assert imported_after(code) == ["hexcombat.rulesets.skirmish"]


def test_the_starter_board_imports_only_the_starter() -> None:
    code = "from hexcombat.view import empty_encounter\nempty_encounter()"
    assert imported_after(code) == ["hexcombat.rulesets.skirmish"]


def test_all_rulesets_imports_every_one_in_listing_order() -> None:
    assert imported_after("import hexcombat\nhexcombat.all_rulesets()") == list(RULESET_MODULES)
    ids = [r.id for r in all_rulesets()]
    assert ids == [e.id for e in ruleset_entries()]


def test_entries_say_what_the_classes_say() -> None:
    for entry in ruleset_entries():
        ruleset = get_ruleset(entry.id)
        assert (entry.name, entry.summary, entry.starter) == (
            ruleset.name,
            ruleset.summary,
            ruleset.starter,
        )
        assert type(ruleset).__module__.startswith(entry.module)


def test_an_unknown_id_names_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError, match="known rulesets: skirmish, fig-percentile"):
        get_ruleset("no-such-rules")


def test_a_built_in_manifests_paths_derived_from_its_id_all_exist() -> None:
    """``Manifest.built_in`` works out package, data, demo, spec and tests from the id; for
    every built-in ruleset each names what is there."""
    specs = ROOT.parent / "shared" / "rules"
    for entry in registry.BUILT_IN:
        m = get_ruleset(entry.id).manifest
        assert m is not None and m == Manifest.built_in(
            entry.id, m.builder, position=m.position, tagline=m.tagline,
            demo_about=m.demo_about, prefix=m.prefix, gap_letters=m.gap_letters,
            rules=m.rules, starts=m.starts,
        )  # fmt: skip
        assert (ROOT / m.package / "__init__.py").is_file(), entry.id
        assert (ROOT / m.data).is_file() and (ROOT / "static" / "demos" / m.demo).is_file()
        if m.prefix:
            assert list(ROOT.glob(m.tests)), entry.id
            assert not specs.is_dir() or (specs / m.spec).is_file(), entry.id


def test_the_registry_demo_index_and_readme_lists_are_written_from_the_declarations() -> None:
    """The registry's table, the demo index and the READMEs' lists of rulesets are what
    ``tests/rulesets_index.py`` writes from the rulesets' declarations, never kept by hand."""
    assert stale() == [], "run: python tests/rulesets_index.py"


def test_the_rulesets_are_listed_in_their_declared_positions() -> None:
    manifests = [get_ruleset(e.id).manifest for e in registry.BUILT_IN]
    positions = [m.position for m in manifests if m is not None]
    assert positions == sorted(positions) == list(range(len(positions)))
