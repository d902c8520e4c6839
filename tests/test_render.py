"""Static SVG rendering: well-formed, complete, escaped, deterministic."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from hexcombat.board import Board
from hexcombat.geometry import Hex
from hexcombat.layout import from_offset, hex_label
from hexcombat.render import Token, render_svg, xml_invalid
from hexcombat.terrain import PATTERNS, Terrain, TerrainTable

pytestmark = pytest.mark.pyodide

NS = {"svg": "http://www.w3.org/2000/svg"}

TABLE = TerrainTable(
    [Terrain("clear", "Clear", 1)]
    + [
        Terrain(f"t-{p}", f"Terrain {p}", 2, pattern=p, color="#8a7", soft_cover=1)
        for p in PATTERNS
        if p != "none"
    ]
    + [Terrain("wall", 'Wall <&> "stone"', None, blocks_sight=True, obscures=True)]
)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def hex_polygons(root: ET.Element) -> list[ET.Element]:
    return [p for p in root.iter("{http://www.w3.org/2000/svg}polygon") if "data-hex" in p.attrib]


def figures(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "data-figure" in g.attrib]


def test_empty_board_parses_with_one_polygon_per_hex() -> None:
    board = Board(7, 5, TABLE)
    root = parse(render_svg(board))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    polys = hex_polygons(root)
    assert len(polys) == 35
    assert {p.attrib["data-hex"] for p in polys} == {str(h) for h in board.hexes()}
    assert all(p.attrib["data-terrain"] == "clear" for p in polys)
    assert all(p.attrib["aria-label"].startswith("hex ") for p in polys)
    assert all(len(p.attrib["points"].split()) == 6 for p in polys)
    assert root.find("svg:defs", NS) is None  # no patterned terrain in use
    assert root.find("svg:title", NS) is not None


def test_terrain_fills_patterns_and_legend() -> None:
    board = Board(4, 4, TABLE)
    for i, t in enumerate(TABLE):
        board = board.painted([from_offset(i % 4, i // 4)], t.id)
    svg = render_svg(board)
    root = parse(svg)
    by_hex = {p.attrib["data-hex"]: p for p in hex_polygons(root)}
    woods = by_hex[str(from_offset(1, 0))]
    assert woods.attrib["data-terrain"] == "t-trees"
    assert woods.attrib["fill"] == "url(#terrain-t-trees)"
    assert by_hex[str(from_offset(0, 0))].attrib["fill"] == "#d9d4c0"
    pattern_ids = {p.attrib["id"] for p in root.iter("{http://www.w3.org/2000/svg}pattern")}
    assert pattern_ids == {f"terrain-t-{p}" for p in PATTERNS if p != "none"}
    legend = root.find("svg:g[@class='legend']", NS)
    assert legend is not None
    texts = [t.text or "" for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert len(texts) == len(TABLE)
    assert 'Wall <&> "stone" (impassable, blocks sight, obscures)' in texts
    assert "Terrain trees (move 2, soft cover 1)" in texts


def test_legend_lists_only_terrain_in_use() -> None:
    board = Board(3, 3, TABLE).painted([Hex(0, 0)], "t-waves")
    root = parse(render_svg(board))
    legend = root.find("svg:g[@class='legend']", NS)
    assert legend is not None
    texts = [t.text or "" for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["Clear (move 1)", "Terrain waves (move 2, soft cover 1)"]


def test_tokens_carry_hooks_names_and_badges() -> None:
    board = Board(5, 5, TABLE)
    tokens = [
        Token("f1", "Brie Barley", "red", from_offset(1, 1), 2, "#cc3333", ("prone", "stunned")),
        Token("f2", "Barclay", "blue", from_offset(3, 2), 5),
    ]
    root = parse(render_svg(board, tokens))
    gs = figures(root)
    assert [g.attrib["data-figure"] for g in gs] == ["f1", "f2"]
    assert [g.attrib["data-facing"] for g in gs] == ["2", "5"]
    assert gs[0].attrib["aria-label"] == (
        f"Brie Barley (red), facing south-east, at {from_offset(1, 1)}; prone, stunned"
    )
    texts = [t.text for t in gs[0].iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["BB", "prone, stunned"]
    # the page's initials (Figure.initials): one word gives one letter, as the app shows it
    assert [t.text for t in gs[1].iter("{http://www.w3.org/2000/svg}text")] == ["B"]
    circle = gs[0].find("svg:circle", NS)
    assert circle is not None
    assert circle.attrib["stroke"] == "#cc3333"
    assert gs[0].find("svg:polygon", NS) is not None  # the facing wedge


def test_facing_wedge_points_at_the_front_hexside() -> None:
    board = Board(5, 5, TABLE)
    h = from_offset(2, 2)
    for facing, (sx, sy) in enumerate([(0, -1), (1, -1), (1, 1), (0, 1), (-1, 1), (-1, -1)]):
        root = parse(render_svg(board, [Token("x", "X", "s", h, facing)]))
        g = figures(root)[0]
        circle = g.find("svg:circle", NS)
        wedge = g.find("svg:polygon", NS)
        assert circle is not None
        assert wedge is not None
        cx, cy = float(circle.attrib["cx"]), float(circle.attrib["cy"])
        tx, ty = (float(v) for v in wedge.attrib["points"].split()[0].split(","))
        assert (tx - cx) * sx >= 0
        assert (ty - cy) * sy > 0


def test_text_is_escaped() -> None:
    board = Board(2, 2, TABLE).painted([Hex(0, 0)], "wall")
    token = Token('a"b', "<script>alert(1)</script> & co", 'si"de', Hex(1, 0), 0, badges=("<b>",))
    svg = render_svg(board, [token], title='Fight <at> "the" ford & more\x01')
    assert "<script>" not in svg
    assert "<b>" not in svg
    root = parse(svg)
    g = figures(root)[0]
    assert g.attrib["data-figure"] == 'a"b'
    assert "<script>alert(1)</script> & co" in g.attrib["aria-label"]
    title = root.find("svg:title", NS)
    assert title is not None
    assert title.text == 'Fight <at> "the" ford & more\ufffd'


def test_coordinates_and_title() -> None:
    board = Board(3, 2, TABLE)
    root = parse(render_svg(board, show_coords=True, title="Skirmish"))
    coords = root.find("svg:g[@class='coords']", NS)
    assert coords is not None
    # a person reads the friendly labels ("B1"); data-hex keeps the axial key
    assert sorted(t.text or "" for t in coords) == sorted(hex_label(h) for h in board.hexes())
    assert root.attrib["aria-label"] == "Skirmish"
    assert parse(render_svg(board)).find("svg:g[@class='coords']", NS) is None


def test_shared_hex_tokens_are_side_by_side() -> None:
    board = Board(3, 3, TABLE)
    h = from_offset(1, 1)
    root = parse(render_svg(board, [Token("a", "A", "x", h, 0), Token("b", "B", "y", h, 3)]))
    xs = []
    for g in figures(root):
        circle = g.find("svg:circle", NS)
        assert circle is not None
        xs.append(float(circle.attrib["cx"]))
    assert xs[0] < xs[1]


def test_output_is_deterministic_and_fits_the_viewbox() -> None:
    board = Board(6, 4, TABLE).painted([Hex(1, 1), Hex(2, 0)], "t-rock")
    tokens = [Token("a", "A", "x", Hex(0, 0), 1)]
    first = render_svg(board, tokens, hex_size=20.0)
    assert first == render_svg(board, tokens, hex_size=20.0)
    root = parse(first)
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    for p in hex_polygons(root):
        for pair in p.attrib["points"].split():
            x, y = (float(v) for v in pair.split(","))
            assert 0 <= x <= width
            assert 0 <= y <= height


def test_render_rejects_bad_input() -> None:
    board = Board(3, 3, TABLE)
    with pytest.raises(ValueError, match="off the board"):
        render_svg(board, [Token("a", "A", "x", Hex(9, 9), 0)])
    with pytest.raises(ValueError, match="facing 7"):
        render_svg(board, [Token("a", "A", "x", Hex(0, 0), 7)])
    with pytest.raises(ValueError, match="hex_size"):
        render_svg(board, hex_size=0)


def test_board_alone_is_laid_out_as_the_live_board() -> None:
    """Without the legend, with the page's margin: hex 0,0's centre at (margin + size,
    margin + apothem), and the picture exactly the board's extent."""
    board = Board(12, 9, TABLE)
    root = parse(render_svg(board, hex_size=30.0, margin=16.0, legend=False))
    assert root.find("svg:g[@class='legend']", NS) is None
    assert root.attrib["viewBox"] == "0 0 587 525.63"  # the live board's size (web/board/units.py)
    first = next(p for p in hex_polygons(root) if p.attrib["data-hex"] == "0,0")
    corners = [tuple(map(float, pair.split(","))) for pair in first.attrib["points"].split()]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert (max(xs) + min(xs)) / 2 == pytest.approx(46.0, abs=0.01)
    assert (max(ys) + min(ys)) / 2 == pytest.approx(16.0 + 15.0 * 3**0.5, abs=0.01)
    with pytest.raises(ValueError, match="margin"):
        render_svg(board, margin=-1.0)


def test_token_initials_come_from_the_token_when_given() -> None:
    board = Board(3, 3, TABLE)
    tokens = [Token("a", "Ash the Warden", "x", Hex(0, 0), 1, initials="XY")]
    assert ">XY</text>" in render_svg(board, tokens)
    # without them, the initials the app shows (first and last word of the name)
    assert ">AW</text>" in render_svg(board, [Token("a", "Ash the Warden", "x", Hex(0, 0), 1)])


def test_every_character_xml_does_not_allow_is_replaced_and_no_other() -> None:
    """The pattern of the characters XML 1.0 forbids names them directly (quick to compile at
    the page's start): it matches exactly the complement of XML's Char production."""
    allowed = re.compile("[\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    every = "".join(map(chr, range(0x110000)))
    # (removing what it matches leaves each allowed character, in order, and nothing else)
    assert xml_invalid().sub("", every) == "".join(allowed.findall(every))


def test_an_export_draws_a_figure_out_of_the_fight_crossed_out_and_says_so() -> None:
    from factories import skirmish_duel

    from hexcombat import Action
    from hexcombat.view import tokens

    enc = skirmish_duel()
    enc.perform(Action("gm_status", None, {"figure": "bo", "status": "down", "duration": 0}))
    drawn = {t.id: t for t in tokens(enc.state)}
    assert drawn["bo"].out and not drawn["ann"].out
    svg = render_svg(enc.state.board, list(drawn.values()))
    bo = ET.fromstring(svg).find(".//{http://www.w3.org/2000/svg}g[@data-figure='bo']")
    assert bo is not None and bo.get("data-out") == "true"
    assert "out of the fight" in str(bo.get("aria-label"))
    assert bo.find("{http://www.w3.org/2000/svg}path[@class='out']") is not None
