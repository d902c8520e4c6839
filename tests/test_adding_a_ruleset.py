"""docs/dev/adding-a-ruleset.md's small ruleset, built from the page alone.

Its files are taken from the page's "A small ruleset, whole" blocks, written under a
throwaway folder at the paths the page gives (its package ``hexcombat.rulesets.tiny``, its
data, its fixtures and rule tests under ``tests/rules/``, its spec in a spec folder of its
own), registered, and held to every step: the package shape, two modules (1), the
registry's entry and the lists ``tests/rulesets_index.py`` writes (2), the option's gap id
and its test (3), the rule table against the spec's headings (4), every rule tested by id
and implemented and the calculator's example run (5), the prompt asked and answered through
the Encounter API (6), the manifest's paths and coverage table (7), the page's own tests,
the worked example among them (8), the demo (9), seeded random games under every
conformance invariant (10) and the linter and formatter of the check (11). The registry is
left as it was.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rulesets_index
from test_doctests import failures, with_examples
from test_kit_docs import COVERAGE
from test_ruleset_shape import REQUIRED, _memory_accesses
from test_sentence_maps import _source_of

import hexcombat.rulesets
import hexcombat.rulesets.data
from hexcombat import Action, Encounter, HexcombatError, dumps, loads
from hexcombat.rulesets import Ruleset, registry

sys.path.insert(0, str(Path(__file__).resolve().parent / "conformance"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))  # demo_files, for the demo
import games
import invariants as inv

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "dev" / "adding-a-ruleset.md"
FILE_BLOCK = re.compile(
    r"^`([\w/<>.]+)`[^\n]*(?:\n[^\n`][^\n]*)*\n\n```(?:py|json|md)\n(.*?)```", re.S | re.M
)
"""A file's name in backquotes opening a paragraph, then its block."""
SPEC = "tiny.md"
"""The spec's name in the page; it goes in the throwaway's own spec folder."""
GAMES = games.Mode(
    games=1, actions=40, exact_ways=500, samples=100, sampled=4, face_ways=50, face_actions=2
)


def page_files() -> dict[str, str]:
    """The small ruleset's files as the page gives them: name -> text."""
    section = PAGE.read_text(encoding="utf-8").split("## A small ruleset, whole", 1)[1]
    return {name: body for name, body in FILE_BLOCK.findall(section)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The throwaway repository: every file of the page at its path (the spec in ``specs/``)."""
    root = tmp_path_factory.mktemp("newcomer")
    for name, text in page_files().items():
        path = root / ("specs/" + name if name == SPEC else name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def tiny(folder: Path) -> Iterator[Ruleset]:
    """The page's ruleset, registered for this module's tests, then taken out again."""
    data = json.loads((folder / "hexcombat/rulesets/data/tiny.json").read_text(encoding="utf-8"))
    load = hexcombat.rulesets.data.load
    hexcombat.rulesets.data.load = lambda name: data if name == "tiny" else load(name)
    rulesets, tests = str(folder / "hexcombat" / "rulesets"), str(folder / "tests" / "rules")
    hexcombat.rulesets.__path__.append(rulesets)
    sys.path.insert(0, tests)
    try:
        importlib.import_module("hexcombat.rulesets.tiny")  # registers the class
        yield registry.get_ruleset("tiny")
    finally:
        hexcombat.rulesets.data.load = load
        hexcombat.rulesets.__path__.remove(rulesets)
        sys.path.remove(tests)
        registry._REGISTRY.pop("tiny", None)
        registry._ENTRIES.pop("tiny", None)
        for module in [m for m in sys.modules if m.startswith("hexcombat.rulesets.tiny")]:
            del sys.modules[module]
        for module in ("tiny_fixtures", "test_tiny_rules"):
            sys.modules.pop(module, None)


@pytest.fixture(scope="module")
def target(tiny: Ruleset, folder: Path) -> Any:
    """The coverage checks' view of it: its manifest's paths, under the throwaway folder."""
    made = tiny.manifest
    assert made is not None
    moved = dataclasses.replace(
        made,
        package=str(folder / made.package),
        data=str(folder / made.data),
        tests=str(folder / made.tests),
    )
    return COVERAGE.Target.of(tiny, moved)


def fixtures() -> Any:
    """The page's fixtures module (its set-ups and the demo's builder)."""
    return importlib.import_module("tiny_fixtures")


def test_the_page_gives_every_file_a_small_ruleset_needs_its_package_two_modules() -> None:
    names = set(page_files())
    package = {n for n in names if n.startswith("hexcombat/rulesets/tiny/")}
    assert package == {f"hexcombat/rulesets/tiny/{n}" for n in ("__init__.py", "ruleset.py")}
    assert SPEC in names
    assert {"hexcombat/rulesets/data/tiny.json", "tests/rules/tiny_fixtures.py"} <= names
    assert "tests/rules/test_tiny_rules.py" in names


def test_the_page_s_python_passes_the_linter_and_the_formatter(folder: Path) -> None:
    """What a newcomer copies from the page passes step 11's ``ruff check`` and ``ruff
    format`` as it stands (the throwaway folder holds only the page's part of the tree)."""
    ruff = Path(sys.executable).with_name("ruff")
    settings = ["--config", str(ROOT / "pyproject.toml")]
    settings += ["--config", "lint.isort.known-first-party=['hexcombat']"]
    settings += ["--config", "lint.isort.known-third-party=['demo_files', 'tiny_fixtures']"]
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [str(ruff), *command, *settings, "."],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_every_step_but_the_last_check_is_held_by_a_test_here() -> None:
    """Steps 1 to 10 each have a test below named after the step; step 11 is running them."""
    steps = re.findall(r"^(\d+)\. \*\*", PAGE.read_text(encoding="utf-8"), re.M)
    held = {int(n.split("_")[2]) for n in globals() if n.startswith("test_step_")}
    assert held == {int(n) for n in steps} - {len(steps)}


def test_step_1_the_small_ruleset_has_the_package_shape(tiny: Ruleset, folder: Path) -> None:
    files = sorted((folder / "hexcombat/rulesets/tiny").glob("*.py"))
    assert type(tiny).__module__ == "hexcombat.rulesets.tiny.ruleset" and len(files) == 2
    assert [part for part in REQUIRED if part not in {p.name for p in files}] == []
    assert [a for p in files for a in _memory_accesses(p)] == []  # OncePerStep keeps its book


def test_step_2_the_registry_and_the_lists_come_from_its_declaration(tiny: Ruleset) -> None:
    entry = next(e for e in registry.ruleset_entries() if e.id == "tiny")
    assert (entry.name, entry.summary) == (tiny.name, tiny.summary)
    assert entry.module == "hexcombat.rulesets.tiny.ruleset"
    listed = sorted(
        [*rulesets_index.built_in(), tiny], key=lambda r: rulesets_index.manifest(r).position
    )
    assert listed[-1] is tiny
    assert [rulesets_index.manifest(r).position for r in listed] == list(range(len(listed)))
    assert '        "tiny",\n        "Tiny",\n' in rulesets_index.registry_table(listed)
    assert "- [tiny](rulesets/tiny.md): move, then a d6 strike the foe may brace against.\n" in (
        rulesets_index.guide_list(listed)
    )
    assert "[tiny](docs/guide/rulesets/tiny.md)" in rulesets_index.readme_guides(listed)
    sentence = " ".join(rulesets_index.readme_sentence(listed).split())
    assert "It enforces five tabletop rulesets rule by rule, plus a small built-in one:" in sentence
    assert sentence.endswith("`two-action-2d10`, `tiny` and `skirmish`.")
    # the demo is built once the registry lists the ruleset: until then the index leaves it out
    assert '"tiny"' not in rulesets_index.demo_index(listed)


def test_step_3_its_option_settles_the_spec_gap_and_is_checked(tiny: Ruleset, target: Any) -> None:
    (option,) = tiny.options
    assert (option.name, option.rule, option.default) == ("tiny.tie_hits", "G-1", True)
    spec = page_files()[SPEC]
    assert re.search(rf"^{option.rule}: .*\n?.*`{option.name}`", spec, re.M)
    assert COVERAGE.tests(target).gaps["G-1"] == ["test_g1_a_tie_misses_when_the_option_is_off"]
    assert "| `tiny.tie_hits` | `true` | G-1 |" in COVERAGE.render(target)
    with pytest.raises(HexcombatError, match=r"tiny\.tie_hits"):
        fixtures().duel().with_options({"tiny.tie_hits": 3})


def test_step_4_the_rule_table_is_the_spec_s_headings(tiny: Ruleset) -> None:
    assert COVERAGE.spec_rules(page_files()[SPEC], "TN") == tiny.rules


def test_step_7_the_manifest_s_paths_are_the_page_s_files(tiny: Ruleset, folder: Path) -> None:
    made = tiny.manifest
    assert made is not None and (made.prefix, made.gap_letters, made.rules) == ("TN", "G", 4)
    assert made.spec == SPEC and (folder / "specs" / made.spec).is_file()
    assert (folder / made.package / "ruleset.py").is_file() and (folder / made.data).is_file()
    assert [p.name for p in folder.glob(made.tests)] == ["test_tiny_rules.py"]
    module = made.builder.split(":")[0]
    assert (folder / "tests" / "rules" / f"{module}.py").is_file()
    assert tiny.options[0].name == "tiny.tie_hits"  # the options come from the class
    # its spec reads no source text, so it keeps no sentence map
    assert _source_of(folder / "specs" / made.spec) is None


def test_step_5_every_rule_is_tested_by_id_and_implemented(target: Any, folder: Path) -> None:
    titles = COVERAGE.rule_titles(target)
    assert list(titles) == ["TN-1", "TN-2", "TN-3", "TN-4"]
    found = COVERAGE.tests(target)
    assert [rule for rule in titles if not found.rules.get(rule)] == []
    places = COVERAGE.implementations(target)
    assert [rule for rule in titles if not places.get(rule)] == []
    assert "ruleset.strike_target" in places["TN-3"]
    # the calculator's example is one tests/test_doctests.py runs, and it passes
    assert "hexcombat.rulesets.tiny.ruleset" in with_examples(folder / "hexcombat", "hexcombat")
    failed, attempted = failures(importlib.import_module("hexcombat.rulesets.tiny.ruleset"))
    assert (failed, attempted) == (0, 1)


def test_step_6_a_strike_asks_its_target_and_the_answer_rolls_its_preview(tiny: Ruleset) -> None:
    enc = fixtures().duel()
    enc.perform(Action("next_step"))
    strike = Action("strike", "ann", {"target": "bo"})
    shown = enc.preview(strike).rollables[0]
    enc.perform(strike)
    assert enc.log[-1].rolled == () and enc.state.prompt is not None  # asks, rolls nothing
    assert [s.kind for s in enc.legal_actions("bo")] == ["brace", "take"]
    assert enc.legal_actions("ann") == [] and enc.legal_actions() == []
    brace = Action("brace", "bo")
    answer = enc.preview(brace).rollables[0]
    assert [v.rollable.id for v in shown.variants] == [
        tiny.strike(enc.state, *tiny.asked(enc.state), braced=b).id for b in (False, True)
    ]
    assert answer.id == shown.variants[1].rollable.id
    enc.perform(brace, faces=[4])
    (rolled,) = enc.log[-1].rolled
    assert (rolled.rollable, rolled.outcome, rolled.faces) == (answer.id, "success", (4,))
    assert enc.state.prompt is None and enc.legal_actions("bo") == []


def test_step_8_the_page_s_tests_pass_the_worked_example_among_them(
    tiny: Ruleset, folder: Path
) -> None:
    path = folder / "tests" / "rules" / "test_tiny_rules.py"
    spec = importlib.util.spec_from_file_location("test_tiny_rules", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ran = []
    for name in sorted(n for n in vars(module) if n.startswith("test_")):
        getattr(module, name)()
        ran.append(name)
    assert "test_tn_3_e1_bo_braces_and_ann_hits_on_a_four" in ran and len(ran) == 5


@pytest.mark.parametrize("which", ["demo", "four"])
def test_step_10_seeded_games_keep_every_conformance_invariant(tiny: Ruleset, which: str) -> None:
    enc = fixtures().demo() if which == "demo" else games.four("tiny", 3)
    tally = inv.Tally()
    problems = games.play(enc, random.Random(f"tiny/{which}"), GAMES, tally)
    assert problems == []
    assert tally.actions >= 20, tally
    assert which == "demo" or tally.rollables > 0, tally  # face to face, they strike


def test_step_9_the_demo_saves_and_replays_exactly(tiny: Ruleset) -> None:
    enc: Encounter = fixtures().demo()
    assert enc.setup.name == "Across the wood" and len(enc.setup.figures) == 4
    assert tiny.manifest is not None and tiny.manifest.builder == "tiny_fixtures:demo"
    mover = next(s for s in enc.legal_actions("a1") if s.kind == "move")
    enc.perform(games.action_for(mover, random.Random(1).randrange, unoffered=False))
    again = loads(dumps(enc))
    assert dumps(again) == dumps(enc) and again.state.figures == enc.state.figures
