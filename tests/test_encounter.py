"""Encounters: set-up checks, legal actions, performing with dice, undo and redo."""

from __future__ import annotations

from fractions import Fraction

import pytest
from factories import skirmish_duel

from hexcombat import Action, Encounter, Hex, IllegalActionError, InvalidDocumentError
from hexcombat.document import to_document
from hexcombat.encounter import MoreDiceNeededError

pytestmark = pytest.mark.pyodide


def kinds(enc: Encounter, figure: str | None) -> list[str]:
    return [a.kind for a in enc.legal_actions(figure)]


def test_new_encounter_starts_at_the_first_step_of_round_one() -> None:
    enc = skirmish_duel()
    assert enc.ruleset.time.label(enc.state.clock) == "Round 1 · Movement"
    assert kinds(enc, "ann") == ["move", "face"]
    assert kinds(enc, None) == ["next_step"]
    assert enc.state.figures["bo"].pools["hp"].current == 12


def test_move_offers_exactly_the_reachable_hexes_with_their_costs() -> None:
    enc = skirmish_duel()
    move = enc.legal_actions("ann")[0]
    offered = {c.value for c in move.param("to").choices}
    assert "2,1" in offered  # open ground, 1 MP
    assert "4,1" not in offered  # Bo stands there
    assert "5,0" not in offered  # wall
    preview = enc.preview(Action("move", "ann", {"to": "3,1"}))
    assert preview.allowed and preview.cost == 3  # 1 open + 2 woods


def test_move_changes_position_and_facing_and_logs_an_event() -> None:
    enc = skirmish_duel()
    events = enc.perform(Action("move", "ann", {"to": "3,1"}))
    ann = enc.state.figures["ann"]
    assert ann.position == Hex(3, 1)
    assert events[0].kind == "move" and "3 MP" in events[0].text
    assert kinds(enc, "ann") == []  # one move per step


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    enc = skirmish_duel()
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match=r"Destination: must be one of the \d+ offered"):
        enc.perform(Action("move", "ann", {"to": "7,5"}))
    with pytest.raises(IllegalActionError, match="cannot attack now; allowed now: Move, Face"):
        enc.perform(Action("attack", "ann", {"target": "bo"}))
    with pytest.raises(IllegalActionError, match="no figure 'zed'"):
        enc.perform(Action("move", "zed", {"to": "2,1"}))
    with pytest.raises(IllegalActionError, match="has no parameter speed"):
        enc.perform(Action("move", "ann", {"to": "2,1", "speed": 3}))
    assert to_document(enc) == before


def test_a_refused_parameter_gives_the_rulesets_own_reason_when_it_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The generic check still refuses; the ruleset's ``refusal`` hook only explains why."""
    enc = skirmish_duel()
    before = to_document(enc)
    far = Action("move", "ann", {"to": "7,5"})
    asked: list[Action] = []

    def refusal(self: object, state: object, action: Action) -> str:
        asked.append(action)
        return "Ann cannot get that far this turn (rule X-1)"

    monkeypatch.setattr(type(enc.ruleset), "refusal", refusal)
    with pytest.raises(
        IllegalActionError, match=r"^Ann cannot get that far this turn \(rule X-1\)$"
    ):
        enc.perform(far)
    assert to_document(enc) == before
    assert enc.preview(far).reason == "Ann cannot get that far this turn (rule X-1)"
    assert asked == [far, far]
    enc.perform(Action("move", "ann", {"to": "3,1"}))  # an offered value never asks
    assert asked == [far, far]


def play_to_attack(enc: Encounter) -> None:
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))


def test_attack_with_typed_dice_hits_and_deals_damage() -> None:
    enc = skirmish_duel()
    play_to_attack(enc)
    preview = enc.preview(Action("attack", "ann", {"target": "bo"}))
    hit, damage = (stage.rollable for stage in preview.rollables[0].stages)
    assert hit.target == 10 and hit.chance() == Fraction(14, 20)  # d20+3 >= 10
    assert [o.label for o in damage.outcomes()] == [f"{n} damage" for n in range(1, 7)]
    events = enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    assert "hits Bo Brute for 4" in events[0].text
    assert [r["faces"] for r in events[0].rolls] == [[15], [4]]
    assert enc.state.figures["bo"].pools["hp"].current == 8


def test_typed_dice_that_run_out_ask_for_more_and_change_nothing() -> None:
    enc = skirmish_duel()
    play_to_attack(enc)
    with pytest.raises(MoreDiceNeededError, match="roll one more d6") as needed:
        enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[20])
    assert needed.value.sides == 6  # Ann's damage die
    with pytest.raises(IllegalActionError, match="rolled only 1"):
        enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[2, 5])
    with pytest.raises(ValueError, match="1-20"):
        enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[21, 5])
    assert enc.cursor == 2 and enc.state.figures["bo"].pools["hp"].current == 12


def test_undo_and_redo_walk_the_log_and_a_new_action_drops_the_redo_tail() -> None:
    enc = skirmish_duel()
    play_to_attack(enc)
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    enc.undo()
    assert enc.state.figures["bo"].pools["hp"].current == 12 and enc.can_redo
    enc.redo()
    assert enc.state.figures["bo"].pools["hp"].current == 8
    enc.undo()
    enc.undo()
    assert enc.state.step.id == "move"
    enc.perform(Action("face", "bo", {"facing": 0}))
    assert not enc.can_redo and len(enc.log) == 2
    with pytest.raises(IllegalActionError, match="nothing to redo"):
        enc.redo()


def test_seeded_dice_give_the_same_rolls_after_undo() -> None:
    enc = skirmish_duel(seed=99)
    play_to_attack(enc)
    first = enc.perform(Action("attack", "ann", {"target": "bo"}))
    enc.undo()
    again = enc.perform(Action("attack", "ann", {"target": "bo"}))
    assert first == again


def test_setup_checks_report_every_problem_with_its_path() -> None:
    enc = skirmish_duel()
    cy = enc.ruleset.new_figure("cy", "Cy", "Red", Hex(5, 0))
    cy.stats["move"] = 99
    with pytest.raises(InvalidDocumentError) as caught:
        enc.with_figure(cy)
    messages = [str(p) for p in caught.value.problems]
    assert "figures[2].position: F3 (5,0) is Wall, which no one can enter" in messages
    assert "figures[2].stats.move: must be a whole number from 0 to 20, got 99" in messages


def test_setup_edit_that_breaks_the_log_is_refused() -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    with pytest.raises(InvalidDocumentError, match=r"log\[0\]: move cannot be replayed"):
        enc.painted([Hex(3, 1)], "wall")
    assert enc.setup.board.terrain_id_at(Hex(3, 1)) == "woods"


def test_new_figure_ids_are_unique_slugs() -> None:
    enc = skirmish_duel()
    assert enc.new_figure_id("Ann") == "ann-2"
    assert enc.new_figure_id("Brie the Oaken!") == "brie-the-oaken"


def test_attack_to_zero_hit_points_puts_the_target_down() -> None:
    enc = skirmish_duel()
    play_to_attack(enc)
    bo = enc.setup_figure("bo")
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[20, 6])
    enc.perform(Action("next_step"))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[20, 6])
    assert bo.pools == {}  # the setup copy is untouched by play
    assert enc.state.figures["bo"].has_status("down")
    assert enc.legal_actions("bo") == []


def test_legal_actions_are_worked_out_once_per_state_and_follow_the_cursor() -> None:
    enc = skirmish_duel()
    rs = enc.ruleset
    before = enc.legal_actions("ann")
    assert before == rs.legal_actions(enc.state, "ann")
    before.clear()  # the caller's list; the encounter keeps its own
    assert enc.legal_actions("ann") == rs.legal_actions(enc.state, "ann")
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    assert enc.legal_actions("ann") == rs.legal_actions(enc.state, "ann") == []
    enc.undo()
    assert [s.kind for s in enc.legal_actions("ann")] == ["move", "face"]
    enc.redo()
    assert enc.legal_actions("ann") == []
    assert enc.legal_actions(None) == rs.legal_actions(enc.state, None)
