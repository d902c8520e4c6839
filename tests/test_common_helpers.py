"""The rule helpers several rulesets share (``hexcombat/rulesets/common/``): whole numbers
out of JSON, typed stat readers built from FieldSpecs, damage into a pool then down, a
move's destinations and a move walked among others, and typed bookkeeping over the JSON
memory."""

from __future__ import annotations

import json

import pytest
from factories import skirmish_duel

from hexcombat import Hex
from hexcombat.errors import IllegalActionError
from hexcombat.figures import Equipment, Figure, Pool, Status
from hexcombat.movement import Pose
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.common import (
    FlagStat,
    IntStat,
    TextsStat,
    TextStat,
    int_or,
    is_int,
    knock_down,
    lose_points,
)
from hexcombat.rulesets.common.memory import FigureMemory, StateMemory
from hexcombat.rulesets.common.moves import WalkedMove, destinations, sentence
from hexcombat.rulesets.common.settings import SettingsCache, option_values
from hexcombat.rulesets.strike_chance_pulse import fields as scp
from hexcombat.schema import FieldSpec

pytestmark = pytest.mark.pyodide


def _figure(**stats: object) -> Figure:
    return Figure("a", "Ann", "Blue", Hex(0, 0), stats=dict(stats))  # type: ignore[arg-type]


def test_is_int_refuses_bools_and_floats() -> None:
    assert [is_int(v) for v in (0, -3, True, False, 2.0, "4", None)] == [
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]


def test_int_or_gives_the_number_or_the_default() -> None:
    assert int_or(5, 1) == 5
    assert int_or(True, 1) == 1
    assert int_or("5", 2) == 2
    assert int_or(None, -1) == -1


def test_int_stat_reads_the_figure_with_the_specs_default_or_a_fallback() -> None:
    spec = FieldSpec("move", "Move", "int", 4, "", minimum=0)
    assert IntStat(spec)(_figure(move=7)) == 7
    assert IntStat(spec)(_figure()) == 4
    assert IntStat(spec)(_figure(move=True)) == 4
    assert IntStat(spec, fallback=0)(_figure()) == 0
    assert IntStat(spec).name == "move"


def test_text_stat_reads_text_with_a_fallback() -> None:
    spec = FieldSpec("damage", "Damage", "text", "d6", "")
    assert TextStat(spec)(_figure(damage="2d6")) == "2d6"
    assert TextStat(spec)(_figure()) == "d6"
    assert TextStat(spec, fallback="d4")(_figure()) == "d4"


def test_a_call_may_give_its_own_default() -> None:
    spec = FieldSpec("en", "EN", "int", 15, "")
    assert IntStat(spec, fallback=0)(_figure(), 1) == 1
    assert IntStat(spec, fallback=0)(_figure(en=9), 1) == 9
    assert TextStat(spec, fallback="x")(_figure(), "y") == "y"


def test_text_stat_readings_differ_only_on_values_that_are_not_text() -> None:
    spec = FieldSpec("size", "Size", "text", "human", "")
    readings = {
        reads: [TextStat(spec, "human", reads)(_figure(size=v)) for v in (5, "", "giant", False)]
        for reads in ("any", "text", "filled")
    }
    assert readings == {
        "any": ["5", "", "giant", "False"],
        "text": ["human", "", "giant", "human"],
        "filled": ["5", "human", "giant", "human"],
    }
    assert TextStat(spec, reads="text")(_figure()) == "human"


def test_flag_stat_reads_bools_and_the_fallback_for_anything_else() -> None:
    spec = FieldSpec("humanoid", "Humanoid", "bool", True, "")
    assert [FlagStat(spec, True)(_figure(humanoid=v)) for v in (False, True, 0, None)] == [
        False,
        True,
        True,
        True,
    ]
    assert FlagStat(spec)(_figure()) is False
    truthy = FlagStat(spec, truthy=True)
    assert [truthy(_figure(humanoid=v)) for v in (1, 0, "yes", None)] == [True, False, True, False]


def test_texts_stat_keeps_the_texts_of_a_list() -> None:
    rated = TextsStat(FieldSpec("rated", "Rated", "text", None, ""))
    assert rated(_figure(rated=["melee", 3, "close"])) == ("melee", "close")
    assert rated(_figure(rated="melee")) == ()


def test_strike_chance_pulse_reads_a_value_that_is_not_text_as_before() -> None:
    # its old text_stat read a non-text value as the default; TextStat's "any" would say "5"
    odd = _figure(size=5, primary_hand=False)
    assert (scp.SIZE(odd), scp.PRIMARY_HAND(odd)) == ("human", "right")
    assert [scp.DAMAGE(Equipment("Axe", stats={"damage": v})) for v in ("", 0, "2d10")] == [
        "d10",
        "d10",
        "2d10",
    ]


def test_a_stat_reads_and_writes_an_items_stats_too() -> None:
    item = Equipment("Axe", stats={"reach": 2})
    reach = IntStat(FieldSpec("reach", "Reach", "int", 1, ""))
    assert reach(item) == 2 and reach.raw(item) == 2 and reach.has(item)
    reach.put(item, 3)
    assert reach(item) == 3
    reach.clear(item)
    assert reach(item) == 1 and not reach.has(item) and reach.raw(item, "none") == "none"


def test_lose_points_stops_at_the_floor_and_says_what_was_lost() -> None:
    pool = Pool(5, 10)
    assert lose_points(pool, 3) == 3 and pool.current == 2
    assert lose_points(pool, 9) == 2 and pool.current == 0
    deep = Pool(2, 10)
    assert lose_points(deep, 5, floor=None) == 5 and deep.current == -3


def test_knock_down_sets_the_status_once() -> None:
    figure = _figure()
    assert knock_down(figure) is True
    assert figure.has_status("down")
    assert knock_down(figure) is False
    assert knock_down(figure, "dead", note="R-3") is True
    assert figure.statuses["dead"].note == "R-3"


def test_a_figure_knocked_down_is_out_by_the_rulesets_out_statuses() -> None:
    enc = skirmish_duel()
    ruleset, figure = enc.ruleset, next(iter(enc.state.figures.values()))
    assert ruleset.out_statuses == ("down",) and not ruleset.is_out(enc.state, figure)
    knock_down(figure)
    assert ruleset.is_out(enc.state, figure)
    scp = get_ruleset("strike-chance-pulse")
    assert not scp.is_out(enc.state, figure)  # down is not out there: dead or unconscious
    knock_down(figure, "unconscious")
    assert scp.is_out(enc.state, figure)


def test_knock_down_keeps_or_replaces_a_timed_status() -> None:
    figure = _figure()
    figure.statuses["down"] = Status("down", remaining=2)
    assert knock_down(figure) is False
    assert figure.statuses["down"].remaining == 2
    assert knock_down(figure, replace=True) is False
    assert figure.statuses["down"].remaining is None


def test_books_read_and_write_the_json_memory_they_wrap() -> None:
    enc = skirmish_duel()
    state = enc.state.copy()
    book = StateMemory(state)
    assert book._int("missing", 3) == 3
    book._list("seen").append("ann")
    book._table("by").update(ann="bo")
    assert json.dumps(state.memory, sort_keys=True).count('"seen": ["ann"]') == 1
    figure = state.figures["ann"]
    FigureMemory(figure)._set("wounded", True)
    assert FigureMemory(figure)._flag("wounded") is True
    assert FigureMemory(figure)._text("wounded") is None
    assert figure.memory["wounded"] is True


def test_a_corrupt_memory_is_refused_with_a_clear_message() -> None:
    state = skirmish_duel().state.copy()
    state.memory["seen"] = 3
    with pytest.raises(IllegalActionError, match="'seen' must be a list"):
        StateMemory(state)._list("seen")
    with pytest.raises(IllegalActionError, match="'seen' must be a table"):
        StateMemory(state)._table("seen")


def test_settings_are_made_once_per_options_table() -> None:
    made: list[dict[str, object]] = []

    def make(options: dict[str, object]) -> int:
        made.append(options)
        return len(made)

    settings = SettingsCache(make)
    enc = skirmish_duel()
    state = enc.state
    assert settings(state) == 1 and settings(state) == 1
    other = skirmish_duel().state
    assert other.options is not state.options and settings(other) == 2
    assert made == [state.options, other.options]


def test_a_step_told_as_a_sentence() -> None:
    assert [sentence(t) for t in ("enters C4 (1 MP)", "", "Turns")] == [
        "Enters C4 (1 MP)",
        "",
        "Turns",
    ]


def test_destinations_are_the_reach_but_the_own_hex_unless_it_says_what_staying_does() -> None:
    enc = skirmish_duel()
    figure = next(iter(enc.state.figures.values()))
    reach = enc.ruleset.reach(enc.state, figure)
    assert reach is not None
    costs = reach.hex_costs()
    moves = destinations(figure, reach)
    assert [c.value for c in moves] == [str(h) for h in sorted(costs) if h != figure.position]
    assert all(c.label.endswith(f"({costs[Hex.parse(c.value)]} MP)") for c in moves)
    staying = destinations(figure, reach, here="stay")
    assert len(staying) == len(moves) + 1
    assert next(c.label for c in staying if c.value == str(figure.position)).endswith("(stay)")
    assert destinations(figure, None) == ()


def test_a_walked_move_stopped_short_says_where_it_ended_and_what_it_entered() -> None:
    poses = [Pose(Hex(0, 0), 1), Pose(Hex(1, 0), 1), Pose(Hex(1, 0), 2), Pose(Hex(2, 0), 2)]
    move = WalkedMove(Hex(0, 0), poses, [Hex(0, 0), Hex(1, 0), Hex(1, 0)])
    assert (move.ticks, move.end, move.cut, move.entered) == (2, poses[2], True, 1)
    assert move.data(mp=2) == {
        "from": "0,0",
        "to": "1,0",
        "facing": 2,
        "path": ["0,0", "1,0", "1,0"],
        "hexes": 1,
        "mp": 2,
    }
    whole = WalkedMove(Hex(0, 0), poses, [p.hex for p in poses])
    assert (whole.cut, whole.entered, whole.end) == (False, 2, poses[3])


def test_option_values_read_the_rulesets_prefix_and_the_engine_wide_ones() -> None:
    options = {"fp.dodge": True, "core.stacking": 2, "fp.stacking": 9}
    assert option_values(("dodge", "stacking"), options, "fp", ("stacking",)) == {
        "dodge": True,
        "stacking": 2,
    }
