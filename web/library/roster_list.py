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
from web.ui.html import Markup, el, joined


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
        self._slot("roster-list").innerHTML = joined(
            roster_markup(k, self._ruleset_name(k.ruleset)) for k in kept
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


def roster_markup(kept: Kept, ruleset_name: str) -> Markup:
    """A ruleset's roster: each character with its side and a Remove button (or, when the
    roster cannot be read, why, and a button to remove it)."""
    if kept.roster is None:
        shown = "; ".join(str(p) for p in kept.problems[:3])
        discard = el(
            "button",
            "Remove this roster",
            type="button",
            class_="hc-danger danger",
            data_lib="roster-discard",
            data_arg=kept.ruleset,
        )
        return el(
            "section",
            el("h3", ruleset_name),
            el("p", f"Cannot be read: {shown}", class_="hc-lib-problem"),
            discard,
            data_roster=kept.ruleset,
            data_unreadable=True,
        )
    rows = joined(
        el(
            "li",
            el(
                "div",
                el("span", c.figure.name),
                el("p", c.figure.side, class_="hc-lib-meta"),
                class_="hc-lib-main",
            ),
            el(
                "div",
                el(
                    "button",
                    "Remove",
                    type="button",
                    class_="hc-danger danger",
                    data_lib="roster-remove",
                    data_arg=f"{kept.ruleset}/{c.id}",
                    aria_label=f"Remove {c.figure.name} from the roster",
                ),
                class_="hc-lib-actions",
            ),
            class_="hc-lib-entry",
            data_roster_character=c.id,
        )
        for c in kept.roster.characters
    )
    return el(
        "section",
        el("h3", f"{ruleset_name} ({len(kept.roster.characters)})"),
        el("ul", rows, class_="hc-lib-list"),
        data_roster=kept.ruleset,
    )
