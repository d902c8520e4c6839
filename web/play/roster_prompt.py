"""The end of a fight, for the roster: per character that played, what the fight changed (in
the engine's words, :func:`hexcombat.roster.write_back`), a tick for each, the named option
``roster.gather_dropped``, and *Write back* for the ticked ones.

The changes are worked out from the roster revision shown; writing them is refused when
another tab changed the roster since (the prompt is drawn again from what it holds now)."""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import HexcombatError
from hexcombat.roster import GATHER_DROPPED, accept, write_back
from web.library.entries import LibraryError
from web.ui.dom import present
from web.ui.html import Markup, el, joined
from web.ui.shell import Shell

COMMANDS = ("roster-write", "roster-gather")
"""The prompt's buttons (``data-cmd``), registered in the "play" scope."""


class RosterPrompt:
    """What a finished fight changed of the roster's characters, written back when ticked."""

    def __init__(self, app: Shell) -> None:
        self.app = app
        app.commands.register(COMMANDS, self.on_command, scope="play")
        self.gather = GATHER_DROPPED.default is True
        """``roster.gather_dropped``: what a character dropped comes back carried."""
        self._shown = 0
        """The roster revision the changes on screen were worked out from."""

    def html(self) -> Markup:
        """The prompt's markup ('' when no character of the roster played, or nothing changed)."""
        enc = self.app.encounter
        if not any(f.character for f in enc.setup.figures):
            return Markup()
        kept = self.app.rosters.kept(enc.ruleset.id)
        if kept.roster is None:
            return el(
                "p",
                "The roster stored in this browser cannot be read, so this fight's changes "
                "cannot be written back to it.",
                class_="hint problem",
                data_roster_damaged=True,
            )
        changes = write_back(kept.roster, enc, gather_dropped=self.gather)
        self._shown = kept.revision
        if not changes:
            return Markup()
        rows = joined(
            el(
                "li",
                el(
                    "label",
                    el("input", type="checkbox", data_roster_tick=c.character, checked=True),
                    " ",
                    el("strong", c.name),
                    class_="check-label",
                ),
                el("ul", joined(el("li", line) for line in c.lines)),
                data_roster_change=c.character,
            )
            for c in changes
        )
        gather = el(
            "input",
            type="checkbox",
            data_cmd="roster-gather",
            data_roster_gather=True,
            checked=self.gather,
        )
        write = el(
            "button",
            "Write back to the roster",
            type="button",
            class_="primary",
            data_cmd="roster-write",
        )
        return el(
            "section",
            el("h3", "The roster: what this fight changed"),
            el(
                "p", "Tick who keeps it; the others stay in the roster as they were.", class_="hint"
            ),
            el("ul", rows, class_="summary"),
            el("label", gather, " ", GATHER_DROPPED.label, class_="check-label"),
            el("div", write, class_="row"),
            class_="result roster-write",
            data_roster_write=True,
        )

    def on_command(self, cmd: str, element: Any, event: Any) -> None:
        """The option's tick (the changes are drawn again) or Write back."""
        if cmd == "roster-gather":
            self.gather = bool(element.checked)
            self.app.refresh()
        elif cmd == "roster-write":
            self._write()

    def _write(self) -> None:
        app = self.app
        enc = app.encounter
        boxes = js.document.querySelectorAll("[data-roster-tick]")
        ticked = {str(b.dataset.rosterTick) for b in boxes if present(b) and b.checked}
        kept = app.rosters.kept(enc.ruleset.id)
        if kept.roster is None or kept.revision != self._shown:
            app.toast(
                "The roster was changed in another tab or window: nothing was written. Here "
                "is what this fight changes of it now.",
                bad=True,
            )
            app.refresh()
            return
        chosen = [
            c
            for c in write_back(kept.roster, enc, gather_dropped=self.gather)
            if c.character in ticked
        ]
        if not chosen:
            app.toast("Nobody is ticked: the roster was left as it is.")
            return
        try:
            app.rosters.save(accept(kept.roster, chosen), kept.revision)
        except (HexcombatError, LibraryError) as exc:
            app.toast(f"The roster was not changed: {exc}", bad=True)
            return
        names = ", ".join(c.name for c in chosen)
        app.toast(f"Wrote back to the {app.rs['name']} roster: {names}.")
        app.refresh()


__all__ = ["RosterPrompt"]
