"""The roster in the set-up panel (mixed into :class:`web.setup.panel.Editor`): the
characters of the encounter's ruleset, each added to the encounter on the first free hex,
and the selected figure saved to the roster (the character it plays, or a new one).

The roster is read afresh for each change and saved from the revision read
(:mod:`web.library.roster`), so another tab's change to it is never overwritten."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hexcombat import HexcombatError, InvalidDocumentError
from hexcombat.layout import hex_label
from hexcombat.roster import joined, saved
from web.library.entries import LibraryError
from web.library.roster import Kept
from web.ui import html
from web.ui.html import el
from web.ui.shell import Shell, becomes
from web.ui.words import problems_text

COMMANDS = ("roster-add", "roster-save")
"""The roster part's buttons (``data-cmd``), registered in the "edit" scope."""
FREE_HEX_TRIES = 400
"""The most hexes tried for a character added from the roster (a big board stops there)."""


class RosterEdits:
    """Saving figures to the ruleset's roster and adding its characters."""

    app: Shell
    flush: Callable[[], bool]

    def _kept(self) -> Kept:
        return self.app.rosters.kept(self.app.encounter.ruleset.id)

    def on_roster_command(self, cmd: str, element: Any, event: Any) -> None:
        """Add (a character) or Save to roster (the selected figure)."""
        if cmd == "roster-add":
            self.add_from_roster(str(element.dataset.character))
        else:
            self.save_to_roster()

    def roster_html(self) -> str:
        """The roster part of the set-up overview: its characters, each with Add."""
        kept = self._kept()
        title = f"{self.app.rs['name']} roster"
        if kept.roster is None:
            return el("h3", title) + el(
                "p",
                "The roster stored in this browser cannot be read "
                f"({problems_text(InvalidDocumentError(kept.problems))}). "
                "It was left as it is; the library's Rosters part can remove it.",
                class_="hint problem",
                data_roster_damaged=True,
            )
        playing = {f.character for f in self.app.encounter.setup.figures if f.character}
        rows = html.joined(
            el(
                "li",
                el(
                    "span",
                    c.figure.name,
                    el("br"),
                    el(
                        "small",
                        c.figure.side,
                        " · in this encounter" if c.id in playing else None,
                        class_="muted",
                    ),
                    class_="grow",
                ),
                None
                if c.id in playing
                else el("button", "Add", type="button", data_cmd="roster-add", data_character=c.id),
                class_="row",
                data_roster_character=c.id,
            )
            for c in kept.roster.characters
        )
        return el("h3", f"{title} ({len(kept.roster.characters)})") + (
            el("ul", rows, class_="fig-list", data_roster_list=True)
            if rows
            else '<p class="hint">No characters yet: tap a figure, then “Save to roster”.</p>'
        )

    def save_to_roster(self) -> None:
        """Save the selected figure (what is typed applied first) as a roster character."""
        fid = self.app.selected
        if fid is None or not self.flush():
            return
        figure = self.app.encounter.setup_figure(fid)
        kept = self._kept()
        try:
            if kept.roster is None:
                raise LibraryError("the roster stored in this browser cannot be read")
            roster, character = saved(kept.roster, figure)
            self.app.rosters.save(roster, kept.revision)
        except (HexcombatError, LibraryError) as exc:
            self.app.toast(f"{figure.name} was not saved to the roster: {exc}", bad=True)
            return
        words = f"Saved {figure.name} to the {self.app.rs['name']} roster."
        if figure.character == character:
            self.app.toast(words)
            self.app.refresh()
            return
        playing = replace(figure, character=character)
        self.app.change(lambda enc: enc.with_figure(playing), words)

    def add_from_roster(self, character: str) -> None:
        """Add a roster character to the encounter on the first hex the engine accepts."""
        kept = self._kept()
        if kept.roster is None:
            return
        enc = self.app.encounter
        if any(f.character == character for f in enc.setup.figures):
            self.app.toast("This character is already in this encounter.", bad=True)
            return
        taken = {h for f in enc.setup.figures for h in f.hexes()}
        free = [h for h in enc.setup.board.hexes() if h not in taken][:FREE_HEX_TRIES]
        for spot in free:
            try:
                new = joined(enc, kept.roster, character, spot)
            except InvalidDocumentError:
                continue
            except HexcombatError as exc:
                self.app.refuse(exc)
                return
            figure = new.setup.figures[-1]
            done = f"Added {figure.name} at {hex_label(spot)}: tap a hex to move it."
            if self.app.change(becomes(new), done):
                self.app.select(figure.id)
            return
        self.app.toast("There is no free hex for this character.", bad=True)


__all__ = ["COMMANDS", "RosterEdits"]
