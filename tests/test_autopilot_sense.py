"""The autopilot plays as a player would call sensible: it takes a good blow offered rather
than letting the step end, readies its own ranked weapon rather than a foe's, faces a foe it
can strike, does not run alone into two foes, and says so when a figure has nothing useful
to do; and the long mode counts each lapse of the kind."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from autopilot_games import demo, starts
from autopilot_waste import judged
from factories import skirmish_duel
from scratch_fights import FIGHTS, built
from strike_chance_pulse_fixtures import ANN_AT, duel, initiative

from hexcombat import Action, Encounter, Hex
from hexcombat.autopilot import Autopilot, Decision, RushPolicy
from hexcombat.autopilot.candidates import candidates, hex_of
from hexcombat.autopilot.play import Referee, play_game, play_match, restarted
from hexcombat.autopilot.policy import Turn
from hexcombat.autopilot.routes import route_gap
from hexcombat.autopilot.stream import Stream
from hexcombat.autopilot.view import app_move, played_by
from hexcombat.editing import new_item
from hexcombat.geometry import distance, in_front_arc, neighbor, neighbors
from hexcombat.layout import from_offset
from hexcombat.rulesets.strike_chance_pulse.ground import drop

pytestmark = pytest.mark.pyodide

CSP = {"csp.combat_resolver": "skirmish"}
"""combat-speed-phase's borrowed roll (C-1): the text has no damage rules."""
A1_AT = Hex(4, 4)


def disarmed_bo() -> Encounter:
    """strike-chance-pulse: Bo (Broadsword at Rank 2, no shield) has dropped his sword at his
    feet beside Ann's Spear (he has no Rank with spears); he acts first this Pulse."""
    enc = duel()
    ann, bo = enc.state.figures["ann"], enc.state.figures["bo"]
    bo.equipment = [i for i in bo.equipment if i.kind == "weapon"]
    drop(bo, bo.equipment[0])
    ann.equipment.append(enc.ruleset.item("Spear"))
    drop(bo, ann.equipment[-1])
    initiative(enc, [1, 10])
    return enc


def test_a_disarmed_figure_picks_up_its_own_ranked_weapon_not_a_foes() -> None:
    """The knight picked up the foe's Spear (unranked) over his own Broadsword (Rank 3), or
    charged bare-handed at 14%: a weapon in hand counted alike whatever its Strike Chance,
    and walking away from his sword lost nothing. The rules' ``unready`` hint now measures
    what he holds against the best weapon of his own or in reach."""
    enc = disarmed_bo()
    offered = [s for s in enc.legal_actions("bo") if s.kind == "prepare"]
    assert [c.value for c in offered[0].params[0].choices] == ["ann/Spear", "Broadsword"]
    decision = Autopilot("aggressive").decide(enc, "Red")
    assert decision is not None
    assert (decision.action.kind, decision.action.params) == ("prepare", {"item": "Broadsword"})
    hints = enc.ruleset.autopilot_hints
    bo = enc.state.figures["bo"]
    assert hints(enc.state, bo)["unready"] > 0.5  # bare hands against his Broadsword
    enc.perform(decision.action)
    assert hints(enc.state, enc.state.figures["bo"])["unready"] == 0


def test_scp_31_a_disarmed_figure_picks_up_its_own_weapon_before_the_same_one_a_foe_dropped() -> (
    None
):
    """strike-chance-pulse: Bo's Broadsword and Ann's (the same weapon) lie at his feet. The
    two picks look alike to every look ahead, and the first offered, Ann's, was the plain
    pick (the one a look ahead tries, and a tie's winner): the long mode counted such picks
    as a pick-up of another's weapon over his own. His own gear is now tried first."""
    enc = duel()
    ann, bo = enc.setup_figure("ann"), enc.setup_figure("bo")
    bo.equipment = [i for i in bo.equipment if i.kind == "weapon"]
    drop(bo, bo.equipment[0])
    ann.equipment.append(enc.ruleset.item("Broadsword"))
    drop(bo, ann.equipment[-1])
    enc = enc.with_figure(ann).with_figure(bo)
    initiative(enc, [1, 10])
    offered = [s for s in enc.legal_actions("bo") if s.kind == "prepare"]
    assert [c.value for c in offered[0].params[0].choices] == ["ann/Broadsword", "Broadsword"]
    seen = Turn(enc, "Red").seen()
    assert candidates(seen, offered[0], Stream("plain"))[0].params == {"item": "Broadsword"}
    decision = Autopilot("aggressive").decide(enc, "Red")
    assert decision is not None
    assert decision.action.to_json()["params"] == {"item": "Broadsword"}
    assert "pickup" not in judged(Turn(enc, "Red"), decision)


def back_to_the_foe() -> Encounter:
    """combat-speed-phase (the borrowed roll): A1 stands next to B1 with its back to it, both
    with short swords, in the first declaration step. At N = 0 it cannot turn (CSP-7)."""
    enc = Encounter.new("combat-speed-phase", 10, 10, seed=1, options=CSP)
    rs, data = enc.ruleset, enc.state.data
    for fid, side, at, facing in (("a1", "A", A1_AT, 4), ("b1", "B", neighbor(A1_AT, 1), 4)):
        figure = rs.new_figure(fid, fid.upper(), side, at, facing)
        figure.equipment.append(new_item(rs, data, "Short sword"))
        enc = enc.with_figure(figure)
    return enc


def test_a_figure_at_grips_turns_to_face_its_foe_and_strikes() -> None:
    """Figures next to foes, none facing one, declared N = 0 phase after phase: a move that
    turns one hexside of the two needed scored as nothing, and no candidate turned where
    the figure stood. It now declares a speed, turns in the phase's two halves and strikes
    in the phase's combat step."""
    enc = back_to_the_foe()
    a1, b1 = enc.state.figures["a1"], enc.state.figures["b1"]
    assert not in_front_arc(a1.position, a1.facing, b1.position)
    played: list[tuple[int, str | None, str]] = []

    def watch(side: str | None, decision: Decision) -> None:
        played.append((enc.state.clock.counters[0], side, decision.action.kind))

    referee = Referee({"A": Autopilot("aggressive"), "B": RushPolicy()})
    play_game(enc, referee, 14, watch)
    assert (1, "A", "strike") in played, played
    a1 = enc.state.figures["a1"]
    assert in_front_arc(a1.position, a1.facing, b1.position)


def test_csp_7_figures_back_to_back_both_played_by_the_app_turn_and_strike_on_a_small_budget() -> (
    None
):
    """A1 and B1 stand side by side, each with its back to the other, both played by the
    app on a small budget (20 engine calls). The first of the two speeds, N = 0 (under which
    a figure cannot turn, CSP-7), spent the hidden choice's whole first look, so both
    declared it phase after phase and neither ever turned. The first look now keeps a
    play-out's floor for the next candidate: a speed that turns is declared and the first
    phase has its blow."""
    enc = back_to_the_foe()
    enc.state.figures["b1"].facing = 1
    a1, b1 = enc.state.figures["a1"], enc.state.figures["b1"]
    assert not in_front_arc(a1.position, a1.facing, b1.position)
    assert not in_front_arc(b1.position, b1.facing, a1.position)
    played: list[tuple[int, str | None, str]] = []

    def watch(side: str | None, decision: Decision) -> None:
        played.append((enc.state.clock.counters[0], side, decision.action.kind))

    small = {side: Autopilot("aggressive", budget=20) for side in ("A", "B")}
    play_game(enc, Referee(small), 14, watch)
    assert any(phase == 1 and kind == "strike" for phase, _side, kind in played), played


def round_the_fallen() -> Encounter:
    """combat-speed-phase's fight from scratch (tests/scratch_fights.py) down to one figure a
    side: Blue B at 1,2 facing N and Red A at 0,1 facing SE, two hexes apart, the two hexes
    between them (every short way) held by the fallen Blue A and Red B; both played by the
    app, in the first declaration step."""
    enc = built(FIGHTS["combat-speed-phase"])
    enc = placed(enc, "red-a", Hex(0, 1), 2)
    enc = placed(enc, "blue-b", Hex(1, 2), 0)
    for fallen in ("blue-a", "red-b"):  # this set-up's own state (no other test has it)
        enc.state.figures[fallen].pools["hp"].current = 0
    return played_by(played_by(enc, "Blue", "aggressive"), "Red", "aggressive")


def placed(enc: Encounter, figure_id: str, at: Hex, facing: int) -> Encounter:
    """``enc`` with a figure of its set-up standing at ``at`` facing ``facing`` (a set-up
    change: the state of an equal set-up is shared, never changed)."""
    figure = enc.setup_figure(figure_id)
    figure.position, figure.facing = at, facing
    return enc.with_figure(figure)


def test_csp_8_two_figures_the_fallen_keep_apart_go_round_them_and_fight() -> None:
    """Two figures whose every short way to the other is blocked by a fallen figure saw no
    step round the obstacle bring them nearer (the hex distance looks through it): both
    declared N = 0 ("nothing useful to do now") phase after phase, for good. The gap to a
    foe now counts round what blocks the way, so one of them goes round and they fight."""
    enc = round_the_fallen()
    here = {fid: f.position for fid, f in enc.state.figures.items()}
    assert distance(here["blue-b"], here["red-a"]) == 2
    assert all(
        h in (here["blue-a"], here["red-b"])
        for h in neighbors(here["blue-b"])
        if distance(h, here["red-a"]) == 1
    )
    for _ in range(400):
        move = app_move(enc)
        if move is None or enc.state.clock.counters[0] > 8:
            break
        enc.perform(Action.from_json(move["action"]))
    assert enc.ruleset.fight_outcome(enc.state) is not None, enc.state.clock


def test_a_good_blow_is_not_passed_up_for_the_steps_end() -> None:
    """two-action-2d10: Ann, worn out (no hit points left, 2 body points), stands next to
    Bo unhurt in the hidden declaration step. A blow at 79% whose harm back is expected
    no greater than its own was passed up (no declaration: the step ends without her),
    the play-outs' noise making passing look better; a blow of at least even odds with no
    greater harm back is now never thrown away."""
    enc = restarted(demo("two-action-2d10"), 1)
    ann = enc.state.figures["ann"]
    ann.pools["hp"].current, ann.pools["bp"].current = 0, 2
    decision = Autopilot("aggressive").decide(enc, "Blue")
    assert decision is not None and decision.action.kind == "declare"
    assert decision.action.params["target"] == "bo"
    assert decision.numbers["chance"] >= 0.5
    assert decision.numbers["taken"] <= decision.numbers["damage"]


def test_a_figure_with_no_useful_action_says_so() -> None:
    """skirmish: Ann has stepped next to Bo, who faces her; in the move step Bo gains nothing
    by moving or turning, but asked to act (Suggest, a step that waits) he must name
    something. His reason said what the play-outs showed, as if the turn were worth it; it
    now says there is nothing useful to do, and where his foe is."""
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    decision = Autopilot("aggressive").decide(enc, "Red", must_act=True)
    assert decision is not None and decision.numbers["score"] <= 0
    assert decision.reason.endswith(
        ": nothing useful to do now (Ann Archer, the nearest foe, is 1 hex away)"
    )
    enc.perform(Action("next_step"))  # the attack step: Ann's blow is worth making
    attack = Autopilot("aggressive").decide(enc, "Blue")
    assert attack is not None and attack.action.kind == "attack"
    assert "nothing useful" not in attack.reason


def two_foes_ahead() -> Encounter:
    """skirmish: A2 (fast, 8 hit points) and A1 (slow) against B3 and B4, standing side by
    side five hexes away, in the first move step."""
    enc = Encounter.new("skirmish", 10, 10, seed=1)
    rs = enc.ruleset
    for fid, side, at, facing, stats in (
        ("a1", "A", Hex(2, 3), 1, {"move": 3, "attack": 3, "defence": 11, "hp": 11}),
        ("a2", "A", Hex(2, 4), 1, {"move": 5, "attack": 3, "defence": 15, "hp": 8}),
        ("b3", "B", Hex(7, 1), 4, {"move": 2, "attack": 3, "defence": 9, "hp": 7}),
        ("b4", "B", Hex(7, 2), 4, {"move": 3, "attack": 2, "defence": 12, "hp": 11}),
    ):
        figure = rs.new_figure(fid, fid.upper(), side, at, facing)
        figure.stats.update(stats)
        enc = enc.with_figure(figure)
    return enc


def test_a_figure_running_ahead_does_not_step_next_to_two_foes_when_one_will_do() -> None:
    """The fast A2 ran ahead of its slow friend to the hex next to both foes and took both
    their blows alone: the position score counted standing at grips alike with one foe or
    two. Each foe beyond one at grips with a figure now costs its side (and a foe alone
    against two of the side gains it), and A2 steps next to one foe only."""
    enc = two_foes_ahead()
    decision = Autopilot("aggressive").decide(enc, "A")
    assert decision is not None and decision.action.figure == "a2"
    to = decision.action.hex("to")
    foes = [enc.state.figures[f].position for f in ("b3", "b4")]
    assert 1 in [distance(to, at) for at in foes]  # it closes in
    assert sorted(distance(to, at) for at in foes)[1] > 1  # next to one foe, not both


def ta_archer() -> Encounter:
    """two-action-2d10: Ann with a bow (missile skill 5) five hexes from Bo (spear), both in
    the open; nothing loaded."""
    sys.path.insert(0, str(Path(__file__).parent / "rules"))
    import two_action_2d10_fixtures as ta

    enc = ta.make(ta.arena(12, 8), "ann", "Ann", "Blue", Hex(2, 3), 1, missile="bow")
    enc.state.figures["ann"].stats["missile_skill"] = 5
    return ta.make(enc, "bo", "Bo", "Red", Hex(7, 3), 4, weapon="spear")


def test_ta_22_a_shot_declared_with_nothing_loaded_is_tried_as_a_load_and_a_shot() -> None:
    """The archer's candidates never paired Load with Shoot: a shot alone with nothing
    loaded was refused, and the pair took two parameters varied together. A declaration the
    rules refuse is now mended by changing its other action, so Load and Shoot is tried."""
    from hexcombat.autopilot.candidates import candidates
    from hexcombat.autopilot.stream import Stream

    enc = ta_archer()
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "declare")
    pairs = [
        (a.params["first"], a.params["second"])
        for a in candidates(enc.state, spec, Stream("t"), 24)
    ]
    assert ("shoot", "load") in pairs or ("load", "shoot") in pairs
    assert ("shoot", "parry") not in pairs  # refused: nothing is loaded (TA-22)


def test_ta_22_an_archer_five_hexes_from_her_foe_loads_and_shoots_rather_than_striking() -> None:
    """Ann (bow, nothing loaded) stands five hexes from Bo. She declared a blow and a parry:
    the blow's play-out reached the combat step where nobody is in reach (a hold is all
    either is offered), found no blow and fell back on the declaration's own preview
    chance, 79%, above the shot's exact odds. A step of blows with nobody in reach now
    invites nothing, and she loads and shoots."""
    enc = ta_archer()
    decision = Autopilot("aggressive").decide(enc, "Blue", must_act=True)
    assert decision is not None and decision.action.kind == "declare"
    acts = {decision.action.params["first"], decision.action.params["second"]}
    assert acts == {"load", "shoot"}, decision.action.params


def test_ta_22_a_declaration_with_a_shot_previews_the_shot_odds() -> None:
    """A declaration that includes a shot previewed no odds at all; it shows the shot's to-hit
    (2d10 + missile skill against the target's passive defence), as the strike will roll."""
    enc = ta_archer()
    action = Action("declare", "ann", {"first": "load", "second": "shoot", "target": "bo"})
    preview = enc.ruleset.preview(enc.state, action)
    shots = [r for r in preview.rollables if r.label == "Shot"]
    assert len(shots) == 1
    head = shots[0].headline()
    assert head is not None and 0 < head.chance < 1
    assert any(m.name == "Missile skill" for m in shots[0].roll_modifiers)


def test_the_benchmark_counts_a_pick_up_of_a_foes_weapon_over_its_own() -> None:
    """The long mode's waste counts (``tests/autopilot_waste.py``): Bo taking Ann's Spear
    while his own Broadsword lies offered in the same choice is counted; his sword is not."""
    enc = disarmed_bo()
    turn = Turn(enc, "Red")
    spear = Decision(Action("prepare", "bo", {"item": "ann/Spear"}), "Ready an item")
    sword = Decision(Action("prepare", "bo", {"item": "Broadsword"}), "Ready an item")
    assert "pickup" in judged(turn, spear)
    assert "pickup" not in judged(turn, sword)


def test_the_benchmark_counts_a_useless_move_whose_reason_does_not_say_so() -> None:
    """Bo gains nothing in the move step (as above): the autopilot's own decision says so and
    is not counted; the same move given a reason that does not say so is."""
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    turn = Turn(enc, "Red", must_act=True)
    decision = Autopilot("aggressive").decide(enc, "Red", must_act=True)
    assert decision is not None and "silent" not in judged(turn, decision)
    quiet = Decision(decision.action, "Move", {"score": 0.0})
    assert "silent" in judged(turn, quiet)


def test_the_benchmark_counts_a_figure_left_facing_away_from_a_foe_at_grips() -> None:
    """skirmish: Ann stands next to Bo in a new move step, where she may turn. A side done
    with the step while she faces away from him is counted blind; facing him, it is not. A
    move that sets no facing is not judged by where it leaves her facing (skirmish's move
    keeps the facing; it used to count every such step)."""
    enc = skirmish_duel()
    move = Decision(Action("move", "ann", {"to": "3,1"}), "Move")
    enc.state.figures["ann"].facing = 5
    assert "blind" not in judged(Turn(enc, "Blue"), move)
    enc.perform(move.action)
    enc.perform(Action("next_step"))
    enc.perform(Action("next_step"))  # the next round's move step: she may turn
    enc.state.figures["ann"].facing = 5
    assert "blind" in judged(Turn(enc, "Blue"), None)
    enc.state.figures["ann"].facing = 2
    assert "blind" not in judged(Turn(enc, "Blue"), None)


def test_scp_4_the_benchmark_counts_a_figure_blind_only_where_it_could_face_its_foe() -> None:
    """strike-chance-pulse: Bo stands next to Ann behind her (out of her Melee Zone, SCP-4).
    Her Move sets her facing but never leaves her in her own hex (A-14): she turns by
    stepping beside Bo. With every other hex round Bo walled off she cannot face him, and a
    side done with the Pulse is not counted blind (it was); on the open board it is."""
    bo_at = neighbor(ANN_AT, 4)
    enc = placed(duel(), "bo", bo_at, 1)
    initiative(enc, [10, 1])
    assert not in_front_arc(ANN_AT, 1, bo_at)
    assert "blind" in judged(Turn(enc, "Blue"), None)
    walled = placed(duel(), "bo", bo_at, 1).painted(
        [h for h in neighbors(bo_at) if h != ANN_AT], "wall"
    )
    initiative(walled, [10, 1])
    move = next(s for s in walled.legal_actions("ann") if s.kind == "move")
    assert str(ANN_AT) not in [c.value for c in move.params[0].choices]
    assert "blind" not in judged(Turn(walled, "Blue"), None)


def test_scp_47_a_moves_plain_candidate_faces_the_foe_nearest_where_it_ends() -> None:
    """strike-chance-pulse: Ann faces away from Bo, three hexes behind her. The move's facing
    (free, A-14) is a list of the six directions, and its plain value was the one she has:
    every plain move (the one a look ahead tries first) ended with her back to the foe, so
    the long mode counted her blind next to him. It now faces the foe nearest the hex the
    move ends in, with him in her front (her Melee Zone, SCP-4)."""
    bo_at = neighbor(neighbor(neighbor(ANN_AT, 4), 4), 4)
    enc = placed(duel(), "bo", bo_at, 4)
    initiative(enc, [10, 1])
    move = next(s for s in enc.legal_actions("ann") if s.kind == "move")
    assert [c.value for c in move.params[1].choices] == list(range(6))
    plain = candidates(Turn(enc, "Blue").seen(), move, Stream("plain"))[0]
    to = hex_of(plain.params["to"])
    assert to is not None and distance(to, bo_at) == 1
    assert in_front_arc(to, int(str(plain.params["facing"])), bo_at)


def test_scp_5_the_benchmark_does_not_count_stepping_out_of_a_foes_hex_as_a_wander() -> None:
    """strike-chance-pulse: Ann shares Bo's hex (close combat), where a Melee attack may not
    be made (SCP-5). A move or a charge to the next hex, still next to him, was counted a
    wander (from 0 hexes to 1: "away from every foe"), most of the long mode's wanders in
    this ruleset; a move two hexes off still is."""
    enc = placed(duel(), "bo", ANN_AT, 4)
    initiative(enc, [10, 1])
    turn = Turn(enc, "Blue")
    beside, off = neighbor(ANN_AT, 2), neighbor(neighbor(ANN_AT, 2), 2)
    out = Decision(Action("move", "ann", {"to": str(beside), "facing": 5}), "Move")
    charge = Decision(
        Action("charge", "ann", {"target": "bo", "to": str(beside), "weapon": "Broadsword"}),
        "Charge",
    )
    away = Decision(Action("move", "ann", {"to": str(off), "facing": 5}), "Move")
    assert "wander" not in judged(turn, out)
    assert "wander" not in judged(turn, charge)
    assert "wander" in judged(turn, away)


def test_the_benchmark_does_not_count_readying_nothing_as_a_pick_up() -> None:
    """fig-percentile: Barclay's declaration readies nothing (``ready`` left empty) while
    his own axe is offered: no item of another figure is taken, so it is no pick-up."""
    enc = restarted(demo("fig-percentile"), 1, {"fp.damage_model": "hp"})
    plain = Decision(Action("declare", "barclay", {"mode": "walk", "ready": ""}), "Declare")
    assert "pickup" not in judged(Turn(enc, "Black"), plain)


def test_the_way_to_a_foe_goes_round_terrain_too_dear_for_the_figure_to_enter() -> None:
    """skirmish: Ann (Move 2) and Bo stand two hexes apart with water (3 to enter) on both
    hexes between them. The hex distance, and the way round what blocks it, said 2, so a
    step round the water looked no nearer and a figure of Move 2 stood off for good; the
    ruleset's ``dearest`` hint (her Move) makes the water no way for her, and one of Move 3
    still wades."""
    enc = Encounter.new("skirmish", 7, 5, name="Ford", seed=1)
    new = enc.ruleset.new_figure
    at, foe_at = from_offset(1, 2), from_offset(3, 2)
    between = [h for h in neighbors(at) if distance(h, foe_at) == 1]
    enc = enc.painted(between, "water")
    ann = new("ann", "Ann", "Blue", at, facing=1)
    enc = enc.with_figure(replace(ann, stats={**ann.stats, "move": 2}))
    enc = enc.with_figure(new("bo", "Bo", "Red", foe_at, facing=4))
    state = enc.state
    ann, bo = state.figures["ann"], state.figures["bo"]
    dearest = state.ruleset.autopilot_hints(state, ann)["dearest"]
    assert len(between) == 2 and dearest == 2
    assert route_gap(state, ann, bo) == 2
    assert route_gap(state, ann, bo, dearest) == 4
    assert route_gap(state, ann, bo, 3) == 2


def test_a_figure_kept_from_its_foe_by_water_goes_round_and_the_fight_is_decided() -> None:
    """skirmish's fresh pair start of seed 31 against greedy: the last two figures, both of
    Move 2, stood two hexes apart across water and the fallen for twelve rounds (a stand-off
    drawn). The autopilot now goes round and wins."""
    result = play_match(
        lambda _seed: starts("skirmish")["fresh pair"](31), "aggressive", "greedy", 1, 31
    )
    assert (result.wins, result.losses, result.draws) == (1, 0, 0)
