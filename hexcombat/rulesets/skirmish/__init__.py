"""``skirmish``: a small built-in ruleset that exercises the engine core end to end.

It is not one of the four source rulesets. Each round has a movement step
(every figure may move up to its Move in movement points, paying terrain
costs, and face any way) and an attack step (one melee attack on an adjacent
enemy, or one sharing its hex when ``skirmish.stacking`` allows: d20 + Attack
meets or beats Defence, +2 from the target's rear hexes; a hit deals the
attacker's damage dice to the target's hit points). A figure covering several
hexes (a footprint) moves and turns as one body. The attack previews and rolls
as a chain: hit -> damage.

Options, figure fields and time in :mod:`.options`, the round's bookkeeping in
:mod:`.state`, the attack in :mod:`.resolve`, the class in :mod:`.ruleset`.
"""

from __future__ import annotations

from hexcombat.rulesets.skirmish.ruleset import Skirmish

__all__ = ["Skirmish"]
