"""The library panel's Rosters part (mixed into :class:`web.library.panel.LibraryPanel`):
every ruleset's roster kept in this browser, its characters each with Remove, and a roster
that cannot be read shown with its problems and removed only when asked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexcombat import HexcombatError
from hexcombat.roster import without
from web.library.entries import LibraryError
from web.library.roster import Kept, Rosters
from web.library.storage import Library
from web.ui.words import esc


class RosterList:
    """The Rosters part of the library panel."""

    library: Library
    _slot: Callable[[str], Any]
    _ruleset_name: Callable[[str], str]
    toast: Callable[..., None]

    @property
    def rosters(self) -> Rosters:
        """The rosters beside the library's encounters."""
        return Rosters(self.library.store)

    def draw_rosters(self) -> None:
        """Redraw the Rosters part (hidden while no roster is kept)."""
        kept = [k for k in self.rosters.every() if k.roster is None or k.roster.characters]
        self._slot("rosters").hidden = not kept
        self._slot("roster-list").innerHTML = "".join(self._roster_markup(k) for k in kept)

    def _roster_markup(self, kept: Kept) -> str:
        name = esc(self._ruleset_name(kept.ruleset))
        if kept.roster is None:
            shown = "; ".join(str(p) for p in kept.problems[:3])
            return (
                f'<section data-roster="{esc(kept.ruleset)}" data-unreadable><h3>{name}</h3>'
                f'<p class="hc-lib-problem">Cannot be read: {esc(shown)}</p>'
                f'<button type="button" class="hc-danger danger" data-lib="roster-discard" '
                f'data-arg="{esc(kept.ruleset)}">Remove this roster</button></section>'
            )
        rows = "".join(
            f'<li class="hc-lib-entry" data-roster-character="{esc(c.id)}">'
            f'<div class="hc-lib-main"><span>{esc(c.figure.name)}</span>'
            f'<p class="hc-lib-meta">{esc(c.figure.side)}</p></div>'
            '<div class="hc-lib-actions"><button type="button" class="hc-danger danger" '
            f'data-lib="roster-remove" data-arg="{esc(kept.ruleset)}/{esc(c.id)}" '
            f'aria-label="Remove {esc(c.figure.name)} from the roster">Remove</button></div></li>'
            for c in kept.roster.characters
        )
        return (
            f'<section data-roster="{esc(kept.ruleset)}"><h3>{name} '
            f"({len(kept.roster.characters)})</h3>"
            f'<ul class="hc-lib-list">{rows}</ul></section>'
        )

    def _cmd_roster_remove(self, arg: str) -> None:
        ruleset, _, character = arg.partition("/")
        kept = self.rosters.kept(ruleset)
        try:
            if kept.roster is None:
                raise LibraryError("the roster cannot be read")
            name = kept.roster.character(character).figure.name
            self.rosters.save(without(kept.roster, character), kept.revision)
        except (HexcombatError, LibraryError) as exc:
            self.toast(f"Nothing was removed: {exc}")
        else:
            self.toast(f"Removed {name} from the {self._ruleset_name(ruleset)} roster.")
        self.draw_rosters()

    def _cmd_roster_discard(self, ruleset: str) -> None:
        self.rosters.remove(ruleset)
        self.toast(f"Removed the unreadable {self._ruleset_name(ruleset)} roster.")
        self.draw_rosters()


__all__ = ["RosterList"]
