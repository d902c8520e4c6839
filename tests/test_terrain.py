"""Terrain types and tables: validation, lookup, JSON round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hexcombat.terrain import PATTERNS, Terrain, TerrainTable

pytestmark = pytest.mark.pyodide

CLEAR = Terrain("clear", "Clear", 1)
WOODS = Terrain("heavy_woods", "Heavy trees", 2, soft_cover=1, color="#2f6b2f", pattern="trees")
HILL = Terrain("hill", "Hill", 1, blocks_sight=True, pattern="contour", house_default=True)
WALL = Terrain("structure", "Structure", None, blocks_sight=True, breaks_missile=True)
SMOKE = Terrain("smoke", "Smoke", 1, obscures=True, color="#999")


def table() -> TerrainTable:
    return TerrainTable([CLEAR, WOODS, HILL, WALL, SMOKE])


def test_terrain_defaults_and_impassable() -> None:
    t = Terrain("x", "X", 3)
    assert (t.blocks_sight, t.soft_cover, t.obscures, t.breaks_missile) == (False, 0, False, False)
    assert (t.color, t.pattern, t.help, t.house_default) == ("#d9d4c0", "none", "", False)
    assert not t.impassable
    assert WALL.impassable


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"id": ""}, "terrain id"),
        ({"id": "has space"}, "terrain id"),
        ({"name": " "}, "name must be"),
        ({"move_cost": 0}, "move_cost"),
        ({"move_cost": True}, "move_cost"),
        ({"move_cost": 1.5}, "move_cost"),
        ({"blocks_sight": 1}, "blocks_sight"),
        ({"obscures": "yes"}, "obscures"),
        ({"soft_cover": -1}, "soft_cover"),
        ({"color": "green"}, "color"),
        ({"color": '#fff" onload="x'}, "color"),
        ({"pattern": "stripes"}, "pattern must be one of"),
        ({"help": None}, "help"),
    ],
)
def test_terrain_validation(kwargs: dict[str, Any], message: str) -> None:
    base: dict[str, Any] = {"id": "t", "name": "T", "move_cost": 1}
    with pytest.raises(ValueError, match=message):
        Terrain(**(base | kwargs))


def test_every_pattern_is_accepted() -> None:
    for p in PATTERNS:
        assert Terrain("t", "T", 1, pattern=p).pattern == p


def test_table_order_default_and_lookup() -> None:
    t = table()
    assert t.default is CLEAR
    assert t.ids() == ("clear", "heavy_woods", "hill", "structure", "smoke")
    assert list(t) == [CLEAR, WOODS, HILL, WALL, SMOKE]
    assert len(t) == 5
    assert t.get("hill") is HILL
    assert t["smoke"] is SMOKE
    assert "hill" in t
    assert "lava" not in t
    assert 3 not in t


def test_table_unknown_id_lists_known_ids() -> None:
    with pytest.raises(ValueError, match="unknown terrain id 'lava'; known: clear, heavy_woods"):
        table().get("lava")


def test_table_is_immutable_and_validated() -> None:
    t = table()
    with pytest.raises(AttributeError):
        t._by_id = {}
    with pytest.raises(ValueError, match="at least one"):
        TerrainTable([])
    with pytest.raises(ValueError, match="duplicate terrain id 'clear'"):
        TerrainTable([CLEAR, Terrain("clear", "Other", 2)])


def test_table_equality_and_hash() -> None:
    assert table() == table()
    assert hash(table()) == hash(table())
    assert table() != TerrainTable([WOODS, CLEAR])


def test_table_json_round_trip() -> None:
    data = table().to_json()
    assert data[0] == {
        "id": "clear",
        "name": "Clear",
        "move_cost": 1,
        "blocks_sight": False,
        "soft_cover": 0,
        "obscures": False,
        "breaks_missile": False,
        "color": "#d9d4c0",
        "pattern": "none",
        "help": "",
        "house_default": False,
    }
    assert data[3]["move_cost"] is None
    assert TerrainTable.from_json(json.loads(json.dumps(data))) == table()


def test_from_json_minimal_entry() -> None:
    t = TerrainTable.from_json([{"id": "open", "name": "Open", "move_cost": 1}])
    assert t.default == Terrain("open", "Open", 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"id": "a"}, "must be a list"),
        ([], "at least one"),
        (["clear"], "entry 0 must be an object"),
        ([{"id": "a", "name": "A"}], r"entry 0 \('a'\): missing required key\(s\) move_cost"),
        ([{"id": "a", "name": "A", "move_cost": 1, "cost": 2}], r"unknown key\(s\) cost"),
        ([{"id": "a", "name": "A", "move_cost": "1"}], r"entry 0 \('a'\).*move_cost"),
        (
            [{"id": "a", "name": "A", "move_cost": 1}, {"id": "a", "name": "B", "move_cost": 2}],
            "duplicate terrain id 'a'",
        ),
    ],
)
def test_from_json_errors_are_clear(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TerrainTable.from_json(data)
