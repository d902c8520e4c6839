"""Every ruleset the tests hold to the same checks, read from the registry: the built-in
ones and the test-only ``kit-duel``, each with its manifest (``Ruleset.manifest``)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from hexcombat import Encounter, loads
from hexcombat.rulesets import Ruleset, all_rulesets, registry
from hexcombat.rulesets.manifest import Manifest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DEMOS = ROOT / "static" / "demos"
for folder in (TESTS / "rules", TESTS / "web", TESTS):  # where the builders live
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from kit import KitDuel  # noqa: E402

TEST_ONLY: tuple[Ruleset, ...] = (KitDuel(),)
"""Rulesets the app never registers but the tests hold to the same checks."""


@contextmanager
def test_only_registered() -> Iterator[None]:
    """The test-only rulesets registered for a while (encounters of them open by id), then
    unregistered again so that the rest of the run sees the app's registry."""
    added = [r.id for r in TEST_ONLY if r.id not in registry._REGISTRY]
    for ruleset in TEST_ONLY:
        registry._REGISTRY.setdefault(ruleset.id, ruleset)
    try:
        yield
    finally:
        for ruleset_id in added:
            del registry._REGISTRY[ruleset_id]


def every_ruleset() -> list[Ruleset]:
    """Every registered ruleset, then the test-only ones."""
    built_in = all_rulesets()
    return built_in + [r for r in TEST_ONLY if r.id not in {b.id for b in built_in}]


def every_id() -> list[str]:
    """The ids of :func:`every_ruleset`."""
    return [r.id for r in every_ruleset()]


def manifest(ruleset_id: str) -> Manifest:
    """The ruleset's manifest (AssertionError when it declares none)."""
    found = next(r for r in every_ruleset() if r.id == ruleset_id).manifest
    assert found is not None, f"ruleset {ruleset_id!r} declares no manifest"
    return found


def builder(ruleset_id: str) -> Callable[[], Encounter]:
    """The function the manifest names as the builder of the ruleset's demo."""
    built: Callable[[], Encounter] = function(manifest(ruleset_id).builder)
    return built


def function(name: str) -> Callable[..., Encounter]:
    """The builder a manifest names as ``module:function`` (importable from ``tests/``)."""
    module, _, attr = name.partition(":")
    found: Callable[..., Encounter] = getattr(importlib.import_module(module), attr)
    return found


def demo(ruleset_id: str) -> Encounter:
    """The ruleset's demo as the app opens it (its file), else as its builder makes it;
    AssertionError when it has neither: a ruleset without a demo fails, never skips."""
    m = manifest(ruleset_id)
    assert m.builder, f"ruleset {ruleset_id!r} names no demo builder in its manifest"
    if m.demo:
        return loads((DEMOS / m.demo).read_text(encoding="utf-8"))
    with test_only_registered():
        return builder(ruleset_id)()
