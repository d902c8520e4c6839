"""strike-chance-pulse: the pure calculators, rule by rule, with the spec's own numbers."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from hexcombat.dice import ScriptedDice
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.rules import (
    can_kick,
    can_parry_unarmed,
    cured,
    daily_damage,
    defense_rating,
    disentangled,
    engaged_pair,
    flight_hexes,
    footing_kept,
    fumble_avoided,
    fumble_face,
    fumble_threshold,
    hit,
    horsemanship_threshold,
    infected,
    infection_chance,
    initiative_bonus,
    knockout_limit,
    knockout_succeeds,
    may_mount,
    missile_band,
    momentum_hexes,
    mounted_charge_ok,
    mounted_melee_hexes,
    mounted_problem,
    multiple_strike_forms,
    needs_infection_check,
    parry_rank,
    parry_triggered,
    punch_base,
    punch_damage,
    restrain_base,
    shield_defense,
    shield_rush_base,
    shield_side_hexes,
    size_at_most_human,
    special_problem,
    strength_bonus,
    strike_chance,
)
from hexcombat.rulesets.strike_chance_pulse.situation import parry_amount

pytestmark = pytest.mark.pyodide


def test_doctests_of_the_calculators_pass() -> None:
    assert doctest.testmod(rules).failed == 0


def test_scp_24_ranked_strike_chance_is_base_plus_md_plus_4_per_rank() -> None:
    assert strike_chance(50, 14, 3) == 76
    assert strike_chance(50, 14, 0) == 64  # Rank 0 is ranked: MD is added


def test_scp_25_unranked_strike_chance_is_the_base_alone() -> None:
    assert strike_chance(50, 14, None) == 50


def test_scp_26_natural_weapons_always_add_md() -> None:
    assert strike_chance(40, 12, None, natural=True) == 52
    assert strike_chance(40, 12, 2, natural=True) == 60


def test_scp_27_e1_msc_is_sc_minus_defense_rating() -> None:
    sc = strike_chance(50, 14, 3)
    assert sc - defense_rating(13, 12, through="F").total == 51
    assert sc - defense_rating(13, 12, through="B").total == 63


def test_scp_28_hit_boundary_is_roll_equal_to_msc() -> None:
    assert hit(51, 51) and not hit(52, 51)


def test_scp_30_fumble_faces_and_the_3_x_md_threshold_a3() -> None:
    assert (fumble_face(99), fumble_face(100), fumble_face(1)) == ("break", "drop", "")
    assert fumble_threshold(14) == 42
    assert fumble_avoided(42, 14) and not fumble_avoided(43, 14)
    assert fumble_threshold(14, "MD") == 14  # I-2's other reading, as an option


def test_scp_32_parry_trigger_at_msc_plus_30_and_on_any_evading_miss() -> None:
    assert parry_triggered(81, 51, evading=False)
    assert not parry_triggered(80, 51, evading=False)
    assert parry_triggered(52, 51, evading=True)
    assert not parry_triggered(51, 51, evading=True)  # a hit is never parried
    assert not parry_triggered(99, 51, evading=False, melee=False)  # Melee only


def test_scp_33_parry_roll_with_unranked_counting_0_a7() -> None:
    def total(face: int, defender: int | None, attacker: int | None) -> int:
        return parry_amount(defender, attacker, "Parry").roll(ScriptedDice([face])).total

    assert [total(d, 2, 3) for d in (4, 5, 8, 9)] == [3, 4, 7, 8]
    assert total(6, None, 2) == 4 and total(6, 2, None) == 8
    assert parry_rank([None, 2, 0]) == 2 and parry_rank([]) is None


def test_scp_34_parry_table_boundaries_3_4_and_7_8() -> None:
    table = parry_amount(2, 3, "Parry")
    results = [table.roll(ScriptedDice([d])).outcome_id for d in range(1, 11)]
    assert results == ["parried"] * 4 + ["disarm"] * 4 + ["riposte"] * 2
    assert [o.chance for o in table.outcomes()] == [Fraction(4, 10)] * 2 + [Fraction(2, 10)]


def test_scp_36_unarmed_figures_parry_only_when_ranked_rank_0_counts() -> None:
    assert can_parry_unarmed(0) and not can_parry_unarmed(None)


def test_scp_37_scp_38_e1_defense_rating_is_agility_plus_shield_by_rank() -> None:
    assert shield_defense(4, 3) == 12
    assert shield_defense(4, 0) == 0 and shield_defense(4, None) == 0
    assert defense_rating(13, 12, through="F").total == 25


def test_scp_39_rear_hexes_ignore_the_shield_and_the_a30_shield_side_option() -> None:
    for through in ("F", "FL", "FR"):
        assert defense_rating(13, 12, through=through).total == 25
    for through in ("BL", "B", "BR"):
        assert defense_rating(13, 12, through=through).total == 13
    assert shield_side_hexes("right") == ("F", "FL")
    side = {
        t: defense_rating(13, 12, through=t, shield_side_only=True).total for t in ("F", "FL", "FR")
    }
    assert side == {"F": 25, "FL": 25, "FR": 13}  # E-1: right-handed, through FR -> 13
    left = defense_rating(13, 12, through="FR", shield_side_only=True, primary_hand="left")
    assert left.total == 25


def test_scp_40_stunned_or_incapacitated_defenders_lose_the_shield() -> None:
    assert defense_rating(13, 12, through="F", stunned=True).total == 13


def test_scp_41_close_combat_ignores_the_shield() -> None:
    assert defense_rating(13, 12, through=None, close=True).total == 13


def test_scp_17_trip_weapons_melee_only_base_40_and_size() -> None:
    assert rules.TRIP_BASE == 40
    assert special_problem("trip", mode="melee", categories=("trip_capable",)) == ""
    assert "Quarterstaff" in special_problem("trip", mode="melee", categories=())
    assert special_problem("trip", mode="ranged", categories=("trip_capable",)) != ""
    assert "human" in special_problem(
        "trip", mode="melee", categories=("trip_capable",), target_size="large"
    )
    assert special_problem("trip", mode="melee", kick=True) == ""  # SCP-46 kick-Trip
    assert rules.TRIP_WEAPONS == ("Quarterstaff", "Spear", "Halberd", "Poleaxe", "Glaive")


def test_scp_18_entangle_needs_net_whip_or_bola_and_two_passes_free_a18() -> None:
    assert special_problem("entangle", mode="melee", categories=("entangling",)) == ""
    assert special_problem("entangle", mode="melee", categories=()) != ""
    assert not disentangled(1) and disentangled(2)


def test_scp_19_e2_restrain_base_and_several_restrainers_a16_a22() -> None:
    assert restrain_base([(16, 14)], (12, 12)) == 18
    assert strike_chance(18, 12, 1) == 34 and strike_chance(18, 12, None) == 18
    assert restrain_base([(12, 12)], (12, 12)) == 0
    assert strike_chance(0, 12, 1) == 16 and strike_chance(0, 12, None) == 0
    assert restrain_base([(16, 14), (15, 13)], (12, 12)) == 102
    assert restrain_base([(12, 12)], (16, 14)) == -18
    assert strike_chance(-18, 14, 2) == 4
    assert special_problem("restrain", mode="melee") != ""
    assert special_problem("restrain", mode="close") == ""


def test_scp_20_e2_knockout_exact_15_percent_threshold() -> None:
    assert [knockout_succeeds(r, 51) for r in (1, 7, 8)] == [True, True, False]
    assert knockout_limit(51) == 7
    # exact integers: 15% of 20 is exactly 3, which succeeds; floats would risk 2.9999...
    assert knockout_succeeds(3, 20) and not knockout_succeeds(4, 20)
    for msc in range(-20, 700):
        assert knockout_limit(msc) == max(
            0, max(r for r in range(0, 200) if 100 * r <= 15 * msc) if msc >= 0 else 0
        )
    for cat in rules.KNOCKOUT_EXCLUDED:
        assert special_problem("knockout", mode="melee", categories=(cat,)) != ""
    assert special_problem("knockout", mode="melee", categories=("sap",)) == ""
    assert special_problem("knockout", mode="melee", target_size="large") != ""


def test_scp_21_e2_shield_rush_base_charge_and_excluded_shields() -> None:
    assert shield_rush_base(False) == 40 and shield_rush_base(True) == 60
    assert strike_chance(shield_rush_base(True), 12, 2) == 80
    assert strike_chance(shield_rush_base(True), 12, 0) == 72
    assert strike_chance(shield_rush_base(True), 12, None) == 60
    assert special_problem("shield_rush", mode="melee", shield_type="large_round") == ""
    for excluded in ("main_gauche", "tower"):
        assert special_problem("shield_rush", mode="melee", shield_type=excluded) != ""


def test_scp_22_e2_disarm_is_msc_minus_20_with_a_melee_or_close_weapon() -> None:
    assert 51 + rules.DISARM_MODIFIER == 31
    assert special_problem("disarm", mode="melee", rated=("melee",)) == ""
    assert special_problem("disarm", mode="ranged", rated=("ranged",)) != ""


def test_scp_16_one_special_attack_from_the_six() -> None:
    assert rules.SPECIALS == ("trip", "entangle", "restrain", "knockout", "shield_rush", "disarm")
    with pytest.raises(ValueError, match="unknown special"):
        special_problem("sweep", mode="melee")


def test_scp_23_footing_roll_at_3_x_agility_a19() -> None:
    assert footing_kept(36, 12) and not footing_kept(37, 12)


def test_scp_43_e2_punch_base() -> None:
    assert punch_base(14, 18) == 31 and punch_base(14, 12) == 28


def test_scp_44_punch_damage_with_the_clamped_strength_bonus_a25() -> None:
    assert [strength_bonus(ps) for ps in (13, 14, 18, 20, 21)] == [0, 0, 1, 1, 2]
    assert punch_damage(18) == "d10-2 min 0"
    assert punch_damage(21) == "d10-1 min 0"
    assert punch_damage(24) == "d10 min 0"


def test_scp_45_unarmed_rank_uses_scp_24_with_the_punch_base() -> None:
    assert strike_chance(punch_base(14, 18), 12, 2) == 31 + 12 + 8


def test_scp_46_kick_needs_unarmed_rank_3() -> None:
    assert can_kick(3) and not can_kick(2) and not can_kick(None)


def test_scp_13_scp_14_scp_15_strike_forms_i11() -> None:
    assert multiple_strike_forms(2, False, 1) == ("two_weapon",)
    assert multiple_strike_forms(1, True, 3) == ()  # I-11: two-handed below Rank 4
    assert multiple_strike_forms(1, True, 4) == ("multi_target",)
    assert multiple_strike_forms(2, False, 5) == ("two_weapon", "multi_target")


def test_scp_10_flight_is_floor_one_and_a_half_range_a24() -> None:
    assert [flight_hexes(r) for r in (1, 4, 7, 10)] == [1, 6, 10, 15]


def test_scp_3_scp_10_a24_missile_bands_too_close_in_range_in_flight_beyond() -> None:
    bands = [missile_band(d, 10) for d in (0, 1, 2, 10, 11, 15, 16)]
    assert bands == ["adjacent", "adjacent", "in_range", "in_range", "flight", "flight", "beyond"]
    assert missile_band(2, 1) == "beyond"  # a range-1 missile flies 1 hex: nothing to Fire at
    with pytest.raises(ValueError):
        missile_band(3, 0)


def test_scp_49_mounted_restrictions() -> None:
    base = {"two_handed": False, "firing": False, "moving": False, "weapons": 1}
    assert mounted_problem(**base) == ""
    assert "two-handed" in mounted_problem(**{**base, "two_handed": True})
    assert "fire" in mounted_problem(**{**base, "firing": True, "moving": True})
    assert mounted_problem(**{**base, "firing": True}) == ""
    assert "more than one" in mounted_problem(**{**base, "weapons": 2})
    assert mounted_problem(**{**base, "two_handed": True}, lifted=True) == ""


def test_scp_50_i10_mounted_arc_fl_fr_and_f_for_long_or_fired() -> None:
    assert mounted_melee_hexes(False) == ("FL", "FR")
    assert mounted_melee_hexes(True) == ("F", "FL", "FR")
    assert mounted_melee_hexes(False, fired=True) == ("F", "FL", "FR")


def test_scp_48_mount_only_while_the_mount_stands() -> None:
    assert may_mount(False) and not may_mount(True)


def test_scp_51_mounted_charge_in_a_straight_line_without_turning() -> None:
    assert mounted_charge_ok([2, 2, 2], [2, 2])
    assert not mounted_charge_ok([2, 3], [2])
    assert not mounted_charge_ok([2, 2], [3])


def test_scp_52_momentum_carries_the_full_tmr_a28() -> None:
    assert momentum_hexes(12) == 12
    assert horsemanship_threshold(12, 2) == 56 and horsemanship_threshold(12, None) == 36


def test_scp_53_scp_54_e2_infection_chance_a27() -> None:
    assert needs_infection_check(True) and not needs_infection_check(False)
    assert infection_chance(7, True) == 57
    assert infection_chance(0, False) == 10
    assert infection_chance(0, True) == 30
    assert infection_chance(3, False, grievous=5) == 38


def test_scp_55_infection_roll_at_or_under() -> None:
    assert infected(57, 57) and not infected(58, 57)


def test_scp_56_e2_cure_roll_and_the_d10_minus_5_table_i7() -> None:
    assert cured(15, 15) and not cured(16, 15)
    assert [daily_damage(f) for f in range(1, 11)] == [1, 1, 1, 1, 1, 1, 2, 3, 4, 5]
    assert daily_damage(7) == 2


def test_a12_engaged_pairs_and_a13_initiative_bonus() -> None:
    assert engaged_pair(True, None, None)
    assert engaged_pair(False, "F", "B") and engaged_pair(False, "B", "FL")
    assert not engaged_pair(False, "BL", "BR")
    assert initiative_bonus(14) == 2


def test_a20_sizes() -> None:
    assert size_at_most_human("small") and size_at_most_human("human")
    assert not size_at_most_human("large")
