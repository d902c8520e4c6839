"""A ruleset's manifest: where its spec, code, data, tests and demo live, and how it is listed.

Each ruleset declares one (``Ruleset.manifest``) beside its identity (id, name, summary);
together they are the ruleset's one declaration. The rule coverage tables
(``tests/rules/coverage.py``), the demo checks and the conformance suite
(``tests/conformance/``) read it from the registry instead of keeping their own tables, and
``tests/rulesets_index.py`` writes the registry's table of built-in rulesets, the demo index
and the lists of rulesets in the READMEs from it. Paths are relative to the repository;
``builder`` names a function of the test tree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Manifest:
    """Where a ruleset's parts live outside its class, and how the app and docs list it.

    ``prefix`` is the spec's rule id prefix ("FP" for ``FP-12``; empty: the ruleset has no
    rules spec and no coverage table), ``gap_letters`` the letters of its gap,
    inconsistency and reading ids (``G-3``, ``I-1``), ``spec`` the spec's file name in the
    spec folder and ``rules`` how many rules it numbers. ``demo`` is the demo file under
    ``static/demos/`` (empty for a test-only ruleset) and ``builder`` the function that
    builds it, ``module:function`` importable from ``tests/`` (a module in ``tests/rules/``,
    ``tests/web/`` or ``tests/``: ``two_action_2d10_fixtures:demo``). ``starts`` name further
    builders (``module:function(seed)``) the conformance suite plays games from, where the
    demo and the four-figure start leave part of the ruleset unplayed (combat-speed-phase's
    default is movement only, so armed figures under the borrowed resolution play its
    strikes). ``position`` is where the app lists the ruleset (0 first), ``tagline`` its
    one line in the players' guide's list and ``demo_about`` the demo index's one-line
    description of its demo (the demo's title is its encounter's name).
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
    starts: tuple[str, ...] = ()
    position: int = 0
    tagline: str = ""
    demo_about: str = ""

    @property
    def module(self) -> str:
        """The package as a module name: what the registry imports to register the ruleset."""
        return self.package.replace("/", ".")

    @classmethod
    def built_in(
        cls,
        ruleset_id: str,
        builder: str = "",
        *,
        position: int,
        tagline: str,
        demo_about: str,
        prefix: str = "",
        gap_letters: str = "GI",
        rules: int = 0,
        starts: tuple[str, ...] = (),
    ) -> Manifest:
        """The manifest of a ruleset under ``hexcombat/rulesets/``, its paths derived from its
        id: package ``hexcombat/rulesets/<pkg>`` (``<pkg>``: the id with ``_`` for ``-``), data
        ``hexcombat/rulesets/data/<pkg>.json``, demo ``<id>.json`` built by ``builder``
        (``<pkg>_fixtures:demo`` unless named: ``demo`` in ``tests/rules/<pkg>_fixtures.py``);
        with a rules spec (``prefix``) also the spec ``<id>.md`` and the tests
        ``tests/rules/test_<pkg>_*.py``."""
        package = ruleset_id.replace("-", "_")
        return cls(
            package=f"hexcombat/rulesets/{package}",
            builder=builder or f"{package}_fixtures:demo",
            demo=f"{ruleset_id}.json",
            prefix=prefix,
            gap_letters=gap_letters,
            spec=f"{ruleset_id}.md" if prefix else "",
            rules=rules,
            data=f"hexcombat/rulesets/data/{package}.json",
            tests=f"tests/rules/test_{package}_*.py" if prefix else "",
            starts=starts,
            position=position,
            tagline=tagline,
            demo_about=demo_about,
        )
