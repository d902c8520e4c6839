"""The pure parts of web/share: which page a URL asks for, links, the embed snippet, links
imported before, and the library backup file."""

from __future__ import annotations

import json

import pytest

from hexcombat import Encounter
from hexcombat.document import to_document
from hexcombat.errors import InvalidDocumentError
from hexcombat.share import fingerprint, share_fragment
from web.share import backup, links


def duel() -> Encounter:
    return Encounter.new("skirmish", 5, 4, name='Duel "at" <dawn>')


def test_page_kind() -> None:
    frag = share_fragment(duel())
    assert links.page_kind("", "") == "app"
    assert links.page_kind("", frag) == "view"
    assert links.page_kind("?embed", frag) == "embed"
    assert links.page_kind("?x=1&embed=1", frag) == "embed"
    assert links.page_kind("?embedded", "#other") == "app"


def test_links_and_embed_code() -> None:
    frag = share_fragment(duel())
    href = "https://wiki.example/hex/index.html?boot-timeout=5#e=old"
    assert links.share_url(href, frag) == "https://wiki.example/hex/index.html" + frag
    assert links.embed_url(href, frag) == "https://wiki.example/hex/index.html?embed" + frag
    code = links.embed_code(href, frag, 'Duel "at" <dawn>')
    assert code.startswith('<iframe src="https://wiki.example/hex/index.html?embed#e=')
    assert 'width="700" height="500"' in code
    assert 'title="Duel &quot;at&quot; &lt;dawn> (Hex Combat)"' in code


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
    docs = backup.unbundle(text)
    assert docs == [a, b, a]
    fresh, skipped = backup.new_ones(docs, {fingerprint(b)})
    assert fresh == [a] and skipped == 2
    assert backup.unbundle(json.dumps(a)) == [a]  # one encounter file is a library of one
    for bad in ("nope", "[]", json.dumps({"format": "hexcombat-library", "version": 99})):
        with pytest.raises(InvalidDocumentError):
            backup.unbundle(bad)
