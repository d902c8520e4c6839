"""The pure calculators of mounted combat (SCP-47...SCP-52), re-exported by :mod:`.rules`."""

from __future__ import annotations

from collections.abc import Sequence

Rank = int | None


# ---- SCP-47 ... SCP-52: mounted combat -----------------------------------------------------


def mounted_melee_hexes(long_hafted: bool, fired: bool = False) -> tuple[str, ...]:
    """SCP-50 (I-10): a rider attacks only FL and FR; a spear-like weapon or a fired one
    also the Front hex.

    >>> mounted_melee_hexes(False), mounted_melee_hexes(True)
    (('FL', 'FR'), ('F', 'FL', 'FR'))
    """
    return ("F", "FL", "FR") if long_hafted or fired else ("FL", "FR")


def mounted_problem(
    *, two_handed: bool, firing: bool, moving: bool, weapons: int, lifted: bool = False
) -> str:
    """SCP-49: what a rider may not do (unless Horsemanship lifts it): a two-handed weapon,
    fire while moving, more than one weapon at a time. A shield and a one-handed weapon is
    always allowed. Firing has its own exception (2), "while moving": a missile weapon that
    takes both hands (a bow) is fired from a mount that stands still.

    >>> mounted_problem(two_handed=True, firing=False, moving=False, weapons=1)
    'a rider cannot use a two-handed weapon (SCP-49)'
    >>> mounted_problem(two_handed=True, firing=True, moving=False, weapons=1)
    ''
    >>> mounted_problem(two_handed=False, firing=False, moving=False, weapons=1)
    ''
    """
    if lifted:
        return ""
    if two_handed and not firing:
        return "a rider cannot use a two-handed weapon (SCP-49)"
    if firing and moving:
        return "a rider cannot fire while the mount is moving (SCP-49)"
    if weapons > 1:
        return "a rider cannot use more than one weapon at a time (SCP-49)"
    return ""


def may_mount(mount_moving: bool) -> bool:
    """SCP-48: mounting and dismounting only while the mount is not moving.

    >>> may_mount(False), may_mount(True)
    (True, False)
    """
    return not mount_moving


def mounted_charge_ok(facings: Sequence[int], directions: Sequence[int]) -> bool:
    """SCP-51: a mounted Charge runs in a straight line with no facing change: every step in
    the same direction as the (unchanged) facing.

    >>> mounted_charge_ok([1, 1, 1], [1, 1]), mounted_charge_ok([1, 2], [1])
    (True, False)
    """
    return len(set(facings)) <= 1 and all(d == facings[0] for d in directions)


def momentum_hexes(tmr: int) -> int:
    """SCP-52: in the Pulse after a mounted Charge the mount carries on for its full TMR.

    >>> momentum_hexes(12)
    12
    """
    return tmr


def horsemanship_threshold(agility: int, rank: Rank) -> int:
    """A-28 (placeholder): a Horsemanship Check is D100 at or under ``3 x AG + 10 x Rank``.

    >>> horsemanship_threshold(12, 2), horsemanship_threshold(12, None)
    (56, 36)
    """
    return 3 * agility + 10 * (rank or 0)
