"""Who can strike whom (CSP-17, C-13, C-17) and how a strike is resolved (C-1, C-2, CSP-3).

The text's part is reach, arc and the impaired state; it has no combat
resolution. By default nobody strikes (movement only), though who is within
reach and arc is shown; with the ``csp.combat_resolver`` option the GM enters
each strike's outcome, or the skirmish ruleset's d20 to-hit and damage roll is
borrowed, with the impaired penalty and the shield as placeholders.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from hexcombat.checks import Chain, Check, Modifier, Stage
from hexcombat.figures import Equipment, Figure, figure_distance, nearest_hexes
from hexcombat.geometry import in_front_arc, in_front_half
from hexcombat.rulesets.combat_speed_phase.options import DAMAGE, REACH, SHIELD
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.registry import get_ruleset
from hexcombat.state import GameState
from hexcombat.validation import Json

ARCS = ("arc120", "half180", "any")
STATUSES: tuple[tuple[str, str], ...] = (
    ("none", "No status"),
    ("stunned", "Stunned"),
    ("prone", "Prone"),
    ("on_knees", "On its knees (leg or hip wound, CSP-12)"),
    ("down", "Down (out of the fight)"),
)
"""Statuses a GM's ruling may give (R-3); 'on its knees' caps N at 1 (CSP-12)."""


def separation(state: GameState, a: Figure, b: Figure) -> int:
    """C-17: the 'hexes separating' two figures: hex distance, or the hexes between them."""
    return counted(state, figure_distance(a, b))


def counted(state: GameState, distance: int) -> int:
    """C-17: a hex distance as the option counts it (the distance, or the hexes between)."""
    return (
        distance if state.options.get("csp.narrative_distance") != "gap" else max(0, distance - 1)
    )


def reaches(state: GameState, item: Equipment, distance: int) -> bool:
    """CSP-17, C-13, C-17: ``item`` reaches a figure ``distance`` hexes away (never its own
    hex): up to its reach, or exactly its reach with the option."""
    measure, reach = counted(state, distance), weapon_reach(item)
    exact = state.options.get("csp.reach_reading") == "exact"
    return distance >= 1 and (measure == reach if exact else measure <= reach)


def weapon_reach(item: Equipment) -> int:
    """CSP-17: a weapon's reach in hexes (data table ``weapons``; 1 when missing)."""
    value = REACH(item)
    return value if value >= 1 else 1


def weapons(figure: Figure) -> list[Equipment]:
    """The weapons a figure carries (ready or carried; the text has no readying)."""
    return [i for i in figure.equipment if i.kind == "weapon" and i.state != "dropped"]


def is_impaired(figure: Figure) -> bool:
    """CSP-3, C-7: impaired while the declared N of this phase is above 1."""
    return figure.has_status("impaired")


@dataclass(frozen=True)
class StrikeCheck:
    """Whether ``attacker`` may strike ``target`` with ``item`` now, and why (text's part)."""

    allowed: bool
    reason: str
    lines: tuple[str, ...]


def strike_check(
    state: GameState, attacker: Figure, target: Figure, item: Equipment
) -> StrikeCheck:
    """Reach (CSP-17, C-13, C-17), arc (C-13) and the impaired state (CSP-3, C-2)."""
    check = reach_check(state, attacker, target, item)
    if not check.allowed:
        return check
    lines = list(check.lines)
    if is_impaired(attacker):
        if state.options.get("csp.fast_move_penalty") == "no_attack_no_shield":
            return StrikeCheck(
                False,
                f"{attacker.name} moves faster than its Combat Speed this phase: impaired, "
                "it cannot strike (CSP-3, C-2)",
                tuple(lines),
            )
        lines.append(
            f"Text: {attacker.name} is impaired (N > 1): weapons 'cannot be used effectively'; "
            "the penalty of the missing section 6.1 is the resolver's (CSP-3, C-2)"
        )
    if SHIELD(target) and is_impaired(target):
        lines.append(f"Text: {target.name}'s shield gives no defence while impaired (CSP-3, C-2)")
    return StrikeCheck(True, "", tuple(lines))


def within_reach(state: GameState, attacker: Figure) -> list[tuple[Equipment, Figure]]:
    """C-1, CSP-17, C-13: the (weapon, enemy) pairs in reach and front arc now, whatever
    resolves strikes (the text's example turns on them); nothing secret is read."""
    return [
        (item, target)
        for item in weapons(attacker)
        for target in state.living()
        if target.side != attacker.side and reach_check(state, attacker, target, item).allowed
    ]


def reach_check(state: GameState, attacker: Figure, target: Figure, item: Equipment) -> StrikeCheck:
    """Reach (CSP-17, C-13, C-17) and arc (C-13): the text's part of a strike."""
    reach = weapon_reach(item)
    measure = separation(state, attacker, target)
    counted = "hexes between" if state.options.get("csp.narrative_distance") == "gap" else "away"
    exact = state.options.get("csp.reach_reading") == "exact"
    in_reach = reaches(state, item, figure_distance(attacker, target))
    band = f"exactly {reach}" if exact else f"1-{reach}" if reach > 1 else "1"
    lines = [
        f"Text: {target.name} is {measure} {counted}; the {item.name} reaches {band} "
        f"(CSP-17, C-13, C-17)"
    ]
    if not in_reach:
        return StrikeCheck(
            False, f"{target.name} is out of the {item.name}'s reach: " + lines[0][6:], tuple(lines)
        )
    arc = str(state.options.get("csp.attack_arc", "arc120"))
    near, far = nearest_hexes(attacker, target)
    inside = (
        True
        if arc == "any"
        else in_front_arc(near, attacker.facing, far)
        if arc == "arc120"
        else in_front_half(near, attacker.facing, far)
    )
    arc_words = {"arc120": "120° front arc", "half180": "front half", "any": "any direction"}[arc]
    if not inside:
        return StrikeCheck(
            False,
            f"{target.name} is not in {attacker.name}'s {arc_words} (C-13)",
            tuple(lines),
        )
    lines.append(f"Text: {target.name} is in {attacker.name}'s {arc_words} (C-13)")
    return StrikeCheck(True, "", tuple(lines))


def gm_lines(outcome: str, damage: int | None, status: str) -> tuple[str, ...]:
    """The GM's part of a ruling, said as such (C-1); ``damage`` None: no hit points (R-3)."""
    words = "hit" if outcome == "hit" else "miss"
    parts = [f"GM: {words}"]
    if outcome == "hit" and damage is not None:
        parts.append(f"GM: {damage} damage (hit points are our reading, R-3)")
    if outcome == "hit" and status != "none":
        parts.append(f"GM: status {dict(STATUSES)[status].lower()}")
    parts.append(
        "The text has no combat resolution (its Chapter 6 is missing): "
        "the outcome is the GM's (C-1)"
    )
    return tuple(parts)


def borrowed_chain(state: GameState, attacker: Figure, target: Figure, item: Equipment) -> Chain:
    """C-1 option: skirmish's d20 + Attack against Defence, then the weapon's damage.

    Placeholders on top (C-2): an impaired striker's penalty, a shield's defence when its
    bearer is not impaired.
    """
    skirmish = get_ruleset("skirmish")
    options: dict[str, Json] = {**skirmish.default_options(), **state.options}
    view = replace(state, options=options)
    proxy = attacker.copy()
    DAMAGE.put(proxy, str(DAMAGE.raw(item, "d6")))
    chain: Chain = skirmish.attack_chain(view, proxy, target)  # type: ignore[attr-defined]
    hit = chain.stages[0].rollable
    assert isinstance(hit, Check)
    rolls = list(hit.roll_modifiers)
    bonus = list(hit.modifiers)
    if is_impaired(attacker):
        value = int_or(state.options.get("csp.impaired_penalty"), -4)
        rolls.append(Modifier("Impaired striker (section 6.1 missing)", value, "CSP-3, C-2", True))
    if SHIELD(target) and not is_impaired(target):
        value = int_or(state.options.get("csp.shield_bonus"), 1)
        bonus.append(Modifier(f"{target.name}'s shield", value, "C-2", True))
    hit = replace(
        hit,
        label=f"To hit (borrowed from skirmish, C-1) with the {item.name}",
        modifiers=tuple(bonus),
        roll_modifiers=tuple(rolls),
        rule="C-1",
    )
    stages = (Stage("hit", hit), *chain.stages[1:])
    return Chain(f"{attacker.name} strikes {target.name} (borrowed roll)", stages)


def status_choices_when(outcome: str) -> Mapping[str, Json]:
    """The ``when`` of a status choice: only a hit gives one."""
    return {"outcome": outcome}
