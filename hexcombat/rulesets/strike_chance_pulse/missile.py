"""Missile flight (SCP-9...SCP-12): the line of fire, the path and the figures along it.

A fired weapon flies in a straight line from the shooter through the target
for ``floor(1.5 x range)`` hexes (SCP-10). Every figure in a hex along the
line, a knocked-out one too, is checked in path order (SCP-12); where the line
runs along a hexside both hexes are on the path and the one clockwise of the
line goes first (A-24). A wall, tree or pillar breaks the missile (SCP-11); an obscured hex
may be entered but not passed through (SCP-9).
"""

from __future__ import annotations

from dataclasses import dataclass

from hexcombat.figures import Figure
from hexcombat.geometry import Hex, LineStep, distance, line_steps, side
from hexcombat.layout import hex_label
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.situation import defense, settings, where
from hexcombat.state import GameState


@dataclass(frozen=True)
class Sight:
    """Whether the shooter has a line of fire, and why not."""

    clear: bool
    reason: str
    between: tuple[Hex, ...]


@dataclass(frozen=True)
class Entry:
    """A figure on the path: where the missile meets it and the hex it comes through."""

    figure: Figure
    hex: Hex
    through: str | None
    is_target: bool


@dataclass(frozen=True)
class Flight:
    """The figures a missile meets, in order, and how the flight ends if nothing is hit:
    in words, the hex the weapon then lies in (off the board when it leaves it) and whether
    it broke."""

    entries: tuple[Entry, ...]
    end: str
    path: tuple[Hex, ...]
    lands: Hex
    broken: bool = False


def extended_steps(a: Hex, b: Hex, length: int) -> list[LineStep]:
    """The line from ``a`` through ``b`` continued to ``length`` steps (ties both ways).

    The far end is ``a + k (b - a)`` for the least whole ``k`` reaching ``length``, so
    the extended line passes exactly through ``b`` and keeps its ties.
    """
    d = distance(a, b)
    k = max(1, -(-length // d))
    far = Hex(a.q + k * (b.q - a.q), a.r + k * (b.r - a.r))
    return line_steps(a, far)[1 : length + 1]


def ordered(state: GameState, a: Hex, b: Hex, step: LineStep) -> tuple[Hex, ...]:
    """A-24: a tied pair in check order, clockwise of the line ``a -> b`` first (option)."""
    if not step.is_tie:
        return step.hexes
    first = 1 if settings(state).tie_check_order == "clockwise_first" else -1
    return tuple(sorted(step.hexes, key=lambda h: 0 if side(a, b, h) == first else 1))


def _stops(state: GameState, h: Hex) -> str:
    board = state.board
    if not board.contains(h):
        return ""
    t = board.terrain_at(h)
    if (t.breaks_missile or t.blocks_sight) and settings(state).hard_obstacle_blocks:
        return f"{t.name} at {hex_label(h)} blocks the line of fire (SCP-11, A-24)"
    if t.obscures:
        return f"cannot fire through {t.name} at {hex_label(h)}: into, not through (SCP-9)"
    return ""


def same_hex_order(state: GameState, here: list[Figure], target: Figure) -> list[Figure]:
    """R-12: several figures in one hex (Close combat) are checked by name, never by the
    order they were entered in; the target first (default) or last."""
    first = settings(state).same_hex_check_order == "target_first"
    return sorted(here, key=lambda f: ((f.id != target.id) == first, f.name, f.id))


def line_of_fire(state: GameState, shooter: Figure, target: Figure) -> Sight:
    """SCP-3, SCP-9, A-24: no obscured hex (and by default no wall, tree or pillar) strictly
    between; along a hexside the line passes when either side is open."""
    steps = line_steps(shooter.position, target.position)[1:-1]
    between = tuple(h for s in steps for h in s.hexes if state.board.contains(h))
    for step in steps:
        reasons = [_stops(state, h) for h in step.hexes]
        if all(reasons):
            return Sight(False, reasons[0], between)
    return Sight(True, "clear", between)


def through_hex(
    state: GameState, defender: Figure, before: tuple[Hex, ...], close: bool = False
) -> str | None:
    """A-29: the defender's neighbour hex the missile comes through (the path hex before);
    along a hexside, the one better for the defender (option)."""
    options = [w for h in before if (w := where(defender, h)) is not None]
    if not options:
        return None
    if len(options) == 1:
        return options[0]
    favour = settings(state).entry_hex_tie == "defender"
    totals = [(defense(state, defender, w, close)[0].total, w) for w in options]
    return (max if favour else min)(totals)[1]


def flight(state: GameState, shooter: Figure, target: Figure, range_hexes: int) -> Flight:
    """SCP-10...SCP-12: the figures the missile meets, in check order, and its end."""
    length = rules.flight_hexes(range_hexes)
    a, b = shooter.position, target.position
    entries: list[Entry] = []
    path: list[Hex] = []
    before: tuple[Hex, ...] = (a,)
    skip = {f.id for f in state.figures.values() if a in f.hexes()}  # own hex skipped
    for step in extended_steps(a, b, length):
        hexes = ordered(state, a, b, step)
        on_board = [h for h in hexes if state.board.contains(h)]
        if not on_board:
            return Flight(tuple(entries), "leaves the board and falls", tuple(path), hexes[0])
        path.extend(on_board)
        breakers = [h for h in on_board if state.board.terrain_at(h).breaks_missile]
        # along a hexside a missile passes an open side unless the option says either
        either = settings(state).hexside_missile_break == "either"
        breaks = bool(breakers) and (either or len(breakers) == len(hexes))
        for h in on_board:
            if h in breakers:
                continue
            here = [
                f
                for f in state.figures.values()
                if f.id not in skip and not f.has_status("dead") and h in f.hexes()
            ]
            for f in same_hex_order(state, here, target):
                skip.add(f.id)
                entries.append(Entry(f, h, through_hex(state, f, before), f.id == target.id))
        if breaks:
            t = state.board.terrain_at(breakers[0])
            return Flight(
                tuple(entries),
                f"breaks on the {t.name} at {hex_label(breakers[0])} (SCP-11)",
                tuple(path),
                breakers[0],
                broken=True,
            )
        obscured = [h for h in on_board if state.board.terrain_at(h).obscures]
        if obscured and len(obscured) == len(hexes):
            t = state.board.terrain_at(obscured[0])
            return Flight(
                tuple(entries),
                f"stops in the {t.name} at {hex_label(obscured[0])} (SCP-9)",
                tuple(path),
                obscured[0],
            )
        before = hexes
    lands = path[-1] if path else a
    return Flight(tuple(entries), f"falls after {length} hexes (SCP-10)", tuple(path), lands)
