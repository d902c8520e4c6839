"""The first-visit board picture the build puts into index.html (web/board_picture.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hexcombat.document import from_document
from hexcombat.view import encounter_view
from web import board_picture, build

STATIC = build.ROOT / "static"


def test_the_picture_is_the_demo_a_first_visit_opens_with_its_figures() -> None:
    demo = board_picture.first_demo(STATIC)
    assert demo is not None
    listed = json.loads((STATIC / "demos" / "index.json").read_text(encoding="utf-8"))
    assert demo.name == next(d["file"] for d in listed if d.get("first_visit"))
    enc = from_document(json.loads(demo.read_text(encoding="utf-8")))
    view = encounter_view(enc)
    root = ET.fromstring(board_picture.picture(demo))
    hexes = [e for e in root.iter() if "data-hex" in e.attrib]
    assert len(hexes) == enc.setup.board.width * enc.setup.board.height
    placed = {e.attrib["data-figure"] for e in root.iter() if "data-figure" in e.attrib}
    assert placed == {str(f["id"]) for f in view["figures"]}  # type: ignore[union-attr, index]
    markup = board_picture.picture(demo)
    assert 'style="fill: var(--board-bg)' in markup
    assert "aria-label" not in markup and "<title>" not in markup  # shown aria-hidden


def test_the_built_page_carries_the_picture_in_an_inert_template() -> None:
    html = build.page_html()
    assert board_picture.SLOT not in html
    start = html.index('<template id="first-board" data-file="skirmish.json"><svg')
    assert html.index("</template>", start) > start
    assert "<script" not in html[start : html.index("</template>", start)]


def test_a_page_without_the_slot_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="slot"):
        board_picture.with_picture("<html></html>", STATIC)
    (tmp_path / "demos").mkdir()
    (tmp_path / "demos" / "index.json").write_text("[]", encoding="utf-8")
    assert board_picture.with_picture(board_picture.SLOT, tmp_path) == (
        '<template id="first-board"></template>'
    )


def test_each_built_in_rulesets_terrain_is_drawn_for_the_share_picture_as_the_engine_draws_it() -> (
    None
):
    """web/share-picture.js draws a shared board with these fills and patterns (the ones
    ``hexcombat.render`` gives the first-visit picture), for every built-in ruleset."""
    from hexcombat.rulesets import get_ruleset, ruleset_entries

    looks = board_picture.terrain_looks()
    assert set(looks) == {e.id for e in ruleset_entries()}
    for ruleset_id, look in looks.items():
        table = get_ruleset(ruleset_id).terrain
        assert look["default"] == table.default.id
        for terrain in table:
            fill = look["fill"][terrain.id]
            if terrain.pattern == "none":
                assert fill == terrain.color
            else:
                assert fill == f"url(#terrain-{terrain.id})"
                assert f'<pattern id="terrain-{terrain.id}"' in look["defs"]


def test_the_share_picture_script_is_filled_in(tmp_path: Path) -> None:
    build.write_share_picture(tmp_path)
    script = (tmp_path / "share-picture.js").read_text(encoding="utf-8")
    assert "__" not in script.replace("__proto__", "")
    assert 'id=\\"viewer-main\\"' in script and '"two-action-2d10":' in script
