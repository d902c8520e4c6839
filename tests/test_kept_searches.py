"""Movement searches kept by what they read (``hexcombat/kept_searches.py``: skirmish's
reach, strike-chance-pulse's A-14 reach, combat-speed-phase's CSP-9 half-phase reach,
fig-percentile's FP-1 reach) are what a fresh search finds: in the autopilot's game from each
demo, every search is also walked afresh and every kept one compared with it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from pathlib import Path

import pytest

import hexcombat.rulesets.combat_speed_phase.halves as halves
import hexcombat.rulesets.fig_percentile.flow as flow
import hexcombat.rulesets.skirmish.ruleset as skirmish
import hexcombat.rulesets.strike_chance_pulse.offers as offers
from hexcombat.autopilot import Autopilot, Referee, RushPolicy, play_game
from hexcombat.board import Board
from hexcombat.document import loads
from hexcombat.kept_searches import KeptSearches
from hexcombat.movement import Reach

DEMOS = Path(__file__).resolve().parent.parent / "static" / "demos"


def found(search: object) -> object:
    """What a search found, comparable: each pose's cost and the path to each hex."""
    if isinstance(search, Reach):
        return search.start, search.poses(), {h: search.path_to(h) for h in search.hex_costs()}
    assert isinstance(search, Mapping)
    return dict(search)


class Compared(KeptSearches[object]):
    """A keeper that also walks every search afresh and fails when the kept one differs."""

    def __init__(self) -> None:
        super().__init__()
        self.kept_used = 0

    def get(self, board: Board, key: Hashable, search: Callable[[], object]) -> object:
        fresh = search()
        kept = super().get(board, key, lambda: fresh)
        if kept is not fresh:
            self.kept_used += 1
            assert found(kept) == found(fresh), key
        return kept


@pytest.mark.parametrize(
    ("ruleset_id", "module", "name"),
    [
        ("skirmish", skirmish, "REACHES"),
        ("strike-chance-pulse", offers, "REACHES"),
        ("combat-speed-phase", halves, "HALF_REACHES"),  # CSP-9
        ("fig-percentile", flow, "REACHES"),  # FP-1
    ],
)
def test_every_kept_search_is_what_a_fresh_one_finds(
    ruleset_id: str, module: object, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = Compared()
    monkeypatch.setattr(module, name, compared)
    enc = loads((DEMOS / f"{ruleset_id}.json").read_text(encoding="utf-8"))
    sides = list(dict.fromkeys(f.side for f in enc.state.figures.values()))
    policies = {s: Autopilot() if i == 0 else RushPolicy() for i, s in enumerate(sides)}
    assert play_game(enc, Referee(policies), 16).actions > 0
    assert compared.kept_used > 16  # searches asked again were answered from the keeper


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
