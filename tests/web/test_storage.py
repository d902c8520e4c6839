"""The encounter library over a dict store: revisions, failed writes, damaged entries, trash."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

import pytest

from hexcombat import Encounter, Hex
from hexcombat.document import dumps, loads, to_document
from hexcombat.errors import InvalidDocumentError, UnsupportedVersionError
from hexcombat.map_picture import MapPicture, digest_of
from web.library.entries import when_words
from web.library.storage import (
    DOC_KEY,
    INDEX_KEY,
    LAST_KEY,
    ConflictError,
    DamagedEntryError,
    EntryGoneError,
    Library,
    LibraryError,
    LocalStorage,
    MemoryStore,
    StorageFullError,
    Store,
    UnknownEntryError,
    doc_key,
    safe_filename,
)

pytestmark = pytest.mark.pyodide


class FlakyStore(MemoryStore):
    """A dict store that can run out of space: at a size limit, or at chosen ``set`` calls."""

    def __init__(self, quota: int | None = None) -> None:
        super().__init__()
        self.quota = quota
        self.fail_at: set[int] = set()
        self.sets = 0

    def set(self, key: str, value: str) -> None:
        """Store, or raise StorageFullError like a full localStorage."""
        self.sets += 1
        size = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
        if self.sets in self.fail_at or (
            self.quota is not None and size + len(key) + len(value) > self.quota
        ):
            raise StorageFullError("quota exceeded")
        super().set(key, value)


def ticking_clock() -> Callable[[], str]:
    """A clock that moves one second per call, so 'last changed' orders are deterministic."""
    ticks = count()

    def clock() -> str:
        t = next(ticks)
        return f"2025-01-01T{t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}Z"

    return clock


def make_library(store: Store | None = None) -> Library:
    """A library with predictable ids (e1, e2, ...) and times."""
    ids = count(1)
    return Library(store or FlakyStore(), clock=ticking_clock(), new_id=lambda: f"e{next(ids)}")


def duel(name: str = "Duel") -> Encounter:
    """A small skirmish encounter with terrain and two figures."""
    enc = Encounter.new("skirmish", 8, 6, name=name, seed=7)
    enc = enc.painted([Hex(3, 1), Hex(3, 2)], "woods")
    rs = enc.ruleset
    ann = rs.new_figure("ann", "Ann Archer", "Blue", Hex(1, 1), 2)
    bo = rs.new_figure("bo", "Bo Brute", "Red", Hex(4, 1), 5)
    return enc.with_figure(ann).with_figure(bo)


def bad_facing_text(name: str = "Broken") -> str:
    """Valid JSON, but a figure faces 9 (the engine allows 0-5)."""
    doc = to_document(duel(name))
    doc["figures"][0]["facing"] = 9
    return json.dumps(doc)


@pytest.fixture
def store() -> FlakyStore:
    """An empty store."""
    return FlakyStore()


@pytest.fixture
def library(store: FlakyStore) -> Library:
    """An empty library over ``store``."""
    return make_library(store)


# ---- create, save, load ---------------------------------------------------------------
def test_create_saves_revision_one_and_lists_it(library: Library, store: FlakyStore) -> None:
    entry, enc = library.create("skirmish", 12, 10, name="Ambush", seed=5)
    assert (entry.id, entry.name, entry.ruleset, entry.revision) == ("e1", "Ambush", "skirmish", 1)
    assert entry.readable and not entry.deleted
    assert json.loads(store.data[doc_key("e1", 1)])["format"] == "hexcombat-stored"
    assert library.export("e1") == ("Ambush.json", dumps(enc))
    assert library.entries() == [entry]
    assert to_document(library.load("e1")) == to_document(enc)


def test_create_refuses_bad_options_with_engine_problems(library: Library) -> None:
    with pytest.raises(InvalidDocumentError) as caught:
        library.create("skirmish", 8, 6, options={"skirmish.stacking": 9})
    assert [p.path for p in caught.value.problems] == ["ruleset.options.skirmish.stacking"]
    assert library.entries() == []


def test_save_writes_new_revision_then_drops_the_old(library: Library, store: FlakyStore) -> None:
    entry, enc = library.add(duel())
    changed = enc.painted([Hex(0, 0)], "water")
    saved = library.save(entry.id, changed)
    assert saved.revision == 2
    assert store.get(doc_key(entry.id, 1)) is None
    assert store.get(doc_key(entry.id, 2)) is not None
    assert library.export(entry.id)[1] == dumps(changed)
    assert json.loads(store.data[INDEX_KEY])["entries"][entry.id]["revision"] == 2
    assert to_document(library.load(entry.id)) == to_document(changed)


def test_the_index_names_an_entrys_map_picture_for_the_start_to_read(
    library: Library, store: FlakyStore
) -> None:
    picture = MapPicture(digest_of(b"a map"), "image/png", 1200, 900)
    entry, enc = library.add(duel())
    assert "map" not in json.loads(store.data[INDEX_KEY])["entries"][entry.id]
    saved = library.save(entry.id, enc.with_setup(picture=picture))
    assert saved.map == picture.digest
    assert json.loads(store.data[INDEX_KEY])["entries"][entry.id]["map"] == picture.digest
    assert Library(store).entry(entry.id).map == picture.digest  # read back from the index
    assert library.save(entry.id, enc).map == ""  # the map taken away


def test_saving_an_unchanged_encounter_writes_nothing(library: Library, store: FlakyStore) -> None:
    entry, enc = library.add(duel())
    before = store.sets
    assert library.save(entry.id, enc) == entry
    assert store.sets == before


def test_entries_are_listed_most_recently_changed_first(library: Library) -> None:
    a, _ = library.add(duel("A"))
    b, enc_b = library.add(duel("B"))
    library.save(a.id, library.load(a.id).painted([Hex(0, 0)], "hill"))
    assert [e.name for e in library.entries()] == ["A", "B"]
    library.save(b.id, enc_b.painted([Hex(0, 0)], "hill"))
    assert [e.name for e in library.entries()] == ["B", "A"]


def test_load_of_unknown_id_raises(library: Library) -> None:
    with pytest.raises(UnknownEntryError, match="no encounter 'nope'"):
        library.load("nope")


# ---- failed writes leave the previous version ------------------------------------------
def test_storage_full_on_save_keeps_previous_version(store: FlakyStore) -> None:
    library = make_library(store)
    entry, enc = library.add(duel())
    snapshot = dict(store.data)
    store.quota = sum(len(k) + len(v) for k, v in store.data.items()) + 100
    bigger = enc.with_setup(notes="x" * 5000)
    with pytest.raises(StorageFullError) as caught:
        library.save(entry.id, bigger)
    message = str(caught.value)
    assert "“Duel” could not be saved" in message
    assert "storage for this site is full" in message
    assert "previous version is still saved" in message
    assert store.data == snapshot
    assert to_document(library.load(entry.id)) == to_document(enc)


def test_storage_full_on_rename_names_the_encounter_as_it_was(store: FlakyStore) -> None:
    library = make_library(store)
    entry, _ = library.add(duel())
    store.fail_at = {store.sets + 1}
    with pytest.raises(StorageFullError, match=r"^“Duel” could not be saved"):
        library.rename(entry.id, "Renamed")
    assert library.entry(entry.id).name == "Duel"


OPERATIONS: dict[str, Callable[[Library], Any]] = {
    "save": lambda lib: lib.save("e1", lib.load("e1").painted([Hex(0, 0)], "water")),
    "create": lambda lib: lib.create("skirmish", 6, 6, name="New", seed=1),
    "rename": lambda lib: lib.rename("e1", "Renamed"),
    "duplicate": lambda lib: lib.duplicate("e1"),
    "import": lambda lib: lib.import_text(dumps(duel("Imported"))),
    "delete": lambda lib: lib.delete("e1"),
    "restore": lambda lib: lib.restore("e2"),
    "purge": lambda lib: lib.purge("e2"),
}


@pytest.mark.parametrize("operation", OPERATIONS)
def test_a_write_failing_at_any_point_changes_nothing(operation: str) -> None:
    """Fail each storage write of the operation in turn: the store must stay exactly as it was."""
    writes = 0
    while True:
        store = FlakyStore()
        library = make_library(store)
        library.add(duel())
        library.add(duel("Trashed"))
        library.delete("e2")
        snapshot = dict(store.data)
        writes += 1
        store.fail_at = {store.sets + writes}
        try:
            OPERATIONS[operation](library)
        except StorageFullError as exc:
            assert "full" in str(exc)
            assert store.data == snapshot, f"write {writes} of {operation} changed the store"
        else:
            assert writes > 1, f"{operation} wrote nothing"
            break


# ---- damaged entries are listed and kept -----------------------------------------------
def test_corrupt_json_is_listed_with_its_problem_and_kept(store: FlakyStore) -> None:
    library = make_library(store)
    good, _ = library.add(duel())
    bad, _ = library.add(duel("Will break"))
    store.data[bad.key] = '{"format": "hexcombat-encounter", "name": '
    snapshot = dict(store.data)
    listed = {e.id: e for e in library.entries()}
    assert listed[good.id].readable
    damaged = listed[bad.id]
    assert damaged.name == "Will break" and not damaged.readable
    assert "not valid JSON" in damaged.problems[0].message
    with pytest.raises(InvalidDocumentError, match="not valid JSON"):
        library.load(bad.id)
    with pytest.raises(DamagedEntryError):
        library.save(bad.id, duel("Will break"))
    with pytest.raises(DamagedEntryError):
        library.rename(bad.id, "Other")
    with pytest.raises(DamagedEntryError):
        library.duplicate(bad.id)
    assert store.data == snapshot
    assert library.export(bad.id)[1] == snapshot[bad.key]


def test_document_the_engine_refuses_is_listed_with_the_engine_problems(
    store: FlakyStore,
) -> None:
    library = make_library(store)
    entry, _ = library.add(duel())
    store.data[entry.key] = bad_facing_text("Duel")
    snapshot = dict(store.data)
    (listed,) = library.entries()
    assert [str(p) for p in listed.problems] == [
        "figures[0].facing: must be a whole number 0-5, got 9"
    ]
    with pytest.raises(InvalidDocumentError) as caught:
        library.load(entry.id)
    assert [p.path for p in caught.value.problems] == ["figures[0].facing"]
    assert store.data == snapshot


def test_damaged_entry_can_be_deleted_when_the_user_asks(store: FlakyStore) -> None:
    library = make_library(store)
    entry, _ = library.add(duel())
    store.data[entry.key] = "not json"
    library.delete(entry.id)
    assert library.entries() == [] and store.data[entry.key] == "not json"
    library.purge(entry.id)
    assert entry.key not in store.data


def test_missing_revision_is_listed_as_unreadable(store: FlakyStore) -> None:
    library = make_library(store)
    entry, _ = library.add(duel())
    del store.data[entry.key]
    (listed,) = library.entries()
    assert listed.name == "Duel"
    assert "missing" in listed.problems[0].message
    with pytest.raises(InvalidDocumentError, match="cannot be opened"):
        library.load(entry.id)
    with pytest.raises(DamagedEntryError, match="no saved data"):
        library.export(entry.id)


def test_damaged_index_is_rebuilt_from_the_documents(store: FlakyStore) -> None:
    library = make_library(store)
    entry, enc = library.add(duel())
    store.data[INDEX_KEY] = "{oops"
    (listed,) = library.entries()
    assert (listed.id, listed.name, listed.ruleset, listed.readable) == (
        entry.id,
        "Duel",
        "skirmish",
        True,
    )
    assert store.data[INDEX_KEY] == "{oops"
    library.save(entry.id, enc.painted([Hex(0, 0)], "hill"))
    assert json.loads(store.data[INDEX_KEY])["entries"][entry.id]["revision"] == 2


def test_interrupted_save_leaves_the_indexed_revision_current(store: FlakyStore) -> None:
    """A tab closed between writing revision 2 and updating the index: revision 1 still opens."""
    library = make_library(store)
    entry, enc = library.add(duel())
    store.data[doc_key(entry.id, 2)] = dumps(enc.renamed("Half saved"))
    assert library.entry(entry.id).revision == 1
    assert library.load(entry.id).setup.name == "Duel"
    library.save(entry.id, enc.painted([Hex(0, 0)], "hill"))
    assert [k for k in store.data if DOC_KEY.match(k)] == [doc_key(entry.id, 3)]


def test_orphan_document_without_index_is_listed(store: FlakyStore) -> None:
    store.data[doc_key("abc", 4)] = dumps(duel("Orphan"))
    library = make_library(store)
    (listed,) = library.entries()
    assert (listed.id, listed.name, listed.revision, listed.changed) == ("abc", "Orphan", 4, "")
    assert library.load("abc").setup.name == "Orphan"


def test_foreign_keys_are_ignored_and_left_alone(library: Library, store: FlakyStore) -> None:
    store.data["other-app"] = "x"
    store.data["hexcombat:enc:BAD:r1"] = "x"
    library.add(duel())
    assert [e.name for e in library.entries()] == ["Duel"]
    assert store.data["other-app"] == "x" and store.data["hexcombat:enc:BAD:r1"] == "x"


# ---- rename, duplicate, delete with undo -------------------------------------------------
def test_rename_saves_a_new_revision_under_the_new_name(library: Library) -> None:
    entry, _ = library.add(duel())
    renamed = library.rename(entry.id, "Duel at the ford")
    assert (renamed.name, renamed.revision) == ("Duel at the ford", 2)
    assert library.load(entry.id).setup.name == "Duel at the ford"


def test_rename_refuses_a_name_in_use_and_an_empty_name(library: Library) -> None:
    a, _ = library.add(duel("A"))
    library.add(duel("B"))
    with pytest.raises(LibraryError, match="already called “B”"):
        library.rename(a.id, "B")
    with pytest.raises(InvalidDocumentError) as caught:
        library.rename(a.id, "  ")
    assert caught.value.problems[0].path == "name"
    assert library.entry(a.id).name == "A"


def test_duplicate_makes_an_equal_copy_with_a_numbered_name(library: Library) -> None:
    entry, enc = library.add(duel())
    copy, copy_enc = library.duplicate(entry.id)
    again, _ = library.duplicate(entry.id)
    assert (copy.name, again.name) == ("Duel (2)", "Duel (3)")
    expected = to_document(enc)
    expected["name"] = "Duel (2)"
    assert to_document(library.load(copy.id)) == expected == to_document(copy_enc)
    assert library.duplicate(copy.id)[0].name == "Duel (4)"


def test_delete_moves_to_trash_and_restore_brings_it_back(library: Library) -> None:
    entry, enc = library.add(duel())
    library.remember(entry.id)
    deleted = library.delete(entry.id)
    assert deleted.deleted and library.entries() == [] and library.trash() == [deleted]
    assert library.last_opened() is None
    restored = library.restore(entry.id)
    assert not restored.deleted and library.entries() == [restored]
    assert to_document(library.load(entry.id)) == to_document(enc)
    assert library.last_opened() == entry.id


def test_purge_removes_every_key_and_only_from_the_trash(
    library: Library, store: FlakyStore
) -> None:
    entry, _ = library.add(duel())
    library.remember(entry.id)
    with pytest.raises(LibraryError, match="not in the trash"):
        library.purge(entry.id)
    library.delete(entry.id)
    library.purge(entry.id)
    assert library.trash() == []
    assert [k for k in store.data if k != INDEX_KEY] == []
    assert LAST_KEY not in store.data


def test_a_trashed_name_is_free_again_and_a_restored_entry_is_renamed(library: Library) -> None:
    """Deleting the open encounter and reopening the app does not make 'Duel (2)'."""
    entry, _ = library.add(duel())
    library.delete(entry.id)
    again, _ = library.add(duel())
    assert again.name == "Duel"
    restored = library.restore(entry.id)
    assert restored.name == "Duel (2)" and not restored.deleted
    assert library.load(entry.id).setup.name == "Duel (2)"
    assert library.latest() == entry.id


# ---- two tabs on one store ---------------------------------------------------------------
def test_a_save_from_a_stale_revision_is_refused_and_nothing_is_lost(store: FlakyStore) -> None:
    """Tab B saved since tab A read revision 1: A's save raises and writes nothing."""
    tab_a, tab_b = make_library(store), make_library(store)
    entry, enc = tab_a.add(duel())
    theirs = tab_b.save(entry.id, enc.painted([Hex(5, 1)], "woods"), base=entry.revision)
    assert theirs.revision == 2
    mine = enc.painted([Hex(2, 2)], "woods")
    with pytest.raises(ConflictError, match="changed in another tab") as caught:
        tab_a.save(entry.id, mine, base=entry.revision)
    assert caught.value.entry.revision == 2
    assert dumps(tab_a.load(entry.id)) == dumps(enc.painted([Hex(5, 1)], "woods"))
    copy, _ = tab_a.add(mine)  # "keep mine as a copy"
    assert copy.name == "Duel (2)"
    assert dumps(tab_a.load(copy.id)) == dumps(mine.renamed("Duel (2)"))


def test_a_deleted_entry_is_never_re_created_by_a_save(store: FlakyStore) -> None:
    tab_a, tab_b = make_library(store), make_library(store)
    entry, enc = tab_a.add(duel())
    tab_b.delete(entry.id)
    with pytest.raises(EntryGoneError, match="trash") as trashed:
        tab_a.save(entry.id, enc.painted([Hex(2, 2)], "woods"), base=entry.revision)
    assert trashed.value.entry is not None and trashed.value.entry.deleted
    tab_b.purge(entry.id)
    with pytest.raises(EntryGoneError, match="removed") as gone:
        tab_a.save(entry.id, enc.painted([Hex(2, 2)], "woods"), base=entry.revision)
    assert gone.value.entry is None
    assert tab_a.entries() == [] and tab_a.trash() == []


def test_outside_changes_are_told_apart(store: FlakyStore) -> None:
    """A rename elsewhere is adopted quietly; a changed fight, the trash and removal are not."""
    tab_a, tab_b = make_library(store), make_library(store)
    entry, enc = tab_a.add(duel())
    assert tab_a.outside_change(entry.id, entry.revision, enc)[0] == "same"
    renamed = tab_b.rename(entry.id, "Ford")
    kind, now = tab_a.outside_change(entry.id, entry.revision, enc)
    assert kind == "renamed" and now is not None and now.revision == renamed.revision
    tab_b.save(entry.id, enc.renamed("Ford").painted([Hex(5, 1)], "woods"), base=now.revision)
    assert tab_a.outside_change(entry.id, now.revision, enc)[0] == "changed"
    tab_b.delete(entry.id)
    assert tab_a.outside_change(entry.id, now.revision, enc)[0] == "trashed"
    tab_b.purge(entry.id)
    assert tab_a.outside_change(entry.id, now.revision, enc) == ("gone", None)


# ---- import and export -----------------------------------------------------------------
def test_import_adds_a_new_entry_and_never_overwrites(library: Library) -> None:
    entry, enc = library.add(duel())
    text = dumps(enc)
    first, _ = library.import_text(text)
    second, _ = library.import_text(text)
    assert [first.name, second.name] == ["Duel (2)", "Duel (3)"]
    assert to_document(library.load(entry.id)) == to_document(enc)
    assert len(library.entries()) == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"format": "hexcombat-encounter", ', ["not valid JSON"]),
        (bad_facing_text(), ["figures[0].facing: must be a whole number 0-5, got 9"]),
        ('{"format": "other"}', ["format: must be 'hexcombat-encounter', got 'other'"]),
    ],
)
def test_invalid_import_reports_every_problem_and_changes_nothing(
    library: Library, store: FlakyStore, text: str, expected: list[str]
) -> None:
    library.add(duel())
    snapshot = dict(store.data)
    with pytest.raises(InvalidDocumentError) as caught:
        library.import_text(text)
    found = [str(p) for p in caught.value.problems]
    assert len(found) == len(expected)
    assert all(e in f for e, f in zip(expected, found, strict=True))
    assert store.data == snapshot


def test_import_from_a_newer_hexcombat_is_refused(library: Library) -> None:
    doc = to_document(duel())
    doc["version"] = 99
    with pytest.raises(UnsupportedVersionError, match="newer hexcombat"):
        library.import_text(json.dumps(doc))


def decodes_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts every stored revision the library reads back (its key's entry id)."""
    decoded: list[str] = []
    real = Library._decode_in_steps

    def counted(self: Library, entry_id: str, text: str) -> Any:
        decoded.append(entry_id)
        return real(self, entry_id, text)

    monkeypatch.setattr(Library, "_decode_in_steps", counted)
    return decoded


def test_an_imported_encounter_opens_without_reading_it_back(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry, enc = library.import_text(dumps(duel()))
    decoded = decodes_counted(monkeypatch)
    assert library.load(entry.id) is enc
    assert decoded == []
    assert to_document(library.load(entry.id)) == to_document(enc)  # the next load reads it
    assert decoded == [entry.id]


def test_an_imported_encounter_saved_elsewhere_since_is_read_from_storage(
    library: Library, store: FlakyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry, enc = library.import_text(dumps(duel()))
    other_tab = make_library(store)
    other_tab.save(entry.id, enc.painted([Hex(2, 2)], "woods"), base=entry.revision)
    decoded = decodes_counted(monkeypatch)
    opened = library.load(entry.id)
    assert decoded == [entry.id] and opened is not enc
    assert opened.setup.board.terrain_id_at(Hex(2, 2)) == "woods"


def test_export_gives_a_safe_file_name_and_the_document(library: Library) -> None:
    entry, enc = library.add(duel('Ford: "day 2" / night?'))
    filename, text = library.export(entry.id)
    assert filename == "Ford- -day 2- - night.json"
    assert to_document(loads(text)) == to_document(enc)


@pytest.mark.parametrize(
    ("name", "filename"),
    [("Ambush", "Ambush.json"), ("...", "encounter.json"), ("a/b\\c", "a-b-c.json")],
)
def test_safe_filename(name: str, filename: str) -> None:
    assert safe_filename(name) == filename


@pytest.mark.parametrize(
    ("parts", "words"),
    [((2026, 11, 7, 9, 5), "7 Dec 2026, 09:05"), ((2025, 0, 31, 23, 59), "31 Jan 2025, 23:59")],
)
def test_the_list_says_when_an_entry_changed_in_fixed_words(
    parts: tuple[int, int, int, int, int], words: str
) -> None:
    assert when_words(*parts) == words


def test_export_then_import_round_trips(library: Library) -> None:
    entry, enc = library.add(duel())
    _, text = library.export(entry.id)
    imported, _ = library.import_text(text)
    expected = to_document(enc)
    expected["name"] = "Duel (2)"
    assert to_document(library.load(imported.id)) == expected


def test_long_names_stay_within_the_engine_limit_when_numbered(library: Library) -> None:
    long = "x" * 120
    library.add(duel(long))
    second, _ = library.add(duel(long))
    assert second.name.endswith(" (2)") and len(second.name) == 120


def test_last_opened_is_remembered(library: Library) -> None:
    assert library.last_opened() is None
    entry, _ = library.add(duel())
    library.remember(entry.id)
    assert library.last_opened() == entry.id
    library.remember("gone")
    assert library.last_opened() is None


# ---- the localStorage adapter ----------------------------------------------------------
class JsNull:
    """Stands in for JS null, which Pyodide does not turn into None."""


class QuotaExceededError(Exception):
    """Stands in for the DOMException a full localStorage raises."""

    name = "QuotaExceededError"


class FakeLocalStorage:
    """The parts of the Web Storage API the adapter uses."""

    def __init__(self, limit: int = 10_000) -> None:
        self.items: dict[str, str] = {}
        self.limit = limit

    @property
    def length(self) -> int:
        return len(self.items)

    def key(self, i: int) -> str | JsNull:
        return list(self.items)[i] if i < len(self.items) else JsNull()

    def getItem(self, key: str) -> str | JsNull:
        return self.items.get(key, JsNull())

    def setItem(self, key: str, value: str) -> None:
        if len(value) > self.limit:
            raise QuotaExceededError("Failed to execute 'setItem' on 'Storage'")
        self.items[key] = value

    def removeItem(self, key: str) -> None:
        self.items.pop(key, None)


def test_local_storage_adapter_maps_null_and_quota() -> None:
    backing = FakeLocalStorage(limit=10)
    store = LocalStorage(backing)
    assert store.get("missing") is None
    store.set("a", "1")
    assert (store.get("a"), store.keys()) == ("1", ["a"])
    with pytest.raises(StorageFullError):
        store.set("b", "x" * 11)
    store.remove("a")
    store.remove("a")
    assert store.keys() == []


def test_local_storage_adapter_passes_other_errors_on() -> None:
    class Broken(FakeLocalStorage):
        def setItem(self, key: str, value: str) -> None:
            raise RuntimeError("SecurityError: access denied")

    with pytest.raises(RuntimeError):
        LocalStorage(Broken()).set("a", "1")


def test_library_over_the_adapter() -> None:
    library = make_library(LocalStorage(FakeLocalStorage(limit=100_000)))
    entry, enc = library.add(duel())
    assert to_document(library.load(entry.id)) == to_document(enc)


def _ids() -> Iterator[str]:
    yield from ("dup", "dup", "fresh")


def test_new_ids_never_reuse_an_existing_one() -> None:
    ids = _ids()
    library = Library(FlakyStore(), new_id=lambda: next(ids))
    assert library.add(duel())[0].id == "dup"
    assert library.add(duel())[0].id == "fresh"
