"""The engine's long work on the page in slices (``web/engine_slices.py``): the result of the
steps, their errors, and the event loop running between slices of at most ``SLICE_MS``
(measured on a clock the test moves itself, so a busy machine changes nothing); an ended
fight opened with its summary folded in the same slices."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Generator
from typing import Any

import pytest
from factories import skirmish_duel
from playouts import played_at_random

from hexcombat import Encounter, dumps, loads
from hexcombat.document import loads_in_steps
from hexcombat.encounter import CHECKPOINT_EVERY
from hexcombat.summary import Totals, fight_summary
from hexcombat.view import encounter_view
from web.engine_slices import SLICE_MS, in_slices, offers_in_steps, opened_in_slices


class Clock:
    """A clock that moves only when a step says it worked."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def steps(count: int, step_ms: float, clock: Clock, seen: list[str]) -> Generator[None, None, int]:
    """``count`` steps of ``step_ms`` each on ``clock`` (each noted in ``seen``)."""
    for _ in range(count):
        clock.now += step_ms / 1000
        seen.append("step")
        yield
    return count


async def beside_a_ticker(count: int, step_ms: float) -> tuple[int, list[str]]:
    """The steps in slices, with a task beside them noting each turn of the loop it gets."""
    clock, seen, done = Clock(), [], False

    async def ticker() -> None:
        while not done:
            seen.append("tick")
            await asyncio.sleep(0)

    beside = asyncio.ensure_future(ticker())
    await asyncio.sleep(0)
    seen.clear()
    result = await in_slices(steps(count, step_ms, clock, seen), clock)
    done = True
    await beside
    return result, seen


def runs_of_steps(seen: list[str]) -> list[int]:
    """How many steps ran between one turn of the loop and the next."""
    return [len(run) for run in "".join("s" if s == "step" else "|" for s in seen).split("|")]


def test_the_steps_run_in_slices_with_the_loop_running_between_them() -> None:
    result, seen = asyncio.run(beside_a_ticker(40, 2.0))
    assert result == 40 and seen.count("step") == 40
    per_slice = math.ceil(SLICE_MS / 2.0)  # 13 steps of 2 ms reach the 25 ms slice
    runs = [n for n in runs_of_steps(seen) if n]
    assert runs == [per_slice] * (40 // per_slice) + [40 % per_slice]


def test_one_long_step_is_a_slice_of_its_own() -> None:
    _, seen = asyncio.run(beside_a_ticker(3, SLICE_MS * 4))
    assert [n for n in runs_of_steps(seen) if n] == [1, 1, 1]


def test_quick_steps_are_done_in_one_slice() -> None:
    result, seen = asyncio.run(beside_a_ticker(5, 0.0))
    assert result == 5
    assert [n for n in runs_of_steps(seen) if n] == [5]


def test_an_error_of_the_steps_reaches_the_caller() -> None:
    def failing() -> Generator[None, None, int]:
        yield
        raise ValueError("log[3] cannot be replayed")

    with pytest.raises(ValueError, match="log"):
        asyncio.run(in_slices(failing()))


def opened(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Encounter, list[int]]:
    """``text`` opened with :func:`opened_in_slices`, and the log entries folded into the fight
    summary's totals meanwhile."""
    folds: list[int] = []
    fold = Totals.add

    def counted(totals: Totals, enc: Encounter, index: int) -> None:
        folds.append(index)
        fold(totals, enc, index)

    monkeypatch.setattr(Totals, "add", counted)
    return asyncio.run(opened_in_slices(loads_in_steps(text))), folds


def played(actions: int, seed: int) -> Encounter:
    """The skirmish duel after ``actions`` random actions at most (it may end before)."""
    return played_at_random(skirmish_duel(), random.Random(seed).randrange, actions)


def test_an_ended_fight_opens_with_its_summary_folded_in_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended = played(3000, seed=3)
    assert ended.ruleset.fight_outcome(ended.state) is not None
    assert ended.cursor > 2 * CHECKPOINT_EVERY
    summary = fight_summary(ended)
    enc, folds = opened(dumps(ended), monkeypatch)
    assert folds == list(range(enc.cursor))  # folded while it opened, in steps
    folds.clear()
    assert fight_summary(enc) == summary
    assert len(folds) < CHECKPOINT_EVERY  # its first view folds no more than any view


def test_a_fight_going_on_opens_without_folding_a_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    going = played(20, seed=4)
    assert going.ruleset.fight_outcome(going.state) is None
    enc, folds = opened(dumps(going), monkeypatch)
    assert enc.cursor == going.cursor and folds == []


def test_offers_worked_out_in_slices_are_those_the_view_then_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fight another device moved on: each figure's offers are worked out a step at a
    time; the view drawn after asks the ruleset nothing more and is the view of the fight."""
    enc = skirmish_duel()
    fresh = encounter_view(loads(dumps(enc)))
    steps = offers_in_steps(enc)
    assert asyncio.run(in_slices(steps)) is None
    asked: list[str | None] = []
    ruleset = type(enc.ruleset)
    original = ruleset.legal_actions

    def counted(self: Any, state: Any, figure_id: str | None = None, kind: Any = None) -> Any:
        asked.append(figure_id)
        return original(self, state, figure_id, kind)

    monkeypatch.setattr(ruleset, "legal_actions", counted)
    assert encounter_view(enc) == fresh
    assert asked == []
