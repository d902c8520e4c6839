"""The autopilot's counted budget (engine calls, never a clock), the rules' answers kept per
imagined state, a referee that hands the first move in each kind of step to each side in
turn, and a game's draw told apart: cut at the limit of actions, or a stand-off."""

from __future__ import annotations

import itertools

import pytest
from autopilot_games import starts

from hexcombat.autopilot import Autopilot, Decision, Referee, RushPolicy, play_game
from hexcombat.autopilot import pilot as pilot_module
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.play import STILL, play_match
from hexcombat.autopilot.policy import Policy, Turn

pytestmark = pytest.mark.pyodide


def spent_by(budget: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Decision | None, int]:
    """A decision in fig-percentile's symmetric start (a hidden step) and the engine calls
    it spent."""
    memos: list[Memo] = []

    class Counted(Memo):
        def __init__(self, limit: int | None = None) -> None:
            super().__init__(limit)
            memos.append(self)

    monkeypatch.setattr(pilot_module, "Memo", Counted)
    enc = starts("fig-percentile")["symmetric"](3)
    decision = Autopilot("aggressive", budget=budget).decide(enc, "A", must_act=True)
    return decision, sum(m.spent for m in memos)


def test_a_decision_spends_about_its_budget_of_engine_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small, few = spent_by(40, monkeypatch)
    large, many = spent_by(240, monkeypatch)
    assert small is not None and large is not None
    assert few < many
    # a hidden choice's first look may spend HIDDEN_BUDGET budgets, and one candidate's
    # play-outs (and the pass's) run to their end once begun
    slack = (2 * pilot_module.SAMPLES + 1) * pilot_module.LOOK_LIMIT
    assert many <= 240 * pilot_module.HIDDEN_BUDGET + slack
    again, calls = spent_by(240, monkeypatch)
    assert again == large and calls == many


def test_the_rules_are_asked_once_about_each_state() -> None:
    enc = starts("skirmish")["demo"](1)
    memo = Memo()
    state = enc.state
    first = memo.legal(state, "warden-ash")
    assert memo.legal(state, "warden-ash") is first and memo.spent == 1
    assert memo.acting(state) == state.ruleset.who_acts(state)
    assert memo.outcome(state) is None and memo.spent == 1


class Recorder(Policy):
    """Rush, noting the side of the first move made in each attack step."""

    def __init__(self, side: str, firsts: list[tuple[tuple[int, ...], str]]) -> None:
        self.rush = RushPolicy()
        self.name = f"rush-{side}"
        self.firsts = firsts

    def choose(self, turn: Turn) -> Decision | None:
        found = self.rush.choose(turn)
        clock = turn.enc.state.clock
        first = not self.firsts or self.firsts[-1][0] != clock.counters
        if found is not None and clock.step == "attack" and first:
            self.firsts.append((clock.counters, turn.side))
        return found


def test_the_sides_take_turns_to_move_first_in_each_kind_of_step() -> None:
    """skirmish's rounds: a move step, then an attack step. However many moves a side makes
    in the move step, the first blow of each round's attack step goes to each side in turn."""
    enc = starts("skirmish")["symmetric"](5)
    firsts: list[tuple[tuple[int, ...], str]] = []
    policies = {"A": Recorder("A", firsts), "B": Recorder("B", firsts)}
    play_game(enc, Referee(policies), 60)
    sides = [side for _clock, side in firsts]
    assert len(sides) >= 3
    assert all(a != b for a, b in itertools.pairwise(sides))


class Standing(Policy):
    """A side that never moves: it lets every step end."""

    name = "standing"

    def choose(self, turn: Turn) -> Decision | None:
        return None


def test_a_game_cut_at_the_limit_of_actions_is_a_draw_told_from_a_stand_off() -> None:
    enc = starts("skirmish")["symmetric"](5)
    cut = play_game(enc, Referee({"A": RushPolicy(), "B": RushPolicy()}), 6)
    assert (cut.winner, cut.actions, cut.cut) == (None, 6, True)
    enc = starts("skirmish")["symmetric"](5)
    stood = play_game(enc, Referee({"A": Standing(), "B": Standing()}), 600)
    assert stood.winner is None and not stood.cut
    assert STILL <= stood.actions < 600


def test_a_match_names_the_draws_cut_at_the_limit_of_actions() -> None:
    start = starts("skirmish")["symmetric"]
    cut = play_match(start, "rush", "rush", 2, 7, max_actions=6)
    assert (cut.draws, cut.drawn, cut.cut, cut.stood_off) == (2, [7, 8], [7, 8], 0)
    stood = play_match(start, "rush", "rush", 2, 7, make=lambda _name: Standing())
    assert (stood.draws, stood.cut, stood.stood_off) == (2, [], 2)
