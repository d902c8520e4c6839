"""The figure panel's words for a ``strike-chance-pulse`` figure."""

from __future__ import annotations

from hexcombat.figures import Figure
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.fields import MD
from hexcombat.rulesets.strike_chance_pulse.situation import (
    HANDS,
    KICK,
    UNARMED,
    defense,
    rank,
    restrainers,
    settings,
    weapon_rank,
)
from hexcombat.rulesets.strike_chance_pulse.state import RoundBook
from hexcombat.state import GameState
from hexcombat.validation import Json


def figure_view(state: GameState, figure: Figure) -> dict[str, Json]:
    """What the figure panel shows beyond the stored numbers."""
    front, _, _ = defense(state, figure, "F", False)
    rear, _, _ = defense(state, figure, "B", False)
    init = RoundBook(state).initiative
    view: dict[str, Json] = {
        "defense_front": front.total,
        "defense_rear": rear.total,
        "initiative": init.get(figure.id) if isinstance(init, dict) else None,
        "acted": figure.id in RoundBook(state).acted,
        "unarmed_rank": rank(figure, UNARMED),
    }
    s = settings(state)
    for w in weapon_of_view(state, figure):
        view[f"strike chance with the {w[0]}"] = w[1]
    del s
    return view


def weapon_of_view(state: GameState, figure: Figure) -> list[tuple[str, int]]:
    """SCP-26: each attack's Strike Chance, worked out before the fight."""
    from hexcombat.rulesets.strike_chance_pulse.situation import attack_weapons

    found: list[tuple[str, int]] = []
    for mode in ("melee", "ranged", "close"):
        for w in attack_weapons(state, figure, mode):
            if w.kind == "shield" or any(w.name == n for n, _ in found):
                continue
            found.append(
                (
                    w.name,
                    rules.strike_chance(
                        w.base, MD(figure), weapon_rank(figure, w), natural=w.natural
                    ),
                )
            )
    return found


__all__ = ["HANDS", "KICK", "restrainers"]
