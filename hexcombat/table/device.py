"""A joined device: a replica of the host's encounter built only from the log entries the
host sends, its seat, and the hidden choices it keeps until the host calls the reveal."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from hexcombat.actions import Action, ActionSpec
from hexcombat.document import from_document, to_document
from hexcombat.encounter import Encounter, LogEntry
from hexcombat.errors import HexcombatError, IllegalActionError
from hexcombat.table.messages import (
    MAX_NAME,
    SALT,
    TABLE,
    Message,
    ProtocolError,
    decode,
    encode,
    entry_digest,
    seal_digest,
    setup_digest,
)
from hexcombat.table.pictures import Pictures
from hexcombat.table.seats import Seats, is_hidden_choice, turn_view
from hexcombat.validation import Json


def new_salt() -> str:
    """A fresh random salt for a seal (128 bits, hex)."""
    return secrets.token_hex(16)


class Device:
    """One device at the table. :meth:`receive` reads a host message and returns the texts to
    send back; :meth:`act` and :meth:`seal` make requests after checking them here first."""

    def __init__(self, name: str, salt: Callable[[], str] = new_salt) -> None:
        if not name.strip() or len(name) > MAX_NAME:
            raise IllegalActionError(f"a device name must be 1-{MAX_NAME} characters")
        self.name = name
        self.me = ""
        self.encounter: Encounter | None = None
        self.seats = Seats("")
        self.rolls = "host"
        """Who rolls, as the host last said (``players``: this device may type faces)."""
        self.places: dict[str, str] = {}
        """Device id to its token's digest, as the host last said: a fight hosted again from
        this copy knows every device's place."""
        self.table = ""
        """The id of the hosting this device follows, and the last message number it took."""
        self.seq = 0
        self._fresh = True
        """True from a hello until the host's answer: the one time a new hosting is taken."""
        self.sealed: tuple[str, ...] = ()
        self.kept_back = 0
        """How many of the host's entries are kept back from this device until their time
        (a secret this device may not see yet)."""
        self.standing = 0
        """Where the stand-ins in this device's copy begin (entries the host sent in place of
        a secret's truth, :mod:`hexcombat.table.wire`); the copy's length when none."""
        self.refusals: list[str] = []
        self._secrets: dict[str, tuple[Action, str]] = {}
        self._sealing: dict[int, str] = {}
        """The ref of each seal sent, to its figure (a refused seal frees its figure)."""
        self._salt = salt
        self._ref = 0
        self.token = salt()
        """A secret of this device's, sent with each hello: its place at the table after a drop."""
        self.pictures = Pictures()
        """The fight's pictures this device is receiving (:meth:`want_pictures`)."""

    # ---- reading --------------------------------------------------------
    @property
    def fight(self) -> Encounter:
        """The replica (IllegalActionError before the host's welcome)."""
        if self.encounter is None:
            raise IllegalActionError("this device has not joined a fight yet")
        return self.encounter

    def document(self) -> dict[str, Json]:
        """The replica as a document with the applied log only, up to its first stand-in:
        the same on every device, and never a stand-in taken for the truth."""
        doc = to_document(self.fight)
        applied = min(self.fight.cursor, self.standing) if self.encounter else 0
        return {**doc, "log": doc["log"][:applied], "cursor": applied}

    def truth(self) -> Encounter:
        """The replica up to its first stand-in: what this device may host the fight again
        from (the host gone), never a stand-in taken for the truth."""
        return from_document(self.document())

    def legal_actions(self, figure_id: str | None) -> list[ActionSpec]:
        """What this device offers for ``figure_id``: only its seat's (the GM: everything)."""
        if self.encounter is None or figure_id in self.sealed:
            return []
        return self.seats.offered(self.me, self.encounter, figure_id)

    def send(self, action: Action, faces: list[int] | None = None) -> str:
        """The request for ``action``: sealed when it is a hidden choice, else an action."""
        if is_hidden_choice(self.fight, action):
            return self.seal(action)
        return self.act(action, faces)

    def secret(self, figure_id: str) -> Action | None:
        """The hidden choice this device has sealed for ``figure_id`` and not yet revealed."""
        kept = self._secrets.get(figure_id)
        return kept[0] if kept else None

    def turn(self) -> dict[str, Json]:
        """Who must act on which device, as this device sees it, and how many of the host's
        entries are kept back from it."""
        return {**turn_view(self.fight, self.seats, self.sealed), "kept_back": self.kept_back}

    # ---- requests -------------------------------------------------------
    def hello(self) -> str:
        """Say who this device is and the last log entry it has, to join or come back."""
        enc = self.encounter
        have = enc.cursor if enc else 0
        last = entry_digest(have - 1, enc.log[have - 1]) if enc and have else ""
        setup = setup_digest(enc.setup) if enc else ""
        self._fresh = True
        return encode("hello", name=self.name, have=have, last=last, setup=setup, token=self.token)

    def act(self, action: Action, faces: list[int] | None = None) -> str:
        """Ask the host to perform ``action`` (with the faces of dice rolled by hand). Typed
        faces are tried on a copy of the replica first: a die the roll asks for only once the
        ones before it are in (MoreDiceNeededError) is asked for here, as on one device,
        rather than refused by the host."""
        self.seats.check(self.me, action.figure, self.fight)
        if faces is not None:
            if self.rolls != "players" and self.me != self.seats.gm:
                raise IllegalActionError("the host rolls every die at this table")
            self.fight.copy().perform(action, list(faces))
        self._ref += 1
        extra: dict[str, Json] = {} if faces is None else {"faces": list(faces)}
        return encode("action", ref=self._ref, action=action.to_json(), **extra)

    def want_pictures(self, held: Iterable[str]) -> list[str]:
        """Requests for the fight's pictures this device lacks (``held``: the digests its
        store has), each from where an earlier transfer stopped."""
        if self.encounter is None:
            return []
        return [encode("want", **w) for w in self.pictures.wants(self.encounter.setup, held)]

    def seal(self, action: Action) -> str:
        """Keep ``action`` here as a hidden choice and send the host only its sealed digest.

        It is tried on a copy of the replica first, so a choice the rules refuse is refused
        now, on this device, rather than at the reveal."""
        figure = action.figure
        if figure is None or figure in self._secrets or figure in self.sealed:
            raise IllegalActionError("each figure seals one hidden choice per step")
        self.seats.check(self.me, figure, self.fight)
        self.fight.copy().perform(action)
        salt = self._salt()
        self._secrets[figure] = (action, salt)
        self._ref += 1
        self._sealing[self._ref] = figure
        return encode("seal", ref=self._ref, figure=figure, digest=seal_digest(action, salt))

    # ---- what the host sends ----------------------------------------------
    def receive(self, text: str) -> list[str]:
        """Read a host message; returns the texts to send back (a reveal, or a hello to catch
        up). A message that cannot be used raises and changes nothing."""
        msg = decode(text)
        self._in_sequence(msg)
        if msg.type == "welcome":
            self._welcome(msg)
        elif msg.type == "entries":
            return self._entries(msg)
        elif msg.type == "seats":
            gm = msg.text("gm", limit=200)
            names, figures = msg.body.get("names"), msg.body.get("figures")
            if not isinstance(names, dict) or not isinstance(figures, dict):
                raise ProtocolError([], "seats must list names and figures")
            self.seats = Seats.from_json(gm, names, figures)
            self.rolls = "players" if msg.body.get("rolls") == "players" else "host"
            places = msg.body.get("places")
            if isinstance(places, dict):
                self.places = {d: t for d, t in places.items() if isinstance(t, str)}
        elif msg.type == "sealed":
            return self._sealed(msg)
        elif msg.type == "picture":
            return [encode("want", **w) for w in self.pictures.receive(msg)]
        elif msg.type == "refused":
            self._refused(msg)
        else:
            raise ProtocolError([], f"the host does not send {msg.type!r} messages")
        return []

    def _in_sequence(self, msg: Message) -> None:
        """Take only the hosting this device follows, and only a message later than the last
        one taken: a late (or replayed) one never takes the copy back. A new hosting (the
        fight hosted again) is taken only in answer to a hello."""
        table = msg.text("table", TABLE)
        seq = msg.number("seq", 10**15)
        if table != self.table:
            if not self._fresh:
                raise ProtocolError([], "this message is from another table: ignored")
            self.table, self.seq = table, 0
        if seq <= self.seq:
            raise ProtocolError([], f"a late message (number {seq} after {self.seq}): ignored")
        self.seq = seq

    def _welcome(self, msg: Message) -> None:
        you = msg.text("you", limit=200)
        document = msg.body.get("document")
        try:
            fresh = from_document({**document, "log": [], "cursor": 0})  # type: ignore[dict-item]
        except (HexcombatError, TypeError) as exc:
            raise ProtocolError([], f"the host's fight cannot be read: {exc}") from None
        self.me, self.encounter = you, fresh

    def _entries(self, msg: Message) -> list[str]:
        start = msg.number("start", 10**9)
        entries = msg.entries()
        enc = self.fight
        if start > enc.cursor:  # something was missed while away: catch up from the last one
            return [self.hello()]
        work = enc.copy()
        while work.cursor > start:
            work.undo()
        for entry in entries:
            apply_entry(work, entry)
        if msg.body.get("head", "") != (
            entry_digest(work.cursor - 1, work.log[work.cursor - 1]) if work.cursor else ""
        ):
            raise ProtocolError([], "these entries do not end where the host's log ends")
        self.encounter = work
        self.kept_back = _count(msg.body.get("kept"), 0)
        self.standing = min(_count(msg.body.get("standing"), work.cursor), work.cursor)
        return []

    def _sealed(self, msg: Message) -> list[str]:
        self.sealed = tuple(msg.names("figures"))
        out = self._seal_again() if self._fresh else []
        self._fresh = False
        if msg.body.get("reveal") is not True:
            return out
        for figure in self.sealed:
            kept = self._secrets.pop(figure, None)
            if kept is not None:
                action, salt = kept
                self._ref += 1
                out.append(
                    encode(
                        "reveal", ref=self._ref, figure=figure, action=action.to_json(), salt=salt
                    )
                )
        return out

    def _seal_again(self) -> list[str]:
        """After a hello, the seals kept here that the host does not have (it was hosted
        again, from storage or from another device's copy): sent again, the same digest."""
        out = []
        for figure, (action, salt) in sorted(self._secrets.items()):
            if figure in self.sealed or not is_hidden_choice(self.fight, action):
                continue
            self._ref += 1
            self._sealing[self._ref] = figure
            digest = seal_digest(action, salt)
            out.append(encode("seal", ref=self._ref, figure=figure, digest=digest))
        return out

    def _refused(self, msg: Message) -> None:
        text = msg.text("text", limit=5000)
        figure = msg.body.get("figure")
        ref = msg.body.get("ref")
        if not isinstance(figure, str) and isinstance(ref, int):
            figure = self._sealing.pop(ref, None)
        if isinstance(figure, str):
            self._secrets.pop(figure, None)
        self.refusals.append(text)

    def hosting(self) -> dict[str, Json]:
        """The table as this device last saw it, for :meth:`Host.restore` when it hosts the
        fight again itself: the seats and places, this device the GM's."""
        names: dict[str, Json] = dict(self.seats.names)
        figures: dict[str, Json] = dict(self.seats.figures)
        places: dict[str, Json] = dict(self.places)
        seats: dict[str, Json] = {"gm": self.me, "names": names, "figures": figures}
        return {"seats": seats, "places": places, "rolls": self.rolls}

    # ---- storage ----------------------------------------------------------
    def to_json(self) -> dict[str, Json]:
        """What this device keeps in its own storage to come back after its browser closes:
        its name, token and place, the hosting it follows, where its copy's stand-ins begin,
        and its sealed choices with their salts (kept on this device only, never sent before
        the reveal)."""
        return {
            "name": self.name,
            "token": self.token,
            "me": self.me,
            "table": self.table,
            "seq": self.seq,
            "standing": self.standing,
            "hosting": self.hosting(),
            "secrets": {
                f: {"action": a.to_json(), "salt": salt} for f, (a, salt) in self._secrets.items()
            },
        }

    @classmethod
    def restore(cls, data: Json, encounter: Encounter | None) -> Device:
        """The device :meth:`to_json` kept, following ``encounter`` (this device's copy of the
        fight); ProtocolError when the kept text cannot be read."""
        msg = Message("hello", data if isinstance(data, dict) else {})
        device = cls(msg.text("name", limit=MAX_NAME))
        device.token = msg.text("token", SALT)
        device.me = msg.text("me", limit=200) if msg.body.get("me") else ""
        device.table = msg.text("table", TABLE) if msg.body.get("table") else ""
        device.seq = msg.number("seq", 10**15)
        device.encounter = encounter
        have = encounter.cursor if encounter else 0
        device.standing = min(_count(msg.body.get("standing"), have), have)
        kept = msg.body.get("secrets")
        for figure, secret in (kept if isinstance(kept, dict) else {}).items():
            one = Message("seal", secret if isinstance(secret, dict) else {})
            device._secrets[figure] = (one.action(), one.text("salt", SALT))
        return device


def apply_entry(encounter: Encounter, entry: LogEntry) -> None:
    """Replay one of the host's entries with its recorded dice; ProtocolError when it does not
    replay to the same rolls here (the devices would no longer agree)."""
    try:
        encounter.perform(entry.action, entry.faces, note=entry.note)
    except HexcombatError as exc:
        raise ProtocolError(
            [], f"the host's entry {entry.action.kind} does not replay here: {exc}"
        ) from None
    if encounter.log[-1].to_json(rolled=False) != entry.to_json(rolled=False):
        raise ProtocolError([], f"the host's entry {entry.action.kind} rolled differently here")


def _count(value: Json, default: int) -> int:
    """A count a host message carries (``default`` when it carries none that can be read)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok and isinstance(value, int) else default
