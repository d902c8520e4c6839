"""The autopilot: the same choice from the same view, fair with hidden choices and dice,
explained with the preview's numbers, prompts answered, temperaments that differ."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from autopilot_games import demo
from factories import skirmish_duel
from strike_chance_pulse_fixtures import duel, initiative, roll

from hexcombat import (
    Action,
    Encounter,
    Hex,
    HexcombatError,
    IllegalActionError,
    InvalidDocumentError,
    from_document,
)
from hexcombat.autopilot import (
    Autopilot,
    Decision,
    GreedyPolicy,
    RandomPolicy,
    RushPolicy,
    UnknownPolicyError,
    make_policy,
)
from hexcombat.autopilot.candidates import candidates
from hexcombat.autopilot.exact import damage_odds, exact_shift
from hexcombat.autopilot.explain import expected_damage
from hexcombat.autopilot.play import restarted, symmetric_start
from hexcombat.autopilot.scoring import TEMPERAMENTS, imagine, value, visible_state
from hexcombat.autopilot.stream import Stream
from hexcombat.autopilot.view import app_move, autopilot_view, played_by, suggest_view
from hexcombat.checks import percent
from hexcombat.dice import SeededDice
from hexcombat.document import dumps, from_share_code, loads, to_share_code
from hexcombat.encounter import AUTOPILOT_TEMPERAMENTS
from hexcombat.geometry import distance

pytestmark = pytest.mark.pyodide


def fp_four(seed: int = 1) -> Encounter:
    """Two against two in fig-percentile's hidden declaration step (hit points on)."""
    enc = Encounter.new("fig-percentile", 10, 10, seed=seed, options={"fp.damage_model": "hp"})
    rs = enc.ruleset
    for fid, side, at, facing in (
        ("a1", "A", Hex(4, 4), 0),
        ("a2", "A", Hex(4, 5), 0),
        ("b1", "B", Hex(5, 4), 3),
        ("b2", "B", Hex(5, 5), 3),
    ):
        enc = enc.with_figure(rs.new_figure(fid, fid.upper(), side, at, facing))
    return enc


def attack_step() -> Encounter:
    """skirmish's duel with Ann next to Bo in the attack step."""
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    return enc


def test_the_same_view_gives_the_same_decision() -> None:
    enc = attack_step()
    first = Autopilot("aggressive").decide(enc, "Blue")
    again = Autopilot("aggressive").decide(loads(dumps(enc)), "Blue")
    assert first is not None and again is not None
    assert first.action == again.action and first.reason == again.reason


def test_a_decision_is_an_offered_action_and_changes_nothing() -> None:
    enc = attack_step()
    before = dumps(enc)
    decision = Autopilot("careful").decide(enc, "Blue", must_act=True)
    assert decision is not None and dumps(enc) == before
    assert decision.action.kind in {s.kind for s in enc.legal_actions(decision.action.figure)}
    enc.perform(decision.action)  # the engine accepts it


def test_opponents_hidden_choices_do_not_change_the_decision() -> None:
    """B's undeclared-to-A choices, made in either order or not at all, leave A's the same."""
    plain = fp_four()
    base = Autopilot("aggressive").decide(plain, "A", must_act=True)
    assert base is not None and base.action.figure in {"a1", "a2"}
    b_specs = {fid: plain.legal_actions(fid)[0] for fid in ("b1", "b2")}
    modes = [c.value for c in b_specs["b1"].param("mode").choices]
    assert len(modes) >= 2
    for order in (("b1", "b2"), ("b2", "b1"), ("b1",), ("b2",)):
        for first, second in ((modes[0], modes[1]), (modes[1], modes[0]), (modes[1], modes[1])):
            enc = plain.copy()
            for fid, mode in zip(order, (first, second), strict=False):
                enc.perform(Action("declare", fid, {"mode": mode}))  # A still waits: secret
            assert not enc.state.declarations.revealed
            decision = Autopilot("aggressive").decide(enc, "A", must_act=True)
            assert decision is not None
            assert decision.action == base.action and decision.reason == base.reason


def test_visible_state_hides_only_other_sides_choices() -> None:
    enc = fp_four()
    enc.perform(Action("declare", "b1", {"mode": "walk"}))
    enc.perform(Action("declare", "a1", {"mode": "walk"}))
    seen = visible_state(enc.state, "A")
    assert set(seen.declarations.choices) == {"a1"}
    assert set(enc.state.declarations.choices) == {"a1", "b1"}  # the real state is untouched


def test_it_never_reads_the_dice_to_come(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encounter's seeded dice raise if made; the decision is made all the same, and
    encounters differing only in their seed get the same decision."""
    enc = attack_step()
    other = enc.with_setup(seed=99)
    expected = Autopilot("aggressive").decide(other, "Blue")
    made = SeededDice.__init__

    def guarded(self: SeededDice, seed: int, counter: int = 0) -> None:
        if seed == enc.setup.seed:
            raise AssertionError("the autopilot rolled the encounter's dice")
        made(self, seed, counter)

    monkeypatch.setattr(SeededDice, "__init__", guarded)
    with pytest.raises(AssertionError, match="encounter's dice"):
        enc.copy().perform(Action("attack", "ann", {"target": "bo"}))  # the guard works
    decision = Autopilot("aggressive").decide(enc, "Blue")
    assert decision is not None and expected is not None
    assert decision.action == expected.action


def test_an_attack_is_explained_with_the_previews_numbers() -> None:
    enc = attack_step()
    decision = Autopilot("aggressive").decide(enc, "Blue")
    assert decision is not None and decision.action.kind == "attack"
    head = enc.preview(decision.action).rollables[0].headline()
    assert head is not None
    assert decision.numbers["chance"] == pytest.approx(float(head.chance))
    assert "Bo Brute" in decision.reason and percent(head.chance) in decision.reason
    assert "damage expected" in decision.reason and decision.numbers["damage"] > 0


def test_a_prompt_is_answered_by_the_prompted_side() -> None:
    enc = duel()
    initiative(enc, [10, 9])
    roll(enc, [81], "melee", "ann", weapon="Broadsword", special="none", target="bo")
    prompt = enc.state.prompt
    assert prompt is not None and prompt.figure == "bo"
    decision = Autopilot("careful").decide(enc, "Red", must_act=True)
    assert decision is not None
    assert decision.action.kind in {a.kind for a in prompt.answers}
    assert Autopilot("careful").decide(enc, "Blue") is None  # Ann waits for the answer


def test_careful_falls_back_when_badly_hurt_and_aggressive_closes_in() -> None:
    enc = skirmish_duel()
    bo = enc.state.figures["bo"].position
    gap = distance(enc.state.figures["ann"].position, bo)
    bold = Autopilot("aggressive").decide(enc, "Blue")
    assert bold is not None and distance(bold.action.hex("to"), bo) < gap
    enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "hp", "value": 1}))
    careful = Autopilot("careful").decide(enc, "Blue")
    assert careful is not None and distance(careful.action.hex("to"), bo) > gap
    # at 1 hit point even the aggressive does not walk into the brute's blow first
    bold = Autopilot("aggressive").decide(enc, "Blue")
    assert bold is None or distance(bold.action.hex("to"), bo) >= gap


def test_value_prefers_the_foe_hurt() -> None:
    enc = attack_step()
    state = enc.state
    hurt = state.copy()
    bo = hurt.figures["bo"]
    bo.pools["hp"] = replace(bo.pools["hp"], current=1)
    for temper in TEMPERAMENTS.values():
        assert value(hurt, "Blue", temper) > value(state, "Blue", temper)
        assert value(hurt, "Red", temper) < value(state, "Red", temper)


def test_autopilot_hints_change_what_a_figure_is_worth(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = attack_step()
    state = enc.state
    temper = TEMPERAMENTS["aggressive"]
    before = value(state, "Blue", temper)
    monkeypatch.setattr(
        type(enc.ruleset),
        "autopilot_hints",
        lambda self, state, figure: {"worth": 3.0} if figure.id == "bo" else {},
    )
    assert value(state, "Blue", temper) < before


def test_baselines_play_offered_actions() -> None:
    enc = attack_step()
    for policy in (RandomPolicy(), RushPolicy(), GreedyPolicy()):
        decision = policy.decide(enc, "Blue", must_act=True)
        assert decision is not None
        enc.copy().perform(decision.action)
    rush = RushPolicy().decide(enc, "Blue")
    assert rush is not None and rush.action.kind == "attack"


def test_greedy_takes_the_attack_its_preview_prices_highest() -> None:
    """The greedy baseline: of the attacks offered, the one with the most harm expected by
    its preview (the damage amounts' exact mean), named in its reason."""
    enc = attack_step()
    rs = enc.ruleset
    cy = rs.new_figure("cy", "Cy Shield", "Red", Hex(2, 1), 5)
    cy.stats.update(defence=16)
    enc = enc.with_figure(cy)
    decision = GreedyPolicy().decide(enc, "Blue")
    assert decision is not None and decision.action.kind == "attack"
    offered = [
        a
        for s in enc.legal_actions("ann")
        for a in candidates(enc.state, s, Stream("t"), 12)
        if a.kind == "attack"
    ]

    def harm(action: Action) -> object:
        rollables = enc.ruleset.preview(enc.state, action).rollables
        return sum(d for r in rollables if (d := expected_damage(r)) is not None)

    assert len(offered) > 1 and harm(decision.action) == max(harm(a) for a in offered)
    assert "most harm expected" in decision.reason


def test_ta_22_greedy_declares_no_shot_with_nothing_loaded() -> None:
    """two-action-2d10: Bo, bare-handed with an unloaded sling and one action this round,
    may not declare a lone shot (TA-22: load first), which the encounter's preview and the
    declaration refuse but the ruleset's own preview allows. The greedy baseline read that
    preview alone, so it declared the shot, was refused and the game ended drawn as if both
    sides stood; it now declares only what the rules accept."""
    enc = restarted(demo("two-action-2d10"), 2)
    state = enc.state
    bo = state.figures["bo"]
    bo.stats.update(missile="sling", weapon="natural")  # this set-up's own state
    enc.ruleset.writing(state).lost["bo"] = 1
    shot = Action("declare", "bo", {"first": "shoot", "second": "none", "target": "ann"})
    assert enc.ruleset.preview(state, shot).allowed and not enc.preview(shot).allowed
    decision = GreedyPolicy().decide(enc, "Red", must_act=True)
    assert decision is not None and enc.preview(decision.action).allowed
    enc.perform(decision.action)


def test_greedy_closes_in_and_lets_the_step_end_when_nothing_helps() -> None:
    enc = skirmish_duel()
    ann, bo = enc.state.figures["ann"], enc.state.figures["bo"]
    decision = GreedyPolicy().decide(enc, "Blue")
    assert decision is not None and decision.action.kind == "move"
    to = Hex.parse(str(decision.action.params["to"]))
    assert distance(to, bo.position) < distance(ann.position, bo.position)
    enc.perform(decision.action)
    assert GreedyPolicy().decide(enc, "Blue") is None


def test_unknown_policy_is_refused_with_the_names() -> None:
    with pytest.raises(UnknownPolicyError, match="aggressive, careful, random, rush, greedy"):
        make_policy("cunning")
    assert issubclass(UnknownPolicyError, HexcombatError)


def test_symmetric_start_and_restart() -> None:
    template = skirmish_duel()
    enc = symmetric_start(template, 5)
    assert sorted(f.side for f in enc.state.figures.values()) == ["A", "A", "B", "B"]
    assert enc.setup.seed == 5 and not enc.log
    played = attack_step()
    again = restarted(played, 3, {"skirmish.rear_bonus": 3})
    assert again.cursor == 0 and again.setup.options["skirmish.rear_bonus"] == 3


def test_the_sides_the_app_plays_and_its_notes_are_saved_and_undone() -> None:
    enc = attack_step().with_setup(autopilot={"Red": "careful"})
    decision = Autopilot("aggressive").decide(enc, "Blue")
    assert decision is not None
    events = enc.perform(decision.action, note=f"App (aggressive): {decision.reason}")
    assert events[0].kind == "note" and decision.reason in events[0].text
    again = loads(dumps(enc))
    assert again.setup.autopilot == {"Red": "careful"}
    assert again.log[-1].note.endswith(decision.reason)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]
    enc.undo()
    assert all(e.kind != "note" for e in enc.events)


def test_a_version_1_document_reads_with_no_side_played_by_the_app() -> None:
    doc = json.loads(dumps(attack_step()))
    doc["version"] = 1
    del doc["autopilot"]
    assert from_document(doc).setup.autopilot == {}


def test_a_bad_autopilot_setting_or_note_is_refused_and_changes_nothing() -> None:
    enc = attack_step()
    with pytest.raises(InvalidDocumentError, match="aggressive, careful"):
        enc.with_setup(autopilot={"Red": "reckless"})
    before = dumps(enc)
    with pytest.raises(IllegalActionError, match="at most 500"):
        enc.perform(Action("next_step"), note="x" * 501)
    assert dumps(enc) == before
    assert set(TEMPERAMENTS) == set(AUTOPILOT_TEMPERAMENTS)


def test_the_page_view_plays_the_sides_set_one_move_at_a_time() -> None:
    enc = skirmish_duel()
    assert app_move(enc) is None  # people play every side
    enc = played_by(enc, "Red", "aggressive")
    view = autopilot_view(enc)
    assert {"side": "Red", "played_by": "aggressive"} in view["sides"]
    move = app_move(enc)
    assert move is not None and move["side"] == "Red"
    assert str(move["note"]).startswith("The app (aggressive) plays Red: ")
    action = Action.from_json(move["action"])
    assert action.figure == "bo"
    enc.perform(action, note=str(move["note"]))
    both = played_by(played_by(enc, "Blue", "careful"), "Red", "")
    assert both.setup.autopilot == {"Blue": "careful"}
    assert played_by(both, "Blue", "").setup.autopilot == {}


def test_the_app_ends_the_step_when_it_plays_every_side() -> None:
    enc = played_by(played_by(attack_step(), "Blue", "aggressive"), "Red", "careful")
    seen = []
    for _ in range(12):
        move = app_move(enc)
        if move is None:
            break
        seen.append(Action.from_json(move["action"]).kind)
        enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
    assert "next_step" in seen and "attack" in seen


def test_suggest_view_names_the_figures_move_and_does_nothing() -> None:
    enc = attack_step()
    before = dumps(enc)
    found = suggest_view(enc, "ann")
    assert isinstance(found["action"], dict) and found["action"]["figure"] == "ann"
    assert "Bo Brute" in str(found["reason"]) and dumps(enc) == before
    enc.perform(Action.from_json(found["action"]))
    done = suggest_view(enc, "ann")  # Ann has attacked: nothing left this step
    assert done["action"] is None and "nothing to do" in str(done["reason"])


def test_a_share_link_carries_the_sides_the_app_plays_and_its_notes() -> None:
    enc = played_by(attack_step(), "Red", "careful")
    move = app_move(enc)
    assert move is not None
    enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
    again = from_share_code(to_share_code(enc))
    assert again.setup.autopilot == {"Red": "careful"}
    assert again.log[-1].note == move["note"]


def test_the_app_stops_after_a_dozen_moves_a_figure_in_one_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Even a policy that always finds a better move hands the step back in the end."""
    enc = played_by(skirmish_duel(), "Red", "aggressive")
    turn = Action("face", "bo", {"facing": 1})
    found = Decision(turn, "turn", {})
    monkeypatch.setattr(Autopilot, "decide", lambda self, *a, **k: found)
    moves = 0
    while (move := app_move(enc)) is not None and moves < 40:
        enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
        moves += 1
    assert moves == 12


def test_a_spent_time_budget_still_gives_the_best_move_found_so_far() -> None:
    enc = attack_step()
    hurried = Autopilot("aggressive", seconds=0.0).decide(enc, "Blue", must_act=True)
    assert hurried is not None
    assert hurried.action.kind in {s.kind for s in enc.legal_actions("ann")}
    enc.copy().perform(hurried.action)


def test_an_attacks_own_luck_is_swapped_for_its_exact_odds() -> None:
    enc = attack_step()
    seen = enc.state
    attack = Action("attack", "ann", {"target": "bo"})
    chain = enc.preview(attack).rollables[0]
    odds = damage_odds(chain)
    assert odds is not None and sum(odds.values()) == 1
    assert odds[0] == 1 - chain.reached()[-1]  # a miss deals nothing
    temper = TEMPERAMENTS["aggressive"]
    weight = temper.harm_done
    seen_hp, shifted = set(), set()
    for k in range(12):  # whatever the imagined roll, Bo's part of the value is the same
        after = imagine(seen, attack, "Blue", Stream(f"roll {k}"))
        assert after is not None
        bo = after[0].figures["bo"]
        left = 0 if bo.has_status("down") else bo.pools["hp"].current
        seen_hp.add(left)
        part = -weight * (left / bo.pools["hp"].maximum) ** 0.5
        shifted.add(round(part + exact_shift(seen, attack, after[0], "Blue", temper), 9))
    assert len(seen_hp) > 2 and len(shifted) == 1
    dealt = sum(float(p) * d for d, p in odds.items())
    assert dealt == pytest.approx(float(expected_damage(chain) or 0))


def bos_blow_at_ann() -> Encounter:
    """two-action-2d10's demo: both declared attack and parry, Bo has struck, Ann answers."""
    enc = restarted(demo("two-action-2d10"), 1)
    for fid, foe in (("ann", "bo"), ("bo", "ann")):
        declared = {"first": "attack", "second": "parry", "combine": False}
        enc.perform(Action("declare", fid, {**declared, "target": foe, "guard": foe}))
    enc.perform(Action("next_step"))
    enc.perform(Action("next_step"))
    enc.perform(Action("strike", "bo", {}))
    return enc


def test_an_answer_to_a_blow_counts_the_harm_taken_at_its_exact_odds() -> None:
    """two-action-2d10: Ann answers Bo's blow (TA-7, parry or take it); the damage comes
    off her hit points, what they cannot take off her body points (TA-12)."""
    seen = bos_blow_at_ann().state  # Bo's roll: 55% to hit if parried, else 100%
    assert seen.prompt is not None and seen.prompt.figure == "ann"
    temper = TEMPERAMENTS["careful"]
    for answer in ("parry", "take"):
        action = Action(answer, "ann", {})
        lost, shifted = set(), set()
        for k in range(16):
            after = imagine(seen, action, "Blue", Stream(f"roll {k}"))
            assert after is not None
            ann = after[0].figures["ann"]
            shares = [max(0, p.current) / p.maximum for p in ann.pools.values()]
            part = temper.harm_taken * (sum(shares) / len(shares)) ** 0.5
            lost.add(tuple(p.current for p in ann.pools.values()))
            shifted.add(round(part + exact_shift(seen, action, after[0], "Blue", temper), 9))
        assert len(lost) > 2 and len(shifted) == 1, answer


def test_an_answer_is_explained_with_the_foes_odds_and_the_harm_to_its_figure() -> None:
    """two-action-2d10: Ann answers Bo's blow (TA-7): the odds are Bo's roll, the damage is
    what it does to her, and the imagined moves after it are harm taken, not "damage back"."""
    decision = Autopilot("careful").decide(bos_blow_at_ann(), "Blue", must_act=True)
    assert decision is not None and decision.action.figure == "ann"
    assert "against the foe's roll of" in decision.reason, decision.reason
    assert "damage to you expected" in decision.reason, decision.reason
    assert "damage back" not in decision.reason, decision.reason


def two_foes_in_reach(cy_hp: int) -> Encounter:
    """skirmish's attack step: Ann next to Bo (90% to hit) and Cy (40%: defence 18), Cy at
    ``cy_hp`` of 12 hit points."""
    enc = Encounter.new("skirmish", 8, 6, name="Two foes", seed=7)
    rs = enc.ruleset
    ann = rs.new_figure("ann", "Ann", "Blue", Hex(3, 1), 0)
    ann.stats.update(hp=30)
    enc = enc.with_figure(ann)
    for fid, at, facing, defence in (("bo", Hex(4, 1), 3, 8), ("cy", Hex(4, 0), 2, 18)):
        foe = rs.new_figure(fid, fid.title(), "Red", at, facing)
        foe.stats.update(attack=5, defence=defence, hp=12, damage="d8")
        enc = enc.with_figure(foe)
    enc.perform(Action("gm_pool", None, {"figure": "cy", "pool": "hp", "value": cy_hp}))
    enc.perform(Action("next_step"))
    return enc


def test_blows_go_to_the_foe_closest_to_falling() -> None:
    """Focus fire: a foe down strikes no more, so taking one out is worth more than the same
    damage spread. Cy at 2 hit points goes down to any hit (40%); Bo is hit more often (90%)
    but stands. The autopilot attacks Cy (it used to take the likelier hit on Bo), and Bo
    when Cy is unhurt."""
    for cy_hp, target in ((2, "cy"), (12, "bo")):
        decision = Autopilot("aggressive").decide(two_foes_in_reach(cy_hp), "Blue", must_act=True)
        assert decision is not None and decision.action.params["target"] == target, cy_hp


def test_figures_close_in_on_the_sides_focus_not_only_their_nearest_foe() -> None:
    """Focus fire in the moves: Ann's nearest foe is Bo, but Cy is nearest the side as a
    whole (Dee stands by it), so a hex nearer Cy and no farther from Bo is worth more."""
    enc = Encounter.new("skirmish", 12, 12, name="Focus", seed=7)
    rs = enc.ruleset
    for fid, side, at in (
        ("ann", "Blue", Hex(1, 1)),
        ("dee", "Blue", Hex(1, 9)),
        ("bo", "Red", Hex(4, 1)),
        ("cy", "Red", Hex(1, 6)),
    ):
        enc = enc.with_figure(rs.new_figure(fid, fid.title(), side, at, 0))
    state = enc.state
    near_cy = state.copy()
    near_cy.figures["ann"] = replace(near_cy.figures["ann"], position=Hex(1, 2))
    gap = distance(Hex(1, 1), Hex(4, 1))
    assert distance(Hex(1, 2), Hex(4, 1)) == gap
    assert distance(Hex(1, 2), Hex(1, 6)) < distance(Hex(1, 1), Hex(1, 6))
    for temper in TEMPERAMENTS.values():
        assert value(near_cy, "Blue", temper) > value(state, "Blue", temper)
