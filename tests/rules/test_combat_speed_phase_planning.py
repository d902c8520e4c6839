"""combat-speed-phase planning by rule id: plans through hexes that empty on the way (C-11),
when the speed multiples are revealed (C-7, C-12), which of equally cheap plans is made
(CSP-5), who the turn line names, the ruleset's own refusals and the players' words."""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import (
    act,
    add,
    arena,
    declare,
    half,
    kinds,
    last,
    next_step,
    row,
)

from hexcombat import Encounter

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
    enc = chase(leader=0, pursuer=1)
    assert "plan_half" not in kinds(enc, "leader")
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
