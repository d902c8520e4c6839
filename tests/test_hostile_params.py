"""Hostile action parameters and typed faces: every ruleset refuses them with a HexcombatError
and stays as it was.

Each example takes a ruleset from the registry, its demo stepped forward a random number of
logged actions, one action offered there, and replaces or adds one parameter with a hostile
value (huge, negative, NaN, infinite, nested, wrongly typed), or types such faces for its
dice; preview and perform then either
work (and the game saves and reloads exactly) or refuse with a ``HexcombatError`` and leave
the document as it was. ``HEXCOMBAT_FUZZ=N`` (the long mode, tests/test_fuzz_documents.py)
runs N // 10 randomised examples per ruleset instead of the seeded few.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from factories import skirmish_duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playouts import random_action

from hexcombat import Action, Encounter, FieldSpec, HexcombatError, dumps, loads, to_document
from hexcombat.actions import ActionSpec
from hexcombat.rulesets.registry import ruleset_entries
from hexcombat.validation import MAX_INTEGER, MAX_STRING, Json

DEMO_DIR = Path(__file__).parent.parent / "static" / "demos"
RULESETS = [e.id for e in ruleset_entries() if (DEMO_DIR / f"{e.id}.json").exists()]
FULL = int(os.environ.get("HEXCOMBAT_FUZZ", "0"))
HOSTILE_SETTINGS = settings(
    max_examples=FULL // 10 or 25,
    deadline=None,
    derandomize=not FULL,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

BIG = {"<10**5000>": 10**5000, "<-10**5000>": -(10**5000), "<2**64>": 2**64}
"""Numbers drawn by name: hypothesis prints what it draws, and Python will not print these."""
hostile_scalars = st.one_of(
    st.sampled_from(sorted(BIG)),
    st.sampled_from([-(2**64), MAX_INTEGER, -MAX_INTEGER, 2**31, 10**18]),
    st.integers(),
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308]),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["", " ", "9" * 5000 + ",1", "1," + "9" * 30, "-1,-1", "\ud800", "0,0,0"]),
    st.just("x" * (MAX_STRING + 1)),
)
hostile_values: st.SearchStrategy[Json] = st.recursive(
    hostile_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def unnamed(value: Json) -> Json:
    """``value`` with the names of :data:`BIG` numbers replaced by the numbers."""
    if isinstance(value, list):
        return [unnamed(v) for v in value]
    if isinstance(value, dict):
        return {k: unnamed(v) for k, v in value.items()}
    return BIG.get(value, value) if isinstance(value, str) else value


def demo(ruleset: str) -> Encounter:
    """The ruleset's demo with its whole worked example in the log (cursor at the start)."""
    return loads((DEMO_DIR / f"{ruleset}.json").read_text(encoding="utf-8"))


def offered(enc: Encounter) -> list[ActionSpec]:
    """Every action offered now: the table's, the GM's and each figure's."""
    specs = [*enc.legal_actions(None), *enc.gm_actions()]
    for fid in enc.state.figures:
        specs += enc.legal_actions(fid)
    return specs


def assert_refused_cleanly_or_works(
    enc: Encounter, action: Action, faces: list[Json] | None = None
) -> None:
    """Preview and perform either work or raise a HexcombatError that changes nothing."""
    before = json.dumps(to_document(enc), sort_keys=True)
    try:
        enc.preview(action).to_json()
    except HexcombatError as exc:
        assert str(exc)
    assert json.dumps(to_document(enc), sort_keys=True) == before, "a preview changed the game"
    try:
        enc.perform(action, faces)
    except HexcombatError as exc:
        assert str(exc)
        assert json.dumps(to_document(enc), sort_keys=True) == before, f"refused {action} wrote"
        return
    text = dumps(enc)
    assert dumps(loads(text)) == text, f"{action} was performed but does not replay"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hostile_action_parameters_are_refused_cleanly(ruleset: str) -> None:
    start = demo(ruleset)

    @HOSTILE_SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:
        enc = start.copy()
        for _ in range(data.draw(st.integers(0, len(enc.log)), label="redo")):
            enc.redo()
        specs = offered(enc)
        if not specs:
            return
        spec = data.draw(st.sampled_from(specs), label="spec")

        def pick(n: int) -> int:
            return data.draw(st.integers(0, n - 1))

        plain = random_action(enc, pick)
        params: dict[str, Json] = {}
        if plain is not None and plain.kind == spec.kind and plain.figure == spec.figure:
            params = dict(plain.params)
        if data.draw(st.integers(0, 3), label="typed faces instead") == 0:
            faces = unnamed(data.draw(st.lists(hostile_scalars, max_size=4), label="faces"))
            assert_refused_cleanly_or_works(enc, Action(spec.kind, spec.figure, params), faces)
            return
        names = [p.name for p in spec.params] or ["extra"]
        name = data.draw(st.sampled_from([*names, "zz_unknown"]), label="param")
        params[name] = unnamed(data.draw(hostile_values, label="value"))
        assert_refused_cleanly_or_works(enc, Action(spec.kind, spec.figure, params))

    check()


def test_a_typed_face_of_5000_digits_is_refused_with_its_size() -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    attack = Action("attack", "ann", {"target": "bo"})
    for faces in ([10**5000], [15, 10**5000], [-(10**5000)]):
        with pytest.raises(HexcombatError, match="a whole number of 5001 digits"):
            enc.perform(attack, faces)
    assert enc.cursor == 2 and len(enc.log) == 2


def test_a_5000_digit_number_is_refused_with_its_size_not_its_digits() -> None:
    enc = demo("skirmish")
    figure = next(iter(enc.state.figures))
    action = Action("move", figure, {"to": 10**5000})
    preview = enc.preview(action)
    assert not preview.allowed and "params.to: is too large a number" in preview.reason
    with pytest.raises(HexcombatError, match="too large a number"):
        enc.perform(action)
    problem = FieldSpec("n", "N", "int", minimum=0, maximum=5).check(-(10**5000))
    assert problem == "must be a whole number from 0 to 5, got a whole number of 5001 digits"


@pytest.mark.parametrize(
    ("note", "refusal"),
    [
        ("\ud800", "params.note: the text holds a broken character"),
        ("n" * (MAX_STRING + 1), f"params.note: the text is {MAX_STRING + 1} characters long"),
    ],
)
def test_text_a_document_cannot_hold_is_refused_before_it_is_logged(
    note: str, refusal: str
) -> None:
    enc = skirmish_duel()
    action = Action("gm_note", None, {"note": note})
    preview = enc.preview(action)
    assert not preview.allowed and refusal in preview.reason
    with pytest.raises(HexcombatError, match=refusal):
        enc.perform(action)
    assert enc.log == ()


def test_a_ruleset_hook_never_sees_a_value_a_document_could_not_hold() -> None:
    """combat-speed-phase explains a refused N in its own words; a 5,000-digit N is refused
    before its hook would write it out."""
    enc = demo("combat-speed-phase")
    spec = next(
        s for f in enc.state.figures for s in enc.legal_actions(f) if s.kind == "declare_speed"
    )
    preview = enc.preview(Action("declare_speed", spec.figure, {"n": -(10**5000)}))
    assert not preview.allowed and "params.n: is too large a number" in preview.reason
