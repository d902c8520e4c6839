"""Every ruleset package has the shape docs/architecture.md shows once ("The shape of a
ruleset package"): an ``__init__.py`` and the class in the package (one module or split by
concept, the names free), typed bookkeeping over the shared memory bases as the only code
that names a memory key, and whole numbers read through the shared helpers."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest
from kit import KitDuel
from source_trees import source_tree

from hexcombat.rulesets import Ruleset, all_rulesets
from hexcombat.rulesets.common.memory import Memory

ROOT = Path(__file__).resolve().parents[1]
REQUIRED = ("__init__.py",)
RULESETS: list[Ruleset] = [*all_rulesets(), KitDuel()]


def package(ruleset: Ruleset) -> Path:
    """The folder of the ruleset's package (its manifest's ``package``)."""
    return ROOT / ruleset.manifest.package


def modules(ruleset: Ruleset) -> list[Path]:
    return sorted(package(ruleset).glob("*.py"))


def _ids(ruleset: Ruleset) -> str:
    return ruleset.id


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_every_package_has_the_required_parts(ruleset: Ruleset) -> None:
    names = {p.name for p in modules(ruleset)}
    assert [part for part in REQUIRED if part not in names] == []


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_the_class_lives_in_its_package(ruleset: Ruleset) -> None:
    module = importlib.import_module(type(ruleset).__module__)
    assert module.__file__ is not None and Path(module.__file__).parent == package(ruleset)


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=_ids)
def test_a_state_py_declares_the_bookkeeping_over_the_shared_memory(ruleset: Ruleset) -> None:
    """A package split by concept keeps its own bookkeeping in ``state.py``; one whose figures
    act once per step (``common/once_per_step.py``) may keep none."""
    name = ruleset.manifest.module + ".state"
    if importlib.util.find_spec(name) is None:
        return
    state = importlib.import_module(name)
    books = [v for v in vars(state).values() if isinstance(v, type) and issubclass(v, Memory)]
    assert [b for b in books if b.__module__ == state.__name__], state.__name__


def _memory_accesses(path: Path) -> list[str]:
    tree = source_tree(path)
    return [
        f"{path.name}:{n.lineno}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr == "memory"
    ]


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_no_module_of_a_ruleset_names_a_memory_key(ruleset: Ruleset) -> None:
    """The memory is read and written only through the typed bases of
    ``hexcombat/rulesets/common/memory.py``, whichever module declares the bookkeeping."""
    assert [a for p in modules(ruleset) for a in _memory_accesses(p)] == []


def _bool_checks(path: Path) -> list[str]:
    tree = source_tree(path)
    return [
        f"{path.name}:{n.lineno}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "isinstance"
        and len(n.args) == 2
        and isinstance(n.args[1], ast.Name)
        and n.args[1].id == "bool"
    ]


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_whole_numbers_are_read_through_the_shared_helpers(ruleset: Ruleset) -> None:
    found = [c for p in modules(ruleset) for c in _bool_checks(p)]
    assert found == []  # use hexcombat.rulesets.common.int_or / is_int


def test_the_checks_see_a_memory_access_and_a_bool_check(tmp_path: Path) -> None:
    source = tmp_path / "flow.py"
    source.write_text(
        'x = state.memory["done"]\nok = isinstance(v, int) and not isinstance(v, bool)\n'
    )
    assert _memory_accesses(source) == ["flow.py:1"]
    assert _bool_checks(source) == ["flow.py:2"]


STAT_READERS = ROOT / "hexcombat/rulesets/common/stats.py"
GENERIC_CHECKS = ROOT / "hexcombat/rulesets/base.py"  # every declared field, by its spec


def _stats_accesses(path: Path) -> list[str]:
    tree = source_tree(path)
    lines = sorted(
        n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "stats"
    )
    return [f"{path.name}:{line}" for line in lines]


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_stats_are_read_only_through_typed_readers(ruleset: Ruleset) -> None:
    readers = [p for p in modules(ruleset) if p.name != "demo.py"]  # the kit's demo set-up
    found = [a for p in readers for a in _stats_accesses(p)]
    assert found == []  # declare the stat once (IntStat, TextStat, ...) and read STAT(figure)


def test_only_the_readers_and_the_generic_checks_name_stats() -> None:
    paths = sorted((ROOT / "hexcombat/rulesets").rglob("*.py"))
    found = [
        a for p in paths if p not in (STAT_READERS, GENERIC_CHECKS) for a in _stats_accesses(p)
    ]
    assert found == []


def test_the_stats_check_sees_a_read_a_lookup_and_a_write(tmp_path: Path) -> None:
    source = tmp_path / "combat.py"
    source.write_text('a = f.stats.get("cs")\nb = f.stats["hp"]\nitem.stats["broken"] = True\n')
    assert _stats_accesses(source) == ["combat.py:1", "combat.py:2", "combat.py:3"]
