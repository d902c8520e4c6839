"""The autopilot: the app plays a side, in any ruleset, from what that side may see.

:class:`Autopilot` (a temperament: aggressive or careful) scores each offered action by
imagining it with its own dice on the side's view of the state and explains its choice
(:class:`Decision`); :class:`RandomPolicy`, :class:`RushPolicy` and :class:`GreedyPolicy`
are the baselines; :class:`Referee` and :func:`play_game` play whole games between policies.
"""

from __future__ import annotations

from hexcombat.autopilot.baselines import GreedyPolicy, RandomPolicy, RushPolicy
from hexcombat.autopilot.pilot import Autopilot
from hexcombat.autopilot.play import GameResult, Referee, play_game
from hexcombat.autopilot.players import POLICIES, UnknownPolicyError, make_policy
from hexcombat.autopilot.policy import Decision, Policy, Turn
from hexcombat.autopilot.scoring import TEMPERAMENTS, Temperament

__all__ = [
    "POLICIES",
    "TEMPERAMENTS",
    "Autopilot",
    "Decision",
    "GameResult",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "Referee",
    "RushPolicy",
    "Temperament",
    "Turn",
    "UnknownPolicyError",
    "make_policy",
    "play_game",
]
