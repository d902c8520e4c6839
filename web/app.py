"""The app's wiring: page events to the session, the command registry and the mode panels.

One :class:`App` owns the :class:`~web.session.Session` (the open encounter, its
history, selection, mode), the :class:`~web.commands.Commands` registry, the board,
the toast and the dialog, and the two mode panels (``web/play``, ``web/setup``), which
never import each other or this module: they get the app as a
:class:`~web.ui.shell.Shell`. Every change goes through the engine (set-up edits
return a new encounter, play appends to its action log); after each the session says
whether to save, and the page is redrawn from :func:`hexcombat.view.encounter_view`.

Mixed in: :mod:`web.welcome` (what opens first, the welcome card, demos), :mod:`web.chrome`
(toast, menu, log drawer, dialogs), :mod:`web.library_link` (the library panel, drops,
download) and :mod:`web.ui.sheet` (the bottom sheet).
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

import hexcombat
from hexcombat import Encounter, HexcombatError
from hexcombat.events import Event
from hexcombat.view import encounter_view, ruleset_view
from web.board.snapshot import SNAPSHOT_DELAY_MS, keep_drawn_board
from web.board.view import BoardView, Handlers, Marks
from web.chrome import Chrome
from web.commands import Commands, plain
from web.library import storage
from web.library.pictures import PagePictures
from web.library.sync import TabSync
from web.library_link import LibraryLink
from web.play.guide import Guide
from web.play.measure import Measure
from web.play.panel import Play
from web.session import Session
from web.share import PANEL_COMMANDS
from web.table import TABLE_COMMANDS
from web.ui import focus
from web.ui.dialog import Dialog
from web.ui.dom import byid, closest_data, listen, now_ms, present, proxy
from web.ui.later_tasks import LaterTasks
from web.ui.remembered import COORDS_KEY, remember, remember_mode, remembered, remembered_mode
from web.ui.sheet import BottomSheet
from web.ui.toast import Toast
from web.welcome import Welcome

TOAST_MS = 6000
PANEL_LATER = "panel"
"""The later task that draws the panel a tap left for after its paint."""


class App(Welcome, Chrome, LibraryLink, BottomSheet):
    """The running app: session, commands, board, toast, dialog and the mode panels."""

    def __init__(self) -> None:
        self.library = storage.browser_library()
        self.pictures = PagePictures()
        """The page's picture store (map pictures by digest), opened when first needed."""
        self._rosters: Any = None
        self.session = Session()
        self.sync = TabSync(self, self.library.store)
        """The open entry's revision, checked saves, and other tabs' changes to it."""
        self.commands = Commands()
        self.rs: dict[str, Any] = {}
        self.view: dict[str, Any] = {}
        self.timings: dict[str, float] = {}
        self._toast = Toast(byid("toast"), duration_ms=TOAST_MS)
        self._dialog = Dialog(byid("dialog"))
        self._snapshot_timer: Any = None
        self.later = LaterTasks(self.guard)
        """What a change leaves for later tasks (the log, the save): the first task draws
        the board, the turn and the panel."""
        self.library_panel: Any = None
        self.demos: list[dict[str, Any]] = []
        """The demo encounters the site lists (static/demos/index.json entries)."""
        self.demo_entries: dict[str, str] = {}
        """Demo file -> library entry id, for demos opened from the welcome card."""
        self._tasks: set[asyncio.Future[None]] = set()
        self.table: Any = None
        """The table of devices this one hosts or joined (``web/table``), or None."""
        self.board = BoardView(
            Handlers(
                tap=self.on_tap,
                confirm=self.on_confirm,
                inspect=self.on_inspect,
                hover=self.on_hover,
                stroke=self.on_stroke,
                cancel=self.cancel,
                picture_missing=self._picture_missing,
                viewed=self.toast_follows_board,
            ),
            self.pictures,
        )
        self._editor: Any = None
        self.play = Play(self)
        self.guide = Guide(self)
        self.measure = Measure(self)
        self._register_commands()
        self._bind()

    @property
    def editor(self) -> Any:
        """The set-up panel (web.setup.panel), imported and made when first needed: a start
        in play mode never pays for it."""
        if self._editor is None:
            from web.setup.panel import Editor

            self._editor = Editor(self)
            if self.rs:
                self._editor.reset()
        return self._editor

    @property
    def rosters(self) -> Any:
        """Every ruleset's roster, beside the encounters in the library's store
        (web.library.roster, imported when first needed)."""
        if self._rosters is None:
            from web.library.roster import Rosters

            self._rosters = Rosters(self.library.store)
        return self._rosters

    def _reset_editor(self) -> None:
        if self._editor is not None:
            self._editor.reset()

    # ---- the session, as the panels see it ------------------------------------------------
    @property
    def enc(self) -> Encounter | None:
        """The open encounter, if any."""
        return self.session.enc

    @property
    def entry_id(self) -> str | None:
        """The library entry of the open encounter."""
        return self.session.entry_id

    @property
    def mode(self) -> str:
        """'play' or 'edit' (set-up)."""
        return self.session.mode

    @property
    def selected(self) -> str | None:
        """The selected figure."""
        return self.session.selected

    @selected.setter
    def selected(self, figure_id: str | None) -> None:
        self.session.select(figure_id)

    @property
    def set_aside(self) -> int:
        """How many undone actions the last performed action set aside (0: none)."""
        return self.session.set_aside

    # ---- opening ---------------------------------------------------------------------
    def open(self, enc: Encounter, entry_id: str | None) -> None:
        """Show ``enc`` (saved as ``entry_id``), with a fresh history."""
        self.later.flush()  # the encounter shown until now is saved first
        if enc.setup.picture is not None or any(f.portrait is not None for f in enc.setup.figures):
            # the browser opens the picture store and reads the map while the board is drawn
            self.pictures.begin([enc.setup.picture.digest] if enc.setup.picture else [])
        self.session.open(enc, entry_id, remembered_mode(entry_id))
        self.sync.opened(entry_id)
        if entry_id is not None:
            self.library.remember(entry_id)
        self.rs = ruleset_view(enc.ruleset)
        remember_mode(entry_id, self.mode)
        self._reset_editor()
        self.play.reset()
        self.guide.active = False  # its steps were about the encounter it began in
        self.refresh()
        self.board.fit()

    # ---- tools ---------------------------------------------------------------------------
    def toggle_measure(self) -> None:
        """The measure tool on or off: tap two hexes for distance, sight and range band."""
        self.measure.toggle()
        self.refresh()

    # ---- changing ----------------------------------------------------------------------
    @property
    def encounter(self) -> Encounter:
        """The open encounter."""
        return self.session.encounter

    def change(self, make: Callable[[Encounter], Encounter], done: str = "") -> bool:
        """Apply a set-up edit made by the engine; on refusal show why and change nothing."""
        if self._table_refuses():
            return False
        try:
            self.session.change(make, done)
        except (HexcombatError, ValueError) as exc:
            self.refuse(exc)
            return False
        self.after_change(done)
        return True

    def perform(
        self, action: hexcombat.Action, faces: list[int] | None = None, note: str = ""
    ) -> list[Event]:
        """Carry out a play action (engine errors propagate to the caller, nothing changes);
        ``note`` says why the app chose it (logged with it).

        At a table of devices the table may take it instead (sent to the host, or sealed):
        then nothing is performed here yet and there are no events."""
        if self.table is not None and not self.table.before_perform(action, faces):
            return []
        events = self.session.perform(action, faces, note)
        self.after_change("")
        return events

    def after_change(self, done: str) -> None:
        """Redraw, save in a later task when the session says so, and say what was done
        (with Undo)."""
        if self.table is not None:
            self.table.after_change()
        if self.session.take_unsaved():
            self.save_soon()
        self.refresh()
        if done:
            self.toast(done, undo=True)

    def undo(self) -> None:
        """Step back one change (set-up edit or action) and say which one."""
        if self._table_refuses():
            return
        words = self.session.undo()
        if words is None:
            return
        self.play.pilot.paused = True  # the app must not play the undone move again at once
        self.play.reset_pending()
        self.after_change("")
        self.toast(words)

    def redo(self) -> None:
        """Apply again the change undone last, and show what it did."""
        if self._table_refuses():
            return
        words = self.session.redo()
        if words is None:
            return
        self.play.pilot.paused = True
        self.play.reset_pending()
        self.after_change("")
        self.toast(words)

    def _table_refuses(self) -> bool:
        """At a table of devices: True (and why, shown) when this device may not change the
        fight now."""
        why = self.table.refuses_changes() if self.table is not None else ""
        if why:
            self.toast(why, bad=True)
        return bool(why)

    def adopt(self, enc: Encounter, *, fresh: bool) -> None:
        """Show the table's fight: a new one (``fresh``, joining) opens and is kept in the
        library; otherwise the open one moved on (entries from the host)."""
        if fresh:
            self.close_welcome()
            self.open(enc, None)
            self.save()
            return
        self.session.enc = enc
        self.session.unsaved = True
        self.after_change("")

    def seated(self, figure_id: str | None) -> bool:
        """True when this device offers actions for ``figure_id`` (at a table: its seat)."""
        return self.table is None or bool(self.table.seated(figure_id))

    @property
    def can_undo(self) -> bool:
        """True when there is a change to undo."""
        return self.session.can_undo

    @property
    def can_redo(self) -> bool:
        """True when there is an undone change to apply again."""
        return self.session.can_redo

    def save_soon(self) -> None:
        """Save in a later task (:meth:`save`); whatever reads the library or closes the
        page runs it first."""
        self.later.soon("save", self._save)

    def save(self) -> None:
        """Write the encounter to the library now (failures are shown; the old revision
        stays)."""
        self.later.soon("save", self._save)
        self.later.flush("save")

    def _save(self) -> None:
        started = now_ms()
        try:
            if self.entry_id is None:
                entry, enc = self.library.add(self.encounter)
                self.session.saved_as(entry.id, enc)
                self.sync.opened(entry.id)
                self.library.remember(entry.id)
            else:
                self.sync.save(self.entry_id, self.encounter)
        except storage.LibraryError as exc:
            self.toast(str(exc), bad=True)
        self.timings["save"] = now_ms() - started

    # ---- drawing -------------------------------------------------------------------------
    def _picture_missing(self, picture: Mapping[str, Any]) -> None:
        """Say the map picture is not in this browser; a device at a table asks the host for
        it instead (and says what came of that)."""
        if self.table is None or self.table.role != "guest":
            self.toast(str(picture["missing_words"]))

    def picture_arrived(self) -> None:
        """Pictures came from the table's host: draw the board over them."""
        self.board.backdrop.look_again()
        self.board.portraits.look_again()
        self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the engine's view of the encounter."""
        started = now_ms()
        enc = self.encounter
        self.view = encounter_view(enc)
        if self.table is not None and not self.table.seated(None):  # the table is the GM's
            self.view = {**self.view, "table_actions": [], "gm_actions": []}
        viewed = now_ms()
        self.session.keep_selection(f["id"] for f in self.view["figures"])
        self.board.draw(self.view, self.rs["terrain"])
        self.board.select(self.selected)
        self.board.paint_fill = self.editor.paint_fill() if self.mode == "edit" else None
        self.board.drag_picture = self.editor.drag_picture() if self.mode == "edit" else None
        self.board.svg.classList.toggle("painting", self.board.paint_fill is not None)
        drawn = now_ms()
        self.draw_topbar()
        self.render_panel()
        self.later.soon("log", self.play.render_log)
        if self.table is not None:
            from web.table.link import turn_html

            me = "host" if self.table.role == "host" else self.table.device.me
            byid("turn-line").insertAdjacentHTML("beforeend", turn_html(self.table.turn(), me))
        self.timings.update(view=viewed - started, board=drawn - viewed, total=now_ms() - started)
        js.document.documentElement.dataset.mode = self.mode
        if self._snapshot_timer is not None:
            js.clearTimeout(self._snapshot_timer)
        self._snapshot_timer = js.setTimeout(self._save_snapshot, SNAPSHOT_DELAY_MS)

    def save_snapshot(self) -> None:
        """Keep the drawn board for the next visit's loading screen."""
        self._snapshot_timer = None
        keep_drawn_board(byid("board"))

    def render_panel(self) -> None:
        """Redraw the panel and the board's highlights for the current mode."""
        if self.mode == "edit":
            footer = byid("panel-footer")
            footer.innerHTML = ""
            footer.hidden = True
            self.editor.render()
        else:
            self.play.render()

    def mark(self, marks: Marks) -> None:
        """Show highlights on the board (with the guide's and the measure tool's)."""
        self.guide.marks(marks)
        self.measure.marks(marks)
        self.board.mark(marks)
        self.guide.render()

    def draw_topbar(self) -> None:
        """Name, ruleset, mode, undo/redo state and the turn tracker."""
        view = self.view
        byid("enc-name").textContent = self.encounter.setup.name + self.sync.title_suffix()
        byid("enc-ruleset").textContent = view["ruleset"]["name"]
        js.document.title = f"{self.encounter.setup.name} · Hex Combat"
        for button in js.document.querySelectorAll("#mode-switch button"):
            button.setAttribute(
                "aria-pressed", "true" if button.dataset.mode == self.mode else "false"
            )
        byid("undo-button").disabled = not self.can_undo
        byid("redo-button").disabled = not self.can_redo
        self.play.render_tracker()

    def set_mode(self, mode: str) -> None:
        """Switch between setting up ("edit") and playing ("play"); typed figure edits are
        applied first (a refused one keeps set-up open with its problems shown)."""
        if mode != self.mode and self.mode == "edit" and not self.editor.flush():
            self.toast("Fix the figure's fields first: the typed values are kept.", bad=True)
            return
        if not self.session.set_mode(mode):
            return
        self.close_welcome()  # the player has moved on from the first-visit card
        remember_mode(self.entry_id, mode)
        self._reset_editor()
        self.play.reset_pending()
        self.refresh()

    def select(self, figure_id: str | None, *, pressed_first: bool = False) -> None:
        """Select a figure (None clears the selection) and redraw the panel; ``pressed_first``
        (a tap): the lifted token is painted first, the panel and tracker in the task after
        that paint (until then a tap on the panel only redraws it)."""
        started = now_ms()
        self.session.select(figure_id)
        self.board.select(figure_id)
        self.play.reset_pending()
        if pressed_first:
            self.later.after_paint(PANEL_LATER, self._draw_selection)
        else:
            self._draw_selection()
        self.timings["select"] = now_ms() - started

    def _draw_selection(self) -> None:
        """The panel and the turn tracker for the selection."""
        self.render_panel()
        self.play.render_tracker()

    def settled(self) -> None:
        """Draw now what a tap left for after its paint: whatever reads the panel or acts on
        the selection sees the panel of the selected figure."""
        self.later.flush(PANEL_LATER)

    # ---- board events -------------------------------------------------------------------
    def on_tap(self, key: str, figure_id: str | None) -> None:
        """A hex or figure was tapped (or chosen with Enter); the measure tool takes taps
        while it is on."""
        self.settled()
        if self.measure.active:
            self.guard(lambda: self.measure.tap(key))
            return
        self.guard(lambda: self._active().on_tap(key, figure_id))

    def on_confirm(self, key: str, figure_id: str | None) -> None:
        """Enter on the board's cursor."""
        self.settled()
        if self.measure.active:
            self.on_tap(key, figure_id)
        elif self.mode == "play":
            self.guard(lambda: self.play.confirm(key, figure_id))
        else:
            self.on_tap(key, figure_id)

    def on_inspect(self, key: str, figure_id: str | None) -> None:
        """A long press on a hex or figure: its details, nothing else."""
        self.settled()
        self.guard(lambda: self._active().inspect(key, figure_id))

    def on_hover(self, key: str | None) -> None:
        """The mouse moved onto another hex: its details in a corner, and the mode's preview."""
        self.settled()
        readout = byid("hover-info")
        if key is None:
            readout.hidden = True
        else:
            readout.textContent = self.board.hex_words(key)
            readout.hidden = False
        self.guard(lambda: self._active().on_hover(key))

    def on_stroke(self, keys: list[str]) -> None:
        """A paint stroke ended."""
        self.settled()
        self.guard(lambda: self.editor.on_stroke(keys))

    def cancel(self) -> None:
        """Esc: close what is open, else drop the pending choice, else the selection."""
        if not byid("menu").hidden:
            self.toggle_menu(False)
        elif self.measure.active:
            self.toggle_measure()
        elif not byid("log-drawer").hidden:
            self.toggle_log(False)
        elif self._active().cancel():
            return
        elif self.selected is not None:
            self.select(None)

    def _active(self) -> Any:
        return self.editor if self.mode == "edit" else self.play

    def guard(self, fn: Callable[[], Any]) -> None:
        """Run an event handler; an unexpected error is shown instead of breaking the page."""
        try:
            fn()
        except Exception as exc:
            js.console.error(traceback.format_exc())
            self.toast(f"Something went wrong: {exc}", bad=True)

    # ---- page events ---------------------------------------------------------------------
    def _bind(self) -> None:
        root = byid("app-root")
        listen(root, "click", self._on_click)
        listen(byid("coords-toggle"), "change", self._on_coords)
        listen(byid("log-filter"), "change", lambda ev: self.guard(self.play.filter_log))
        # an entry opened near the bottom shows its whole breakdown ("toggle" does not bubble)
        byid("log").addEventListener("toggle", proxy(self._on_log_toggle), True)
        listen(js.document, "keydown", self._on_key)
        listen(byid("sheet-handle"), "pointerdown", self._on_sheet_down)
        listen(byid("sheet-handle"), "keydown", self._on_sheet_key)
        listen(byid("dialog"), "close", lambda ev: self.close_library())
        # another tab of this site changed localStorage (never fired for this tab's writes)
        listen(js.window, "storage", self._on_storage)
        # the page closed or hidden (a tablet put away): the waiting save is written first
        listen(js.window, "pagehide", lambda _ev: self.later.flush())
        listen(js.document, "visibilitychange", self._on_visibility)
        # files dropped on the page are imported by the library panel's code, imported on
        # the first drag over the page (not at start)
        self._first_drag = proxy(self._on_first_drag)
        js.document.body.addEventListener("dragover", self._first_drag)
        self._save_snapshot = proxy(lambda *_: self.guard(self.save_snapshot))
        self._close_dialog_later = proxy(lambda *_: self.close_dialog())

    def _on_storage(self, ev: Any) -> None:
        key = ev.key
        self.later.flush()  # this tab's waiting save meets the other tab's change as before
        self.guard(lambda: self.sync.on_storage(key if isinstance(key, str) else None))

    def _on_visibility(self, _ev: Any) -> None:
        if str(js.document.visibilityState) == "hidden":
            self.later.flush()

    def _on_click(self, ev: Any) -> None:
        target = ev.target
        if present(target) and hasattr(target, "closest") and not present(target.closest("#board")):
            self.board.forget_tap()
        element, cmd = closest_data(ev, "cmd")
        if cmd is None:
            if not byid("menu").hidden and not present(ev.target.closest("#menu, #menu-button")):
                self.toggle_menu(False)
            return
        if present(element.closest("#panel-body, #panel-footer")):
            if self.later.waiting(PANEL_LATER):  # the panel shown is another selection's
                self.settled()
                return
            self.guard(
                lambda: focus.kept(
                    lambda: self.commands.run(cmd, element, ev, scope=self.mode), element
                )
            )
            return
        if present(element.closest("#menu")) and cmd != "coords":
            self.toggle_menu(False)
        self.guard(lambda: focus.kept(lambda: self.command(cmd, element), element))

    def command(self, cmd: str, element: Any = None) -> None:
        """Run a command of the top bar, the menu, the board tools or a message (what waits
        for a later task is done first: the library, the table or a download sees it)."""
        self.later.flush()
        self.commands.run(cmd, element)

    def _register_commands(self) -> None:
        """The app-wide commands (the mode panels register theirs when they are made)."""
        board = self.board
        simple: dict[str, Callable[[], Any]] = {
            "menu": self.toggle_menu,
            "undo": self.undo,
            "redo": self.redo,
            "log": self.toggle_log,
            "log-earlier": self.play.log.earlier,
            "zoom-in": lambda: board.zoom_by(1.25),
            "zoom-out": lambda: board.zoom_by(0.8),
            "fit": board.fit_again,
            "legend": self.legend,
            "close-dialog": self.close_dialog,
            "export": self.export,
            "settings": self.settings,
            "welcome-close": self.close_welcome,
            "welcome-guide": self.start_guide,
            "guide-close": self.stop_guide,
            "help": self.help,
            "measure": self.toggle_measure,
            "next-step": self.play.next_step,
        }
        for name, fn in simple.items():
            self.commands.register(name, plain(fn))
        self.commands.register(
            "switch-mode", lambda _cmd, el, _ev: self.set_mode(str(el.dataset.mode))
        )
        self.commands.register(("library", "new", "import"), self._library_cmd)
        self.commands.register(TabSync.COMMANDS, lambda cmd, _el, _ev: self.sync.command(cmd))
        self.commands.register(
            "welcome-demo", lambda _cmd, el, _ev: self.spawn(self.open_demo(str(el.dataset.file)))
        )
        self.commands.register(
            "tracker-select", lambda _cmd, el, _ev: self.select(str(el.dataset.pick))
        )
        # the share, export, storage and update commands: web.share.panel is imported when
        # one is first used (it registers the real handlers then), not at start
        self.commands.register(PANEL_COMMANDS, self._share_cmd)
        self.commands.register(TABLE_COMMANDS, self._table_cmd)

    def _share_cmd(self, cmd: str, element: Any, event: Any) -> None:
        from web.share import panel as share_panel

        share_panel.register(self)
        self.commands.run(cmd, element, event)

    def _table_cmd(self, cmd: str, element: Any, event: Any) -> None:
        from web.table import panel as table_panel

        table_panel.register(self)
        self.commands.run(cmd, element, event)

    def settings(self) -> None:
        """The encounter's settings, in the set-up panel."""
        self.set_mode("edit")
        self.editor.show_settings()

    def spawn(self, work: Any) -> None:
        """Run a coroutine in the background (kept referenced until it is done)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_log_toggle(self, ev: Any) -> None:
        details = ev.target
        if present(details) and bool(getattr(details, "open", False)):
            details.scrollIntoView(js.JSON.parse('{"block": "nearest"}'))

    def _on_coords(self, ev: Any) -> None:
        on = bool(ev.target.checked)
        self.board.show_coords(on)
        remember(COORDS_KEY, "on" if on else "off")

    def restore_coords(self) -> None:
        """ "Show coordinates" as the browser remembered it."""
        on = remembered(COORDS_KEY) == "on"
        byid("coords-toggle").checked = on
        self.board.show_coords(on)

    def _on_key(self, ev: Any) -> None:
        self.settled()
        key = str(ev.key)
        target = ev.target
        typing = present(target.closest("input, textarea, select, [contenteditable]"))
        ctrl = bool(ev.ctrlKey or ev.metaKey)
        if ctrl and key.lower() == "z" and not typing:
            ev.preventDefault()
            self.guard(self.redo if ev.shiftKey else self.undo)
        elif ctrl and key.lower() == "y" and not typing:
            ev.preventDefault()
            self.guard(self.redo)
        elif key == "Escape":
            if not present(target.closest("#board")):  # the board handles its own Esc
                self.cancel()
        elif key == "Enter" and present(target.closest("#figure-form")) and self.mode == "edit":
            ev.preventDefault()
            self.guard(self.editor.apply_figure)
        elif key == "?" and not typing:
            ev.preventDefault()
            self.guard(self.help)
        elif key in ("a", "A") and not typing and not ctrl and self.mode == "play":
            ev.preventDefault()
            self.guard(self.play.focus_actions)
        elif key in ("m", "M") and not typing and not ctrl:
            ev.preventDefault()
            self.guard(self.toggle_measure)
        elif key in ("r", "R") and not typing and not ctrl and self.mode == "edit":
            self.guard(lambda: self.editor.rotate(-1 if ev.shiftKey else 1))


async def start() -> App:
    """Create the app, open the first encounter and draw it (the page is then ready)."""
    started = now_ms()
    root = byid("app-root")
    root.hidden = False  # laid out (invisible until ready) so the board can measure itself
    byid("engine-version").textContent = f"Rules engine {hexcombat.__version__}"
    byid("engine-version").dataset.engineVersion = hexcombat.__version__
    app = App()
    if bool(js.matchMedia("(max-width: 600px)").matches):  # a phone: the board first
        byid("panel").dataset.sheet = "peek"
    app.update_insets()
    app.restore_coords()
    await app.open_first()
    app.timings["start"] = now_ms() - started
    js.window.hexcombatApp = proxy(lambda: json.dumps(app.timings))
    return app
