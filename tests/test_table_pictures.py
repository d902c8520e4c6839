"""The fight's map picture goes to every device of the table: asked for a window of chunks at
a time, each chunk checked as it comes, the whole checked against its digest, picked up
where it stopped after a drop; a device's hostile requests and a host's forged chunks are
refused with a reason and keep nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import manifests
import pytest
from table_net import Net

from hexcombat.errors import HexcombatError
from hexcombat.map_picture import MapPicture, digest_of
from hexcombat.table.messages import encode
from hexcombat.table.pictures import CHUNK, WINDOW, chunk_count

PICTURE_BYTES = random.Random(3).randbytes(CHUNK * 20 + 123)  # 21 chunks, the last short


def _picture(data: bytes = PICTURE_BYTES) -> MapPicture:
    return MapPicture(digest_of(data), "image/png", 800, 600)


def _net(data: bytes = PICTURE_BYTES, guests: int = 2) -> Net:
    enc = manifests.demo("skirmish").with_setup(picture=_picture(data))
    net = Net(enc, guests)
    net.host.hold_picture(data)
    return net


def _fetch(net: Net, device: str) -> bytes:
    """``device`` asks for what it lacks, and everything it sets off is delivered."""
    for text in net.devices[device].want_pictures(held=()):
        net.send(device, text)
    return net.devices[device].pictures.take().get(digest_of(PICTURE_BYTES), b"")


def test_every_device_receives_the_fights_picture_whole_and_checked() -> None:
    net = _net()
    assert chunk_count(len(PICTURE_BYTES)) == 21
    for device in ("d1", "d2"):
        assert _fetch(net, device) == PICTURE_BYTES
    assert net.refused == 0
    assert net.devices["d1"].want_pictures(held={digest_of(PICTURE_BYTES)}) == []


def test_the_host_sends_a_window_at_a_time_and_every_message_fits_one_frame() -> None:
    net = _net()
    want = net.devices["d1"].want_pictures(held=())
    sent = net.host.answer("d1", want[0])
    assert len(sent) == WINDOW and {o.to for o in sent} == {"d1"}
    assert max(len(o.text) for o in sent) <= 16_000  # hexcombat.table.frames.FRAME


def test_a_device_that_drops_mid_picture_asks_again_from_the_chunk_it_lacks() -> None:
    net = _net()
    device = net.devices["d1"]
    first = net.host.answer("d1", device.want_pictures(held=())[0])
    for out in first[:5]:  # five chunks in, then the network goes
        device.receive(out.text)
    net.drop("d1")
    net.back("d1")
    again = device.want_pictures(held=())
    assert [json.loads(t)["start"] for t in again] == [5]
    assert _fetch(net, "d1") == PICTURE_BYTES


def test_a_host_without_the_picture_says_so_and_the_device_keeps_nothing() -> None:
    enc = manifests.demo("skirmish").with_setup(picture=_picture())
    net = Net(enc, 1)
    assert _fetch(net, "d1") == b""
    assert "does not have this fight's map picture" in net.devices["d1"].refusals[-1]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"digest": "0" * 64, "start": 0}, "shows no picture with that digest"),
        ({"digest": "not a digest", "start": 0}, "must match"),
        ({"digest": digest_of(PICTURE_BYTES), "start": 10**6}, "start"),
        ({"digest": digest_of(PICTURE_BYTES), "start": -1}, "start"),
    ],
)
def test_a_devices_hostile_want_is_refused_with_its_reason(
    fields: dict[str, object], reason: str
) -> None:
    net = _net()
    out = net.host.answer("d1", encode("want", ref=7, **fields))  # type: ignore[arg-type]
    assert len(out) == 1 and json.loads(out[0].text)["type"] == "refused"
    assert reason in json.loads(out[0].text)["text"]


def test_the_host_holds_only_pictures_its_fight_shows() -> None:
    net = _net()
    with pytest.raises(HexcombatError, match="no such picture"):
        net.host.hold_picture(b"another picture")


@pytest.mark.parametrize(
    ("forge", "reason"),
    [
        (lambda m: {**m, "index": m["index"] + 1}, "came where 1 was due"),
        (lambda m: {**m, "size": m["size"] + CHUNK}, "size does not match"),
        (lambda m: {**m, "data": m["data"][:-8]}, "bytes, not"),
        (lambda m: {**m, "data": "!!!!"}, "not base64"),
        (lambda m: {**m, "digest": "f" * 64}, "did not ask for"),
        (lambda m: {**m, "size": 10**12}, "size"),
    ],
)
def test_a_forged_chunk_is_refused_and_the_transfer_goes_on_from_where_it_was(
    forge: Callable[[dict[str, Any]], dict[str, Any]], reason: str
) -> None:
    net = _net()
    device = net.devices["d1"]
    first = net.host.answer("d1", device.want_pictures(held=())[0])
    device.receive(first[0].text)
    forged = forge(json.loads(first[1].text))
    with pytest.raises(HexcombatError, match=reason):
        device.receive(json.dumps(forged))
    assert device.pictures.progress()[digest_of(PICTURE_BYTES)] == (CHUNK, len(PICTURE_BYTES))
    assert _fetch(net, "d1") == PICTURE_BYTES  # asked again from chunk 1


def test_bytes_that_do_not_match_the_digest_are_not_kept() -> None:
    data = PICTURE_BYTES[: CHUNK * 2]
    enc = manifests.demo("skirmish").with_setup(picture=_picture(data))
    net = Net(enc, 1)
    net.host.pictures[digest_of(data)] = data[::-1]  # a host whose store holds other bytes
    device = net.devices["d1"]
    replies = net.host.answer("d1", device.want_pictures(held=())[0])
    device.receive(replies[0].text)
    with pytest.raises(HexcombatError, match="not the one the fight names"):
        device.receive(replies[1].text)
    assert device.pictures.take() == {}
