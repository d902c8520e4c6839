"""The table dialog: host this fight or join one, add a device (its offer code as text and QR
code, then its answer code), seat devices at sides, leave. Imported at its first use.

Test hooks: ``#table-offer-out`` / ``#table-answer-out`` hold the codes to carry,
``#table-offer-in`` / ``#table-answer-in`` take them; ``html[data-table]`` is ``host`` or
``guest`` while a table is open.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import js  # type: ignore[import-not-found]

from hexcombat import IllegalActionError
from hexcombat.qr import encode, to_svg
from web.commands import Commands, plain
from web.table import TABLE_COMMANDS
from web.table.link import Hosting, Joined, TableApp
from web.table.scan import read_code
from web.ui.dom import byid, listen, present
from web.ui.html import Markup, el, joined

QR_BORDER = 4
QR_MODULE = (2, 6)
"""Pixels per module, fewest and most: whole pixels (a camera and jsQR read a code drawn on
whole pixels far better than one scaled), as many as fit the screen."""


class Host(TableApp, Protocol):
    """What the dialog uses of the app."""

    commands: Commands
    table: Any

    def dialog(self, title: str, body_html: str) -> Any: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...


def register(app: Host) -> None:
    """Register the table commands in the app's registry (replacing the app's stand-ins)."""
    simple: dict[str, Callable[[], Any]] = {
        "table": lambda: show(app),
        "table-host": lambda: host(app),
        "table-offer": lambda: app.spawn(offer(app)),
        "table-accept": lambda: app.spawn(accept(app)),
        "table-join": lambda: app.spawn(join(app)),
        "table-answer": lambda: show(app),
        "table-seat": lambda: seat(app),
        "table-leave": lambda: leave(app),
        "table-rename": lambda: rename(app),
        "table-rolls": lambda: rolls(app),
    }
    assert set(simple) | {"table-release", "table-void"} == set(TABLE_COMMANDS)
    for name, fn in simple.items():
        app.commands.register(name, plain(fn), replace=True)
    app.commands.register(
        "table-release",
        lambda _cmd, el, _ev: release(app, str(el.dataset.figure), void=False),
        replace=True,
    )
    app.commands.register(
        "table-void",
        lambda _cmd, el, _ev: release(app, str(el.dataset.figure), void=True),
        replace=True,
    )
    listen(byid("dialog"), "change", lambda ev: on_scan(app, ev))


def on_scan(app: Host, event: Any) -> None:
    """A photo chosen (or taken) for a ``data-scan`` input: its QR code fills the code field."""
    field = getattr(event.target, "dataset", None)
    target = str(field.scan) if field is not None and getattr(field, "scan", None) else ""
    files = event.target.files if target else None
    if files is not None and files.length:
        app.spawn(_scan_into(app, files.item(0), target))


async def _scan_into(app: Host, file: Any, target: str) -> None:
    try:
        code = await read_code(file)
    except ValueError as exc:
        app.toast(str(exc), bad=True)
        return
    byid(target).value = code
    app.toast("Code read from the picture")


def show(app: Host, code: str = "") -> None:
    """Open the dialog for what the table is now (``code``: a code to carry, shown too); a
    table this device joined before its browser closed is found in its storage."""
    if app.table is None:
        app.table = Joined.again(app, lambda drawn: changed(app, drawn))
    table = app.table
    if isinstance(table, Hosting):
        body = _hosting_html(table, code)
    elif isinstance(table, Joined):
        body = _joined_html(table, code)
    else:
        body = _start_html()
    app.dialog("Play on several devices", body)


def redraw(app: Host) -> None:
    """Keep an open table dialog current (devices coming and going)."""
    dialog = js.document.getElementById("dialog")
    if present(dialog) and dialog.open and present(js.document.getElementById("table-dialog")):
        kept = js.document.getElementById("table-code")
        table = app.table
        waiting = isinstance(table, Joined) or (isinstance(table, Hosting) and table.waiting)
        show(app, str(kept.dataset.code) if present(kept) and waiting else "")


def host(app: Host) -> None:
    """This device hosts the open fight."""
    app.table = Hosting(app, lambda drawn: changed(app, drawn))
    js.document.documentElement.dataset.table = "host"
    app.refresh()
    show(app)


async def offer(app: Host) -> None:
    """A new device's offer code, as text and QR code."""
    table = app.table
    if isinstance(table, Hosting):
        try:
            code = await table.offer()
        except Exception as exc:  # the browser refused: say so rather than wait for nothing
            _failed(app, "No offer code could be made", exc)
            return
        show(app, code)


async def accept(app: Host) -> None:
    """The answer code of the device last offered a place."""
    table = app.table
    if isinstance(table, Hosting):
        try:
            await table.accept(str(byid("table-answer-in").value))
        except ValueError as exc:
            app.toast(str(exc), bad=True)
            return
        except Exception as exc:
            _failed(app, "This answer code could not be used", exc)
            return
        app.toast("Connecting… the device appears here once it is in")
        show(app)


async def join(app: Host) -> None:
    """Join with the host's offer code; show the answer code to carry back."""
    code = str(byid("table-offer-in").value)
    try:
        if isinstance(app.table, Joined):  # joining again: the same device and place
            table = app.table
        else:
            name = str(byid("table-name").value).strip() or "Player"
            table = Joined(app, name[:40], lambda drawn: changed(app, drawn))
        answer = await table.answer(code)
    except ValueError as exc:
        app.toast(str(exc), bad=True)
        return
    except Exception as exc:
        _failed(app, "No answer code could be made", exc)
        return
    app.table = table
    js.document.documentElement.dataset.table = "guest"
    app.refresh()  # the table's actions are the GM's from now on
    show(app, answer)


def _failed(app: Host, what: str, exc: Exception) -> None:
    """A pairing step the browser refused (WebRTC turned off, a code from another kind of
    browser): shown, and in the console for whoever looks, never silently dropped."""
    js.console.error(f"table: {what}: {exc!r}")
    app.toast(f"{what}: make a new one and try again", bad=True, details=str(exc))


def seat(app: Host) -> None:
    """Seat the chosen device at the chosen side."""
    table = app.table
    if isinstance(table, Hosting):
        device, _, side = str(byid("table-seat-pick").value).partition("|")
        table.seat(device, side)
        show(app)


def rename(app: Host) -> None:
    """The GM names the chosen device."""
    table = app.table
    if isinstance(table, Hosting):
        device = str(byid("table-rename-pick").value)
        try:
            table.rename(device, str(byid("table-rename-name").value))
        except IllegalActionError as exc:
            app.toast(str(exc), bad=True)
        show(app)


def rolls(app: Host) -> None:
    """The GM switches who rolls: the host for everyone, or each player their own dice."""
    table = app.table
    if isinstance(table, Hosting):
        table.set_rolls("players" if table.host.rolls == "host" else "host")
        show(app)


def release(app: Host, figure: str, *, void: bool) -> None:
    """The GM releases a seal that never comes: asked again, or the choice voided."""
    table = app.table
    if isinstance(table, Hosting):
        try:
            table.release(figure, void)
        except IllegalActionError as exc:
            app.toast(str(exc), bad=True)
        show(app)


def leave(app: Host) -> None:
    """Stop hosting, or leave the table (a joined device may join again, in its place); this
    device keeps its copy."""
    if isinstance(app.table, Joined) and app.table.open:
        app.table.close()
    else:
        if isinstance(app.table, Joined):
            app.table.forget()
        elif app.table is not None:
            app.table.close()
        app.table = None
        del js.document.documentElement.dataset.table
    app.refresh()
    show(app)


def changed(app: Host, drawn: bool) -> None:
    """Something at the table changed: redraw the page (unless ``drawn`` already) and the
    dialog."""
    if not drawn:
        app.refresh()
    redraw(app)


def _code_html(kind: str, code: str) -> Markup:
    encoded = encode(code, "L")
    fit = int(float(js.innerWidth) * 0.8) // (encoded.size + 2 * QR_BORDER)
    module = max(QR_MODULE[0], min(QR_MODULE[1], fit))
    label = f"QR code of the {kind} code"
    svg = Markup(to_svg(encoded, module=module, border=QR_BORDER, label=label))
    return el(
        "div",
        el(
            "label",
            f"The {kind} code: carry it to the other device (copy it, or let it scan this)",
            el("textarea", code, id=f"table-{kind}-out", readonly=True, rows=4),
        ),
        el("div", svg, class_="qr"),
        id="table-code",
        class_="table-code",
        data_code=code,
    )


def _button(words: str, cmd: str, primary: bool = False) -> Markup:
    """A dialog button for command ``cmd``."""
    return el("button", words, type="button", class_="primary" if primary else None, data_cmd=cmd)


def _code_field(words: str, field_id: str) -> Markup:
    """A box to paste a code from the other device into (``field_id``)."""
    return el("label", words, el("textarea", id=field_id, rows=3))


def _start_html() -> Markup:
    return el(
        "div",
        el(
            "p",
            "Each player moves their own figures on their own phone or tablet, and keeps "
            "hidden choices on their own screen. No internet and no server: the devices talk "
            "on the local network or a hotspot.",
        ),
        el("p", _button("Host this fight", "table-host", primary=True)),
        el("h3", "Join a table"),
        el("label", "Your name ", el("input", id="table-name", maxlength=40, value="Player")),
        _code_field("The host's offer code ", "table-offer-in"),
        _scan_html("table-offer-in"),
        _button("Join", "table-join"),
        id="table-dialog",
    )


def _scan_html(target: str) -> Markup:
    """A camera button: a photo of the other device's QR code fills ``target``."""
    return el(
        "label",
        "Or scan its QR code: ",
        el("input", type="file", accept="image/*", capture="environment", data_scan=target),
        class_="scan",
    )


def _hosting_html(table: Hosting, code: str) -> Markup:
    h = table.host
    rows = joined(
        el("li", f"{name} · {'connected' if d in h.connected else 'away'}", data_device=d)
        for d, name in h.seats.names.items()
        if d != h.seats.gm
    )
    sides = sorted({f.side for f in h.encounter.state.figures.values()})
    picks = joined(
        el("option", f"{name} plays {s}", value=f"{d}|{s}")
        for d, name in h.seats.names.items()
        for s in sides
    )
    seat = (
        joined(
            [
                el("label", "Seat ", el("select", picks, id="table-seat-pick")),
                _button("Seat", "table-seat"),
            ]
        )
        if rows
        else None
    )
    add = (
        joined(
            [
                _code_html("offer", code),
                _code_field("Their answer code ", "table-answer-in"),
                _scan_html("table-answer-in"),
                _button("Connect", "table-accept", primary=True),
            ]
        )
        if code
        else _button("Add a device", "table-offer", primary=True)
    )
    return el(
        "div",
        el("p", "You host this fight: your device is the GM's and holds the truth."),
        el("ul", rows or el("li", "No device yet"), class_="table-devices", aria_label="Devices"),
        seat,
        _rename_html(table) if rows else None,
        _rolls_html(table),
        _seals_html(table),
        add,
        el("p", _button("Stop hosting", "table-leave")),
        id="table-dialog",
    )


def _rename_html(table: Hosting) -> Markup:
    names = table.host.seats.names
    picks = joined(el("option", n, value=d) for d, n in names.items())
    return joined(
        [
            el("label", "Rename ", el("select", picks, id="table-rename-pick")),
            el("label", "to ", el("input", id="table-rename-name", maxlength=40)),
            _button("Rename", "table-rename"),
        ]
    )


def _rolls_html(table: Hosting) -> Markup:
    if table.host.rolls == "host":
        now, other = "this device rolls every die", "Let players type their own dice"
    else:
        now, other = "each player may type their own (marked in the log)", "Roll every die here"
    return el(
        "p", f"Dice: {now}. ", _button(other, "table-rolls"), data_table_rolls=table.host.rolls
    )


def _seals_html(table: Hosting) -> Markup:
    """Each sealed choice with its device, and the GM's way out when it never comes."""
    h = table.host
    rows = joined(
        el(
            "li",
            f"{h.encounter.state.figure(fid).name}: sealed on "
            f"{h.seats.names.get(device, device)}{'' if device in h.connected else ' (away)'} ",
            el("button", "Ask again", type="button", data_cmd="table-release", data_figure=fid),
            " ",
            el("button", "Void the choice", type="button", data_cmd="table-void", data_figure=fid),
            data_sealed=fid,
        )
        for fid, (device, _digest) in sorted(h.seals.items())
        if device != h.seats.gm
    )
    return el("ul", rows, class_="table-seals", aria_label="Sealed choices") if rows else Markup()


def _joined_html(table: Joined, code: str) -> Markup:
    if table.open:
        state = "Connected to the host"
    else:
        state = "Not connected yet" if table.shown is None else "Not connected"
    answer = _code_html("answer", code) if code and not table.open else None
    again = (
        None
        if table.open or answer
        else joined(
            [
                _code_field(
                    "A new offer code from the host, to join again in your place ",
                    "table-offer-in",
                ),
                _scan_html("table-offer-in"),
                _button("Join again", "table-join", primary=True),
            ]
        )
    )
    leave = "Leave the table" if table.open else "Forget this table"
    gm = table.seats.gm
    names = [n for d, n in table.seats.names.items() if d == gm]  # the GM first
    names += [n for d, n in table.seats.names.items() if d != gm]
    seated = (
        el("p", f"At the table: {', '.join(names)}", data_table_devices=True) if names else None
    )
    return el(
        "div",
        el(
            "p",
            f"{state}. You play what the GM seats you at; the GM's device holds the truth.",
            data_table_state="open" if table.open else "closed",
        ),
        seated,
        answer,
        again,
        el("p", _button(leave, "table-leave")),
        id="table-dialog",
    )
