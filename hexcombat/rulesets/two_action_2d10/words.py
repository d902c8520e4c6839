"""The words of ``two-action-2d10`` for players: confirm buttons, range bands, why a figure
waits, badges and the figure panel's lines."""

from __future__ import annotations

from hexcombat.actions import ActionSpec
from hexcombat.figures import Figure
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.two_action_2d10.state import FigureBook, Readers
from hexcombat.state import GameState
from hexcombat.validation import Json

DEFENCE_WORDS = {"parry": "Parry", "block": "Block", "dodge": "Dodge"}
ANSWERS = {"parry": "parry", "block": "shield_block", "dodge": "dodge"}
"""The prompt's answer (action kind) for each declared defence."""

ADJUST_WORDS = {1: "+1 hex", 0: "As rolled", -1: "-1 hex"}
"""The second movement action's adjustment at choice (TA-25)."""


class Words(Readers):
    """Words and looks."""

    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """Confirm words of declarations, strikes and moves."""
        return {
            "declare": {"confirm": "Declare"},
            "strike": {"confirm": "Strike!"},
            "move": {"confirm": "Move here"},
        }.get(spec.kind, {})

    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """D-15 (TA-22): whether ``distance`` is within ``figure``'s missile weapon's maximum
        range (there are no range modifiers); '' without a figure or a missile weapon."""
        if figure is None:
            return ""
        name, row = self.missile(state, figure)
        reach = int_or(row.get("range"), 0)
        if reach < 1 or distance < 1:
            return ""
        words = name.replace("_", " ")
        where = "in range" if distance <= reach else "out of range"
        return f"{where} of the {words} ({reach} hexes, D-15)"

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure waits now."""
        if state.clock.step == "combat" and figure.id in self.round_of(state).stopped:
            return f"{figure.name}'s blow was stopped by an earlier result (TA-13)."
        if state.clock.step in ("combat", "missiles", "riposte"):
            if figure.id in self.round_of(state).done:
                return f"{figure.name} has struck or held this step (TA-13)."
            if figure.id in self.who_acts(state).figures:
                return f"{figure.name} waits for its place in the strike order (TA-14)."
            return f"{figure.name} has no blow to strike in this step (TA-27)."
        if state.clock.step == "movement" and figure.id in self.round_of(state).moved:
            return f"{figure.name} has moved this round: free movement is taken once (D-12)."
        return ""

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """Statuses, wounds, 'cedes' and 'closed'."""
        words = super().badges(state, figure)
        acts = self.actions_of(state, figure.id)
        if "dodge" in acts or "wait" in acts:
            words.append("cedes")
        if self.closed_with(state, figure.id):
            words.append("closed")
        return words

    def badge_color(self, badge: str) -> str:
        """Ceding in amber, closed in dark red."""
        return {"cedes": "#b7791f", "closed": "#7b241c"}.get(badge, super().badge_color(badge))

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Passive defence and the revealed declaration."""
        plan = self.plan(state, figure.id)
        acts = " + ".join(plan.get("actions", [])) + (" (combined)" if plan.get("combine") else "")
        return {
            "ta_passive": self.passive(state, figure),
            "ta_declared": acts,
            "ta_loaded": FigureBook(figure).loaded,
        }

    def view_label(self, key: str) -> str:
        """Names of the figure view's keys."""
        return {
            "ta_passive": "Passive defence",
            "ta_declared": "Declared",
            "ta_loaded": "Missile loaded",
            "hp": "Hit points",
            "bp": "Body points",
        }.get(key, super().view_label(key))
