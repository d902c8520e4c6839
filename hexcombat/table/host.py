"""The host: its encounter is the truth. It checks and performs what joined devices ask,
sends every device the log entries, keeps sealed hidden choices as digests only and
performs them together once every one is revealed and matches its seal."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..document import setup_document
from ..encounter import Encounter, LogEntry
from ..errors import HexcombatError, IllegalActionError
from ..validation import Json
from .messages import (
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
)
from .seats import Seats, is_hidden_choice, turn_view


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

    def __init__(self, encounter: Encounter, gm: str = "host", gm_name: str = "GM") -> None:
        self.encounter = encounter
        self.seats = Seats(gm, {gm: gm_name})
        self.connected: set[str] = {gm}
        self.seals: dict[str, tuple[str, str]] = {}
        """Figure id to (device, digest): hidden choices made and not yet revealed."""
        self._reveals: dict[str, Action] = {}
        self._sent: tuple[LogEntry, ...] = self.shared_log
        self._tokens: dict[str, str] = {}
        """Device id to the secret token its hellos carry."""
        """The shared log as every connected device last got it."""

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
            "connected": sorted(self.connected),
            "turn": self.turn(),
        }

    # ---- messages -------------------------------------------------------
    def answer(self, device: str, text: str) -> list[Outgoing]:
        """:meth:`receive`, with a refusal sent back to ``device`` instead of raised."""
        try:
            return self.receive(device, text)
        except HexcombatError as exc:
            ref = _ref(text)
            return [Outgoing(device, encode("refused", ref=ref, text=str(exc)))]

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
        raise ProtocolError([], f"a device cannot send a {msg.type!r} message to the host")

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
        for device, known in self._tokens.items():
            if msg.type == "hello" and token == known:
                return device
        return connection

    def _hello(self, device: str, msg: Message) -> list[Outgoing]:
        name = msg.text("name", limit=MAX_NAME)
        token = msg.text("token", SALT)
        if self._tokens.get(device, token) != token:
            raise IllegalActionError(f"the place of {self.seats.names[device]} is another device's")
        have = msg.number("have", 10**9)
        last = msg.body.get("last", "")
        shared = self.shared_log
        same = msg.body.get("setup") == setup_digest(self.encounter.setup) and have <= len(shared)
        if same and have:
            same = last == entry_digest(have - 1, shared[have - 1])
        self._tokens[device] = token
        self.connected.add(device)
        self.seats.names[device] = name
        out = []
        if not same:
            doc = setup_document(self.encounter.setup)
            out.append(Outgoing(device, encode("welcome", you=device, document=doc)))
            have = 0
        out.append(Outgoing(device, self._entries(have, shared[have:])))
        out += self._broadcast(self._seats())
        if self.seals:
            out.append(Outgoing(device, self._sealed()))
        return out

    def _action(self, device: str, msg: Message) -> list[Outgoing]:
        action, faces = msg.action(), msg.faces()
        self.check(device, action)
        self.encounter.perform(action, faces)
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
        shared, sent = self.shared_log, self._sent
        start = next(
            (
                i
                for i, (a, b) in enumerate(zip(shared, sent, strict=False))
                if a is not b and a != b
            ),
            None,
        )
        if start is None:
            start = min(len(shared), len(sent))
        if start == len(shared) == len(sent):
            return []
        self._sent = shared
        return self._broadcast(self._entries(start, shared[start:]))

    def replace(self, encounter: Encounter) -> list[Outgoing]:
        """A new encounter (the GM changed the set-up): every device starts it again."""
        if self.seals:
            raise IllegalActionError(
                "hidden choices are sealed: reveal them before changing the fight"
            )
        self.encounter = encounter
        for figure in [f for f in self.seats.figures if f not in encounter.state.figures]:
            del self.seats.figures[figure]
        self._sent = self.shared_log
        doc = setup_document(encounter.setup)
        welcome = [
            Outgoing(d, encode("welcome", you=d, document=doc)) for d in sorted(self.connected)
        ]
        return (
            welcome
            + self._broadcast(self._entries(0, self.shared_log))
            + self._broadcast(self._seats())
        )

    def _seal(self, device: str, msg: Message) -> list[Outgoing]:
        figure = msg.text("figure", limit=200)
        digest = msg.text("digest", DIGEST)
        self._check_open(device, figure, sealing=True)
        state = self.encounter.state
        if figure not in state.figures:
            raise IllegalActionError(f"there is no figure {figure!r} in this fight")
        if not self._hidden_now() or figure not in self._waiting():
            raise IllegalActionError(
                f"{state.figure(figure).name} has no hidden choice to make now"
            )
        if figure in self.seals:
            raise IllegalActionError(f"{state.figure(figure).name} has already sealed a choice")
        self.seals[figure] = (device, digest)
        return self._broadcast(self._sealed())

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
                refused = Outgoing(owner, encode("refused", ref=-1, figure=fid, text=str(exc)))
                return [refused, *self._broadcast(self._sealed())]
        for fid in order:
            self.encounter.perform(self._reveals[fid])
        self.seals.clear()
        self._reveals.clear()
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
        return self._broadcast(self._seats())

    def drop(self, device: str) -> None:
        """``device`` has gone: nothing more is sent to it until it says hello again."""
        self.connected.discard(device)

    # ---- helpers --------------------------------------------------------
    def _check_open(self, device: str, figure: str | None, sealing: bool = False) -> None:
        if figure is not None and figure not in self.encounter.state.figures:
            raise IllegalActionError(f"there is no figure {figure!r} in this fight")
        self.seats.check(device, figure, self.encounter)
        if self.seals and not sealing:
            names = ", ".join(sorted(self.seals))
            raise IllegalActionError(f"waiting for the sealed choices ({names}) and their reveal")

    def _hidden_now(self) -> bool:
        state = self.encounter.state
        return state.prompt is None and self.encounter.ruleset.who_acts(state).hidden

    def is_hidden(self, action: Action) -> bool:
        """True when the engine would keep ``action`` as a hidden choice (sent sealed)."""
        return is_hidden_choice(self.encounter, action)

    def _waiting(self) -> list[str]:
        """The figures a hidden step waits for that are offered a choice."""
        waiting = self.encounter.ruleset.who_acts(self.encounter.state).waiting
        return [f for f in waiting if self.encounter.legal_actions(f)]

    def _all_sealed(self) -> bool:
        return bool(self.seals) and all(f in self.seals for f in self._waiting())

    def _entries(self, start: int, entries: tuple[LogEntry, ...] | list[LogEntry]) -> str:
        last = self.shared_log
        head = entry_digest(len(last) - 1, last[-1]) if last else ""
        return encode("entries", start=start, entries=entries_json(entries), head=head)

    def _seats(self) -> str:
        return encode("seats", **self.seats.to_json())

    def _sealed(self) -> str:
        return encode("sealed", figures=sorted(self.seals), reveal=self._all_sealed())

    def _broadcast(self, text: str) -> list[Outgoing]:
        return [Outgoing(d, text) for d in sorted(self.connected)]


def _ref(text: str) -> int:
    """The ``ref`` of a request, when it has a readable one (-1 otherwise)."""
    try:
        ref = decode(text).body.get("ref")
    except HexcombatError:
        return -1
    return ref if isinstance(ref, int) and not isinstance(ref, bool) else -1
