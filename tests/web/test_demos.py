"""The demo encounters the site ships: listed in static/demos/index.json, each loads cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_skirmish import skirmish_demo

from hexcombat import loads, to_document
from hexcombat.rulesets import all_rulesets

DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"
FIELDS = {"ruleset", "file", "title", "description"}
OPTIONAL = {"first_visit"}
"""``first_visit: true`` marks the demo a first visit opens (tried before the others)."""


def listed() -> list[dict[str, str]]:
    """The entries of the demo index."""
    data = json.loads((DEMOS / "index.json").read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def test_index_entries_have_every_field_and_one_demo_per_ruleset() -> None:
    entries = listed()
    known = {r.id for r in all_rulesets()}
    for entry in entries:
        assert FIELDS <= set(entry) <= FIELDS | OPTIONAL, entry
        assert all(isinstance(entry[k], str) and entry[k].strip() for k in FIELDS), entry
        assert isinstance(entry.get("first_visit", False), bool), entry
        assert entry["ruleset"] in known, entry
        assert "/" not in entry["file"] and entry["file"].endswith(".json"), entry
    rulesets = [e["ruleset"] for e in entries]
    assert len(rulesets) == len(set(rulesets)), "one demo per ruleset"
    assert "skirmish" in rulesets
    assert sum(bool(e.get("first_visit")) for e in entries) <= 1, "one demo opens first"


@pytest.mark.parametrize("entry", listed(), ids=lambda e: e["file"])
def test_every_listed_demo_loads_without_problems(entry: dict[str, str]) -> None:
    text = (DEMOS / entry["file"]).read_text(encoding="utf-8")
    encounter = loads(text)
    assert encounter.ruleset.id == entry["ruleset"]
    assert encounter.setup.name == entry["title"]
    assert encounter.setup.figures, "a demo shows a fight"


def test_fig_percentile_demo_is_listed_when_present() -> None:
    if (DEMOS / "fig-percentile.json").exists():
        assert "fig-percentile.json" in [e["file"] for e in listed()], (
            "static/demos/fig-percentile.json exists: list it in static/demos/index.json "
            "(ruleset, file, title = the encounter's name, one-line description)"
        )
    else:
        assert "fig-percentile.json" not in [e["file"] for e in listed()]


def test_skirmish_demo_file_is_what_the_generator_builds() -> None:
    committed = loads((DEMOS / "skirmish.json").read_text(encoding="utf-8"))
    assert to_document(committed) == to_document(skirmish_demo())


def test_skirmish_demo_has_two_sides_and_every_terrain() -> None:
    enc = skirmish_demo()
    assert {f.side for f in enc.setup.figures} == {"Wardens", "Raiders"}
    painted = set(enc.setup.board.to_json()["terrain"].values())
    assert painted == {"woods", "water", "hill", "wall"}


@pytest.mark.parametrize("entry", listed(), ids=lambda e: e["file"])
def test_a_demo_that_says_press_redo_opens_at_its_start_with_steps_to_redo(
    entry: dict[str, str],
) -> None:
    """The demos' "Press Redo to step through it" is true: such a demo opens at its start (the
    cursor at 0) with a logged fight for Redo to replay; a demo without one never says so."""
    encounter = loads((DEMOS / entry["file"]).read_text(encoding="utf-8"))
    says = "Press Redo to step through it." in entry["description"]
    assert "press redo" not in entry["description"].replace("Press Redo", "").lower()
    assert says == (encounter.cursor == 0 and encounter.can_redo), entry["file"]
