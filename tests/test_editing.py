"""The editor's set-up helpers: catalogue of data-table items and new copies of them."""

from __future__ import annotations

import pytest

from hexcombat import Encounter, Hex, IllegalActionError, InvalidDocumentError
from hexcombat.editing import catalogue, new_item
from hexcombat.rulesets import all_rulesets, get_ruleset

pytestmark = pytest.mark.pyodide


def test_a_ruleset_without_item_tables_offers_nothing() -> None:
    rs = get_ruleset("skirmish")
    assert catalogue(rs.default_data()) == []
    with pytest.raises(IllegalActionError, match="items: none"):
        new_item(rs, rs.default_data(), "Sword")


def test_catalogue_lists_weapons_then_spells_with_their_kind() -> None:
    data = {
        "spells": {"Spark": {"note": "placeholder", "house_default": True}},
        "weapons": {"Club": {"damage": "d6"}, "Bad": 3},
        "notes": {"x": {}},
    }
    assert catalogue(data) == [
        {"name": "Club", "kind": "weapon", "table": "weapons", "facts": "damage d6"},
        {
            "name": "Spark",
            "kind": "spell",
            "table": "spells",
            "house_default": True,
            "note": "placeholder",
        },
    ]


def test_new_item_without_a_ruleset_builder_copies_the_entry() -> None:
    rs = get_ruleset("skirmish")
    data = {"weapons": {"Club": {"damage": "d6", "tags": ["blunt"]}}}
    item = new_item(rs, data, "Club")
    assert (item.name, item.kind, item.state, item.loaded) == ("Club", "weapon", "carried", None)
    assert item.stats == {"damage": "d6", "tags": ["blunt"]}
    item.stats["tags"].append("changed")  # type: ignore[union-attr]
    assert data["weapons"]["Club"]["tags"] == ["blunt"]


@pytest.mark.skipif(
    "fig-percentile" not in {r.id for r in all_rulesets()}, reason="needs fig-percentile"
)
def test_new_item_uses_the_rulesets_builder_and_the_engine_still_checks_skills() -> None:
    enc = Encounter.new("fig-percentile", 6, 6)
    rs = enc.ruleset
    data = rs.default_data()
    names = [e["name"] for e in catalogue(data)]
    assert "Crossbow" in names and "Spark" in names
    crossbow = new_item(rs, data, "Crossbow")
    assert crossbow.kind == "weapon" and crossbow.loaded is True
    fig = rs.new_figure("a", "Archer", "Blue", Hex(1, 1))
    fig.equipment.append(crossbow)
    with pytest.raises(InvalidDocumentError, match="no 'Crossbow' skill"):
        enc.with_figure(fig)
    fig.skills["Crossbow"] = 60
    assert enc.with_figure(fig).setup.figures[0].equipment[0].name == "Crossbow"
    with pytest.raises(IllegalActionError, match="Crossbow"):
        new_item(rs, data, "Trebuchet")
