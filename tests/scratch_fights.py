"""Fights built from scratch in the set-up editor, the same for the engine's tests and the
browser's: per ruleset the rule options chosen in New encounter that let it end, the figure
fields lowered for a short fight, a small board with a painted hex and the sides adjacent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hexcombat import Encounter
from hexcombat.editing import new_figure
from hexcombat.geometry import Hex
from hexcombat.validation import Json

WIDTH, HEIGHT = 6, 5
PLACES: Mapping[str, tuple[str, str]] = {"Blue": ("1,1", "1,2"), "Red": ("2,1", "0,2")}
"""Where each side's two figures stand (q,r): each Red figure next to both Blue ones, so
whoever is left standing is next to a foe (no stand-off at a distance)."""
PAINTED = "4,1"
"""The hex painted with the fight's terrain, off the figures' way."""


@dataclass(frozen=True)
class ScratchFight:
    """One ruleset's fight from scratch."""

    ruleset: str
    terrain: str
    """The terrain painted on :data:`PAINTED` (its id)."""
    options: Mapping[str, Json] = field(default_factory=dict)
    """Rule options changed in New encounter (the fight cannot end under the defaults)."""
    low: Mapping[str, int] = field(default_factory=dict)
    """Figure fields typed lower in each figure's form: a short fight."""


FIGHTS: Mapping[str, ScratchFight] = {
    f.ruleset: f
    for f in (
        ScratchFight("skirmish", "wall", low={"hp": 3}),
        ScratchFight(
            "fig-percentile", "structure", options={"fp.damage_model": "hp"}, low={"hp": 3}
        ),
        ScratchFight("strike-chance-pulse", "wall", low={"ft": 2, "en": 3}),
        ScratchFight(
            "combat-speed-phase",
            "wall",
            options={"csp.combat_resolver": "skirmish"},
            low={"hp": 1},
        ),
        ScratchFight("two-action-2d10", "wall", options={"ta.hp_base": 0}, low={"health": 2}),
    )
}


def key_hex(key: str) -> Hex:
    """A board key "q,r" as a hex."""
    q, r = key.split(",")
    return Hex(int(q), int(r))


def built(fight: ScratchFight, seed: int = 1) -> Encounter:
    """The fight's set-up made through the engine as the editor makes it: its options, the
    painted hex, each figure new from the editor (:func:`new_figure`) with its fields lowered."""
    enc = Encounter.new(fight.ruleset, WIDTH, HEIGHT, name="From scratch", seed=seed)
    enc = enc.with_options({**enc.state.options, **fight.options})
    enc = enc.painted([key_hex(PAINTED)], fight.terrain)
    first = next(iter(PLACES))
    for side, keys in PLACES.items():
        for n, key in enumerate(keys):
            name = f"{side} {'AB'[n]}"
            fig = new_figure(
                enc.ruleset,
                enc.state.data,
                enc.new_figure_id(name),
                name,
                side,
                key_hex(key),
                3 if side == first else 0,
            )
            fig.stats.update(fight.low)
            enc = enc.with_figure(fig)
    return enc
