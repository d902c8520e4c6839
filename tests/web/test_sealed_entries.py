"""Sealed library entries: a save keeps the engine's end seal in the manifest, so
the fight reopens without checking each action again; a log part edited by hand (its digest
and the manifest made to match, the seal kept) is still refused at its entry, and an export
carries no seal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_storage import FlakyStore, make_library
from test_stored import long_fight

import hexcombat.encounter as encounter_module
from hexcombat import Encounter
from hexcombat.document import end_seal
from web.library import stored

pytestmark = pytest.mark.pyodide


def manifest(store: FlakyStore, entry_key: str) -> dict[str, Any]:
    return dict(json.loads(store.get(entry_key) or "{}"))


def counted_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every logged action checked against its offers from now on."""
    checks: list[int] = []
    real = Encounter._check_offered
    monkeypatch.setattr(Encounter, "_check_offered", lambda *a: checks.append(1) or real(*a))
    return checks


def test_a_saved_fight_is_sealed_and_reopens_without_the_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fight = long_fight(2 * stored.CHUNK + 30)
    store = FlakyStore()
    entry, _ = make_library(store).add(fight)
    assert manifest(store, entry.key)["seal"] == end_seal(fight)
    checks = counted_checks(monkeypatch)
    encounter_module._REPLAYS.clear()
    library = make_library(store)
    assert library.entries()[0].readable
    enc = library.load(entry.id)
    assert checks == [] and enc.cursor == fight.cursor and enc.log == fight.log
    _name, text = library.export(entry.id)
    assert "seal" not in json.loads(text)


def test_a_hand_edited_log_part_is_refused_at_its_entry_though_the_seal_was_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fight = long_fight(stored.CHUNK + 30)
    store = FlakyStore()
    entry, _ = make_library(store).add(fight)
    data = manifest(store, entry.key)
    old = stored.part_key(entry.id, data["log"][0])
    part = json.loads(store.get(old) or "[]")
    i = next(n for n, e in enumerate(part) if e["action"]["kind"] == "move")
    part.insert(i + 1, part[i])  # the same move twice: the second is not offered
    text = json.dumps(part, separators=(",", ":"))
    digest = stored._digest(text)
    store.set(stored.part_key(entry.id, digest), text)
    data["log"][0] = digest
    store.set(entry.key, json.dumps(data))
    checks = counted_checks(monkeypatch)
    encounter_module._REPLAYS.clear()
    listed = make_library(store).entries()[0]
    assert not listed.readable and checks
    assert listed.problems[0].path == f"log[{i + 1}]"
