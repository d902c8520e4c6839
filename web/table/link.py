"""The page's side of a table of devices: the GM's device hosting (:class:`Hosting`) or a
device that joined (:class:`Joined`). Both carry the engine's table messages
(:mod:`hexcombat.table`) over data channels (:mod:`web.table.rtc`); the app asks them
before it performs or changes anything, and after."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import js  # type: ignore[import-not-found]

from hexcombat import Action, Encounter, HexcombatError, IllegalActionError
from hexcombat.document import MAX_DOCUMENT_CHARS, read_json
from hexcombat.secrets import kept_back_words
from hexcombat.table import Device, Host, Outgoing
from hexcombat.table.frames import FROM_GUEST, FROM_HOST
from hexcombat.table.pictures import named_pictures, picture_types
from hexcombat.table.seats import Seats
from web.engine_slices import in_slices, offers_in_steps
from web.library.importing import spawn
from web.library.pictures import PagePictures, PictureRefusedError
from web.table.rtc import Peer
from web.ui.html import Markup, el, joined
from web.ui.later_tasks import LaterTasks
from web.ui.remembered import remember, remembered

GM = "host"
KEPT_KEY = "hexcombat.table."
"""localStorage key prefix, by library entry: what this device keeps of its table (a guest:
its token, place and sealed choices with their salts; the host: seats, places, pending seal
digests, and its own GM device), so a closed browser comes back to its place."""
HELLO_AGAIN_S = 4.0
HELLO_TRIES = 5
"""A device that has heard nothing from the host this long after saying hello says it again
(a hello is answered with the fight from the device's last entry, so twice is harmless), up
to this many times: a first exchange lost on a busy or flaky connection does not leave a
device connected with no fight."""
Changed = Callable[[bool], None]
"""Tell the page the table changed; True when the page is drawn already (the fight it shows
was adopted and redrawn), so that only the table's dialog is left to redraw."""
UNREACHABLE = (
    "The other device could not be reached: both must be on the same network (some keep "
    "their devices apart; a phone's hotspot will do). Make a new code to try again."
)


class TableApp(Protocol):
    """What the table needs of the app."""

    @property
    def encounter(self) -> Encounter: ...

    @property
    def entry_id(self) -> str | None: ...

    @property
    def pictures(self) -> PagePictures: ...

    def picture_arrived(self) -> None: ...

    @property
    def later(self) -> LaterTasks: ...

    def adopt(self, enc: Encounter, *, fresh: bool) -> None: ...

    def refresh(self) -> None: ...

    def toast(
        self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
    ) -> None: ...


class Hosting:
    """The GM's device: the host's encounter is the app's own; the GM's hidden choices are
    sealed by a device of its own, like everyone's."""

    role = "host"

    def __init__(self, app: TableApp, on_change: Changed) -> None:
        self.app = app
        self.host, self.gm = _hosting_again(app)
        self.peers: dict[str, Peer] = {}
        """Device id to its connection."""
        self._connections: dict[str, Peer] = {}
        self._bound: dict[str, str] = {}
        """Connection to the device it turned out to be."""
        self._made = 0
        self.waiting: str | None = None
        """The connection whose answer code the host waits for (its offer code is shown)."""
        self._on_change = on_change
        self._tasks: set[asyncio.Future[None]] = set()
        self._showing = False
        """True while a device's entry waits for its offers to be worked out (see
        :meth:`_entry_in`)."""
        self.deliver(self.host.receive(self.me, self.gm.hello()))
        self.keep()
        self._hold_pictures()

    @property
    def me(self) -> str:
        """The GM's device id (``host``, or a guest's that hosts the fight again)."""
        return self.host.seats.gm

    @property
    def seats(self) -> Seats:
        """Who plays which figure."""
        return self.host.seats

    def keep(self) -> None:
        """Keep the table in this browser's storage (a reload hosts it again as it was), in a
        later task: a device's entry is shown first."""
        self.app.later.soon("table", self._keep_now)

    def _keep_now(self) -> None:
        kept = {"role": "host", "host": self.host.to_json(), "device": self.gm.to_json()}
        _keep(self.app, kept)

    async def offer(self) -> str:
        """A new connection's offer code (a new device, or one coming back)."""
        self._made += 1
        while f"d{self._made}" in self.host.seats.names:  # a place kept from before
            self._made += 1
        connection = f"d{self._made}"
        self._connections[connection] = Peer(
            lambda text: self.on_message(connection, text),
            lambda: None,
            lambda: self.on_close(connection),
            self.on_fail,
            FROM_GUEST,
            lambda why: self.on_refused(connection, why),
        )
        self.waiting = connection
        return await self._connections[connection].offer()

    async def accept(self, code: str) -> None:
        """The answer code of the connection last offered."""
        if self.waiting is None:
            raise IllegalActionError("make an offer code for the device first")
        connection = self.waiting
        await self._connections[connection].accept(code)
        if self.waiting == connection:  # connecting: the device appears once its hello is in
            self.waiting = None

    def on_message(self, connection: str, text: str) -> None:
        """A message on a connection: its first names the device (one that comes back gets its
        place again); the host answers; the app shows what changed."""
        device = self._bound.get(connection)
        if device is None:
            device = self._bound[connection] = self.host.identify(connection, text)
            old = self.peers.get(device)
            if old is not None and old is not self._connections[connection]:
                old.close()
            self.peers[device] = self._connections[connection]
        cursor, log = self.host.encounter.cursor, len(self.host.encounter.log)
        revision = self.host.revision
        self.deliver(self.host.answer(device, text))
        if revision == self.host.revision:  # refused: nothing changed, nothing to redraw
            self._connections[connection].refused()
            return
        if (cursor, log) != (self.host.encounter.cursor, len(self.host.encounter.log)):
            self._entry_in()
        else:
            self.changed(False)

    def changed(self, fight: bool) -> None:
        """The table changed (and the fight with it, when ``fight``): kept, and shown."""
        if fight:
            self.app.adopt(self.host.encounter, fresh=False)
        self.keep()
        self._on_change(fight)

    def _entry_in(self) -> None:
        """A device's entry moved the fight on: what each figure is now offered is worked
        out in slices (the browser answers taps between them), then the fight is shown; an
        entry that comes meanwhile is shown with it."""
        if self._showing:
            return
        self._showing = True

        async def show() -> None:
            try:
                enc = self.host.encounter
                state = None
                while state is not enc.state:  # until no entry came during the slices
                    state = enc.state
                    await in_slices(offers_in_steps(enc))
            finally:
                self._showing = False
            if enc is self.host.encounter:
                self.changed(True)

        spawn(self._tasks, show())

    def on_refused(self, connection: str, why: str) -> None:
        """A frame refused before it made a message: the sender is told why; nothing else."""
        device = self._bound.get(connection, connection)
        self._connections[connection].send(self.host.refusal(device, why).text)

    def on_fail(self) -> None:
        """A device that answered could not be reached: say so (a new code may do)."""
        self.app.toast(UNREACHABLE, bad=True)
        self._on_change(False)

    def on_close(self, connection: str) -> None:
        """A device has gone: it can come back (the host keeps its seat)."""
        device = self._bound.get(connection, connection)
        if self.peers.get(device) is not self._connections.get(connection):
            return  # an old connection of a device that is back on a new one
        self.host.drop(device)
        name = self.host.seats.names.get(device, device)
        self.app.toast(f"{name} has left the table; its figures wait for it (or for the GM)")
        self._on_change(False)

    def deliver(self, outgoing: list[Outgoing]) -> None:
        """Send each message: to a device's channel, or to the GM's own device here."""
        queue = deque(outgoing)
        while queue:
            out = queue.popleft()
            if out.to == self.me:
                for reply in self.gm.receive(out.text):
                    queue.extend(self.host.answer(self.me, reply))
            elif out.to in self.peers:
                self.peers[out.to].send(out.text)

    def before_perform(self, action: Action, faces: list[int] | None) -> bool:
        """False when the action was sealed (a hidden choice) rather than to be performed now."""
        if self.host.encounter is not self.app.encounter:  # the GM opened another fight
            self.deliver(self.host.replace(self.app.encounter))
        if not self.host.is_hidden(action):
            self.host.check(self.me, action)
            return True
        refused = len(self.gm.refusals)
        self.deliver(self.host.answer(self.me, self.gm.seal(action)))
        if len(self.gm.refusals) > refused:
            raise IllegalActionError(self.gm.refusals[-1])
        if self.host.encounter.cursor == self.app.encounter.cursor:
            self.app.toast("Sealed: revealed once every hidden choice is in")
        self.app.adopt(self.host.encounter, fresh=False)
        self.keep()
        return False

    def after_change(self) -> None:
        """The GM changed the fight here: every device gets it."""
        if self.host.encounter is not self.app.encounter:
            self.deliver(self.host.replace(self.app.encounter))
            self._hold_pictures()
        else:
            self.deliver(self.host.sync())
        self.keep()

    def _hold_pictures(self) -> None:
        """Give the host the fight's pictures this browser keeps, for the devices that lack
        them (a device asks; the host sends them a window of chunks at a time)."""

        async def hold() -> None:
            store = await self.app.pictures.store()
            for digest in named_pictures(self.host.encounter.setup):
                kept = await store.get(digest)
                if kept is not None and digest in named_pictures(self.host.encounter.setup):
                    self.host.hold_picture(kept.data)

        spawn(self._tasks, hold())

    def release(self, figure: str, void: bool) -> None:
        """The GM releases ``figure``'s seal: its device asked again, or its choice voided."""
        cursor = self.host.encounter.cursor
        self.deliver(self.host.release(figure, void))
        self.changed(cursor != self.host.encounter.cursor)

    def rename(self, device: str, name: str) -> None:
        """The GM names a device (refused when another has that name)."""
        self.deliver(self.host.rename(device, name))
        self.changed(False)

    def set_rolls(self, rolls: str) -> None:
        """The GM says who rolls at this table."""
        self.deliver(self.host.set_rolls(rolls))
        self.changed(False)

    def refuses_changes(self) -> str:
        """Why undo, redo and set-up edits must wait ('' when they may go ahead)."""
        if not self.host.seals:
            return ""
        return (
            "Hidden choices are sealed: undo once they are revealed (a seal that never comes "
            "can be released under Play on several devices)"
        )

    def seated(self, figure: str | None) -> bool:
        """The GM's device may act for every figure that has not sealed a choice."""
        return figure not in self.host.seals

    def seat(self, device: str, side: str) -> None:
        """Seat ``device`` at every figure of ``side`` (the GM's own device: take them back)."""
        self.deliver(self.host.seat(device, sides=(side,)))
        self.keep()
        self._on_change(False)

    def turn(self) -> dict[str, Any]:
        """Who must act on which device."""
        return self.host.turn()

    def close(self) -> None:
        """Stop hosting: every channel closes; each device keeps its copy (and this one
        forgets the table)."""
        for peer in self._connections.values():
            peer.close()
        _keep(self.app, None)


def _keep(app: TableApp, kept: dict[str, Any] | None) -> None:
    """Keep (or, with None, forget) this device's table for the open fight."""
    if app.entry_id is not None:
        remember(KEPT_KEY + app.entry_id, json.dumps(kept))


def kept(app: TableApp) -> dict[str, Any]:
    """What this device kept of its table for the open fight ({} for none, or unreadable)."""
    text = remembered(KEPT_KEY + app.entry_id) if app.entry_id is not None else None
    try:
        found = read_json(text, MAX_DOCUMENT_CHARS) if text else {}
    except HexcombatError:
        return {}
    return found if isinstance(found, dict) else {}


def _hosting_again(app: TableApp) -> tuple[Host, Device]:
    """The host and the GM's device for the open fight: as this device kept them when it
    hosted it before (a reload), or its table as a guest when it hosts the fight again itself
    (the host has gone), else new."""
    found = kept(app)
    try:
        if found.get("role") in ("host", "guest", "left"):
            device = Device.restore(found.get("device"), app.encounter.copy())
            if found["role"] != "host":  # a guest's copy may end in stand-ins: host the truth
                truth = device.truth()
                if truth.log != app.encounter.log or truth.cursor != app.encounter.cursor:
                    app.adopt(truth, fresh=False)
                    device = Device.restore(found.get("device"), app.encounter.copy())
            data = found.get("host") if found["role"] == "host" else device.hosting()
            host = Host.restore(app.encounter, data)
            if device.me == host.seats.gm:
                return host, device
    except HexcombatError:
        pass  # a kept table this fight cannot use: a new one
    return Host(app.encounter, GM, "GM"), Device("GM")


class Joined:
    """A device that joined: its fight is the replica the host's entries build."""

    role = "guest"

    def __init__(
        self, app: TableApp, name: str, on_change: Changed, device: Device | None = None
    ) -> None:
        self.app = app
        self.device = device or Device(name)
        self.peer = self._new_peer()
        self.shown: Encounter | None = None
        self.open = False
        self._heard = False
        """Whether the host has said anything since this device's last hello."""
        self._greeting: asyncio.Future[None] | None = None
        self._on_change = on_change
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def seats(self) -> Seats:
        """Who plays which figure, as the host last said."""
        return self.device.seats

    async def answer(self, code: str) -> str:
        """The answer code for the host's offer code (a device that left joins again on a new
        connection: same place, catching up from its last entry)."""
        if not self.open and self.peer.used:
            self.peer.close()
            self.peer = self._new_peer()
        return await self.peer.answer(code)

    def _new_peer(self) -> Peer:
        return Peer(
            self.on_message, self.on_open, self.on_close, self.on_fail, FROM_HOST, self.on_refused
        )

    @classmethod
    def again(cls, app: TableApp, on_change: Changed) -> Joined | None:
        """The table this device had joined for the open fight, as kept in its storage (a
        browser closed and opened again), not connected: "Join again" takes it back."""
        found = kept(app)
        if found.get("role") != "guest":
            return None
        try:
            device = Device.restore(found.get("device"), app.encounter)
        except HexcombatError:
            return None
        joined = cls(app, device.name, on_change, device)
        joined.shown = app.encounter
        return joined

    def keep(self, role: str = "guest") -> None:
        """Keep this device's token, place and sealed choices in its storage."""
        if self.device.encounter is not None:
            _keep(self.app, {"role": role, "device": self.device.to_json()})

    def on_refused(self, why: str) -> None:
        """A frame from the host refused before it made a message (told in the console)."""
        js.console.warn(f"table: a frame from the host was refused: {why}")

    def on_fail(self) -> None:
        """The host could not be reached: say so (joining again with a new code may do)."""
        self.app.toast(UNREACHABLE, bad=True)
        self._on_change(False)

    def on_open(self) -> None:
        """The channel is open: say hello (again, after a drop: from the last entry), and
        again while the host says nothing (see HELLO_AGAIN_S)."""
        self.open = True
        self._heard = False
        self.peer.send(self.device.hello())
        self._greeting = asyncio.ensure_future(self._hello_while_unheard(self.peer))
        self._on_change(False)

    async def _hello_while_unheard(self, peer: Peer) -> None:
        for _ in range(HELLO_TRIES):
            await asyncio.sleep(HELLO_AGAIN_S)
            if self._heard or not self.open or peer is not self.peer:
                return
            peer.send(self.device.hello())

    def on_close(self) -> None:
        """The connection has gone: the copy stays, in the library; join again to go on."""
        if self.open:
            self.open = False
            self.app.toast("Not connected to the host. Your copy of the fight is kept.", bad=True)
            self._on_change(False)

    def on_message(self, text: str) -> None:
        """A host message: replay it, answer it, and show the fight as it now is."""
        self._heard = True
        refused = len(self.device.refusals)
        try:
            replies = self.device.receive(text)
        except HexcombatError as exc:
            self.app.toast("A message from the host could not be used.", bad=True, details=str(exc))
            return
        for reply in replies:
            self.peer.send(reply)
        if len(self.device.refusals) > refused:
            self.app.toast(self.device.refusals[-1], bad=True)
        enc = self.device.encounter
        adopted = enc is not None and enc is not self.shown
        if enc is not None and adopted:
            fresh = self.shown is None or enc.setup is not self.shown.setup
            self.shown = enc
            self.app.adopt(enc, fresh=fresh)
            if fresh:
                spawn(self._tasks, self._want_pictures(self.peer))
        arrived = self.device.pictures.take()
        if arrived:
            spawn(self._tasks, self._keep_pictures(arrived))
        self.keep()
        self._on_change(adopted)

    async def _want_pictures(self, peer: Peer) -> None:
        """Ask the host for the fight's pictures this browser does not keep (from where an
        earlier transfer stopped)."""
        store = await self.app.pictures.store()
        fight = self.device.fight
        held = [d for d in named_pictures(fight.setup) if await store.has(d)]
        for text in self.device.want_pictures(held):
            peer.send(text)

    async def _keep_pictures(self, arrived: dict[str, bytes]) -> None:
        """Keep the pictures that came whole and checked, and draw the board over them."""
        store = await self.app.pictures.store()
        types = picture_types(self.device.fight.setup)
        for digest, data in arrived.items():
            try:
                await store.put(data, types.get(digest, ""))
            except PictureRefusedError as exc:
                self.app.toast(f"A picture of the fight could not be kept: {exc}", bad=True)
                return
        picture = self.device.fight.setup.picture
        if picture is not None and picture.digest in arrived:
            self.app.toast("The map picture came from the host.")
        self.app.picture_arrived()

    def before_perform(self, action: Action, faces: list[int] | None) -> bool:
        """Send the action (sealed when it is a hidden choice) to the host; never here."""
        if not self.open:
            raise IllegalActionError("this device is not connected to the host")
        self.peer.send(self.device.send(action, faces))
        self.keep()
        figure = self.device.fight.state.figures.get(action.figure or "")
        if self.device.secret(action.figure or "") is not None and figure is not None:
            self.app.toast(f"{figure.name}'s choice is sealed until everyone has chosen")
        self._on_change(False)
        return False

    def after_change(self) -> None:
        """Nothing: only the host's entries change a joined device's fight."""

    def refuses_changes(self) -> str:
        """A joined device never changes the fight itself."""
        return "Only the GM's device undoes or changes the fight; this one follows it"

    def seated(self, figure: str | None) -> bool:
        """Actions for this device's own figures only."""
        return bool(self.device.legal_actions(figure))

    def turn(self) -> dict[str, Any]:
        """Who must act on which device (nobody before the host's welcome)."""
        if self.device.encounter is None:
            return {"acting": [], "sealed": [], "text": ""}
        return self.device.turn()

    def close(self) -> None:
        """Leave the table (the copy stays; joining again keeps this device's place)."""
        self.open = False
        self.peer.close()

    def forget(self) -> None:
        """Forget the table: no "Join again" from now on, but what this device saw of it is
        kept for hosting the fight again here (the host has gone)."""
        self.close()
        self.keep("left")


def turn_html(turn: dict[str, Any], me: str) -> Markup:
    """The turn line's addition: who acts on which device, this device's name in bold."""
    rows = joined(
        el(
            "li",
            r["name"],
            " · ",
            el("b", r["device_name"]) if r["device"] == me else r["device_name"],
        )
        for r in turn["acting"]
    )
    sealed = el("li", f"{len(turn['sealed'])} sealed") if turn["sealed"] else None
    kept = turn.get("kept_back", 0)
    held = el("li", kept_back_words(kept), data_kept_back=True) if kept else None
    return el(
        "ul",
        rows,
        sealed,
        held,
        class_="table-turn",
        data_table_turn=True,
        aria_label="Who acts on which device",
    )
