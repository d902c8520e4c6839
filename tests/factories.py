"""Small encounters built through the public API, shared by the engine tests."""

from __future__ import annotations

from hexcombat import Encounter, Hex
from hexcombat.encounter import Setup


def skirmish_duel(seed: int = 7) -> Encounter:
    """An 8x6 skirmish board with some terrain and two figures facing each other."""
    enc = Encounter.new("skirmish", 8, 6, name="Duel", seed=seed)
    enc = enc.painted([Hex(3, 1), Hex(3, 2)], "woods").painted([Hex(5, 0)], "wall")
    rs = enc.ruleset
    ann = rs.new_figure("ann", "Ann Archer", "Blue", Hex(1, 1), 2)
    bo = rs.new_figure("bo", "Bo Brute", "Red", Hex(4, 1), 5)
    bo.stats.update(attack=5, defence=10, hp=12, damage="d8")
    return enc.with_figure(ann).with_figure(bo)


def setup_of(enc: Encounter) -> Setup:
    """The encounter's setup (for readability in tests)."""
    return enc.setup
