"""The engine's long work that must end on the page (opening a long fight: the page plays
on the encounter it replays; what each figure is offered before a fight another device
moved is drawn) run in slices of :data:`SLICE_MS`, between which the browser answers
taps, pans the board and paints. Pure Python (asyncio and a clock): tested under
CPython."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator
from typing import TypeVar

from hexcombat.encounter import Encounter
from hexcombat.summary import totals_in_steps

SLICE_MS = 25.0
"""The longest the page works on one slice before it lets the browser run (a tablet with a
slow CPU then answers a tap well within 100 ms)."""

Done = TypeVar("Done")


async def in_slices(
    steps: Generator[None, None, Done], clock: Callable[[], float] = time.perf_counter
) -> Done:
    """What ``steps`` (such as :func:`hexcombat.document.loads_in_steps`) returns, worked
    through in slices of ``clock``'s seconds; its errors propagate."""
    began = clock()
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: Done = done.value
            return value
        if (clock() - began) * 1000 >= SLICE_MS:
            await asyncio.sleep(0)
            began = clock()


async def opened_in_slices(steps: Generator[None, None, Encounter]) -> Encounter:
    """The encounter ``steps`` open (such as :meth:`web.library.storage.Library.load_in_steps`),
    in slices; when its fight is over, the summary its view shows is folded in slices too
    (else the first view folds the whole log in one task)."""
    encounter = await in_slices(steps)
    if encounter.ruleset.fight_outcome(encounter.state) is not None:
        await in_slices(totals_in_steps(encounter))
    return encounter


def offers_in_steps(encounter: Encounter) -> Generator[None, None, None]:
    """Work out what each figure and the table are offered in ``encounter``'s state, one a
    step: the encounter keeps them for that state, so the view drawn after (its turn line
    names exactly the figures offered an action) finds them made."""
    for figure_id in encounter.state.figures:
        encounter.legal_actions(figure_id)
        yield
    encounter.legal_actions(None)
