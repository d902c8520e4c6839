"""Two-action-2d10 through the Encounter API: declarations, the round's steps, strike order,
defence prompts, results applied at once, missiles, movement; typed dice throughout."""

from __future__ import annotations

from fractions import Fraction

import pytest
from two_action_2d10_fixtures import (
    ANN_AT,
    BO_AT,
    act,
    arena,
    declare,
    duel,
    kinds,
    make,
    of,
    play_signature,
    roll,
    signature,
    to_step,
)

from hexcombat import Action, Encounter, Hex, dumps, loads
from hexcombat.checks import Check, OpposedCheck
from hexcombat.dice import chance_opposed, parse
from hexcombat.errors import IllegalActionError
from hexcombat.figures import Figure, Pool
from hexcombat.geometry import neighbor
from hexcombat.view import encounter_view, measure_view

pytestmark = pytest.mark.pyodide


def _offered(enc: Encounter, field: str, **values: str) -> list[object]:
    """The values Ann's declare form offers for ``field`` given the other fields."""
    spec = enc.legal_actions("ann")[0]
    param = next(p for p in spec.params if p.name == field)
    return [c.value for c in param.offered(values)]


def test_d18_d2_ta_21_declare_offers_target_guard_brawl_only_when_needed() -> None:
    """The declare form's target, guard and brawl lists depend on the two actions chosen
    (``Choice.when``): a target for an attack, brawl or shot in either place (D-18), a guard
    for a Parry or Dodge (D-2), a brawl outcome for a Brawl (TA-21); nothing otherwise."""
    enc = duel()
    assert _offered(enc, "target", first="move", second="other") == []
    assert _offered(enc, "guard", first="move", second="attack") == []
    assert _offered(enc, "style", first="attack", second="parry") == []
    assert _offered(enc, "target", first="move", second="attack") == ["bo"]
    assert _offered(enc, "target", first="attack", second="attack") == ["bo"]  # once, not twice
    assert _offered(enc, "guard", first="attack", second="dodge") == ["bo"]
    assert _offered(enc, "style", first="wait", second="brawl")[:2] == ["pummel", "grapple"]
    with pytest.raises(IllegalActionError, match="Target"):
        enc.perform(Action("declare", "ann", {"first": "move", "second": "other", "target": "bo"}))
    events = declare(enc, "ann", "move", "dodge", guard="bo")
    assert events[-1].text == "Ann has declared (hidden until everyone has)"


def test_d2_the_guard_list_follows_the_block_and_guard_scope_options() -> None:
    """'Block covers: one declared attacker' adds the Block to the actions that name an
    attacker; 'Parry and Dodge cover: every attacker' takes Parry and Dodge out (D-2)."""
    options = {"ta.block_scope": "one_attacker", "ta.guard_scope": "all"}
    enc = make(arena(options=options), "ann", "Ann", "Blue", ANN_AT, 1, shield=True)
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4)
    assert _offered(enc, "guard", first="block", second="move") == ["bo"]
    assert _offered(enc, "guard", first="parry", second="dodge") == []
    assert _offered(duel(), "guard", first="move", second="parry") == ["bo"]  # defaults


def test_ta_1_each_figure_declares_two_actions_hidden_until_all_are_in() -> None:
    enc = duel()
    spec = enc.legal_actions("ann")[0]
    assert spec.kind == "declare" and [p.name for p in spec.params][:2] == ["first", "second"]
    events = declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    assert [e.kind for e in events] == ["hidden"] and "attack" not in events[0].text
    events = declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    assert [e.text for e in of(events, "declare")] == [
        "Ann declares attack and parry at Bo",
        "Bo declares attack and dodge at Ann",
    ]


def test_ta_3_the_same_action_twice_is_refused_unless_combined() -> None:
    enc = duel()
    with pytest.raises(IllegalActionError, match="TA-3"):
        declare(enc, "ann", "attack", "attack", target="bo")
    assert enc.log == ()
    with pytest.raises(IllegalActionError, match="TA-5"):
        declare(enc, "ann", "attack", "parry", target="bo", guard="bo", combine=True)


def test_ta_5_combined_attack_rolls_3d10_keep_two_in_play() -> None:
    enc = signature()
    events = play_signature(enc)
    assert "Bo declares attack with both actions (best two of 3d10, TA-5) at Ann" in [
        e.text for e in events
    ]
    ask = of(events, "reaction")[0]
    assert ask.text == "Bo strikes at Ann: 19 (best two of 3d10: 3, 9, 6; +4)"


def test_ta_7_a_parry_answers_an_attack_as_a_prompt_with_exact_opposed_odds() -> None:
    enc = signature()
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    to_step(enc, "combat")
    view = encounter_view(enc)
    assert view["time"]["acting"]["figures"] == ["bo", "ann"]
    assert view["time"]["acting"]["order_notes"] == ["Spear strikes before Axe (TA-14)"]
    preview = enc.preview(Action("strike", "bo", {}))
    chain = preview.rollables[0]
    labels = [v.label for v in chain.variants]
    assert labels == ["No defensive roll", "Ann commits a Parry"]
    parried = chain.variants[1].rollable.stages[0].rollable  # type: ignore[attr-defined]
    assert isinstance(parried, OpposedCheck)
    assert parried.attacker.dice == "3d10kh2" and parried.defender.dice == "2d10 min 9"
    exact = chance_opposed(parse("3d10kh2"), "ge", parse("2d10 min 9"), bonus_a=4, bonus_b=3)
    assert parried.chance() == exact and isinstance(exact, Fraction)
    plain = chain.stages[0].rollable
    assert isinstance(plain, Check) and plain.target == 12
    roll(enc, [3, 9, 6], "strike", "bo")
    prompt = encounter_view(enc)["prompt"]
    assert prompt is not None and prompt["question"] == "Ann: Parry this attack (19 to hit)?"
    assert [a["kind"] for a in prompt["answers"]] == ["parry", "take"]
    assert kinds(enc, "bo") == [] and kinds(enc, None) == []


def test_ta_13_an_early_result_stops_a_later_strike() -> None:
    enc = signature()
    events = play_signature(enc)
    hit = of(events, "attack")[-1]
    assert hit.text == "Bo hits Ann (19 against 12, surplus 7)"
    assert hit.data["tier"] == 1
    damage = of(events, "damage")[0]
    assert damage.data["damage"] == 9 and damage.data["hp"] == 11 and damage.data["bp"] == 10
    tactical = of(events, "tactical")[0]
    assert tactical.data["effect"] == "lose_actions" and tactical.data["location"] == "torso"
    # Ann's Axe blow never came: the round ended with no strike by Ann
    assert not [e for e in of(events, "attack") if e.figure == "ann"]
    assert enc.state.step.id == "declare" and enc.state.clock.counters == (2,)


def test_ta_13_the_stopped_figure_is_skipped_in_the_order() -> None:
    enc = signature()
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    to_step(enc, "combat")
    roll(enc, [3, 9, 6], "strike", "bo")
    roll(enc, [2, 3, 4, 5, 5, 6, 7], "parry", "ann")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["bo", "ann"] and acting["waiting"] == []
    assert kinds(enc, "ann") == []
    assert "stopped" in enc.ruleset.idle_text(enc.state, enc.state.figures["ann"])


def test_ta_9_hit_boundary_through_the_encounter() -> None:
    # test vector 2: 2d10 (6, 5) + 4 = 15 against defence 15 hits with surplus 0; 16 misses
    for passive, hit in ((15, True), (16, False)):
        enc = duel(options={"ta.passive_active": passive})
        declare(enc, "ann", "other", "none")
        declare(enc, "bo", "attack", "other", target="ann")
        to_step(enc, "combat")
        events = roll(enc, [6, 5, 8] if hit else [6, 5], "strike", "bo")
        attack = of(events, "attack")[0]
        assert attack.data["attack"] == 15 and attack.data["defence"] == passive
        assert attack.data["hit"] is hit
        if hit:
            assert attack.data["surplus"] == 0 and attack.data["tier"] == 0


def test_ta_10_damage_minus_armour_class() -> None:
    # test vector 3: d8 rolls 6 against AC 2 (studded) -> 4; a 2 -> 0
    for face, expected in ((6, 4), (2, 0)):
        enc = duel(armour="studded")
        declare(enc, "ann", "attack", "other", target="bo")
        declare(enc, "bo", "other", "none")
        to_step(enc, "combat")
        events = roll(enc, [6, 5, face], "strike", "ann")
        assert of(events, "damage")[0].data["damage"] == expected


def test_ta_12_damage_runs_from_hit_points_into_body_points() -> None:
    # test vector 4: HP 3, BP 10, 5 effective damage -> HP 0, BP 8
    enc = duel(options={"ta.hp_base": 0}, health=10)
    enc = enc.with_figure(_with_hp(enc, "bo", 3))
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    events = roll(enc, [6, 5, 5], "strike", "ann")
    assert of(events, "damage")[0].data == {
        "damage": 5,
        "hp": 0,
        "bp": 8,
        "time": [1],
        "step": "combat",
    }


def _with_hp(enc: Encounter, fid: str, hp: int) -> Figure:
    f = enc.setup_figure(fid)
    f.pools["hp"] = Pool(hp, hp)
    return f


def test_ta_14_strike_order_by_weapon_is_shown() -> None:
    enc = duel()
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "parry", target="ann", guard="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["bo", "ann"]
    assert acting["text"] == "Bo acts (Spear strikes before Axe (TA-14))"


def test_ta_16_identical_weapons_the_more_skilled_first() -> None:
    enc = duel(weapon="axe", skill=2)
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "parry", target="ann", guard="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["ann", "bo"]
    assert acting["order_notes"] == ["Ann is more skilled than Bo with the same weapon (TA-16)"]


def test_ta_17_a_spectacular_mistake_lets_the_ceding_figure_counter_strike() -> None:
    # test vector 8: A attack + parry, B attack + dodge: B cedes, A strikes first
    enc = duel(weapon="axe")
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["ann", "bo"]
    assert acting["order_notes"] == ["Bo cedes the initiative (TA-17, TA-18)"]
    events = roll(enc, [1, 1], "strike", "ann")
    assert "spectacular mistake" in of(events, "attack")[0].text
    assert kinds(enc, "bo") == ["counter", "keep_defence"]  # Bo may choose (TA-17)
    events = act(enc, "counter", "bo")
    assert of(events, "riposte")[0].text.startswith("Bo gives up the defence to counter-strike")
    roll(enc, [5, 5], "strike", "bo")  # Bo's own blow: 14; Ann is asked about her parry
    roll(enc, [3], "take", "ann")  # no: 14 against her passive 12, d8 3
    assert enc.state.figures["ann"].pools["hp"].current == 17
    events = act(enc, "next_step")
    assert enc.state.step.id == "riposte"
    assert kinds(enc, "bo") == ["riposte", "hold"]
    events = roll(enc, [9, 9], "riposte", "bo")
    assert "parry" in kinds(enc, "ann")  # Ann still has her parry against Bo


def test_ta_18_both_declaring_wait_means_no_attacks_between_them() -> None:
    enc = duel()
    declare(enc, "ann", "attack", "wait", target="bo")
    declare(enc, "bo", "attack", "wait", target="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == [] and "wait for each other" in acting["order_notes"][-1]
    act(enc, "next_step")
    assert enc.state.step.id == "declare"


def test_ta_18_both_dodging_keeps_the_normal_order() -> None:
    enc = duel()
    declare(enc, "ann", "attack", "dodge", target="bo", guard="bo")
    declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == ["bo", "ann"]


def test_ta_19_brawling_comes_last_and_pummel_damage_follows_the_surplus() -> None:
    enc = duel(weapon="scramasaex")
    declare(enc, "ann", "brawl", "other", target="bo", style="pummel")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["bo", "ann"]
    assert acting["order_notes"] == ["Ann's fists come last (TA-19)"]
    roll(enc, [1, 2], "strike", "bo")  # 7: a miss against 12
    events = roll(enc, [9, 8], "strike", "ann")  # brawl 2 + 17 = 19: surplus 7
    assert of(events, "damage")[0].data["damage"] == 1 + 7 // 2


def test_ta_21_a_grapple_closes_the_pair_and_reverses_the_order() -> None:
    enc = duel()
    declare(enc, "ann", "brawl", "parry", target="bo", guard="bo", style="grapple")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    events = roll(enc, [9, 9, 2, 2], "strike", "ann")  # 20 against 12: surplus 8, save 4 <= 7
    assert "saves" in of(events, "brawl")[0].text
    act(enc, "next_step")
    declare(enc, "ann", "brawl", "other", target="bo", style="grapple")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    events = roll(enc, [9, 9, 9, 9], "strike", "ann")  # save 18 > 7: closed
    assert "succeeds" in of(events, "brawl")[0].text
    assert "closed" in enc.ruleset.badges(enc.state, enc.state.figures["bo"])
    act(enc, "next_step")
    declare(enc, "ann", "brawl", "other", target="bo", style="pummel")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == ["ann", "bo"]


def test_ta_22_a_missile_loaded_in_one_round_is_shot_in_step_2_of_the_next() -> None:
    # test vector 9
    enc = duel(missile="bow")
    bo = enc.setup_figure("bo")
    bo.position = Hex(7, 2)
    enc = enc.with_figure(bo)
    with pytest.raises(IllegalActionError, match="TA-22"):
        declare(enc, "bo", "shoot", "parry", target="ann", guard="ann")
    declare(enc, "bo", "load", "parry", guard="ann")
    declare(enc, "ann", "other", "none")
    act(enc, "next_step")
    assert enc.state.step.id == "movement"  # no prepared shot yet: step 2 skipped
    to_step(enc, "declare")
    assert enc.state.figures["bo"].memory["loaded"] is True
    declare(enc, "bo", "shoot", "dodge", target="ann", guard="ann")
    declare(enc, "ann", "other", "none")
    assert enc.state.step.id == "declare"
    act(enc, "next_step")
    assert enc.state.step.id == "missiles"
    assert kinds(enc, "bo") == ["strike", "hold"]
    events = roll(enc, [4, 5, 4], "strike", "bo")  # 9 + 3 = 12 meets passive 12; d6 4
    assert of(events, "damage")[0].data["damage"] == 4
    assert enc.state.figures["bo"].memory["loaded"] is False


def test_ta_22_d15_the_measure_tool_says_whether_a_hex_is_in_missile_range() -> None:
    """One band, the weapon's maximum range, and no range modifiers."""
    enc = duel(missile="sling")  # Bo: a sling, range 8
    state, rs = enc.state, enc.ruleset
    bo, ann = state.figures["bo"], state.figures["ann"]
    assert rs.range_band(state, bo, 8) == "in range of the sling (8 hexes, D-15)"
    assert rs.range_band(state, bo, 9) == "out of range of the sling (8 hexes, D-15)"
    assert rs.range_band(state, ann, 3) == "" and rs.range_band(state, None, 3) == ""
    assert measure_view(enc, bo.position, ann.position)["band"].startswith("in range")


def test_ta_22_load_and_shoot_in_one_round_shoots_first_in_combat() -> None:
    enc = duel(missile="thrown_spear")
    declare(enc, "bo", "load", "shoot", target="ann")
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    to_step(enc, "combat")
    bo_ = enc.state.figures["bo"]
    assert bo_.memory.get("loaded") is not True
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["figures"] == ["bo", "ann"]
    assert "shot, loaded this round, goes first (D-10)" in acting["order_notes"][0]


def test_ta_23_free_movement_is_three_forward_or_one_back() -> None:
    start = Hex(6, 5)
    enc = make(arena(14, 14), "ann", "Ann", "Blue", start, 0)
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "move")
    to = [Hex.parse(str(c.value)) for c in spec.params[0].choices]
    ahead = [start]
    for _ in range(4):
        ahead.append(neighbor(ahead[-1], 0))
    assert ahead[3] in to and ahead[4] not in to  # 3 straight ahead, not 4
    back = neighbor(start, 3)
    assert back in to and neighbor(back, 3) not in to  # 1 back, not 2
    assert start not in to and len(to) == 15 + 3
    act(enc, "move", "ann", to=str(ahead[3]), facing=0)
    assert enc.state.figures["ann"].position == ahead[3]


def test_ta_24_a_movement_action_rolls_d4_in_heavy_armour() -> None:
    # test vector 5: d4 = 3 -> up to 6 forward
    enc = make(arena(14, 16), "ann", "Ann", "Blue", Hex(5, 9), 0, armour="mail")
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "move", "parry", guard="bo")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    assert kinds(enc, "ann") == ["sprint"]
    preview = enc.preview(Action("sprint", "ann", {}))
    assert preview.rollables[0].roll_order() == ["d4"]
    events = roll(enc, [3], "sprint", "ann")
    assert events[0].data["allowance"] == 6
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "move")
    to = [str(c.value) for c in spec.params[0].choices]
    assert "5,3" in to and "5,2" not in to


def test_ta_25_two_movement_actions_best_of_two_dice_plus_one() -> None:
    # test vector 6: d6 (2, 5) -> keep 5 -> +1 -> 6 -> up to 9
    enc = make(arena(14, 20), "ann", "Ann", "Blue", Hex(5, 12), 0, armour="leather")
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "move", "move")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    spec = enc.legal_actions("ann")[0]
    assert [c.value for c in spec.params[0].choices] == [1, 0, -1]
    events = roll(enc, [2, 5], "sprint", "ann", adjust=1)
    assert events[0].data == {"extra": 6, "allowance": 9, "time": [1], "step": "movement"}
    enc.undo()
    events_minus = roll(enc, [2, 5], "sprint", "ann", adjust=-1)
    assert events_minus[0].data["allowance"] == 7


def test_ta_25_d12_the_two_die_preview_shows_the_chosen_adjustment_and_the_others() -> None:
    """Better of two d6, then +1 or -1 at choice: the preview gives exact odds for the
    chosen adjustment and, as variants, for the other two (0 to 7 hexes in all)."""
    enc = make(arena(14, 20), "ann", "Ann", "Blue", Hex(5, 12), 0, armour="leather")
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "move", "move")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    preview = enc.preview(Action("sprint", "ann", {"adjust": 1})).to_json()
    amount = preview["rollables"][0]
    chances = {o["id"]: o["chance"] for o in amount["outcomes"]}
    assert chances == {"2": "1/36", "3": "1/12", "4": "5/36", "5": "7/36", "6": "1/4", "7": "11/36"}
    variants = {v["label"]: [o["id"] for o in v["outcomes"]] for v in amount["variants"]}
    assert variants == {
        "As rolled": ["1", "2", "3", "4", "5", "6"],
        "-1 hex": ["0", "1", "2", "3", "4", "5"],
    }
    assert "0 to 7 extra hexes" in preview["notes"][0]
    minus = enc.preview(Action("sprint", "ann", {"adjust": -1})).to_json()["rollables"][0]
    assert minus["outcomes"][0] == {**minus["outcomes"][0], "id": "0", "chance": "1/36"}


def test_ta_26_vaulting_an_obstacle_takes_an_other_action() -> None:
    enc = make(arena(14, 14), "ann", "Ann", "Blue", Hex(6, 5), 0)
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3).painted([Hex(6, 4)], "obstacle")
    declare(enc, "ann", "parry", "none", guard="bo")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    to = [str(c.value) for c in enc.legal_actions("ann")[0].params[0].choices]
    assert "6,4" not in to and "6,3" in to  # around it, not over it
    enc.undo()
    enc.undo()
    enc.undo()
    declare(enc, "ann", "other", "parry", guard="bo")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    to = [str(c.value) for c in enc.legal_actions("ann")[0].params[0].choices]
    assert "6,4" in to


def test_ta_27_the_round_runs_declare_movement_combat_and_back() -> None:
    enc = duel()
    steps = [enc.state.step.id]
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "other", "none")
    for _ in range(3):
        to = enc.state.step.id
        if to == "movement":
            for f in ("ann", "bo"):
                act(enc, "stay", f, facing=enc.state.figures[f].facing)
        act(enc, "next_step")
        steps.append(enc.state.step.id)
    assert steps == ["declare", "movement", "combat", "declare"]


def test_d2_a_block_counts_against_two_attackers_a_parry_only_its_own() -> None:
    enc = duel(shield=True)
    cy_at = neighbor(BO_AT, 0)
    enc = make(enc, "cy", "Cy", "Blue", cy_at, 3, weapon="sword")
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "cy", "attack", "other", target="bo")
    declare(enc, "bo", "block", "none")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == ["cy", "ann"]
    roll(enc, [5, 5], "strike", "cy")
    assert kinds(enc, "bo") == ["shield_block"]  # against the first blow it covers
    events = roll(enc, [9, 8], "shield_block", "bo")  # 17 + 3 + 2 = 22
    assert of(events, "attack")[0].data["defence"] == 22
    events = roll(enc, [9, 8], "strike", "ann")  # no prompt: the Block roll still stands
    assert of(events, "attack")[0].data["defence"] == 22 and enc.state.prompt is None


def test_d2_a_parry_declared_against_one_attacker_does_not_meet_another() -> None:
    enc = duel()
    cy_at = neighbor(BO_AT, 0)
    enc = make(enc, "cy", "Cy", "Blue", cy_at, 3, weapon="sword")
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "cy", "attack", "other", target="bo")
    declare(enc, "bo", "parry", "none", guard="ann")
    to_step(enc, "combat")
    events = roll(enc, [5, 5, 2], "strike", "cy")  # Cy: no prompt, passive 12; d8 2
    assert of(events, "attack")[0].data["defence"] == 12
    roll(enc, [5, 5], "strike", "ann")
    assert kinds(enc, "bo") == ["parry", "take"]


def test_the_signature_round_replays_and_undoes_exactly() -> None:
    enc = signature()
    play_signature(enc)
    texts = [e.text for e in enc.events]
    again = loads(dumps(enc))
    assert [e.text for e in again.events] == texts
    while enc.can_undo:
        enc.undo()
    while enc.can_redo:
        enc.redo()
    assert [e.text for e in enc.events] == texts
    assert ANN_AT != BO_AT


def test_ta_5_a_combined_parry_meets_a_combined_attack_3d10kh2_against_3d10kh2() -> None:
    enc = duel()
    declare(enc, "ann", "parry", "parry", guard="bo", combine=True)
    declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    to_step(enc, "combat")
    chain = enc.preview(Action("strike", "bo", {})).rollables[0]
    parried = chain.variants[1].rollable.stages[0].rollable  # type: ignore[attr-defined]
    assert isinstance(parried, OpposedCheck)
    assert (parried.attacker.dice, parried.defender.dice) == ("3d10kh2", "3d10kh2 min 9")
    exact = chance_opposed(parse("3d10kh2"), "ge", parse("3d10kh2 min 9"), bonus_a=4, bonus_b=3)
    assert parried.chance() == exact
    assert sum(o.chance for o in parried.outcomes()) == 1
    roll(enc, [3, 9, 6], "strike", "bo")  # 19
    events = roll(enc, [10, 8, 1], "parry", "ann")  # 18 + 3 = 21: a miss
    miss = of(events, "attack")[0]
    assert miss.data["defence"] == 21 and miss.data["hit"] is False


def test_ta_12_ta_21_ending_the_round_previews_its_death_save_and_lock_break() -> None:
    """The round's last step button previews what its end rolls (TA-12, D-8; TA-21, D-14):
    a death save for a figure at 0 body points, with its exact chance, then rolls it."""
    enc = make(duel(), "cy", "Cy", "Red", Hex(7, 1), 0)  # Bo's side fights on
    enc.perform(Action("gm_pool", None, {"figure": "bo", "pool": "bp", "value": 0}))
    for fid in ("ann", "bo", "cy"):  # at 0 body points Bo still acts; the save is at the end
        declare(enc, fid, "move", "move")
    to_step(enc, "combat")  # the last step: nobody ripostes
    assert "next_step" in kinds(enc, None)
    pv = enc.preview(Action("next_step"))
    assert [(r.label, r.rule) for r in pv.rollables] == [("Bo's death save", "TA-12")]
    save = pv.rollables[0].to_json()
    assert save["headline"]["phrase"] == "to live" and len(save["faces"]) == 2
    events = roll(enc, [1, 1], "next_step")
    assert of(events, "save")[0].text == "Bo lives (TA-12, D-8)"
