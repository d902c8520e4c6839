"""E-1/E-2 through the Encounter API: the signature Pulse, asserting every number of its trace."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scp_fixtures import of, play_signature, signature

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
