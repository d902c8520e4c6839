"""A hidden choice judged by the blows it invites at their previews' exact odds
(two-action-2d10's declarations, TA-5, TA-7): a declared defence meets the foe's blow, a
combined attack lands more often, and with no blow in sight nothing is claimed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from autopilot_games import demo

from hexcombat import Action, Encounter, Hex
from hexcombat.autopilot.blows import invited_blows
from hexcombat.autopilot.lookahead import Look
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.play import restarted
from hexcombat.autopilot.scoring import TEMPERAMENTS
from hexcombat.autopilot.stream import Stream

pytestmark = pytest.mark.pyodide

PLAIN = {"first": "attack", "second": "parry", "guard": "ann", "target": "ann"}
"""Bo's declaration (the guess the autopilot makes for a foe: its plain one)."""


def invited(enc: Encounter, declared: dict[str, object]) -> float | None:
    """What Ann's declaration ``declared`` (at Bo) invites, Bo having declared plainly."""
    look = Look("Blue", TEMPERAMENTS["aggressive"], Stream("blows"), {}, Memo())
    state = enc.state.copy()
    state.declarations.declare(Action("declare", "bo", PLAIN))
    after = look.imagine(state, Action("declare", "ann", {**declared, "target": "bo"}))
    assert after is not None
    return invited_blows(look, after[0])


def test_ta_7_a_declared_dodge_meets_the_foes_blow() -> None:
    enc = restarted(demo("two-action-2d10"), 1)
    dodge = invited(enc, {"first": "attack", "second": "dodge", "guard": "bo"})
    wait = invited(enc, {"first": "attack", "second": "wait"})
    assert dodge is not None and wait is not None
    assert dodge > wait  # the same blow of Ann's; Bo's met by the dodge or by nothing


def test_ta_5_a_combined_attack_invites_its_better_odds() -> None:
    enc = restarted(demo("two-action-2d10"), 1)
    combined = invited(enc, {"first": "attack", "second": "attack", "combine": True})
    wait = invited(enc, {"first": "attack", "second": "wait"})
    assert combined is not None and wait is not None
    assert combined > wait  # Bo's blow met by nothing either way; Ann's 3d10 keep two


def test_no_blow_in_reach_claims_nothing() -> None:
    enc = restarted(demo("two-action-2d10"), 1)
    bo = next(f for f in enc.setup.figures if f.id == "bo")
    far = enc.with_figure(replace(bo, position=Hex(8, 2)))
    # 0, not None: None lets the pilot fall back on the declaration's own preview chance
    assert invited(far, {"first": "attack", "second": "dodge", "guard": "bo"}) == 0.0
