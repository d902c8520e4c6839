"""A revision in storage is a manifest over parts (web/library/stored.py): undo, redo and jumps
write only the manifest and the index at any log length, an action rewrites one log part,
failed writes leave the previous revision, damaged parts are reported and kept, and entries
written as whole documents (by an older version) open and migrate on their next save."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from playouts import played_at_random
from test_storage import FlakyStore, duel, make_library

from hexcombat import Action, Encounter
from hexcombat.document import dumps, to_document
from hexcombat.encounter import drained
from web.library import storage, stored
from web.library.storage import (
    DOC_KEY,
    DamagedEntryError,
    Library,
    StorageFullError,
    doc_key,
)

pytestmark = pytest.mark.pyodide


class CountingStore(FlakyStore):
    """A store that counts what each save writes."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[tuple[str, int]] = []

    def set(self, key: str, value: str) -> None:
        self.written.append((key, len(value)))
        super().set(key, value)


def long_fight(actions: int, seed: int = 3) -> Encounter:
    """The duel after ``actions`` random legal actions."""
    enc = played_at_random(duel(), random.Random(seed).randrange, actions)
    assert len(enc.log) == actions
    return enc


def note(enc: Encounter, text: str = "A ruling") -> None:
    """Log a GM's note (always offered)."""
    enc.perform(Action("gm_note", None, {"note": text}))


@pytest.fixture(scope="module")
def fight() -> Encounter:
    return long_fight(2 * stored.CHUNK + 60)


def written_by(store: CountingStore, save: Callable[[], object]) -> list[tuple[str, int]]:
    store.written.clear()
    save()
    return list(store.written)


def parts_of(store: FlakyStore, entry_id: str) -> set[str]:
    return {k for k in store.data if (m := stored.PART_KEY.match(k)) and m.group(1) == entry_id}


def test_undo_redo_and_jumps_write_only_the_manifest_and_the_index(fight: Encounter) -> None:
    store = CountingStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    assert len(parts_of(store, entry.id)) == 1 + 3  # the set-up, three log parts
    for move in (enc.undo, enc.undo, enc.redo, lambda: [enc.undo() for _ in range(300)]):
        move()
        writes = written_by(store, lambda: library.save(entry.id, enc))
        keys = [k for k, _ in writes]
        assert keys == [doc_key(entry.id, library.entry(entry.id).revision), "hexcombat:index"]
        assert sum(n for _, n in writes) < 1000
    assert library.export(entry.id)[1] == dumps(enc)
    assert library.load(entry.id).cursor == enc.cursor


def test_an_action_rewrites_only_the_last_log_part(fight: Encounter) -> None:
    store = CountingStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    before = parts_of(store, entry.id)
    enc.undo()
    note(enc)  # sets the last entry aside: a new one in the last log part
    writes = written_by(store, lambda: library.save(entry.id, enc))
    assert len(writes) == 3 and stored.PART_KEY.match(writes[0][0])
    after = parts_of(store, entry.id)
    assert len(after - before) == 1 and len(before - after) == 1  # the old last part is gone
    assert to_document(library.load(entry.id)) == to_document(enc)


def test_a_set_up_edit_rewrites_only_the_set_up_part(fight: Encounter) -> None:
    store = CountingStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    renamed = enc.renamed("Renamed")
    writes = written_by(store, lambda: library.save(entry.id, renamed))
    assert len(writes) == 3
    assert json.loads(store.data[writes[0][0]])["name"] == "Renamed"
    assert library.load(entry.id).setup.name == "Renamed"


def test_a_whole_document_entry_opens_and_is_migrated_on_its_next_save(fight: Encounter) -> None:
    store = FlakyStore()
    store.data[doc_key("old", 3)] = dumps(fight)
    library = make_library(store)
    assert library.export("old")[1] == dumps(fight)
    enc = library.load("old")
    assert to_document(enc) == to_document(fight)
    enc.undo()
    library.save("old", enc, base=3)
    assert doc_key("old", 3) not in store.data
    assert json.loads(store.data[doc_key("old", 4)])["format"] == "hexcombat-stored"
    assert to_document(make_library(store).load("old")) == to_document(enc)


@pytest.mark.parametrize("failing", [1, 2, 3], ids=["a part", "the manifest", "the index"])
def test_a_failed_save_leaves_the_previous_revision_and_nothing_new(
    fight: Encounter, failing: int
) -> None:
    store = FlakyStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    kept = dict(store.data)
    enc.undo()
    note(enc)
    store.sets, store.fail_at = 0, {failing}
    with pytest.raises(StorageFullError, match="previous version is still saved"):
        library.save(entry.id, enc)
    assert store.data == kept
    fresh = make_library(store)
    assert to_document(fresh.load(entry.id)) == to_document(fight)


def test_a_missing_or_changed_part_is_reported_and_the_entry_kept(fight: Encounter) -> None:
    store = FlakyStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    log_part = next(k for k in parts_of(store, entry.id) if store.data[k].startswith("["))
    for damage, words in (
        (lambda: store.data.update({log_part: store.data[log_part][:-2] + "]"}), "was changed"),
        (lambda: store.data.pop(log_part), "missing from the browser's storage"),
    ):
        damage()
        kept = dict(store.data)
        fresh = make_library(store)
        (listed,) = fresh.entries()
        assert listed.name == fight.setup.name and not listed.readable
        assert words in " ".join(p.message for p in listed.problems)
        with pytest.raises(DamagedEntryError):
            fresh.save(entry.id, enc)
        with pytest.raises(DamagedEntryError):
            fresh.export(entry.id)
        assert store.data == kept


def test_a_manifest_cannot_name_another_entrys_parts_or_bad_digests(fight: Encounter) -> None:
    store = FlakyStore()
    library = make_library(store)
    entry, _ = library.add(fight.copy())
    manifest = json.loads(store.data[entry.key])
    store.data[doc_key("thief", 1)] = json.dumps(manifest)  # the digests, under another id
    store.data[doc_key("odd", 1)] = json.dumps({**manifest, "head": "../../x"})
    listed = {e.id: e for e in make_library(store).entries()}
    assert "missing" in listed["thief"].problems[0].message
    assert "names a part wrongly" in listed["odd"].problems[0].message
    assert listed[entry.id].readable


def test_parts_cut_otherwise_are_rewritten_not_trusted(fight: Encounter) -> None:
    """A manifest whose log parts are not cut every CHUNK entries (written by hand, or by a
    later version): its next save writes parts afresh, so no entry is lost or repeated."""
    store = FlakyStore()
    library = make_library(store)
    entry, enc = library.add(fight.copy())
    log = [e.to_json() for e in enc.log]
    texts = [json.dumps(log[:1]), json.dumps(log[1:])]
    digests = [stored._digest(t) for t in texts]
    for digest, text in zip(digests, texts, strict=True):
        store.data[stored.part_key(entry.id, digest)] = text
    manifest = json.loads(store.data[entry.key])
    store.data[entry.key] = json.dumps({**manifest, "log": digests})
    fresh = make_library(store)
    opened = fresh.load(entry.id)
    opened.undo()
    fresh.save(entry.id, opened)
    assert to_document(make_library(store).load(entry.id)) == to_document(opened)


def test_purge_and_saves_leave_no_part_behind(fight: Encounter) -> None:
    store = FlakyStore()
    library: Library = make_library(store)
    entry, enc = library.add(fight.copy())
    other, _ = library.add(duel("Other"))
    theirs = parts_of(store, other.id)
    for _ in range(3):
        enc.undo()
    note(enc)
    library.save(entry.id, enc)
    library.save(entry.id, library.load(entry.id).renamed("Again"))
    named = stored.referenced(entry.id, store.data[library.entry(entry.id).key])
    assert parts_of(store, entry.id) == named
    library.delete(entry.id)
    library.purge(entry.id)
    assert parts_of(store, entry.id) == set()
    assert parts_of(store, other.id) == theirs
    assert [k for k in store.data if DOC_KEY.match(k)] == [other.key]


def test_opening_a_listed_entry_reads_its_document_once(
    fight: Encounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app lists (checks) the last entry, then opens it: one read of a long fight, not two;
    a second load gives an encounter of its own."""
    store = FlakyStore()
    entry, _ = make_library(store).add(fight.copy())
    reads: list[object] = []
    real = storage.from_document_in_steps
    monkeypatch.setattr(
        storage, "from_document_in_steps", lambda doc, **kw: reads.append(1) or real(doc, **kw)
    )
    library = make_library(store)
    assert library.last_opened() is None and library.entries()[0].readable
    first = library.load(entry.id)
    assert len(reads) == 1
    second = library.load(entry.id)
    assert len(reads) == 2 and second is not first
    first.undo()
    assert second.cursor == fight.cursor


def test_adding_in_steps_makes_a_log_part_a_step_and_writes_only_in_its_last(
    fight: Encounter,
) -> None:
    store = FlakyStore()
    steps = make_library(store).add_in_steps(fight.copy())
    made = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            entry, _enc = done.value
            break
        made += 1
        assert store.data == {}
    assert made == 3
    assert to_document(make_library(store).load(entry.id)) == to_document(fight)


def test_a_name_and_id_another_tab_took_while_adding_in_steps_are_chosen_again(
    fight: Encounter,
) -> None:
    store = FlakyStore()
    steps = make_library(store).add_in_steps(fight.copy())
    next(steps)
    theirs, _ = make_library(store).add(duel())  # the same first id and name
    ours, enc = drained(steps)
    assert (theirs.id, theirs.name) == ("e1", "Duel")
    assert ours.id != theirs.id and ours.name == enc.setup.name == "Duel (2)"
    reread = make_library(store)
    assert reread.load(ours.id).log == fight.log
    assert to_document(reread.load(theirs.id)) == to_document(duel())
