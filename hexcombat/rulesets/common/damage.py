"""Damage into a pool, then down: the shape every ruleset with hit points shares."""

from __future__ import annotations

from hexcombat.figures import Figure, Pool, Status


def lose_points(pool: Pool, amount: int, *, floor: int | None = 0) -> int:
    """Take ``amount`` off the pool, not below ``floor`` (None: no floor); the points lost."""
    before = pool.current
    after = before - amount
    pool.current = after if floor is None else max(floor, after)
    return before - pool.current


def knock_down(
    figure: Figure, status: str = "down", note: str = "", *, replace: bool = False
) -> bool:
    """Give the figure the ``status`` that takes it out of the fight; whether it is new.

    A status it already has (say a GM's timed one) is kept, or with ``replace`` replaced by
    this lasting one."""
    new = not figure.has_status(status)
    if new or replace:
        figure.statuses[status] = Status(status, note=note)
    return new
