"""The roster (hexcombat.roster): characters saved from a figure, joining an encounter of
their ruleset, and written back after a fight, in every ruleset, by rule."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import combat_speed_phase_fixtures as csp
import fig_percentile_fixtures as fp
import pytest
from two_action_2d10_fixtures import act, declare, duel, to_step

from hexcombat import Action, Encounter, Hex
from hexcombat.document import dumps, loads, read_json
from hexcombat.errors import HexcombatError, InvalidDocumentError, UnsupportedVersionError
from hexcombat.layout import from_offset
from hexcombat.roster import (
    Roster,
    accept,
    from_document,
    joined,
    new_roster,
    saved,
    to_document,
    write_back,
)
from tests.factories import skirmish_duel

DEMOS = Path(__file__).resolve().parents[2] / "static" / "demos"


def cast(enc: Encounter) -> tuple[Roster, Encounter]:
    """Every figure of the set-up saved to a roster, the encounter's figures playing them."""
    roster = new_roster(enc.setup.ruleset)
    for figure in enc.setup.figures:
        roster, cid = saved(roster, figure)
        enc = enc.with_figure(replace(figure, character=cid))
    return roster, enc


def played_demo(ruleset: str) -> tuple[Roster, Encounter]:
    """The ruleset's demo fight with its figures in a roster, played to the end of its log."""
    roster, enc = cast(loads((DEMOS / f"{ruleset}.json").read_text()))
    while enc.can_redo:
        enc.redo()
    return roster, enc


def next_fight(roster: Roster, character: str, ruleset: str, at: Hex) -> Encounter:
    """A new encounter of the ruleset with the roster (read back from its JSON) joined."""
    again = from_document(read_json(json.dumps(to_document(roster))))
    return joined(Encounter.new(ruleset, 10, 8, name="Next"), again, character, at)


def test_a_character_is_a_figure_without_its_placement() -> None:
    enc = skirmish_duel()
    roster, cid = saved(new_roster("skirmish"), enc.setup_figure("bo"))
    doc = to_document(roster)["characters"][0]
    assert cid == "bo-brute" and doc["id"] == "bo-brute"
    assert not {"position", "facing", "mounted_on", "character"} & set(doc)
    fight = joined(skirmish_duel(), roster, cid, Hex(6, 2))
    bo = fight.setup.figures[-1]
    assert (bo.id, bo.character, bo.position, bo.stats["hp"]) == (cid, cid, Hex(6, 2), 12)
    assert loads(dumps(fight)).setup.figures[-1].character == cid


def test_saving_a_figure_that_plays_a_character_replaces_it() -> None:
    roster, enc = cast(skirmish_duel())
    bo = enc.setup_figure("bo")
    bo.stats["hp"] = 20
    again, cid = saved(roster, bo)
    assert cid == bo.character and len(again.characters) == 2
    assert again.character(cid).figure.stats["hp"] == 20


def test_a_character_joins_an_encounter_once() -> None:
    roster, enc = cast(skirmish_duel())
    with pytest.raises(InvalidDocumentError) as caught:
        joined(enc, roster, "bo-brute", Hex(6, 2))
    assert [p.path for p in caught.value.problems] == ["figures[2].character"]
    assert "already played by figures[1]" in caught.value.problems[0].message


def test_a_character_joins_only_its_own_ruleset() -> None:
    roster, _ = cast(skirmish_duel())
    with pytest.raises(HexcombatError, match="cannot join"):
        joined(Encounter.new("two-action-2d10", 6, 6), roster, "bo-brute", Hex(1, 1))


def test_skirmish_hp_and_down_written_back_through_the_gm_tools() -> None:
    roster, enc = cast(skirmish_duel())
    enc.perform(Action("gm_pool", None, {"figure": "bo", "pool": "hp", "value": 3}))
    enc.perform(Action("gm_status", None, {"figure": "ann", "status": "down", "duration": 0}))
    changes = {c.character: c for c in write_back(roster, enc)}
    assert changes["bo-brute"].lines == ("Hit points: full → 3 of 12",)
    assert changes["ann-archer"].lines == ("now down",)
    kept = accept(roster, [changes["bo-brute"]])  # the GM ticks Bo only
    assert kept.character("bo-brute").figure.pools["hp"].current == 3
    assert not kept.character("ann-archer").figure.statuses
    nxt = next_fight(kept, "bo-brute", "skirmish", Hex(2, 2))
    assert nxt.state.figures["bo-brute"].pools["hp"].current == 3


def test_ta_12_hit_points_the_fight_took_carry_to_the_next_fight() -> None:
    roster, enc = played_demo("two-action-2d10")
    [change] = write_back(roster, enc)
    hp = enc.state.figures["ann"].pools["hp"]
    assert change.lines == (f"Hit points: full → {hp.current} of {hp.maximum}",)
    nxt = next_fight(accept(roster, [change]), "ann", "two-action-2d10", Hex(2, 2))
    assert nxt.state.figures["ann"].pools["hp"].current == hp.current < hp.maximum
    assert (
        nxt.state.figures["ann"].pools["bp"].current == nxt.state.figures["ann"].pools["bp"].maximum
    )


def test_ta_22_a_missile_loaded_in_the_fight_stays_loaded_and_nothing_else_of_its_memory() -> None:
    enc = duel(missile="bow")
    bo = enc.setup_figure("bo")
    bo.position = Hex(7, 2)
    roster, enc = cast(enc.with_figure(bo))
    declare(enc, "bo", "load", "parry", guard="ann")
    declare(enc, "ann", "other", "none")
    act(enc, "next_step")
    to_step(enc, "declare")
    assert enc.state.figures["bo"].memory["loaded"] is True
    [change] = [c for c in write_back(roster, enc) if c.character == "bo"]
    assert change.after.memory == {"loaded": True}
    assert "Loaded: no → yes" in change.lines
    nxt = next_fight(accept(roster, [change]), "bo", "two-action-2d10", Hex(2, 2))
    assert nxt.state.figures["bo"].memory["loaded"] is True


def test_scp_a_26_endurance_fatigue_and_a_weapon_put_away_written_back() -> None:
    roster, enc = played_demo("strike-chance-pulse")
    changes = {c.character: c for c in write_back(roster, enc)}
    ann = enc.state.figures["ann"]
    assert changes["ann"].after.pools["en"].current == ann.pools["en"].current
    assert changes["ann"].after.pools["ft"].current == ann.pools["ft"].current
    assert "Broadsword: carried (was in hand)" in changes["ann"].lines
    nxt = next_fight(accept(roster, changes.values()), "ann", "strike-chance-pulse", Hex(2, 2))
    assert nxt.state.figures["ann"].pools["en"].current == ann.pools["en"].current


def test_fp_g_5_a_crossbow_shot_and_not_reloaded_stays_unloaded() -> None:
    roster, enc = played_demo("fig-percentile")
    changes = {c.character: c for c in write_back(roster, enc)}
    bow = {i.name: i for i in changes["brie-the-oaken"].after.equipment}["Crossbow"]
    assert bow.loaded is False
    assert "Crossbow: carried (was in hand), not loaded" in changes["brie-the-oaken"].lines
    nxt = next_fight(
        accept(roster, changes.values()), "brie-the-oaken", "fig-percentile", Hex(2, 2)
    )
    assert {i.name: i for i in nxt.state.figures["brie-the-oaken"].equipment}[
        "Crossbow"
    ].loaded is False


def test_a_fight_that_changed_nothing_asks_nothing() -> None:
    roster, enc = cast(skirmish_duel())
    assert write_back(roster, enc) == []


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        ({"format": "hexcombat-roster", "version": 1, "ruleset": "nope"}, "ruleset"),
        (
            {
                "format": "hexcombat-roster",
                "version": 1,
                "ruleset": "skirmish",
                "characters": [{"id": "a", "name": "A", "side": "Blue", "position": "1,1"}],
            },
            "characters[0].position",
        ),
        (
            {
                "format": "hexcombat-roster",
                "version": 1,
                "ruleset": "skirmish",
                "characters": [{"id": "a", "name": "A", "side": "Blue", "stats": {"hp": "x"}}],
            },
            "characters[0].stats.hp",
        ),
        ({"format": "hexcombat-encounter", "version": 1}, "format"),
    ],
)
def test_a_bad_roster_is_refused_with_the_path_of_each_problem(doc: dict, path: str) -> None:
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(doc)
    assert path in [p.path for p in caught.value.problems]


def test_a_newer_roster_is_refused_never_guessed_at() -> None:
    with pytest.raises(UnsupportedVersionError, match="newer"):
        from_document({"format": "hexcombat-roster", "version": 99, "ruleset": "skirmish"})


def test_a_hostile_roster_text_is_refused_before_parsing() -> None:
    with pytest.raises(InvalidDocumentError):
        from_document(read_json("[" * 100_000))


def gm_statuses(enc: Encounter, figure: str, *statuses: str) -> None:
    for status in statuses:
        params = {"figure": figure, "status": status, "duration": 0}
        enc.perform(Action("gm_status", None, params))  # type: ignore[arg-type]


def test_ta_d_7_d_14_stagger_lock_and_incapacitation_stay_in_the_fight() -> None:
    roster, enc = cast(duel())
    gm_statuses(enc, "ann", "staggered", "locked", "incapacitated", "dropped_weapon", "prone")
    [change] = [c for c in write_back(roster, enc) if c.character == "ann"]
    assert change.lines == ("now prone",)  # the weapon picked up (roster.gather_dropped)
    [left] = [c for c in write_back(roster, enc, gather_dropped=False) if c.character == "ann"]
    assert left.lines == ("now dropped weapon", "now prone")


def test_scp_29_r_6_evading_stays_in_the_fight() -> None:
    roster, enc = played_demo("strike-chance-pulse")
    before = {c.character: c.lines for c in write_back(roster, enc)}
    gm_statuses(enc, "ann", "evading")
    assert {c.character: c.lines for c in write_back(roster, enc)} == before


def csp_duel() -> Encounter:
    """Ann and Bob two hexes apart, the GM ruling strikes (C-1), Ann once at Combat Speed."""
    enc = csp.arena({"csp.combat_resolver": "gm"}, width=9, height=12)
    enc = csp.add(enc, "ann", (4, 7), side="A", weapon="Hand-and-a-half sword")
    enc = csp.add(enc, "bob", (4, 5), side="B", facing=3)
    csp.run_phase(enc, {"ann": 1, "bob": 0}, {"ann": str(from_offset(4, 8))})
    csp.next_step(enc)
    return enc


def test_csp_r3_hit_points_and_down_written_back_and_csp_3_impairment_left_in_the_fight() -> None:
    roster, enc = cast(csp_duel())
    csp.run_phase(enc, {"ann": 3, "bob": 0}, {"ann": str(from_offset(4, 7))})
    strike = {"weapon": "Hand-and-a-half sword", "target": "bob", "outcome": "hit", "damage": 10}
    enc.perform(Action("strike", "ann", strike))
    assert enc.ruleset.fight_outcome(enc.state) is not None
    assert enc.state.figures["ann"].has_status("impaired")
    assert enc.state.figures["ann"].memory  # the phase's record (CSP-13, CSP-16)
    changes = {c.character: c for c in write_back(roster, enc)}
    assert "ann" not in changes  # impaired only this phase (CSP-3); the phase's record stays
    assert changes["bob"].lines == ("Hit points: full → 0 of 10", "now down")
    assert changes["bob"].after.memory == {}
    nxt = next_fight(accept(roster, changes.values()), "bob", "combat-speed-phase", Hex(2, 2))
    bob = nxt.state.figures["bob"]
    assert (bob.pools["hp"].current, bob.has_status("down")) == (0, True)


def dropped_sword() -> tuple[Roster, Encounter]:
    """fig-percentile: A drops the Sword and draws the Staff (G-5), the Sword left lying."""
    enc = fp.arena()
    enc = fp.add(
        enc, "a", (3, 4), side="A", skills={"Staff": 97, "Sword": 40},
        items=["Sword", "Staff"], ready="Sword",
    )  # fmt: skip
    roster, enc = cast(fp.add(enc, "b", (4, 4), side="B"))
    fp.play_round(enc, {"a": {"mode": "stationary", "ready": "Staff", "drop": True}})
    return roster, enc


def test_fp_g_5_roster_gather_dropped_a_dropped_weapon_comes_back_carried_by_default() -> None:
    roster, enc = dropped_sword()
    [change] = write_back(roster, enc)
    kit = {i.name: i.state for i in change.after.equipment}
    assert kit == {"Sword": "carried", "Staff": "ready"}
    assert change.lines == ("Sword: carried (was in hand)", "Staff: in hand (was carried)")


def test_fp_g_5_roster_gather_dropped_off_what_lies_on_the_field_is_lost() -> None:
    roster, enc = dropped_sword()
    [change] = write_back(roster, enc, gather_dropped=False)
    assert [i.name for i in change.after.equipment] == ["Staff"]
    assert change.lines == ("Sword: lost", "Staff: in hand (was carried)")
    nxt = next_fight(accept(roster, [change]), "a", "fig-percentile", Hex(2, 2))
    assert [i.name for i in nxt.state.figures["a"].equipment] == ["Staff"]
