"""At the table: friendly hex labels, fights that end with a summary, the GM's tools
(pools, statuses with a duration, notes, free dice) as logged actions that undo and replay,
a figure's one-line label, and the measure tool's view. Every ruleset gets these from the
base class; the tests use skirmish and the test-only kit rulesets."""

from __future__ import annotations

import json

import pytest
from factories import skirmish_duel

from hexcombat import Action, Encounter, Hex, IllegalActionError, dumps, loads
from hexcombat.layout import column_letters, from_offset, hex_label
from hexcombat.rulesets import all_rulesets
from hexcombat.view import encounter_view, fight_summary, measure_view

pytestmark = pytest.mark.pyodide


# ---- friendly coordinates -----------------------------------------------------------------
def test_hex_labels_are_column_letters_and_row_numbers_like_printed_maps() -> None:
    assert [column_letters(c) for c in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]
    assert hex_label(Hex(0, 0)) == "A1"
    # every hex of a 30x30 board has its own label, the offset column and row it sits in
    labels = {hex_label(from_offset(c, r)) for c in range(30) for r in range(30)}
    assert len(labels) == 900
    assert hex_label(from_offset(2, 4)) == "C5" and hex_label(from_offset(27, 0)) == "AB1"


def test_events_and_choices_name_hexes_by_label_and_documents_keep_axial() -> None:
    enc = skirmish_duel()
    move = next(s for s in enc.legal_actions("ann") if s.kind == "move")
    to = move.param("to")
    assert next(c.label for c in to.choices if c.value == "3,1").startswith("D3 (")
    events = enc.perform(Action("move", "ann", {"to": "3,1"}))
    assert events[0].text == "Ann Archer moves B2 → D3 (3 MP)"
    assert '"to": "3,1"' in dumps(enc)  # axial in the document


def test_a_figure_view_names_its_hex_facing_and_pools_for_screen_readers() -> None:
    view = encounter_view(skirmish_duel())
    ann = view["figures"][0]
    assert ann["where"] == "B2" and ann["facing_name"] == "south-east"
    assert ann["label"] == "Ann Archer, Blue, at B2, facing south-east, 10 of 10 hit points"


# ---- fights end ---------------------------------------------------------------------------
def knocked_out(enc: Encounter) -> Encounter:
    """Bo goes down through the GM's pool and status tools (as a hit would)."""
    enc.perform(Action("gm_pool", None, {"figure": "bo", "pool": "hp", "value": 0}))
    enc.perform(Action("gm_status", None, {"figure": "bo", "status": "down", "duration": 0}))
    return enc


def test_a_fight_ends_when_one_side_is_left_and_says_who_won() -> None:
    enc = skirmish_duel()
    assert encounter_view(enc)["outcome"] is None
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    knocked_out(enc)
    view = encounter_view(enc)
    outcome = view["outcome"]
    assert outcome["winner"] == "Blue" and outcome["text"] == "Victory for Blue"
    # no more actions for the figures; the table may still end the step (a ruleset's
    # upkeep, such as a death save, runs then) and the GM's tools stay
    assert enc.legal_actions("ann") == [] and enc.legal_actions("bo") == []
    assert [a["kind"] for a in view["table_actions"]] == ["next_step"]
    assert {a["kind"] for a in view["gm_actions"]} >= {"gm_pool", "roll_dice"}
    enc.perform(Action("next_step"))
    assert encounter_view(enc)["outcome"] is not None and enc.legal_actions("ann") == []
    enc.undo()
    # undo goes back into the fight
    enc.undo()
    assert encounter_view(enc)["outcome"] is None
    assert [s.kind for s in enc.legal_actions(None)] == ["next_step"]


def test_the_summary_counts_rounds_hits_damage_dice_and_who_fell() -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])  # hit for 4
    enc.perform(Action("attack", "bo", {"target": "ann"}), faces=[1])  # a miss
    enc.perform(Action("next_step"))
    knocked_out(enc)
    summary = fight_summary(enc)
    assert summary["units_label"] == "2 rounds"
    assert (summary["hits"], summary["damage"], summary["dice"]) == (1, 4, 3)
    assert summary["fell"] == [{"id": "bo", "name": "Bo Brute", "side": "Red"}]
    assert summary["lines"] == ["2 rounds", "1 hit, 4 damage", "3 dice rolled", "Fell: Bo Brute"]
    assert encounter_view(enc)["outcome"]["summary"] == summary


def test_every_ruleset_ends_a_fight_when_one_side_is_out() -> None:
    for ruleset in all_rulesets():
        enc = Encounter.new(ruleset.id, 6, 6, name="End")
        enc = enc.with_figure(ruleset.new_figure("a", "A", "Blue", Hex(1, 1)))
        enc = enc.with_figure(ruleset.new_figure("b", "B", "Red", Hex(3, 1)))
        assert encounter_view(enc)["outcome"] is None, ruleset.id
        state = enc.state.copy()
        from hexcombat.figures import Status

        state.figures["b"].statuses["down"] = Status("down")
        if ruleset.is_out(state, state.figures["b"]):
            outcome = ruleset.fight_outcome(state)
            assert outcome is not None and outcome.winner == "Blue", ruleset.id


def test_one_side_alone_never_ends() -> None:
    enc = Encounter.new("skirmish", 6, 6)
    enc = enc.with_figure(enc.ruleset.new_figure("a", "A", "Blue", Hex(1, 1)))
    assert encounter_view(enc)["outcome"] is None


# ---- the GM's tools -----------------------------------------------------------------------
def test_gm_sets_a_pool_logged_undone_and_replayed() -> None:
    enc = skirmish_duel()
    events = enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "hp", "value": 7}))
    assert events[0].text == "GM sets Ann Archer's hit points to 7 of 10 (was 10)"
    assert events[0].kind == "gm"
    assert enc.state.figures["ann"].pools["hp"].current == 7
    again = loads(dumps(enc))
    assert again.state.figures["ann"].pools["hp"].current == 7
    enc.undo()
    assert enc.state.figures["ann"].pools["hp"].current == 10
    # above the maximum is capped; a pool the figure lacks is refused and changes nothing
    enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "hp", "value": 99}))
    assert enc.state.figures["ann"].pools["hp"].current == 10
    before = dumps(enc)
    with pytest.raises(IllegalActionError, match="must be one of Hit points"):
        enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "mana", "value": 1}))
    assert dumps(enc) == before


def test_gm_status_with_a_duration_counts_down_each_round_and_can_be_taken_off() -> None:
    enc = skirmish_duel()
    events = enc.perform(
        Action("gm_status", None, {"figure": "bo", "status": "stunned", "duration": 1})
    )
    assert events[0].text == "GM: Bo Brute is stunned for 1 round"
    assert "stunned" in encounter_view(enc)["figures"][1]["badges"]
    enc.perform(Action("next_step"))
    assert "stunned" in enc.state.figures["bo"].statuses  # still round 1
    events = enc.perform(Action("next_step"))  # round 2 begins: the status ends
    assert "stunned" not in enc.state.figures["bo"].statuses
    assert any(e.text == "Bo Brute is no longer stunned" for e in events)
    enc.perform(Action("gm_status", None, {"figure": "bo", "status": "prone", "duration": 0}))
    enc.perform(
        Action(
            "gm_status", None, {"figure": "bo", "status": "prone", "duration": 0, "remove": True}
        )
    )
    assert "prone" not in enc.state.figures["bo"].statuses
    assert loads(dumps(enc)).state.figures["bo"].statuses == enc.state.figures["bo"].statuses


def test_gm_note_and_free_dice_go_in_the_log_and_replay_with_the_same_faces() -> None:
    enc = skirmish_duel()
    note = enc.perform(Action("gm_note", None, {"figure": "ann", "note": "Ann slips in mud"}))
    assert note[0].text == "GM note (Ann Archer): Ann slips in mud"
    rolled = enc.perform(Action("roll_dice", None, {"dice": "3d6"}))
    assert rolled[0].kind == "roll" and rolled[0].text.startswith("Rolled 3d6: ")
    typed = enc.perform(Action("roll_dice", None, {"dice": "3d6"}), faces=[1, 2, 6])
    assert typed[0].text == "Rolled 3d6: 9" and typed[0].details == ("Faces: 1, 2, 6",)
    again = loads(dumps(enc))
    assert [e.text for e in again.events] == [e.text for e in enc.events]
    with pytest.raises(IllegalActionError, match="cannot be rolled"):
        enc.perform(Action("roll_dice", None, {"dice": "3 goblins"}))
    json.dumps(encounter_view(enc)["gm_actions"])


def test_gm_tools_are_offered_for_every_ruleset_and_grouped_for_the_page() -> None:
    for ruleset in all_rulesets():
        enc = Encounter.new(ruleset.id, 6, 6, name="GM")
        enc = enc.with_figure(ruleset.new_figure("a", "A", "Blue", Hex(1, 1)))
        kinds = [a["kind"] for a in encounter_view(enc)["gm_actions"]]
        assert {"gm_status", "gm_note", "roll_dice"} <= set(kinds), ruleset.id
        assert {a["group"] for a in encounter_view(enc)["gm_actions"]} == {"gm"}
        rolled = enc.perform(Action("roll_dice", None, {"dice": "2d6"}), faces=[3, 4])
        assert rolled[0].text == "Rolled 2d6: 7"


# ---- measure ------------------------------------------------------------------------------
def test_measure_gives_distance_sight_with_its_reason_and_labels() -> None:
    enc = skirmish_duel()
    enc = enc.painted([Hex(2, 1)], "wall")
    m = measure_view(enc, Hex(1, 1), Hex(3, 1))
    assert (m["from_label"], m["to_label"], m["distance"]) == ("B2", "D3", 2)
    assert m["clear"] is False and "Wall at C3" in m["reason"]
    assert m["text"].startswith("2 hexes; no line of sight (blocked by Wall at C3")
    clear = measure_view(enc, Hex(1, 1), Hex(1, 3))
    assert clear["clear"] is True and clear["text"] == "2 hexes; line of sight clear"
    assert clear["band"] == ""  # skirmish has no range bands
