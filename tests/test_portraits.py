"""A figure's portrait: named by digest in the encounter and the roster, read back, refused
with its path when bad, carried into the next fight, drawn in the SVG export over the token,
and sent to the table's devices with the fight's other pictures."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from factories import skirmish_duel
from table_net import Net

from hexcombat import Encounter, Hex
from hexcombat.cli import main
from hexcombat.document import VERSION, dumps, from_document, loads, read_json, to_document
from hexcombat.errors import InvalidDocumentError, UnsupportedVersionError
from hexcombat.figures import Portrait
from hexcombat.map_picture import MapPicture, digest_of
from hexcombat.roster import VERSION as ROSTER_VERSION
from hexcombat.roster import from_document as roster_from_document
from hexcombat.roster import joined, new_roster, saved
from hexcombat.roster import to_document as roster_document
from hexcombat.share import board_svg
from hexcombat.table.pictures import named_pictures, picture_types

ANN_BYTES = b"\x89PNG\r\n\x1a\n" + b"ann" * 400
BO_BYTES = b"\xff\xd8\xff" + b"bo" * 500
MAP_BYTES = b"\x89PNG\r\n\x1a\n" + b"map" * 700
ANN = Portrait(digest_of(ANN_BYTES), "image/png")
BO = Portrait(digest_of(BO_BYTES), "image/jpeg")


def with_portraits(ann: Portrait | None = ANN, bo: Portrait | None = BO) -> Encounter:
    enc = skirmish_duel()
    enc = enc.with_figure(replace(enc.setup_figure("ann"), portrait=ann))
    return enc.with_figure(replace(enc.setup_figure("bo"), portrait=bo))


def figure_doc(enc: Encounter, fid: str) -> dict[str, Any]:
    return next(f for f in to_document(enc)["figures"] if f["id"] == fid)


def test_the_document_names_a_portrait_by_digest_and_type_and_reads_it_back() -> None:
    enc = with_portraits()
    assert figure_doc(enc, "ann")["portrait"] == {"digest": ANN.digest, "type": "image/png"}
    assert "base64" not in dumps(enc)
    again = loads(dumps(enc))
    assert again.setup_figure("ann").portrait == ANN
    assert again.setup_figure("bo").portrait == BO
    assert again.state.figures["ann"].portrait == ANN  # the fight's figures carry it too
    assert "portrait" not in figure_doc(skirmish_duel(), "ann")


def test_a_figure_without_a_portrait_writes_none_and_copies_keep_it() -> None:
    enc = with_portraits(bo=None)
    assert "portrait" not in figure_doc(enc, "bo")
    assert enc.setup_figure("ann").copy().portrait == ANN


def test_a_version_4_document_opens_without_portraits_and_is_written_as_the_latest() -> None:
    doc = to_document(skirmish_duel())
    doc["version"] = 4
    enc = from_document(doc)
    assert all(f.portrait is None for f in enc.setup.figures)
    assert to_document(enc)["version"] == VERSION == 5


def test_a_portrait_from_a_newer_hexcombat_is_refused_not_dropped() -> None:
    doc = to_document(with_portraits())
    doc["version"] = VERSION + 1
    with pytest.raises(UnsupportedVersionError):
        from_document(doc)


@pytest.mark.parametrize(
    ("portrait", "path", "words"),
    [
        ("ann.png", "figures[0].portrait", "must be an object"),
        ({"digest": "abc", "type": "image/png"}, "figures[0].portrait.digest", "SHA-256"),
        (
            {"digest": ANN.digest.upper(), "type": "image/png"},
            "portrait.digest",
            ANN.digest.upper()[:9],
        ),
        ({"type": "image/png"}, "figures[0].portrait.digest", "got null"),
        ({"digest": ANN.digest, "type": "image/gif"}, "figures[0].portrait.type", "image/webp"),
        ({"digest": ANN.digest}, "figures[0].portrait.type", "must be one of"),
        ({**ANN.to_json(), "data": "iVBORw0"}, "figures[0].portrait.data", "not a portrait field"),
    ],
)
def test_a_bad_portrait_is_refused_with_its_path(portrait: Any, path: str, words: str) -> None:
    doc = to_document(skirmish_duel())
    doc["figures"][0]["portrait"] = portrait
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(doc)
    found = [p for p in caught.value.problems if p.path.endswith(path)]
    assert found, caught.value.problems
    assert words in found[0].message


def test_every_bad_portrait_is_reported_in_one_pass() -> None:
    doc = to_document(skirmish_duel())
    doc["figures"][0]["portrait"] = {"digest": "x", "type": "image/png"}
    doc["figures"][1]["portrait"] = {"digest": BO.digest, "type": "text/html"}
    with pytest.raises(InvalidDocumentError) as caught:
        from_document(doc)
    paths = {p.path for p in caught.value.problems}
    assert {"figures[0].portrait.digest", "figures[1].portrait.type"} <= paths


def test_a_roster_character_carries_its_portrait_into_the_next_fight() -> None:
    enc = with_portraits()
    roster, cid = saved(new_roster("skirmish"), enc.setup_figure("ann"))
    doc = roster_document(roster)
    assert doc["version"] == ROSTER_VERSION == 2
    assert doc["characters"][0]["portrait"] == ANN.to_json()
    again = roster_from_document(read_json(json.dumps(doc)))
    assert again.character(cid).figure.portrait == ANN
    fight = joined(Encounter.new("skirmish", 6, 5, name="Next"), again, cid, Hex(2, 2))
    assert next(f for f in fight.setup.figures if f.character == cid).portrait == ANN


def test_a_version_1_roster_opens_without_portraits() -> None:
    roster, _ = saved(new_roster("skirmish"), skirmish_duel().setup_figure("bo"))
    doc = {**roster_document(roster), "version": 1}
    assert roster_from_document(doc).characters[0].figure.portrait is None


def test_a_bad_portrait_in_a_roster_is_refused_with_its_path() -> None:
    roster, _ = saved(new_roster("skirmish"), skirmish_duel().setup_figure("bo"))
    doc = roster_document(roster)
    doc["characters"][0]["portrait"] = {"digest": BO.digest, "type": "image/bmp"}
    with pytest.raises(InvalidDocumentError) as caught:
        roster_from_document(doc)
    assert [p.path for p in caught.value.problems] == ["characters[0].portrait.type"]


def test_named_pictures_are_the_map_then_each_portrait_once() -> None:
    enc = with_portraits()
    shared = enc.with_figure(replace(enc.setup_figure("bo"), portrait=ANN))
    assert named_pictures(enc.setup) == (ANN.digest, BO.digest)
    assert named_pictures(shared.setup) == (ANN.digest,)
    picture = MapPicture(digest_of(MAP_BYTES), "image/png", 800, 600)
    mapped = enc.with_setup(picture=picture)
    assert named_pictures(mapped.setup) == (picture.digest, ANN.digest, BO.digest)
    assert picture_types(mapped.setup) == {
        picture.digest: "image/png",
        ANN.digest: "image/png",
        BO.digest: "image/jpeg",
    }
    assert named_pictures(skirmish_duel().setup) == ()


def test_the_table_sends_each_device_the_portraits_it_lacks() -> None:
    net = Net(with_portraits(), 1)
    net.host.hold_picture(ANN_BYTES)
    net.host.hold_picture(BO_BYTES)
    device = net.devices["d1"]
    wants = device.want_pictures(held={BO.digest})
    assert [json.loads(w)["digest"] for w in wants] == [ANN.digest]
    for text in wants:
        net.send("d1", text)
    assert device.pictures.take() == {ANN.digest: ANN_BYTES}
    assert net.refused == 0


def test_the_map_and_a_portrait_come_to_a_device_side_by_side() -> None:
    picture = MapPicture(digest_of(MAP_BYTES), "image/png", 800, 600)
    net = Net(with_portraits(bo=None).with_setup(picture=picture), 1)
    net.host.hold_picture(MAP_BYTES)
    net.host.hold_picture(ANN_BYTES)
    device = net.devices["d1"]
    wants = device.want_pictures(held=())
    assert [json.loads(w)["digest"] for w in wants] == [picture.digest, ANN.digest]
    for text in wants:
        net.send("d1", text)
    assert device.pictures.take() == {picture.digest: MAP_BYTES, ANN.digest: ANN_BYTES}


def test_the_svg_export_draws_a_held_portrait_clipped_inside_the_ring() -> None:
    enc = with_portraits()
    svg = board_svg(enc, portraits={ANN.digest: ANN_BYTES})
    images = re.findall(r'<image class="portrait"[^>]*>', svg)
    assert len(images) == 1 and "data:image/png;base64," in images[0]
    assert 'clip-path="url(#portrait-clip)"' in images[0]
    assert '<clipPath id="portrait-clip"' in svg
    # Bo's picture is not on this device: his token keeps its initials
    assert re.search(r">BB</text>", svg)
    token = svg[svg.index('data-figure="ann"') : svg.index('data-figure="bo"')]
    ring = re.search(
        r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"[^>]*stroke-width="([\d.]+)"', token
    )
    image = re.search(
        r'<image class="portrait"[^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', token
    )
    assert ring and image
    cx, cy, r, stroke = (float(v) for v in ring.groups())
    x, y, size = (float(v) for v in image.groups())
    # drawn over the token's face, inside its ring: the ring and the facing wedge stay whole
    assert token.index("<polygon") < token.index("<circle") < token.index("<image")
    assert (x + size / 2, y + size / 2) == pytest.approx((cx, cy))
    assert size / 2 == pytest.approx(r - stroke / 2)


def test_the_svg_export_refuses_bytes_that_are_not_the_portrait() -> None:
    svg = board_svg(with_portraits(), portraits={ANN.digest: BO_BYTES})
    assert 'class="portrait"' not in svg


def test_render_takes_the_portrait_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "duel.json"
    saved.write_text(dumps(with_portraits()), encoding="utf-8")
    (tmp_path / "ann.png").write_bytes(ANN_BYTES)
    (tmp_path / "map.png").write_bytes(MAP_BYTES)
    out = tmp_path / "board.svg"
    given = ["--portrait", str(tmp_path / "ann.png")]
    assert main(["render", str(saved), "-o", str(out), *given]) == 0
    assert len(re.findall(r'<image class="portrait"', out.read_text(encoding="utf-8"))) == 1
    wrong = ["--portrait", str(tmp_path / "map.png")]
    assert main(["render", str(saved), "-o", str(out), *wrong]) == 1
    assert "map.png is not the portrait of any figure" in capsys.readouterr().err
    gone = ["--portrait", str(tmp_path / "none.png")]
    assert main(["render", str(saved), "-o", str(out), *gone]) == 1
    assert "cannot read the portrait" in capsys.readouterr().err
