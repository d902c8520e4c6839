"""A table of devices against a hostile guest, a closed browser and a fight hosted again: every
frame and message is bounded and refused with a reason, names are the host's, the table says
who rolls, a device comes back from its own storage with its seals, the GM can release a seal
that never comes, and a late message never takes a copy back."""

from __future__ import annotations

import json
import random

import manifests
import pytest
from table_net import Net, play

from hexcombat import Action, IllegalActionError, from_document, to_document
from hexcombat.table import Device, Host, ProtocolError
from hexcombat.table.frames import FRAME, FROM_GUEST, Inbox, Limits, Taken, frames
from hexcombat.table.messages import encode

ANN = Action("declare", "ann", {"first": "parry", "second": "dodge", "guard": "bo"})
BO = Action("declare", "bo", {"first": "parry", "second": "dodge", "guard": "ann"})


def _net(ruleset_id: str, guests: int) -> Net:
    net = Net(manifests.demo(ruleset_id), guests)
    net.seat_by_side()
    return net


def _same_everywhere(net: Net, devices: list[str] | None = None) -> None:
    host = to_document(net.host.encounter)
    host["log"] = host["log"][: net.host.encounter.cursor]  # type: ignore[index]
    for device in devices or list(net.devices):
        assert net.devices[device].document() == host, device


def _texts(out: list[object]) -> list[dict[str, object]]:
    return [json.loads(o.text) for o in out]  # type: ignore[attr-defined]


# ---- frames and their bounds --------------------------------------------------------------


def test_long_messages_go_in_frames_and_come_back_whole() -> None:
    text = "x" * (FRAME * 2 + 5)
    parts = frames(text)
    assert len(parts) == 3
    inbox = Inbox(FROM_GUEST)
    assert [inbox.add(p, 0.0).message for p in parts] == [None, None, text]
    assert frames("") == ["1/1|"] and Inbox(FROM_GUEST).add("1/1|", 0.0).message == ""


def test_an_endless_message_is_refused_at_its_first_frame_and_the_next_request_is_read() -> None:
    inbox = Inbox(FROM_GUEST)
    taken = inbox.add("1/999999|" + "x" * FRAME, 0.0)
    assert taken.message is None and "999999 frames is too long" in taken.refused
    assert inbox.held == 0
    short = Inbox(Limits(message_chars=FRAME + 10, complete_s=5.0, per_second=10.0, burst=30))
    assert short.add("1/2|" + "x" * FRAME, 0.1).refused == ""
    taken = short.add("2/2|" + "x" * 11, 0.1)  # within its count, but longer than its bound
    assert "too long" in taken.refused and short.held == 0
    request = encode("hello", name="Kim")
    assert inbox.add(frames(request)[0], 0.2).message == request


def test_a_message_never_finished_is_dropped_by_its_time_and_by_the_next_message() -> None:
    inbox = Inbox(FROM_GUEST)
    assert inbox.add("1/3|" + "a" * 100, 0.0).refused == ""
    assert inbox.held == 100
    late = inbox.add("2/3|b", FROM_GUEST.complete_s + 1)
    assert "never finished" in late.refused and inbox.held == 0
    inbox.add("1/2|a", 10.0)
    taken = inbox.add("1/1|next", 10.1)  # a new message drops the unfinished one, and is read
    assert taken.message == "next" and "never finished" in taken.refused


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        ("no frame at all", "no i/n| header"),
        ("2/2|second before first", "out of order"),
        ("3/2|part past the count", "malformed"),
        ("0/1|", "no i/n| header"),
        ("-1/1|", "no i/n| header"),
        ("1/x|", "no i/n| header"),
        ("1/1" + "|" * 2, ""),
    ],
)
def test_broken_frames_are_refused_with_a_reason(frame: str, why: str) -> None:
    taken = Inbox(FROM_GUEST).add(frame, 0.0)
    if why:
        assert taken.message is None and why in taken.refused
    else:
        assert taken.message == "|" and not taken.refused


def test_a_flood_is_cut_at_its_burst_with_one_refusal_and_taken_again_a_moment_later() -> None:
    limits = Limits(message_chars=FRAME, complete_s=5.0, per_second=10.0, burst=30)
    inbox = Inbox(limits)
    taken = [inbox.add(f"1/1|{i}", 0.0) for i in range(1000)]
    read = [t for t in taken if t.message is not None]
    refused = [t for t in taken if t.refused]
    assert len(read) == 30 and len(refused) == 1 and "too many" in refused[0].refused
    assert inbox.dropped == 970
    assert inbox.add("1/1|later", 0.05).message is None  # still cut: no refill yet
    assert inbox.add("1/1|later", 1.0).message == "later"  # refilled at 10 a second


def test_a_device_refused_too_often_is_not_heard_for_a_moment_and_honest_bursts_are() -> None:
    inbox = Inbox(FROM_GUEST)
    pauses = [inbox.refused(0.0) for _ in range(FROM_GUEST.refusal_burst + 1)]
    assert pauses[:-1] == [0.0] * FROM_GUEST.refusal_burst and 0 < pauses[-1] <= 1.0
    assert inbox.add("1/1|a request", 0.5) == Taken()  # dropped unread while not heard
    assert inbox.add("1/1|a request", 1.0).message == "a request"
    reveals = Inbox(FROM_GUEST)  # a device revealing every figure of a side at once
    texts = [reveals.add(f"1/1|reveal {i}", 0.0) for i in range(FROM_GUEST.burst)]
    assert all(t.message and not t.refused for t in texts)


# ---- the host: refusals redraw nothing, names are the host's ---------------------------


def test_refused_messages_change_nothing_the_host_would_redraw() -> None:
    net = _net("two-action-2d10", 2)
    revision = net.host.revision
    forged = encode("seal", ref=1, figure="bo", digest="0" * 64)  # bo is d2's
    for _ in range(50):
        out = net.host.answer("d1", forged)
        assert _texts(out)[0]["type"] == "refused"
    assert net.host.revision == revision
    net.send("d1", net.devices["d1"].seal(ANN))
    assert net.host.revision == revision + 1


def test_a_hello_with_its_own_token_never_renames_a_device_nor_takes_the_gms_name() -> None:
    net = _net("two-action-2d10", 2)
    spoof = Device("GM")
    spoof.token = net.devices["d1"].token  # d1's own hello, asking for the GM's name
    net.send("d1", spoof.hello())
    assert net.host.seats.names == {"host": "GM", "d1": "Player 1", "d2": "Player 2"}
    assert "Player 1 · GM" not in str(net.host.turn()["text"])
    net.join("d3", "GM")  # a new device asking for a name that is taken gets it numbered
    net.join("d4", "player 1")
    net.join("d5", "GM")
    names = net.host.seats.names
    assert (names["d3"], names["d4"], names["d5"]) == ("GM 2", "player 1 2", "GM 3")
    assert all(net.devices[d].seats.names == names for d in ("d1", "d3"))


def test_the_gm_renames_a_device_but_never_to_another_devices_name() -> None:
    net = _net("skirmish", 2)
    net.deliver(net.host.rename("d1", "  Kim  "))
    assert net.devices["d2"].seats.names["d1"] == "Kim"
    for taken in ("GM", "player 2", "", "x" * 41):
        with pytest.raises(IllegalActionError):
            net.host.rename("d1", taken)
    assert net.host.seats.names["d1"] == "Kim"


# ---- who rolls -----------------------------------------------------------------------------


def test_by_default_the_host_rolls_and_a_guests_typed_faces_are_refused() -> None:
    net = _net("skirmish", 1)
    d1 = net.devices["d1"]
    figure = next(f for f in net.host.encounter.state.figures if d1.legal_actions(f))
    face = Action("face", figure, {"facing": 2})
    assert net.host.rolls == "host"
    with pytest.raises(IllegalActionError, match="the host rolls"):
        d1.act(face, faces=[])
    net.send("d1", encode("action", ref=7, action=face.to_json(), faces=[2, 2]))
    assert "the host rolls" in d1.refusals[-1] and net.host.encounter.cursor == 0


def test_when_players_roll_typed_faces_are_marked_with_the_device_on_every_copy() -> None:
    net = _net("skirmish", 1)
    gm, d1 = net.devices["host"], net.devices["d1"]
    net.deliver(net.host.set_rolls("players"))
    assert d1.rolls == "players"
    figure = next(f for f in net.host.encounter.state.figures if d1.legal_actions(f))
    net.send("d1", d1.act(Action("face", figure, {"facing": 2}), faces=[]))
    entry = net.host.shared_log[-1]
    assert entry.note == "Dice typed on Player 1's device"
    assert gm.fight.events[0].text.endswith("Dice typed on Player 1's device")
    _same_everywhere(net)
    with pytest.raises(IllegalActionError):
        net.host.set_rolls("anyone")


# ---- sequence numbers ------------------------------------------------------------------------


def test_a_late_entries_message_never_takes_a_device_back() -> None:
    net = _net("skirmish", 1)
    rng = random.Random(2)
    d1 = net.devices["d1"]
    early = net.host._encode("entries", start=0, entries=[], head="")
    play(net, rng, 14)
    had = d1.document()
    assert d1.fight.cursor > 2
    with pytest.raises(ProtocolError, match="late message"):
        d1.receive(early)
    other = Host(net.host.encounter.copy())._encode("entries", start=0, entries=[], head="")
    with pytest.raises(ProtocolError, match="another table"):
        d1.receive(other)
    assert d1.document() == had


# ---- a closed browser, a seal that never comes, hosting again --------------------------------


def test_a_reopened_browser_rejoins_its_place_from_storage_and_reveals_its_seal() -> None:
    net = _net("two-action-2d10", 2)  # ann on d1, bo on d2
    net.send("d1", net.devices["d1"].seal(ANN))
    kept = json.dumps(net.devices["d1"].to_json())
    copy = json.dumps(to_document(net.devices["d1"].fight))
    net.drop("d1")
    del net.devices["d1"]  # the browser closes: only its storage is left
    net.send("d2", net.devices["d2"].seal(BO))  # the reveal is called: it waits for d1
    assert net.host.encounter.cursor == 0
    net.devices["d1"] = Device.restore(json.loads(kept), from_document(json.loads(copy)))
    assert net.reconnect("d1", "d7") == "d1"  # its place, found by its kept token
    assert net.host.encounter.cursor == 2 and not net.host.seals
    _same_everywhere(net)
    with pytest.raises(ProtocolError):
        Device.restore({"name": "Kim", "token": "short"}, None)


def test_the_gm_asks_again_for_a_seal_that_never_comes() -> None:
    net = _net("two-action-2d10", 2)
    net.send("d1", net.devices["d1"].seal(ANN))
    net.drop("d1")
    net.send("d2", net.devices["d2"].seal(BO))
    with pytest.raises(IllegalActionError, match="no sealed choice"):
        net.host.release("bo-nobody")
    net.deliver(net.host.release("ann"))
    assert list(net.host.seals) == ["bo"] and net.host.encounter.cursor == 0
    net.deliver(net.host.seat("host", figures=("ann",)))  # the GM takes ann and chooses
    net.send("host", net.devices["host"].seal(ANN))
    assert net.host.encounter.cursor == 2
    _same_everywhere(net, ["host", "d2"])


def test_the_gm_voids_a_seal_that_never_comes_with_a_note_and_the_others_are_revealed() -> None:
    net = _net("two-action-2d10", 2)
    net.send("d1", net.devices["d1"].seal(ANN))
    net.drop("d1")  # and never comes back
    net.send("d2", net.devices["d2"].seal(BO))  # the reveal is called: d2 reveals at once
    assert net.host.encounter.cursor == 0
    net.deliver(net.host.release("ann", void=True))
    log = net.host.shared_log
    assert log[0].action.kind == "gm_note" and "Ann" in str(log[0].action.params["note"])
    assert log[1].action == BO and not net.host.seals
    _same_everywhere(net, ["host", "d2"])
    net.host.encounter.undo()  # the GM's undo, as on the host's page
    net.host.encounter.undo()
    net.deliver(net.host.sync())
    assert net.devices["d2"].fight.cursor == 0


def test_a_host_reloaded_from_its_storage_keeps_seats_places_and_pending_seals() -> None:
    net = _net("two-action-2d10", 2)
    net.deliver(net.host.rename("d2", "Lee"))
    net.send("d1", net.devices["d1"].seal(ANN))
    kept = json.dumps(net.host.to_json())
    assert net.devices["d1"]._secrets["ann"][1] not in kept  # no salt, no choice, no token
    assert net.devices["d1"].token not in kept and "parry" not in kept
    net.host = Host.restore(net.host.encounter, json.loads(kept))
    assert net.host.seats.names["d2"] == "Lee" and list(net.host.seals) == ["ann"]
    for device in ("host", "d1", "d2"):
        assert net.reconnect(device, f"new-{device}") == device
    net.send("d2", net.devices["d2"].seal(BO))
    assert net.host.encounter.cursor == 2
    _same_everywhere(net)


def test_a_fight_hosted_again_from_a_guests_copy_gets_the_pending_seals_sent_again() -> None:
    net = _net("two-action-2d10", 2)
    net.send("d1", net.devices["d1"].seal(ANN))
    assert net.devices["d1"].sealed == ("ann",)
    lee = net.devices["d2"]
    copy = from_document(lee.document())
    net.host = Host.restore(copy, lee.hosting())  # the old host is gone; Lee hosts her copy
    assert net.host.seats.gm == "d2" and net.host.seats.figures == {"ann": "d1", "bo": "d2"}
    net.up = {"host", "d1", "d2"}
    net.send("d2", lee.hello())
    assert net.reconnect("d1", "d9") == "d1"  # its place, and its seal again: the same digest
    assert list(net.host.seals) == ["ann"]
    assert net.reconnect("host", "d8") == "host"  # the old GM's device, now a guest's
    net.send("d2", lee.seal(BO))
    assert net.host.encounter.cursor == 2
    _same_everywhere(net, ["d1", "d2"])
