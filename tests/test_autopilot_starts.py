"""Fresh starts for the autopilot's games: every ruleset and shape gives a valid encounter,
the same for the same seed and another for another seed; mirrored sides are one side turned
half round the board."""

from __future__ import annotations

import pytest

from hexcombat import Encounter
from hexcombat.autopilot.starts import SHAPES, fresh_start, turned
from hexcombat.document import dumps, loads
from hexcombat.rulesets import all_rulesets

pytestmark = pytest.mark.pyodide
RULESETS = [r.id for r in all_rulesets()]


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_fresh_start_is_a_valid_fight_of_two_sides(ruleset_id: str, shape: str) -> None:
    enc = fresh_start(ruleset_id, shape, 3)
    again = loads(dumps(enc))
    assert isinstance(again, Encounter) and again.setup == enc.setup
    sides = [f.side for f in enc.state.figures.values()]
    assert sorted(set(sides)) == ["A", "B"]
    assert len(sides) == {"pair": 4, "strong": 3, "line": 6}[shape]
    assert enc.legal_actions(None) or any(enc.legal_actions(f) for f in enc.state.figures)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_fresh_start_is_drawn_from_its_seed(ruleset_id: str) -> None:
    assert fresh_start(ruleset_id, "pair", 5).setup == fresh_start(ruleset_id, "pair", 5).setup
    others = {repr(fresh_start(ruleset_id, "line", s).setup) for s in range(1, 6)}
    assert len(others) == 5


def test_the_strong_start_is_one_stronger_figure_against_two() -> None:
    enc = fresh_start("skirmish", "strong", 2)
    strong, *two = enc.setup.figures
    assert strong.side == "A" and {f.side for f in two} == {"B"}
    assert int(strong.stats["hp"]) > min(int(f.stats["hp"]) for f in two)


def test_an_unknown_shape_is_refused_with_the_shapes() -> None:
    with pytest.raises(ValueError, match="pair, strong, line"):
        fresh_start("skirmish", "circle", 1)


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("shape", ["pair", "line"])
def test_mirrored_sides_are_one_side_turned_half_round_the_board(
    ruleset_id: str, shape: str
) -> None:
    enc = fresh_start(ruleset_id, shape, 4, sides="mirrored")
    figures = enc.setup.figures
    mine = [f for f in figures if f.side == "A"]
    theirs = [f for f in figures if f.side == "B"]
    assert len(mine) == len(theirs) == {"pair": 2, "line": 3}[shape]
    for a, b in zip(mine, theirs, strict=True):
        assert (b.position, b.facing) == (turned(a.position), (a.facing + 3) % 6)
        assert (b.stats, b.skills, b.equipment, b.pools) == (
            a.stats,
            a.skills,
            a.equipment,
            a.pools,
        )
    board = enc.setup.board
    painted = [h for h in board.hexes() if board.terrain_id_at(h) != board.terrain_table.default.id]
    assert painted and all(
        board.terrain_id_at(turned(h)) == board.terrain_id_at(h) for h in painted
    )
    assert loads(dumps(enc)).setup == enc.setup


def test_the_strong_start_is_drawn_whichever_way_sides_are_made() -> None:
    drawn = fresh_start("skirmish", "strong", 2)
    assert fresh_start("skirmish", "strong", 2, sides="mirrored").setup == drawn.setup


def test_an_unknown_way_to_make_sides_is_refused_with_the_ways() -> None:
    with pytest.raises(ValueError, match="drawn, mirrored"):
        fresh_start("skirmish", "pair", 1, sides="balanced")
