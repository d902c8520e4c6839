"""What the ``combat-speed-phase`` rules ask about a figure or a state: Combat Speed, knees,
options as text and hit points."""

from __future__ import annotations

from hexcombat.figures import Figure
from hexcombat.rulesets.combat_speed_phase.options import CS, ON_KNEES
from hexcombat.state import GameState


def hexes_text(n: int) -> str:
    """``1 hex``, ``3 hexes``."""
    return f"{n} hex" if n == 1 else f"{n} hexes"


def cs_of(figure: Figure) -> int:
    """CSP-1: the figure's Combat Speed."""
    return max(1, CS(figure))


def on_knees(figure: Figure) -> bool:
    """CSP-12: a leg or hip disability (set up, or a GM's ruling) forces it onto its knees."""
    return ON_KNEES(figure) or figure.has_status("on_knees")


def opt_text(state: GameState, name: str) -> str:
    """The option ``name`` as text."""
    return str(state.options.get(name))


def tracks_hp(state: GameState) -> bool:
    """R-3: figures have hit points that damage takes off (option ``csp.hit_points``)."""
    return opt_text(state, "csp.hit_points") != "none"
