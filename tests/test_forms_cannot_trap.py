"""Forms that cannot trap a player, engine side: a form starts only with values its lists
offer (:func:`~hexcombat.schema.settle`), a Suggest fills only what the form can submit, a
secret choice the engine would refuse is refused by its preview with the reason, and the
turn line says when the app is done with the figures it plays."""

from __future__ import annotations

import doctest

import manifests
import pytest

from hexcombat import Action, Encounter, editing, schema
from hexcombat.autopilot.view import app_move, left_by_app, played_by, suggest_view
from hexcombat.view import encounter_view
from web.play.cards import defaults
from web.play.table import turn_line
from web.ui import toast


def test_settle_item_facts_and_toast_place_doctests_pass() -> None:
    assert doctest.testmod(schema).failed == 0
    assert doctest.testmod(editing).failed == 0
    assert doctest.testmod(toast).failed == 0


def test_d_18_a_fresh_declaration_starts_with_no_brawl_style_and_needs_its_target() -> None:
    enc = manifests.demo("two-action-2d10")
    spec = enc.legal_actions("ann")[0]
    start = defaults(spec.to_json(), {})
    assert "style" not in start  # no brawl declared: the hidden Brawl field is not sent
    preview = enc.preview(Action("declare", "ann", start))
    assert not preview.allowed
    assert "needs a target" in preview.reason
    chosen = enc.preview(
        Action("declare", "ann", defaults(spec.to_json(), {"target": "bo", "guard": "bo"}))
    )
    assert chosen.allowed, chosen.reason


@pytest.mark.parametrize("ruleset_id", manifests.every_id())
def test_a_suggestion_fills_only_what_its_form_can_submit(ruleset_id: str) -> None:
    enc = manifests.demo(ruleset_id)
    while not any(enc.legal_actions(f) for f in enc.state.figures):
        enc.perform(Action("next_step"))  # a step of the table's first
    fid = next(f for f in enc.state.figures if enc.legal_actions(f))
    found = suggest_view(enc, fid)
    action = found["action"]
    if not isinstance(action, dict):
        pytest.skip(f"nothing suggested for {fid}: {found['reason']}")
    spec = next(s for s in enc.legal_actions(fid) if s.kind == action["kind"])
    params = dict(action.get("params") or {})
    assert defaults(spec.to_json(), params) == schema.settle(spec.params, params)
    filled = schema.settle(spec.params, params)
    assert {k: filled[k] for k in params} == params, "the form drops a suggested value"
    assert enc.preview(Action(spec.kind, fid, filled)).allowed


def app_passes() -> tuple[Encounter, list[str]]:
    """fig-percentile's demo with one side played by the app (careful), played on (the other
    side as the app would play it) until the app leaves figures it may move as they are."""
    enc = manifests.demo("fig-percentile")
    side, people = list(dict.fromkeys(f.side for f in enc.state.figures.values()))[:2]
    enc = played_by(enc, side, "careful")
    for _ in range(80):
        move = app_move(enc)
        if move is not None:
            enc.perform(Action.from_json(move["action"]), note=str(move["note"]))
            continue
        left = left_by_app(enc)
        if left:
            return enc, left
        if any(s.kind == "next_step" for s in enc.legal_actions(None)):
            enc.perform(Action("next_step"))
        else:  # the people's figures must act first: as the app would play them
            theirs = app_move(played_by(enc, people, "aggressive"))
            assert theirs is not None
            enc.perform(Action.from_json(theirs["action"]))
    raise AssertionError("the app never passed")


def test_the_turn_line_says_when_the_app_is_done_with_the_figures_it_plays() -> None:
    enc, left = app_passes()
    view = encounter_view(enc)
    waiting = view["time"]["acting"]["waiting"]
    assert set(left) <= set(waiting)
    line = turn_line(view, left)
    names = [enc.state.figures[fid].name for fid in left]
    assert "the app is done with" in line.lower() and all(n in line for n in names), line
    assert "app" not in turn_line(view)


def test_the_words_of_a_cost_and_a_question_read_as_a_person_says_them() -> None:
    from web.ui.words import counted

    assert [counted(1, "hexes"), counted(3, "hexes"), counted(1, "MP")] == ["hex", "hexes", "MP"]
    enc = manifests.demo("skirmish")
    view = encounter_view(enc)
    view["prompt"] = {
        "figure_name": "Sword Sam",
        "question": "Sword Sam: which attack do you dodge?",
    }
    assert turn_line(view).endswith("Sword Sam must answer: which attack do you dodge?")


def test_a_suggestion_that_rolls_nothing_now_says_its_damage_comes_later() -> None:
    from factories import skirmish_duel

    from hexcombat.actions import ActionSpec
    from hexcombat.autopilot.explain import Imagined, reason
    from hexcombat.rulesets.base import Preview

    enc = skirmish_duel()
    spec = ActionSpec("reload", "Reload the Crossbow", "ann")
    action = Action("reload", "ann")
    words = reason(enc.state, spec, action, Preview(action, True), Imagined(dealt=8.0))
    assert words == "Reload the Crossbow: about 8.0 damage expected over the next moves"


@pytest.mark.parametrize("ruleset_id", manifests.every_id())
def test_c_1_a_fight_that_cannot_end_under_its_options_says_so_and_which_let_it(
    ruleset_id: str,
) -> None:
    ruleset = manifests.demo(ruleset_id).ruleset
    note = ruleset.ending_note(ruleset.default_options())
    if ruleset_id == "fig-percentile":  # hits only recorded (G-2)
        assert "cannot end" in note and "'Damage'" in note and "'Hit points'" in note
        assert ruleset.ending_note({**ruleset.default_options(), "fp.damage_model": "hp"}) == ""
        return
    if ruleset_id != "combat-speed-phase":
        assert note == ""
        return
    assert "cannot end" in note and "Who resolves a strike" in note  # movement only (C-1)
    gm = {**ruleset.default_options(), "csp.combat_resolver": "gm"}
    assert ruleset.ending_note(gm) == ""
    enc = manifests.demo(ruleset_id)
    assert encounter_view(enc)["ending"] == ruleset.ending_note(enc.state.options)
