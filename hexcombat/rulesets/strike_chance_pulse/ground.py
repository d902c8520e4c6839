"""Dropped items: where they lie, who may pick them up, and what a Disarm may drop.

SCP-31: "A dropped weapon may be picked up by any figure at any later time". A
dropped item stays in its owner's list with the hex it lies in; a figure within
reach of that hex (R-16) picks it up and it becomes that figure's.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexcombat.errors import IllegalActionError
from hexcombat.figures import Equipment, Figure
from hexcombat.geometry import Hex, distance
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.fields import BROKEN, LIES_AT, MD, STUCK_IN
from hexcombat.rulesets.strike_chance_pulse.situation import (
    Weapon,
    attack_weapons,
    hands_used,
    settings,
    shield_of,
    weapon_of,
    weapon_rank,
)
from hexcombat.state import GameState


def drop(figure: Figure, item: Equipment) -> None:
    """``item`` falls in the hex ``figure`` stands in."""
    lay(item, figure.position)


def lay(item: Equipment, where: Hex) -> None:
    """``item`` leaves its owner's hands and lies in ``where`` (a thrown weapon where its
    flight ended, SCP-10)."""
    item.state = "dropped"
    LIES_AT.put(item, str(where))


def stick(item: Equipment, figure: Figure) -> None:
    """SCP-12: a thrown weapon that struck ``figure`` 'remains in that figure until
    withdrawn': it goes where the figure goes, and is picked up from it."""
    lay(item, figure.position)
    STUCK_IN.put(item, figure.id)


def lies_at(state: GameState, owner: Figure, item: Equipment) -> Hex:
    """The hex a dropped item lies in: the hex of the figure it is stuck in, else the hex
    recorded (its owner's hex when not recorded)."""
    stuck = state.figures.get(STUCK_IN(item, ""))
    if stuck is not None:
        return stuck.position
    where = LIES_AT.raw(item)
    return Hex.parse(where) if isinstance(where, str) else owner.position


def droppable(figure: Figure) -> list[Equipment]:
    """SCP-22, SCP-31: what a Disarm can make ``figure`` drop: weapons and shields in hand,
    never a natural weapon (teeth and claws cannot be dropped)."""
    return [
        i
        for i in figure.equipment
        if i.is_ready
        and i.kind in ("weapon", "shield")
        and not (i.kind == "weapon" and weapon_of(i).natural)
    ]


def disarmable(state: GameState, figure: Figure) -> bool:
    """SCP-22, R-21: a Disarm may be made against ``figure``: it holds something to drop,
    or the option lets a Disarm hit for its damage alone."""
    return bool(droppable(figure)) or settings(state).disarm_empty_handed == "damage_only"


@dataclass(frozen=True)
class Lying:
    """A dropped item within a figure's reach: its owner, the item and the form's value."""

    owner: Figure
    item: Equipment
    value: str

    @property
    def whose(self) -> str:
        """The item with its owner's name unless it is the picker's own: "Bo's Dagger"."""
        return (
            self.item.name
            if self.value == self.item.name
            else f"{self.owner.name}'s {self.item.name}"
        )

    @property
    def label(self) -> str:
        """The item as the form names it."""
        return f"{self.whose} (picked up)"


def _hands(item: Equipment) -> int:
    return 2 if item.kind == "weapon" and weapon_of(item).two_handed else 1


def fits(figure: Figure, item: Equipment) -> bool:
    """The figure has the hands free for ``item`` (a second shield never fits)."""
    if item.kind == "shield" and shield_of(figure) is not None:
        return False
    return _hands(item) <= 2 - hands_used(figure)


def in_reach(state: GameState, figure: Figure) -> list[Lying]:
    """SCP-31, R-16: the unbroken dropped items ``figure`` may pick up now: its own and any
    other figure's, lying in its hex or (by default) an adjacent one."""
    most = 1 if settings(state).pick_up_reach == "adjacent" else 0
    found: list[Lying] = []
    for owner in state.figures.values():
        for item in owner.equipment:
            if item.state != "dropped" or BROKEN(item):
                continue
            if item.kind not in ("weapon", "shield") or not fits(figure, item):
                continue
            where = lies_at(state, owner, item)
            if not state.board.contains(where) or distance(where, figure.position) > most:
                continue  # a weapon thrown off the board is out of reach
            value = item.name if owner is figure else f"{owner.id}/{item.name}"
            if all(i.value != value for i in found):  # two Daggers: either one
                found.append(Lying(owner, item, value))
    return found


def pick_up(state: GameState, figure: Figure, value: str) -> str:
    """Take the dropped item ``value`` (from :func:`in_reach`) into ``figure``'s hands and
    say what it was ("the Dagger", "Bo's Dagger"). Another figure's item becomes
    ``figure``'s, named with its former owner's name when ``figure`` has one of that name."""
    lying = next((i for i in in_reach(state, figure) if i.value == value), None)
    if lying is None:
        raise IllegalActionError(f"no dropped {value} within {figure.name}'s reach (SCP-31)")
    what = lying.whose if lying.owner is not figure else f"the {lying.item.name}"
    item = lying.item
    item.state = "ready"
    LIES_AT.clear(item)
    STUCK_IN.clear(item)
    if lying.owner is not figure:
        lying.owner.equipment.remove(item)
        if any(i.name == item.name for i in figure.equipment):
            item.name = f"{item.name} ({lying.owner.name}'s)"
        figure.equipment.append(item)
    return what


def unready(state: GameState, figure: Figure) -> float:
    """0 (it strikes at its best) to 1: how far the best Melee Strike Chance of what
    ``figure`` may attack with now falls short of the best a weapon of its own (carried or
    dropped) or one in reach would give (SCP-26, SCP-31): a disarmed knight's own Broadsword
    at Rank 3 beats the foe's dropped Spear he is unranked with, and both his bare hands."""
    md = MD(figure)

    def chance(weapon: Weapon) -> int:
        return rules.strike_chance(
            weapon.base, md, weapon_rank(figure, weapon), natural=weapon.natural
        )

    held = [chance(w) for w in attack_weapons(state, figure, "melee") if w.kind != "shield"]
    within = [weapon_of(i) for i in figure.equipment if i.kind == "weapon" and not BROKEN(i)]
    within += [
        weapon_of(lying.item)
        for lying in in_reach(state, figure)
        if lying.item.kind == "weapon" and lying.owner is not figure
    ]
    best = max([*held, *(chance(w) for w in within if "melee" in w.rated)], default=0)
    if best <= 0:
        return 0.0
    return max(0.0, 1.0 - max(held, default=0) / best)
