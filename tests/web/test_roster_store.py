"""The rosters in the browser's storage (web/library/roster.py) and in a backup: revisions,
another tab's save, a failed write, a damaged or hostile roster, imports that never replace."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from test_storage import FlakyStore

from hexcombat.roster import from_document, new_roster, saved, to_document
from tests.factories import skirmish_duel
from web.library.entries import DamagedEntryError, StorageFullError
from web.library.roster import RosterChangedError, Rosters, roster_key
from web.share import backup

pytestmark = pytest.mark.pyodide


def two_characters() -> tuple[Rosters, FlakyStore]:
    store = FlakyStore()
    rosters = Rosters(store)
    enc = skirmish_duel()
    roster = new_roster("skirmish")
    for fid in ("ann", "bo"):
        roster, _ = saved(roster, enc.setup_figure(fid))
    rosters.save(roster, 0)
    return rosters, store


def test_a_roster_is_saved_as_revisions_and_only_the_newest_is_kept() -> None:
    rosters, store = two_characters()
    kept = rosters.kept("skirmish")
    assert kept.revision == 1 and kept.roster is not None
    assert [c.id for c in kept.roster.characters] == ["ann-archer", "bo-brute"]
    rosters.save(kept.roster, kept.revision)
    assert [k for k in store.data if "roster" in k] == [roster_key("skirmish", 2)]
    assert rosters.kept("fig-percentile").revision == 0  # none yet: an empty one


def test_a_save_from_a_revision_another_tab_moved_on_from_is_refused() -> None:
    rosters, store = two_characters()
    mine = rosters.kept("skirmish")
    theirs = Rosters(store).kept("skirmish")
    assert theirs.roster is not None and mine.roster is not None
    Rosters(store).save(theirs.roster, theirs.revision)
    with pytest.raises(RosterChangedError, match="another tab"):
        rosters.save(mine.roster, mine.revision)
    assert rosters.kept("skirmish").revision == 2


def test_a_failed_write_leaves_the_roster_as_it_was() -> None:
    rosters, store = two_characters()
    kept = rosters.kept("skirmish")
    assert kept.roster is not None
    store.fail_at = {store.sets + 1}
    with pytest.raises(StorageFullError):
        rosters.save(new_roster("skirmish"), kept.revision)
    assert rosters.kept("skirmish") == kept


def test_a_damaged_roster_is_listed_with_its_problem_and_never_overwritten() -> None:
    store = FlakyStore()
    doc = {"format": "hexcombat-roster", "version": 1, "ruleset": "skirmish"}
    doc["characters"] = [{"id": "a", "name": "A", "side": "Blue", "stats": {"hp": "x"}}]
    store.set(roster_key("skirmish", 3), json.dumps(doc))
    rosters = Rosters(store)
    [kept] = rosters.every()
    assert kept.roster is None and kept.revision == 3
    assert "characters[0].stats.hp" in [p.path for p in kept.problems]
    with pytest.raises(DamagedEntryError):
        rosters.save(new_roster("skirmish"), 3)
    assert store.get(roster_key("skirmish", 3)) == json.dumps(doc)
    rosters.remove("skirmish")
    assert rosters.kept("skirmish").revision == 0


def test_export_all_and_import_all_carry_the_rosters_and_never_replace_a_character() -> None:
    rosters, _ = two_characters()
    text = backup.bundle([], "2026-01-01", rosters=rosters.documents())
    fresh = Rosters(FlakyStore())
    assert fresh.import_documents(backup.unbundle(text).rosters) == (2, [])
    assert fresh.import_documents(backup.unbundle(text).rosters) == (0, [])  # all there
    mine = fresh.kept("skirmish").roster
    assert mine is not None
    bo = replace(mine.character("bo-brute").figure.copy(), character="bo-brute")
    bo.stats["hp"] = 30
    changed, _ = saved(mine, bo)
    fresh.save(changed, fresh.kept("skirmish").revision)
    assert fresh.import_documents(backup.unbundle(text).rosters) == (1, [])
    again = fresh.kept("skirmish").roster
    assert again is not None
    assert [c.id for c in again.characters] == ["ann-archer", "bo-brute", "bo-brute-2"]
    assert again.character("bo-brute").figure.stats["hp"] == 30
    assert again.character("bo-brute-2").figure.stats["hp"] == 12


@pytest.mark.parametrize(
    ("roster", "path"),
    [
        ({"format": "hexcombat-roster", "version": 1, "ruleset": "nope"}, "ruleset"),
        ({"format": "hexcombat-roster", "version": 7, "ruleset": "skirmish"}, "version"),
        (
            {
                "format": "hexcombat-roster",
                "version": 1,
                "ruleset": "skirmish",
                "characters": [{"id": "a", "name": "A", "side": "B", "position": "1,1"}],
            },
            "characters[0].position",
        ),
        ("[" * 5000, ""),
    ],
)
def test_a_bad_roster_in_a_backup_is_refused_with_its_path_and_changes_nothing(
    roster: object, path: str
) -> None:
    rosters, store = two_characters()
    before = dict(store.data)
    good = to_document(new_roster("fig-percentile"))
    text = backup.bundle([], "2026-01-01", rosters=[roster, good])  # type: ignore[list-item]
    added, refused = rosters.import_documents(backup.unbundle(text).rosters)
    assert added == 0 and len(refused) == 1
    assert refused[0].startswith(f"rosters[0]: {path}")
    assert store.data == before


def test_a_backup_whose_rosters_are_not_a_list_is_refused() -> None:
    data = json.loads(backup.bundle([], "2026-01-01"))
    data["rosters"] = {"x": 1}
    with pytest.raises(Exception, match="damaged backup"):
        backup.unbundle(json.dumps(data))


def test_saved_roster_text_reads_back_through_the_engines_reader() -> None:
    rosters, store = two_characters()
    text = store.get(roster_key("skirmish", 1))
    assert text is not None
    assert from_document(json.loads(text)) == rosters.kept("skirmish").roster
