"""Figures and actions: JSON forms and the problems reported for malformed ones."""

from __future__ import annotations

import pytest

from hexcombat import Action, Equipment, Figure, Hex, InvalidDocumentError, Pool, Status
from hexcombat.figures import figure_from_json
from hexcombat.validation import Reader

pytestmark = pytest.mark.pyodide


def brie() -> Figure:
    return Figure(
        "brie",
        "Brie the Oaken",
        "Oak",
        Hex(2, -1),
        3,
        stats={"fig": 52},
        skills={"Crossbow": 74, "Staff": 97},
        equipment=[
            Equipment("Crossbow", "weapon", "ready", True, {"max_range_yards": 180}),
            Equipment("Staff", "weapon", "carried"),
        ],
        statuses={"evading": Status("evading", 2)},
        pools={"hp": Pool(9, 10)},
        memory={"mode": "top"},
    )


def test_figure_json_round_trip() -> None:
    fig = brie()
    reader = Reader()
    again = figure_from_json(fig.to_json(), "f", reader)
    assert reader.problems == [] and again == fig


def test_figure_helpers() -> None:
    fig = brie()
    assert fig.initials == "BO"
    assert fig.item("Staff").state == "carried"
    assert [i.name for i in fig.ready_items("weapon")] == ["Crossbow"]
    with pytest.raises(ValueError, match="carries Crossbow, Staff"):
        fig.item("Sword")


def test_timed_statuses_count_down_and_expire() -> None:
    fig = brie()
    fig.statuses["prone"] = Status("prone")
    fig.statuses["stunned"] = Status("stunned", 1)
    assert fig.tick_statuses() == ["stunned"]
    assert fig.statuses["evading"].remaining == 1 and fig.has_status("prone")
    assert fig.tick_statuses(3) == ["evading"]
    assert list(fig.statuses) == ["prone"]


def test_malformed_figure_reports_each_field() -> None:
    data = brie().to_json()
    data["skills"]["Staff"] = "high"
    data["equipment"][0]["state"] = "juggled"
    data["pools"]["hp"] = {"current": 12, "maximum": 10}
    data["statuses"][0]["remaining"] = -1
    reader = Reader()
    assert figure_from_json(data, "figures[0]", reader) is None
    assert [str(p) for p in reader.problems] == [
        "figures[0].skills.Staff: must be a whole number 0-1000, got 'high'",
        "figures[0].equipment[0].state: must be one of ready, carried, dropped, got 'juggled'",
        "figures[0].statuses[0].remaining: must be a whole number of at least 0, got -1",
        "figures[0].pools.hp.current: must be a whole number of at most 10, got 12",
    ]


def test_action_json_and_typed_parameters() -> None:
    action = Action("move", "ann", {"to": "3,-1", "steps": 2, "run": True, "path": ["1,0", "2,0"]})
    assert Action.from_json(action.to_json()) == action
    assert action.hex("to") == Hex(3, -1)
    assert action.integer("steps") == 2 and action.flag("run") is True
    assert action.hexes("path") == [Hex(1, 0), Hex(2, 0)]
    with pytest.raises(ValueError, match='to must be a hex "q,r"'):
        Action("move", "ann", {"to": "x"}).hex("to")
    with pytest.raises(InvalidDocumentError, match=r"action\.kind: is required"):
        Action.from_json({"figure": "ann"})
