"""What the table reads, under CPython: the turn line for every kind of moment, the
fight's end, the Attack/Select choice, the target line, player wording with details, and a
fresh Play that selects nothing."""

from __future__ import annotations

import pytest
from demo_skirmish import skirmish_demo

from hexcombat import Action, Encounter, Hex, IllegalActionError, loads
from hexcombat.dice import DiceFaceError
from hexcombat.view import encounter_view
from web.play import table
from web.session import Session
from web.ui.words import details_html, plain_error


def duel() -> Encounter:
    enc = Encounter.new("skirmish", 8, 6, name="Words")
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("ash", "Ash", "Wardens", Hex(2, 2), 1))
    return enc.with_figure(rs.new_figure("dax", "Dax", "Raiders", Hex(3, 2), 4))


def test_the_turn_line_says_round_step_and_who_acts_then_who_won() -> None:
    enc = duel()
    assert table.turn_line(encounter_view(enc)) == "Round 1 · Movement · 2 to act: Ash, Dax"
    enc.perform(Action("gm_pool", None, {"figure": "dax", "pool": "hp", "value": 0}))
    enc.perform(Action("gm_status", None, {"figure": "dax", "status": "down", "duration": 0}))
    view = encounter_view(enc)
    assert table.turn_line(view) == "Round 1 · Movement · Fight over: Victory for Wardens"
    html = table.outcome_html(view["outcome"])
    assert 'data-outcome="Wardens"' in html and "<li>Fell: Dax</li>" in html
    assert 'data-over="true"' in table.turn_line_html(view)


def test_the_turn_line_names_at_most_three_and_counts_the_rest() -> None:
    enc = skirmish_demo()
    line = table.turn_line(encounter_view(enc))
    assert line.startswith("Round 1 · Movement · 6 to act: ") and line.endswith(" and 3 more")


def test_a_tapped_figure_offers_attack_beside_select_and_the_target_is_named() -> None:
    enc = duel()
    enc.perform(Action("next_step"))
    view = encounter_view(enc)
    dax = next(f for f in view["figures"] if f["id"] == "dax")
    attack = next(a for a in enc.legal_actions("ash") if a.kind == "attack").to_json()
    html = table.choice_html(dax, [(attack, "target")])
    assert 'data-cmd="choose-target"' in html and "Attack Dax" in html
    assert 'data-cmd="pick" data-pick="dax">Select Dax' in html
    line = table.target_line(attack, {"target": "dax"}, view)
    assert 'data-target="dax"' in line and "<strong>Dax</strong>" in line and "at D4" in line
    assert table.target_name(attack, {"target": "dax"}, view) == "Dax"
    assert table.commit_bar("60% hit", "<button>Roll</button>").startswith(
        '<div class="commit-bar" data-commit-bar><span class="bar-chance" data-bar-chance>60% hit'
    )


def test_the_commit_bar_reads_the_chance_in_the_rulesets_words() -> None:
    """Item 10: "60% to hit", from the engine's headline phrase, never "chance of <label>"."""
    enc = duel()
    enc.perform(Action("next_step"))
    pv = enc.preview(Action("attack", "ash", {"target": "dax"})).to_json()
    words = table.headline(pv["rollables"])
    assert words.endswith("% to hit") and "chance of" not in words


def test_player_wording_keeps_the_technical_text_under_details() -> None:
    plain, details = plain_error(
        IllegalActionError("attack: target (target) must be one of Bo (bo), got 'x'")
    )
    assert plain == "Target must be one of Bo (bo), got 'x'" and details.startswith("attack: ")
    plain, details = plain_error(DiceFaceError("die 1 of d20: face 1 is 25, but a d20 shows 1-20"))
    assert plain.startswith("A typed die does not fit: face 1 is 25, but a d20 shows 1-20")
    enc = Encounter.new("skirmish", 5, 6)
    with pytest.raises(ValueError) as off:
        enc.with_figure(enc.ruleset.new_figure("a", "A", "Blue", Hex(6, 1)))
    plain, details = plain_error(off.value)
    assert plain.startswith("Figure 1's position: 6,1 is off the 5x6 board")
    assert details == "figures[0].position: 6,1 is off the 5x6 board"
    with pytest.raises(ValueError) as bad:
        loads('{"format": null}')
    plain, _ = plain_error(bad.value)
    assert plain.startswith("This file is not a Hex Combat encounter")
    assert "<summary>details</summary>" in details_html("x") and details_html("") == ""


def test_a_fresh_play_starts_with_nothing_selected() -> None:
    session = Session()
    session.open(duel(), "e", "edit")
    session.select("ash")
    assert session.set_mode("play") and session.selected is None
