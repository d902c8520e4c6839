"""E-1/E-2 through the Encounter API: the signature Pulse, asserting every number of its trace."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strike_chance_pulse_fixtures import initiative, of, play_signature, roll, signature

from hexcombat import Action
from hexcombat.document import from_document, to_document

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared playouts
from playouts import playout

pytestmark = pytest.mark.pyodide


def test_e1_e2_scp_6_scp_12_scp_32_scp_34_the_signature_pulse_trace() -> None:
    enc = signature()
    play_signature(enc)
    events = enc.events
    assert of(events, "initiative")[0].data["order"] == ["ann", "cy", "bo", "di"]
    assert of(events, "initiative")[0].data["engaged"] == ["ann", "bo"]
    attacks = of(events, "attack")
    # E-2 item 1: 50 + 14 + 12 - 13 - 12 = 51; 81 is 30 above: Bo may parry
    assert [m["value"] for m in attacks[0].data["modifiers"]] == [14, 12, -13, -12]
    assert (attacks[0].data["msc"], attacks[0].data["outcome"]) == (51, "parry")
    assert of(events, "parry")[0].data == {
        **of(events, "parry")[0].data,
        "d10": 5,
        "total": 5,
        "result": "disarm",
    }
    assert enc.state.figures["ann"].item("Broadsword").state == "dropped"
    # Bo: 50 + 12 + 4 x 2 - Ann's AG 12 = 58; 40 hits for d10+2 with a 4 = 6 (Fatigue first)
    assert (attacks[1].data["msc"], attacks[1].data["hit"]) == (58, True)
    assert [d.data["damage"] for d in of(events, "damage") if "damage" in d.data] == [6, 3]
    # Cy's arrow: Di first (40 + 12 + 8 - 12 = 48, 90 misses), Bo from behind (60 - 13 = 47)
    assert of(events, "fire")[0].data["checked"] == ["di", "bo"]
    assert [(a.target, a.data["msc"], a.data["hit"]) for a in attacks[2:]] == [
        ("di", 48, False),
        ("bo", 47, True),
    ]
    assert enc.state.clock.counters == (2,)


def test_scp_12_the_fire_card_heads_with_the_chance_to_hit_the_target_past_di() -> None:
    """The arrow meets Di first (48%); the card's chance is Bo's: 52% x 47% = 611/2500."""
    enc = signature()
    initiative(enc, [8, 3, 7, 1])
    roll(enc, [], "pass", "ann")
    roll(enc, [], "pass", "bo")
    roll(enc, [], "next_step")
    action = Action("fire", "cy", {"weapon": "Short Bow", "special": "none", "target": "bo"})
    chain = enc.preview(action).to_json()["rollables"][0]
    assert [s["id"] for s in chain["stages"]] == ["di", "bo"]
    assert chain["headline"]["chance"] == "611/2500"


def test_scp_33_scp_34_the_parry_answer_previews_the_d10_table() -> None:
    """Bo (Rank 3) against Ann (Rank 3): D10 + 0: 1-3 parried, 4-7 disarm, 8-10 riposte."""
    enc = signature()
    initiative(enc, [8, 3, 7, 1])
    roll(enc, [81], "melee", "ann", weapon="Broadsword", special="none", target="bo")
    table = enc.preview(Action("parry", "bo", {})).to_json()["rollables"][0]
    assert table["dice"] == ["d10"]
    assert [(o["id"], o["chance"]) for o in table["outcomes"]] == [
        ("parried", "3/10"),
        ("disarm", "2/5"),
        ("riposte", "3/10"),
    ]
    assert "4-7: The attacker is Disarmed" in table["breakdown"]


def test_scp_6_the_signature_pulse_replays_exactly() -> None:
    enc = signature()
    play_signature(enc)
    doc = to_document(enc)
    again = from_document(doc)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scp_6_random_playouts_keep_invariants_and_replay_exactly(data: st.DataObject) -> None:
    enc = signature().with_setup(seed=data.draw(st.integers(0, 10**6)))

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    assert playout(enc, pick, 40) == []
    doc = to_document(enc)
    again = from_document(doc)
    assert to_document(again) == doc
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]
    assert {f.id: f.to_json() for f in again.state.figures.values()} == {
        f.id: f.to_json() for f in enc.state.figures.values()
    }
