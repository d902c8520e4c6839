"""The page around the board (mixed into :class:`web.app.App`): the one toast (with Undo,
a hint's button, a refusal in a player's words), the menu, the combat log drawer, the one
dialog, the terrain legend and the help panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexcombat.terrain import terrain_facts
from web.play.help import help_html
from web.ui.dom import byid, present
from web.ui.html import Markup, el, joined, leaf
from web.ui.toast import toast_top
from web.ui.words import HOUSE_TAG, plain_error


class Chrome:
    """Messages, menu, log drawer and dialogs."""

    _toast: Any
    _dialog: Any
    board: Any
    play: Any
    rs: dict[str, Any]

    if TYPE_CHECKING:  # the app's, which this is mixed into

        def close_library(self) -> None: ...

    def toast(
        self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
    ) -> None:
        """A short message over the board (with an Undo button after a change, and the
        technical text under "details")."""
        self._toast.show(
            message,
            bad=bad,
            button="Undo" if undo else "",
            button_attrs={"data_cmd": "undo"},
            details=details,
        )
        self._toast_clear_of_selected()

    def _toast_clear_of_selected(self) -> None:
        """The toast never sits over the selected figure's token (a tablet's or a phone's
        toast is wide): it moves just below the token, or above it when there is no room.
        The token is measured by the hex it stands on, where the view is going: a token that
        just moved is still gliding there, and the view may be panning to keep it in sight."""
        import js  # type: ignore[import-not-found]

        box = byid("toast")
        box.style.top = ""
        token = js.document.querySelector("#board .token.selected")
        holder = box.offsetParent
        if not present(token) or not present(holder):
            return
        b, room = (e.getBoundingClientRect() for e in (box, holder))
        top = toast_top(
            self.board.hex_box(str(token.dataset.at)),
            (float(b.top), float(b.bottom), float(b.left), float(b.right)),
            (float(room.top), float(room.bottom)),
        )
        if top is not None:
            box.style.top = f"{top:.0f}px"

    def toast_follows_board(self) -> None:
        """The board moved under a toast on show: it makes room for the selected token again."""
        if not byid("toast").hidden:
            self._toast_clear_of_selected()

    def hint(self, message: str, button: str, cmd: str) -> None:
        """A message with a button that runs command ``cmd`` (e.g. a reminder to back up)."""
        self._toast.show(message, button=button, button_attrs={"data_cmd": cmd})

    def refuse(self, exc: BaseException, before: str = "") -> None:
        """Say in a player's words why something was refused; the engine's text goes under
        "details"."""
        plain, details = plain_error(exc)
        self.toast(f"{before}{plain}", bad=True, details=details)

    def hide_toast(self) -> None:
        """Hide the message box."""
        self._toast.hide()

    def toggle_menu(self, show: bool | None = None) -> None:
        """Open or close the menu."""
        menu = byid("menu")
        visible = menu.hidden if show is None else show
        menu.hidden = not visible
        byid("menu-button").setAttribute("aria-expanded", "true" if visible else "false")
        if visible:
            menu.querySelector("button").focus()

    def toggle_log(self, show: bool | None = None) -> None:
        """Open or close the combat log drawer."""
        drawer = byid("log-drawer")
        visible = drawer.hidden if show is None else show
        drawer.hidden = not visible
        byid("log-button").setAttribute("aria-expanded", "true" if visible else "false")
        if visible:
            self.play.render_log()
            log = byid("log")
            log.scrollTop = log.scrollHeight

    def dialog(self, title: str, body_html: str) -> Any:
        """Show the modal dialog with a title and content; returns its body element."""
        return self._dialog.titled(title, body_html)

    def close_dialog(self) -> None:
        """Close the modal dialog (and the library panel in it)."""
        self.close_library()
        self._dialog.close()

    def legend(self) -> None:
        """The terrain legend: swatch, name, movement cost, sight rules, help."""
        rows = []
        for t in self.rs["terrain"]:
            tag = joined((" ", HOUSE_TAG)) if t.get("house_default") else None
            swatch = el(
                "svg",
                leaf("rect", width=56, height=40, fill=self.board.terrain_fill(t["id"])),
                width=56,
                height=40,
                viewBox="0 0 56 40",
                aria_hidden="true",
            )
            about = el(
                "div",
                el("strong", t["name"]),
                tag,
                el("div", terrain_facts(t), class_="facts"),
                el("div", t.get("help", "")),
            )
            rows.append(el("li", swatch, about))
        body = self.dialog("Terrain", el("ul", joined(rows), class_="legend"))
        # the swatches use the board's patterns: copy the definitions in
        defs = el("defs", Markup(byid("board-defs").innerHTML))
        for svg in body.querySelectorAll("svg"):
            svg.insertAdjacentHTML("afterbegin", defs)

    def help(self) -> None:
        """The help panel: gestures, keys and what the colours on the board mean."""
        self.toggle_menu(False)
        self.dialog("How to play", help_html())
        byid("dialog").querySelector("[data-cmd=close-dialog]").focus()
