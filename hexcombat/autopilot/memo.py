"""What one decision asks the rules, kept per state, and the engine calls it has spent: the
counted budget that keeps a decision fast and the same on every machine (never a clock).

A state the autopilot imagines is never changed once made (every action is imagined on a
copy), so the answers about it can be kept by its id; the state is held so that the id stays
its own for the whole decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from hexcombat.actions import Action, ActionSpec
from hexcombat.autopilot.odds import damage_odds
from hexcombat.checks import Rollable
from hexcombat.figures import Figure
from hexcombat.rulesets.base import Outcome, Preview
from hexcombat.state import GameState
from hexcombat.time import Acting


class Memo:
    """The rules' answers about the states of one decision, and the engine calls spent:
    every imagined resolution and every offer the rules worked out counts one."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget
        """The engine calls the decision may spend (None: no limit)."""
        self.spent = 0
        self._held: dict[int, GameState] = {}
        self._offers: dict[tuple[int, str | None], list[ActionSpec]] = {}
        self._acting: dict[int, Acting] = {}
        self._outcome: dict[int, Outcome | None] = {}
        self._previews: dict[tuple[int, str], Preview] = {}
        self._odds: dict[Rollable, dict[int, Fraction] | None] = {}
        self._hints: dict[tuple[int, str], Mapping[str, float]] = {}

    def left(self) -> int:
        """The engine calls still to spend (a large number when unlimited)."""
        return 1 << 30 if self.budget is None else self.budget - self.spent

    def legal(self, state: GameState, figure_id: str | None) -> list[ActionSpec]:
        """``state.ruleset.legal_actions(state, figure_id)``, worked out once per state."""
        key = (self._hold(state), figure_id)
        found = self._offers.get(key)
        if found is None:
            self.spent += 1
            found = self._offers[key] = state.ruleset.legal_actions(state, figure_id)
        return found

    def acting(self, state: GameState) -> Acting:
        """``state.ruleset.who_acts(state)``, once per state."""
        key = self._hold(state)
        if key not in self._acting:
            self._acting[key] = state.ruleset.who_acts(state)
        return self._acting[key]

    def outcome(self, state: GameState) -> Outcome | None:
        """``state.ruleset.fight_outcome(state)``, once per state."""
        key = self._hold(state)
        if key not in self._outcome:
            self._outcome[key] = state.ruleset.fight_outcome(state)
        return self._outcome[key]

    def preview(self, state: GameState, action: Action) -> Preview:
        """``state.ruleset.preview(state, action)``, once per state and action."""
        key = (self._hold(state), repr((action.kind, action.figure, sorted(action.params.items()))))
        found = self._previews.get(key)
        if found is None:
            found = self._previews[key] = state.ruleset.preview(state, action)
        return found

    def hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """``state.ruleset.autopilot_hints(state, figure)``, once per state and figure (a
        state's value asks for them several times a figure)."""
        key = (self._hold(state), figure.id)
        found = self._hints.get(key)
        if found is None:
            found = self._hints[key] = state.ruleset.autopilot_hints(state, figure)
        return found

    def odds(self, rollable: Rollable) -> dict[int, Fraction] | None:
        """:func:`~.exact.damage_odds` of ``rollable``, once per equal rollable (the same
        blow met the same way in many imagined states)."""
        if rollable not in self._odds:  # a frozen rollable: equal ones hash alike
            self._odds[rollable] = damage_odds(rollable)
        return self._odds[rollable]

    def _hold(self, state: GameState) -> int:
        key = id(state)
        self._held.setdefault(key, state)
        return key
