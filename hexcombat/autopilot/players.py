"""Every policy by name, for the CLI, the page and games between policies."""

from __future__ import annotations

from hexcombat.autopilot.baselines import GreedyPolicy, RandomPolicy, RushPolicy
from hexcombat.autopilot.pilot import Autopilot
from hexcombat.autopilot.policy import Policy
from hexcombat.autopilot.scoring import TEMPERAMENTS
from hexcombat.errors import HexcombatError

POLICIES = ("aggressive", "careful", "random", "rush", "greedy")
"""Every policy by name: the autopilot's temperaments, then the three baselines."""


class UnknownPolicyError(HexcombatError):
    """A policy name that is not one of :data:`POLICIES`."""


def make_policy(name: str) -> Policy:
    """A policy by name (:data:`POLICIES`)."""
    if name in TEMPERAMENTS:
        return Autopilot(name)
    if name == "random":
        return RandomPolicy()
    if name == "rush":
        return RushPolicy()
    if name == "greedy":
        return GreedyPolicy()
    raise UnknownPolicyError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
