"""Charges and mounts offered (SCP-8, SCP-48...SCP-52): the run, the pair, mounting."""

from __future__ import annotations

from hexcombat.actions import ActionSpec
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import Hex, distance, neighbors
from hexcombat.layout import hex_label
from hexcombat.rulesets.strike_chance_pulse.fields import HUMANOID, TMR
from hexcombat.rulesets.strike_chance_pulse.offers import (
    acted_now,
    modifier_param,
    pulse,
    target_problem,
    weapon_param,
)
from hexcombat.rulesets.strike_chance_pulse.situation import (
    attack_weapons,
    attackable,
    hostile,
    is_out,
    settings,
)
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState


def straight_run(state: GameState, mount: Figure, hexes: int) -> list[Hex]:
    """SCP-51, SCP-52: the anchors the mount (and its riders) reach going straight ahead,
    facing unchanged, one hex at a time, while its whole body fits and no other figure
    stands in the way (its own riders move with it)."""
    from hexcombat.figures import cover
    from hexcombat.geometry import neighbor

    mine = {mount.id} | {f.id for f in state.figures.values() if f.mounted_on == mount.id}
    taken = {
        h
        for f in state.figures.values()
        if f.id not in mine and not f.mounted_on and not is_out(f)
        for h in f.hexes()
    }
    run: list[Hex] = []
    at = mount.position
    for _ in range(hexes):
        at = neighbor(at, mount.facing)
        body = cover(at, mount.facing, mount.footprint)
        if any(
            not state.board.contains(h)
            or state.board.terrain_at(h).impassable
            or state.board.terrain_at(h).move_cost is None
            or h in taken
            for h in body
        ):
            break
        run.append(at)
    return run


def charge_ends(state: GameState, rider: Figure, mount: Figure, target: Figure) -> list[Hex]:
    """SCP-51: the hexes of the straight run from which the rider could strike ``target``
    (tried by placing the pair there and putting it back)."""
    from hexcombat.figures import place

    weapons = attack_weapons(state, rider, "melee")
    home = mount.position
    ends = []
    try:
        for h in straight_run(state, mount, TMR(mount)):
            place(state.figures.values(), mount, h, mount.facing)
            if any(not target_problem(state, rider, target, w, "melee") for w in weapons):
                ends.append(h)
    finally:
        place(state.figures.values(), mount, home, mount.facing)
    return ends


def pair_of(state: GameState, figure: Figure) -> tuple[Figure, Figure] | None:
    """(rider, mount) when ``figure`` is either of a mounted pair (figures.mounted_on)."""
    if figure.mounted_on:
        mount = state.figures.get(figure.mounted_on)
        return (figure, mount) if mount is not None else None
    rider = next((f for f in state.figures.values() if f.mounted_on == figure.id), None)
    return (rider, figure) if rider is not None else None


def mounted_charge_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-51: a mounted Charge, offered to whichever of the pair acts first: the mount runs
    straight ahead (no facing change) up to its TMR and the rider makes a Melee attack at
    the end; it takes both their actions, and next Pulse the mount carries on (SCP-52)."""
    pair = pair_of(state, figure)
    if pair is None:
        return None
    rider, mount = pair
    if any(is_out(f) or acted_now(state, f) for f in pair):
        return None
    if FigureBook(mount).momentum_pulse == pulse(state):
        return None
    targets: list[Choice] = []
    ends: list[Choice] = []
    for t in state.figures.values():
        if t.id in (rider.id, mount.id) or not hostile(rider, t) or not attackable(state, t):
            continue
        spots = charge_ends(state, rider, mount, t)
        if not spots:
            continue
        targets.append(Choice(t.id, t.name, f"{len(spots)} hexes to strike from"))
        ends += [
            Choice(
                str(h),
                str(h),
                f"{distance(mount.position, h)} hexes straight ahead",
                when={"target": t.id},
            )
            for h in spots
        ]
    weapons = attack_weapons(state, rider, "melee")
    if not targets or not weapons:
        return None
    return ActionSpec(
        "mounted_charge",
        "Mounted Charge",
        figure.id,
        (
            FieldSpec("target", "Target", "figure", choices=tuple(targets)),
            FieldSpec("to", "Charge to", "hex", choices=tuple(ends)),
            weapon_param(weapons),
            modifier_param(),
        ),
        f"{mount.name} runs straight ahead, facing unchanged (SCP-51), and the rider strikes; "
        "next Pulse the mount carries on past the target for its full TMR (SCP-52).",
        "SCP-8, SCP-51, SCP-52",
    )


# ---- SCP-48: mounting and dismounting -------------------------------------------------------


def mount_still(state: GameState, mount: Figure) -> bool:
    """SCP-48: the mount is not moving: it has not moved this Pulse and has no momentum."""
    p = pulse(state)
    book = FigureBook(mount)
    return book.moved_pulse != p and book.momentum_pulse != p


def rideable(state: GameState, rider: Figure, mount: Figure) -> bool:
    """R-11: which figures may be mounted (by default a non-humanoid of the own side)."""
    if mount.id == rider.id or mount.mounted_on or hostile(rider, mount) or is_out(mount):
        return False
    if any(f.mounted_on == mount.id for f in state.figures.values()):
        return False
    return settings(state).rideable == "any" or not HUMANOID(mount)


def mount_specs(state: GameState, figure: Figure) -> list[ActionSpec]:
    """SCP-48: mount an adjacent still mount, or dismount into a free neighbour hex of a
    still mount; one action (A-14)."""
    if figure.mounted_on:
        mount = state.figures.get(figure.mounted_on)
        if mount is None or not mount_still(state, mount):
            return []
        taken = {h for f in state.figures.values() if not f.mounted_on for h in f.hexes()}
        spots = [
            h
            for m in mount.hexes()
            for h in neighbors(m)
            if state.board.contains(h)
            and state.board.terrain_at(h).move_cost is not None
            and h not in taken
        ]
        if not spots:
            return []
        choices = tuple(Choice(str(h), hex_label(h)) for h in sorted(set(spots)))
        return [
            ActionSpec(
                "dismount",
                "Dismount",
                figure.id,
                (FieldSpec("to", "Step down to", "hex", choices=choices),),
                f"Only while {mount.name} is not moving (SCP-48).",
                "SCP-48",
            )
        ]
    mounts = [
        m
        for m in state.figures.values()
        if rideable(state, figure, m) and mount_still(state, m) and figure_distance(figure, m) == 1
    ]
    if not mounts:
        return []
    return [
        ActionSpec(
            "mount",
            "Mount",
            figure.id,
            (
                FieldSpec(
                    "mount", "Mount", "figure", choices=tuple(Choice(m.id, m.name) for m in mounts)
                ),
            ),
            "Climb onto an adjacent mount that is not moving (SCP-48, R-11).",
            "SCP-48, R-11",
        )
    ]
