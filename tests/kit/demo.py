"""The kit-duel demo: the duel of ``tests/test_kit_ruleset.py`` with its first stances and
strike in the log, rewound (the conformance suite plays from its start and its end)."""

from __future__ import annotations

import dataclasses

from hexcombat import Action, Encounter
from hexcombat.geometry import Hex

ROWS = (
    ("ann", "Ann Blade", "Blue", Hex(3, 3), 0, {"weapons": "sword,dagger"}, ()),
    ("cy", "Cy Knife", "Red", Hex(3, 3), 0, {"weapons": "dagger", "skill": 2}, ()),
    ("bo", "Bo Pike", "Red", Hex(3, 2), 3, {"weapons": "spear", "defence": 2}, ()),
    ("horse", "Warhorse", "Blue", Hex(4, 2), 0, {"weapons": "hooves", "skill": 1}, (Hex(0, 1),)),
)


def demo() -> Encounter:
    """Ann and her two-hex Warhorse against Bo and Cy (who shares Ann's hex); one round of
    stances in the log, the cursor at the start."""
    enc = Encounter.new("kit-duel", 8, 8, name="Kit duel", seed=3)
    for fid, name, side, at, facing, stats, footprint in ROWS:
        f = enc.ruleset.new_figure(fid, name, side, at, facing)
        enc = enc.with_figure(
            dataclasses.replace(f, stats={**f.stats, **stats}, footprint=footprint)
        )
    for fid, stance in (("cy", "cede"), ("ann", "press"), ("horse", "press"), ("bo", "press")):
        enc.perform(Action("stance", fid, {"stance": stance}))
    while enc.can_undo:
        enc.undo()
    return enc
