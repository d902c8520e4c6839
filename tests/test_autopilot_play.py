"""The autopilot wins clearly more than it loses against the random and rush baselines: a
fast subset of ``tests/autopilot_games.py`` (whose long mode gives the figures per ruleset)."""

from __future__ import annotations

import pytest
from autopilot_games import starts

from hexcombat.autopilot.play import play_match


@pytest.mark.parametrize(
    ("ruleset_id", "start", "opponent", "games"),
    [
        ("skirmish", "demo", "random", 4),
        ("skirmish", "symmetric", "rush", 4),
        ("two-action-2d10", "symmetric", "random", 2),
        ("strike-chance-pulse", "symmetric", "random", 2),
    ],
)
def test_autopilot_beats_the_baselines(
    ruleset_id: str, start: str, opponent: str, games: int
) -> None:
    result = play_match(starts(ruleset_id)[start], "aggressive", opponent, games, seed=11)
    assert result.wins > result.losses, result
    assert result.wins + result.losses + result.draws == games
