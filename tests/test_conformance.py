"""Random legal playouts for every ruleset's demo: invariants hold and replay is exact."""

from __future__ import annotations

import pytest
from factories import skirmish_duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playouts import playout

from hexcombat.document import from_document, to_document

pytestmark = pytest.mark.pyodide


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts_keep_invariants_and_replay_exactly(data: st.DataObject) -> None:
    enc = skirmish_duel(seed=data.draw(st.integers(0, 10**6)))

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    assert playout(enc, pick, 25) == []
    doc = to_document(enc)
    again = from_document(doc)
    assert to_document(again) == doc
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]
