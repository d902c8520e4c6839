"""two-action-2d10 calculators, rule by rule, with the spec's numbers (section 4's test
vectors and section 6's placeholders). Pure functions: no encounter."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hexcombat.dice import distribution, evaluate
from hexcombat.geometry import Hex, distance
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.options import OPTIONS, TIME

pytestmark = pytest.mark.pyodide

DEFAULTS = {o.name: o.default for o in OPTIONS}


def everywhere(h: Hex) -> bool:
    return True


def test_ta_1_two_actions_a_round() -> None:
    assert R.ACTIONS_PER_ROUND == 2
    assert R.declaration_problem("attack", "parry", False) == ""
    assert "only 1 action" in R.declaration_problem("attack", "parry", False, allowed=1)
    assert R.declaration_problem("attack", "none", False, allowed=1) == ""
    assert "no actions" in R.declaration_problem("attack", "none", False, allowed=0)


def test_ta_2_an_action_may_move_load_shoot_or_do_something_else() -> None:
    for pair in (("move", "attack"), ("load", "parry"), ("shoot", "dodge"), ("other", "attack")):
        assert R.declaration_problem(*pair, False) == "", pair


def test_ta_3_the_same_action_is_not_taken_twice() -> None:
    why = R.declaration_problem("attack", "attack", False)
    assert "TA-3" in why
    assert "TA-3" in R.declaration_problem("parry", "parry", False)
    # test vector 10: {load, shoot} is allowed, {move, move} is the two-die form (I-2)
    assert R.declaration_problem("load", "shoot", False) == ""
    assert R.declaration_problem("move", "move", False) == ""
    assert R.is_combined("move", "move", False)


def test_ta_4_action_rolls_are_2d10_from_2_to_20() -> None:
    dist = distribution(R.action_dice(False))
    assert min(dist) == 2 and max(dist) == 20
    assert dist[11] == Fraction(10, 100) and dist[2] == Fraction(1, 100)
    assert sum(dist.values()) == 1


def test_ta_5_combined_action_rolls_3d10_keeping_the_best_two() -> None:
    assert R.action_dice(True) == "3d10kh2"
    assert R.keep_best_two((3, 9, 6)) == 15
    assert R.keep_best_two((1, 1, 10)) == 11
    assert evaluate("3d10kh2", [3, 9, 6]).total == 15
    assert evaluate("3d10kh2", [1, 1, 10]).total == 11
    # test vector 1: 15 + skill 4 -> 19
    assert evaluate("3d10kh2", [3, 9, 6]).total + 4 == 19
    # {attack, attack} combined -> one 3d10k2 attack; combining two different actions is refused
    assert R.declaration_problem("attack", "attack", True) == ""
    assert "ONE action" in R.declaration_problem("attack", "parry", True)
    assert "cannot be combined" in R.declaration_problem("shoot", "shoot", True)


def test_ta_6_passive_defence_by_posture_and_shield() -> None:
    assert R.passive_defence("active", False, DEFAULTS) == 12
    assert R.passive_defence("prone", False, DEFAULTS) == 8
    assert R.passive_defence("comatose", False, DEFAULTS) == 0
    assert R.passive_defence("active", True, DEFAULTS) == 13


def test_ta_7_defensive_roll_adjustments_and_the_higher_defence() -> None:
    assert R.defence_adjustment("block", "light", DEFAULTS) == 2
    assert R.defence_adjustment("parry", "heavy", DEFAULTS) == 0
    assert R.defence_adjustment("dodge", "none", DEFAULTS) == 2
    assert R.defence_adjustment("dodge", "light", DEFAULTS) == 0
    assert R.defence_adjustment("dodge", "heavy", DEFAULTS) == -2
    assert R.effective_defence(12, 9) == 12
    assert R.effective_defence(12, 17) == 17
    assert R.effective_defence(12, None) == 12


def test_ta_8_attack_is_2d10_plus_skill_plus_weapon() -> None:
    # test vector 2: (6, 5) = 11 + skill 4 + weapon 0 = 15
    assert evaluate("2d10", [6, 5]).total + 4 + 0 == 15


def test_ta_9_attack_meeting_the_defence_hits_with_surplus_0() -> None:
    assert R.hits(15, 15) and R.surplus(15, 15) == 0
    assert not R.hits(15, 16)
    assert R.surplus(19, 12) == 7


def test_ta_10_damage_minus_armour_class_never_below_0() -> None:
    # test vector 3: d8 rolls 6 against AC 2 -> 4; 2 against AC 2 -> 0
    assert R.damage_after_armour(6, 2) == 4
    assert R.damage_after_armour(2, 2) == 0
    assert R.damage_after_armour(1, 3) == 0


def test_ta_11_thresholds_add_dice_location_and_save() -> None:
    thresholds = [5, 10, 15]
    assert [R.tier(s, thresholds) for s in (0, 4, 5, 9, 10, 14, 15, 30)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert R.damage_dice("d8", 0) == "1d8"
    assert R.damage_dice("d8", 2) == "3d8"
    assert R.damage_dice("d4", 3) == "4d4"
    assert [R.save_modifier(t, DEFAULTS) for t in (1, 2, 3)] == [0, -2, -4]


def test_ta_12_hit_points_then_body_points() -> None:
    # test vector 4: HP 3, BP 10, 5 damage -> HP 0, BP 8
    assert R.take_damage(3, 10, 5) == (0, 8)
    assert R.take_damage(10, 10, 4) == (6, 10)
    assert R.take_damage(0, 2, 5) == (0, -3)
    assert R.vitality(10, 10) == (20, 10)


def test_ta_14_strike_order_follows_the_weapon_list() -> None:
    weapons = ["scramasaex", "franca", "axe", "langasaex", "sword", "spear"]
    strikers = [R.Striker(w, w.capitalize(), w, 6 - i, 3) for i, w in enumerate(weapons)]
    order, notes = R.strike_order(strikers)
    assert order == ["spear", "sword", "langasaex", "axe", "franca", "scramasaex"]
    assert notes[0] == "Spear strikes before Sword (TA-14)"
    spear = R.Striker("a", "A", "spear", 1, 0)
    axe = R.Striker("b", "B", "axe", 4, 8)
    assert R.strike_order([axe, spear])[0] == ["a", "b"]


def test_ta_15_a_closed_pair_strikes_shortest_first() -> None:
    spear = R.Striker("a", "A", "spear", 1, 3, closed=True, opponents=("b",))
    fists = R.Striker("b", "B", "natural", 8, 3, closed=True, opponents=("a",))
    assert R.strike_order([spear, fists], "reverse")[0] == ["b", "a"]
    assert R.strike_order([spear, fists], "normal", "last")[0] == ["a", "b"]


def test_ta_16_more_skilled_first_with_identical_weapons() -> None:
    a = R.Striker("a", "A", "sword", 2, 3)
    b = R.Striker("b", "B", "sword", 2, 5)
    order, notes = R.strike_order([a, b])
    assert order == ["b", "a"]
    assert "more skilled" in notes[0] and "TA-16" in notes[0]


def test_ta_17_ceding_strikes_second_and_spectacular_mistakes() -> None:
    a = R.Striker("a", "A", "scramasaex", 6, 1, opponents=("b",))
    b = R.Striker("b", "B", "spear", 1, 5, cedes=True, opponents=("a",))
    order, notes = R.strike_order([a, b])
    assert order == ["a", "b"] and "cedes" in notes[0]
    assert R.is_spectacular_mistake((1, 1), 2 + 4, 12, "double_one")
    assert R.is_spectacular_mistake((1, 1), 2, 12, "double_one")
    assert not R.is_spectacular_mistake((1, 2), 3, 12, "double_one")
    assert R.is_spectacular_mistake((4, 5), 2, 12, "miss_by_10")
    assert not R.is_spectacular_mistake((4, 5), 3, 12, "miss_by_10")


def test_ta_18_dodge_cedes_both_cede_cancels_both_wait_no_attacks() -> None:
    a = R.Striker("a", "A", "axe", 4, 3, cedes=True, opponents=("b",))
    b = R.Striker("b", "B", "spear", 1, 3, cedes=True, opponents=("a",))
    assert R.strike_order([a, b])[0] == ["b", "a"]  # both dodge: the normal order
    assert R.no_attack_pairs([a, b], "explicit_wait_only") == set()
    assert R.no_attack_pairs([a, b], "no_attacks") == {frozenset("ab")}
    wa = R.Striker("a", "A", "axe", 4, 3, cedes=True, waits=True, opponents=("b",))
    wb = R.Striker("b", "B", "spear", 1, 3, cedes=True, waits=True, opponents=("a",))
    assert R.no_attack_pairs([wa, wb], "explicit_wait_only") == {frozenset("ab")}
    # a Wait against one who commits strikes second
    c = R.Striker("b", "B", "scramasaex", 6, 3, opponents=("a",))
    assert R.strike_order([wa, c])[0] == ["b", "a"]


def test_ta_19_fists_last_unless_closed_and_pummel_damage_from_surplus() -> None:
    knife = R.Striker("a", "A", "scramasaex", 6, 0)
    fists = R.Striker("b", "B", "natural", 8, 8)
    order, notes = R.strike_order([fists, knife])
    assert order == ["a", "b"] and "fists come last (TA-19)" in notes[0]
    assert R.pummel_damage(0, 0) == 1
    assert R.pummel_damage(7, 1) == 3
    assert R.pummel_damage(1, 3) == 0


def test_ta_20_makeshift_weapons_are_slower_and_clumsier() -> None:
    from hexcombat.rulesets.two_action_2d10.ruleset import DATA

    club, axe = DATA["weapons"]["makeshift"], DATA["weapons"]["axe"]
    assert club["strike_rank"] > DATA["weapons"]["scramasaex"]["strike_rank"]
    assert club["attack_adj"] == -1 and club["damage"] == "d4" and axe["attack_adj"] == 0


def test_ta_21_tactical_brawl_save_is_downgraded_by_surplus() -> None:
    assert R.brawl_save_target(12, 5, 5) == 12
    assert R.brawl_save_target(12, 8, 5) == 9
    assert R.brawl_save_target(12, 3, 5) == 12


def test_ta_23_free_movement_three_forward_or_one_back() -> None:
    assert R.free_move("forward") == 3 and R.free_move("back") == 1
    start = Hex(5, 5)
    forward = R.forward_reach(start, 0, 3, everywhere)
    assert max(forward.values()) == 3 and all(distance(start, h) <= 3 for h in forward)
    assert len(R.back_reach(start, 0, everywhere)) == 3
    assert not set(R.back_reach(start, 0, everywhere)) & set(forward)


def test_ta_24_movement_die_by_armour() -> None:
    assert R.movement_die("light") == "d6" and R.movement_die("none") == "d6"
    assert R.movement_die("heavy") == "d4"
    # test vector 5: heavy armour, d4 = 3 -> up to 6 forward
    assert R.move_allowance(3) == 6
    assert R.move_allowance(None) == 3


def test_ta_25_second_movement_die_best_of_two_plus_or_minus_one() -> None:
    # test vector 6: (2, 5) -> keep 5 -> 4, 5 or 6 -> up to 9 forward
    # the better of two dice (2d6kh1, as the sprint rolls it), then +-1 hex at choice
    assert [evaluate("2d6kh1", (2, 5)).total + d for d in (-1, 0, 1)] == [4, 5, 6]
    assert R.move_allowance(evaluate("2d6kh1", (2, 5)).total + 1) == 9
    assert evaluate("2d6kh1", (1, 1)).total - 1 == 0


def test_ta_27_a_round_has_declare_missiles_movement_combat_riposte() -> None:
    assert [s.id for s in TIME.steps] == ["declare", "missiles", "movement", "combat", "riposte"]
    assert TIME.steps[0].kind == "declare"
    assert all(s.rule == "TA-27" for s in TIME.steps)
