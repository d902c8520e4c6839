"""The autopilot wins clearly more than it loses against the random and rush baselines: a
fast subset of ``tests/autopilot_games.py`` (whose long mode gives the figures per ruleset)."""

from __future__ import annotations

import pytest
from autopilot_games import OPTIONS, demo, starts
from autopilot_waste import judged
from scratch_fights import FIGHTS, built

from hexcombat import Action, Encounter, Hex
from hexcombat.autopilot import Autopilot
from hexcombat.autopilot.candidates import candidates
from hexcombat.autopilot.play import play_match, restarted
from hexcombat.autopilot.policy import Decision, Turn
from hexcombat.autopilot.starts import SHAPES, fresh_start
from hexcombat.autopilot.stream import Stream
from hexcombat.autopilot.view import app_move, played_by, suggest_view
from hexcombat.figures import Status
from hexcombat.geometry import distance, in_front_arc, neighbor
from hexcombat.rulesets import all_rulesets


@pytest.mark.parametrize(
    ("ruleset_id", "start", "opponent", "games"),
    [("skirmish", "demo", "random", 4), ("two-action-2d10", "demo", "random", 2)],
)
def test_autopilot_beats_the_baselines(
    ruleset_id: str, start: str, opponent: str, games: int
) -> None:
    result = play_match(starts(ruleset_id)[start], "aggressive", opponent, games, seed=11)
    assert result.wins > result.losses, result
    assert result.wins + result.losses + result.draws == games


def test_combat_speed_phase_figures_turn_foes_into_their_arc() -> None:
    """CSP-17: a blow needs the target in the front arc; at N = 0 a figure cannot turn, so
    the autopilot declares a speed that lets it (the symmetric games used to end drawn, the
    figures facing nobody): the game is fought to an end (who wins one game is the luck of
    its dice; the autopilot's strength is the long mode's, tests/autopilot_games.py)."""
    result = play_match(starts("combat-speed-phase")["symmetric"], "aggressive", "random", 1, 11)
    assert result.draws == 0 and result.wins + result.losses == 1, result


def test_a_flag_is_tried_with_the_other_values_it_may_need() -> None:
    """two-action-2d10's combined attack (TA-5) needs both actions 'attack' and the flag set:
    a candidate whose two parameters differ from the plain play."""
    enc = restarted(demo("two-action-2d10"), 1)
    spec = enc.legal_actions("ann")[0]
    plain, *rest = candidates(enc.state, spec, Stream("t"), 24)
    assert (plain.params["second"], plain.params["combine"]) == ("parry", False)
    assert any(a.params["second"] == "attack" and a.params["combine"] for a in rest)


def test_a_planned_move_is_judged_where_it_lands() -> None:
    """fig-percentile's moves are planned and carried out when the step ends (G-19): the
    autopilot plans one that closes in instead of letting the step end where it stands."""
    enc = restarted(demo("fig-percentile"), 1, OPTIONS["fig-percentile"])
    enc.perform(Action("declare", "barclay", {"mode": "walk", "ready": ""}))
    enc.perform(Action("declare", "brie", {"mode": "stationary", "ready": "", "drop": False}))
    enc.perform(Action("next_step"))
    decision = Autopilot("aggressive").decide(enc, "Black")
    assert decision is not None and decision.action.kind == "plan_move"
    brie = enc.state.figures["brie"].position
    before = distance(enc.state.figures["barclay"].position, brie)
    assert distance(decision.action.hex("to"), brie) < before


def test_a_figure_carrying_a_weapon_readies_it() -> None:
    """fig-percentile: Barclay carries his beaked axe but holds nothing (G-19: a declaration
    may ready a weapon, FP-23). A figure with no weapon ready counts as less in the position
    score, so his declaration draws it (it used to score as the plain one and was never
    made, and he never attacked)."""
    enc = restarted(demo("fig-percentile"), 1, OPTIONS["fig-percentile"])
    assert not enc.state.figures["barclay"].ready_items("weapon")
    decision = Autopilot("aggressive").decide(enc, "Black")
    assert decision is not None and decision.action.kind == "declare"
    assert decision.action.params.get("ready") == "Beaked axe"
    enc.perform(decision.action)


def test_a_figure_whose_weapon_was_knocked_away_picks_it_up() -> None:
    """two-action-2d10: a blow knocked Ann's axe away (TA-11); one Recover action picks it
    up (R-3) and her other action still strikes with it. The rules hint that such a figure
    is not ready to strike at its best (``unready``), so her declaration recovers it (it used
    to score as the plain attack and parry, and she brawled bare-handed to the end)."""
    enc = restarted(demo("two-action-2d10"), 2)
    enc.state.figures["ann"].statuses["dropped_weapon"] = Status("dropped_weapon")
    decision = Autopilot("aggressive").decide(enc, "Blue")
    assert decision is not None and decision.action.kind == "declare"
    assert "recover" in (decision.action.params["first"], decision.action.params["second"])
    assert "attack" in (decision.action.params["first"], decision.action.params["second"])


def test_a_spell_that_cannot_reach_is_not_begun_when_the_crossbow_needs_its_reload() -> None:
    """fig-percentile: Brie fired her crossbow in round 1 (reloading takes a round, G-5); her
    spell cannot reach Barclay 13 hexes away (60 yards). Beginning it in the stop step would
    spend the action step (FP-26), so she lets the step end and reloads, and fires again.
    Before, the spell (no blow, as good as passing) was begun every round and lost the next
    (G-26): she never shot again and every game against a standing foe was a stand-off."""
    enc = restarted(demo("fig-percentile"), 1, OPTIONS["fig-percentile"])

    def declare_and_go_to(step: str) -> None:
        enc.perform(Action("declare", "barclay", {"mode": "stationary", "ready": ""}))
        enc.perform(Action("declare", "brie", {"mode": "stationary", "ready": "", "drop": False}))
        while enc.state.clock.step != step:
            enc.perform(Action("next_step"))

    declare_and_go_to("act")
    enc.perform(Action("hold", "barclay"))
    enc.perform(Action("attack", "brie", {"target": "barclay", "modifier": 0}))
    enc.perform(Action("roll_attack", "brie"))
    while enc.state.clock.step != "declare":
        enc.perform(Action("next_step"))
    declare_and_go_to("stop")
    assert [s.kind for s in enc.legal_actions("brie")] == ["begin_spell"]
    assert Autopilot("aggressive").decide(enc, "Oaken") is None
    suggested = suggest_view(enc, "brie")  # Suggest says what the app would do: pass
    assert suggested["action"] is None and "let the step end" in str(suggested["reason"])
    enc.perform(Action("next_step"))
    decision = Autopilot("aggressive").decide(enc, "Oaken")
    assert decision is not None and decision.action.kind == "reload"


def test_a_figure_far_from_its_foe_runs_at_it_rather_than_walking() -> None:
    """fig-percentile: Barclay (FIG 29) is 13 hexes from Brie's crossbow. A walk covers a hex
    a round (G-11); a run starts with an acceleration round and goes on at top speed, 3 hexes
    (FP-2, FP-3). The ruleset's ``pace`` hint says so, the gap to the foe counts in moves,
    and he declares the run (he used to walk, a hex a round under fire, since both declared
    the same first hex)."""
    enc = restarted(demo("fig-percentile"), 1, OPTIONS["fig-percentile"])
    barclay = enc.state.figures["barclay"]
    assert enc.ruleset.autopilot_hints(enc.state, barclay) == {"pace": 1.0, "facing": 0.0}
    decision = Autopilot("aggressive").decide(enc, "Black", must_act=True)
    assert decision is not None and decision.action.params["mode"] == "accelerate"
    # Suggest, which only Barclay's player sees, names the options; the log's note of the
    # app's hidden choice names none (it would give the choice away before the reveal)
    assert "(chosen: Start running: 1 hex this round" in str(suggest_view(enc, "barclay")["reason"])
    move = app_move(played_by(enc, "Black", "aggressive"))
    assert move is not None and "chosen" not in str(move["note"]) and "running" not in str(move)
    enc.perform(decision.action)
    enc.perform(Action("declare", "brie", {"mode": "stationary", "ready": "", "drop": False}))
    assert enc.ruleset.autopilot_hints(enc.state, enc.state.figures["barclay"])["pace"] == 3.0


def last_two_apart() -> Encounter:
    """fig-percentile's fight from scratch (tests/scratch_fights.py), both sides played by
    the app: Blue A and Red A down, Blue B at 1,2 and Red B at 0,1, two hexes apart with one
    free hex between them (0,2) that each reaches with a walk."""
    enc = built(FIGHTS["fig-percentile"])
    enc = played_by(played_by(enc, "Blue", "aggressive"), "Red", "aggressive")
    figures = enc.state.figures
    figures["red-b"].position, figures["red-b"].facing = Hex(0, 1), 1
    figures["blue-b"].facing = 3
    for fid in ("blue-a", "red-a"):
        figures[fid].pools["hp"].current = 0
        figures[fid].statuses["down"] = Status("down")
    return enc


def test_g_19_two_sides_of_the_app_do_not_both_plan_the_one_hex_between_them() -> None:
    """Moves are planned in secret and carried out together, a collision stopping both
    (G-19): the app playing both sides planned both last figures into 0,2 round after
    round and the fight never ended (seen to round 77). Which of the two waits is now
    drawn alike by both sides from what both see, so each round exactly one of them plans
    the hex and the other stays turned towards it (saying so); they meet in the first
    round and fight it out."""
    enc = last_two_apart()
    plans: dict[int, list[tuple[str, str, str]]] = {}
    first_actions: list[Action] = []
    while enc.ruleset.fight_outcome(enc.state) is None and enc.state.clock.counters[0] <= 10:
        move = app_move(enc)
        assert move is not None
        action = Action.from_json(move["action"])
        if action.kind == "plan_move":
            row = (str(action.figure), str(action.params["to"]), str(move["note"]))
            plans.setdefault(enc.state.clock.counters[0], []).append(row)
            first_actions += [action] if enc.state.clock.counters[0] == 1 else []
        enc.perform(action)
    assert enc.ruleset.fight_outcome(enc.state) is not None, plans
    first = sorted(plans[1])
    assert [to for _fid, to, _note in first] == ["0,2", "0,1"], first  # Blue moves, Red waits
    assert "waits for Blue B to come to A3" in first[1][2]
    waiting = next(a for a in first_actions if a.figure == "red-b")
    assert in_front_arc(Hex(0, 1), int(str(waiting.params["facing"])), Hex(0, 2))  # to meet it
    for rows in plans.values():
        assert len({to for _fid, to, _note in rows}) == len(rows), plans


def red_plans_first_round(enc: Encounter) -> Encounter:
    """``enc`` (:func:`last_two_apart`) played by the app up to Red B's plan in round 1."""
    while True:
        move = app_move(enc)
        assert move is not None
        action = Action.from_json(move["action"])
        if action.kind == "plan_move" and action.figure == "red-b":
            return enc
        enc.perform(action)


def test_g_19_the_benchmark_does_not_count_a_wait_for_the_contested_hex_as_silent() -> None:
    """Red B waits for Blue B to come to the one hex between them (G-19, as above), and the
    reason says so. A wait whose move gains nothing in the look ahead is no silent useless
    move for the long mode's waste counts (combat-speed-phase's were such waits); the same
    stay with a reason that says nothing is."""
    enc = red_plans_first_round(last_two_apart())
    turn = Turn(enc, "Red", must_act=True)
    decision = Autopilot("aggressive").decide(enc, "Red", must_act=True)
    assert decision is not None and "waits for Blue B" in decision.reason
    wait = Decision(decision.action, decision.reason, {**decision.numbers, "score": 0.0})
    assert "silent" not in judged(turn, wait)
    assert "silent" in judged(turn, Decision(decision.action, "Move", {"score": 0.0}))


def test_fp_9_the_benchmark_does_not_count_a_figure_facing_away_from_a_foe_blind() -> None:
    """fig-percentile: facing limits only turning and moving (FP-8, FP-9): a blow needs no
    foe in front. Red B next to Blue B with its back to it, offered a planned move that sets
    its facing, is not counted blind when its side is done (the ruleset's ``facing`` hint is
    0); the long mode counted every such stand."""
    enc = red_plans_first_round(last_two_apart())
    red, blue = enc.state.figures["red-b"], enc.state.figures["blue-b"]
    red.position, red.facing = neighbor(blue.position, 0), 0
    assert not in_front_arc(red.position, red.facing, blue.position)
    assert any(p.type == "facing" for s in enc.legal_actions("red-b") for p in s.params)
    assert enc.ruleset.autopilot_hints(enc.state, red)["facing"] == 0
    assert "blind" not in judged(Turn(enc, "Red"), None)


@pytest.mark.parametrize("ruleset_id", [r.id for r in all_rulesets()])
def test_every_candidate_has_parameters_the_table_accepts(ruleset_id: str) -> None:
    """A candidate's parameters pass its spec's check (what the table checks before it
    plays an action; the rules' resolution does not): two-action-2d10's declaration mended
    from 'attack and parry' to 'dodge and dodge' kept its target, was imagined, then refused
    by the table, and the side that had to declare stood still: the game ended drawn."""
    for shape in SHAPES:
        enc = fresh_start(ruleset_id, shape, 2, OPTIONS.get(ruleset_id, {}))
        for fid in enc.state.figures:
            for spec in enc.legal_actions(fid):
                for action in candidates(enc.state, spec, Stream("t"), 24):
                    spec.check(action.params)
