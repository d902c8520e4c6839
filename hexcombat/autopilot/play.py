"""Playing sides with policies: the next move of an encounter whose sides are played by
the app, and whole games between two policies (for the CLI, tests and benchmarks)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from hexcombat.actions import Action
from hexcombat.autopilot.players import make_policy
from hexcombat.autopilot.policy import Decision, Policy, actors
from hexcombat.encounter import Encounter
from hexcombat.errors import HexcombatError
from hexcombat.geometry import Hex
from hexcombat.time import Clock
from hexcombat.validation import Json


class NotEnoughSidesError(HexcombatError):
    """A game needs figures of at least two sides."""


MAX_ACTIONS = 600
"""Actions in one game before it is called a draw."""
STILL = 24
"""Steps ended in a row with no side moving and no figure changed by the table before a
game is called a draw: every side stands, as it would for the rest of the game's actions
(a stand-off, figures that cannot get at each other), so the rest is not played out."""
PER_FIGURE_STEP = 12
"""Actions of one figure in one step before its side is taken to be done with the step."""


@dataclass
class Referee:
    """Who moves next when every side is played by a policy: a prompt's figure, else each
    side in turn until it passes, then the table ends the step; a side that must act for
    the step to end (a hidden choice, a strike order) is made to. The sides take turns to
    go first in each kind of step (the first attack step one side, the next the other), so
    how many moves a side made earlier never hands the other the first blow."""

    policies: Mapping[str, Policy]
    timings: dict[str, list[float]] = field(default_factory=dict)
    _done: set[str] = field(default_factory=set)
    _count: dict[str, int] = field(default_factory=dict)
    _clock: Clock | None = None
    _turn: int = 0
    _starts: dict[str, int] = field(default_factory=dict)

    def next_move(self, enc: Encounter) -> tuple[str | None, Decision] | None:
        """The next (side, decision), the table's (None, end of step), or None when stuck."""
        state = enc.state
        sides = list(self.policies)
        if state.clock != self._clock:
            self._clock, self._done, self._count = state.clock, set(), {}
            begun = self._starts.get(state.clock.step, 0)
            self._starts[state.clock.step] = begun + 1
            self._turn = begun % len(sides)
        prompt = state.prompt
        if prompt is not None:
            side = state.figure(prompt.figure).side
            found = self._ask(enc, side, True) if side in self.policies else None
            return (side, found) if found else None
        for i in range(len(sides)):
            side = sides[(self._turn + i) % len(sides)]
            limit = PER_FIGURE_STEP * max(1, len(actors(enc, side)))
            if side in self._done or self._count.get(side, 0) >= limit:
                continue
            if not actors(enc, side):
                continue
            found = self._ask(enc, side, False)
            if found is None:
                self._done.add(side)
                continue
            self._turn = (self._turn + i + 1) % len(sides)
            self._count[side] = self._count.get(side, 0) + 1
            return side, found
        if any(s.kind == "next_step" for s in enc.legal_actions(None)):
            return None, Decision(Action("next_step"), "End the step")
        for side in sides:
            if actors(enc, side):
                found = self._ask(enc, side, True)
                if found is not None:
                    return side, found
        return None

    def done(self, side: str) -> None:
        """Take ``side`` to be done with the current step (its move was refused)."""
        self._done.add(side)

    def _ask(self, enc: Encounter, side: str, must_act: bool) -> Decision | None:
        start = time.process_time()  # CPU time: the same on a busy machine
        found = self.policies[side].decide(enc, side, must_act)
        self.timings.setdefault(self.policies[side].name, []).append(time.process_time() - start)
        return found


@dataclass(frozen=True)
class GameResult:
    """How one game ended: the winning side (None: a draw), the actions played and whether
    a draw was cut at the limit of actions (a fight still going on, where every other draw
    is a stand-off or a fight in which nothing more can happen)."""

    winner: str | None
    actions: int
    cut: bool = False


Watch = Callable[[str | None, Decision], None]
"""Told each move played: the side (None: the table) and its decision."""


def play_game(
    enc: Encounter, referee: Referee, max_actions: int = MAX_ACTIONS, watch: Watch | None = None
) -> GameResult:
    """Play ``enc`` (changed in place) until the fight ends, nothing can happen, every side
    has stood for :data:`STILL` step ends, or ``max_actions`` have been played; ``watch`` is
    told each move played."""
    refused = still = n = 0
    for n in range(max_actions):
        outcome = enc.ruleset.fight_outcome(enc.state)
        if outcome is not None:
            return GameResult(outcome.winner, n)
        move = referee.next_move(enc)
        if move is None or still >= STILL:
            break
        try:
            before = _figures_now(enc) if move[0] is None else None
            enc.perform(move[1].action)
            refused = 0
            still = still + 1 if before is not None and before == _figures_now(enc) else 0
            if watch is not None:
                watch(*move)
        except (HexcombatError, AssertionError):  # AssertionError: a ruleset's bug, reported
            refused += 1
            if move[0] is None or refused > 3:
                break  # nothing else can happen: a draw
            referee.done(move[0])
    else:
        n = max_actions
    outcome = enc.ruleset.fight_outcome(enc.state)
    winner = outcome.winner if outcome else None
    return GameResult(winner, n, winner is None and n == max_actions)


def _figures_now(enc: Encounter) -> list[object]:
    """Where every figure stands, its pools and its statuses: what a step end may change."""
    return [
        (f.position, f.facing, [p.current for p in f.pools.values()], sorted(f.statuses))
        for f in enc.state.figures.values()
    ]


@dataclass
class MatchResult:
    """Games of policy ``a`` against policy ``b``: a's wins, losses and draws, the seeds of
    the games it lost and drew (and of the draws cut at the limit of actions,
    :attr:`GameResult.cut`), and every decision's time in CPU seconds by policy name."""

    a: str
    b: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    timings: dict[str, list[float]] = field(default_factory=dict)
    lost: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    cut: list[int] = field(default_factory=list)

    @property
    def stood_off(self) -> int:
        """The draws that were not cut at the limit of actions: every side stood, or nothing
        more could happen."""
        return self.draws - len(self.cut)

    @property
    def decided_share(self) -> float:
        """a's share of the decided games (0 when none was decided)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0


def play_match(
    start: Callable[[int], Encounter],
    a: str,
    b: str,
    games: int,
    seed: int = 1,
    max_actions: int = MAX_ACTIONS,
    watch: Callable[[int], Watch] | None = None,
    make: Callable[[str], Policy] = make_policy,
) -> MatchResult:
    """``games`` games from ``start(seed + i)``, policy ``a`` playing the first side in
    even games and the second in odd ones (sides swapped), ``b`` every other side;
    ``watch(i)`` is told game i's moves; ``make`` makes each side's policy from its name."""
    result = MatchResult(a, b)
    for i in range(games):
        enc = start(seed + i)
        sides = list(dict.fromkeys(f.side for f in enc.state.figures.values()))
        if len(sides) < 2:
            raise NotEnoughSidesError("a match needs figures of at least two sides")
        mine = sides[i % 2]
        referee = Referee({s: make(a if s == mine else b) for s in sides})
        game = play_game(enc, referee, max_actions, watch(i) if watch else None)
        if game.winner is None:
            result.draws += 1
            result.drawn.append(seed + i)
            if game.cut:
                result.cut.append(seed + i)
        elif game.winner == mine:
            result.wins += 1
        else:
            result.losses += 1
            result.lost.append(seed + i)
        for name, times in referee.timings.items():
            result.timings.setdefault(name, []).extend(times)
    return result


def symmetric_start(
    template: Encounter, seed: int, options: Mapping[str, Json] | None = None
) -> Encounter:
    """Two against two, face to face in the middle of an open 10 x 10 board, all four the
    template's first figure (its numbers and equipment): a start where neither side has
    the edge."""
    model = template.setup.figures[0] if template.setup.figures else None
    if model is None:
        raise NotEnoughSidesError("the template has no figure to copy")
    opts = {**template.setup.options, **(options or {})}
    enc = Encounter.new(
        template.ruleset.id, 10, 10, name="Two against two", seed=seed, options=opts
    )
    enc = enc.with_setup(data=template.setup.data)
    rows = [("a1", "A", Hex(4, 4), 0), ("a2", "A", Hex(4, 5), 0)]
    rows += [("b1", "B", Hex(5, 4), 3), ("b2", "B", Hex(5, 5), 3)]
    for fid, side, at, facing in rows:
        twin = replace(model.copy(), id=fid, name=f"{side}{fid[1]}", side=side, mounted_on="")
        enc = enc.with_figure(replace(twin, position=at, facing=facing))
    return enc


def restarted(enc: Encounter, seed: int, options: Mapping[str, Json] | None = None) -> Encounter:
    """``enc``'s setup with no action played, the dice seed ``seed`` and ``options`` changed."""
    setup = replace(enc.setup, seed=seed, options={**enc.setup.options, **(options or {})})
    return Encounter(setup)
