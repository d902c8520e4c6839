"""Opening the app (mixed into :class:`web.app.App`): the encounter used last, or on a first
visit the demo the site marks ``first_visit``; the welcome card over the board (the open demo,
the others, New encounter), the guided first fight, and demos opened from the card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter, HexcombatError
from hexcombat.document import from_document, read_json
from hexcombat.view import empty_encounter
from web import later
from web.library import storage
from web.ui.dom import byid, focus_quietly, present
from web.ui.html import Markup, el, joined
from web.ui.words import problems_text

DEMO_FOLDER = "./static/demos/"


STEP_THROUGH = "Press Redo to step through it."
"""A demo description's how-to sentence (true: a demo opens at its start, Redo replays it)."""


def demo_line(demo: dict[str, Any]) -> str:
    """A demo's description without its own how-to sentence (the welcome card says that)."""
    text = str(demo.get("description", ""))
    return text.replace(f" {STEP_THROUGH}", "")


def first_visit_order(demos: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The demos in the order a first visit tries them: ``first_visit`` ones, then the rest."""
    return [d for d in demos if d.get("first_visit")] + [
        d for d in demos if not d.get("first_visit")
    ]


def demo_files(listed: Any) -> dict[str, str]:
    """Ruleset id -> demo file name, from ``static/demos/index.json`` (a list of entries)."""
    found: dict[str, str] = {}
    entries = listed.get("demos", []) if isinstance(listed, dict) else listed
    for item in entries if isinstance(entries, list) else []:
        if isinstance(item, dict):
            rs, name = item.get("ruleset"), item.get("file")
            if isinstance(rs, str) and isinstance(name, str) and rs not in found:
                found[rs] = name
    return found


async def fetch_json(url: str) -> Any:
    """GET a JSON file of the site (OSError when it is missing or not JSON): the request the
    start-up controller made for it on a first visit, else one made now."""
    early = js.hexcombatBoot.demoRequest(url)
    response = await (js.fetch(url) if early is None else early)
    if not response.ok:
        raise OSError(f"{url}: HTTP {response.status}")
    text = await response.text()
    try:
        return read_json(str(text))
    except HexcombatError as exc:
        raise OSError(f"{url} is not JSON: {problems_text(exc)}") from None


class Welcome:
    """The first moments: what opens, and the welcome card."""

    library: Any
    demos: list[dict[str, Any]]
    demo_entries: dict[str, str]
    board: Any
    guide: Any

    if TYPE_CHECKING:  # the app's, which this is mixed into

        @property
        def enc(self) -> Encounter | None: ...
        def open(self, enc: Encounter, entry_id: str | None) -> None: ...
        def refresh(self) -> None: ...
        def toast(
            self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
        ) -> None: ...

    async def open_first(self) -> None:
        """Open the encounter used last, or on a first visit the demo encounter."""
        await later.load_for(*self.library.rulesets_listed())  # reading entries imports them
        last = self.library.last_opened() or self.library.latest()
        if last is not None:
            try:
                self.open(self.library.load(last), last)
                return
            except Exception as exc:  # no stored entry may stop the app from starting
                self.toast(
                    f"The last encounter could not be opened: {problems_text(exc)}", bad=True
                )
        enc = await self.demo()
        entry, enc = self.library.add(enc)
        self.open(enc, entry.id)
        file = demo_files(self.demos).get(enc.ruleset.id)
        if file is not None:
            self.demo_entries[file] = entry.id
        self.welcome(file)

    async def demo(self) -> Encounter:
        """The demo a first visit opens (the index's ``first_visit`` entry, then the others in
        their listed order), else an empty board of the engine's starter ruleset."""
        try:
            listed = await fetch_json(DEMO_FOLDER + "index.json")
        except OSError:
            listed = None
        entries = listed.get("demos", []) if isinstance(listed, dict) else listed
        self.demos = [d for d in entries or [] if isinstance(d, dict) and d.get("file")]
        for demo in first_visit_order(self.demos):
            try:
                await later.load_for(str(demo.get("ruleset", "")))
                return from_document(await fetch_json(DEMO_FOLDER + str(demo["file"])))
            except (OSError, HexcombatError) as exc:
                self.toast(
                    f"The {demo.get('ruleset', '')} demo could not be read: {problems_text(exc)}",
                    bad=True,
                )
        return empty_encounter()

    def welcome(self, file: str | None) -> None:
        """The first-visit card over the board: the open demo, the others, New encounter."""
        card = byid("welcome")
        shown = next((d for d in self.demos if d.get("file") == file), None)
        what: str
        if shown is not None:
            what = el(
                "p",
                "You are looking at a demo, ",
                el("strong", shown.get("title", "")),
                f": {demo_line(shown)}",
            )
        else:
            what = Markup("<p>Set up a board, place figures and play a fight with exact odds.</p>")
        if self.enc is not None and self.enc.can_redo:
            what += (
                '<p class="hint">It is a worked example: press Redo '
                '<span aria-hidden="true">↷</span> (top right) to step through it one action '
                "at a time. Playing a move of your own sets the rest of the example aside; "
                "Undo brings it back.</p>"
            )
        others = self._other_demos(file)
        buttons = (
            '<button type="button" class="primary" data-cmd="welcome-guide">'
            "Show me how (3 steps)</button>"
            '<button type="button" data-cmd="welcome-close">Play this demo</button>'
            if shown is not None and shown.get("first_visit")
            else '<button type="button" class="primary" data-cmd="welcome-close">'
            "Play this demo</button>"
        )
        # title, what this is and the way on first; the other demos below
        card.innerHTML = (
            '<div class="row"><h2 id="welcome-title" class="grow">Welcome to Hex Combat</h2>'
            '<button type="button" class="icon" data-cmd="welcome-close" '
            'aria-label="Close">✕</button></div>'
            + what
            + '<div class="row">'
            + buttons
            + '<button type="button" data-cmd="new">New encounter</button></div>'
            + others
        )
        card.hidden = False
        card.setAttribute("tabindex", "-1")
        self.after_ready()

    def _other_demos(self, file: str | None) -> Markup:
        """The welcome card's list of the demos other than ``file`` (nothing without any)."""
        rows = joined(
            el(
                "li",
                el(
                    "button",
                    d.get("title", d["file"]),
                    type="button",
                    data_cmd="welcome-demo",
                    data_file=d["file"],
                ),
                el("span", demo_line(d), class_="muted"),
            )
            for d in self.demos
            if d.get("file") != file
        )
        if not rows:
            return rows
        return joined((Markup("<h3>Other demos</h3>"), el("ul", rows, class_="welcome-demos")))

    def after_ready(self) -> None:
        """The page is live: focus goes into the welcome card when it is shown."""
        card = byid("welcome")
        if not card.hidden:
            first = card.querySelector(".primary")
            focus_quietly(first if present(first) else card)
            card.scrollTop = 0

    def close_welcome(self) -> None:
        """Put the first-visit card away (focus goes to the board)."""
        card = byid("welcome")
        if not card.hidden:
            had_focus = bool(card.contains(js.document.activeElement))
            card.hidden = True
            if had_focus:
                self.board.svg.focus()

    def start_guide(self) -> None:
        """The guided first fight: close the card, point at three steps on the board."""
        self.close_welcome()
        self.guide.start()
        self.refresh()

    def stop_guide(self) -> None:
        """Put the guide away."""
        self.guide.stop()
        self.refresh()

    async def open_demo(self, file: str) -> None:
        """Open a demo from the welcome card (once in the library; later taps reopen it)."""
        try:
            entry_id: str | None = self.demo_entries.get(file)
            if entry_id is not None:
                enc = self.library.load(entry_id)
            else:
                enc = from_document(await fetch_json(DEMO_FOLDER + file))
                entry, enc = self.library.add(enc)
                entry_id = self.demo_entries[file] = entry.id
        except (OSError, HexcombatError, storage.LibraryError) as exc:
            self.toast(f"The demo could not be opened: {problems_text(exc)}", bad=True)
            return
        self.open(enc, entry_id)
        self.close_welcome()
        self.toast(f"Opened the demo “{enc.setup.name}”.")
