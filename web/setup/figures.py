"""Figures in the set-up panel (mixed into :class:`web.setup.panel.Editor`): add one of a
side with the ruleset's default numbers and starting gear, place, turn, apply what is typed
in its form (the engine's problems shown beside their fields), duplicate onto a free
neighbouring hex, delete.
Every edit is an engine call through ``app.change``: saved and undoable."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexcombat import Encounter, HexcombatError, InvalidDocumentError, Problem
from hexcombat.editing import new_figure
from hexcombat.figures import Figure
from hexcombat.geometry import neighbors
from hexcombat.layout import hex_label
from web.board.view import friendly, parse_key
from web.ui import forms
from web.ui.dom import present
from web.ui.shell import Shell, becomes

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Letters for new figures' names ("Blue A", "Blue B")."""


def _next_name(name: str, taken: set[str]) -> str:
    """'Brie' -> 'Brie 2', 'Brie 2' -> 'Brie 3', 'Red A' -> 'Red B' (the first not taken)."""
    words = name.rsplit(" ", 1)
    if len(words) == 2 and len(words[1]) == 1 and words[1] in LETTERS:
        for letter in LETTERS[LETTERS.index(words[1]) + 1 :]:
            if f"{words[0]} {letter}" not in taken:
                return f"{words[0]} {letter}"
    base, n = (words[0], int(words[1])) if len(words) == 2 and words[1].isdigit() else (name, 1)
    while True:
        n += 1
        candidate = f"{base} {n}"
        if candidate not in taken:
            return candidate


class FigureEdits:
    """Changing the figures of the set-up."""

    app: Shell
    form: forms.Form | None
    tool: str
    new_side: str

    if TYPE_CHECKING:  # the editor's, which this is mixed into

        def sides(self) -> list[str]: ...
        def _read_gear(self, fig: Figure) -> None: ...
        def _show_gear_problems(self, problems: list[Problem]) -> None: ...

    def add_figure(self, key: str) -> None:
        """Place a new figure of the chosen side on ``key``."""
        app = self.app
        side = self.new_side or self.sides()[0]
        taken = {f["name"] for f in app.view["figures"]}
        name = next(
            (f"{side} {letter}" for letter in LETTERS if f"{side} {letter}" not in taken),
            _next_name(side, taken),
        )

        def make(enc: Encounter) -> Encounter:
            fid = enc.new_figure_id(name)
            facing = 3 if side == self.sides()[0] else 0
            fig = new_figure(enc.ruleset, enc.state.data, fid, name, side, parse_key(key), facing)
            return enc.with_figure(fig)

        if app.change(make, f"Added {name} at {friendly(key)}."):
            added = [f for f in app.encounter.setup.figures if f.name == name]
            if added:
                app.select(added[-1].id)

    def place(self, fid: str, key: str) -> None:
        """Move figure ``fid`` to ``key`` in the setup."""
        fig = self.app.encounter.setup_figure(fid)
        if str(fig.position) == key:
            return
        fig.position = parse_key(key)
        self.app.change(lambda enc: enc.with_figure(fig), f"Moved {fig.name} to {friendly(key)}.")

    def rotate(self, by: int) -> None:
        """Turn the selected figure one hexside clockwise (1) or anticlockwise (-1); what is
        typed in its form is applied with the turn, never thrown away."""
        fid = self.app.selected
        if fid is None:
            return
        if self.form is not None:

            def turn(fig: Figure) -> str:
                fig.facing = (fig.facing + by) % 6
                return ""

            self.apply_figure(turn)
            return
        fig = self.app.encounter.setup_figure(fid)
        fig.facing = (fig.facing + by) % 6
        self.app.change(lambda enc: enc.with_figure(fig))

    def flush(self) -> bool:
        """Apply what is typed in the open figure form before something else happens (another
        figure, a hex, Play, Enter): True when nothing is pending or it was applied; False
        when the engine refused it (the problems are shown and the typing stays)."""
        fid = self.app.selected
        if fid is None or self.form is None or self.tool != "select":
            return True
        values, unreadable = self.form.read()
        if unreadable:
            self.apply_figure()
            return False
        fig = self.app.encounter.setup_figure(fid)
        before = fig.to_json()
        self._typed_into(fig, values)
        try:
            self._read_gear(fig)
        except HexcombatError:
            return self.apply_figure()
        if fig.to_json() == before:
            return True
        return self.apply_figure()

    @staticmethod
    def _typed_into(fig: Figure, values: dict[str, Any]) -> None:
        """The form's name, side and numbers written into ``fig``."""
        fig.name = str(values.get("name", fig.name)).strip() or fig.name
        fig.side = str(values.get("side", fig.side)).strip() or fig.side
        stats = dict(fig.stats)
        for name, value in values.items():
            if name.startswith("stats."):
                stats[name.removeprefix("stats.")] = value
        fig.stats = stats

    def apply_figure(self, change: Callable[[Figure], str] | None = None) -> bool:
        """Write the figure form, skills and equipment back through the engine.

        ``change`` edits the figure further (add a skill, remove an item...) and
        says what it did. Problems are shown next to their field, or under the
        equipment.
        """
        fid = self.app.selected
        if fid is None or self.form is None:
            return True
        # fields that cannot be read keep their old value, so the engine still checks the
        # rest: every problem shows at once, not one per Apply
        values, unreadable = self.form.read()
        fig = self.app.encounter.setup_figure(fid)
        self._typed_into(fig, values)
        engine: list[Problem] = []
        try:
            self._read_gear(fig)
            done = change(fig) if change is not None else f"Saved {fig.name}."
            new = self.app.encounter.with_figure(fig)
        except (InvalidDocumentError, HexcombatError) as exc:
            engine = list(getattr(exc, "problems", ()) or (Problem("", str(exc)),))
        problems = unreadable + engine
        if problems:
            self.form.clear_problems()
            rest = self.form.show_problems(
                [p for p in problems if not re.search(r"(^|\.)(equipment|skills)", p.path)]
            )
            gear = [p for p in problems if re.search(r"(^|\.)(equipment|skills)", p.path)]
            self._show_gear_problems(gear + rest)
            first = self.form.element.querySelector("[aria-invalid=true]")
            if present(first):
                first.focus()
            return False
        return self.app.change(lambda enc: new, done)

    def duplicate(self) -> None:
        """Copy the selected figure onto the first free neighbouring hex the engine accepts."""
        fid = self.app.selected
        if fid is None:
            return
        enc = self.app.encounter
        original = enc.setup_figure(fid)
        name = _next_name(original.name, {f.name for f in enc.setup.figures})
        for spot in neighbors(original.position):
            fig = copy.deepcopy(original)
            fig.id = enc.new_figure_id(name)
            fig.name = name
            fig.position = spot
            fig.character = ""  # a copy is not the roster character the original plays
            try:
                new = enc.with_figure(fig)
            except InvalidDocumentError:
                continue
            self.app.change(becomes(new), f"Duplicated as {name} at {hex_label(spot)}.")
            self.app.select(fig.id)
            return
        self.app.toast(f"There is no free hex next to {original.name} for a copy.", bad=True)

    def delete(self) -> None:
        """Remove the selected figure (undoable)."""
        fid = self.app.selected
        if fid is None:
            return
        name = self.app.encounter.setup_figure(fid).name
        if self.app.change(lambda enc: enc.without_figure(fid), f"Deleted {name}."):
            self.app.select(None)
