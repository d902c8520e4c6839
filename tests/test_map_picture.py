"""A board's map picture in the document, the SVG export, the view and the command line."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest
from factories import skirmish_duel

from hexcombat import document
from hexcombat.cli import main
from hexcombat.document import VERSION, dumps, from_document, loads, to_document
from hexcombat.errors import InvalidDocumentError
from hexcombat.map_grid import GridProposal
from hexcombat.map_picture import MapPicture, PictureMismatchError, digest_of, placement
from hexcombat.share import board_svg
from hexcombat.view import PICTURE_LEFT_OUT, PICTURE_MISSING, encounter_view

BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3
PICTURE = MapPicture(digest_of(BYTES), "image/png", 1200, 900, "flat", 60.0, (70.0, 55.0))


def with_picture(picture: MapPicture = PICTURE):
    return skirmish_duel().with_setup(picture=picture)


def test_the_document_names_the_picture_by_digest_and_reads_it_back() -> None:
    enc = with_picture(PICTURE)
    doc = to_document(enc)
    assert doc["version"] == VERSION
    assert doc["board"]["picture"] == {
        "digest": digest_of(BYTES),
        "type": "image/png",
        "width": 1200,
        "height": 900,
        "orientation": "flat",
        "hex_size": 60.0,
        "offset": [70.0, 55.0],
        "terrain": "tint",
    }
    assert "base64" not in dumps(enc) and len(dumps(enc)) < 10_000
    assert loads(dumps(enc)).setup.picture == PICTURE
    assert loads(dumps(skirmish_duel())).setup.picture is None


def test_a_version_3_document_opens_without_a_picture() -> None:
    doc = to_document(skirmish_duel())
    doc["version"] = 3
    enc = from_document(doc)
    assert enc.setup.picture is None
    assert to_document(enc)["version"] == VERSION


def test_changing_the_picture_changes_no_state() -> None:
    enc = skirmish_duel()
    twin = enc.with_setup(picture=PICTURE)
    assert twin.state.board == enc.state.board
    assert twin.setup.picture == PICTURE and enc.setup.picture is None


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"digest": "abc"}, "board.picture.digest", "SHA-256 digest (64 lowercase"),
        ({"type": "image/gif"}, "board.picture.type", "image/png, image/jpeg, image/webp"),
        ({"width": 0}, "board.picture.width", ""),
        ({"hex_size": 0.5}, "board.picture.hex_size", "a number from 1 to 1200"),
        ({"hex_size": "big"}, "board.picture.hex_size", "got 'big'"),
        ({"offset": [1]}, "board.picture.offset", "must be [x, y]"),
        ({"offset": [1, 1e9]}, "board.picture.offset[1]", "a number from"),
        ({"orientation": "sideways"}, "board.picture.orientation", "flat (flat-topped"),
        ({"terrain": "glow"}, "board.picture.terrain", "tint, outline, hidden"),
        ({"tilt": 12}, "board.picture.tilt", "a number from -5 to 5"),
        ({"bytes": "..."}, "board.picture.bytes", "is not a map picture field"),
    ],
)
def test_a_bad_picture_entry_is_refused_with_its_path(change: dict, path: str, words: str) -> None:
    doc = to_document(with_picture())
    doc["board"]["picture"].update(change)
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(json.loads(json.dumps(doc)))
    problems = {p.path: p.message for p in caught.value.problems}
    assert path in problems, problems
    assert words in problems[path]


def _apply(transform: str, x: float, y: float) -> tuple[float, float]:
    """A point through an SVG transform of translate, scale and rotate (applied right to left)."""
    steps = re.findall(r"(translate|scale|rotate)\(([^)]*)\)", transform)
    for kind, args in reversed(steps):
        values = [float(v) for v in args.split()]
        if kind == "translate":
            x, y = x + values[0], y + values[1]
        elif kind == "scale":
            x, y = x * values[0], y * values[0]
        else:
            turn = math.radians(values[0])
            x, y = x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)
    return x, y


def test_placement_puts_the_offset_on_the_first_hex_and_a_hex_on_a_hex() -> None:
    transform = placement(PICTURE, (100.0, 80.0), 30.0)
    assert _apply(transform, 70.0, 55.0) == pytest.approx((100.0, 80.0))
    assert _apply(transform, 70.0 + 90.0, 55.0) == pytest.approx((145.0, 80.0))


def test_placement_turns_a_pointed_grid_a_quarter_clockwise() -> None:
    """A pointed-topped picture's pixel (x, y) is (height - y, x) after the quarter turn."""
    pointed = MapPicture(PICTURE.digest, "image/png", 1200, 900, "pointed", 60.0, (70.0, 55.0))
    transform = placement(pointed, (0.0, 0.0), 60.0)
    # the board-frame point (70, 55) is the picture's pixel (55, 900 - 70)
    assert _apply(transform, 55.0, 830.0) == pytest.approx((0.0, 0.0))
    assert _apply(transform, 55.0, 830.0 - 90.0) == pytest.approx((90.0, 0.0))


def test_aligned_takes_the_grid_finders_proposal() -> None:
    proposal = GridProposal("pointed", 41.5, (12.0, 30.0), 9, 7, 0.4, 0.9)
    aligned = PICTURE.aligned(proposal)
    assert (aligned.orientation, aligned.hex_size, aligned.offset, aligned.tilt) == (
        "pointed",
        41.5,
        (12.0, 30.0),
        0.4,
    )
    assert aligned.digest == PICTURE.digest


def _turned(x: float, y: float, degrees: float, about: tuple[float, float]) -> tuple[float, float]:
    """A point turned clockwise (on a y-down picture) about a centre, as a tilted print."""
    a = math.radians(degrees)
    dx, dy = x - about[0], y - about[1]
    cos, sin = math.cos(a), math.sin(a)
    return about[0] + dx * cos - dy * sin, about[1] + dx * sin + dy * cos


@pytest.mark.parametrize("orientation", ["flat", "pointed"])
def test_a_tilted_print_is_turned_back_about_its_middle_under_the_board(orientation: str) -> None:
    """The finder's tilt: a hex centre far from the middle of a print turned 2 degrees still
    lands on its board hex, for either orientation; the tilt is kept in the document."""
    tilted = MapPicture(PICTURE.digest, "image/png", 1200, 900, orientation, 60.0, (70.0, 55.0))
    tilted = replace(tilted, tilt=2.0)
    frame = (1200.0, 900.0) if orientation == "flat" else (900.0, 1200.0)
    transform = placement(tilted, (0.0, 0.0), 60.0)
    for col, row in ((0, 0), (10, 4), (12, 0)):  # in the board's frame, before the tilt
        x, y = 70.0 + 90.0 * col, 55.0 + math.sqrt(3.0) * 60.0 * (row + (col % 2) / 2)
        x, y = _turned(x, y, 2.0, (frame[0] / 2, frame[1] / 2))
        if orientation == "pointed":  # the picture's own pixel: the quarter turn undone
            x, y = y, 900.0 - x
        assert _apply(transform, x, y) == pytest.approx(
            (90.0 * col, math.sqrt(3.0) * 60.0 * (row + (col % 2) / 2)), abs=1e-6
        )
    doc = to_document(with_picture(tilted))
    assert doc["board"]["picture"]["tilt"] == 2.0
    assert from_document(json.loads(json.dumps(doc))).setup.picture == tilted


@pytest.mark.parametrize("terrain", ["tint", "outline", "hidden"])
def test_the_svg_export_draws_the_picture_under_the_hexes(terrain: str) -> None:
    picture = MapPicture(
        PICTURE.digest, "image/png", 1200, 900, "flat", 60.0, (70.0, 55.0), terrain
    )
    svg = board_svg(with_picture(picture), picture=BYTES)
    image = svg.index('<image class="map-picture" href="data:image/png;base64,')
    assert image < svg.index('<g class="hexes"')
    woods = re.search(r'<polygon data-hex="3,1"[^>]*>', svg).group(0)
    clear = re.search(r'<polygon data-hex="0,0"[^>]*>', svg).group(0)
    assert 'fill="none"' in clear
    if terrain == "tint":
        assert 'fill-opacity="0.45"' in woods
    elif terrain == "outline":
        assert 'fill="none"' in woods and 'stroke-width="3"' in woods
    else:
        assert 'fill="none"' in woods
    assert "base64" not in board_svg(with_picture(picture))


def test_the_svg_export_refuses_bytes_that_are_not_the_picture() -> None:
    with pytest.raises(PictureMismatchError, match="not the encounter's map picture"):
        board_svg(with_picture(), picture=b"another picture")
    with pytest.raises(ValueError, match="names no map picture"):
        board_svg(skirmish_duel(), picture=BYTES)


def test_render_takes_the_picture_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "duel.json"
    saved.write_text(dumps(with_picture()), encoding="utf-8")
    (tmp_path / "map.png").write_bytes(BYTES)
    (tmp_path / "other.png").write_bytes(b"other")
    out = tmp_path / "board.svg"
    assert main(["render", str(saved), "-o", str(out), "--picture", str(tmp_path / "map.png")]) == 0
    assert "data:image/png;base64," in out.read_text(encoding="utf-8")
    assert (
        main(["render", str(saved), "-o", str(out), "--picture", str(tmp_path / "other.png")]) == 1
    )
    assert "not the encounter's map picture" in capsys.readouterr().err
    assert (
        main(["render", str(saved), "-o", str(out), "--picture", str(tmp_path / "none.png")]) == 1
    )
    assert "cannot read the map picture" in capsys.readouterr().err


def test_the_view_names_the_picture_and_what_to_say_without_it() -> None:
    view = encounter_view(with_picture())
    assert view["picture"]["digest"] == PICTURE.digest
    assert view["picture"]["placement"] == placement(PICTURE, (0.0, 0.0), 1.0)
    assert view["picture"]["missing_words"] == PICTURE_MISSING
    assert view["picture"]["share_words"] == PICTURE_LEFT_OUT
    assert "share link carries no map picture" in PICTURE_LEFT_OUT
    assert encounter_view(skirmish_duel())["picture"] is None


def test_a_share_link_carries_the_alignment_but_no_picture() -> None:
    code = document.to_share_code(with_picture())
    assert len(code) < 2_000
    assert document.from_share_code(code).setup.picture == PICTURE


def test_two_taps_set_the_size_from_a_known_distance_and_keep_the_first_hex() -> None:
    """Taps on the board as drawn now (hexes of 30, hex 0,0 at 100,80): the picture's true
    hexes are 50 px with a centre at (75, 50); the taps are four hexes apart down a column."""
    true_size, centre = 50.0, (75.0, 50.0)
    k = PICTURE.hex_size / 30.0

    def on_board(x: float, y: float) -> tuple[float, float]:
        return (100.0 + (x - PICTURE.offset[0]) / k, 80.0 + (y - PICTURE.offset[1]) / k)

    below = (centre[0], centre[1] + 4 * math.sqrt(3) * true_size)
    aligned = PICTURE.two_taps((on_board(*centre), on_board(*below)), 4, (100.0, 80.0), 30.0)
    assert aligned.hex_size == pytest.approx(true_size)
    assert aligned.offset == pytest.approx((75.0, 50.0))
    assert (aligned.digest, aligned.orientation) == (PICTURE.digest, PICTURE.orientation)


@pytest.mark.parametrize(("apart", "words"), [(0, "1 or more hexes apart"), (True, "1 or more")])
def test_two_taps_refuse_a_distance_that_is_not_a_count_of_hexes(apart: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        PICTURE.two_taps(((0.0, 0.0), (50.0, 0.0)), apart, (0.0, 0.0), 30.0)


def test_two_taps_on_one_place_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="two different hexes"):
        PICTURE.two_taps(((10.0, 10.0), (10.0, 10.2)), 3, (0.0, 0.0), 30.0)
