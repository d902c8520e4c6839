"""Random legal playouts of the fig-percentile demo: invariants hold and replay is exact.

The demo set-up (E-3 on a field with woods, a hill, marsh, a stream and a ruin)
is played with random offered actions and parameters under random options;
after every action the invariants must hold (no figure off the board or in
impassable terrain, stacking respected, pools at most their maximum, actions
within the limit), refused actions must change nothing, and the saved
document must replay to the same state and events.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fig_percentile_fixtures import e3_encounter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexcombat.layout import from_offset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared playouts
from playouts import assert_replays_exactly, playout

pytestmark = pytest.mark.pyodide

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "fp.damage_model": st.sampled_from(["none", "hp"]),
        "fp.hit_comparison": st.sampled_from(["le", "lt"]),
        "fp.round_order": st.sampled_from(["simultaneous", "sequential"]),
        "fp.turn_policy": st.sampled_from(["per_step", "per_round", "free"]),
        "fp.empty_acceleration": st.sampled_from(["stopped", "counts"]),
        "fp.terrain_entry": st.sampled_from(["need_full_cost", "literal_one_left"]),
        "fp.cast_requires_stationary": st.sampled_from(["stationary_or_stopping", "no"]),
        "fp.ready_costs_action": st.booleans(),
        "core.hidden_declarations": st.booleans(),
        "core.stacking": st.integers(1, 2),
    },
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts_keep_invariants_and_replay_exactly(data: st.DataObject) -> None:
    options = data.draw(OPTIONS)
    enc = e3_encounter(options, scenery=True, dodge_skill=30, seed=data.draw(st.integers(0, 10**6)))
    if data.draw(st.booleans()):  # start at close quarters so that blows and dodges happen
        brie = enc.setup_figure("brie")
        brie.position = from_offset(5, 6)
        enc = enc.with_figure(brie)

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    assert playout(enc, pick, 40) == []
    assert_replays_exactly(enc)
