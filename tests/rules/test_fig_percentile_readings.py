"""fig-percentile: readings the text leaves open, as named options with the spec's default
(G-11 for a FIG 5-9 figure's acceleration, G-12 for turning at speed)."""

from __future__ import annotations

import pytest
from fig_percentile_fixtures import act, add, arena, choices, end_round, last, next_step, play_round

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.layout import from_offset

pytestmark = pytest.mark.pyodide


def slow_runner(option: str) -> Encounter:
    """A FIG 7 figure (top speed 1 hex, FIG/20 rounds to 0) accelerates for a round."""
    enc = add(arena({"fp.empty_acceleration": option}), "f", (1, 4), side="A", fig=7, facing=2)
    enc = add(enc, "foe", (10, 4), side="B")
    play_round(enc, {"f": "accelerate"})
    end_round(enc)
    return enc


def test_g11_fp_2_by_default_a_fig_7_acceleration_round_of_no_hex_is_a_stop() -> None:
    """G-11: entering no hex 'for any reason' is a stop, so FIG 5-9 never reach top speed."""
    enc = slow_runner("stopped")
    assert "top" not in choices(enc, "f", "declare", "mode")
    assert choices(enc, "f", "declare", "mode") == ["stationary", "walk", "accelerate"]


def test_g11_fp_2_with_counts_a_fig_7_figure_reaches_top_speed_after_its_round() -> None:
    """'It takes one round to reach top speed during which the character moves at half
    their top speed': with the option that round counts, though it covers 0 hexes."""
    enc = slow_runner("counts")
    assert last(enc, "move").text.startswith("F accelerates but covers no hex")
    assert choices(enc, "f", "declare", "mode") == ["top"]
    play_round(enc, {"f": "top"}, {"f": (2, 4)})
    assert last(enc, "move").data["to"] == str(from_offset(2, 4))


def runner(policy: str) -> Encounter:
    """A FIG 40 figure at top speed (4 hexes, not Slow) facing south-east from (1, 4)."""
    enc = add(arena({"fp.turn_policy": policy}), "f", (1, 4), side="A", fig=40, facing=2)
    enc = add(enc, "foe", (11, 9), side="B")
    play_round(enc, {"f": "accelerate"}, {"f": (2, 4)})
    end_round(enc)
    act(enc, "declare", "f", mode="top")
    act(enc, "declare", "foe", mode="stationary")
    next_step(enc)
    return enc


def reached(enc: Encounter) -> set[Hex]:
    reach = enc.ruleset.reach(enc.state, enc.state.figures["f"])
    assert reach is not None
    return set(reach.hex_costs())


def test_g12_fp_9_by_default_a_runner_turns_a_hexside_free_before_every_step() -> None:
    """The spec's G-12: 'one movement' is each hex step, so a runner may weave, turning one
    hexside free before each of its 4 steps."""
    every = runner("per_step")
    lost = reached(every) - reached(runner("per_round"))
    reach = every.ruleset.reach(every.state, every.state.figures["f"])
    assert reach is not None
    plans = [reach.path_to(h) for h in lost]
    assert all(sum(1 for s in p if s.kind == "turn") >= 2 for p in plans)
    assert all(sum(s.cost for s in p) <= 4 for p in plans)


def test_g12_fp_9_once_a_round_a_runner_makes_one_turn_in_its_whole_move() -> None:
    """'Characters can turn one hex face with no penalty ... 2 hex faces in one movement':
    read as the round's movement, the runner turns once: what needs two turns is lost."""
    once = runner("per_round")
    lost = reached(runner("per_step")) - reached(once)
    assert reached(once) < reached(runner("per_step")) and lost
    far = min(lost, key=lambda h: (h.q, h.r))
    with pytest.raises(IllegalActionError):
        once.perform(Action("plan_move", "f", {"to": str(far)}))
