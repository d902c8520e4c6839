"""two-action-2d10 options: every default the spec proposes (section 6: D-n, I-n) and our
own readings (R-n) pinned, and each option's other value tried through the Encounter API."""

from __future__ import annotations

import pytest
from two_action_2d10_fixtures import (
    BO_AT,
    act,
    arena,
    declare,
    duel,
    kinds,
    make,
    of,
    roll,
    to_step,
)

from hexcombat import Action, Hex
from hexcombat.figures import Status
from hexcombat.geometry import neighbor
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.options import OPTIONS
from hexcombat.rulesets.two_action_2d10.ruleset import DATA
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

DEFAULTS = {o.name: o.default for o in OPTIONS}


def test_every_option_names_its_gap_and_the_defaults_are_the_spec_s() -> None:
    assert all(o.rule for o in OPTIONS)
    assert DEFAULTS == {
        "ta.passive_active": 12,
        "ta.passive_prone": 8,
        "ta.passive_comatose": 0,
        "ta.passive_shield": 1,
        "ta.defence_mode": "max",
        "ta.block_scope": "all",
        "ta.guard_scope": "one_attacker",
        "ta.block_adj": 2,
        "ta.parry_adj": 0,
        "ta.dodge_unarmoured": 2,
        "ta.dodge_light": 0,
        "ta.dodge_heavy": -2,
        "ta.block_shield_risk": False,
        "ta.threshold_1": 5,
        "ta.threshold_2": 10,
        "ta.threshold_3": 15,
        "ta.save_penalty_2": -2,
        "ta.save_penalty_3": -4,
        "ta.hp_base": 10,
        "ta.death_saves": True,
        "ta.fumble_rule": "double_one",
        "ta.closed_order": "reverse",
        "ta.mutual_wait": "explicit_wait_only",
        "ta.move_extra": "additive",
        "ta.pummel_base": 1,
        "ta.pummel_divisor": 2,
        "ta.brawl_bar": 5,
        "ta.missile_parry": False,
        "ta.free_turn_before_moving": False,
        "ta.break_closed": True,
        "ta.counter_strike_step": "riposte",
        "ta.counter_strike_by": "second_striker",
        "ta.closed_fists": "first",
        "ta.dropped_weapon_blow": "fists",
        "ta.obstacle_actions": 1,
        "ta.combinable": "attack,parry,block,dodge,move,brawl",
        "ta.recover_actions": 1,
        "ta.simultaneous": "both_strike",
        "ta.ceding_and_fists": "after_fists",
        "ta.parry_needs": "weapon_or_shield",
        "ta.block_timing": "first_blow",
        "ta.prone_movement": "free",
        "ta.ready_actions_at": "combat",
        "ta.down_at_zero_bp": True,
        "core.hidden_declarations": True,
    }
    assert get_ruleset("two-action-2d10").default_options() == DEFAULTS


def test_d1_passive_defence_from_options_in_the_view() -> None:
    enc = duel(shield=True)
    f = enc.state.figures
    rs = enc.ruleset
    assert rs.figure_view(enc.state, f["ann"])["ta_passive"] == 12
    assert rs.figure_view(enc.state, f["bo"])["ta_passive"] == 13
    enc = duel(options={"ta.passive_active": 10, "ta.passive_shield": 2}, shield=True)
    assert rs.figure_view(enc.state, enc.state.figures["bo"])["ta_passive"] == 12
    prone = enc.setup_figure("ann")
    prone.statuses["prone"] = Status("prone")
    enc = enc.with_figure(prone)
    assert rs.figure_view(enc.state, enc.state.figures["ann"])["ta_passive"] == 8


def test_d2_dodge_adjustment_depends_on_armour() -> None:
    for armour, floor_dice in (("none", "2d10 min 7"), ("mail", "2d10 min 11")):
        enc = duel(options={}, weapon="axe")
        ann = enc.setup_figure("ann")
        ann.stats["armour"] = armour
        enc = enc.with_figure(ann)
        declare(enc, "ann", "attack", "dodge", target="bo", guard="bo")
        declare(enc, "bo", "attack", "other", target="ann")
        to_step(enc, "combat")
        chain = enc.preview(Action("strike", "bo", {})).rollables[0]
        dodge = chain.variants[1].rollable.stages[0].rollable  # type: ignore[attr-defined]
        assert dodge.defender.dice == floor_dice  # passive 12 - skill 3 - (+2 | -2)


def test_d2_d18_guard_scope_all_lets_a_parry_meet_any_attacker() -> None:
    enc = duel(options={"ta.guard_scope": "all"})
    cy = make(enc, "cy", "Cy", "Blue", neighbor(BO_AT, 0), 3, weapon="sword")
    declare(cy, "ann", "attack", "other", target="bo")
    declare(cy, "cy", "attack", "other", target="bo")
    declare(cy, "bo", "parry", "none")
    to_step(cy, "combat")
    roll(cy, [5, 5], "strike", "cy")
    assert kinds(cy, "bo") == ["parry", "take"]  # the parry may meet Cy too


def test_d3_a_beaten_block_may_lose_the_shield() -> None:
    enc = duel(options={"ta.block_shield_risk": True}, shield=True)
    declare(enc, "ann", "attack", "attack", target="bo", combine=True)
    declare(enc, "bo", "block", "none")
    to_step(enc, "combat")
    roll(enc, [10, 10, 10], "strike", "ann")
    events = roll(enc, [1, 2, 3, 4, 4, 4, 1, 1, 1], "shield_block", "bo")  # 24 vs 13: surplus 11
    assert "torn away (3 on d10, D-3)" in of(events, "status")[0].text
    assert enc.state.figures["bo"].has_status("shield_lost")


def test_d4_d6_d16_data_is_labelled_house_default() -> None:
    for table in ("weapons", "missiles", "armour"):
        assert all(row["house_default"] for row in DATA[table].values()), table
    assert all(row["house_default"] for row in DATA["locations"])
    assert [(r["low"], r["high"], r["id"]) for r in DATA["locations"]] == [
        (1, 1, "head"),
        (2, 2, "shield_arm"),
        (3, 3, "weapon_arm"),
        (4, 7, "torso"),
        (8, 10, "legs"),
    ]
    assert {k: v["ac"] for k, v in DATA["armour"].items()} == {
        "none": 0,
        "leather": 1,
        "studded": 2,
        "mail": 3,
    }
    ranks = {k: v["strike_rank"] for k, v in DATA["weapons"].items()}
    assert ranks == {
        "spear": 1,
        "sword": 2,
        "langasaex": 3,
        "axe": 4,
        "franca": 5,
        "scramasaex": 6,
        "makeshift": 7,
        "natural": 8,
    }


def test_d4_an_encounter_may_override_the_weapon_table() -> None:
    enc = duel()
    data = enc.ruleset.default_data()
    data["weapons"]["axe"]["strike_rank"] = 0  # type: ignore[index]
    enc = enc.with_setup(data={"weapons": data["weapons"]})
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "parry", target="ann", guard="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == ["ann", "bo"]


def test_d5_d7_a_higher_threshold_adds_dice_a_save_penalty_and_lasts() -> None:
    enc = duel()
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    to_step(enc, "combat")
    # 3d10kh2 10 + 9 + 4 = 23 against 12: surplus 11, tier 2: 3d8, head, Health save 10 - 2
    events = roll(enc, [10, 9, 1, 1, 1, 1, 1, 5, 4], "strike", "bo")
    assert of(events, "damage")[0].data["damage"] == 3
    tactical = of(events, "tactical")[0]
    assert tactical.data["effect"] == "stagger" and "Threshold 2" in tactical.details[1]
    act(enc, "next_step")
    with pytest.raises(Exception, match="must be one of Nothing"):
        declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "ann", "attack", "none", target="bo")


def test_d5_thresholds_are_options() -> None:
    enc = duel(options={"ta.threshold_1": 8})
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    events = roll(enc, [6, 9, 3], "strike", "bo")  # 19 vs 12: surplus 7, under 8
    attack = of(events, "attack")[0]
    assert attack.data["surplus"] == 7 and attack.data["tier"] == 0


def test_d8_vitality_and_death_saves() -> None:
    enc = duel(options={"ta.hp_base": 5}, health=4)
    bo = enc.state.figures["bo"]
    assert (bo.pools["hp"].maximum, bo.pools["bp"].maximum) == (9, 4)
    assert enc.state.figures["ann"].pools["hp"].maximum == 15


def test_d8_r5_down_at_zero_body_points_then_a_death_save() -> None:
    enc = duel(options={"ta.hp_base": 0}, health=1)
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    events = roll(enc, [6, 5, 8], "strike", "ann")  # 15 vs 12, surplus 3: 8 damage
    assert enc.state.figures["bo"].has_status("down")
    assert "is down" in of(events, "status")[0].text
    events = roll(enc, [10, 10], "next_step")  # death save 20 > Health 1 + BP -7
    assert "Bo dies" in of(events, "save")[0].text
    assert enc.state.figures["bo"].has_status("dead")


def test_r5_down_at_zero_bp_off_keeps_the_figure_fighting() -> None:
    enc = duel(options={"ta.hp_base": 0, "ta.down_at_zero_bp": False}, health=1)
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    roll(enc, [6, 5, 8], "strike", "ann")
    assert not enc.state.figures["bo"].has_status("down")


def test_d9_fumble_rule_miss_by_10() -> None:
    enc = duel(options={"ta.fumble_rule": "miss_by_10"}, weapon="axe")
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    to_step(enc, "combat")
    events = roll(enc, [1, 1], "strike", "ann")  # 6: not 10 under 12; Bo is asked
    assert "spectacular" not in events[0].text and enc.state.prompt is not None


def test_d10_closed_order_normal_and_reverse() -> None:
    a = R.Striker("a", "A", "spear", 1, 3, closed=True)
    b = R.Striker("b", "B", "scramasaex", 6, 3, closed=True)
    assert R.strike_order([a, b], "reverse")[0] == ["b", "a"]
    assert R.strike_order([a, b], "normal")[0] == ["a", "b"]


def test_d11_mutual_wait_no_attacks_option_stops_two_dodgers() -> None:
    enc = duel(options={"ta.mutual_wait": "no_attacks"})
    declare(enc, "ann", "attack", "dodge", target="bo", guard="bo")
    declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == []


def test_d12_movement_die_replaces_the_free_hexes_when_total() -> None:
    assert R.move_allowance(2, "total") == 3 and R.move_allowance(5, "total") == 5
    assert R.move_allowance(2, "additive") == 5


def test_d13_pummel_damage_options() -> None:
    enc = duel(options={"ta.pummel_base": 0, "ta.pummel_divisor": 1})
    declare(enc, "ann", "brawl", "other", target="bo", style="pummel")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    events = roll(enc, [9, 8], "strike", "ann")  # 17 + 2 = 19, surplus 7
    assert of(events, "damage")[0].data["damage"] == 7


def test_d14_brawl_bar_and_lock_costs_both_actions() -> None:
    enc = duel(options={"ta.brawl_bar": 3})
    declare(enc, "ann", "brawl", "other", target="bo", style="grapple")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    roll(enc, [6, 7, 10, 10], "strike", "ann")  # 15 vs 12: surplus 3 meets bar 3; save fails
    act(enc, "next_step")
    declare(enc, "ann", "brawl", "other", target="bo", style="lock")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    roll(enc, [6, 7, 10, 10], "strike", "ann")
    assert enc.state.figures["bo"].has_status("locked")
    roll(enc, [10, 10], "next_step")  # the lock holds: 20 > Strength 10
    assert enc.ruleset.allowed(enc.state, enc.state.figures["bo"]) == 0


def test_d15_parry_does_not_meet_missiles_unless_the_option_says_so() -> None:
    for allow, expected in ((False, []), (True, ["parry", "take"])):
        enc = duel(options={"ta.missile_parry": allow}, missile="thrown_spear")
        declare(enc, "bo", "load", "shoot", target="ann")
        declare(enc, "ann", "parry", "none", guard="bo")
        to_step(enc, "combat")
        events = roll(enc, [5, 5] if allow else [5, 5, 1], "strike", "bo")
        assert kinds(enc, "ann") == expected, events


def test_d17_a_closed_figure_must_break_away_to_move() -> None:
    enc = duel()
    declare(enc, "ann", "brawl", "other", target="bo", style="grapple")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    roll(enc, [9, 9, 9, 9], "strike", "ann")
    act(enc, "next_step")
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "move", "parry", guard="ann")
    act(enc, "next_step")
    assert kinds(enc, "bo") == ["sprint"] and kinds(enc, "ann") == ["stay"]
    events = roll(enc, [8, 8, 2, 2], "sprint", "bo")  # 16 + 10 against 4 + 10
    assert "breaks away" in events[0].text
    assert "move" in kinds(enc, "bo")


def test_d19_magic_has_only_the_other_action_hook() -> None:
    enc = duel()
    spec = enc.legal_actions("ann")[0]
    first = next(p for p in spec.params if p.name == "first")
    assert "TA-26" in next(c.detail for c in first.choices if c.value == "other")


def test_i3_counter_strike_at_once() -> None:
    enc = duel(options={"ta.counter_strike_step": "immediate"}, weapon="axe")
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "dodge", target="ann", guard="ann")
    to_step(enc, "combat")
    roll(enc, [1, 1], "strike", "ann")
    assert kinds(enc, "bo") == ["riposte", "keep_defence"]
    preview = enc.preview(Action("riposte", "bo", {}))
    assert preview.rollables[0].label == "Bo at Ann"
    roll(enc, [5, 5], "riposte", "bo")  # Ann may still parry
    assert kinds(enc, "ann") == ["parry", "take"]


def test_i4_parry_reduces_the_surplus_instead() -> None:
    enc = duel(options={"ta.defence_mode": "parry_reduces_surplus"})
    declare(enc, "ann", "parry", "none", guard="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [9, 9], "strike", "bo")  # 22 against passive 12: surplus 10
    events = roll(enc, [5, 6, 2, 2, 5, 1, 1], "parry", "ann")  # parry 14: reduces by 2
    assert of(events, "attack")[0].data["surplus"] == 8
    # the parry's margin counts once, off the surplus, not again off the damage: 2d8 (2, 2)
    assert of(events, "damage")[0].data["damage"] == 4


def test_r1_obstacle_actions_zero_lets_anyone_vault() -> None:
    enc = make(arena(14, 14, {"ta.obstacle_actions": 0}), "ann", "Ann", "Blue", Hex(6, 5), 0)
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3).painted([Hex(6, 4)], "obstacle")
    declare(enc, "ann", "none", "none")
    declare(enc, "bo", "none", "none")
    act(enc, "next_step")
    assert "6,4" in [str(c.value) for c in enc.legal_actions("ann")[0].params[0].choices]


def test_r2_combinable_actions_option() -> None:
    enc = duel(options={"ta.combinable": "attack"})
    with pytest.raises(Exception, match="cannot be combined"):
        declare(enc, "ann", "parry", "parry", guard="bo", combine=True)


def test_r3_recover_rises_from_a_stumble() -> None:
    enc = duel()
    ann = enc.setup_figure("ann")
    ann.statuses["prone"] = Status("prone")
    enc = enc.with_figure(ann)
    declare(enc, "ann", "recover", "parry", guard="bo")
    declare(enc, "bo", "other", "none")
    assert enc.state.figures["ann"].has_status("prone")  # the Recover comes in the round
    to_step(enc, "combat")
    assert not enc.state.figures["ann"].has_status("prone")


def test_r4_identical_weapon_and_skill_strike_together() -> None:
    enc = duel(weapon="axe")
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    acting = encounter_view(enc)["time"]["acting"]
    assert acting["order_notes"] == ["Ann and Bo strike together (TA-16, D-10)"]
    # Ann's blow stops Bo (torso, failed save), yet Bo strikes: same place in the order,
    # and the result applies once Bo's blow is struck (D-10)
    roll(enc, [9, 8, 4, 4, 5, 9, 9], "strike", "ann")  # 21 vs 12: surplus 9
    assert "bo" not in enc.state.memory["stopped"] and enc.state.memory["pending"]["bo"]
    assert kinds(enc, "bo") == ["strike", "hold"]
    act(enc, "hold", "bo")
    assert "bo" in enc.state.memory["stopped"] and not enc.state.memory["pending"]


def test_r4_setup_order_lets_the_first_result_stop_the_twin() -> None:
    enc = duel(options={"ta.simultaneous": "setup_order"}, weapon="axe")
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [9, 8, 4, 4, 5, 9, 9], "strike", "ann")
    assert kinds(enc, "bo") == []


def test_r6_open_declarations_are_taken_one_by_one() -> None:
    enc = duel(options={"core.hidden_declarations": False})
    events = declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    assert of(events, "declare")[0].text == "Ann declares attack and parry at Bo"


def test_d12_r7_turning_before_the_move_makes_forward_any_way() -> None:
    start = Hex(6, 5)
    enc = make(arena(14, 14, {"ta.free_turn_before_moving": True}), "ann", "Ann", "Blue", start, 0)
    enc = make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)
    declare(enc, "ann", "none", "none")
    declare(enc, "bo", "none", "none")
    act(enc, "next_step")
    to = [Hex.parse(str(c.value)) for c in enc.legal_actions("ann")[0].params[0].choices]
    two_back = neighbor(neighbor(start, 3), 3)
    assert two_back in to and len(to) == 36  # every hex within 3
