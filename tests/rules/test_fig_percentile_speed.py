"""fig-percentile FP-1 ... FP-10: movement rates, momentum, speed, bands, turning, dodging."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from fig_percentile_fixtures import (
    act,
    add,
    arena,
    beside,
    choices,
    end_round,
    forward,
    kinds,
    last,
    next_step,
    play_round,
)

from hexcombat import Action
from hexcombat.board import Board
from hexcombat.geometry import Hex, neighbor
from hexcombat.movement import Pose, search
from hexcombat.rulesets.fig_percentile import (
    FigPercentile,
    Motion,
    accel_speed,
    allowance,
    can_dodge,
    combined_band,
    combined_speed,
    half_skill,
    is_slow,
    moves,
    ranges,
    rounded,
    speed,
    speed_band,
    speed_value,
    top_speed,
)
from hexcombat.rulesets.fig_percentile.moves import step_function

pytestmark = pytest.mark.pyodide

SPEC_FIGS = (4, 5, 14, 15, 25, 29, 35, 45, 52, 62, 95)


def test_doctests_of_the_calculators_pass() -> None:
    for module in (speed, ranges, moves):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("fig", "hexes"), [(62, 6), (29, 3), (52, 5), (14, 1), (4, 0), (25, 3), (15, 2)]
)
def test_fp_1_top_speed_is_fig_over_10_rounded_half_up(fig: int, hexes: int) -> None:
    assert top_speed(fig) == hexes


@pytest.mark.parametrize("fig", SPEC_FIGS)
def test_fp_1_fp_2_rates_match_the_integer_formulas(fig: int) -> None:
    assert top_speed(fig) == (fig + 5) // 10
    assert accel_speed(fig) == (fig + 10) // 20


def test_fp_1_i2_half_down_rounding_option_changes_only_the_halves() -> None:
    assert [top_speed(f, "half_down") for f in (25, 15, 62, 29)] == [2, 1, 6, 3]
    assert rounded(Fraction(97, 2), "half_down") == 48
    with pytest.raises(ValueError, match="half_up, half_down"):
        rounded(Fraction(1, 2), "banker")


@pytest.mark.parametrize(("fig", "hexes"), [(62, 3), (52, 3), (29, 1), (7, 0), (12, 1)])
def test_fp_2_acceleration_round_is_fig_over_20(fig: int, hexes: int) -> None:
    assert accel_speed(fig) == hexes


def test_fp_2_acceleration_is_not_half_the_rounded_top_speed() -> None:
    # FIG 29: halving the rounded top speed would give rhu(3/2) = 2; the text says 1.
    assert accel_speed(29) == 1
    assert rounded(Fraction(top_speed(29), 2)) == 2


def test_fp_2_e1_fig_62_moves_3_hexes_then_6() -> None:
    enc = add(arena(width=20), "runner", (1, 5), side="A", fig=62, facing=2)
    play_round(enc, {"runner": "accelerate"}, {"runner": (4, 5)})
    move = last(enc, "move")
    assert move.data["allowance"] == 3 and move.data["hexes"] == 3
    assert "62 / 20 = 3.1 → 3 hexes" in move.details[0]
    end_round(enc)
    play_round(enc, {"runner": "top"}, {"runner": (10, 5)})
    move = last(enc, "move")
    assert move.data["allowance"] == 6 and move.data["hexes"] == 6
    assert "62 / 10 = 6.2 → 6 hexes" in move.details[0]


def test_fp_3_a_figure_that_keeps_running_stays_at_top_speed() -> None:
    enc = add(arena(), "runner", (1, 5), side="A", fig=40, facing=2)
    assert choices(enc, "runner", "declare", "mode") == ["stationary", "walk", "accelerate"]
    play_round(
        enc, {"runner": "accelerate"}, {"runner": forward(enc, "runner", 2)}, {"runner": "continue"}
    )
    end_round(enc)
    # Having kept running, the only mode next round is top speed (FP-3, FP-27).
    assert choices(enc, "runner", "declare", "mode") == ["top"]
    play_round(enc, {"runner": "top"}, {"runner": forward(enc, "runner", 1)})
    end_round(enc)
    assert choices(enc, "runner", "declare", "mode") == ["top"]


def test_fp_4_a_stop_takes_effect_at_round_end_and_acceleration_starts_over() -> None:
    enc = add(arena(), "a", (1, 5), side="A", fig=40, facing=2)
    enc = add(enc, "b", (8, 5), side="B", fig=40, facing=5)
    play_round(enc, {"a": "accelerate", "b": "stationary"}, {"a": forward(enc, "a")})
    end_round(enc)
    play_round(enc, {"a": "top", "b": "stationary"}, {"a": forward(enc, "a")}, {"a": "stop"})
    # The stop is declared but the figure still counts as moving this round.
    view = enc.ruleset.figure_view(enc.state, enc.state.figures["a"])
    assert view["speed"] == "40" and view["stop_declared"] is True
    end_round(enc)
    assert last(enc, "stopped").rule == "FP-4"
    assert choices(enc, "a", "declare", "mode") == ["stationary", "walk", "accelerate"]


def test_fp_4_walking_zero_hexes_counts_as_stationary_and_walking_builds_no_momentum() -> None:
    enc = add(arena(), "w", (1, 5), side="A", fig=40, facing=2)
    play_round(enc, {"w": "walk"}, {"w": (2, 5)})
    assert "stop_or_continue" not in kinds(enc, "w")
    end_round(enc)
    assert choices(enc, "w", "declare", "mode") == ["stationary", "walk", "accelerate"]


@pytest.mark.parametrize(
    ("mode", "fig", "walked", "value"),
    [
        ("stationary", 29, 0, Fraction(0)),
        ("accelerate", 29, 0, Fraction(29, 2)),
        ("accelerate", 52, 0, Fraction(26)),
        ("top", 29, 0, Fraction(29)),
        ("top", 52, 0, Fraction(52)),
        ("walk", 29, 1, Fraction(7)),
        ("walk", 29, 0, Fraction(0)),
        ("walk", 10, 1, Fraction(5)),  # capped at FIG/2 (G-11)
    ],
)
def test_fp_5_speed_value_is_0_half_fig_or_fig(
    mode: str, fig: int, walked: int, value: Fraction
) -> None:
    assert speed_value(mode, fig, walked) == value


def test_fp_5_speed_value_of_a_walker_under_the_slow_band_option_is_0() -> None:
    assert speed_value("walk", 29, 1, "slow_band") == 0
    with pytest.raises(ValueError, match="unknown move mode"):
        speed_value("sprint", 29)
    with pytest.raises(ValueError, match="unknown move mode"):
        allowance("sprint", 29)


def _motion(mode: str, fig: int, walked: int = 0, walk_speed: int | str = 7) -> Motion:
    s = speed_value(mode, fig, walked, walk_speed)
    hexes = walked if mode == "walk" else allowance(mode, fig)
    return Motion(mode, fig, s, hexes)


def test_fp_6_combined_speed_adds_unrounded_points() -> None:
    barclay, brie = _motion("accelerate", 29), _motion("accelerate", 52)
    assert combined_speed(barclay, brie) == Fraction(81, 2)  # 14.5 + 26 = 40.5
    assert combined_speed(_motion("top", 29), _motion("top", 52)) == 81


def test_fp_6_i4_points_and_hexes_differ_for_two_fig_16_runners() -> None:
    a, b = _motion("top", 16), _motion("top", 16)
    assert combined_band(a, b).name == "Medium"  # 32 points
    assert combined_speed(a, b, "hexes") == 4
    assert combined_band(a, b, "hexes").name == "Fast"  # 2 + 2 hexes


@pytest.mark.parametrize(
    ("sc", "band", "modifier"),
    [
        ("0", "Stationary", 0),
        ("14", "Slow", -5),
        ("14.5", "Slow", -5),
        ("15", "Medium", -10),
        ("29", "Medium", -10),
        ("34.5", "Medium", -10),
        ("35", "Fast", -15),
        ("40.5", "Fast", -15),
        ("81", "Fast", -15),
        ("94.5", "Fast", -15),
        ("95", "Hyper", -20),
        ("140", "Hyper", -20),
    ],
)
def test_fp_7_band_table(sc: str, band: str, modifier: int) -> None:
    result = speed_band(Fraction(sc))
    assert (result.name, result.modifier) == (band, modifier)


@pytest.mark.parametrize(
    ("hexes", "band"), [(0, "Stationary"), (1, "Slow"), (2, "Medium"), (4, "Fast"), (10, "Hyper")]
)
def test_fp_7_band_table_in_hexes(hexes: int, band: str) -> None:
    assert speed_band(hexes, "hexes").name == band


def test_fp_7_two_walkers_are_slow_and_one_walker_is_enough_g11() -> None:
    assert combined_band(_motion("walk", 30, 1), _motion("walk", 30, 1)).name == "Slow"  # 14
    assert combined_band(_motion("walk", 30, 1), _motion("stationary", 30)).name == "Slow"
    slow = "slow_band"
    walker, still = _motion("walk", 30, 1, slow), _motion("stationary", 30)
    assert combined_band(walker, still, walk_speed=slow).name == "Slow"
    assert combined_band(walker, _motion("top", 30), walk_speed=slow).name == "Medium"


def test_fp_7_g10_two_stationary_figures_get_no_modifier_unless_the_option_says_slow() -> None:
    assert speed_band(0).modifier == 0
    assert speed_band(0, zero="slow").name == "Slow"
    with pytest.raises(ValueError, match="negative"):
        speed_band(-1)


def test_fp_7_the_band_applies_to_both_opponents_attacks() -> None:
    enc = arena()
    enc = add(
        enc, "a", (3, 5), side="A", fig=40, skills={"Sword": 50}, items=["Sword"], ready="Sword"
    )
    enc = add(
        enc, "b", (4, 5), side="B", fig=20, skills={"Sword": 60}, items=["Sword"], ready="Sword"
    )
    play_round(enc, {"a": "accelerate", "b": "stationary"}, {"a": beside("a", "b")})
    # 20 + 0 = 20: Medium, -10 for both sides.
    for attacker, target, expected in (("a", "b", 40), ("b", "a", 50)):
        check = enc.preview(Action("attack", attacker, {"target": target})).rollables[0]
        assert check.target == expected
        assert check.modifiers[0].value == -10 and check.modifiers[0].rule == "FP-6, FP-7"


def _costs(free: bool, facing: int = 0, allowance: int = 6) -> dict[Hex, int]:
    board = Board(12, 12, FigPercentile.terrain)
    fn = step_function(board, [], free_turns=free)
    return search(Pose(Hex(5, 3), facing), fn, allowance).hex_costs()


def test_fp_8_a_slow_figure_turns_as_much_as_it_likes_for_free() -> None:
    start = Hex(5, 3)
    costs = _costs(True, allowance=1)
    assert [costs[neighbor(start, d)] for d in range(6)] == [1, 1, 1, 1, 1, 1]
    assert is_slow(Fraction(29, 2)) and not is_slow(15)


def test_fp_8_slow_is_the_figures_own_speed_g23() -> None:
    # Barclay accelerating (14.5) is Slow; Brie accelerating (26) is not.
    enc = add(arena(width=16), "barclay", (1, 5), side="A", fig=29, facing=2)
    enc = add(enc, "brie", (12, 5), side="B", fig=52, facing=5)
    for fid in ("barclay", "brie"):
        act(enc, "declare", fid, mode="accelerate")
    next_step(enc)
    spec = {a.figure: a for a in enc.legal_actions("barclay") + enc.legal_actions("brie")}
    assert "Turning is free (Slow, FP-8)" in spec["barclay"].help
    assert "two for 1 MP (FP-9)" in spec["brie"].help


@pytest.mark.parametrize(("basis", "free"), [("own", True), ("combined", False)])
def test_fp_8_g23_combined_basis_makes_turning_depend_on_the_opponent(
    basis: str, free: bool
) -> None:
    enc = add(arena({"fp.turn_speed_basis": basis}), "a", (1, 5), side="A", fig=29)
    enc = add(enc, "b", (9, 5), side="B", fig=30)
    act(enc, "declare", "a", mode="accelerate")  # own S 14.5: Slow
    act(enc, "declare", "b", mode="walk")  # own S 7: Slow; together 21.5: Medium
    next_step(enc)
    for fid in ("a", "b"):
        view = enc.ruleset.figure_view(enc.state, enc.state.figures[fid])
        assert view["turning"] == ("free (Slow)" if free else "one hexside per hex")


def test_fp_9_one_hexside_free_two_for_one_hex_never_three_at_once() -> None:
    start = Hex(5, 3)
    costs = _costs(False)
    # F, FR, BR, B, BL, FL neighbours: a turn of 2 hexsides costs 1 MP; the back hex
    # needs two such turns (no 3-hexside turn at once).
    assert [costs[neighbor(start, d)] for d in range(6)] == [1, 1, 2, 4, 2, 1]


def test_fp_9_turn_steps_are_limited_to_one_turn_between_hex_steps() -> None:
    board = Board(12, 12, FigPercentile.terrain)
    fn = step_function(board, [], free_turns=False)
    first = list(fn(Pose(Hex(5, 3), 0), 0, 6))
    turns = sorted((s.pose.facing, s.cost) for s in first if s.kind == "turn")
    assert turns == [(1, 0), (2, 1), (4, 1), (5, 0)]
    after_turn = list(fn(Pose(Hex(5, 3), 1, "t1"), 0, 6))
    assert [s.kind for s in after_turn] == ["move"]
    assert after_turn[0].pose.hex == neighbor(Hex(5, 3), 1)


def test_fp_9_turning_two_hexsides_uses_one_hex_of_movement_in_a_real_move() -> None:
    enc = add(arena(), "brie", (5, 5), side="A", fig=52, facing=0)
    act(enc, "declare", "brie", mode="accelerate")  # 3 hexes, S = 26: not Slow
    next_step(enc)
    behind_right = str(neighbor(enc.state.figures["brie"].position, 2))
    preview = enc.preview(Action("plan_move", "brie", {"to": behind_right}))
    assert preview.cost == 2 and any("two hexsides, 1 MP (FP-9)" in n for n in preview.notes)
    enc.perform(Action("plan_move", "brie", {"to": behind_right}))
    next_step(enc)
    move = last(enc, "move")
    assert move.data["mp"] == 2 and move.data["to"] == behind_right
    assert any("two hexsides" in d for d in move.details)


def test_fp_9_g12_free_turn_policy_option() -> None:
    enc = add(arena({"fp.turn_policy": "free"}), "brie", (5, 5), side="A", fig=52, facing=0)
    act(enc, "declare", "brie", mode="accelerate")
    next_step(enc)
    costs = enc.ruleset.reach(enc.state, enc.state.figures["brie"])
    assert costs is not None
    start = enc.state.figures["brie"].position
    assert [costs.hex_costs()[neighbor(start, d)] for d in range(6)] == [1] * 6


def test_fp_10_dodge_allowed_at_half_fig_and_refused_at_top_speed() -> None:
    assert can_dodge(Fraction(29, 2), 29)  # Barclay accelerating: 14.5 <= 14.5
    assert not can_dodge(29, 29)  # at top speed
    assert can_dodge(26, 52)  # Brie accelerating moves 3 hexes > 2.5, yet S = 26 <= 26
    assert can_dodge(0, 52) and can_dodge(7, 30)
    assert not can_dodge(Fraction(53, 2), 52)


def test_fp_10_the_figure_panel_says_whether_the_figure_may_dodge() -> None:
    enc = add(arena(), "a", (1, 5), side="A", fig=52, facing=2)
    play_round(enc, {"a": "accelerate"}, {"a": forward(enc, "a")})
    assert enc.ruleset.figure_view(enc.state, enc.state.figures["a"])["may_dodge"] is True
    end_round(enc)
    play_round(enc, {"a": "top"}, {"a": forward(enc, "a")})
    assert enc.ruleset.figure_view(enc.state, enc.state.figures["a"])["may_dodge"] is False


def test_fp_23_half_skill_rounds_half_up() -> None:
    assert half_skill(97) == 49 and half_skill(96) == 48 and half_skill(97, "half_down") == 48


def test_fp_6_g20_combined_speed_is_worked_out_per_attacker_target_pair() -> None:
    enc = arena(width=16)
    enc = add(
        enc, "archer", (1, 4), side="A", skills={"Bow": 60}, items=["Short bow"], ready="Short bow"
    )
    enc = add(enc, "walker", (5, 3), side="B", fig=30, facing=3)
    enc = add(enc, "runner", (5, 6), side="B", fig=40, facing=3)
    moves = {"walker": (5, 4), "runner": forward(enc, "runner")}
    play_round(enc, {"walker": "walk", "runner": "accelerate"}, moves)
    bands = {
        t: enc.preview(Action("attack", "archer", {"target": t})).rollables[0].modifiers[0]
        for t in ("walker", "runner")
    }
    assert (bands["walker"].name, bands["walker"].value) == ("Slow combined speed (0 + 7 = 7)", -5)
    assert (bands["runner"].name, bands["runner"].value) == (
        "Medium combined speed (0 + 20 = 20)",
        -10,
    )
