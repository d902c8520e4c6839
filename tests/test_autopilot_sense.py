"""The autopilot plays as a player would call sensible: it takes a good blow offered rather
than holding, readies its own ranked weapon rather than a foe's, faces a foe it can strike,
and says so when a figure has nothing useful to do."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from strike_chance_pulse_fixtures import duel, initiative

from hexcombat import Encounter
from hexcombat.autopilot import Autopilot
from hexcombat.rulesets.strike_chance_pulse.ground import drop

pytestmark = pytest.mark.pyodide


def disarmed_bo() -> Encounter:
    """strike-chance-pulse: Bo (Broadsword at Rank 2, no shield) has dropped his sword at his
    feet beside Ann's Spear (he has no Rank with spears); he acts first this Pulse."""
    enc = duel()
    ann, bo = enc.state.figures["ann"], enc.state.figures["bo"]
    bo.equipment = [i for i in bo.equipment if i.kind == "weapon"]
    drop(bo, bo.equipment[0])
    ann.equipment.append(enc.ruleset.item("Spear"))
    drop(bo, ann.equipment[-1])
    initiative(enc, [1, 10])
    return enc


def test_a_disarmed_figure_picks_up_its_own_ranked_weapon_not_a_foes() -> None:
    """The knight picked up the foe's Spear (unranked) over his own Broadsword (Rank 3), or
    charged bare-handed at 14%: a weapon in hand counted alike whatever its Strike Chance,
    and walking away from his sword lost nothing. The rules' ``unready`` hint now measures
    what he holds against the best weapon of his own or in reach."""
    enc = disarmed_bo()
    offered = [s for s in enc.legal_actions("bo") if s.kind == "prepare"]
    assert [c.value for c in offered[0].params[0].choices] == ["ann/Spear", "Broadsword"]
    decision = Autopilot("aggressive").decide(enc, "Red")
    assert decision is not None
    assert (decision.action.kind, decision.action.params) == ("prepare", {"item": "Broadsword"})
    hints = enc.ruleset.autopilot_hints
    bo = enc.state.figures["bo"]
    assert hints(enc.state, bo)["unready"] > 0.5  # bare hands against his Broadsword
    enc.perform(decision.action)
    assert hints(enc.state, enc.state.figures["bo"])["unready"] == 0
