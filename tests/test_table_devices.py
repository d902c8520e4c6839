"""A table of devices with no server, in one process: the host's encounter is the
truth, joined devices replay its entries to the same document, seats limit what a device is
offered, hidden choices travel sealed, and bad messages change nothing."""

from __future__ import annotations

import json
import random

import manifests
import pytest
from table_net import Net, play

from hexcombat import (
    Action,
    HexcombatError,
    IllegalActionError,
    MoreDiceNeededError,
    from_document,
    to_document,
)
from hexcombat.table import Device, Host, ProtocolError, is_hidden_choice, seal_digest
from hexcombat.table.messages import PROTOCOL, canonical, encode

ROUND_LIMIT = 200


def _net(ruleset_id: str, guests: int) -> Net:
    net = Net(manifests.demo(ruleset_id), guests)
    net.seat_by_side()
    return net


def _same_everywhere(net: Net) -> None:
    docs = net.documents()
    host = to_document(net.host.encounter)
    host["log"] = host["log"][: net.host.encounter.cursor]  # type: ignore[index]
    assert all(doc == host for doc in docs.values()), sorted(docs)
    assert to_document(from_document(host)) == host  # and it replays from scratch


@pytest.mark.parametrize("guests", [1, 2])
@pytest.mark.parametrize("ruleset_id", manifests.every_id())
def test_every_ruleset_plays_a_round_on_two_and_three_devices(ruleset_id: str, guests: int) -> None:
    with manifests.test_only_registered():
        net = _net(ruleset_id, guests)
        enc = net.host.encounter
        first = enc.state.clock.counters[0]
        hidden_steps = any(s.kind == "declare" for s in enc.ruleset.time.steps)
        rng, seals, steps = random.Random(26), 0, 0
        while net.host.encounter.state.clock.counters[0] == first and steps < ROUND_LIMIT:
            seals += play(net, rng, 1)
            steps += 1
        assert net.host.encounter.state.clock.counters[0] > first, "a round did not end"
        assert seals > 0 or not hidden_steps
        seated = {net.host.seats.device_of(f) for f in net.host.encounter.state.figures}
        assert len(seated) >= 2  # figures really are played from more than one device
        _same_everywhere(net)


def test_a_device_that_drops_catches_up_from_its_last_entry() -> None:
    net = _net("strike-chance-pulse", 2)
    rng = random.Random(5)
    play(net, rng, 10)
    net.drop("d2")
    had = net.devices["d2"].fight.cursor
    play(net, rng, 25)  # the GM plays d2's figures meanwhile
    assert net.host.encounter.cursor > had
    replies = net.host.receive("d2", net.devices["d2"].hello())
    kinds = [json.loads(o.text)["type"] for o in replies if o.to == "d2"]
    assert "welcome" not in kinds  # same fight, same last entry: only what it missed
    entries = next(json.loads(o.text) for o in replies if o.to == "d2")
    assert entries["type"] == "entries" and entries["start"] == had
    net.up.add("d2")
    net.deliver(replies)
    play(net, rng, 10)
    _same_everywhere(net)


def test_a_device_away_while_the_reveal_is_called_reveals_when_it_comes_back() -> None:
    net = _net("two-action-2d10", 2)  # ann is Blue (d1), bo is Red (d2)
    d1, d2 = net.devices["d1"], net.devices["d2"]
    net.send(
        "d2",
        d2.seal(Action("declare", "bo", {"first": "parry", "second": "dodge", "guard": "ann"})),
    )
    net.drop("d2")
    net.send(
        "d1",
        d1.seal(Action("declare", "ann", {"first": "parry", "second": "dodge", "guard": "bo"})),
    )
    assert net.host.seals.keys() == {"ann", "bo"} and net.host.encounter.cursor == 0
    net.back("d2")
    assert not net.host.seals and net.host.encounter.cursor == 2
    _same_everywhere(net)


def test_the_host_never_holds_a_sealed_choice_before_its_reveal() -> None:
    net = _net("fig-percentile", 1)  # barclay is Black (d1); brie stays with the GM
    secret = Action("declare", "barclay", {"mode": "walk", "ready": "Beaked axe"})
    text = net.devices["d1"].seal(secret)
    salt = net.devices["d1"]._secrets["barclay"][1]
    before = to_document(net.host.encounter)
    net.send("d1", text)
    after = canonical([to_document(net.host.encounter), net.host.view(), list(net.host.seals)])
    assert net.host.seals["barclay"][1] == seal_digest(secret, salt)
    assert canonical(secret.to_json()) not in after and salt not in after
    assert to_document(net.host.encounter) == before  # the fight itself is unchanged
    assert net.host.view()["turn"]["sealed"] == ["barclay"]  # type: ignore[index]
    assert "Brie" in str(net.host.turn()["text"]) and "GM" in str(net.host.turn()["text"])
    net.send("host", net.devices["host"].seal(Action("declare", "brie", {"mode": "stationary"})))
    assert net.host.encounter.log[0].action == secret  # revealed, then performed
    _same_everywhere(net)


def test_the_reveal_is_order_free_across_devices() -> None:
    results = []
    ann = Action(
        "declare", "ann", {"first": "attack", "second": "parry", "target": "bo", "guard": "bo"}
    )
    bo = Action(
        "declare", "bo", {"first": "dodge", "second": "attack", "target": "ann", "guard": "ann"}
    )
    for order in (("d1", "d2"), ("d2", "d1")):
        net = _net("two-action-2d10", 2)
        for device in order:
            dev = net.devices[device]
            net.send(device, dev.seal(ann if device == "d1" else bo))
        _same_everywhere(net)
        results.append(net.documents()["host"])
    assert results[0] == results[1]


def test_a_device_is_offered_and_may_act_only_for_its_seat_and_the_gm_for_all() -> None:
    net = _net("skirmish", 2)
    state = net.host.encounter.state
    d1, gm = net.devices["d1"], net.devices["host"]
    mine = [f for f in state.figures if net.host.seats.device_of(f) == "d1"]
    theirs = [f for f in state.figures if net.host.seats.device_of(f) == "d2"]
    assert mine and theirs
    assert all(d1.legal_actions(f) == [] for f in theirs) and d1.legal_actions(None) == []
    assert all(gm.legal_actions(f) == net.host.encounter.legal_actions(f) for f in state.figures)
    with pytest.raises(IllegalActionError, match="played on Player 2's device"):
        d1.act(Action("face", theirs[0], {"facing": 1}))
    forged = encode("action", ref=9, action={"kind": "next_step"})
    before = to_document(net.host.encounter)
    with pytest.raises(IllegalActionError, match="only the GM's device"):
        net.host.receive("d1", forged)
    assert to_document(net.host.encounter) == before
    turn = net.host.turn()
    assert {r["device_name"] for r in turn["acting"]} <= {"GM", "Player 1", "Player 2"}  # type: ignore[index, union-attr]


def test_a_refused_action_gets_the_hosts_text_and_typed_faces_are_the_dice() -> None:
    net = _net("skirmish", 1)
    d1, gm = net.devices["d1"], net.devices["host"]
    figure = next(
        f for f in net.host.encounter.state.figures if net.host.seats.device_of(f) == "d1"
    )
    far = Action("move", figure, {"to": "0,0"})
    with pytest.raises(IllegalActionError) as engine:
        net.host.encounter.copy().perform(far)
    net.send("d1", d1.act(far))
    assert d1.refusals == [str(engine.value)] and net.host.encounter.cursor == 0
    net.send("host", gm.act(Action("roll_dice", None, {"dice": "2d6"}), faces=[6, 3]))
    too_many = Action("roll_dice", None, {"dice": "1d6"})
    with pytest.raises(IllegalActionError, match="rolled only 1"):
        gm.act(too_many, faces=[4, 4])  # typed faces are tried here first
    net.send("host", encode("action", ref=9, action=too_many.to_json(), faces=[4, 4]))
    assert "rolled only 1" in gm.refusals[-1]  # and by the host: refused, nothing logged
    assert [list(r.faces) for e in net.host.shared_log for r in e.rolls] == [[6, 3]]
    _same_everywhere(net)


def test_the_host_leaving_any_device_hosts_again_from_its_copy() -> None:
    net = _net("skirmish", 2)
    rng = random.Random(7)
    play(net, rng, 12)
    copy = from_document(net.devices["d1"].document())
    new_host = Host(copy, "d1", "Player 1")
    for device in ("d2", "host"):
        replies = new_host.receive(device, net.devices[device].hello())
        assert "welcome" not in [json.loads(o.text)["type"] for o in replies if o.to == device]
    assert new_host.encounter.cursor == net.host.encounter.cursor


BAD_TEXTS = [
    "",
    "not json",
    "[1,2]",
    '{"type":"action"}',
    json.dumps({"type": "action", "v": PROTOCOL + 1, "ref": 1, "action": {"kind": "x"}}),
    json.dumps({"type": "teleport", "v": PROTOCOL}),
    json.dumps({"type": "welcome", "v": PROTOCOL, "you": "d1", "document": {}}),
    json.dumps({"type": "action", "v": PROTOCOL, "ref": 1, "action": "next_step"}),
    json.dumps(
        {"type": "action", "v": PROTOCOL, "ref": 1, "action": {"kind": "next_step"}, "faces": [0]}
    ),
    json.dumps({"type": "seal", "v": PROTOCOL, "ref": 1, "figure": "ann", "digest": "abc"}),
    json.dumps({"type": "hello", "v": PROTOCOL, "name": "x" * 500, "have": 0}),
    json.dumps({"type": "hello", "v": PROTOCOL, "name": "x", "have": True}),
    "[" * 5000 + "]" * 5000,
    json.dumps({"type": "hello", "v": PROTOCOL, "name": "x", "have": 0, "pad": "x" * 6_000_000}),
]


@pytest.mark.parametrize("text", BAD_TEXTS, ids=range(len(BAD_TEXTS)))
def test_malformed_messages_get_an_error_and_change_nothing(text: str) -> None:
    net = _net("two-action-2d10", 1)
    net.send(
        "d1",
        net.devices["d1"].seal(
            Action("declare", "ann", {"first": "parry", "second": "dodge", "guard": "bo"})
        ),
    )
    before = (to_document(net.host.encounter), net.host.view(), dict(net.host.seals))
    device_before = net.devices["d1"].document()
    with pytest.raises(HexcombatError):
        net.host.receive("d1", text)
    with pytest.raises(HexcombatError):
        net.devices["d1"].receive(text)
    assert (to_document(net.host.encounter), net.host.view(), dict(net.host.seals)) == before
    assert net.devices["d1"].document() == device_before
    refused = json.loads(net.host.answer("d1", text)[0].text)
    assert refused["type"] == "refused" and refused["text"]


def test_hostile_requests_are_refused_and_change_nothing() -> None:
    net = _net("two-action-2d10", 2)
    ann = Action("declare", "ann", {"first": "parry", "second": "dodge", "guard": "bo"})
    salt = "ab" * 16
    sealed = encode("seal", ref=1, figure="ann", digest=seal_digest(ann, salt))
    hostile = [
        ("d2", sealed, "played on Player 1's device"),  # another device's figure
        ("stranger", sealed, "has not said hello"),
        ("d1", encode("reveal", ref=2, figure="ann", action=ann.to_json(), salt=salt), "no sealed"),
        ("d1", encode("action", ref=3, action=ann.to_json()), "sent sealed"),
        ("d1", encode("entries", start=0, entries=[], head=""), "cannot send"),
    ]
    for device, text, why in hostile:
        before = (to_document(net.host.encounter), net.host.view(), dict(net.host.seals))
        with pytest.raises(HexcombatError, match=why):
            net.host.receive(device, text)
        assert (to_document(net.host.encounter), net.host.view(), dict(net.host.seals)) == before
    net.send("d1", sealed)
    with pytest.raises(IllegalActionError, match="already sealed"):
        net.host.receive("d1", sealed)
    early = encode("reveal", ref=4, figure="ann", action=ann.to_json(), salt=salt)
    with pytest.raises(IllegalActionError, match="not been called"):
        net.host.receive("d1", early)  # bo has not sealed: revealing now would leak nothing
    bo = Action("declare", "bo", {"first": "parry", "second": "dodge", "guard": "ann"})
    net.send("d2", net.devices["d2"].seal(bo))
    forged = Action("declare", "ann", {"first": "attack", "second": "attack", "target": "bo"})
    with pytest.raises(IllegalActionError, match="does not match"):
        net.host.receive(
            "d1", encode("reveal", ref=5, figure="ann", action=forged.to_json(), salt=salt)
        )
    assert net.host.encounter.cursor == 0
    net.host.receive("d1", early)
    assert net.host.encounter.cursor == 2 and not net.host.seals


def test_a_sealed_choice_the_rules_refuse_at_the_reveal_is_sent_back_to_be_chosen_again() -> None:
    net = _net("two-action-2d10", 2)
    bad = Action("declare", "ann", {"first": "attack", "second": "attack", "target": "nobody"})
    salt = "cd" * 16
    net.send("d1", encode("seal", ref=1, figure="ann", digest=seal_digest(bad, salt)))  # unchecked
    net.send(
        "d2",
        net.devices["d2"].seal(
            Action("declare", "bo", {"first": "parry", "second": "dodge", "guard": "ann"})
        ),
    )
    replies = net.host.receive(
        "d1", encode("reveal", ref=2, figure="ann", action=bad.to_json(), salt=salt)
    )
    refused = [json.loads(o.text) for o in replies if json.loads(o.text)["type"] == "refused"]
    assert refused[0]["figure"] == "ann" and net.host.encounter.cursor == 0
    assert list(net.host.seals) == ["bo"]  # bo's choice waits, unperformed
    net.deliver(replies)
    net.send(
        "d1",
        net.devices["d1"].seal(
            Action("declare", "ann", {"first": "dodge", "second": "parry", "guard": "bo"})
        ),
    )
    assert net.host.encounter.cursor == 2
    _same_everywhere(net)


def test_forged_entries_change_nothing_on_a_device() -> None:
    net = _net("skirmish", 1)
    play(net, random.Random(3), 6)
    d1 = net.devices["d1"]
    before = d1.document()
    entry = net.host.shared_log[-1].to_json()
    forged = dict(entry, rolls=[{"expr": "1d6", "faces": [9]}])
    stamped = net.host._encode
    for text in (
        stamped("entries", start=0, entries=[forged], head=""),
        stamped("entries", start=d1.fight.cursor, entries=[entry], head="0" * 64),
        stamped("seats", gm="host", names="x", figures={}),
        encode("entries", start=0, entries=[], head=""),  # no hosting id nor number
    ):
        with pytest.raises(ProtocolError):
            d1.receive(text)
        assert d1.document() == before
    missed = stamped("entries", start=d1.fight.cursor + 5, entries=[], head="")
    assert d1.receive(missed) == [d1.hello()]


def test_a_device_name_is_checked() -> None:
    with pytest.raises(IllegalActionError):
        Device(" ")


def test_the_gms_own_page_changes_reach_every_device() -> None:
    net = _net("skirmish", 2)
    play(net, random.Random(4), 12)
    enc = net.host.encounter
    assert enc.cursor >= 2
    enc.undo()  # the GM's undo on the host's page, then an action of the GM's own
    enc.undo()
    net.deliver(net.host.sync())
    assert all(d.fight.cursor == enc.cursor for d in net.devices.values())
    net.host.check("host", Action("next_step"))
    enc.perform(Action("next_step"))
    net.deliver(net.host.sync())
    assert net.host.sync() == []  # nothing new: nothing sent
    _same_everywhere(net)
    moved = enc.with_setup(seed=99)  # a set-up edit: every device starts the new fight
    net.deliver(net.host.replace(moved))
    assert all(d.fight.setup.seed == 99 for d in net.devices.values())
    _same_everywhere(net)


def test_a_refused_seal_frees_its_figure_to_seal_again() -> None:
    net = _net("two-action-2d10", 1)  # ann on d1, bo with the GM
    d1 = net.devices["d1"]
    ann = Action("declare", "ann", {"first": "parry", "second": "dodge", "guard": "bo"})
    net.host.seals["ann"] = ("d1", "0" * 64)  # as if sealed already: the next seal is refused
    net.send("d1", d1.seal(ann))
    assert "already sealed" in d1.refusals[-1] and d1.secret("ann") is None
    del net.host.seals["ann"]
    net.send("d1", d1.seal(ann))
    assert d1.secret("ann") == ann and "ann" in net.host.seals


def test_a_device_sends_a_hidden_choice_sealed_and_anything_else_as_an_action() -> None:
    net = _net("fig-percentile", 1)  # barclay on d1, in the hidden declarations step
    d1 = net.devices["d1"]
    declare = Action("declare", "barclay", {"mode": "walk"})
    assert is_hidden_choice(d1.fight, declare)
    sealed = json.loads(d1.send(declare))
    assert sealed["type"] == "seal" and "walk" not in json.dumps(sealed)
    assert d1.secret("barclay") == declare
    assert not is_hidden_choice(d1.fight, Action("next_step"))
    skirmish = _net("skirmish", 1)
    guest = skirmish.devices["d1"]
    figure = next(f for f in skirmish.host.encounter.state.figures if guest.legal_actions(f))
    turn = Action("face", figure, {"facing": 1})
    assert "faces" not in json.loads(guest.send(turn))
    roll = Action("roll_dice", None, {"dice": "2d6"})
    assert json.loads(skirmish.devices["host"].send(roll, [6, 3]))["faces"] == [6, 3]


def test_a_device_paired_again_gets_its_place_back_by_its_token_and_no_one_else_does() -> None:
    net = _net("skirmish", 2)
    rng = random.Random(8)
    play(net, rng, 8)
    seats = dict(net.host.seats.figures)
    net.drop("d1")
    play(net, rng, 8)
    assert net.reconnect("d1", "d9") == "d1"  # a new channel, the same place and seat
    assert net.host.seats.figures == seats and "d9" not in net.host.seats.names
    _same_everywhere(net)
    impostor = Device("Player 1")  # another device claiming d1's place gets nothing of it
    net.drop("d1")
    assert net.host.identify("d10", impostor.hello()) == "d10"
    with pytest.raises(IllegalActionError, match="another device's"):
        net.host.receive("d1", impostor.hello())
    assert "d1" not in net.host.connected


def test_a_device_whose_drop_the_host_has_not_noticed_yet_pairs_again_in_its_place() -> None:
    # a phone whose network goes away says nothing: the host still counts it connected
    net = _net("fig-percentile", 1)
    rng = random.Random(3)
    play(net, rng, 4)
    seats = dict(net.host.seats.figures)
    assert "d1" in net.host.connected
    assert net.reconnect("d1", "d2") == "d1"  # its token, not the host's idea of who is up
    assert net.host.seats.figures == seats and set(net.host.seats.names) == {"host", "d1"}
    play(net, rng, 4)
    _same_everywhere(net)


def test_typed_faces_a_roll_asks_for_once_the_first_are_in_are_asked_for_on_the_device() -> None:
    # SCP-14-style missile fire: to hit, then damage, then a die asked for by the damage roll
    demo = manifests.demo("strike-chance-pulse")
    played = demo.log[:5]  # the first turn; Cy fires next
    fire = demo.log[5]
    faces = [d.value for r in fire.rolls for d in r.dice]
    assert fire.action.kind == "fire" and len(faces) == 3
    start = from_document({**to_document(demo), "log": [], "cursor": 0})
    net = Net(start, 1)
    net.deliver(net.host.seat("d1", sides=("Blue",)))
    net.deliver(net.host.set_rolls("players"))
    for entry in played:
        net.host.encounter.perform(entry.action, [d.value for r in entry.rolls for d in r.dice])
    net.deliver(net.host.sync())
    device = net.devices["d1"]
    with pytest.raises(MoreDiceNeededError):
        device.act(fire.action, faces[:2])
    assert net.host.encounter.cursor == 5
    net.send("d1", device.act(fire.action, faces))
    assert net.host.encounter.log[5].rolls == fire.rolls and net.refused == 0
    assert net.host.encounter.log[5].note == "Dice typed on Player 1's device"
    _same_everywhere(net)
