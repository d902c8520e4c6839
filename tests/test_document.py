"""The encounter document: exact round trip, every problem with a path, versions and share codes."""

from __future__ import annotations

import copy
import json

import pytest
from factories import skirmish_duel
from hypothesis import given, settings
from hypothesis import strategies as st

from hexcombat import Action, InvalidDocumentError, UnsupportedVersionError
from hexcombat import document as doc_module
from hexcombat.document import (
    FORMAT,
    VERSION,
    dumps,
    from_document,
    from_share_code,
    loads,
    to_document,
    to_share_code,
)

pytestmark = pytest.mark.pyodide


def played():
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    enc.perform(Action("attack", "bo", {"target": "ann"}))
    enc.undo()
    return enc


def problems_of(data: object) -> list[str]:
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(data)
    return [str(p) for p in caught.value.problems]


def test_round_trip_is_exact_including_rolls_and_undone_actions() -> None:
    enc = played()
    doc = to_document(enc)
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    assert doc["cursor"] == 3 and len(doc["log"]) == 4
    again = from_document(json.loads(json.dumps(doc)))
    assert to_document(again) == doc
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]
    again.redo()
    enc.redo()
    assert again.state.figures["ann"].pools == enc.state.figures["ann"].pools


def test_text_round_trip_through_dumps_and_loads() -> None:
    enc = played()
    assert to_document(loads(dumps(enc))) == to_document(enc)


def test_every_problem_is_reported_with_its_path() -> None:
    doc = to_document(skirmish_duel())
    doc["figures"][1]["facing"] = 7
    doc["figures"][0]["position"] = "one,two"
    doc["board"]["width"] = 0
    doc["dice"]["seed"] = "x"
    messages = problems_of(doc)
    assert "figures[1].facing: must be a whole number 0-5, got 7" in messages
    assert any(m.startswith("figures[0].position: must be a hex") for m in messages)
    assert any(m.startswith("board.width: must be a whole number 1-200") for m in messages)
    assert any(m.startswith("dice.seed: must be a whole number") for m in messages)


def test_semantic_problems_are_reported_after_the_structure_is_sound() -> None:
    doc = to_document(skirmish_duel())
    doc["figures"][1]["position"] = "40,40"
    doc["ruleset"]["options"]["skirmish.rear_bonus"] = 99
    doc["ruleset"]["options"]["nonsense"] = True
    messages = problems_of(doc)
    assert "figures[1].position: 40,40 is off the 8x6 board" in messages
    assert any(
        m.startswith("ruleset.options.skirmish.rear_bonus: must be a whole number")
        for m in messages
    )
    assert any(
        m.startswith("ruleset.options.nonsense: is not an option of skirmish") for m in messages
    )


def test_structural_and_semantic_problems_are_reported_together() -> None:
    doc = to_document(skirmish_duel())
    doc["board"]["terrain"]["1,1"] = "lava"
    doc["board"]["terrain"]["50,50"] = "woods"
    doc["figures"][0]["position"] = "99,99"
    doc["figures"][1]["stats"]["hp"] = "lots"
    messages = problems_of(doc)
    assert messages == [
        "board.terrain.1,1: unknown terrain 'lava'; known: open, woods, water, hill, wall",
        "board.terrain.50,50: 50,50 is off the 8x6 board",
        "figures[1].stats.hp: must be a whole number from 1 to 200, got 'lots'",
        "figures[0].position: 99,99 is off the 8x6 board",
    ]


def test_unknown_ruleset_and_wrong_format_are_clear() -> None:
    doc = to_document(skirmish_duel())
    doc["ruleset"]["id"] = "chess"
    assert any("unknown ruleset 'chess'" in m for m in problems_of(doc))
    assert problems_of({"format": "something-else", "version": 1}) == [
        "format: must be 'hexcombat-encounter', got 'something-else'"
    ]
    assert problems_of([1, 2]) == ["must be an object, got a list"]


def test_a_newer_version_is_refused_and_never_guessed_at() -> None:
    doc = to_document(skirmish_duel())
    doc["version"] = VERSION + 1
    with pytest.raises(UnsupportedVersionError, match="newer hexcombat"):
        from_document(doc)


def test_older_versions_are_migrated_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pretend the current format is one newer, with a migration renaming "title" to "name".
    older = to_document(skirmish_duel())
    older["title"] = older.pop("name")

    def rename_title(d: dict[str, object]) -> dict[str, object]:
        d = dict(d)
        d["name"] = d.pop("title")
        return d

    monkeypatch.setattr(doc_module, "VERSION", VERSION + 1)
    monkeypatch.setitem(doc_module.MIGRATIONS, VERSION, rename_title)
    enc = from_document(copy.deepcopy(older))
    assert enc.setup.name == "Duel"
    monkeypatch.delitem(doc_module.MIGRATIONS, VERSION)
    with pytest.raises(UnsupportedVersionError, match="no migration"):
        from_document(older)


def test_a_log_that_does_not_replay_names_the_entry() -> None:
    doc = to_document(played())
    doc["log"][2]["rolls"][0]["faces"] = [25]
    messages = problems_of(doc)
    assert any(m.startswith("log[2].rolls[0]:") for m in messages)
    doc = to_document(played())
    doc["log"][0]["action"]["params"]["to"] = "7,5"
    assert problems_of(doc)[0].startswith("log[0]: move cannot be replayed")


def test_malformed_json_says_where() -> None:
    with pytest.raises(InvalidDocumentError, match=r"not valid JSON \(.*\) at line 1, column 2"):
        loads("{nope")


def test_share_code_round_trip_and_damage() -> None:
    enc = played()
    code = to_share_code(enc)
    assert all(c.isalnum() or c in "-_" for c in code)
    assert to_document(from_share_code(code)) == to_document(enc)
    with pytest.raises(InvalidDocumentError, match="damaged"):
        from_share_code(code[: len(code) // 2])


@settings(max_examples=25, deadline=None)
@given(
    name=st.text(min_size=1, max_size=30).filter(lambda s: s.strip()),
    seed=st.integers(min_value=0, max_value=2**40),
    notes=st.text(max_size=50),
)
def test_round_trip_property_for_names_seeds_and_notes(name: str, seed: int, notes: str) -> None:
    enc = skirmish_duel().with_setup(name=name, seed=seed, notes=notes)
    doc = to_document(enc)
    assert to_document(loads(json.dumps(doc))) == doc
