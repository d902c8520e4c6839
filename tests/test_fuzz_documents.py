"""Hostile documents: every one loads and works, or is refused with a located HexcombatError.

The seeded set here runs in a few seconds (fewer documents inside Pyodide). The long mode
(issues 14 and 21, ``tests/fuzz``, which sets ``HEXCOMBAT_FUZZ=10000``) is the same code
with more documents and hypothesis randomised: it fuzzes 10,000 mutated demos and 2,500
documents from each hypothesis test, plays FULL // 100 random legal games of every built-in
ruleset (reading the page's views after every action, each game saved, replayed and compared,
then mutated once; any action or load slower than SLOW_SECONDS fails as a hang), feeds
FULL // 10 hostile action parameters to each ruleset (tests/test_hostile_params.py), and
prints the outcomes.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from factories import skirmish_duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playouts import assert_replays_exactly, playout

from hexcombat import (
    Action,
    Encounter,
    HexcombatError,
    InvalidDocumentError,
    dumps,
    loads,
    to_document,
)
from hexcombat.document import MAX_LOG, from_share_code, to_share_code
from hexcombat.rulesets.registry import BUILT_IN
from hexcombat.validation import MAX_DEPTH, MAX_STRING, Json
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

DEMO_DIR = Path(__file__).parent.parent / "static" / "demos"
DEMOS = sorted(p for p in DEMO_DIR.glob("*.json") if p.stem != "index")
needs_demos = pytest.mark.skipif(not DEMOS, reason="static/demos is not here (inside Pyodide)")


def bases() -> list[dict[str, Json]]:
    """The documents to mutate: the demos, or (inside Pyodide, without them) a played duel."""
    if DEMOS:
        return [json.loads(p.read_text(encoding="utf-8")) for p in DEMOS]
    duel = skirmish_duel()
    duel.perform(Action("move", "ann", {"to": "3,1"}))
    duel.perform(Action("next_step"))
    duel.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    return [to_document(duel)]


IN_PYODIDE = sys.platform == "emscripten"
FULL = int(os.environ.get("HEXCOMBAT_FUZZ", "0"))
MUTATED = FULL or (60 if IN_PYODIDE else 200)
GENERATED = FULL // 4 or (40 if IN_PYODIDE else 100)
PLAYOUTS = FULL // 100 or (2 if IN_PYODIDE else 3)
PLAYOUT_STEPS = 40
ATTEMPTS = 5 * PLAYOUT_STEPS
FUZZ_SETTINGS = settings(
    max_examples=GENERATED,
    deadline=None,  # outcome() fails a document that takes SLOW_SECONDS
    derandomize=not FULL,
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW_SECONDS = 10.0

HOSTILE: list[Json] = [
    None,
    True,
    0,
    -1,
    7,
    2**64,
    -(2**64),
    10**25,
    1.5,
    1e300,
    "",
    " ",
    "x",
    "3,1",
    "99,99",
    "3,1,2",
    "d1000000",
    "1000000d6",
    "\ud800",
    "a" * 300,
    [],
    [1],
    ["1,1"],
    [[[[]]]],
    {},
    {"a": 1},
    {"a": [[{"b": 1}]]},
]


def outcome(text: str) -> str:
    """'loaded' after checking the encounter works, 'refused' for a HexcombatError."""
    start = time.perf_counter()
    try:
        encounter = loads(text)
    except HexcombatError as exc:
        assert str(exc)
        if isinstance(exc, InvalidDocumentError):
            assert exc.problems and all(str(p) for p in exc.problems)
        return "refused"
    finally:
        assert time.perf_counter() - start < SLOW_SECONDS, "loading took too long"
    again = loads(dumps(encounter))
    assert dumps(again) == dumps(encounter)
    assert dumps(from_share_code(to_share_code(encounter))) == dumps(encounter)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in encounter.events]
    for figure in [None, *encounter.state.figures]:
        encounter.legal_actions(figure)
    if encounter.can_undo:
        encounter.undo()
        encounter.redo()
    return "loaded"


def _paths(value: Json, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def mutated(doc: dict[str, Json], rnd: random.Random) -> str:
    """The document with one to three values replaced, dropped or wrapped, as JSON text."""
    doc = copy.deepcopy(doc)
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        path = rnd.choice(_paths(doc)[1:])
        parent: Json = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        roll = rnd.random()
        if roll < 0.25 and isinstance(parent[key], int | str):
            parent[key] = rnd.choice([*_scalars(doc), -1, 0, 1, 2, 5, 30, 100])
        elif roll < 0.65:
            parent[key] = copy.deepcopy(rnd.choice(HOSTILE))
        elif roll < 0.75 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.85:
            parent[key] = [parent[key]]
        elif roll < 0.95:
            parent[key] = {"value": parent[key]}
        else:
            parent[key] = "<deep>"
    depth = rnd.choice([MAX_DEPTH - 4, MAX_DEPTH, 100_000])
    text = json.dumps(doc, ensure_ascii=rnd.random() < 0.5)
    text = text.replace('"<deep>"', "[" * depth + "]" * depth)
    if rnd.random() < 0.1:
        text = text[: rnd.randrange(len(text))]
    return text


def _scalars(doc: Json) -> list[Json]:
    """Every string and number in ``doc``: swapped around, they make plausible documents."""
    found: list[Json] = []
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += value.values()
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, int | str):
            found.append(value)
    return found


def _deep(depth: int) -> Json:
    value: Json = 1
    for _ in range(depth):
        value = [value] if depth % 2 else {"k": value}
    return value


def test_mutated_demo_documents_load_and_work_or_are_refused() -> None:
    demos = bases()
    rnd = random.Random(14)
    outcomes = Counter(outcome(mutated(rnd.choice(demos), rnd)) for _ in range(MUTATED))
    print(f"fuzzed {MUTATED} mutated documents: {dict(outcomes)}")
    assert outcomes["loaded"] + outcomes["refused"] == MUTATED


def playout_start(ruleset: str) -> Encounter | None:
    """A ruleset's demo (its worked example's log dropped, so play starts at the set-up)."""
    for doc in bases():
        if doc.get("ruleset", {}).get("id") == ruleset:  # type: ignore[union-attr]
            doc = {k: v for k, v in doc.items() if k != "cursor"}
            return loads(json.dumps(dict(doc, log=[])))
    return None


RULESETS = [entry.id for entry in BUILT_IN]


def game(start: Encounter, seed: int) -> Encounter:
    """A seeded random legal game from ``start`` of up to PLAYOUT_STEPS logged actions, reading
    the page's view after each attempt (reading must not change what replays); invariants hold
    and no action hangs."""
    enc = start.copy()
    stream = random.Random(seed)
    for _ in range(ATTEMPTS):  # random parameters are often refused (two-action-2d10's guard)
        if len(enc.log) >= PLAYOUT_STEPS:
            break
        began = time.perf_counter()
        assert playout(enc, stream.randrange, 1) == [], seed
        encounter_view(enc)
        assert time.perf_counter() - began < SLOW_SECONDS, f"an action hung (seed {seed})"
    return enc


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_legal_games_of_every_ruleset_replay_exactly_and_survive_mutation(
    ruleset: str,
) -> None:
    """Seeded random legal play (with undo/redo), saved and replayed to the same document,
    events, clock, figures and memory; the saved game, mutated, still loads and works or is
    refused cleanly."""
    start = playout_start(ruleset)
    if start is None:
        assert not DEMOS, f"{ruleset} has no demo in static/demos to play from"
        pytest.skip("no demo here (inside Pyodide)")
    rnd = random.Random(f"1414 {ruleset}")
    entries = 0
    mutants: Counter[str] = Counter()
    for _ in range(PLAYOUTS):
        seed = rnd.randrange(2**32)
        enc = game(start, seed)
        assert_replays_exactly(enc)
        text = dumps(enc)
        again = loads(text)
        assert again.state.memory == enc.state.memory, f"replay mismatch (seed {seed})"
        assert to_document(again.copy()) == to_document(enc)
        assert outcome(text) == "loaded"
        mutants[outcome(mutated(json.loads(text), rnd))] += 1
        entries += len(enc.log)
    print(
        f"{ruleset}: {PLAYOUTS} games, {entries} logged entries, 0 replay mismatches; "
        f"their saves mutated: {dict(mutants)}"
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@FUZZ_SETTINGS
@given(st.data())
def test_any_json_value_anywhere_in_a_demo_is_loaded_or_refused(data: st.DataObject) -> None:
    docs = bases()
    doc = docs[data.draw(st.integers(0, len(docs) - 1))]
    path = data.draw(st.sampled_from(_paths(doc)[1:]))
    parent: Json = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(json_values)
    assert outcome(json.dumps(doc)) in {"loaded", "refused"}


@FUZZ_SETTINGS
@given(st.text(max_size=200) | json_values.map(json.dumps))
def test_arbitrary_text_is_refused_cleanly(text: str) -> None:
    assert outcome(text) in {"loaded", "refused"}


def _demo(name: str) -> dict[str, Json]:
    return json.loads((DEMO_DIR / name).read_text(encoding="utf-8"))


def refusal(doc: Json) -> str:
    with pytest.raises(InvalidDocumentError) as caught:
        loads(doc if isinstance(doc, str) else json.dumps(doc))
    return str(caught.value)


@needs_demos
def test_a_list_valued_action_parameter_is_refused_with_its_place() -> None:
    doc = _demo("fig-percentile.json")
    doc["log"][0]["action"]["params"]["mode"] = ["accelerate"]
    message = refusal(doc)
    assert "log[0]" in message and "mode" in message and "got a list" in message


def test_100000_deep_json_is_refused_before_parsing() -> None:
    message = refusal("[" * 100_000 + "]" * 100_000)
    assert f"nested 100000 deep; at most {MAX_DEPTH} are allowed" in message


@needs_demos
def test_deep_nesting_in_data_or_memory_is_refused_with_the_path() -> None:
    doc = _demo("skirmish.json")
    doc["figures"][0]["memory"] = {"x": _deep(MAX_DEPTH + 1)}
    message = refusal(doc)
    assert "figures[0].memory.x" in message and "nests too deep" in message


@needs_demos
def test_huge_integers_long_strings_and_lone_surrogates_are_refused() -> None:
    doc = _demo("skirmish.json")
    assert "value JSON documents may not" in refusal(
        json.dumps(doc).replace('"seed": 20250501', '"seed": ' + "9" * 5000)
    )
    doc["figures"][0]["stats"]["attack"] = 2**70
    doc["notes"] = "n" * (MAX_STRING + 1)
    doc["figures"][1]["name"] = "\ud800"
    message = refusal(doc)
    assert "figures[0].stats.attack: is too large a number" in message
    assert f"notes: the text is {MAX_STRING + 1} characters long" in message
    assert "figures[1].name: the text holds a broken character" in message


@needs_demos
def test_nan_and_infinity_are_not_numbers() -> None:
    doc = json.dumps(_demo("skirmish.json")).replace('"seed": 20250501', '"seed": NaN')
    assert "NaN is not a number" in refusal(doc)


@needs_demos
def test_seed_beyond_64_bits_is_refused_at_load() -> None:
    doc = _demo("skirmish.json")
    doc["dice"]["seed"] = -1
    assert "dice.seed: must be a whole number 0-18446744073709551615, got -1" in refusal(doc)
    doc["dice"]["seed"] = 2**64
    assert "dice.seed: is too large a number" in refusal(doc)


@needs_demos
def test_log_length_is_limited() -> None:
    doc = _demo("skirmish.json")
    doc["log"] = [{"action": {"kind": "next_step"}}] * (MAX_LOG + 1)
    assert f"log: has {MAX_LOG + 1} entries; at most {MAX_LOG}" in refusal(doc)


@needs_demos
def test_a_wrongly_typed_parameter_is_an_illegal_action() -> None:
    encounter = loads(json.dumps(_demo("skirmish.json")))
    figure = next(iter(encounter.state.figures))
    preview = encounter.preview(Action("move", figure, {"to": ["1,1"]}))
    assert not preview.allowed and 'must be a hex "q,r", e.g. 3,-1, got a list' in preview.reason
