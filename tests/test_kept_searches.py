"""Movement searches kept by what they read (``hexcombat/kept_searches.py``: skirmish's
reach, strike-chance-pulse's A-14 reach, combat-speed-phase's CSP-9 half-phase reach,
fig-percentile's FP-1 reach) never change what is played: the autopilot's game from each
demo is the same with every search walked afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

import hexcombat.rulesets.combat_speed_phase.halves as halves
import hexcombat.rulesets.fig_percentile.flow as flow
import hexcombat.rulesets.skirmish.ruleset as skirmish
import hexcombat.rulesets.strike_chance_pulse.offers as offers
from hexcombat.autopilot import Autopilot, Referee, RushPolicy, play_game
from hexcombat.document import loads
from hexcombat.kept_searches import KeptSearches

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
    [
        ("skirmish", "Move"),
        ("strike-chance-pulse", "A-14"),
        ("combat-speed-phase", "CSP-9"),
        ("fig-percentile", "FP-1"),
    ],
)
def test_kept_searches_play_as_fresh_ones(
    ruleset_id: str, rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = played(ruleset_id, 16)
    for kept_searches in (skirmish.REACHES, offers.REACHES, halves.HALF_REACHES, flow.REACHES):
        monkeypatch.setattr(kept_searches, "limit", 0)  # every search walked afresh
    fresh = played(ruleset_id, 16)
    assert kept == fresh, rule
    assert len(kept[0]) == 16, rule


def test_a_search_is_kept_for_its_board_and_key_until_the_limit() -> None:
    walked: list[str] = []
    kept: KeptSearches[str] = KeptSearches(limit=2)
    demo = (DEMOS / "skirmish.json").read_text(encoding="utf-8")
    board, other = loads(demo).state.board, loads(demo).state.board

    def search(name: str) -> str:
        walked.append(name)
        return name.upper()

    assert kept.get(board, "a", lambda: search("a")) == "A"
    assert kept.get(board, "a", lambda: search("again")) == "A"  # kept
    kept.get(board, "b", lambda: search("b"))
    kept.get(other, "b", lambda: search("b on another board"))  # another board: afresh
    kept.get(other, "c", lambda: search("c"))
    kept.get(other, "b", lambda: search("b past the limit"))  # two kept: all dropped
    assert walked == ["a", "b", "b on another board", "c", "b past the limit"]
