"""Pure calculators of ``combat-speed-phase``: allowances, half-phase split, speed limits.

Everything here is integer arithmetic; halves round as the text says (first half
up, second half down, CSP-9) through :mod:`hexcombat.rounding`, never ``round()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexcombat.rounding import ceil_half, floor_half

MAX_MULTIPLE = 6
"""Maximum Running Speed is 6 x CS (CSP-2, CSP-11)."""
MAX_OBLIQUE_MULTIPLE = 2
"""Backward or oblique movement reaches at most 2 x CS (CSP-11)."""


def max_running_speed(cs: int) -> int:
    """CSP-2: Maximum Running Speed, 6 x CS hexes per phase.

    >>> max_running_speed(3)
    18
    """
    return MAX_MULTIPLE * cs


def allowance(n: int, cs: int) -> int:
    """M = N x CS hexes for the phase (CSP-4 at N = 1, CSP-11 above).

    >>> allowance(3, 3)
    9
    """
    if not 0 <= n <= MAX_MULTIPLE:
        raise ValueError(f"a speed multiple is 0-{MAX_MULTIPLE}, got {n}")
    return n * cs


def half_split(m: int) -> tuple[int, int]:
    """CSP-9: the two half-phase allowances, ``ceil(M/2)`` then ``floor(M/2)``.

    >>> half_split(9), half_split(3), half_split(1)
    ((5, 4), (2, 1), (1, 0))
    """
    if m < 0:
        raise ValueError(f"an allowance is never negative, got {m}")
    return ceil_half(m), floor_half(m)


def half_allowance(m: int, half: int) -> int:
    """The allowance of half-phase ``half`` (1 or 2) of an M-hex phase (CSP-9)."""
    first, second = half_split(m)
    if half not in (1, 2):
        raise ValueError(f"a phase has half-phases 1 and 2, got {half}")
    return first if half == 1 else second


def change_cost(n: int) -> int:
    """CSP-6, CSP-15: a facing or direction change counts as N hexes (1 at Combat Speed)."""
    return max(1, n)


def moved_multiple(hexes: int, cs: int) -> int:
    """C-7 'moved' basis: the multiple a phase's hexes amount to, ``ceil(hexes / CS)``.

    >>> moved_multiple(0, 3), moved_multiple(3, 3), moved_multiple(4, 3)
    (0, 1, 2)
    """
    return -(-hexes // cs)


@dataclass(frozen=True)
class PhaseRecord:
    """What a finished phase leaves for the next: its multiple and the hexes entered."""

    n: int = 0
    hexes: int = 0

    @property
    def stationary(self) -> bool:
        """C-7: a phase in which the figure entered no hex counts as stationary."""
        return self.hexes == 0

    @property
    def fast(self) -> bool:
        """The figure moved faster than CS: N > 1 and at least one hex (CSP-16, C-7)."""
        return self.n > 1 and self.hexes > 0

    def at_combat_speed(self, cs: int, rule: str = "moved_at_least_1") -> bool:
        """C-8: a phase moving at Combat Speed: N = 1 and at least 1 hex (or exactly CS)."""
        if self.n != 1 or self.hexes == 0:
            return False
        return rule != "exactly_cs" or self.hexes == cs


def may_run(last: PhaseRecord, cs: int, rule: str = "moved_at_least_1") -> bool:
    """CSP-13, CSP-14: after a phase at Combat Speed (or one already fast), any N up to 6."""
    return last.at_combat_speed(cs, rule) or last.fast


def must_keep_moving(last: PhaseRecord) -> bool:
    """CSP-16: after any fast phase the figure may not be stationary (N = 0 refused)."""
    return last.fast


def offered_multiples(
    last: PhaseRecord, cs: int, *, on_knees: bool, rule: str = "moved_at_least_1"
) -> list[int]:
    """The multiples N a figure may declare this phase, with every limit applied.

    CSP-12 caps a figure on its knees at 1; CSP-13 keeps a figure that has not spent a
    phase at Combat Speed at 1; CSP-16 refuses 0 after a fast phase.

    >>> offered_multiples(PhaseRecord(0, 0), 3, on_knees=False)
    [0, 1]
    >>> offered_multiples(PhaseRecord(1, 3), 3, on_knees=False)
    [0, 1, 2, 3, 4, 5, 6]
    >>> offered_multiples(PhaseRecord(3, 9), 3, on_knees=False)
    [1, 2, 3, 4, 5, 6]
    """
    top = MAX_MULTIPLE if may_run(last, cs, rule) and not on_knees else 1
    low = 1 if must_keep_moving(last) else 0
    return list(range(low, top + 1))


def why_not(n: int, last: PhaseRecord, cs: int, *, on_knees: bool, rule: str) -> str:
    """Why N is not offered (empty when it is)."""
    if n in offered_multiples(last, cs, on_knees=on_knees, rule=rule):
        return ""
    if not 0 <= n <= MAX_MULTIPLE:
        return f"N is 0-{MAX_MULTIPLE} (CSP-2, CSP-11)"
    if n == 0:
        return (
            "it moved faster than its Combat Speed last phase: it must spend a phase at "
            "Combat Speed before stopping (CSP-16)"
        )
    if on_knees:
        return "on its knees it moves at Combat Speed at most (N = 1, CSP-12)"
    return "it must spend one phase moving at Combat Speed before moving faster (CSP-13, C-8)"
