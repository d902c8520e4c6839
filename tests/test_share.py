"""Share links, play by post and static exports (hexcombat/share.py)."""

from __future__ import annotations

import json
import random
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from factories import skirmish_duel
from playouts import played_at_random, random_action

from hexcombat import Action, Encounter
from hexcombat.document import from_document, to_document
from hexcombat.share import (
    LINK_LIMIT,
    board_svg,
    code_from_fragment,
    encounter_from_fragment,
    fingerprint,
    log_markdown,
    new_events,
    received,
    setup_fingerprint,
    share_fragment,
)

pytestmark = pytest.mark.pyodide

SVG = "{http://www.w3.org/2000/svg}"


def played(steps: int = 12, seed: int = 3) -> Encounter:
    enc = played_at_random(skirmish_duel(), random.Random(seed).randrange, steps)
    assert len(enc.log) == steps
    return enc


def test_a_link_fragment_carries_the_whole_encounter() -> None:
    enc = played()
    enc.undo()  # the cursor travels too
    fragment = share_fragment(enc)
    assert fragment.startswith("#e=")
    assert set(fragment[3:]) <= set(string.ascii_letters + string.digits + "-_")
    back = encounter_from_fragment(fragment)
    assert back is not None and to_document(back) == to_document(enc)
    assert len(fragment) < LINK_LIMIT


def test_fragment_keys() -> None:
    assert code_from_fragment("#e=abc") == "abc"
    assert code_from_fragment("#x=1&e=abc&y=2") == "abc"
    assert code_from_fragment("e=abc") == "abc"
    assert code_from_fragment("#") is None and code_from_fragment("#e=") is None
    assert encounter_from_fragment("") is None


def test_fingerprints() -> None:
    enc = played()
    doc = to_document(enc)
    back = encounter_from_fragment(share_fragment(enc))
    assert back is not None and fingerprint(doc) == fingerprint(to_document(back))
    renamed = to_document(enc.renamed("Other name"))
    assert fingerprint(renamed) != fingerprint(doc)
    assert setup_fingerprint(renamed) == setup_fingerprint(doc)
    other = to_document(skirmish_duel(seed=8))
    assert setup_fingerprint(other) != setup_fingerprint(doc)


def test_play_by_post_sees_what_a_link_adds() -> None:
    mine = played(8)
    theirs = mine.copy()
    while len(theirs.log) < 11:
        action = random_action(theirs, random.Random(len(theirs.log)).randrange)
        assert action is not None
        try:
            theirs.perform(action)
        except ValueError:
            continue
    a, b = to_document(mine), to_document(theirs)
    ahead = received(a, b)
    assert ahead is not None and (ahead.relation, ahead.common, ahead.new) == ("ahead", 8, 3)
    assert new_events(theirs, ahead.common) == [
        e for i in range(8, 11) for e in theirs.entry_events(i)
    ]
    assert received(b, a) is not None and received(b, a).relation == "behind"  # type: ignore[union-attr]
    assert received(a, a) is not None and received(a, a).relation == "same"  # type: ignore[union-attr]
    # undone entries (beyond the cursor) are not part of what was played
    undone = mine.copy()
    undone.undo()
    behind = received(a, to_document(undone))
    assert behind is not None and behind.relation == "behind"
    assert received(a, to_document(skirmish_duel(seed=9))) is None


def test_diverged_copies() -> None:
    base = played(6)
    one, two = base.copy(), base.copy()
    one.undo()
    two.undo()
    one.perform(Action("next_step"))
    rng = random.Random(11)
    while True:
        action = random_action(two, rng.randrange)
        if action is not None and action.kind != "next_step":
            try:
                two.perform(action)
                break
            except ValueError:
                continue
    got = received(to_document(one), to_document(two))
    assert got is not None and got.relation == "diverged" and got.common == 5 and got.new == 1


def test_board_svg_is_the_cli_picture(tmp_path: object) -> None:
    from hexcombat.cli import main

    enc = played()
    svg = board_svg(enc)
    root = ET.fromstring(svg)
    figures = {g.get("data-figure") for g in root.iter(f"{SVG}g") if g.get("data-figure")}
    assert figures == set(enc.state.figures)
    terrain = {p.get("data-hex"): p.get("data-terrain") for p in root.iter(f"{SVG}polygon")}
    assert terrain["3,1"] == "woods"
    import contextlib
    import io
    from pathlib import Path

    path = Path(str(tmp_path)) / "duel.json"
    from hexcombat import dumps

    path.write_text(dumps(enc), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["render", str(path), "-o", "-"]) == 0
    assert out.getvalue() == svg


def test_log_markdown() -> None:
    enc = played()
    text = log_markdown(enc)
    assert text.startswith("# Duel\n")
    for event in enc.events:
        first = event.text.split()[0].replace("*", "\\*").replace("_", "\\_")
        assert first in text
    assert "## Round 1" in text
    assert text.rstrip().splitlines()[-1].startswith("Now: ")
    empty = log_markdown(skirmish_duel().renamed("A *bold* [link](x) <b>"))
    assert empty.startswith("# A \\*bold\\* \\[link\\](x) \\<b\\>\n")
    assert "No actions yet." in empty


# ---- exports read as the app does -------------------------------------------
DEMO_DIR = Path(__file__).parent.parent / "static" / "demos"
DEMOS = sorted(p for p in DEMO_DIR.glob("*.json") if p.stem != "index")


def played_demo(name: str) -> Encounter:
    enc = from_document(json.loads((DEMO_DIR / name).read_text(encoding="utf-8")))
    while enc.can_redo:
        enc.redo()
    return enc


@pytest.mark.parametrize("name", [p.name for p in DEMOS])
def test_svg_tokens_carry_the_initials_the_app_shows(name: str) -> None:
    """Fig-percentile's Barclay the Black and Brie the Oaken were both "BT" in SVG and PNG."""
    enc = played_demo(name)
    root = ET.fromstring(board_svg(enc))
    drawn = {
        str(g.get("data-figure")): next(t.text for t in g.iter(f"{SVG}text"))
        for g in root.iter(f"{SVG}g")
        if g.get("data-figure")
    }
    assert drawn == {fid: f.initials for fid, f in enc.state.figures.items()}


@pytest.mark.parametrize("name", [p.name for p in DEMOS])
def test_markdown_log_has_step_headings_rule_ids_once_and_no_app_wording(name: str) -> None:
    enc = played_demo(name)
    md = log_markdown(enc)
    steps = [e for e in enc.events if e.kind == "clock"]
    assert md.count("\n### ") == len(steps)
    assert md.count("\n- ") == len(enc.events) - len(steps)
    for event in enc.events:
        if event.rule:
            shown = f"({event.rule})".replace("[", "\\[")
            assert f"{shown} {shown}" not in md
    intro = md.split("\n## ", 1)[0]
    assert "redo" not in intro.lower() and "(spec " not in intro
