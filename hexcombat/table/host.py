"""The host: its encounter is the truth. It checks and performs what joined devices ask,
sends every device the log entries, keeps sealed hidden choices as digests only and
performs them together once every one is revealed and matches its seal."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from hexcombat.actions import Action
from hexcombat.document import setup_document
from hexcombat.encounter import Encounter, LogEntry
from hexcombat.errors import HexcombatError, IllegalActionError
from hexcombat.map_picture import digest_of
from hexcombat.table import pictures
from hexcombat.table.messages import (
    DIGEST,
    MAX_NAME,
    SALT,
    Message,
    ProtocolError,
    decode,
    encode,
    entries_json,
    entry_digest,
    seal_digest,
    setup_digest,
    token_digest,
)
from hexcombat.table.seats import Seats, is_hidden_choice, sealing_figures, turn_view
from hexcombat.table.wire import Audience, Sent, Wire
from hexcombat.validation import Json

ROLLS = ("host", "players")
"""Who rolls a joined device's dice (a table setting): ``host``, the host's seeded dice for
everyone (a player's typed faces are refused); ``players``, each player may type the faces
of their own figures' dice, as on one device, and each such entry is marked with a note
naming the device."""
ROLLS_DEFAULT = "host"
"""A guest cannot choose its own dice unless the GM says so."""


@dataclass(frozen=True)
class Outgoing:
    """A message text for the device ``to``."""

    to: str
    text: str


class Host:
    """A hosted fight: the encounter, the devices and their seats, sealed and revealed choices.

    :meth:`receive` reads one message from a device and returns what to send (raising a
    HexcombatError, with nothing changed, when it is refused); :meth:`answer` turns that
    refusal into a ``refused`` message for the sender.
    """

    def __init__(
        self,
        encounter: Encounter,
        gm: str = "host",
        gm_name: str = "GM",
        rolls: str = ROLLS_DEFAULT,
    ) -> None:
        if rolls not in ROLLS:
            raise IllegalActionError(f"who rolls is one of {', '.join(ROLLS)}, got {rolls!r}")
        self.encounter = encounter
        self.seats = Seats(gm, {gm: gm_name})
        self.rolls = rolls
        self.connected: set[str] = {gm}
        self.seals: dict[str, tuple[str, str]] = {}
        """Figure id to (device, digest): hidden choices made and not yet revealed."""
        self.voided: set[str] = set()
        """Figures whose sealed choice the GM voided: the reveal does not wait for them."""
        self.table = secrets.token_hex(8)
        """This hosting's id: every message carries it and its sequence number."""
        self.seq = 0
        """The number of the last message sent (each device takes only later ones)."""
        self.revision = 0
        """Counts the messages that changed anything (a refused one changes nothing: the page
        has nothing to redraw)."""
        self._reveals: dict[str, Action] = {}
        self._sent: tuple[LogEntry, ...] = self.shared_log
        """The shared log as it was when every connected device was last sent it."""
        self._wire = Wire()
        self._sent_to: dict[str, Sent] = {}
        """Device id to the log it was last sent (its audience's: no secret before its time)."""
        self._tokens: dict[str, str] = {}
        """Device id to the digest of the secret token its hellos carry."""
        self.pictures: dict[str, bytes] = {}
        """The fight's pictures this host can send, by digest (:meth:`hold_picture`)."""

    # ---- what every device shares ---------------------------------------
    @property
    def shared_log(self) -> tuple[LogEntry, ...]:
        """The applied log entries: what every device replays."""
        return self.encounter.log[: self.encounter.cursor]

    def turn(self) -> dict[str, Json]:
        """Who must act on which device (see :func:`~hexcombat.table.seats.turn_view`)."""
        return turn_view(self.encounter, self.seats, tuple(self.seals))

    def view(self) -> dict[str, Json]:
        """The host's table: devices, who is connected, seats, the turn by device, and which
        figures have sealed a choice (never the choice)."""
        return {
            **self.seats.to_json(),
            "rolls": self.rolls,
            "connected": sorted(self.connected),
            "turn": self.turn(),
        }

    def to_json(self) -> dict[str, Json]:
        """What the host keeps in its storage to host the same fight again after a reload:
        seats, device places (token digests) and pending seals (digests: never a sealed
        choice). Hosted again, it is a new hosting (a new id): every device takes it in
        answer to its hello."""
        return {
            "rolls": self.rolls,
            "seats": self.seats.to_json(),
            "places": dict(self._tokens),
            "seals": {f: [d, digest] for f, (d, digest) in self.seals.items()},
            "voided": sorted(self.voided),
        }

    @classmethod
    def restore(cls, encounter: Encounter, data: Json) -> Host:
        """A host of ``encounter`` as :meth:`to_json` kept it (what does not fit this fight
        is left out: a figure gone, a seal of another step)."""
        host = cls(encounter)
        if not isinstance(data, dict):
            return host
        seats = data.get("seats")
        if isinstance(seats, dict) and isinstance(seats.get("gm"), str):
            names, figures = seats.get("names"), seats.get("figures")
            host.seats = Seats.from_json(
                str(seats["gm"]),
                names if isinstance(names, dict) else {},
                figures if isinstance(figures, dict) else {},
            )
            figs = encounter.state.figures
            host.seats.figures = {
                f: d for f, d in host.seats.figures.items() if f in figs and d in host.seats.names
            }
            host.connected = {host.seats.gm}
        if data.get("rolls") in ROLLS:
            host.rolls = str(data["rolls"])
        places = data.get("places")
        if isinstance(places, dict):
            host._tokens = {
                d: t for d, t in places.items() if isinstance(t, str) and DIGEST.fullmatch(t)
            }
        seals = data.get("seals")
        waiting = host._waiting()
        if isinstance(seals, dict):
            for figure, kept in seals.items():
                if isinstance(kept, list) and len(kept) == 2 and figure in waiting:
                    device, digest = kept
                    if isinstance(device, str) and isinstance(digest, str):
                        host.seals[figure] = (device, digest)
        voided = data.get("voided")
        if isinstance(voided, list):
            host.voided = {f for f in voided if isinstance(f, str) and f in waiting}
        return host

    # ---- messages -------------------------------------------------------
    def answer(self, device: str, text: str) -> list[Outgoing]:
        """:meth:`receive`, with a refusal sent back to ``device`` instead of raised."""
        try:
            out = self.receive(device, text)
        except HexcombatError as exc:
            return [self.refusal(device, str(exc), _ref(text))]
        self.revision += 1
        return out

    def refusal(self, device: str, text: str, ref: int = -1) -> Outgoing:
        """A ``refused`` message for ``device`` (a frame or a flood refused before it was read
        as a message has no ``ref``: -1)."""
        return Outgoing(device, self._encode("refused", ref=ref, text=text))

    def receive(self, device: str, text: str) -> list[Outgoing]:
        """Read a message from ``device`` and return what to send; refused ones raise."""
        msg = decode(text)
        if msg.type == "hello":
            return self._hello(device, msg)
        if device not in self.connected:
            raise ProtocolError([], f"device {device!r} has not said hello")
        if msg.type == "action":
            return self._action(device, msg)
        if msg.type == "seal":
            return self._seal(device, msg)
        if msg.type == "reveal":
            return self._reveal(device, msg)
        if msg.type == "want":
            window = pictures.chunks(*pictures.wanted(msg, self.pictures, self.encounter.setup))
            return [Outgoing(device, self._encode("picture", **chunk)) for chunk in window]
        raise ProtocolError([], f"a device cannot send a {msg.type!r} message to the host")

    def hold_picture(self, data: bytes) -> None:
        """Keep a picture of the fight's to send to the devices that ask for it; refused
        unless the fight names it."""
        digest = digest_of(data)
        if digest not in pictures.named_pictures(self.encounter.setup):
            raise IllegalActionError("this fight shows no such picture")
        self.pictures[digest] = data

    def identify(self, connection: str, text: str) -> str:
        """The device a new connection's first message comes from: the device whose token its
        hello carries (its seat waits for it), else ``connection`` itself. That device may
        still count as connected: a phone whose network went away says nothing, and the host
        hears of it only much later; the new connection takes the old one's place."""
        try:
            msg = decode(text)
        except HexcombatError:
            return connection
        token = msg.body.get("token")
        if msg.type != "hello" or not isinstance(token, str):
            return connection
        for device, known in self._tokens.items():
            if token_digest(token) == known:
                return device
        return connection

    def _hello(self, device: str, msg: Message) -> list[Outgoing]:
        name = msg.text("name", limit=MAX_NAME)
        token = token_digest(msg.text("token", SALT))
        if self._tokens.get(device, token) != token:
            raise IllegalActionError(f"the place of {self.seats.names[device]} is another device's")
        have = msg.number("have", 10**9)
        last = msg.body.get("last", "")
        self._tokens[device] = token
        if device not in self.seats.names:  # the name is fixed at pairing (the GM may rename)
            self.seats.names[device] = self._free_name(name)
        sent = self._log_for(device)
        shared = sent.entries
        same = msg.body.get("setup") == setup_digest(self.encounter.setup) and have <= len(shared)
        if same and have:
            same = last == entry_digest(have - 1, shared[have - 1])
        self.connected.add(device)
        out = []
        if not same:
            doc = setup_document(self.encounter.setup)
            out.append(Outgoing(device, self._encode("welcome", you=device, document=doc)))
            have = 0
        out.append(Outgoing(device, self._entries(have, sent)))
        self._sent_to[device] = sent
        out += self._broadcast(self._seats())
        out.append(Outgoing(device, self._sealed()))  # also when none: an old list is gone
        return out

    def _free_name(self, wanted: str) -> str:
        """``wanted``, or with a number added when the GM or another device has that name."""
        taken = {n.strip().casefold() for n in self.seats.names.values()}
        base = " ".join(wanted.split())[: MAX_NAME - 4]
        name, number = base, 1
        while name.casefold() in taken:
            number += 1
            name = f"{base} {number}"
        return name

    def rename(self, device: str, name: str) -> list[Outgoing]:
        """The GM names ``device`` (refused when the name is another's or not 1-40 characters)."""
        name = " ".join(name.split())
        if device not in self.seats.names:
            raise IllegalActionError(f"there is no device {device!r} at the table")
        if not name or len(name) > MAX_NAME:
            raise IllegalActionError(f"a device name must be 1-{MAX_NAME} characters")
        others = {n.casefold() for d, n in self.seats.names.items() if d != device}
        if name.casefold() in others:
            raise IllegalActionError(f"another device at the table is called {name}")
        self.seats.names[device] = name
        self.revision += 1
        return self._broadcast(self._seats())

    def set_rolls(self, rolls: str) -> list[Outgoing]:
        """The GM's choice of who rolls (:data:`ROLLS`); every device is told."""
        if rolls not in ROLLS:
            raise IllegalActionError(f"who rolls is one of {', '.join(ROLLS)}, got {rolls!r}")
        self.rolls = rolls
        self.revision += 1
        return self._broadcast(self._seats())

    def _action(self, device: str, msg: Message) -> list[Outgoing]:
        action, faces = msg.action(), msg.faces()
        self.check(device, action)
        note = ""
        if faces is not None and device != self.seats.gm:
            if self.rolls != "players":
                raise IllegalActionError("the host rolls every die at this table")
            note = f"Dice typed on {self.seats.names.get(device, device)}'s device"
        self.encounter.perform(action, faces, note=note)
        return self.sync()

    def check(self, device: str, action: Action) -> None:
        """Refuse (IllegalActionError) what ``device`` may not ask for now: another seat's
        figure, the table's actions but from the GM, anything while seals wait for their
        reveal, and a hidden choice that is not sealed."""
        self._check_open(device, action.figure)
        if self.is_hidden(action):
            raise IllegalActionError("a hidden choice is sent sealed, not as an action")

    def sync(self) -> list[Outgoing]:
        """Send every device what changed in the shared log since they last got it (after
        an action here, or the GM's undo or redo on the host's own page)."""
        if self.seals and self.shared_log != self._sent:
            raise IllegalActionError(
                "hidden choices are sealed: reveal them before changing the log"
            )
        return self._send_log()

    def _send_log(self) -> list[Outgoing]:
        """Each connected device's log as its audience may read it, from where it differs
        from what that device was last sent."""
        self._sent = self.shared_log
        out = []
        for device in sorted(self.connected):
            sent, before = self._log_for(device), self._sent_to.get(device, Sent(()))
            new, old = sent.entries, before.entries
            pairs = enumerate(zip(new, old, strict=False))
            common = min(len(new), len(old))
            start = next((i for i, (a, b) in pairs if a is not b and a != b), common)
            if start == len(new) == len(old) and sent == before:
                continue
            self._sent_to[device] = sent
            out.append(Outgoing(device, self._entries(start, sent)))
        return out

    def audience(self, device: str) -> Audience:
        """Who ``device`` shows the fight to: the GM's device everything; another device the
        sides of the figures seated at it."""
        if device == self.seats.gm:
            return Audience(gm=True)
        figures = self.encounter.state.figures
        seated = [f for f, d in self.seats.figures.items() if d == device and f in figures]
        return Audience(sides=frozenset(figures[f].side for f in seated))

    def _log_for(self, device: str) -> Sent:
        return self._wire.sent(self.encounter, self.audience(device))

    def replace(self, encounter: Encounter) -> list[Outgoing]:
        """A new encounter (the GM changed the set-up): every device starts it again."""
        if self.seals:
            raise IllegalActionError(
                "hidden choices are sealed: reveal them before changing the fight"
            )
        self.encounter = encounter
        for figure in [f for f in self.seats.figures if f not in encounter.state.figures]:
            del self.seats.figures[figure]
        self.voided.clear()
        self._wire = Wire()
        self._sent_to = {}
        doc = setup_document(encounter.setup)
        welcome = [
            Outgoing(d, self._encode("welcome", you=d, document=doc))
            for d in sorted(self.connected)
        ]
        return welcome + self._send_log() + self._broadcast(self._seats())

    def _seal(self, device: str, msg: Message) -> list[Outgoing]:
        figure = msg.text("figure", limit=200)
        digest = msg.text("digest", DIGEST)
        self._check_open(device, figure, sealing=True)
        state = self.encounter.state
        if figure not in state.figures:
            raise IllegalActionError(f"there is no figure {figure!r} in this fight")
        if figure not in self._waiting():
            raise IllegalActionError(
                f"{state.figure(figure).name} has no hidden choice to make now"
            )
        if figure in self.seals:
            raise IllegalActionError(f"{state.figure(figure).name} has already sealed a choice")
        self.seals[figure] = (device, digest)
        self.voided.discard(figure)
        return self._broadcast(self._sealed())

    def release(self, figure: str, void: bool = False) -> list[Outgoing]:
        """The GM releases a sealed choice that is never revealed (a device gone for good, or
        one that will not reveal): its device is asked again (the seal is dropped and it may
        seal anew), or with ``void`` the figure's choice is voided: a GM note in the log says
        so (undone like any entry), the reveal no longer waits for it, and the GM may choose
        for the figure."""
        sealed = self.seals.get(figure)
        if sealed is None:
            raise IllegalActionError(f"{figure!r} has no sealed choice to release")
        owner = sealed[0]
        name = self.encounter.state.figure(figure).name
        del self.seals[figure]
        self._reveals.pop(figure, None)
        out: list[Outgoing] = []
        if void:
            note = f"{name}'s sealed choice never came: voided by the GM"
            gm_note = Action("gm_note", None, {"figure": figure, "note": note})
            self.encounter.perform(gm_note)
            out += self._send_log()  # the seals wait on: only the note goes out
            self.voided.add(figure)
            text = f"The GM voided {name}'s sealed choice"
        else:
            text = f"The GM asks for {name}'s choice again"
        if owner in self.connected:
            out.append(Outgoing(owner, self._encode("refused", ref=-1, figure=figure, text=text)))
        self.revision += 1
        if self.seals and set(self._reveals) == set(self.seals) and self._all_sealed():
            return out + self._perform_reveals()
        return out + self._broadcast(self._sealed())

    def _reveal(self, device: str, msg: Message) -> list[Outgoing]:
        figure = msg.text("figure", limit=200)
        salt = msg.text("salt", SALT)
        action = msg.action()
        sealed = self.seals.get(figure)
        if sealed is None or sealed[0] != device:
            raise IllegalActionError(f"this device has no sealed choice for {figure!r}")
        if not self._all_sealed():
            raise IllegalActionError(
                "the reveal has not been called: other choices are still to be sealed"
            )
        if figure in self._reveals:
            raise IllegalActionError(f"the choice for {figure!r} is already revealed")
        if action.figure != figure or seal_digest(action, salt) != sealed[1]:
            raise IllegalActionError(f"this does not match the choice sealed for {figure!r}")
        self._reveals[figure] = action
        if set(self._reveals) != set(self.seals):
            return []
        return self._perform_reveals()

    def _perform_reveals(self) -> list[Outgoing]:
        """Every sealed choice revealed: tried in figure order on a copy, then performed on the
        encounter itself (the same object the host's page shows)."""
        order = sorted(self._reveals)
        trial = self.encounter.copy()
        for fid in order:
            try:
                trial.perform(self._reveals[fid])
            except HexcombatError as exc:
                owner = self.seals.pop(fid)[0]
                del self._reveals[fid]
                refused = self._encode("refused", ref=-1, figure=fid, text=str(exc))
                return [Outgoing(owner, refused), *self._broadcast(self._sealed())]
        for fid in order:
            self.encounter.perform(self._reveals[fid])
        self.seals.clear()
        self._reveals.clear()
        self.voided.clear()
        return self.sync() + self._broadcast(self._sealed())

    # ---- seats ----------------------------------------------------------
    def seat(
        self, device: str, figures: tuple[str, ...] = (), sides: tuple[str, ...] = ()
    ) -> list[Outgoing]:
        """Seat ``device`` at ``figures`` and every figure of ``sides`` (the GM's choice)."""
        ids = list(figures)
        for side in sides:
            ids += self.seats.side_figures(side, self.encounter)
        self.seats.seat(device, ids, self.encounter)
        self.revision += 1
        return self._broadcast(self._seats()) + self._send_log()

    def drop(self, device: str) -> None:
        """``device`` has gone: nothing more is sent to it until it says hello again."""
        self.connected.discard(device)
        self._sent_to.pop(device, None)

    # ---- helpers --------------------------------------------------------
    def _check_open(self, device: str, figure: str | None, sealing: bool = False) -> None:
        if figure is not None and figure not in self.encounter.state.figures:
            raise IllegalActionError(f"there is no figure {figure!r} in this fight")
        self.seats.check(device, figure, self.encounter)
        if self.seals and not sealing:
            names = ", ".join(sorted(self.seals))
            raise IllegalActionError(f"waiting for the sealed choices ({names}) and their reveal")

    def is_hidden(self, action: Action) -> bool:
        """True when the engine would keep ``action`` as a hidden choice (sent sealed)."""
        return is_hidden_choice(self.encounter, action)

    def _waiting(self) -> list[str]:
        """The figures the step waits for whose choice travels sealed."""
        return sealing_figures(self.encounter)

    def _all_sealed(self) -> bool:
        waiting = [f for f in self._waiting() if f not in self.voided]
        return bool(self.seals) and all(f in self.seals for f in waiting)

    def _encode(self, kind: str, **fields: Json) -> str:
        """A message to devices, with this hosting's id and the next sequence number."""
        self.seq += 1
        return encode(kind, table=self.table, seq=self.seq, **fields)

    def _entries(self, start: int, sent: Sent) -> str:
        """An ``entries`` message: ``sent``'s log from ``start``, where it ends, how many
        entries are kept back until their time and where its stand-ins begin."""
        last = sent.entries
        head = entry_digest(len(last) - 1, last[-1]) if last else ""
        return self._encode(
            "entries",
            start=start,
            entries=entries_json(last[start:]),
            head=head,
            kept=sent.kept_back,
            standing=sent.standing,
        )

    def _seats(self) -> str:
        places: dict[str, Json] = dict(self._tokens)  # digests: no device's token
        return self._encode("seats", rolls=self.rolls, places=places, **self.seats.to_json())

    def _sealed(self) -> str:
        return self._encode("sealed", figures=sorted(self.seals), reveal=self._all_sealed())

    def _broadcast(self, text: str) -> list[Outgoing]:
        return [Outgoing(d, text) for d in sorted(self.connected)]


def _ref(text: str) -> int:
    """The ``ref`` of a request, when it has a readable one (-1 otherwise)."""
    try:
        ref = decode(text).body.get("ref")
    except HexcombatError:
        return -1
    return ref if isinstance(ref, int) and not isinstance(ref, bool) else -1
