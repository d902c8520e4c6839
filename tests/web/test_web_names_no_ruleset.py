"""``web/`` names no ruleset: its words, units, badges and demo order come from the engine.

For every registered ruleset this collects its id (dash and underscore forms), its action
kinds (its ``do_<kind>`` methods, except those every ruleset inherits, such as
``next_step``), its step ids and the keys of its figure view (from a new figure and from
every state of its demo encounters), then scans every source file of ``web/``:

- a ruleset id anywhere (code, comment or markup) is a hit, as a whole word;
- an action kind, step id or figure-view key is a hit only where the page would decide by
  it: in Python, a string compared (``kind == "move"``, ``step in ("act", ...)``), looked
  up (``view["actions_left"]``, ``.get("mode")``), used as a dict key or a ``case``; in
  markup, scripts and styles, a ``data-...="..."`` value, a ``[data-...="..."]`` selector
  or a ``===`` comparison. The same word as the page's own text or value (a label
  "Done", a CSS ``display: block``, a button "First") is no hit: ordinary words stay
  usable whatever ids a ruleset picks.

A name that is also the engine's own word for every ruleset (a field of its figure,
equipment, status or pool data, such as equipment's ``loaded``, or a key of the engine's
views, such as a step's ``done``) is not a ruleset's name.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import re
from pathlib import Path

import pytest

from hexcombat import loads
from hexcombat.figures import Equipment, Figure, Pool, Status
from hexcombat.geometry import Hex
from hexcombat.rulesets import Ruleset, all_rulesets
from hexcombat.view import empty_encounter, encounter_view, ruleset_view

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
DEMOS = ROOT / "static" / "demos"
SUFFIXES = {".py", ".html", ".js", ".mjs", ".json", ".css"}
NOT_SOURCES = {"package.json", "package-lock.json"}


def web_sources() -> list[Path]:
    """Every source file of ``web/`` (not node_modules)."""
    return [
        p
        for p in sorted(WEB.rglob("*"))
        if p.is_file()
        and p.suffix in SUFFIXES
        and p.name not in NOT_SOURCES
        and "node_modules" not in p.parts
        and "__pycache__" not in p.parts
    ]


def action_kinds(ruleset: Ruleset) -> set[str]:
    """The ruleset's own action kinds (its ``do_<kind>`` handlers beyond the base class's)."""
    common = {k for k in dir(Ruleset) if k.startswith("do_")}
    return {k[3:] for k in dir(ruleset) if k.startswith("do_") and k not in common}


def step_ids(ruleset: Ruleset) -> set[str]:
    """The ids of the ruleset's steps, as its view lists them."""
    return {str(s["id"]) for s in ruleset_view(ruleset).get("steps", []) if isinstance(s, dict)}


def figure_view_keys(ruleset: Ruleset) -> set[str]:
    """Keys of the ruleset's figure view: a new figure's, and every state of its demos'."""
    enc = empty_encounter(6, 6).with_setup(ruleset=ruleset.id)
    enc = enc.with_figure(ruleset.new_figure("a", "A", "Blue", Hex(1, 1)))
    keys = set()
    for f in encounter_view(enc)["figures"]:
        keys |= set(f["extra"])
    for path in sorted(DEMOS.glob("*.json")):
        if path.name == "index.json":
            continue
        demo = loads(path.read_text(encoding="utf-8"))
        if demo.ruleset.id != ruleset.id:
            continue
        while demo.can_undo:
            demo.undo()
        while True:
            for f in encounter_view(demo)["figures"]:
                keys |= set(f["extra"])
            if not demo.can_redo:
                break
            demo.redo()
    return keys


def _keys(value: object) -> set[str]:
    """Every dict key in a view, except under a figure's ``extra`` (the ruleset's own keys)."""
    if isinstance(value, dict):
        return set(value) | {k for key, v in value.items() if key != "extra" for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def engine_words() -> set[str]:
    """The engine's own names, the same for every ruleset: the fields of figure data and the
    keys every ruleset's views share (an encounter's, a ruleset's); a key only some rulesets'
    views have (an action kind keying its words) stays a ruleset's name."""
    shared: set[str] | None = None
    for r in all_rulesets():
        enc = empty_encounter(6, 6).with_setup(ruleset=r.id)
        enc = enc.with_figure(r.new_figure("a", "A", "Blue", Hex(1, 1)))
        keys = _keys(encounter_view(enc)) | _keys(ruleset_view(r))
        shared = keys if shared is None else shared & keys
    fields = {f.name for cls in (Figure, Equipment, Pool, Status) for f in dataclasses.fields(cls)}
    return fields | (shared or set())


@functools.cache
def ruleset_names() -> dict[str, set[str]]:
    """What to look for: 'ids' (anywhere) and 'names' (as whole quoted strings); worked out
    once, by the first test that needs it (not while pytest collects, in every worker)."""
    ids: set[str] = set()
    names: set[str] = set()
    for r in all_rulesets():
        ids |= {r.id, r.id.replace("-", "_"), r.id.replace("_", "-")}
        names |= action_kinds(r) | step_ids(r) | figure_view_keys(r)
    return {"ids": ids, "names": names - engine_words()}


def _id_hits(text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        lowered = line.lower()
        found += [
            f"{number}: ruleset id {i!r}"
            for i in sorted(ruleset_names()["ids"])
            if re.search(rf"(?<![\w-]){re.escape(i.lower())}(?![\w-])", lowered)
        ]
    return found


def _decided(node: ast.AST) -> list[ast.expr]:
    """The expressions whose string value the code decides by at ``node``."""
    if isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
        return [
            e
            for p in parts
            for e in ([*p.elts] if isinstance(p, ast.Tuple | ast.List | ast.Set) else [p])
        ]
    if isinstance(node, ast.Subscript):
        return [node.slice]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        return [node.args[0]] if node.func.attr in ("get", "pop", "setdefault") else []
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None]
    if isinstance(node, ast.MatchValue):
        return [node.value]
    return []


def _python_hits(text: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(text)):
        for e in _decided(node):
            if (
                isinstance(e, ast.Constant)
                and isinstance(e.value, str)
                and e.value in ruleset_names()["names"]
            ):
                found.append(f"{e.lineno}: {e.value!r}")
    return sorted(set(found), key=lambda f: (int(f.split(":")[0]), f))


MARKUP = re.compile(
    r"""data-[\w-]+\s*=\s*["']([\w-]+)["']"""  # an attribute value or a [data-...="..."] selector
    r"""|[!=]==?\s*["']([\w-]+)["']|["']([\w-]+)["']\s*[!=]==?"""  # a comparison
    r"""|\bcase\s+["']([\w-]+)["']"""  # a switch case
)


def _markup_hits(text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for groups in MARKUP.findall(line):
            found += [f"{number}: {w!r}" for w in groups if w in ruleset_names()["names"]]
    return found


def hits(text: str, python: bool = True) -> list[str]:
    """Every ruleset name ``text`` uses, with its line number (``python``: the text is
    Python source, else markup, script or style)."""
    names = _python_hits(text) if python else _markup_hits(text)
    return _id_hits(text) + names


def test_the_names_are_collected() -> None:
    assert {"skirmish", "fig-percentile", "fig_percentile"} <= ruleset_names()["ids"]
    assert {"move", "plan_move", "attack", "declare", "actions_left"} <= ruleset_names()["names"]
    assert "next_step" not in ruleset_names()["names"]  # every ruleset's common action
    assert {"label", "steps", "acting"} <= engine_words()  # keys of every ruleset's views


def test_the_scan_finds_a_ruleset_name_where_the_page_decides_by_it() -> None:
    assert hits('if kind in ("move", "plan_move"):\n    pass') == ["1: 'move'", "1: 'plan_move'"]
    assert hits('left = view["actions_left"]') == ["1: 'actions_left'"]
    assert hits('moved = figure.get("hexes_moved")') == ["1: 'hexes_moved'"]
    assert hits('match kind:\n    case "attack":\n        pass') == ["2: 'attack'"]
    assert hits("# the fig-percentile demo first") == ["1: ruleset id 'fig-percentile'"]
    assert hits('<button data-action="parry">', python=False) == ["1: 'parry'"]
    assert hits('if (kind === "charge") {}', python=False) == ["1: 'charge'"]
    assert hits('[data-step="declare"] { color: red }', python=False) == ["1: 'declare'"]


def test_ordinary_words_are_no_hit_as_the_pages_own_text_or_values() -> None:
    assert hits('listen(svg, "pointermove", on_move)  # Move here') == []
    assert hits('label = "Move"\nstyle = "display: block"\nwords = ("free", "stop", "take")') == []
    assert hits('button(f"{name}: pass", "first", done=True)') == []
    assert hits("# a skirmishing party") == []  # an id only as a whole word
    assert hits(".panel { display: block } /* free text: move, stop */", python=False) == []


@pytest.mark.parametrize("path", web_sources(), ids=lambda p: str(p.relative_to(WEB)))
def test_web_names_no_ruleset(path: Path) -> None:
    found = hits(path.read_text(encoding="utf-8"), python=path.suffix == ".py")
    assert not found, f"web/{path.relative_to(WEB)} names a ruleset: " + "; ".join(found)


def test_demo_order_is_data() -> None:
    listed = json.loads((DEMOS / "index.json").read_text(encoding="utf-8"))
    assert sum(bool(d.get("first_visit")) for d in listed) == 1
