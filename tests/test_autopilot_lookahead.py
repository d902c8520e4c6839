"""What the autopilot's look ahead imagines the foes doing and how it judges the blows to
come: a foe comes to blows rather than standing still, and a look ends with the blows still
due at their exact odds, the foes' first (a figure at 1 hit point walking into a slow
brute's blow: ``tests/test_autopilot.py``)."""

from __future__ import annotations

import pytest

from hexcombat import Encounter, Hex
from hexcombat.autopilot import Autopilot
from hexcombat.autopilot.lookahead import Look, plain_reply
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.scoring import TEMPERAMENTS, visible_state
from hexcombat.autopilot.stream import Stream
from hexcombat.figures import figure_distance
from hexcombat.validation import Json

pytestmark = pytest.mark.pyodide

Row = tuple[str, str, Hex, int, dict[str, Json]]


def skirmish(rows: list[Row], width: int = 10, height: int = 10) -> Encounter:
    """An open skirmish board with ``rows`` of (id, side, hex, facing, stats), in the first
    move step."""
    enc = Encounter.new("skirmish", width, height, seed=1)
    for fid, side, at, facing, stats in rows:
        figure = enc.ruleset.new_figure(fid, fid.upper(), side, at, facing)
        figure.stats.update(stats)
        enc = enc.with_figure(figure)
    return enc


def test_a_foe_in_the_look_ahead_closes_in_rather_than_standing_still() -> None:
    """The foes' plain reply was a blow or nothing: in a move step every foe stood where it
    was while the side imagined, so stepping out of a foe's reach or waiting for it to come
    looked alike. A foe with no blow now makes the move that closes in on its nearest foe."""
    enc = skirmish([("a1", "A", Hex(1, 4), 1, {}), ("b1", "B", Hex(7, 2), 4, {"move": 4})])
    seen = visible_state(enc.state, "A")
    look = Look("A", TEMPERAMENTS["aggressive"], Stream("test"), {}, Memo())
    after = plain_reply(look, seen, "b1")
    assert after is not None
    before = figure_distance(seen.figures["a1"], seen.figures["b1"])
    assert figure_distance(after.figures["a1"], after.figures["b1"]) < before


def test_two_figures_wait_for_a_fast_foe_that_must_come_to_them_alone() -> None:
    """A fast foe (Move 5) can reach A1 and A2 this round, its slow friend (Move 2) cannot.
    Imagining the foes standing still, A1 ran forward to the hex both foes reach and took
    both their blows with A2 out of reach; judged by what the move meets (the foes' replies
    first, the blows due at their exact odds), the side waits: the fast foe comes to the
    two alone."""
    enc = skirmish(
        [
            ("a1", "A", Hex(1, 4), 1, {}),
            ("a2", "A", Hex(1, 5), 1, {}),
            ("b3", "B", Hex(7, 2), 4, {"move": 5}),
            ("b4", "B", Hex(7, 3), 4, {"move": 2}),
        ]
    )
    decision = Autopilot("aggressive").decide(enc, "A")
    assert decision is None, decision
