"""The referee's rulings after the first implementation was played (spec section 6).

G-11: a figure that enters no hex in a round has stopped. G-12: no turn after the last step
(unless Slow). G-13: terrain lowers S once, by the extra movement points actually spent.
G-26: a finished spell stays ready until released. G-19/G-3: the action step is order-free
(see ``test_fig_percentile_action_step.py``). Each regression test replays a case a referee raised.
"""

from __future__ import annotations

import pytest
from fig_percentile_fixtures import (
    act,
    add,
    arena,
    choices,
    end_round,
    forward,
    goto,
    kinds,
    last,
    next_step,
    play_round,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.geometry import neighbor
from hexcombat.layout import from_offset, to_offset

pytestmark = pytest.mark.pyodide

BOW = {"skills": {"Bow": 60}, "items": ["Short bow"], "ready": "Short bow"}


def panel(enc: Encounter, fid: str) -> dict[str, object]:
    return enc.ruleset.figure_view(enc.state, enc.state.figures[fid])


def shooter_and_runner(fig: int = 52) -> Encounter:
    """A stationary archer and a runner (FIG 52, dodge 40) 5 hexes away, running across."""
    enc = arena(width=16)
    enc = add(enc, "archer", (1, 4), side="A", **BOW)  # type: ignore[arg-type]
    return add(enc, "runner", (6, 8), side="B", fig=fig, facing=0, dodge_skill=40)


# ---- G-11 ------------------------------------------------------------------------------------
def test_g_11_fp_4_fp_10_accelerate_then_top_without_moving_is_a_stop_regression() -> None:
    """Ruling, case 1: a FIG 52 figure declares accelerate, then top, and never moves."""
    enc = shooter_and_runner()
    play_round(enc, {"runner": "accelerate"})  # plans no move: enters no hex
    move = last(enc, "move")
    assert move.text == "Runner enters no hex this round and has stopped (G-11)"
    assert move.rule == "G-11" and move.data["speed"] == 0.0
    assert "stop_or_continue" not in kinds(enc, "runner")  # nothing to stop: it has stopped
    view = panel(enc, "runner")
    assert (view["speed"], view["may_dodge"]) == ("0", True)  # stationary for FP-10
    check = enc.preview(Action("attack", "archer", {"target": "runner"})).rollables[0]
    assert check.modifiers[0].value == 0 and check.modifiers[0].rule == "G-10"  # not -15
    end_round(enc)
    assert last(enc, "stopped").rule == "G-11, FP-4"
    # The next round starts from standing: no sprint without a run-up.
    assert choices(enc, "runner", "declare", "mode") == ["stationary", "walk", "accelerate"]
    with pytest.raises(IllegalActionError, match="got 'top'"):
        enc.perform(Action("declare", "runner", {"mode": "top"}))


def test_g_11_fp_3_a_runner_at_top_speed_that_enters_no_hex_stops_too() -> None:
    enc = shooter_and_runner()
    play_round(enc, {"runner": "accelerate"}, {"runner": forward(enc, "runner")})
    end_round(enc)
    assert choices(enc, "runner", "declare", "mode") == ["top"]
    play_round(enc, {"runner": "top"})  # top speed, but it stands still this round
    assert (panel(enc, "runner")["speed"], panel(enc, "runner")["may_dodge"]) == ("0", True)
    end_round(enc)
    assert choices(enc, "runner", "declare", "mode") == ["stationary", "walk", "accelerate"]


def test_g_11_fp_26_g6_a_runner_that_stopped_may_begin_a_spell_as_a_stationary_figure() -> None:
    enc = arena(width=14)
    enc = add(enc, "mage", (1, 4), side="A", fig=40, skills={"Spellcasting": 50},
              items=["Spark"])  # fmt: skip
    enc = add(enc, "foe", (8, 4), side="B")
    act(enc, "declare", "mage", mode="accelerate")
    act(enc, "declare", "foe", mode="stationary")
    next_step(enc)
    next_step(enc)  # the mage plans no move
    assert kinds(enc, "mage") == ["begin_spell"]


def test_g_11_fp_4_walking_never_builds_momentum() -> None:
    enc = add(arena(), "w", (1, 5), side="A", fig=40, facing=2)
    for _ in range(2):
        play_round(enc, {"w": "walk"}, {"w": forward(enc, "w")})
        end_round(enc)
        assert choices(enc, "w", "declare", "mode") == ["stationary", "walk", "accelerate"]
    with pytest.raises(IllegalActionError, match="got 'top'"):
        enc.perform(Action("declare", "w", {"mode": "top"}))


def test_g_11_the_walk_speed_is_seven_per_hex_and_zero_for_a_walker_that_stays() -> None:
    enc = add(arena(), "w", (1, 5), side="A", fig=40, facing=2)
    play_round(enc, {"w": "walk"}, {"w": forward(enc, "w")})
    assert panel(enc, "w")["speed"] == "7"
    end_round(enc)
    play_round(enc, {"w": "walk"})
    assert panel(enc, "w")["speed"] == "0"


# ---- G-12 ------------------------------------------------------------------------------------
def test_g_12_fp_9_a_runner_cannot_turn_after_its_last_step_regression() -> None:
    """Ruling, case 2: a free hexside after the last step, then another before the first step
    of next round, would give two free hexsides across the round boundary."""
    enc = add(arena(), "r", (5, 7), side="A", fig=40, facing=0)  # accelerating: 2 hexes, S 20
    act(enc, "declare", "r", mode="accelerate")
    next_step(enc)
    ahead = forward(enc, "r", 2)
    with pytest.raises(IllegalActionError, match=r"facings possible there: N \(FP-9\)"):
        goto(enc, "r", ahead, facing=1)
    # Turning in place without a step afterwards is a turn after the last step too.
    spec = next(a for a in enc.legal_actions("r") if a.kind == "plan_move")
    here = str(enc.state.figures["r"].position)
    assert next(c.label for c in spec.param("to").choices if c.value == here).endswith("(stay)")
    with pytest.raises(IllegalActionError, match="facings possible there: N "):
        goto(enc, "r", to_offset(enc.state.figures["r"].position), facing=5)
    # A turn before a step is still free (FP-9): one hexside, then a step that way.
    side = neighbor(neighbor(enc.state.figures["r"].position, 0), 1)
    goto(enc, "r", to_offset(side), facing=1)
    next_step(enc)
    assert last(enc, "move").data["facing"] == 1 and last(enc, "move").data["mp"] == 2


def test_g_12_fp_8_a_slow_figure_may_turn_after_its_last_step() -> None:
    enc = add(arena(), "w", (5, 7), side="A", fig=40, facing=0)  # walking: S 7, Slow
    act(enc, "declare", "w", mode="walk")
    next_step(enc)
    goto(enc, "w", forward(enc, "w"), facing=3)
    next_step(enc)
    assert last(enc, "move").data["facing"] == 3


# ---- G-13 ------------------------------------------------------------------------------------
def _through(paint: dict[str, list[tuple[int, int]]], fig: int, to: tuple[int, int],
             options: dict[str, object] | None = None) -> Encounter:  # fmt: skip
    enc = arena({"fp.terrain_reduces_speed": True, **(options or {})}, paint=paint)
    enc = add(enc, "a", (2, 8), side="A", fig=fig, facing=0)
    play_round(enc, {"a": "accelerate"}, {"a": to})
    return enc


def test_g_13_terrain_lowers_speed_by_10_per_extra_point_summed_regression() -> None:
    """Ruling, case 5: two woods hexes are two extra points (-20), not the costliest hex once
    (-10) on top of the movement cost."""
    enc = _through({"heavy_woods": [(2, 7), (2, 6)]}, 80, (2, 6))  # 4 MP, S 40
    move = last(enc, "move")
    assert (move.data["mp"], move.data["hexes"]) == (4, 2)  # the MP cost is paid once
    assert panel(enc, "a")["speed"] == "20"  # 40 - 2 x 10
    assert any("2 extra movement points" in d and "(G-13 option)" in d for d in move.details)
    assert panel(enc, "a")["hexes_allowed"] == 4  # the allowance is not lowered again


def test_g_13_only_points_actually_spent_count_and_open_ground_counts_nothing() -> None:
    enc = _through({"heavy_woods": [(2, 7)]}, 60, (2, 6))  # woods 2 + open 1 = 3 MP, S 30
    assert panel(enc, "a")["speed"] == "20"
    snow = _through({"deep_snow": [(2, 7)]}, 30, (2, 7), {"fp.terrain_entry": "literal_one_left"})
    assert last(snow, "move").data["mp"] == 2  # enters the cost-3 hex with the 2 points left
    assert panel(snow, "a")["speed"] == "5"  # 15 - 10: one extra point spent, not two
    open_ground = _through({}, 60, (2, 5))
    assert panel(open_ground, "a")["speed"] == "30"


def test_g_13_off_by_default_terrain_costs_movement_points_only() -> None:
    enc = arena(paint={"heavy_woods": [(2, 7), (2, 6)]})
    enc = add(enc, "a", (2, 8), side="A", fig=80, facing=0)
    play_round(enc, {"a": "accelerate"}, {"a": (2, 6)})
    assert panel(enc, "a")["speed"] == "40"
    assert not any("G-13" in d for d in last(enc, "move").details)


def test_g_13_the_lowered_speed_reaches_the_to_hit_band() -> None:
    enc = arena({"fp.terrain_reduces_speed": True}, paint={"marsh": [(2, 7)]})
    enc = add(enc, "a", (2, 8), side="A", fig=40, facing=0)
    enc = add(enc, "archer", (6, 7), side="B", **BOW)  # type: ignore[arg-type]
    play_round(enc, {"a": "accelerate"}, {"a": (2, 7)})  # S 20 - 10 = 10: Slow, not Medium
    check = enc.preview(Action("attack", "archer", {"target": "a"})).rollables[0]
    assert (check.modifiers[0].value, check.modifiers[0].name) == (
        -5,
        "Slow combined speed (0 + 10 = 10)",
    )


def test_g_13_fp_11_fp_12_marsh_and_deep_snow_cost_two_and_three() -> None:
    enc = _through({"marsh": [(2, 7)]}, 40, (2, 7))
    assert last(enc, "move").data["mp"] == 2 and panel(enc, "a")["speed"] == "10"
    assert str(from_offset(2, 7)) == last(enc, "move").data["to"]
