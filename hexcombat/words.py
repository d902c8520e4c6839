"""Words a person reads about figures: compass facings and the one-line label of a figure.

The page, the CLI and screen readers use these, so a figure reads the same everywhere
("Bryn Spear, Wardens, at C4, facing north-east, 7 of 10 hit points").
"""

from __future__ import annotations

from hexcombat.figures import Figure
from hexcombat.geometry import DIRECTION_NAMES
from hexcombat.layout import hex_label
from hexcombat.state import GameState

FACING_NAMES = DIRECTION_NAMES
"""Facings 0-5 as compass words (north is up on the board, then clockwise)."""


def lower_label(label: str) -> str:
    """A label inside a sentence: 'Hit points' -> 'hit points', 'MP' stays 'MP'."""
    return label if label[:2].isupper() else label[:1].lower() + label[1:]


def figure_label(state: GameState, figure: Figure) -> str:
    """A figure in one line for screen readers and lists: name, side, where, facing, pools,
    statuses and whether it is out of the fight."""
    ruleset = state.ruleset
    parts = [
        figure.name,
        figure.side,
        "at " + " and ".join(hex_label(h) for h in figure.hexes()),
        f"facing {FACING_NAMES[figure.facing % 6]}",
    ]
    parts += [
        f"{p.current} of {p.maximum} {lower_label(ruleset.view_label(name))}"
        for name, p in figure.pools.items()
    ]
    parts += [lower_label(ruleset.view_label(b)) for b in ruleset.badges(state, figure)]
    if ruleset.is_out(state, figure):
        parts.append("out of the fight")
    return ", ".join(parts)
