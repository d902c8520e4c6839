"""Plain-data views for the front end: everything JSON-ready and computed by the engine."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from factories import skirmish_duel

from hexcombat import Action, Encounter, Hex
from hexcombat.view import (
    actions_view,
    empty_encounter,
    encounter_view,
    reach_view,
    rulesets_view,
    side_colors,
    sight_view,
    starter_ruleset,
    tokens,
)

pytestmark = pytest.mark.pyodide


def test_encounter_view_is_json_and_describes_board_figures_and_time() -> None:
    enc = skirmish_duel()
    view = encounter_view(enc)
    json.dumps(view)
    time = view["time"]
    assert time["label"] == "Round 1 · Movement"
    assert time["units"] == [{"unit": "round", "number": 1, "label": "Round 1"}]
    assert [s["state"] for s in time["steps"]] == ["current", "next"]
    assert time["acting"]["mode"] == "all" and time["acting"]["hidden"] is False
    assert time["acting"]["text"] == "Ann Archer and Bo Brute act"
    assert time["next"] == {"label": "Finish: Movement", "blocked": ""}
    assert view["prompt"] is None
    assert view["board"]["width"] == 8 and view["board"]["terrain"]["3,1"] == "woods"
    ann = view["figures"][0]
    assert (ann["id"], ann["initials"], ann["color"], ann["out"]) == ("ann", "AA", "#2f6fd6", False)
    assert view["sides"] == {"Blue": "#2f6fd6", "Red": "#c8402a"}
    assert [a["kind"] for a in view["table_actions"]] == ["next_step"]
    assert not view["can_undo"] and not view["started"]


def test_badges_show_wounds_and_statuses() -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    bo = next(f for f in encounter_view(enc)["figures"] if f["id"] == "bo")
    assert bo["badges"] == ["wounded"] and bo["pools"]["hp"] == {"current": 8, "maximum": 12}
    assert [t.badges for t in tokens(enc.state)] == [(), ("wounded",)]


def test_actions_reach_and_sight_views() -> None:
    enc = skirmish_duel()
    kinds = [a["kind"] for a in actions_view(enc, "ann")]
    assert kinds == ["move", "face"]
    reach = reach_view(enc, "ann")
    assert reach["1,1"] == 0 and reach["3,1"] == 3 and "5,0" not in reach
    sight = sight_view(enc, "ann", Hex(6, 1))
    assert sight["distance"] == 5 and sight["from"] == "1,1"
    assert isinstance(sight["clear"], bool) and sight["reason"]


def test_rulesets_view_lists_options_fields_terrain_and_steps() -> None:
    views = {v["id"]: v for v in rulesets_view()}
    sk = views["skirmish"]
    json.dumps(sk)
    assert [s["id"] for s in sk["steps"]] == ["move", "attack"]
    assert {f["name"] for f in sk["figure_fields"]} >= {"move", "attack", "defence", "hp"}
    assert [t["id"] for t in sk["terrain"]][:2] == ["open", "woods"]


def test_side_colours_follow_the_sides_whoever_was_placed_first() -> None:
    enc = skirmish_duel()
    assert side_colors(reversed(list(enc.state.figures.values()))) == {
        "Red": "#c8402a",  # a side named after a colour is drawn in it, placed first or not
        "Blue": "#2f6fd6",
    }
    renamed = [replace(f, side=f"{f.side}s band") for f in enc.state.figures.values()]
    assert side_colors(reversed(renamed)) == {  # other names: first appearance
        "Reds band": "#2f6fd6",
        "Blues band": "#c8402a",
    }


def test_the_page_gets_the_rulesets_words_for_actions_figures_and_badges() -> None:
    enc = skirmish_duel()
    words = {a["kind"]: a["words"] for a in actions_view(enc, "ann")}
    assert words == {"move": {"cost_unit": "MP", "confirm": "Move here"}, "face": {}}
    assert [a["words"] for a in encounter_view(enc)["table_actions"]] == [{}]
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    bo = next(f for f in encounter_view(enc)["figures"] if f["id"] == "bo")
    assert bo["badge_colors"] == {"wounded": "#c0392b"}
    assert bo["labels"]["hp"] == "Hit points" and bo["labels"]["done_this_step"] == "Done this step"
    assert bo["idle"] == ""


def test_a_new_empty_encounter_uses_the_starter_ruleset() -> None:
    assert starter_ruleset().id == "skirmish"
    enc = empty_encounter()
    assert (enc.ruleset.id, enc.setup.name, enc.setup.figures) == ("skirmish", "New encounter", ())


def test_a_copy_of_an_encounter_is_independent_and_not_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.undo()
    monkeypatch.setattr(Encounter, "_replay", lambda *a: pytest.fail("replayed"))
    twin = enc.copy()
    twin.perform(Action("move", "bo", {"to": "4,2"}))
    assert (len(enc.log), enc.cursor, enc.can_redo) == (2, 1, True)
    assert (len(twin.log), twin.cursor, twin.can_redo) == (2, 2, False)
    assert enc.state.figure("bo").position == Hex(4, 1)


def test_the_turn_line_names_only_figures_offered_an_action() -> None:
    """Skirmish attacks with nobody adjacent: nobody is offered an action, so the turn line
    waits for nobody (it said "2 to act" while the panel said nobody had anything left)."""
    enc = skirmish_duel()  # Ann and Bo stand three hexes apart
    enc.perform(Action("next_step"))
    acting = encounter_view(enc)["time"]["acting"]
    assert enc.legal_actions("ann") == enc.legal_actions("bo") == []
    assert acting["figures"] == ["ann", "bo"] and acting["waiting"] == []
    assert acting["text"] == "Nobody has to act"
    enc.undo()
    enc.perform(Action("move", "ann", {"to": "3,1"}))  # now beside Bo, and done moving
    acting = encounter_view(enc)["time"]["acting"]
    assert enc.legal_actions("ann") == [] and acting["waiting"] == ["bo"]
    assert acting["text"] == "Bo Brute acts"


def test_the_view_and_the_tables_turn_ask_each_figures_offers_once_per_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page draws the view and, hosting a table, its turn line after every entry: both
    read who is offered an action from the encounter's offers, worked out once per state."""
    from hexcombat.table.seats import Seats, turn_view

    enc = skirmish_duel()
    ruleset = type(enc.ruleset)
    asked: list[str | None] = []
    original = ruleset.legal_actions

    def counted(self: Any, state: Any, figure_id: str | None = None) -> Any:
        asked.append(figure_id)
        return original(self, state, figure_id)

    monkeypatch.setattr(ruleset, "legal_actions", counted)
    encounter_view(enc)
    turn_view(enc, Seats("host"), ())
    encounter_view(enc)
    figures = [f.id for f in enc.state.figures.values()]
    assert sorted(f for f in asked if f is not None) == sorted(figures)
