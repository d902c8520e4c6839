"""A ruleset's manifest: where its spec, code, data, tests and demo live.

Each ruleset declares one (``Ruleset.manifest``) beside its identity; the rule coverage
tables (``tests/rules/coverage.py``), the demo checks and the conformance suite
(``tests/conformance/``) read it from the registry instead of keeping their own tables.
Paths are relative to the repository; ``builder`` names a function of the test tree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Manifest:
    """Where a ruleset's parts live outside its class.

    ``prefix`` is the spec's rule id prefix ("FP" for ``FP-12``; empty: the ruleset has no
    rules spec and no coverage table), ``gap_letters`` the letters of its gap,
    inconsistency and reading ids (``G-3``, ``I-1``), ``spec`` the spec's file name in the
    spec folder and ``rules`` how many rules it numbers. ``demo`` is the demo file under
    ``static/demos/`` (empty for a test-only ruleset) and ``builder`` the function that
    builds it, ``module:function`` importable from ``tests/``
    (``two_action_2d10_fixtures:demo``). ``starts`` name further builders
    (``module:function(seed)``) the conformance suite plays games from, where the demo and
    the four-figure start leave part of the ruleset unplayed (combat-speed-phase's default
    is movement only, so armed figures under the borrowed resolution play its strikes).
    """

    package: str
    builder: str
    demo: str = ""
    prefix: str = ""
    gap_letters: str = "GI"
    spec: str = ""
    rules: int = 0
    data: str = ""
    tests: str = ""
    options_module: str = ""
    starts: tuple[str, ...] = ()
