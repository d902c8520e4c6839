"""How far a figure really is from a foe: the hexes it must cross to come next to it, round
what blocks the way (impassable terrain, terrain too dear for the figure ever to enter,
other figures' bodies, standing or down).

The hex distance sees through a wall or a fallen figure: two figures whose every short way
is blocked look no nearer for a step round the obstacle, so neither takes one and they stand
off for ever. The route's length gives that step its worth.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import Hex, distance, neighbors
from hexcombat.movement import Room
from hexcombat.state import GameState

DETOUR = 12
"""Hexes a route may go out of its way at most; a longer detour (or none at all) counts as
the hex distance."""


def route_gap(state: GameState, figure: Figure, foe: Figure, dearest: float | None = None) -> int:
    """The hexes ``figure`` must cross to stand next to ``foe``, plus one (so 1 when they are
    next to each other, as the hex distance), round what blocks the way and any hex whose
    terrain costs more than ``dearest`` to enter (the ruleset's hint: the figure never may);
    the hex distance for a figure covering more than one hex, next to its foe already, or
    with no route."""
    straight = figure_distance(figure, foe)
    if straight <= 1 or figure.footprint or foe.footprint:
        return straight
    room = Room.around(state.board, state.figures.values(), figure, 1)
    board = state.board

    def open_to(h: Hex) -> bool:
        if not room.is_free(h):
            return False
        cost = board.terrain_at(h).move_cost
        return dearest is None or cost is None or cost <= dearest

    found = _shortest(open_to, figure.position, foe.position, straight + DETOUR)
    return straight if found is None else found


def _shortest(open_to: Callable[[Hex], bool], start: Hex, foe: Hex, longest: int) -> int | None:
    """The fewest steps from ``start`` to a hex next to ``foe`` through hexes ``open_to``
    the figure, plus one (A* under the hex distance, the deeper first among equals); None
    beyond ``longest``."""
    frontier = [(distance(start, foe), 0, start)]
    best = {start: 0}
    while frontier:
        estimate, back, at = heapq.heappop(frontier)
        steps = -back
        if estimate > longest:
            return None
        if distance(at, foe) == 1:
            return steps + 1
        if steps > best[at]:
            continue
        for near in neighbors(at):
            if best.get(near, longest + 1) <= steps + 1 or not open_to(near):
                continue
            best[near] = steps + 1
            heapq.heappush(frontier, (steps + 1 + distance(near, foe), -(steps + 1), near))
    return None
