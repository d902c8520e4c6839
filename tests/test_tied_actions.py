"""A table action whose rule ties it to a time (``ActionSpec.tied_to``) is offered only then."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from factories import skirmish_duel

from hexcombat import Action
from hexcombat.actions import ActionSpec
from hexcombat.rulesets import registry
from hexcombat.rulesets.skirmish import Skirmish
from hexcombat.state import GameState

pytestmark = pytest.mark.pyodide


class AfterTheFight(Skirmish):
    """Skirmish with a morning-after table action tied to the end of the fight."""

    def table_actions(self, state: GameState) -> list[ActionSpec]:
        return [ActionSpec("morning", "Next morning: bind wounds", tied_to="fight_over")]


@pytest.fixture
def after_the_fight(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry._REGISTRY, "skirmish", AfterTheFight())
    yield


@pytest.mark.usefixtures("after_the_fight")
def test_a_tied_action_is_offered_only_once_the_fight_is_over() -> None:
    bo = skirmish_duel().setup_figure("bo")
    bo.stats["hp"] = 1
    enc = skirmish_duel().with_figure(bo)
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    assert [s.kind for s in enc.legal_actions(None)] == ["next_step"]
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[20, 6])  # Bo falls
    assert enc.ruleset.fight_outcome(enc.state) is not None
    assert [s.kind for s in enc.legal_actions(None)] == ["morning", "next_step"]


def test_tied_to_names_a_known_time() -> None:
    with pytest.raises(ValueError, match="tied_to must be one of"):
        ActionSpec("later", "Later", tied_to="tomorrow")
