"""combat-speed-phase planning by rule id: plans through hexes that empty on the way (C-11),
when the speed multiples are revealed (C-7, C-12), which of equally cheap plans is made
(CSP-5), who the turn line names, the ruleset's own refusals and the players' words."""

from __future__ import annotations

import re

import pytest
from combat_speed_phase_fixtures import (
    act,
    add,
    arena,
    choices,
    declare,
    half,
    kinds,
    last,
    next_step,
    row,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.document import to_document
from hexcombat.geometry import neighbor
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide


def chase(**speeds: int) -> Encounter:
    """Leader (row 4) and pursuer (row 6, two hexes behind), both CS 4 facing north, N
    declared; half-phase 1 (2 hexes each at N = 1) is under way."""
    enc = arena(width=5, height=10)
    enc = add(enc, "leader", (2, 4), side="A", cs=4)
    enc = add(enc, "pursuer", (2, 6), side="B", cs=4)
    declare(enc, **speeds)
    assert enc.state.step.id == "move"
    return enc


def test_c_11_a_pursuer_two_hexes_behind_may_follow_into_the_hex_its_quarry_leaves() -> None:
    enc = chase(leader=1, pursuer=1)
    half(enc, leader=row(2), pursuer=row(4))
    pursuer = last(enc, "move", "pursuer")
    assert not pursuer.data["stopped"] and pursuer.data["hexes"] == 2
    assert str(enc.state.figures["pursuer"].position) == row(4)
    assert str(enc.state.figures["leader"].position) == row(2)


def test_c_11_a_step_into_a_hex_still_occupied_at_that_tick_stops() -> None:
    enc = chase(leader=1, pursuer=1)
    half(enc, leader=row(4), pursuer=row(4))  # the leader stays
    assert last(enc, "move", "pursuer").data["stopped"]
    assert str(enc.state.figures["pursuer"].position) == row(5)
    assert str(enc.state.figures["leader"].position) == row(4)


def test_c_11_a_figure_standing_still_this_phase_holds_its_hex() -> None:
    enc = chase(leader=0, pursuer=1)  # asked to plan like everyone, lest N = 0 show (C-7)
    assert choices(enc, "leader", "plan_half", "to") == [row(4)]
    half(enc, pursuer=row(4))  # into the hex the leader keeps
    assert last(enc, "move", "pursuer").data["stopped"]
    assert str(enc.state.figures["pursuer"].position) == row(5)


def test_csp_8_the_turn_line_in_combat_names_only_figures_with_a_strike() -> None:
    enc = arena({"csp.combat_resolver": "gm"}, width=5, height=10)
    enc = add(enc, "ann", (2, 4), side="A", facing=3)
    enc = add(enc, "bob", (2, 5), side="B", facing=3)  # Ann in his rear: he cannot strike
    declare(enc, ann=0, bob=0)
    next_step(enc)
    next_step(enc)
    assert enc.state.step.id == "combat"
    acting = enc.ruleset.who_acts(enc.state)
    assert acting.now() == ("ann",)
    assert [f for f in enc.state.figures if enc.legal_actions(f)] == ["ann"]
    assert acting.text({"ann": "Ann", "bob": "Bob"}).startswith("Ann acts")
    act(enc, "strike", "ann", weapon="Short sword", target="bob", outcome="miss")
    assert enc.ruleset.who_acts(enc.state).now() == ()


def cs_3_walker() -> tuple[Encounter, list[str]]:
    """Ann (CS 3, N = 1: 2 + 1 hexes) standing still at row 6 facing north; the hexes of her
    column northward from her own."""
    enc = arena(width=9, height=12)
    enc = add(enc, "ann", (2, 6), side="A")
    enc = add(enc, "foe", (8, 0), side="B", facing=3)
    declare(enc, ann=1, foe=0)
    return enc, [row(6 - k) for k in range(4)]


def test_csp_5_csp_6_the_texts_second_cs_3_example_plays_as_written() -> None:
    """'Move 1 hex forward, change facing 1 hex side, move 1 hex forward': planned by
    destination and facing alone, the first half is forward then turn (not turn then
    side-step), so the second half's forward step is possible."""
    enc, column = cs_3_walker()
    half(enc, ann={"to": column[1], "facing": 1})
    first = last(enc, "move", "ann")
    assert first.data["motion"] == "F" and first.data["spent"] == 2
    assert [d.split(" ")[0] for d in first.details] == ["enters", "turns"]
    next_step(enc)
    ahead = str(neighbor(enc.state.figures["ann"].position, 1))
    half(enc, ann={"to": ahead, "facing": 1})
    second = last(enc, "move", "ann")
    assert second.data["hexes"] == 1 and second.data["motion"] == "F"
    assert enc.state.figures["ann"].facing == 1


def test_csp_5_the_texts_first_and_third_cs_3_examples_play_as_written() -> None:
    enc, column = cs_3_walker()
    half(enc, ann=column[2])  # 1) three hexes straight: two now
    next_step(enc)
    half(enc, ann=column[3])
    assert last(enc, "move", "ann").data["motion"] == "F"
    enc, column = cs_3_walker()
    half(enc, ann={"to": column[1], "motion": "B"})  # 3) forward, change to the rear
    next_step(enc)
    half(enc, ann=column[0])  # and one hex backward
    assert str(enc.state.figures["ann"].position) == column[0]
    assert enc.state.figures["ann"].facing == 0


def test_csp_9_a_plan_out_of_reach_is_refused_with_the_rule_it_breaks() -> None:
    enc, column = cs_3_walker()
    before = to_document(enc)
    with pytest.raises(IllegalActionError) as refused:
        act(enc, "plan_half", "ann", to=column[3])
    assert str(refused.value) == (
        "Ann cannot reach C4 with 2 hexes in this half-phase (CSP-6, CSP-9, CSP-15)"
    )
    assert "offered" not in enc.preview(Action("plan_half", "ann", {"to": column[3]})).reason
    assert to_document(enc) == before


def test_csp_13_a_declaration_not_offered_is_refused_with_the_rule_it_breaks() -> None:
    enc = arena(width=5, height=10)
    enc = add(enc, "ann", (2, 4), side="A")
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match=r"^Ann cannot declare N = 3 now: .*CSP-13"):
        act(enc, "declare_speed", "ann", n=3)
    with pytest.raises(
        IllegalActionError,
        match=r"must be one of 0: stand still, 1 x CS = 3 hexes \(2 \+ 1\), got 'fast'",
    ):
        act(enc, "declare_speed", "ann", n="fast")  # unreadable: the generic words stand
    assert to_document(enc) == before


def test_csp_17_a_strike_out_of_reach_is_refused_with_the_rule_it_breaks() -> None:
    enc = arena({"csp.combat_resolver": "gm"}, width=5, height=10)
    enc = add(enc, "ann", (2, 4), side="A", facing=3)
    enc = add(enc, "bob", (2, 5), side="B", facing=0)
    enc = add(enc, "cy", (2, 8), side="B", facing=0)
    declare(enc, ann=0, bob=0, cy=0)
    next_step(enc)
    next_step(enc)
    with pytest.raises(IllegalActionError, match=r"reach") as refused:
        act(enc, "strike", "ann", weapon="Short sword", target="cy", outcome="miss")
    assert "offered" not in str(refused.value)


def extras(enc: Encounter) -> dict[str, dict[str, object]]:
    return {f["id"]: f["extra"] for f in encounter_view(enc)["figures"]}


def test_c_7_c_12_speeds_stay_secret_until_the_first_halfs_moves_are_revealed() -> None:
    enc = chase(leader=1, pursuer=1)
    assert [e.figure for e in enc.events if e.kind == "speed"] == [None]  # "every figure has"
    assert all("n_now" not in x and "phase_hexes" not in x for x in extras(enc).values())
    act(enc, "plan_half", "leader", to=row(2))
    assert [e.figure for e in enc.events if e.kind == "speed"] == [None]
    revealed = act(enc, "plan_half", "pursuer", to=row(4))
    order = [(e.kind, e.figure) for e in revealed if e.kind in ("speed", "move")]
    assert order == [
        ("speed", "leader"),
        ("speed", "pursuer"),
        ("move", "leader"),
        ("move", "pursuer"),
    ]
    assert revealed[1].data["n"] == 1 and extras(enc)["leader"]["n_now"] == 1


def test_c_7_c_12_a_first_half_without_movers_shows_the_speeds_as_it_ends() -> None:
    enc = chase(leader=0, pursuer=0)
    assert enc.state.step.id == "move" and not any(
        e.kind == "speed" and e.figure for e in enc.events
    )
    shown = next_step(enc)
    assert [e.figure for e in shown if e.kind == "speed"] == ["leader", "pursuer"]
    assert extras(enc)["pursuer"]["n_now"] == 0


LETTERS = re.compile(r"(?<![\w-])(?:F|FR|FL|B|BR|BL|NE|SE|S|SW|NW)(?![\w-])")
"""A direction as letters (front, back...; compass): a player reads words instead."""


def player_texts(enc: Encounter) -> list[str]:
    """What a player reads now: the log, the offered forms, the figure panels."""
    texts = [t for e in enc.events for t in (e.text, *e.details)]
    for fid in enc.state.figures:
        for spec in enc.legal_actions(fid):
            texts += [spec.label, spec.help]
            for p in spec.params:
                texts += [p.label, p.help, *(c.label for c in p.choices)]
    for panel in extras(enc).values():
        texts += [v for v in panel.values() if isinstance(v, str)]
    return texts


def test_csp_5_csp_6_directions_read_as_words_in_events_forms_and_refusals() -> None:
    enc, column = cs_3_walker()
    form = next(s for s in enc.legal_actions("ann") if s.kind == "plan_half")
    assert [c.label for c in form.param("motion").choices] == [
        "Front",
        "Front-right",
        "Back-right",
        "Back",
        "Back-left",
        "Front-left",
    ]
    half(enc, ann={"to": column[1], "motion": "B"})
    moved = last(enc, "move", "ann")
    assert "direction of motion front → back" in " ".join(moved.details)
    assert "enters" in moved.details[0] and "step to the front" in moved.details[0]
    assert extras(enc)["ann"]["motion_dir"] == "back"
    next_step(enc)
    with pytest.raises(IllegalActionError) as refused:
        act(enc, "plan_half", "ann", to=column[3], facing=1, motion="FL")
    assert "facing north-east moving to the front-left" in str(refused.value)
    texts = [*player_texts(enc), str(refused.value)]
    assert [t for t in texts if LETTERS.search(t)] == []


def test_csp_11_c6_a_backward_plan_while_running_is_refused_with_the_limit() -> None:
    enc, column = cs_3_walker()
    half(enc, ann=column[2])
    next_step(enc)
    half(enc, ann=column[3])
    next_step(enc)
    next_step(enc)  # a phase at Combat Speed: Ann may run (CSP-13)
    declare(enc, ann=3, foe=0)
    here = str(enc.state.figures["ann"].position)
    with pytest.raises(IllegalActionError) as refused:
        act(enc, "plan_half", "ann", to=here, motion="B")
    assert str(refused.value).startswith("Ann cannot reach ")
    assert "moving to the back: at N = 3, backward or oblique movement is limited to 2 x CS" in (
        str(refused.value)
    )
    assert str(refused.value).endswith("(CSP-11, C-6)")


def test_csp_8_once_the_fight_is_over_nobody_is_named_and_the_phase_can_end() -> None:
    enc = arena({"csp.combat_resolver": "gm"}, width=5, height=10)
    enc = add(enc, "ann", (2, 4), side="A", facing=3, hp=3)
    enc = add(enc, "bob", (2, 5), side="B", facing=0)
    declare(enc, ann=0, bob=0)
    next_step(enc)
    next_step(enc)
    act(enc, "strike", "bob", weapon="Short sword", target="ann", outcome="hit", damage=3)
    assert enc.ruleset.fight_outcome(enc.state) is not None
    next_step(enc)  # the next phase's declarations: nobody has one to make
    assert enc.state.step.id == "declare"
    assert enc.ruleset.who_acts(enc.state).now() == ()
    assert not any(enc.legal_actions(f) for f in enc.state.figures)
    assert "next_step" in kinds(enc, None)
