"""Every example in a docstring of the engine (``>>>``) runs and gives what it shows: the
calculators' examples of every ruleset among them, so an example is never left unrun."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "hexcombat"


def with_examples(folder: Path, package: str) -> list[str]:
    """The modules under ``folder`` (the package ``package``) whose source shows an example."""
    names = []
    for path in sorted(folder.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(folder).with_suffix("").parts
            names.append(".".join((package, *parts)).removesuffix(".__init__"))
    return names


def failures(module: ModuleType) -> tuple[int, int]:
    """(failed, attempted) for the examples of ``module``."""
    result = doctest.testmod(module, report=False)
    return result.failed, result.attempted


@pytest.mark.parametrize("name", with_examples(ENGINE, "hexcombat"))
def test_every_docstring_example_runs(name: str) -> None:
    failed, attempted = failures(importlib.import_module(name))
    assert attempted > 0 and failed == 0
