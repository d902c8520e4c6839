"""The read-only viewer: a shared link (``#e=...``) or the embed view (``?embed#e=...``).

The board at the step being looked at, the combat log up to it, and step-through replay
(first, previous, play, next, last). No editor and no library. The embed view writes nothing
to the browser's storage (it works in a cross-origin frame with storage partitioned or
blocked); its "Import a copy" opens the full app in a new tab. The shared view reads the
library to recognise a link imported before and to show what a link adds to one's own copy
(play by post), and writes only when the reader imports a copy (never over an entry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter, HexcombatError
from hexcombat.document import from_share_code, read_json, to_document
from hexcombat.secrets import kept_back_words
from hexcombat.share import (
    code_from_fragment,
    fingerprint,
    kept_back,
    received,
    share_fragment,
    when_words,
)
from hexcombat.view import encounter_view, ruleset_view
from web import later
from web.board.view import BoardView, Handlers
from web.commands import Commands, plain
from web.library.pictures import PagePictures, held_pictures
from web.share import exports, links
from web.share.bar import BAR
from web.ui.dialog import Dialog
from web.ui.dom import byid, closest_data, listen, present
from web.ui.html import Markup, el, joined
from web.ui.toast import Toast
from web.ui.words import problems_text

PLAY_MS = 1100
"""Time between steps while the replay plays."""


class Viewer:
    """A shared encounter, read-only, with step-through replay."""

    def __init__(self, enc: Encounter, code: str, kind: str) -> None:
        self.kind = kind
        self.code = code
        self.original = enc.copy()
        self.enc = enc
        self.rs = ruleset_view(enc.ruleset)
        self.commands = Commands()
        self.since: int | None = None
        """Play by post: the first log entry one's own copy does not have."""
        self._drawn = 0
        """Log entries whose items ``#log`` shows."""
        self.timer: Any = None
        self._tick: Any = None
        self.library: Any = None
        self.imported_as: str | None = None
        self.kept_back = kept_back(str(js.location.hash))
        """Actions the link keeps back until a secret's time (it was made while one was kept)."""
        self._tasks: set[asyncio.Future[None]] = set()
        self._build()
        self.toast = Toast(byid("toast"), duration_ms=6000)
        self.dialog = Dialog(byid("dialog"))
        self.board = BoardView(
            Handlers(
                tap=self.on_tap,
                hover=self.on_hover,
                picture_missing=lambda picture: self.toast.show(str(picture["share_words"])),
            ),
            PagePictures(held_pictures),
        )
        self._register()
        listen(byid("app-root"), "click", self._on_click)
        listen(js.document, "keydown", self._on_key)

    # ---- page --------------------------------------------------------------------------
    def _build(self) -> None:
        root = byid("app-root")
        root.hidden = False  # laid out (invisible until ready) so board and log can measure
        wrap, dialog = byid("board-wrap"), byid("dialog")
        # the share link's picture may have built it already (share-picture.js)
        viewer = js.document.getElementById("viewer")
        if not present(viewer):
            viewer = js.document.createElement("div")
            viewer.id = "viewer"
            viewer.innerHTML = BAR
            root.replaceChildren(viewer)
        viewer.dataset.viewer = self.kind
        viewer.querySelector("#viewer-main").prepend(wrap)
        viewer.append(dialog)
        for gone in ("welcome", "engine-version"):
            node = byid(gone)
            if present(node):
                node.remove()
        js.document.documentElement.dataset.mode = "view"
        js.document.documentElement.dataset.viewer = self.kind
        href = str(js.location.href)
        fragment = "#e=" + self.code
        open_app = byid("open-app")
        open_app.href = links.share_url(href, fragment)
        if self.kind == "embed":
            byid("import-button").textContent = "Open"
            byid("import-button").setAttribute("aria-label", "Open in Hex Combat to import a copy")
        else:
            open_app.remove()
        # a narrow frame shows the log over the board when asked; a wide one beside it
        self.set_log(not bool(js.matchMedia("(max-width: 899px), (max-height: 419px)").matches))

    def draw(self) -> None:
        """Board, title, replay position and log at the current step."""
        enc = self.enc
        view = encounter_view(enc)
        self.board.draw(view, self.rs["terrain"])
        byid("viewer-name").textContent = view["name"]
        kept = f" · {kept_back_words(self.kept_back)}" if self.kept_back else ""
        byid("viewer-time").textContent = view["time"]["label"] + kept
        js.document.title = f"{view['name']} · Hex Combat"
        total = len(enc.log)
        pos = byid("replay-pos")
        pos.textContent = f"{enc.cursor} / {total}"
        pos.dataset.step = str(enc.cursor)
        pos.dataset.steps = str(total)
        at_start, at_end = enc.cursor == 0, enc.cursor == total
        for cmd, off in (
            ("replay-first", at_start),
            ("replay-prev", at_start),
            ("replay-next", at_end),
            ("replay-last", at_end),
            ("replay-play", at_end and self.timer is None),
        ):
            byid("viewer").querySelector(f'[data-cmd="{cmd}"]').disabled = off
        self.render_log()

    def render_log(self) -> None:
        """One item per event of the applied entries, newest last; a link's new ones marked.
        A step adds or removes only its own entries' items (a long fight steps as fast)."""
        enc = self.enc
        log = byid("log")
        if 0 < enc.cursor < self._drawn:
            item = log.lastElementChild
            while present(item) and int(item.dataset.entry) >= enc.cursor:
                before = item.previousElementSibling
                item.remove()
                item = before
        elif enc.cursor > self._drawn:
            if self._drawn == 0:
                log.innerHTML = ""
            html = "".join(self._entry_html(i) for i in range(self._drawn, enc.cursor))
            log.insertAdjacentHTML("beforeend", html)
        self._drawn = enc.cursor
        if enc.cursor == 0:
            log.innerHTML = '<li class="muted" data-empty>Nothing played yet.</li>'
        box = byid("viewer-log")
        box.scrollTop = box.scrollHeight
        first_new = log.querySelector("li[data-new]")
        if present(first_new):  # what a link adds to one's copy comes into view first
            box.scrollTop = max(0, float(first_new.offsetTop) - float(log.offsetTop) - 8)

    def _entry_html(self, i: int) -> str:
        """The log items of entry ``i``."""
        enc = self.enc
        new = self.since is not None and i >= self.since
        items = []
        for event in enc.entry_events(i):
            when = when_words(enc, event)
            summary = el(
                "summary",
                el("span", when, class_="when"),
                f" {event.text}",
                joined((" ", el("span", event.rule, class_="rule"))) if event.rule else None,
                Markup(' <span class="tag new">new</span>') if new else None,
            )
            body = el("ul", *(el("li", line) for line in event.details)) if event.details else None
            items.append(el("li", el("details", summary, body), data_entry=i, data_new=new))
        return joined(items)

    def set_log(self, show: bool) -> None:
        """Show or hide the combat log (beside the board, or over it in a small frame)."""
        byid("viewer").dataset.log = "open" if show else "closed"
        byid("viewer-log-button").setAttribute("aria-expanded", "true" if show else "false")
        byid("viewer-log").hidden = not show

    def note(self, html: Markup) -> None:
        """A line under the title bar (imported before, what a link adds)."""
        box = byid("viewer-note")
        box.innerHTML = html
        box.hidden = not html

    # ---- replay -------------------------------------------------------------------------
    def goto(self, cursor: int) -> None:
        """Show the encounter after ``cursor`` log entries."""
        enc = self.enc
        cursor = max(0, min(len(enc.log), cursor))
        while enc.cursor > cursor:
            enc.undo()
        while enc.cursor < cursor:
            enc.redo()
        self.draw()

    def step(self, delta: int) -> None:
        """Go ``delta`` entries forward or back."""
        self.stop()
        self.goto(self.enc.cursor + delta)

    def play(self) -> None:
        """Play the replay from here (from the start when at the end), or pause it."""
        if self.timer is not None:
            self.stop()
            return
        if self.enc.cursor == len(self.enc.log):
            self.goto(0)
        from web.ui.dom import proxy

        self._tick = proxy(lambda *_: self.next_or_stop())
        self.timer = js.setInterval(self._tick, PLAY_MS)
        self._play_button(True)
        self.draw()

    def next_or_stop(self) -> None:
        """One step of a playing replay."""
        if self.enc.cursor >= len(self.enc.log):
            self.stop()
            self.draw()
            return
        self.goto(self.enc.cursor + 1)

    def stop(self) -> None:
        """Pause a playing replay."""
        if self.timer is not None:
            js.clearInterval(self.timer)
            self.timer = None
            self._play_button(False)

    def _play_button(self, playing: bool) -> None:
        button = byid("viewer").querySelector('[data-cmd="replay-play"]')
        button.setAttribute("aria-pressed", "true" if playing else "false")
        button.setAttribute("aria-label", "Pause" if playing else "Play")
        path = "M7 5h3v14H7zM14 5h3v14h-3z" if playing else "M8 5l11 7-11 7z"
        button.querySelector("path").setAttribute("d", path)

    # ---- board ----------------------------------------------------------------------------
    def on_tap(self, key: str, figure_id: str | None) -> None:
        """A tap shows what is there (nothing can be changed here)."""
        self.board.select(figure_id)
        self.on_hover(key)

    def on_hover(self, key: str | None) -> None:
        readout = byid("hover-info")
        if key is None:
            readout.hidden = True
            return
        readout.textContent = self.board.hex_words(key)
        readout.hidden = False

    # ---- commands -------------------------------------------------------------------------
    def _register(self) -> None:
        board = self.board

        def stop_at(index: Callable[[], int]) -> Callable[[], None]:
            def go() -> None:
                self.stop()
                self.goto(index())

            return go

        simple: dict[str, Any] = {
            "replay-first": stop_at(lambda: 0),
            "replay-prev": lambda: self.step(-1),
            "replay-next": lambda: self.step(1),
            "replay-last": stop_at(lambda: len(self.enc.log)),
            "replay-play": self.play,
            "viewer-log": lambda: self.set_log(byid("viewer-log").hidden),
            "viewer-menu": self.toggle_menu,
            "zoom-in": lambda: board.zoom_by(1.25),
            "zoom-out": lambda: board.zoom_by(0.8),
            "fit": board.fit_again,
            "export-svg": lambda: self.export_board("svg"),
            "export-png": lambda: self.export_board("png"),
            "export-md": lambda: exports.export_markdown(self.enc),
            "export-json": lambda: exports.export_json(self.original),
            "share-link": lambda: self.show_text("Link", self.link(), "link"),
            "embed-code": lambda: self.show_text(
                "Embed code",
                links.embed_code(str(js.location.href), self.fragment(), self.enc.setup.name),
                "embed",
            ),
            "import-copy": self.import_copy,
            "open-copy": self.open_copy,
            "close-dialog": self.dialog.close,
            "copy-text": self.copy_shown,
        }
        for name, fn in simple.items():
            self.commands.register(name, plain(fn))

    def _on_click(self, ev: Any) -> None:
        element, cmd = closest_data(ev, "cmd")
        menu = byid("viewer-menu")
        if cmd != "viewer-menu" and not menu.hidden:
            self.toggle_menu(False)
        if cmd is None:
            return
        try:
            self.commands.run(cmd, element, ev)
        except Exception as exc:
            js.console.error(str(exc))
            self.problem(f"Something went wrong: {exc}")

    def _on_key(self, ev: Any) -> None:
        key = str(ev.key)
        if present(ev.target.closest("#board, input, textarea, select")):
            return
        moves = {"ArrowLeft": -1, "ArrowRight": 1, ",": -1, ".": 1}
        if key in moves:
            ev.preventDefault()
            self.step(moves[key])
        elif key == "Home":
            self.goto(0)
        elif key == "End":
            self.goto(len(self.enc.log))
        elif key == "Escape":
            self.toggle_menu(False)

    def toggle_menu(self, show: bool | None = None) -> None:
        menu = byid("viewer-menu")
        visible = menu.hidden if show is None else show
        menu.hidden = not visible
        byid("viewer-menu-button").setAttribute("aria-expanded", "true" if visible else "false")
        if visible:
            menu.querySelector("button").focus()

    def problem(self, message: str) -> None:
        self.toast.show(message, bad=True)

    def export_board(self, kind: str) -> None:
        """The board as an SVG or PNG file, over its map picture when this device holds it."""
        pictures = self.board.backdrop.pictures
        self.spawn(exports.export_board(self.enc, pictures, kind, self.problem))

    # ---- links and copies ---------------------------------------------------------------------
    def fragment(self) -> str:
        """The fragment of the encounter as received (its whole log and cursor)."""
        return share_fragment(self.original)

    def link(self) -> str:
        return links.share_url(str(js.location.href), self.fragment())

    def show_text(self, title: str, text: str, what: str) -> None:
        """A text to copy, in the dialog (selected, with a Copy button that may be refused)."""
        body = self.dialog.titled(
            title,
            el("textarea", text, readonly=True, rows=4, data_share=what)
            + '<div class="row"><button type="button" class="primary" data-cmd="copy-text">'
            "Copy</button></div>",
        )
        body.querySelector("textarea").select()

    def copy_shown(self) -> None:
        area = byid("dialog").querySelector("textarea")
        self.spawn(self._copy(str(area.value)))

    async def _copy(self, text: str) -> None:
        if await exports.copy_text(text):
            self.toast.show("Copied.")
        else:
            byid("dialog").querySelector("textarea").select()
            self.toast.show("The browser does not allow copying here: press Ctrl+C (⌘C).")

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def link_id(self) -> str:
        return fingerprint(to_document(self.original))

    def look_in_library(self) -> None:
        """Shared view: a link imported before, and one's own copy of the same fight."""
        from web.library import storage

        self.library = storage.browser_library()
        if not self.library.persistent:
            return
        store = self.library.store
        imported = links.Imported(store.get, store.set)
        entry_id = imported.entry_of(self.link_id())
        known = {e.id: e for e in self.library.entries()}
        if entry_id in known:
            self.imported_as = entry_id
            byid("import-button").textContent = "Import another copy"
            self.note(
                joined(
                    [
                        f"You imported this link before, as “{known[entry_id].name}”. ",
                        el("button", "Open it", type="button", data_cmd="open-copy"),
                    ]
                )
            )
            return
        theirs = to_document(self.original)
        best: tuple[Any, Any] | None = None
        for entry in known.values():
            try:
                mine = read_json(self.library.export(entry.id)[1])
            except Exception:  # a damaged entry is not one's copy
                continue
            got = received(mine, theirs)
            if got is not None and (best is None or got.common > best[1].common):
                best = (entry, got)
        if best is None:
            return
        entry, got = best
        name = entry.name
        if got.relation == "same":
            self.note(joined([f"Your copy “{name}” is at the same point as this link."]))
        elif got.relation == "behind":
            self.note(joined([f"Your copy “{name}” is further on than this link."]))
        else:
            self.since = got.common
            plural = "y" if got.new == 1 else "ies"
            after = "" if got.relation == "ahead" else f" (the two differ after {got.common})"
            self.note(
                joined(
                    [
                        f"This link has {got.new} new log entr{plural} since your copy "
                        f"“{name}”{after}; they are marked new in the log. "
                        "Import a copy to play on."
                    ]
                )
            )
            self.set_log(True)

    def import_copy(self) -> None:
        """Shared view: add the encounter as a new library entry and open it in the app.
        Embed view: open the shared view in a new tab (this frame keeps nothing)."""
        if self.kind == "embed":
            js.window.open(self.link(), "_blank", "noopener")
            return
        if self.library is None or not self.library.persistent:
            self.problem(
                "This browser keeps no storage for this page, so the copy cannot be kept here. "
                "Download the encounter file instead (More: Encounter file)."
            )
            return
        from web.library import storage

        try:
            entry, _enc = self.library.add(from_share_code(self.code))
            store = self.library.store
            links.Imported(store.get, store.set).note(self.link_id(), entry.id)
            self.library.remember(entry.id)
        except (storage.LibraryError, HexcombatError) as exc:
            self.problem(f"The copy could not be saved: {problems_text(exc)}")
            return
        self.stop()
        js.location.replace(links.base_url(str(js.location.href)))

    def open_copy(self) -> None:
        """Open the copy imported before, in the app."""
        if self.imported_as is None or self.library is None:
            return
        self.library.remember(self.imported_as)
        js.location.replace(links.base_url(str(js.location.href)))


def broken(message: str, kind: str) -> None:
    """A link that cannot be read: say so, with the way to the app. In the embed view the
    app opens in a new tab: loaded inside the host's frame it would keep its library and
    service worker there."""
    root = byid("app-root")
    href = links.base_url(str(js.location.href))
    outside = {"target": "_blank", "rel": "noopener"} if kind == "embed" else {}
    root.innerHTML = (
        '<section class="screen" role="alert" id="viewer-broken">'
        "<h1>This share link cannot be opened</h1>"
        + el("p", message)
        + "<p>It may have been cut off when it was copied: ask for the link "
        "again, or for the encounter file.</p>"
        + el("p", el("a", "Open Hex Combat", href=href, **outside))
        + "</section>"
    )


async def start(kind: str) -> Viewer | None:
    """Open the viewer for the link in the page's address (``kind``: view or embed)."""
    code = code_from_fragment(str(js.location.hash))
    if code is None:
        broken("The link holds no encounter.", kind)
        return None
    await later.load()  # a link may be of any ruleset
    try:
        enc = from_share_code(code)
    except HexcombatError as exc:
        broken(problems_text(exc), kind)
        return None
    viewer = Viewer(enc, code, kind)
    if kind == "view":
        try:
            viewer.look_in_library()
        except Exception as exc:  # the library is a nicety here; the link still shows
            js.console.warn(f"hexcombat: library not read: {exc}")
    viewer.draw()
    viewer.board.fit()
    return viewer
