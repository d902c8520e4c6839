"""Fig-percentile FP-21 ... FP-27 and the action-economy gaps (G-1 ... G-6, G-13, G-19, G-21)."""

from __future__ import annotations

import pytest
from fig_percentile_fixtures import (
    act,
    add,
    answer_prompts,
    arena,
    beside,
    choices,
    end_round,
    goto,
    kinds,
    last,
    next_step,
    play_round,
    strike,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.checks import Check
from hexcombat.dice import evaluate
from hexcombat.document import to_document
from hexcombat.geometry import distance
from hexcombat.layout import from_offset

pytestmark = pytest.mark.pyodide

SWORDS = {"skills": {"Sword": 50}, "items": ["Sword"], "ready": "Sword"}


def duel(options: dict[str, object] | None = None, **a: object) -> Encounter:
    """Two sword fighters side by side (adjacent), stationary unless told otherwise."""
    enc = arena(dict(options or {}))
    enc = add(enc, "a", (3, 4), side="A", **{**SWORDS, **a})  # type: ignore[arg-type]
    return add(enc, "b", (4, 4), side="B", **SWORDS)  # type: ignore[arg-type]


def test_g19_a_hidden_declaration_shows_as_declared_before_the_reveal() -> None:
    """The Now table said "Declared: no" right after declaring (G-19 keeps
    the choice hidden until everyone has chosen, not the fact that it was made)."""
    enc = duel()
    view = enc.ruleset.figure_view
    assert not view(enc.state, enc.state.figures["a"])["declared"]
    act(enc, "declare", "a", mode="stationary")
    assert view(enc.state, enc.state.figures["a"])["declared"] is True
    assert not view(enc.state, enc.state.figures["b"])["declared"]
    assert "mode" not in view(enc.state, enc.state.figures["a"])  # what it chose stays hidden
    act(enc, "declare", "b", mode="stationary")
    assert view(enc.state, enc.state.figures["a"])["declared"] is True
    assert view(enc.state, enc.state.figures["a"])["mode"] == "standing still"  # words, not ids


def _check(target: int, comparison: str) -> Check:
    return Check("x", "d100", comparison, target, "skill")


@pytest.mark.parametrize(
    ("comparison", "face", "hit"),
    [("le", 59, True), ("le", 60, False), ("lt", 58, True), ("lt", 59, False)],
)
def test_fp_21_d100_at_or_under_hits_and_the_g1_lt_option_needs_under(
    comparison: str, face: int, hit: bool
) -> None:
    assert _check(59, comparison).resolve(evaluate("d100", [face])).success is hit


def test_fp_21_the_hit_comparison_option_reaches_the_roll() -> None:
    for comparison, hit in (("le", True), ("lt", False)):
        enc = duel({"fp.hit_comparison": comparison})
        play_round(enc, {})
        events = strike(enc, "a", [50], target="b")
        assert events[0].data["hit"] is hit and events[0].data["target_number"] == 50
    assert "needs under 50" in events[0].text


def test_fp_21_g1_a_target_of_zero_or_less_always_misses() -> None:
    check = _check(0, "le")
    assert check.chance() == 0
    assert not check.resolve(evaluate("d100", [1])).success
    enc = duel()
    play_round(enc, {})
    events = strike(enc, "a", [1], target="b", modifier=-50)
    assert "cannot succeed (target 0" in events[0].text and not events[0].data["hit"]


def test_fp_21_event_text_says_what_was_needed_and_rolled() -> None:
    enc = duel()
    play_round(enc, {})
    events = strike(enc, "a", [43], target="b")
    assert events[0].text == "A strikes at B with the Sword: needs 50 or lower, rolled 43: hit"
    assert events[0].rolls == ({"expr": "d100", "faces": [43]},)
    assert events[0].details[-1] == "Rolled 43 ≤ 50: hit"  # the breakdown lines come before it


def test_fp_22_modifiers_add_up_speed_band_range_band_and_the_g7_gm_modifier() -> None:
    enc = duel()
    play_round(enc, {"a": "accelerate"}, {"a": beside("a", "b")})  # 15 + 0 = 15: Medium -10
    preview = enc.preview(Action("attack", "a", {"target": "b", "modifier": 7}))
    check = preview.rollables[0]
    assert check.target == 50 - 10 + 7
    assert [m.rule for m in check.modifiers] == ["FP-6, FP-7", "G-7"]
    assert preview.rollables[0].percent() == "47%"
    with pytest.raises(IllegalActionError, match="from -50 to 50"):
        enc.perform(Action("attack", "a", {"target": "b", "modifier": 51}))


def test_fp_23_readying_a_weapon_halves_skill_for_the_rest_of_the_round() -> None:
    enc = arena()
    enc = add(enc, "brie", (3, 4), side="A", skills={"Staff": 97}, items=["Staff"])
    enc = add(enc, "foe", (4, 4), side="B", **SWORDS)  # type: ignore[arg-type]
    play_round(enc, {"brie": {"mode": "stationary", "ready": "Staff"}})
    check = enc.preview(Action("attack", "brie", {"target": "foe"})).rollables[0]
    assert (check.base, check.target) == (49, 49)  # 97 -> 49, not Python's round() 48
    assert "halved for readying" in check.base_label and "FP-23" in check.base_label
    end_round(enc)
    play_round(enc, {})
    assert enc.preview(Action("attack", "brie", {"target": "foe"})).rollables[0].base == 97


def test_fp_23_i2_the_rounding_option_can_round_the_half_down() -> None:
    enc = arena({"fp.rounding": "half_down"})
    enc = add(enc, "brie", (3, 4), side="A", skills={"Staff": 97}, items=["Staff"])
    enc = add(enc, "foe", (4, 4), side="B")
    play_round(enc, {"brie": {"mode": "stationary", "ready": "Staff"}})
    assert enc.preview(Action("attack", "brie", {"target": "foe"})).rollables[0].base == 48


def test_fp_23_g5_readying_then_attacking_fits_in_one_action() -> None:
    enc = arena()
    enc = add(enc, "a", (3, 4), side="A", skills={"Staff": 97}, items=["Staff"])
    enc = add(enc, "b", (4, 4), side="B")
    play_round(enc, {"a": {"mode": "stationary", "ready": "Staff"}})
    assert "attack" in kinds(enc, "a")
    strike(enc, "a", [99], target="b")
    assert kinds(enc, "a") == []


def test_fp_23_g5_with_the_option_readying_uses_the_only_action() -> None:
    enc = arena({"fp.ready_costs_action": True})
    enc = add(enc, "a", (3, 4), side="A", skills={"Staff": 97}, items=["Staff"])
    enc = add(enc, "b", (4, 4), side="B")
    play_round(enc, {"a": {"mode": "stationary", "ready": "Staff"}})
    assert kinds(enc, "a") == []


def test_fp_23_g5_dropping_is_free_and_a_dropped_weapon_cannot_be_drawn_again() -> None:
    enc = arena()
    enc = add(
        enc, "a", (3, 4), side="A", skills={"Staff": 97, "Sword": 40},
        items=["Sword", "Staff"], ready="Sword",
    )  # fmt: skip
    enc = add(enc, "b", (4, 4), side="B")
    play_round(enc, {"a": {"mode": "stationary", "ready": "Staff", "drop": True}})
    a = enc.state.figures["a"]
    assert [(i.name, i.state) for i in a.equipment] == [("Sword", "dropped"), ("Staff", "ready")]
    declared = [e for e in enc.events if e.kind == "declare" and e.figure == "a"][-1]
    assert declared.text == "A stays put, drops the Sword and draws the Staff"
    end_round(enc)
    declare = enc.legal_actions("a")[0]
    assert [p.name for p in declare.params] == ["mode", "drop"]  # no "ready": nothing to draw


def test_fp_24_each_figure_has_its_own_action_limit_g4() -> None:
    enc = duel(max_actions=2)
    play_round(enc, {})
    act(enc, "attack", "a", target="b")
    act(enc, "attack", "b", target="a")
    answer_prompts(enc, {"a": [90], "b": [90]})
    # A has an action left: it alone chooses again, hidden like before (G-19).
    assert last(enc, "volley").text == "A still may act: choose again (G-19)"
    assert kinds(enc, "b") == [] and kinds(enc, "a") == ["attack", "hold"]
    strike(enc, "a", [90], target="b")
    assert kinds(enc, "a") == []
    view = enc.ruleset.figure_view(enc.state, enc.state.figures["a"])
    assert view["actions_left"] == 0


def test_fp_25_melee_needs_the_target_within_reach_g8() -> None:
    enc = arena()
    enc = add(enc, "a", (3, 4), side="A", **SWORDS)  # type: ignore[arg-type]
    enc = add(enc, "b", (5, 4), side="B", **SWORDS)  # type: ignore[arg-type]
    play_round(enc, {})
    assert "attack" not in kinds(enc, "a")
    longer = arena({"fp.melee_reach": 2})
    longer = add(longer, "a", (3, 4), side="A", **SWORDS)  # type: ignore[arg-type]
    longer = add(longer, "b", (5, 4), side="B", **SWORDS)  # type: ignore[arg-type]
    play_round(longer, {})
    assert "attack" in kinds(longer, "a")


def test_fp_25_a_figure_running_by_may_strike_with_the_speed_band() -> None:
    enc = arena(width=16)
    enc = add(enc, "runner", (1, 4), side="A", fig=40, facing=2, **SWORDS)  # type: ignore[arg-type]
    enc = add(enc, "post", (4, 4), side="B", **SWORDS)  # type: ignore[arg-type]
    play_round(enc, {"runner": "accelerate"}, {"runner": (3, 4)})  # 2 hexes, now adjacent
    check = enc.preview(Action("attack", "runner", {"target": "post"})).rollables[0]
    assert check.target == 50 - 10  # 20 + 0 = 20: Medium


def test_fp_25_g21_melee_in_the_same_hex_when_stacking_allows() -> None:
    enc = arena({"core.stacking": 2})
    enc = add(enc, "a", (3, 4), side="A", **SWORDS)  # type: ignore[arg-type]
    enc = add(enc, "b", (3, 4), side="B", **SWORDS)  # type: ignore[arg-type]
    play_round(enc, {})
    assert choices(enc, "a", "attack", "target") == ["b"]


def _caster(options: dict[str, object] | None = None) -> Encounter:
    enc = arena(dict(options or {}), width=14)
    enc = add(enc, "mage", (1, 4), side="A", fig=40, facing=2, skills={"Spellcasting": 50},
              items=["Spark"])  # fmt: skip
    return add(enc, "foe", (5, 4), side="B")


def test_fp_26_a_spell_begun_this_round_is_released_next_round() -> None:
    enc = _caster()
    play_round(enc, {}, post={"mage": {"spell": "Spark"}})
    assert kinds(enc, "mage") == []  # casting takes the rest of the round
    assert last(enc, "cast").data == {"spell": "Spark", "release_round": 2, "time": [1],
                                      "step": "stop"}  # fmt: skip
    end_round(enc)
    assert last(enc, "spell_ready").rule == "FP-26"
    play_round(enc, {})
    assert choices(enc, "mage", "release_spell", "target") == ["foe"]
    events = strike(enc, "mage", [10], "release_spell", target="foe")
    assert events[0].text == "Mage casts Spark at Foe: needs 40 or lower, rolled 10: hit"
    assert events[0].data["modifiers"][-1]["name"] == "Long range (4 hexes of 6)"
    assert "release_spell" not in kinds(enc, "mage")


def test_fp_26_a_two_round_spell_keeps_the_caster_busy() -> None:
    enc = _caster()
    mage = enc.setup_figure("mage")
    mage.equipment[0].stats["cast_rounds"] = 2
    enc = enc.with_figure(mage)
    play_round(enc, {}, post={"mage": {"spell": "Spark"}})
    end_round(enc)
    act(enc, "declare", "mage", mode="stationary")
    assert last(enc, "busy").text == "Mage is still casting Spark: no actions this round"
    act(enc, "declare", "foe", mode="stationary")
    next_step(enc)
    next_step(enc)
    next_step(enc)
    assert "release_spell" not in kinds(enc, "mage")
    end_round(enc)
    play_round(enc, {})
    assert "release_spell" in kinds(enc, "mage")


@pytest.mark.parametrize(
    ("rule", "stopping", "running"),
    [("stationary_or_stopping", True, False), ("stationary", False, False), ("no", True, True)],
)
def test_fp_26_g6_who_may_begin_a_spell(rule: str, stopping: bool, running: bool) -> None:
    for choice, allowed in (("stop", stopping), ("continue", running)):
        enc = _caster({"fp.cast_requires_stationary": rule})
        act(enc, "declare", "mage", mode="accelerate")
        act(enc, "declare", "foe", mode="stationary")
        next_step(enc)
        goto(enc, "mage", (2, 4))
        next_step(enc)
        action = Action("stop_or_continue", "mage", {"choice": choice, "spell": "Spark"})
        if allowed:
            enc.perform(action)
            next_step(enc)
            assert last(enc, "cast").rule == "FP-26, G-6"
        else:
            before = to_document(enc)
            with pytest.raises(IllegalActionError):
                enc.perform(action)
            assert to_document(enc) == before
    # A stationary caster may always begin.
    enc = _caster({"fp.cast_requires_stationary": rule})
    play_round(enc, {}, post={"mage": {"spell": "Spark"}})
    assert last(enc, "cast").data["spell"] == "Spark"


def test_fp_27_running_figures_declare_stop_or_continue_after_moving_before_acting() -> None:
    enc = duel()
    steps = [s.id for s in enc.ruleset.time.steps]
    assert steps == ["declare", "move", "stop", "act"]
    act(enc, "declare", "a", mode="accelerate")
    act(enc, "declare", "b", mode="stationary")
    next_step(enc)
    goto(enc, "a", beside("a", "b")(enc))
    next_step(enc)
    assert enc.state.step.id == "stop"
    assert kinds(enc, "a") == ["stop_or_continue"] and kinds(enc, "b") == []
    assert kinds(enc, None) == []
    blocked = enc.ruleset.blocks_next_step(enc.state)
    assert blocked == "Waiting for A to declare a stop or keep running (FP-27)"
    act(enc, "stop_or_continue", "a", choice="stop")
    assert kinds(enc, None) == ["next_step"]


def test_fp_27_g19_declarations_stay_hidden_until_everyone_has_made_them() -> None:
    enc = duel()
    events = act(enc, "declare", "a", mode="accelerate")
    assert events[0].text == "A has declared (hidden until everyone has)"
    assert enc.state.figures["a"].memory.get("mode") is None
    assert enc.ruleset.blocks_next_step(enc.state) == "Waiting for declarations from B"
    events = act(enc, "declare", "b", mode="walk")  # the last one in reveals all, in setup order
    assert [e.text for e in events] == [
        "B has declared (hidden until everyone has)",
        "A starts running (2 hexes this round)",
        "B walks (up to 1 hex)",
    ]
    next_step(enc)
    goto(enc, "a", (3, 3))
    assert last(enc, "plan").text == "A has planned a move (hidden until everyone moves)"


def test_fp_27_g19_open_declarations_take_effect_at_once() -> None:
    enc = duel({"core.hidden_declarations": False})
    events = act(enc, "declare", "a", mode="accelerate")
    assert events[0].text == "A starts running (2 hexes this round)"
    next_step_blocked = enc.ruleset.blocks_next_step(enc.state)
    assert next_step_blocked == "Waiting for declarations from B"
    act(enc, "declare", "b", mode="stationary")
    next_step(enc)
    events = act(enc, "plan_move", "a", to=str(from_offset(3, 3)))
    assert events[0].text.startswith("A plans to move to")


def test_g19_simultaneous_moves_stop_where_figures_would_collide() -> None:
    enc = arena()
    enc = add(enc, "a", (2, 4), side="A", fig=40, facing=2)
    enc = add(enc, "b", (6, 4), side="B", fig=40, facing=5)
    play_round(enc, {"a": "accelerate", "b": "accelerate"}, {"a": (4, 4), "b": (4, 4)})
    moves = [e for e in enc.events if e.kind == "move"]
    assert all(e.data["blocked"] for e in moves)
    positions = {f.position for f in enc.state.figures.values()}
    assert len(positions) == 2 and from_offset(4, 4) not in positions
    assert "another figure is in the way" in moves[0].text


@pytest.mark.parametrize("first", ["a", "b"])
def test_g19_hidden_declarations_in_either_order_give_the_same_round(first: str) -> None:
    def play(order: list[str]) -> Encounter:
        enc = duel()
        modes = {"a": "accelerate", "b": "walk"}
        for fid in order:
            act(enc, "declare", fid, mode=modes[fid])
        next_step(enc)
        return enc

    ref, enc = play(["a", "b"]), play([first, "b" if first == "a" else "a"])
    assert enc.state.figures == ref.state.figures
    assert [e for e in enc.events if e.kind != "hidden"] == [
        e for e in ref.events if e.kind != "hidden"
    ]


def test_g2_hit_points_option_rolls_placeholder_damage_and_takes_figures_out() -> None:
    enc = duel({"fp.damage_model": "hp"})
    b = enc.setup_figure("b")
    b.stats["hp"] = 5
    enc = enc.with_figure(b)
    assert enc.state.figures["b"].pools["hp"].current == 5
    play_round(enc, {})
    act(enc, "attack", "a", target="b")
    act(enc, "attack", "b", target="a")
    events = answer_prompts(enc, {"a": [10, 8], "b": [90]})
    assert events[1].text == "B takes 8 damage from the Sword (0/5 hit points left)"
    # results apply together (G-19): B, at 0 hit points, still makes its chosen attack
    assert [e.figure for e in events if e.kind == "attack"] == ["a", "b"]
    end_round(enc)
    assert enc.state.figures["b"].has_status("down")
    assert enc.legal_actions("b") == []


def test_g19_sequential_option_takes_a_figure_out_at_once() -> None:
    enc = duel({"fp.damage_model": "hp", "fp.round_order": "sequential"})
    b = enc.setup_figure("b")
    b.stats["hp"] = 5
    enc = enc.with_figure(b)
    play_round(enc, {})
    act(enc, "attack", "a", target="b")
    act(enc, "attack", "b", target="a")
    events = answer_prompts(enc, {"a": [10, 8]})  # setup order: A rolls first
    assert [e.kind for e in events] == ["attack", "hit", "status"]
    assert enc.state.prompt is None and enc.legal_actions("b") == []  # B's roll is lost


def test_g5_a_crossbow_takes_a_full_round_to_reload() -> None:
    enc = arena(width=14)
    enc = add(enc, "x", (1, 4), side="A", skills={"Crossbow": 70}, items=["Crossbow"],
              ready="Crossbow")  # fmt: skip
    enc = add(enc, "y", (6, 4), side="B")
    play_round(enc, {})
    events = strike(enc, "x", [90], target="y")
    assert "reloading takes 1 full round (G-5)" in events[0].details[-1]
    end_round(enc)
    play_round(enc, {})
    assert kinds(enc, "x") == ["reload", "hold"]
    act(enc, "reload", "x")
    assert kinds(enc, "x") == []
    end_round(enc)
    assert last(enc, "loaded").text == "X's Crossbow is loaded again"
    play_round(enc, {})
    assert "attack" in kinds(enc, "x")


def test_g13_terrain_can_lower_speed_with_the_option() -> None:
    for option, speed in ((False, "20"), (True, "10")):
        enc = arena({"fp.terrain_reduces_speed": option}, paint={"marsh": [(3, 4)]})
        enc = add(enc, "a", (2, 4), side="A", fig=40, facing=2)
        play_round(enc, {"a": "accelerate"}, {"a": (3, 4)})
        assert enc.ruleset.figure_view(enc.state, enc.state.figures["a"])["speed"] == speed


def test_setup_checks_weapons_and_skills() -> None:
    enc = arena()
    with pytest.raises(Exception, match="has no 'Sword' skill"):
        add(enc, "a", (3, 4), side="A", items=["Sword"])
    enc = add(enc, "a", (3, 4), side="A", skills={"Sword": 50}, items=["Sword"])
    a = enc.setup_figure("a")
    a.equipment[0].stats["attack"] = "thrown"
    a.equipment[0].stats["damage"] = "bogus"
    with pytest.raises(Exception, match="must be 'melee' or 'ranged'") as caught:
        enc.with_figure(a)
    assert "stats.damage" in str(caught.value)


def test_invariants_hold_in_a_fresh_and_a_played_state() -> None:
    enc = duel()
    assert enc.ruleset.invariant_problems(enc.state) == []
    play_round(enc, {"a": "accelerate"}, {"a": beside("a", "b")})
    strike(enc, "a", [5], target="b")
    assert enc.ruleset.invariant_problems(enc.state) == []


def test_g21_with_stacking_a_mover_may_join_a_hex_but_never_overfill_it() -> None:
    enc = arena({"core.stacking": 2})
    enc = add(enc, "a", (2, 4), side="A", fig=40, facing=2)
    enc = add(enc, "b", (6, 4), side="A", fig=40, facing=5)
    enc = add(enc, "c", (4, 4), side="B")
    play_round(enc, {"a": "accelerate", "b": "accelerate"}, {"a": (4, 4), "b": (4, 4)})
    where = {f.id: f.position for f in enc.state.figures.values()}
    # Both movers aimed at c's hex; only one more fits, so both stop a hex short.
    assert where["c"] == from_offset(4, 4)
    assert distance(where["a"], where["c"]) == 1 and distance(where["b"], where["c"]) == 1
    assert all(e.data["blocked"] for e in enc.events if e.kind == "move")
    assert enc.ruleset.invariant_problems(enc.state) == []
    enc2 = arena({"core.stacking": 2})
    enc2 = add(enc2, "a", (2, 4), side="A", fig=40, facing=2)
    enc2 = add(enc2, "c", (4, 4), side="B")
    play_round(enc2, {"a": "accelerate"}, {"a": (4, 4)})
    assert enc2.state.figures["a"].position == enc2.state.figures["c"].position
