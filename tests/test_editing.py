"""The editor's set-up helpers: catalogue of data-table items, new copies of them, and new
figures carrying the ruleset's starting gear."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scratch_fights import FIGHTS, PLACES, built

from hexcombat import Encounter, Hex, IllegalActionError, InvalidDocumentError
from hexcombat.autopilot.play import Referee
from hexcombat.autopilot.players import make_policy
from hexcombat.editing import catalogue, new_item
from hexcombat.rulesets import all_rulesets, get_ruleset
from hexcombat.setup_checks import UNARMED_NOTE
from hexcombat.setup_checks import ending_note as setup_ending_note
from hexcombat.view import encounter_view

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


@pytest.mark.parametrize("ruleset_id", sorted(FIGHTS))
def test_a_figure_new_in_the_editor_carries_the_starting_gear_and_can_strike(
    ruleset_id: str,
) -> None:
    """The fight from scratch (two a side, adjacent, as the editor adds them): every figure
    carries its ruleset's starting gear with the skill it is used with, and someone is
    harmed within a few rounds of the app playing both sides."""
    enc = built(FIGHTS[ruleset_id])
    rs = enc.ruleset
    assert setup_ending_note(rs, enc.state.options, enc.state.figures.values()) == ""
    for fig in enc.setup.figures:
        assert [i.name for i in fig.equipment] == [s.item for s in rs.starting_gear]
        gear = zip(rs.starting_gear, fig.equipment, strict=True)
        assert all(s.state in ("", i.state) for s, i in gear)
        assert all(fig.skills[s.skill] == s.level for s in rs.starting_gear if s.skill)
        assert not rs.unarmed(fig) and rs.figure_problems(fig, enc.state.data) == []
    referee = Referee({side: make_policy("aggressive") for side in PLACES})
    start = {f.id: {k: p.current for k, p in f.pools.items()} for f in enc.state.figures.values()}
    for _ in range(60):
        now = {f.id: {k: p.current for k, p in f.pools.items()} for f in enc.state.figures.values()}
        if now != start:
            return
        move = referee.next_move(enc)
        assert move is not None, f"nothing to play at {enc.state.clock}"
        enc.perform(move[1].action)
    raise AssertionError(f"nobody was harmed in 60 moves ({enc.state.clock})")


@pytest.mark.parametrize("ruleset_id", ["fig-percentile", "combat-speed-phase"])
def test_c_1_g_2_a_set_up_where_nobody_can_strike_says_it_cannot_end(ruleset_id: str) -> None:
    fight = FIGHTS[ruleset_id]
    enc = built(fight)
    rs = enc.ruleset
    bare = [replace(f, equipment=[]) for f in enc.setup.figures]
    assert all(rs.unarmed(f) for f in bare)
    assert setup_ending_note(rs, enc.state.options, bare) == UNARMED_NOTE
    assert setup_ending_note(rs, enc.state.options, [bare[0], *enc.setup.figures[1:]]) == ""
    assert setup_ending_note(rs, enc.state.options, bare[:2]) == ""  # one side: no fight yet
    for fig in bare:
        enc = enc.with_figure(fig)
    assert encounter_view(enc)["ending"] == UNARMED_NOTE
    defaults = rs.default_options()
    assert setup_ending_note(rs, defaults, bare) == rs.ending_note(defaults) != ""


@pytest.mark.parametrize("ruleset_id", ["skirmish", "strike-chance-pulse", "two-action-2d10"])
def test_a_figure_without_gear_still_strikes_where_the_ruleset_lets_it(ruleset_id: str) -> None:
    enc = built(FIGHTS[ruleset_id])
    bare = [replace(f, equipment=[]) for f in enc.setup.figures]
    assert not any(enc.ruleset.unarmed(f) for f in bare)
    assert setup_ending_note(enc.ruleset, enc.state.options, bare) == ""
