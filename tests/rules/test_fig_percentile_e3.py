"""Worked example E-3 (Barclay the Black vs Brie the Oaken), replayed through the encounter API.

Every declaration, move, attack and spell goes through ``Encounter.perform``
with scripted dice, and every number of the spec's trace is checked. The
narrative counts the hexes *between* the figures (gap g, hex distance d = g + 1,
I-8/G-24). Rolls the text does not give are chosen to reproduce its outcome
(misses in round 2, a hit in round 4). Barclay's dodge skill (30) and Brie's
Spellcasting (60) are placeholders that let the dodge and spell rules show.
"""

from __future__ import annotations

import pytest
from fig_percentile_fixtures import (
    BARCLAY_PLAN,
    BARCLAY_START,
    BRIE_PLAN,
    BRIE_START,
    act,
    choices,
    e3_encounter,
    e3_round_1,
    e3_round_1_to_actions,
    e3_round_2,
    e3_round_3_moves,
    e3_round_3_rest,
    e3_round_4,
    gap,
    goto,
    kinds,
    next_step,
    play_e3,
    roll,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.document import from_document, to_document
from hexcombat.events import Event
from hexcombat.geometry import distance, relative_position

pytestmark = pytest.mark.pyodide


def since(enc: Encounter, mark: int) -> list[Event]:
    """Events of the actions performed after the log had ``mark`` entries."""
    return [e for i in range(mark, enc.cursor) for e in enc.entry_events(i)]


def one(events: list[Event], kind: str, figure: str | None = None) -> Event:
    """The only event of ``kind`` (by ``figure``) among ``events``."""
    found = [e for e in events if e.kind == kind and (figure is None or e.figure == figure)]
    assert len(found) == 1, [e.text for e in found]
    return found[0]


def view(enc: Encounter, fid: str) -> dict[str, object]:
    """The figure panel of ``fid``."""
    return enc.ruleset.figure_view(enc.state, enc.state.figures[fid])


@pytest.fixture
def enc() -> Encounter:
    return e3_encounter(dodge_skill=30)


def test_e3_setup_open_field_12_hexes_between_them(enc: Encounter) -> None:
    assert distance(BARCLAY_START, BRIE_START) == 13 and gap(enc) == 12
    assert {enc.state.board.terrain_id_at(h) for h in enc.state.board.hexes()} == {"open"}
    brie = enc.state.figures["brie"]
    assert [(i.name, i.state, i.loaded) for i in brie.equipment] == [
        ("Crossbow", "ready", True),
        ("Staff", "carried", None),
        ("Spark", "carried", None),
    ]
    assert enc.state.figures["barclay"].skills == {"Pole Arm": 38}


def test_e3_round_1_accelerating_brie_hits_with_the_crossbow(enc: Encounter) -> None:
    mark = enc.cursor
    e3_round_1(enc, crossbow=43)
    events = since(enc, mark)
    b_move, r_move = one(events, "move", "barclay"), one(events, "move", "brie")
    # Barclay: S = 14.5, rhu(1.45) = 1 hex; Brie: S = 26, rhu(2.6) = 3 hexes.
    assert (b_move.data["mode"], b_move.data["speed"], b_move.data["hexes"]) == (
        "accelerate",
        14.5,
        1,
    )
    assert (r_move.data["mode"], r_move.data["speed"], r_move.data["hexes"]) == (
        "accelerate",
        26.0,
        3,
    )
    assert "FIG 29 / 20 = 1.45 → 1 hex (FP-2)" in b_move.details[0]
    assert "FIG 52 / 20 = 2.6 → 3 hexes (FP-2)" in r_move.details[0]
    # Both may dodge: 14.5 <= 14.5 and 26 <= 26 (FP-10).
    assert "May dodge: speed 14.5 ≤ 14.5" in b_move.details[2]
    # 12 -> 8 hexes between them; combined speed 40.5: Fast, -15 for both.
    speeds = one(events, "speeds")
    assert (speeds.data["gap"], speeds.data["distance"]) == (8, 9)
    assert (speeds.data["combined"], speeds.data["band"], speeds.data["modifier"]) == (
        40.5,
        "Fast",
        -15,
    )
    # Barclay drew his axe (no action, G-5) and has no ranged weapon: he only runs.
    assert one(events, "declare", "barclay").text.endswith("draws the Beaked axe")
    # Brie: 74 - 15 + 0 (Medium range: 9 hexes of 18, I-9) = 59; rolls 43: hit.
    shot = one(events, "attack", "brie")
    assert shot.text == (
        "Brie the Oaken fires the Crossbow at Barclay the Black: needs 59 or lower, rolled 43: hit"
    )
    assert shot.data["target_number"] == 59 and shot.data["roll"] == 43 and shot.data["hit"]
    assert [(m["name"], m["value"]) for m in shot.data["modifiers"]] == [
        ("Fast combined speed (26 + 14.5 = 40.5)", -15),
        ("Medium range (9 hexes of 18)", 0),
    ]
    # Barclay may dodge (not yet at top speed): he chose to, picked the bolt and failed
    # (G-3, G-19; his dodge skill 30 is halved to 15 for drawing the axe, FP-23).
    assert one(events, "choice", "barclay").text == (
        "Barclay the Black chose to dodge one attack against it (G-3)"
    )
    assert one(events, "choice", "brie").text == (
        "Brie the Oaken chose to fire the Crossbow at Barclay the Black"
    )
    dodge = one(events, "dodge", "barclay")
    assert dodge.text == (
        "Barclay the Black dodges Brie the Oaken's Crossbow: needs 15 or lower, rolled 80: "
        "the hit lands"
    )
    assert one(events, "hit").data["hits_taken"] == 1
    assert enc.ruleset.badges(enc.state, enc.state.figures["barclay"]) == [
        "hit"
    ]  # shown on the token
    assert gap(enc) == 8


def test_e3_round_1_g3_g19_barclay_chooses_a_dodge_and_picks_the_bolt(enc: Encounter) -> None:
    # Same as above, step by step: the choices are hidden, then Barclay picks the attack.
    e3_round_1_to_actions(enc)
    preview = enc.preview(Action("attack", "brie", {"target": "barclay"}))
    assert preview.rollables[0].target == 59 and preview.rollables[0].percent() == "59%"
    variants = preview.rollables[0].variants
    assert [v.label for v in variants] == ["No dodge", "Dodge (needs 15 or lower)"]
    assert kinds(enc, "barclay") == ["dodge", "hold"]  # dodge at half skill: drew the axe
    act(enc, "dodge", "barclay")
    assert enc.state.prompt is None and kinds(enc, "barclay") == []
    act(enc, "attack", "brie", target="barclay")  # the last choice in reveals both
    prompt = enc.state.prompt
    assert prompt is not None and prompt.question == "Barclay the Black: which attack do you dodge?"
    assert choices(enc, "barclay", "pick_dodge", "attacker") == ["brie"]
    act(enc, "pick_dodge", "barclay", attacker="brie")
    assert kinds(enc, "brie") == ["roll_attack"] and kinds(enc, "barclay") == []
    roll(enc, [43], "roll_attack", "brie")
    assert kinds(enc, "barclay") == ["roll_dodge"]


def test_e3_round_2_they_meet_and_both_miss_at_fast_speed(enc: Encounter) -> None:
    e3_round_1(enc)
    mark = enc.cursor
    e3_round_2(enc, axe=60, staff=70)
    events = since(enc, mark)
    b_move, r_move = one(events, "move", "barclay"), one(events, "move", "brie")
    assert (b_move.data["mode"], b_move.data["speed"], b_move.data["hexes"]) == ("top", 29.0, 3)
    assert (r_move.data["mode"], r_move.data["speed"], r_move.data["hexes"]) == ("top", 52.0, 5)
    assert any("No dodge" in d and "29 > 14.5" in d for d in b_move.details)
    assert any("No dodge" in d for d in r_move.details) is False  # Brie has no dodge skill
    speeds = one(events, "speeds")
    assert (speeds.data["gap"], speeds.data["combined"], speeds.data["modifier"]) == (0, 81.0, -15)
    # Barclay ends in Brie's front-left or front-right hex (not head-on).
    brie = enc.state.figures["brie"]
    side = relative_position(brie.position, brie.facing, enc.state.figures["barclay"].position)
    assert side is not None and side.short in ("FL", "FR")
    # Brie dropped the crossbow (free) and drew the staff (half skill, no action: G-5).
    declared = one(events, "declare", "brie")
    assert declared.text.endswith("drops the Crossbow and draws the Staff")
    # After movement: Barclay declares a stop, Brie keeps running (FP-27).
    assert one(events, "stop", "barclay").rule == "FP-27, FP-4"
    assert one(events, "continue", "brie").rule == "FP-27, FP-3"
    # Barclay: 38 - 15 = 23 (his stop comes at the end of the round, I-10).
    axe = one(events, "attack", "barclay")
    assert axe.data["target_number"] == 23 and not axe.data["hit"]
    assert axe.text.startswith("Barclay the Black strikes at Brie the Oaken with the Beaked axe")
    # Brie: rhu(97/2) = 49, 49 - 15 = 34.
    staff = one(events, "attack", "brie")
    assert staff.data["target_number"] == 34 and not staff.data["hit"]
    assert staff.details[0] == "49 Staff 97 halved for readying a weapon this round (FP-23)"
    # End of round: Barclay's stop takes effect.
    assert one(events, "stopped", "barclay").rule == "FP-4"
    assert gap(enc) == 0


@pytest.mark.parametrize(("comparison", "hit"), [("le", True), ("lt", False)])
def test_e3_round_2_rolls_equal_to_23_and_34_hit_with_le_and_miss_with_lt(
    comparison: str, hit: bool
) -> None:
    enc = e3_encounter({"fp.hit_comparison": comparison}, dodge_skill=30)
    e3_round_1(enc)
    mark = enc.cursor
    e3_round_2(enc, axe=23, staff=34)
    events = since(enc, mark)
    assert one(events, "attack", "barclay").data["hit"] is hit
    assert one(events, "attack", "brie").data["hit"] is hit


def test_e3_round_3_brie_runs_away_stops_and_begins_a_spell(enc: Encounter) -> None:
    e3_round_1(enc)
    e3_round_2(enc)
    barclay_before = enc.state.figures["barclay"].position
    mark = enc.cursor
    e3_round_3_moves(enc)
    e3_round_3_rest(enc)
    events = since(enc, mark)
    b_move, r_move = one(events, "move", "barclay"), one(events, "move", "brie")
    # Barclay stopped at the end of round 2: acceleration again, 14.5, 1 hex.
    assert (b_move.data["mode"], b_move.data["speed"], b_move.data["hexes"]) == (
        "accelerate",
        14.5,
        1,
    )
    # Brie is still at top speed: one hexside away from Barclay (free), 5 hexes straight.
    assert (r_move.data["mode"], r_move.data["speed"], r_move.data["hexes"]) == ("top", 52.0, 5)
    turns = [d for d in r_move.details if d.startswith("turns")]
    assert turns == ["turns to S (one hexside, free (FP-9))"]
    # 0 -> 5 by Brie's move ("now 5 hexes away") -> 4 after Barclay's hex.
    brie_end = enc.state.figures["brie"].position
    assert distance(barclay_before, brie_end) - 1 == 5
    speeds = one(events, "speeds")
    assert (speeds.data["gap"], speeds.data["combined"], speeds.data["band"]) == (4, 66.5, "Fast")
    # Post-move: Brie stops and begins a one-round spell (G-6 default: stop declared).
    cast = one(events, "cast", "brie")
    assert cast.data["spell"] == "Spark" and cast.data["release_round"] == 4
    assert one(events, "stop", "brie").rule == "FP-27, FP-4"
    # "nothing more happens this round": no attacks.
    assert [e for e in events if e.kind == "attack"] == []
    assert one(events, "spell_ready", "brie").rule == "FP-26"
    assert gap(enc) == 4


def test_e3_round_3_the_cast_is_refused_when_casters_must_be_stationary() -> None:
    enc = e3_encounter({"fp.cast_requires_stationary": "stationary"}, dodge_skill=30)
    e3_round_1(enc)
    e3_round_2(enc)
    e3_round_3_moves(enc)
    spec = next(a for a in enc.legal_actions("brie") if a.kind == "stop_or_continue")
    assert [p.name for p in spec.params] == ["choice"]  # no spell can be begun
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match="has no parameter spell"):
        enc.perform(Action("stop_or_continue", "brie", {"choice": "stop", "spell": "Spark"}))
    assert to_document(enc) == before


def test_e3_round_4_the_spell_at_minus_10_and_no_dodge_for_barclay(enc: Encounter) -> None:
    e3_round_1(enc)
    e3_round_2(enc)
    e3_round_3_moves(enc)
    e3_round_3_rest(enc)
    mark = enc.cursor
    e3_round_4(enc, spell=20)
    events = since(enc, mark)
    b_move = one(events, "move", "barclay")
    assert (b_move.data["mode"], b_move.data["speed"], b_move.data["hexes"]) == ("top", 29.0, 3)
    assert [e for e in events if e.kind == "move" and e.figure == "brie"] == []  # stationary
    # 4 -> 1 hex between them: "still 1 hex away and cannot attack".
    speeds = one(events, "speeds")
    assert (speeds.data["gap"], speeds.data["distance"]) == (1, 2)
    assert (speeds.data["combined"], speeds.data["band"], speeds.data["modifier"]) == (
        29.0,
        "Medium",
        -10,
    )
    assert "attack" not in kinds(enc, "barclay")
    # Brie's spell: -10 for Medium speed; d = 2 is Medium range (0), not Point Blank.
    spell = one(events, "attack", "brie")
    assert [(m["name"], m["value"], m.get("rule")) for m in spell.data["modifiers"]] == [
        ("Medium combined speed (0 + 29 = 29)", -10, "FP-6, FP-7"),
        ("Medium range (2 hexes of 6)", 0, "FP-17"),
    ]
    assert spell.data["target_number"] == 60 - 10 and spell.data["hit"]
    # At top speed Barclay may not dodge (FP-10): the hit lands at once.
    assert any("No dodge" in d and "speed 29 > 14.5" in d for d in spell.details)
    assert [e.text for e in events if e.kind == "reaction"] == [
        "Brie the Oaken: roll to hit Barclay the Black with the Spark"
    ]  # no dodge to pick or roll
    assert one(events, "hit").data["hits_taken"] == 2
    assert gap(enc) == 1
    panel = view(enc, "barclay")
    assert (panel["speed"], panel["may_dodge"], panel["hits_taken"]) == ("29", False, 2)
    assert view(enc, "brie")["speed"] == "0"


def test_e3_gaps_round_by_round_and_the_whole_log_replays(enc: Encounter) -> None:
    gaps = [gap(enc)]
    for play in (e3_round_1, e3_round_2, e3_round_3_moves, e3_round_4):
        play(enc)
        gaps.append(gap(enc))
        if play is e3_round_3_moves:
            e3_round_3_rest(enc)
    assert gaps == [12, 8, 0, 4, 1]
    doc = to_document(enc)
    again = from_document(doc)
    assert to_document(again) == doc
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]


def test_e3_with_readying_costing_an_action_brie_cannot_strike_in_round_2() -> None:
    enc = e3_encounter({"fp.ready_costs_action": True})
    e3_round_1(enc)
    act(enc, "declare", "barclay", mode="top")
    act(enc, "declare", "brie", mode="top", ready="Staff", drop=True)
    next_step(enc)
    goto(enc, "barclay", BARCLAY_PLAN[2])
    goto(enc, "brie", BRIE_PLAN[2])
    next_step(enc)
    act(enc, "stop_or_continue", "barclay", choice="stop")
    act(enc, "stop_or_continue", "brie", choice="continue")
    next_step(enc)
    assert "attack" in kinds(enc, "barclay") and kinds(enc, "brie") == []


def test_e3_play_e3_helper_reaches_round_4(enc: Encounter) -> None:
    play_e3(enc)
    assert enc.state.clock.counters == (4,) and enc.state.step.id == "act"
