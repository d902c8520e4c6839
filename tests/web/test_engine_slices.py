"""The engine's long work on the page in slices (``web/engine_slices.py``): the result of the
steps, their errors, and the event loop running between slices of at most ``SLICE_MS``."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Generator

import pytest

from web import engine_slices
from web.engine_slices import in_slices


def busy_steps(count: int, step_ms: float, ran: list[float]) -> Generator[None, None, int]:
    """``count`` steps of ``step_ms`` of work each (their ends in ``ran``); returns ``count``."""
    for _ in range(count):
        end = time.perf_counter() + step_ms / 1000
        while time.perf_counter() < end:
            pass
        ran.append(time.perf_counter())
        yield
    return count


async def sliced_beside_a_ticker(steps: Generator[None, None, int]) -> tuple[int, list[float]]:
    ticks: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            ticks.append(time.perf_counter())
            await asyncio.sleep(0)

    beside = asyncio.ensure_future(ticker())
    await asyncio.sleep(0)
    result = await in_slices(steps)
    done = True
    await beside
    return result, ticks


def test_the_steps_run_in_slices_with_the_loop_running_between_them() -> None:
    ran: list[float] = []
    result, ticks = asyncio.run(sliced_beside_a_ticker(busy_steps(40, 2.0, ran)))
    assert result == 40 and len(ran) == 40
    between = [t for t in ticks if ran[0] < t < ran[-1]]
    assert len(between) >= 2  # the loop ran between slices, not only before and after
    # at most a slice's worth of steps between two turns of the loop, however busy the machine
    per_slice = [sum(a < r < b for r in ran) for a, b in itertools.pairwise(ticks)]
    assert max(per_slice) <= engine_slices.SLICE_MS / 2.0 + 1


def test_quick_steps_are_done_in_one_slice() -> None:
    ran: list[float] = []
    result, ticks = asyncio.run(sliced_beside_a_ticker(busy_steps(5, 0.0, ran)))
    assert result == 5
    assert not [t for t in ticks if ran[0] < t < ran[-1]]


def test_an_error_of_the_steps_reaches_the_caller() -> None:
    def failing() -> Generator[None, None, int]:
        yield
        raise ValueError("log[3] cannot be replayed")

    with pytest.raises(ValueError, match="log"):
        asyncio.run(in_slices(failing()))
