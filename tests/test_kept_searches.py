"""Movement searches kept by what they read (strike-chance-pulse's A-14 reach,
combat-speed-phase's CSP-9 half-phase reach, fig-percentile's FP-1 reach, like skirmish's)
never change what is played:
the autopilot's game from each demo is the same with every search walked afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

import hexcombat.rulesets.combat_speed_phase.halves as halves
import hexcombat.rulesets.fig_percentile.flow as flow
import hexcombat.rulesets.strike_chance_pulse.offers as offers
from hexcombat.autopilot import Autopilot, Referee, RushPolicy, play_game
from hexcombat.document import loads

DEMOS = Path(__file__).resolve().parent.parent / "static" / "demos"


def played(ruleset_id: str, moves: int) -> tuple[list[str], str]:
    """The autopilot's reasons and the log of its game against rush from the demo."""
    enc = loads((DEMOS / f"{ruleset_id}.json").read_text(encoding="utf-8"))
    sides = list(dict.fromkeys(f.side for f in enc.state.figures.values()))
    policies = {s: Autopilot() if i == 0 else RushPolicy() for i, s in enumerate(sides)}
    reasons: list[str] = []
    play_game(enc, Referee(policies), moves, lambda side, d: reasons.append(d.reason))
    return reasons, repr(enc.log)


@pytest.mark.parametrize(
    ("ruleset_id", "rule"),
    [("strike-chance-pulse", "A-14"), ("combat-speed-phase", "CSP-9"), ("fig-percentile", "FP-1")],
)
def test_kept_searches_play_as_fresh_ones(
    ruleset_id: str, rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = played(ruleset_id, 16)
    monkeypatch.setattr(offers, "REACHES_KEPT", 0)  # every search walked afresh
    monkeypatch.setattr(halves, "HALF_REACHES_KEPT", 0)
    monkeypatch.setattr(flow, "REACHES_KEPT", 0)
    fresh = played(ruleset_id, 16)
    assert kept == fresh, rule
    assert len(kept[0]) == 16, rule
