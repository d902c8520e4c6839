"""Devices at one table in one process: a host, its GM's own device and joined devices, with
every message passed as JSON text through :class:`Net`, which can drop a device and bring it
back. Used by the table protocol tests."""

from __future__ import annotations

import random
from collections import deque

from playouts import action_for

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.document import to_document
from hexcombat.table import Device, Host, Outgoing
from hexcombat.table.messages import canonical

TRIES = 8


class Net:
    """A host and devices by id; ``send`` delivers a request and everything it sets off."""

    def __init__(self, encounter: Encounter, guests: int) -> None:
        self.host = Host(encounter, "host", "GM")
        self.devices: dict[str, Device] = {"host": Device("GM")}
        self.up: set[str] = {"host"}
        self.refused = 0
        self.deliver(self.host.receive("host", self.devices["host"].hello()))
        for i in range(1, guests + 1):
            self.join(f"d{i}", f"Player {i}")

    def join(self, device: str, name: str) -> None:
        """A new device pairs and says hello."""
        self.devices[device] = Device(name)
        self.up.add(device)
        self.send(device, self.devices[device].hello())

    def drop(self, device: str) -> None:
        """``device`` goes away: it sends and receives nothing."""
        self.up.discard(device)
        self.host.drop(device)

    def back(self, device: str) -> None:
        """``device`` comes back and catches up from its last entry."""
        self.up.add(device)
        self.send(device, self.devices[device].hello())

    def reconnect(self, device: str, connection: str) -> str:
        """``device`` comes back on a new connection (a new pairing): the host knows it by its
        hello's token; returns the id the host gives it."""
        hello = self.devices[device].hello()
        known = self.host.identify(connection, hello)
        self.up.add(known)
        self.send(known, hello)
        return known

    def send(self, device: str, text: str) -> None:
        """``device`` sends ``text`` to the host; refusals come back as messages."""
        before = len(self.devices[device].refusals)
        self.deliver(self.host.answer(device, text))
        self.refused += len(self.devices[device].refusals) - before

    def deliver(self, outgoing: list[Outgoing]) -> None:
        """Pass host messages to the devices that are up, and their answers back, until quiet."""
        queue = deque(outgoing)
        while queue:
            out = queue.popleft()
            if out.to not in self.up:
                continue
            for reply in self.devices[out.to].receive(out.text):
                queue.extend(self.host.answer(out.to, reply))

    def seat_by_side(self) -> None:
        """Each side to one device in turn, guests first (the GM keeps what is left over)."""
        guests = sorted(d for d in self.devices if d != "host")
        sides = sorted({f.side for f in self.host.encounter.state.figures.values()})
        for i, side in enumerate(sides):
            if i < len(guests):
                self.deliver(self.host.seat(guests[i], sides=(side,)))

    def documents(self) -> dict[str, object]:
        """Every device's document (applied log only), by device."""
        return {d: dev.document() for d, dev in self.devices.items()}

    def device_for(self, figure: str) -> str:
        """The device that plays ``figure``, or the GM's when that one is away."""
        device = self.host.seats.device_of(figure)
        return device if device in self.up else "host"


def play(net: Net, rng: random.Random, steps: int, *, watch: bool = True) -> int:
    """Play ``steps`` turns, each device choosing for its own figures (hidden choices sealed on
    their own device); returns how many hidden choices were sealed. With ``watch``, the host's
    state is checked after every seal never to hold a sealed choice."""
    seals = 0
    for _ in range(steps):
        enc = net.host.encounter
        if enc.ruleset.fight_outcome(enc.state) is not None:
            break
        acting = enc.ruleset.who_acts(enc.state)
        if enc.state.prompt is None and acting.hidden and acting.waiting:
            waiting = [f for f in acting.waiting if f not in net.host.seals]
            if any(seal_one(net, f, rng, watch) for f in waiting):
                seals += 1
                continue
        act_once(net, rng)
    return seals


def seal_one(net: Net, figure: str, rng: random.Random, watch: bool) -> bool:
    """The device of ``figure`` seals a choice it tried on its own replica."""
    device = net.device_for(figure)
    dev = net.devices[device]
    specs = dev.legal_actions(figure)
    for _ in range(TRIES if specs else 0):
        action = action_for(specs[rng.randrange(len(specs))], rng.randrange, unoffered=False)
        try:
            text = dev.seal(action)
        except HexcombatError:
            continue
        secret = dev._secrets[figure][1]
        before = to_document(net.host.encounter)
        net.send(device, text)
        if watch and figure in net.host.seals:  # not the last seal: nothing is revealed yet
            assert to_document(net.host.encounter) == before
            assert_host_never_holds(net.host, action, secret)
        return True
    return False


def act_once(net: Net, rng: random.Random) -> None:
    """One device acts for one of its figures, or the GM ends the step."""
    enc = net.host.encounter
    choices: list[tuple[str, Action]] = []
    acting = enc.ruleset.who_acts(enc.state)
    hidden = set(acting.figures) if acting.hidden and enc.state.prompt is None else set()
    for figure in set(enc.state.figures) - hidden:  # hidden choices are sealed, not sent
        device = net.device_for(figure)
        for spec in net.devices[device].legal_actions(figure):
            choices.append((device, action_for(spec, rng.randrange, unoffered=False)))
    gm = net.devices["host"]
    if not choices or rng.random() < 0.3:
        table = [s for s in gm.legal_actions(None) if s.kind == "next_step"]
        if table:
            net.send("host", gm.act(Action("next_step")))
            return
    if choices:
        device, action = choices[rng.randrange(len(choices))]
        net.send(device, net.devices[device].act(action))


def assert_host_never_holds(host: Host, action: Action, salt: str) -> None:
    """What the host keeps and shows of the seals (its table view, the digests) holds neither
    the sealed choice nor its salt."""
    shown = canonical([host.view(), {f: list(s) for f, s in host.seals.items()}])
    assert salt not in shown
    assert canonical(action.to_json()) not in shown
    assert action.figure in host.seals
