"""Checks: named modifiers, exact odds, breakdowns, results and opposed rolls."""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcombat import checks
from hexcombat.checks import (
    MINUS,
    Check,
    CheckError,
    Modifier,
    OpposedCheck,
    OpposedSide,
    percent,
    signed,
)
from hexcombat.dice import (
    COMPARISONS,
    DiceSyntaxError,
    ScriptedDice,
    SeededDice,
    compare,
    distribution,
    evaluate,
    parse,
)
from hexcombat.rounding import half_up

pytestmark = pytest.mark.pyodide

M = MINUS  # the display minus sign, U+2212
FAST = Modifier("Fast combined speed", -15, "FP-7")


def fig_check(skill_name: str, skill: int, label: str) -> Check:
    return Check(
        label,
        "d100",
        "le",
        skill,
        skill_name,
        (FAST,),
        rule="FP-21",
        success_text="hit",
        failure_text="miss",
    )


def test_doctests_pass() -> None:
    modules = (checks.parts, checks.check, checks.opposed, checks.amount, checks.chain)
    results = {m.__name__: doctest.testmod(m) for m in modules}
    assert {name: r.failed for name, r in results.items() if r.failed} == {}
    assert sum(r.attempted for r in results.values()) > 0


# --------------------------------------------------------------------------- modifiers


def test_modifier_display_uses_a_real_minus_sign() -> None:
    assert str(FAST) == f"Fast combined speed {M}15 (FP-7)"
    assert FAST.line == f"{M}15 Fast combined speed (FP-7)"
    assert FAST.value == -15


def test_modifier_display_variants() -> None:
    assert str(Modifier("Point Blank", 5, "FP-16")) == "Point Blank +5 (FP-16)"
    assert str(Modifier("Block", 2, "TA-7", house_default=True)) == "Block +2 (TA-7, house default)"
    assert str(Modifier("Placeholder", 0, house_default=True)) == "Placeholder +0 (house default)"
    assert str(Modifier("Plain", -1)) == f"Plain {M}1"


def test_signed() -> None:
    assert signed(-15) == f"{M}15"
    assert signed(0) == "+0"
    assert signed(7) == "+7"


def test_modifier_json_round_trip() -> None:
    for modifier in (FAST, Modifier("Block", 2, "TA-7", True), Modifier("Plain", 3)):
        assert Modifier.from_json(modifier.to_json()) == modifier
    assert Modifier("Plain", 3).to_json() == {"name": "Plain", "value": 3}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("x", "a modifier must be an object, got str"),
        ({"value": 1}, "a modifier needs 'name' (text)"),
        ({"name": "A"}, "a modifier needs 'value' (a whole number)"),
        ({"name": "A", "value": "5"}, "a modifier's 'value' must be a whole number, got '5'"),
        ({"name": "A", "value": True}, "a modifier's 'value' must be a whole number, got True"),
        ({"name": "A", "value": 1, "rule": 7}, "a modifier's 'rule' must be text, got 7"),
        (
            {"name": "A", "value": 1, "house_default": 1},
            "a modifier's 'house_default' must be true or false, got 1",
        ),
    ],
)
def test_modifier_from_json_rejects_bad_data(data: object, message: str) -> None:
    with pytest.raises(CheckError) as info:
        Modifier.from_json(data)
    assert str(info.value) == message


# --------------------------------------------------------------------------- fig-percentile


def test_fp_22_crossbow_74_minus_15_is_59() -> None:
    check = fig_check("Crossbow", 74, "Crossbow (Brie \u2192 Barclay)")
    assert check.target == 59
    assert check.chance() == Fraction(59, 100)
    assert check.percent() == "59%"
    assert check.breakdown() == [
        "74 Crossbow",
        f"{M}15 Fast combined speed (FP-7)",
        "= 59",
        "Roll d100, need 59 or lower",
    ]


def test_fp_21_crossbow_roll_43_hits() -> None:
    check = fig_check("Crossbow", 74, "Crossbow (Brie \u2192 Barclay)")
    result = check.resolve(evaluate("d100", [43]))
    assert result.success
    assert (result.roll_total, result.margin) == (43, 16)
    assert result.explain() == (
        f"Crossbow (Brie \u2192 Barclay): 74 Crossbow, {M}15 Fast combined speed (FP-7) = 59; "
        "rolled 43 \u2264 59: hit"
    )


def test_fp_22_pole_arm_38_minus_15_is_23() -> None:
    check = fig_check("Pole Arm", 38, "Beaked axe (Barclay \u2192 Brie)")
    assert check.target == 23
    assert check.chance() == Fraction(23, 100)
    assert check.resolve(evaluate("d100", [23])).success  # G-1: "le" includes 23
    miss = check.resolve(evaluate("d100", [24]))
    assert not miss.success
    assert miss.margin == -1
    assert miss.explain().endswith("rolled 24 > 23: miss")


def test_fp_23_half_staff_97_gives_49_then_34() -> None:
    staff = half_up(97)
    assert staff == 49
    check = fig_check("Staff (half, FP-23)", staff, "Staff (Brie \u2192 Barclay)")
    assert check.target == 34
    assert check.chance() == Fraction(34, 100)
    assert check.breakdown()[0] == "49 Staff (half, FP-23)"


def test_fp_21_literal_under_reading() -> None:
    check = Check("Pole arm", "d100", "lt", 23, "Pole Arm 38 - 15")
    assert check.chance() == Fraction(22, 100)
    assert check.breakdown()[-1] == "Roll d100, need 22 or lower (under 23)"
    assert check.resolve(evaluate("d100", [23])).explain().endswith("rolled 23 \u2265 23: failure")


# --------------------------------------------------------------------------- two-action-2d10


def ta_attack(defence: int = 15) -> Check:
    return Check(
        "Sword (Alda \u2192 Bors)",
        "2d10",
        "ge",
        defence,
        "Bors's defence",
        roll_modifiers=(Modifier("Sword skill", 5),),
        rule="TA-8",
        success_text="hit",
        failure_text="miss",
    )


def test_ta_8_two_d10_plus_5_against_15() -> None:
    check = ta_attack()
    assert check.target == 15
    assert check.roll_bonus == 5
    # 2d10 >= 10: 1 - P(2d10 <= 9) = 1 - 36/100.
    assert check.chance() == Fraction(64, 100)
    assert check.percent() == "64%"
    assert check.breakdown() == [
        "15 Bors's defence",
        "+5 Sword skill (added to the roll)",
        "Roll 2d10 + 5, need 15 or higher",
    ]


def test_ta_8_hit_boundary_11_plus_4_meets_15() -> None:
    check = Check("Attack", "2d10", "ge", 15, "Defence", (), (Modifier("Skill", 4),))
    result = check.resolve(evaluate("2d10", [6, 5]))
    assert result.success
    assert (result.roll_total, result.margin) == (15, 0)
    assert result.explain() == (
        "Attack: 15 Defence; rolled 11 (2d10: 6, 5), +4 Skill = 15 \u2265 15: success"
    )


def test_ta_5_combined_attack_explains_the_dropped_die() -> None:
    check = Check(
        "Combined attack",
        "3d10kh2",
        "ge",
        18,
        "Defence",
        (Modifier("Block", 2, "TA-7", house_default=True),),
        (Modifier("Skill", 4),),
    )
    assert check.target == 20
    result = check.resolve(evaluate("3d10kh2", [3, 9, 6]))
    assert (result.roll_total, result.success, result.margin) == (19, False, -1)
    assert result.explain() == (
        "Combined attack: 18 Defence, +2 Block (TA-7, house default) = 20; "
        "rolled 15 (best two of 3d10: 3 dropped, 9, 6), +4 Skill = 19 < 20: failure"
    )


def test_negative_roll_bonus_in_the_sentence() -> None:
    check = Check("Clumsy", "2d10", "ge", 12, "Defence", (), (Modifier("Make-shift", -1, "D-16"),))
    assert check.breakdown()[-1] == f"Roll 2d10 {M} 1, need 12 or higher"


def test_impossible_and_certain_checks_say_so() -> None:
    assert Check("x", "d100", "le", 0, "Skill").breakdown()[-1].endswith("(impossible)")
    assert Check("x", "d100", "le", 100, "Skill").breakdown()[-1].endswith("(certain)")
    assert Check("x", "d100", "le", 0, "Skill").percent() == "0%"
    assert Check("x", "d100", "le", 150, "Skill").percent() == "100%"


# --------------------------------------------------------------------------- strike-chance-pulse


def test_scp_44_bare_d_check_with_default_die() -> None:
    check = Check("Damage at least 1", "D-3", "ge", 1, "Threshold", default_sides=10)
    assert check.expr.text == "d10-3"
    assert check.chance() == Fraction(7, 10)  # d10 of 4 or more
    result = check.roll(ScriptedDice([4]))
    assert (result.roll.expr, result.roll_total, result.success) == ("d10-3", 1, True)


def test_check_roll_uses_the_dice_source_and_records_it() -> None:
    seeded = SeededDice(12345)
    result = fig_check("Crossbow", 74, "Crossbow").roll(seeded)
    assert seeded.rolls == (result.roll,)
    assert result.roll.total == 45  # the first golden d100 face of seed 12345
    assert result.success


# --------------------------------------------------------------------------- general behaviour


@given(
    st.sampled_from(["d6", "2d4", "2d6kh1", "d10-5 min 1", "3d4kl2+1"]),
    st.sampled_from(sorted(COMPARISONS)),
    st.integers(-3, 12),
    st.lists(st.integers(-4, 4), max_size=2),
    st.lists(st.integers(-4, 4), max_size=2),
)
def test_chance_matches_resolving_every_outcome(
    dice: str, comparison: str, base: int, mods: list[int], roll_mods: list[int]
) -> None:
    check = Check(
        "Any",
        dice,
        comparison,
        base,
        "Base",
        tuple(Modifier(f"m{i}", v) for i, v in enumerate(mods)),
        tuple(Modifier(f"r{i}", v) for i, v in enumerate(roll_mods)),
    )
    sides = parse(dice).faces_needed()
    outcomes = list(itertools.product(*(range(1, s + 1) for s in sides)))
    wins = sum(check.resolve(evaluate(dice, list(faces))).success for faces in outcomes)
    assert check.chance() == Fraction(wins, len(outcomes))


@pytest.mark.parametrize(
    ("comparison", "roll", "margin"),
    [("le", 40, 10), ("lt", 55, -5), ("ge", 60, 10), ("gt", 45, -5), ("eq", 47, -3)],
)
def test_margin_is_signed_in_the_favourable_direction(
    comparison: str, roll: int, margin: int
) -> None:
    check = Check("x", "d100", comparison, 50, "Base")
    result = check.resolve(evaluate("d100", [roll]))
    assert result.margin == margin
    assert result.success == (margin > 0 or (margin == 0 and comparison in ("le", "ge", "eq")))


@pytest.mark.parametrize(
    ("comparison", "sentence"),
    [
        ("le", "need 50 or lower"),
        ("lt", "need 49 or lower (under 50)"),
        ("ge", "need 50 or higher"),
        ("gt", "need 51 or higher (over 50)"),
        ("eq", "need exactly 50"),
    ],
)
def test_comparison_sentences(comparison: str, sentence: str) -> None:
    assert Check("x", "d100", comparison, 50, "Base").breakdown()[-1] == f"Roll d100, {sentence}"


def test_resolve_refuses_a_roll_of_other_dice() -> None:
    with pytest.raises(CheckError, match=r"'Crossbow' rolls d100, but the roll given is 2d10"):
        fig_check("Crossbow", 74, "Crossbow").resolve(evaluate("2d10", [1, 2]))


def test_invalid_checks_are_refused_when_built() -> None:
    with pytest.raises(CheckError, match="unknown comparison '<='; expected one of 'le'"):
        Check("x", "d100", "<=", 50, "Base")
    with pytest.raises(DiceSyntaxError, match="unexpected 'x'"):
        Check("x", "d10x", "le", 50, "Base")
    with pytest.raises(DiceSyntaxError, match="no number of sides"):
        Check("x", "D-3", "le", 50, "Base")


def test_modifier_lists_become_tuples() -> None:
    check = Check("x", "d100", "le", 50, "Base", [FAST], [FAST])  # type: ignore[arg-type]
    assert check.modifiers == (FAST,)
    assert check.roll_modifiers == (FAST,)
    assert hash(check) == hash(Check("x", "d100", "le", 50, "Base", (FAST,), (FAST,)))


# --------------------------------------------------------------------------- percent


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(59, 100), "59%"),
        (Fraction(1, 200), "0.5%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        (Fraction(1, 8), "12.5%"),
        (Fraction(1, 16), "6.3%"),  # 6.25 rounds half up
        (Fraction(1, 1000), "0.1%"),
        (Fraction(1, 10000), "<0.1%"),
        (Fraction(9999, 10000), ">99.9%"),
        (Fraction(28, 1000), "2.8%"),
    ],
)
def test_percent(p: Fraction, text: str) -> None:
    assert percent(p) == text


def test_percent_refuses_non_probabilities() -> None:
    with pytest.raises(CheckError, match="between 0 and 1"):
        percent(Fraction(3, 2))


# --------------------------------------------------------------------------- opposed


def break_away(ties: str = "attacker", wins: str = "higher") -> OpposedCheck:
    return OpposedCheck(
        "Break away",
        OpposedSide("Alda", "2d10", (Modifier("Agility", 3),)),
        OpposedSide("Bors", "2d10", (Modifier("Agility", 4),)),
        wins=wins,
        ties=ties,
    )


def brute_force_opposed(check: OpposedCheck) -> Fraction:
    a = distribution(check.attacker.dice)
    d = distribution(check.defender.dice)
    return sum(
        (
            pa * pd
            for ta, pa in a.items()
            for td, pd in d.items()
            if compare(ta + check.attacker.bonus, check.comparison, td + check.defender.bonus)
        ),
        Fraction(0),
    )


@pytest.mark.parametrize(
    ("wins", "ties", "comparison"),
    [
        ("higher", "attacker", "ge"),
        ("higher", "defender", "gt"),
        ("lower", "attacker", "le"),
        ("lower", "defender", "lt"),
    ],
)
def test_ta_17_opposed_chance_is_exact(wins: str, ties: str, comparison: str) -> None:
    check = break_away(ties, wins)
    assert check.comparison == comparison
    assert check.chance() == brute_force_opposed(check)


def test_ta_17_break_away_tie_goes_to_the_attacker() -> None:
    check = break_away()
    result = check.resolve(evaluate("2d10", [6, 5]), evaluate("2d10", [5, 5]))
    assert (result.attacker_total, result.defender_total, result.attacker_wins) == (14, 14, True)
    assert result.explain() == (
        "Break away: Alda 11 (2d10: 6, 5), +3 Agility = 14 vs "
        "Bors 10 (2d10: 5, 5), +4 Agility = 14: Alda wins (tie goes to the attacker)"
    )
    assert (
        not break_away("defender").resolve(result.attacker_roll, result.defender_roll).attacker_wins
    )


def test_opposed_roll_rolls_attacker_first() -> None:
    result = break_away().roll(ScriptedDice([1, 2, 9, 9]))
    assert (result.attacker_roll.faces, result.defender_roll.faces) == ((1, 2), (9, 9))
    assert not result.attacker_wins
    assert result.explain().endswith("Bors wins")


def test_opposed_check_validation() -> None:
    with pytest.raises(CheckError, match="wins='higher' or 'lower'"):
        break_away(ties="reroll")
    with pytest.raises(DiceSyntaxError):
        OpposedSide("Alda", "2d", ())
    with pytest.raises(
        CheckError, match="Bors rolls 2d10 in 'Break away', but the roll given is d6"
    ):
        break_away().resolve(evaluate("2d10", [1, 1]), evaluate("d6", [1]))
