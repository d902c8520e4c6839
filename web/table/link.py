"""The page's side of a table of devices: the GM's device hosting (:class:`Hosting`) or a
device that joined (:class:`Joined`). Both carry the engine's table messages
(:mod:`hexcombat.table`) over data channels (:mod:`web.table.rtc`); the app asks them
before it performs or changes anything, and after."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from hexcombat import Action, Encounter, HexcombatError, IllegalActionError
from hexcombat.table import Device, Host, Outgoing
from hexcombat.table.seats import Seats
from web.table.rtc import Peer
from web.ui.dom import esc

GM = "host"
HELLO_AGAIN_S = 4.0
HELLO_TRIES = 5
"""A device that has heard nothing from the host this long after saying hello says it again
(a hello is answered with the fight from the device's last entry, so twice is harmless), up
to this many times: a first exchange lost on a busy or flaky connection does not leave a
device connected with no fight."""
UNREACHABLE = (
    "The other device could not be reached: both must be on the same network (some keep "
    "their devices apart; a phone's hotspot will do). Make a new code to try again."
)


class TableApp(Protocol):
    """What the table needs of the app."""

    @property
    def encounter(self) -> Encounter: ...

    def adopt(self, enc: Encounter, *, fresh: bool) -> None: ...

    def refresh(self) -> None: ...

    def toast(
        self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
    ) -> None: ...


class Hosting:
    """The GM's device: the host's encounter is the app's own; the GM's hidden choices are
    sealed by a device of its own, like everyone's."""

    role = "host"

    def __init__(self, app: TableApp, on_change: Callable[[], None]) -> None:
        self.app = app
        self.host = Host(app.encounter, GM, "GM")
        self.gm = Device("GM")
        self.peers: dict[str, Peer] = {}
        """Device id to its connection."""
        self._connections: dict[str, Peer] = {}
        self._bound: dict[str, str] = {}
        """Connection to the device it turned out to be."""
        self._made = 0
        self.waiting: str | None = None
        """The connection whose answer code the host waits for (its offer code is shown)."""
        self._on_change = on_change
        self.deliver(self.host.receive(GM, self.gm.hello()))

    @property
    def seats(self) -> Seats:
        """Who plays which figure."""
        return self.host.seats

    async def offer(self) -> str:
        """A new connection's offer code (a new device, or one coming back)."""
        self._made += 1
        connection = f"d{self._made}"
        self._connections[connection] = Peer(
            lambda text: self.on_message(connection, text),
            lambda: None,
            lambda: self.on_close(connection),
            self.on_fail,
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
        self.deliver(self.host.answer(device, text))
        changed = (cursor, log) != (self.host.encounter.cursor, len(self.host.encounter.log))
        if changed:
            self.app.adopt(self.host.encounter, fresh=False)
        self._on_change()

    def on_fail(self) -> None:
        """A device that answered could not be reached: say so (a new code may do)."""
        self.app.toast(UNREACHABLE, bad=True)
        self._on_change()

    def on_close(self, connection: str) -> None:
        """A device has gone: it can come back (the host keeps its seat)."""
        device = self._bound.get(connection, connection)
        if self.peers.get(device) is not self._connections.get(connection):
            return  # an old connection of a device that is back on a new one
        self.host.drop(device)
        name = self.host.seats.names.get(device, device)
        self.app.toast(f"{name} has left the table; its figures wait for it (or for the GM)")
        self._on_change()

    def deliver(self, outgoing: list[Outgoing]) -> None:
        """Send each message: to a device's channel, or to the GM's own device here."""
        queue = deque(outgoing)
        while queue:
            out = queue.popleft()
            if out.to == GM:
                for reply in self.gm.receive(out.text):
                    queue.extend(self.host.answer(GM, reply))
            elif out.to in self.peers:
                self.peers[out.to].send(out.text)

    def before_perform(self, action: Action, faces: list[int] | None) -> bool:
        """False when the action was sealed (a hidden choice) rather than to be performed now."""
        if self.host.encounter is not self.app.encounter:  # the GM opened another fight
            self.deliver(self.host.replace(self.app.encounter))
        if not self.host.is_hidden(action):
            self.host.check(GM, action)
            return True
        refused = len(self.gm.refusals)
        self.deliver(self.host.answer(GM, self.gm.seal(action)))
        if len(self.gm.refusals) > refused:
            raise IllegalActionError(self.gm.refusals[-1])
        if self.host.encounter.cursor == self.app.encounter.cursor:
            self.app.toast("Sealed: revealed once every hidden choice is in")
        self.app.adopt(self.host.encounter, fresh=False)
        return False

    def after_change(self) -> None:
        """The GM changed the fight here: every device gets it."""
        if self.host.encounter is not self.app.encounter:
            self.deliver(self.host.replace(self.app.encounter))
        else:
            self.deliver(self.host.sync())

    def refuses_changes(self) -> str:
        """Why undo, redo and set-up edits must wait ('' when they may go ahead)."""
        return "Hidden choices are sealed: undo once they are revealed" if self.host.seals else ""

    def seated(self, figure: str | None) -> bool:
        """The GM's device may act for every figure that has not sealed a choice."""
        return figure not in self.host.seals

    def seat(self, device: str, side: str) -> None:
        """Seat ``device`` at every figure of ``side`` (the GM's own device: take them back)."""
        self.deliver(self.host.seat(device, sides=(side,)))
        self._on_change()

    def turn(self) -> dict[str, Any]:
        """Who must act on which device."""
        return self.host.turn()

    def close(self) -> None:
        """Stop hosting: every channel closes; each device keeps its copy."""
        for peer in self._connections.values():
            peer.close()


class Joined:
    """A device that joined: its fight is the replica the host's entries build."""

    role = "guest"

    def __init__(self, app: TableApp, name: str, on_change: Callable[[], None]) -> None:
        self.app = app
        self.device = Device(name)
        self.peer = self._new_peer()
        self.shown: Encounter | None = None
        self.open = False
        self._heard = False
        """Whether the host has said anything since this device's last hello."""
        self._greeting: asyncio.Future[None] | None = None
        self._on_change = on_change

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
        return Peer(self.on_message, self.on_open, self.on_close, self.on_fail)

    def on_fail(self) -> None:
        """The host could not be reached: say so (joining again with a new code may do)."""
        self.app.toast(UNREACHABLE, bad=True)
        self._on_change()

    def on_open(self) -> None:
        """The channel is open: say hello (again, after a drop: from the last entry), and
        again while the host says nothing (see HELLO_AGAIN_S)."""
        self.open = True
        self._heard = False
        self.peer.send(self.device.hello())
        self._greeting = asyncio.ensure_future(self._hello_while_unheard(self.peer))
        self._on_change()

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
            self._on_change()

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
        if enc is not None and enc is not self.shown:
            fresh = self.shown is None or enc.setup is not self.shown.setup
            self.shown = enc
            self.app.adopt(enc, fresh=fresh)
        self._on_change()

    def before_perform(self, action: Action, faces: list[int] | None) -> bool:
        """Send the action (sealed when it is a hidden choice) to the host; never here."""
        if not self.open:
            raise IllegalActionError("this device is not connected to the host")
        self.peer.send(self.device.send(action, faces))
        figure = self.device.fight.state.figures.get(action.figure or "")
        if self.device.secret(action.figure or "") is not None and figure is not None:
            self.app.toast(f"{figure.name}'s choice is sealed until everyone has chosen")
        self._on_change()
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


def turn_html(turn: dict[str, Any], me: str) -> str:
    """The turn line's addition: who acts on which device, this device's name in bold."""
    rows = "".join(
        f"<li>{esc(r['name'])} · <b>{esc(r['device_name'])}</b></li>"
        if r["device"] == me
        else f"<li>{esc(r['name'])} · {esc(r['device_name'])}</li>"
        for r in turn["acting"]
    )
    sealed = f"<li>{len(turn['sealed'])} sealed</li>" if turn["sealed"] else ""
    label = 'aria-label="Who acts on which device"'
    return f'<ul class="table-turn" data-table-turn {label}>{rows}{sealed}</ul>'
