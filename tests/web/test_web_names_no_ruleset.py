"""``web/`` names no ruleset: its words, units, badges and demo order come from the engine.

For every registered ruleset this collects its id (dash and underscore forms), its action
kinds (its ``do_<kind>`` methods, except those every ruleset inherits, such as
``next_step``), its step ids and the keys of its figure view (from a new figure and from
every state of its demo encounters), then scans every source file of ``web/``:

- a ruleset id anywhere (code, comment or markup) is a hit;
- an action kind, step id or figure-view key is a hit as a whole quoted string
  (``"move"``, ``'actions_left'``) or as a ``data-...="..."`` value: the page may say
  "Move here" when the engine gives it those words, but never decides by a ruleset's names.

A name that is also the engine's own word for every ruleset (a field of its figure,
equipment, status or pool data, such as equipment's ``loaded``) is not a ruleset's name.
"""

from __future__ import annotations

import dataclasses
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


def engine_words() -> set[str]:
    """The engine's own names for figure data, the same for every ruleset."""
    return {f.name for cls in (Figure, Equipment, Pool, Status) for f in dataclasses.fields(cls)}


def ruleset_names() -> dict[str, set[str]]:
    """What to look for: 'ids' (anywhere) and 'names' (as whole quoted strings)."""
    ids: set[str] = set()
    names: set[str] = set()
    for r in all_rulesets():
        ids |= {r.id, r.id.replace("-", "_"), r.id.replace("_", "-")}
        names |= action_kinds(r) | step_ids(r) | figure_view_keys(r)
    return {"ids": ids, "names": names - engine_words()}


NAMES = ruleset_names()


def hits(text: str) -> list[str]:
    """Every ruleset name ``text`` uses, with its line number."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        lowered = line.lower()
        found += [f"{number}: ruleset id {i!r}" for i in NAMES["ids"] if i.lower() in lowered]
        for quoted in re.findall(r"""(["'])([A-Za-z_][\w-]*)\1""", line):
            if quoted[1] in NAMES["names"]:
                found.append(f"{number}: {quoted[1]!r}")
    return found


def test_the_names_are_collected() -> None:
    assert {"skirmish", "fig-percentile", "fig_percentile"} <= NAMES["ids"]
    assert {"move", "plan_move", "attack", "declare", "actions_left"} <= NAMES["names"]
    assert "next_step" not in NAMES["names"]  # every ruleset's common action


def test_the_scan_finds_a_ruleset_name() -> None:
    assert hits('MOVE_WORDS = ("move", "plan_move")') == ["1: 'move'", "1: 'plan_move'"]
    assert hits("# the fig-percentile demo first") == ["1: ruleset id 'fig-percentile'"]
    assert hits('listen(svg, "pointermove", on_move)  # Move here') == []


@pytest.mark.parametrize("path", web_sources(), ids=lambda p: str(p.relative_to(WEB)))
def test_web_names_no_ruleset(path: Path) -> None:
    found = hits(path.read_text(encoding="utf-8"))
    assert not found, f"web/{path.relative_to(WEB)} names a ruleset: " + "; ".join(found)


def test_demo_order_is_data() -> None:
    listed = json.loads((DEMOS / "index.json").read_text(encoding="utf-8"))
    assert sum(bool(d.get("first_visit")) for d in listed) == 1
