"""Starts the autopilot has never seen, built fresh from a seed: figures of a ruleset made
from its field defaults, varied, and armed from its catalogue, on a board with terrain
scattered from the ruleset's own table, in one of :data:`SHAPES`.

>>> enc = fresh_start("skirmish", "pair", 3)
>>> sorted({f.side for f in enc.setup.figures})
['A', 'B']
>>> fresh_start("skirmish", "pair", 3).setup == enc.setup
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from hexcombat.autopilot.stream import Stream
from hexcombat.editing import catalogue, new_item
from hexcombat.encounter import Encounter
from hexcombat.errors import HexcombatError
from hexcombat.figures import Figure
from hexcombat.geometry import Hex
from hexcombat.layout import from_offset, to_offset
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.base import Ruleset
from hexcombat.schema import FieldSpec
from hexcombat.validation import Json

SHAPES = ("pair", "strong", "line")
"""How a fresh start sets the sides out: ``pair``, two against two a few hexes apart;
``strong``, one figure made stronger against two; ``line``, three against three spread
along two lines with more terrain between them."""
SIDES = ("drawn", "mirrored")
"""How a fresh start's sides are made: ``drawn``, every figure drawn on its own, so the sides
may differ in worth as a chance meeting does (the same side may win whoever plays it);
``mirrored``, side B is side A turned half round the board (copies of A's figures, the
terrain the same seen from either side), a fight fair by construction as a game master
builds one. The ``strong`` shape, one figure against two, has no mirror: it is drawn
either way."""
SIZE = 10
"""The board's width and height in hexes (even: the board turned half round is itself)."""
TERRAIN_SHARE = {"pair": 0.12, "strong": 0.12, "line": 0.2}
"""The share of the board's hexes painted with a terrain other than the first."""
VARY = 0.3
"""How far a figure's whole-number fields stray from their defaults (a share of them)."""
STRONG = 1.4
"""The strong figure's whole-number fields, against the defaults."""
ARMED_TRIES = 6
"""Catalogue items tried per figure before it keeps what it has."""
SKILL = (40, 70)
"""The range of a skill an item asks for (a percentage, the catalogue's skill name)."""


def fresh_start(
    ruleset_id: str,
    shape: str,
    seed: int,
    options: Mapping[str, Json] | None = None,
    sides: str = "drawn",
) -> Encounter:
    """A start of ``shape`` (:data:`SHAPES`) for ``ruleset_id``, the same for the same
    seed: its figures, their gear and the terrain are all drawn from ``seed``, the sides
    made as ``sides`` says (:data:`SIDES`)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown start shape {shape!r}; choose one of {', '.join(SHAPES)}")
    if sides not in SIDES:
        raise ValueError(f"unknown way to make sides {sides!r}; choose one of {', '.join(SIDES)}")
    mirrored = sides == "mirrored" and shape != "strong"
    rng = Stream(f"fresh start:{ruleset_id}:{shape}:{seed}")
    rs = get_ruleset(ruleset_id)
    enc = Encounter.new(
        ruleset_id, SIZE, SIZE, name=f"Fresh start ({shape})", seed=seed, options=options
    )
    places = _places(shape, rng, mirrored)
    enc = _scatter_terrain(enc, rs, set(places), TERRAIN_SHARE[shape], rng, mirrored)
    data = enc.state.data
    made: list[Figure] = []
    for n, (side, at, facing) in enumerate(places):
        fid = f"{side.lower()}{n + 1}"
        if mirrored and side == "B":
            twin = made[n - len(places) // 2].copy()
            figure = replace(twin, id=fid, name=f"{side}{n + 1}", side=side)
            figure = replace(figure, position=at, facing=facing)
        else:
            strength = STRONG if shape == "strong" and n == 0 else 1.0
            figure = _figure(rs, data, fid, side, at, facing, strength, rng)
        made.append(figure)
        enc = enc.with_figure(figure)
    return enc


def turned(h: Hex) -> Hex:
    """The hex ``h`` comes to when the board is turned half round (a facing turns by 3).

    >>> turned(from_offset(0, 0)) == from_offset(SIZE - 1, SIZE - 1)
    True
    """
    col, row = to_offset(h)
    return from_offset(SIZE - 1 - col, SIZE - 1 - row)


def _places(shape: str, rng: Stream, mirrored: bool) -> list[tuple[str, Hex, int]]:
    """Where each figure stands (column, row) and faces: side A on the left facing up and to
    the right, B on the right facing down and to the left (mirrored: where A's figures come
    to when the board is turned half round)."""
    gap = 3 + rng.randrange(3)
    left, right = 4 - gap // 2, 4 - gap // 2 + gap
    if shape == "pair":
        rows = [("A", left, 4), ("A", left, 5), ("B", right, 4), ("B", right, 5)]
    elif shape == "strong":
        rows = [("A", left, 4), ("B", right, 3), ("B", right, 5)]
    else:
        rows = [("A", left, r) for r in (2, 4, 6)] + [("B", right, r) for r in (3, 5, 7)]
    places = [(side, from_offset(col, row), 1 if side == "A" else 4) for side, col, row in rows]
    if not mirrored:
        return places
    mine = [p for p in places if p[0] == "A"]
    return mine + [("B", turned(at), (facing + 3) % 6) for _side, at, facing in mine]


def _scatter_terrain(
    enc: Encounter,
    rs: Ruleset,
    keep: set[tuple[str, Hex, int]],
    share: float,
    rng: Stream,
    mirrored: bool,
) -> Encounter:
    """``enc`` with ``share`` of its hexes painted with the ruleset's other terrains, never
    where a figure stands (mirrored: each painted hex's turned hex painted alike)."""
    kinds = [t for t in rs.terrain.ids() if t != rs.terrain.default.id]
    if not kinds:
        return enc
    taken = {at for _side, at, _facing in keep}
    free = [h for h in enc.setup.board.hexes() if h not in taken]
    if mirrored:
        free = [h for h in free if to_offset(h) < to_offset(turned(h))]
    for h in rng.sample(free, min(len(free), int(len(free) * share))):
        kind = rng.choice(kinds)
        enc = enc.painted([h, turned(h)] if mirrored else [h], kind)
    return enc


def _figure(
    rs: Ruleset,
    data: Mapping[str, Json],
    fid: str,
    side: str,
    at: Hex,
    facing: int,
    strength: float,
    rng: Stream,
) -> Figure:
    """A figure of the ruleset with varied numbers and up to two catalogue items it may
    carry (an item asking for a skill gets it)."""
    figure = rs.new_figure(fid, f"{side}{fid[1:]}", side, at, facing)
    stats = {f.name: _varied(f, figure.stats[f.name], strength, rng) for f in rs.figure_fields}
    figure = replace(figure, stats=stats)
    if rs.figure_problems(figure, data):
        figure = rs.new_figure(fid, f"{side}{fid[1:]}", side, at, facing)
    items = [e["name"] for e in catalogue(data)]
    rng.shuffle(items)
    armed = 0
    for name in items[:ARMED_TRIES]:
        if armed == 2:
            break
        tried = _armed(rs, data, figure, str(name), rng)
        if tried is not None:
            figure, armed = tried, armed + 1
    return figure


def _armed(
    rs: Ruleset, data: Mapping[str, Json], figure: Figure, name: str, rng: Stream
) -> Figure | None:
    """``figure`` carrying the item ``name`` (with the skill it asks for), or None when the
    ruleset refuses it."""
    try:
        item = new_item(rs, data, name)
    except HexcombatError:
        return None
    skills = dict(figure.skills)
    skill = item.stats.get("skill")
    if isinstance(skill, str) and skill not in skills:
        skills[skill] = SKILL[0] + rng.randrange(SKILL[1] - SKILL[0] + 1)
    armed = replace(figure, skills=skills, equipment=[*figure.equipment, item])
    return None if rs.figure_problems(armed, data) else armed


def _varied(spec: FieldSpec, value: Json, strength: float, rng: Stream) -> Json:
    """A field's value strayed from its default: a whole number within :data:`VARY` (times
    ``strength``) and the field's bounds, a choice drawn from those offered."""
    if spec.type == "int" and isinstance(value, int) and not isinstance(value, bool):
        low = value * (1 - VARY) * strength
        high = value * (1 + VARY) * strength
        drawn = int(low) + rng.randrange(max(0, int(high) - int(low)) + 1)
        if spec.minimum is not None:
            drawn = max(spec.minimum, drawn)
        if spec.maximum is not None:
            drawn = min(spec.maximum, drawn)
        return drawn
    if spec.choices and spec.type == "choice":
        return rng.choice([c.value for c in spec.choices])
    return value
