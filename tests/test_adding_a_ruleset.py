"""docs/dev/adding-a-ruleset.md's small ruleset, built from the page alone.

Its files are taken from the page's "A small ruleset, whole" blocks, written into a
throwaway package (``hexcombat.rulesets.tiny``, from a temporary folder), registered, and
held to the generic checks the built-in rulesets meet: the package shape, the registry's
entry, the lists ``tests/rulesets_index.py`` writes, seeded random games under every
conformance invariant from its demo and from a four-figure start, and an exact replay.
The registry is left as it was.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rulesets_index
from test_ruleset_shape import REQUIRED, _memory_accesses

import hexcombat.rulesets
import hexcombat.rulesets.data
from hexcombat import Encounter, dumps, loads
from hexcombat.rulesets import Ruleset, registry

sys.path.insert(0, str(Path(__file__).resolve().parent / "conformance"))
import games
import invariants as inv

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "dev" / "adding-a-ruleset.md"
FILE_BLOCK = re.compile(
    r"^`([\w/<>.]+)`[^\n]*(?:\n[^\n`][^\n]*)*\n\n```(?:py|json)\n(.*?)```", re.S | re.M
)
"""A file's name in backquotes opening a paragraph, then its block."""
GAMES = games.Mode(
    games=1, actions=40, exact_ways=500, samples=100, sampled=4, face_ways=50, face_actions=2
)


def page_files() -> dict[str, str]:
    """The small ruleset's files as the page gives them: name -> text."""
    section = PAGE.read_text(encoding="utf-8").split("## A small ruleset, whole", 1)[1]
    return {name: body for name, body in FILE_BLOCK.findall(section)}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ruleset]:
    """The page's ruleset, registered for this module's tests, then taken out again."""
    folder = tmp_path_factory.mktemp("newcomer")
    data: dict[str, Any] = {}
    for name, text in page_files().items():
        if name.endswith(".json"):
            data = json.loads(text)
            continue
        path = folder / name  # the package's files, and the demo's builder beside them
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    load = hexcombat.rulesets.data.load
    hexcombat.rulesets.data.load = lambda name: data if name == "tiny" else load(name)
    hexcombat.rulesets.__path__.append(str(folder))
    sys.path.insert(0, str(folder))
    try:
        importlib.import_module("hexcombat.rulesets.tiny")  # registers the class
        yield registry.get_ruleset("tiny")
    finally:
        hexcombat.rulesets.data.load = load
        hexcombat.rulesets.__path__.remove(str(folder))
        sys.path.remove(str(folder))
        registry._REGISTRY.pop("tiny", None)
        registry._ENTRIES.pop("tiny", None)
        for module in [m for m in sys.modules if m.startswith("hexcombat.rulesets.tiny")]:
            del sys.modules[module]
        sys.modules.pop("tiny_demo", None)


def demo() -> Encounter:
    """The page's demo, as its builder makes it."""
    built: Encounter = importlib.import_module("tiny_demo").demo()
    return built


def test_the_page_gives_every_file_a_small_ruleset_needs() -> None:
    names = set(page_files())
    assert {"tiny/__init__.py", "tiny/options.py", "tiny/ruleset.py"} <= names
    assert any(n.endswith(".json") for n in names) and "tiny_demo.py" in names


def test_the_small_ruleset_has_the_package_shape(tiny: Ruleset) -> None:
    package = Path(type(tiny).__module__.replace(".", "/")).parent.name
    assert package == "tiny" and tiny.manifest is not None
    modules = [p for p in hexcombat.rulesets.__path__ if (Path(p) / package).is_dir()]
    files = sorted((Path(modules[-1]) / package).glob("*.py"))
    assert [part for part in REQUIRED if part not in {p.name for p in files}] == []
    assert [a for p in files for a in _memory_accesses(p)] == []  # OncePerStep keeps its book
    assert tiny.manifest.package == "hexcombat/rulesets/tiny"
    assert tiny.manifest.options_module == "hexcombat.rulesets.tiny.options"


def test_the_registry_lists_it_from_its_declaration(tiny: Ruleset) -> None:
    entry = next(e for e in registry.ruleset_entries() if e.id == "tiny")
    assert (entry.name, entry.summary) == (tiny.name, tiny.summary)
    assert entry.module == "hexcombat.rulesets.tiny.ruleset"
    listed = sorted(
        [*rulesets_index.built_in(), tiny], key=lambda r: rulesets_index.manifest(r).position
    )
    assert listed[-1] is tiny
    assert '        "tiny",\n        "Tiny",\n' in rulesets_index.registry_table(listed)
    assert "- [tiny](rulesets/tiny.md): move, then a d6 strike.\n" in (
        rulesets_index.guide_list(listed)
    )
    sentence = " ".join(rulesets_index.readme_sentence(listed).split())
    assert "rule by rule, plus two small built-in ones:" in sentence
    assert sentence.endswith("`two-action-2d10`, `skirmish` and `tiny`.")


@pytest.mark.parametrize("which", ["demo", "four"])
def test_seeded_games_keep_every_conformance_invariant(tiny: Ruleset, which: str) -> None:
    enc = demo() if which == "demo" else games.four("tiny", 3)
    tally = inv.Tally()
    problems = games.play(enc, random.Random(f"tiny/{which}"), GAMES, tally)
    assert problems == []
    assert tally.actions >= 20, tally
    assert which == "demo" or tally.rollables > 0, tally  # face to face, they strike


def test_the_demo_saves_and_replays_exactly(tiny: Ruleset) -> None:
    enc = demo()
    assert enc.setup.name == "Across the wood" and len(enc.setup.figures) == 4
    mover = next(s for s in enc.legal_actions("a1") if s.kind == "move")
    enc.perform(games.action_for(mover, random.Random(1).randrange, unoffered=False))
    again = loads(dumps(enc))
    assert dumps(again) == dumps(enc) and again.state.figures == enc.state.figures
