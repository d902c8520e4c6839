"""The reader's quick pass over a whole document says "within limits" only when the
walk that names every problem's path finds none: long fights open faster, nothing is let in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexcombat import validation
from hexcombat.validation import MAX_DEPTH, MAX_INTEGER, MAX_STRING, Json, limit_problems

DEMOS = Path(__file__).resolve().parent.parent / "static" / "demos"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0xFFFF)),
    st.sampled_from([MAX_INTEGER, MAX_INTEGER + 1, "x" * MAX_STRING, "x" * (MAX_STRING + 1)]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=3), st.just("\ud800")), inner, max_size=4),
    ),
    max_leaves=30,
)


def walked(value: Json, monkeypatch: pytest.MonkeyPatch) -> list[validation.Problem]:
    """The problems the full walk finds (the quick pass turned off)."""
    with monkeypatch.context() as m:
        m.setattr(validation, "_all_within", lambda data: False)
        return limit_problems(value)


@settings(max_examples=300, deadline=None)
@given(values)
def test_the_quick_pass_lets_through_only_what_the_walk_finds_no_problem_in(value: Json) -> None:
    with pytest.MonkeyPatch.context() as mp:
        assert limit_problems(value) == walked(value, mp)


def nested(depth: int) -> Json:
    value: Json = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_nesting_at_the_limit_is_judged_as_the_walk_judges_it(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    value = {"data": nested(depth)}
    assert limit_problems(value) == walked(value, monkeypatch)
    assert bool(limit_problems(value)) == (depth >= MAX_DEPTH)


def test_every_demo_is_within_limits_at_a_glance() -> None:
    for path in sorted(DEMOS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "log" in doc:
            assert validation._all_within(doc), path.name
            assert limit_problems(doc) == []
