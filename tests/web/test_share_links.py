"""The pure parts of web/share: which page a URL asks for, links, the embed snippet, links
imported before, and the library backup file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexcombat import Encounter
from hexcombat.document import to_document
from hexcombat.errors import InvalidDocumentError
from hexcombat.share import fingerprint, share_fragment
from web import build
from web.share import backup, links
from web.ui.html import el


def duel() -> Encounter:
    return Encounter.new("skirmish", 5, 4, name='Duel "at" <dawn>')


def test_page_kind() -> None:
    frag = share_fragment(duel())
    assert links.page_kind("", "") == "app"
    assert links.page_kind("", frag) == "view"
    assert links.page_kind("?embed", frag) == "embed"
    assert links.page_kind("?x=1&embed=1", frag) == "embed"
    assert links.page_kind("?embedded", "#other") == "app"
    assert links.page_kind("?embed&x=1", "") == "embed"
    # as index.html's start-up script reads the query (a quoted name is not "embed" there)
    assert links.page_kind("?%65mbed", frag) == "view"


def test_links_and_embed_code() -> None:
    frag = share_fragment(duel())
    href = "https://wiki.example/hex/index.html?boot-timeout=5#e=old"
    assert links.share_url(href, frag) == "https://wiki.example/hex/index.html" + frag
    assert links.embed_url(href, frag) == "https://wiki.example/hex/index.html?embed" + frag
    code = links.embed_code(href, frag, 'Duel "at" <dawn>')
    assert code.startswith('<iframe src="https://wiki.example/hex/index.html?embed#e=')
    assert 'width="700" height="500"' in code
    assert 'title="Duel &quot;at&quot; &lt;dawn&gt; (Hex Combat)"' in code
    # text to copy, not markup of the page: put in a text box it shows as its text
    assert el("textarea", code).startswith("<textarea>&lt;iframe src=&quot;https://")


def test_imported_links_are_remembered() -> None:
    data: dict[str, str] = {}
    imported = links.Imported(data.get, data.__setitem__)
    assert imported.entry_of("abc") is None
    imported.note("abc", "e1")
    imported.note("def", "e2")
    assert imported.entry_of("abc") == "e1" and imported.entry_of("def") == "e2"
    data[links.IMPORTED_KEY] = "not json"
    assert links.Imported(data.get, data.__setitem__).entry_of("abc") is None


def test_backup_round_trip_skips_known_and_repeated() -> None:
    a = to_document(duel())
    b = to_document(duel().renamed("Other"))
    text = backup.bundle([a, b, a], "2025-01-01")
    docs = backup.unbundle(text).encounters
    assert docs == [a, b, a]
    fresh, skipped = backup.new_ones(docs, {fingerprint(b)})
    assert fresh == [a] and skipped == 2
    assert backup.unbundle(json.dumps(a)).encounters == [
        a
    ]  # one encounter file is a library of one
    for bad in ("nope", "[]", json.dumps({"format": "hexcombat-library", "version": 99})):
        with pytest.raises(InvalidDocumentError):
            backup.unbundle(bad)


def test_a_hostile_backup_gets_the_readers_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nested 100,000 deep (which exhausts Pyodide's stack in json.loads), NaN, a huge integer
    or too large a file: refused with the engine reader's words, before anything is parsed
    (the size limit made small here: a backup may hold pictures, so the real one is large)."""
    monkeypatch.setattr(backup, "MAX_BACKUP_CHARS", 300_000)
    cases = {
        "[" * 100_000 + "]" * 100_000: "nested 100000 deep",
        '{"format": "hexcombat-library", "version": NaN}': "only finite numbers",
        '{"version": ' + "9" * 5000 + "}": "holds a value JSON documents may not",
        " " * (backup.MAX_BACKUP_CHARS + 1): "the file is too large",
    }
    for text, words in cases.items():
        with pytest.raises(InvalidDocumentError, match="not a Hex Combat backup") as caught:
            backup.unbundle(text)
        assert words in str(caught.value)


def test_imported_link_notes_that_nest_too_deep_are_forgotten() -> None:
    data = {links.IMPORTED_KEY: "{" * 50_000}
    assert links.Imported(data.get, data.__setitem__).entry_of("abc") is None


def test_the_page_parses_json_only_through_the_engines_reader() -> None:
    """Every JSON text the page reads (backups, stored entries, files, share codes, notes) goes
    through hexcombat.document.read_json; build-time tools are not the page."""
    web = Path(__file__).resolve().parents[2] / "web"
    tools = build.WEB_NOT_SHIPPED  # build-time files, not shipped to the page
    parsing = [
        str(p.relative_to(web))
        for p in web.rglob("*.py")
        if p.name not in tools and "node_modules" not in p.parts
        if "json.loads(" in p.read_text(encoding="utf-8")
    ]
    assert parsing == []
