"""The ``two-action-2d10`` ruleset: two hidden actions a round, 2d10 attack against defence.

A round (TA-27) is: everyone declares two actions in secret (TA-1..TA-5),
revealed together; prepared missiles are shot (TA-22); movement (TA-23..TA-25);
combat in strike order by weapon, skill and ceding (TA-13..TA-19), each blow
answered by the target's declared Parry, Block or Dodge (a prompt, TA-6, TA-7)
and each result applied at once (TA-13); then counter-strikes (TA-17, I-3).
"""

from __future__ import annotations

from collections.abc import Mapping

from hexcombat.figures import Figure, Pool, Status
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.manifest import Manifest
from hexcombat.rulesets.registry import register
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.fields import DATA, FIELDS, HEALTH
from hexcombat.rulesets.two_action_2d10.options import DOC_NOTES, OPTIONS, TIME
from hexcombat.rulesets.two_action_2d10.perform import Perform
from hexcombat.rulesets.two_action_2d10.state import FigureBook
from hexcombat.rulesets.two_action_2d10.words import Words
from hexcombat.state import GameState
from hexcombat.validation import Json, copy_json

OUT = ("down", "dead", "incapacitated")
"""Out of the fight: down at 0 body points (R-5), dead (TA-12) or incapacitated (D-7)."""
LYING_SHIELD = ("dropped", "torn away")
"""How a lost shield came to lie on the field (D-3, D-7): a character can pick it up."""

__all__ = ["DATA", "TwoAction2d10"]


@register
class TwoAction2d10(Words, Perform):
    """Two actions a round, 2d10 (or 3d10 keep two) against defence, strike order by weapon."""

    id = "two-action-2d10"
    name = "Two actions, 2d10"
    summary = (
        "Two hidden actions a round (or both on one: 3d10 keep two); 2d10 + skill + weapon "
        "against defence; strike order by weapon; Parry, Block, Dodge; hit and body points."
    )
    default_die = 10
    carries_equipment = False  # weapon, missile and armour are figure fields (TA-14, TA-24)
    out_statuses = OUT
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    tables = DATA
    doc_notes = DOC_NOTES
    manifest = Manifest.built_in(
        id,
        prefix="TA",
        gap_letters="DIR",
        rules=27,
        position=4,
        tagline="two secret actions a round, 2d10 against defence.",
        demo_about=(
            "One round of the two-action-2d10 rules: both fighters declare two actions in secret;"
            " Bo puts both into one spear attack (3d10 keep the best two), the Spear strikes "
            "before the Axe, Ann parries, and the hit's torso result costs Ann her later Axe "
            "blow. Press Redo to step through it."
        ),
    )

    # ---- set-up ----------------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """Weapons, missiles, armour and the hit-location table (house defaults, D-4, D-6)."""
        return {k: copy_json(DATA[k]) for k in ("weapons", "missiles", "armour", "locations")}

    def start(self, state: GameState) -> None:
        """Hit points and body points from Health (TA-12, D-8), then the first step."""
        base = int_or(state.options.get("ta.hp_base"), 10)
        for f in state.figures.values():
            hp, bp = R.vitality(HEALTH(f), base)
            f.pools.setdefault("hp", Pool(hp, hp))
            f.pools.setdefault("bp", Pool(bp, bp))
        self.start_step(state)

    def roster_statuses(self, figure: Figure, gather_dropped: bool) -> dict[str, Status]:
        """Not kept: a stagger (the next round's action, D-7), a lock (on a foe of this fight,
        D-14) and incapacitation (for the rest of the combat, D-7); a dropped weapon or a
        shield dropped or torn away is picked up under ``roster.gather_dropped``."""
        fight_only = {"staggered", "locked", "incapacitated"}
        if gather_dropped:
            fight_only.add("dropped_weapon")
        return {
            k: s
            for k, s in figure.statuses.items()
            if k not in fight_only
            and not (gather_dropped and k == "shield_lost" and s.note in LYING_SHIELD)
        }

    def roster_memory(self, figure: Figure) -> dict[str, Json]:
        """A missile loaded in the fight stays loaded for the next (TA-22)."""
        return FigureBook(figure).kept_after_fight()

    def autopilot_hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """``unready`` while the figure's weapon lies on the ground or it lies prone: a
        Recover action fixes both (TA-11, R-3), which the autopilot cannot see pay off
        within its look ahead; ``facing`` 0: facing steers only movement (TA-23, D-12)."""
        down = figure.has_status("dropped_weapon") or figure.has_status("prone")
        return {"unready": 1.0, "facing": 0.0} if down else {"facing": 0.0}

    def invariant_problems(self, state: GameState) -> list[str]:
        """The engine's invariants, hit points never below 0 (TA-12), and nobody out of the
        fight waiting to act."""
        problems = super().invariant_problems(state)
        for f in state.figures.values():
            hp = f.pools.get("hp")
            if hp is not None and hp.current < 0:
                problems.append(f"{f.id}.hp is {hp.current}, below 0 (TA-12)")
        out = {f.id for f in state.figures.values() if self.is_out(state, f)}
        if state.prompt is None and out & set(self.who_acts(state).now()):
            problems.append(f"{sorted(out)} are out of the fight but act now")
        return problems
