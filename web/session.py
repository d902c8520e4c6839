"""The open encounter and what the player is doing with it: pure, no page access.

One :class:`Session` holds the open :class:`~hexcombat.Encounter`, its library entry, the
mode (``"play"`` or ``"edit"``, set-up), the selected figure, the last result shown and the
history of changes. The page (``web/app.py`` and the mode panels) reads and changes these
only through it; it runs under CPython in the tests (``tests/web/test_session.py``).

History, one timeline for both kinds of change:

- play goes through the engine's own cursor: :meth:`Session.perform` appends to the
  encounter's action log, undo and redo move its cursor (so redo repeats the same rolls);
- a set-up edit (:meth:`Session.change`) makes a new encounter; the one before it is kept
  to go back to (an undo stack of encounters, nothing is replayed to undo or redo an edit);
- playing an action of your own while undone actions wait to be redone (a worked example)
  sets them aside: the encounter before it is kept with :meth:`~hexcombat.Encounter.copy`
  (no replay), and undo brings the example back.

After a reload only the engine's log survives, so actions can still be undone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hexcombat import Action, Encounter
from hexcombat.events import Event

MODES = ("play", "edit")


@dataclass(frozen=True)
class Change:
    """One step of the history: ``kind`` "edit", "play" or "aside" (an action that set a
    worked example's remaining steps aside), the encounter to go back to, and words."""

    kind: str
    encounter: Encounter | None = None
    words: str = ""


def entry_words(enc: Encounter, index: int) -> str:
    """One line for action-log entry ``index``: its first event that is not a clock tick."""
    if index < 0:
        return ""
    events = enc.entry_events(index)
    first = next((e for e in events if e.kind != "clock"), events[0] if events else None)
    return first.text if first is not None else ""


class Session:
    """The open encounter, its history, selection, mode and whether it needs saving."""

    def __init__(self) -> None:
        self.enc: Encounter | None = None
        self.entry_id: str | None = None
        self.mode = "play"
        self.selected: str | None = None
        self.result: list[dict[str, Any]] = []
        """Events of the last action performed or redone, as the result card shows them."""
        self.set_aside = 0
        """How many undone actions the last performed action set aside (0: none)."""
        self.past: list[Change] = []
        self.future: list[Change] = []
        self.unsaved = False

    # ---- opening ---------------------------------------------------------------------
    @property
    def encounter(self) -> Encounter:
        """The open encounter."""
        assert self.enc is not None, "no encounter is open"
        return self.enc

    def open(self, enc: Encounter, entry_id: str | None, mode: str | None = None) -> None:
        """Show ``enc`` (saved as ``entry_id``) with a fresh history; without a remembered
        ``mode`` an encounter with figures opens in play, an empty one in set-up."""
        self.enc = enc
        self.entry_id = entry_id
        self.past.clear()
        self.future.clear()
        self.selected = None
        self.result = []
        self.set_aside = 0
        self.unsaved = False
        self.mode = mode if mode in MODES else ("play" if enc.setup.figures else "edit")

    def saved_as(self, entry_id: str, enc: Encounter) -> None:
        """The encounter was saved as a new library entry (which may have renamed it)."""
        self.entry_id = entry_id
        self.enc = enc

    def take_unsaved(self) -> bool:
        """Whether to save now (the autosave decision): True once after each change."""
        unsaved, self.unsaved = self.unsaved, False
        return unsaved

    def renamed(self, name: str) -> bool:
        """The library renamed the open encounter; True when its name changed."""
        if self.enc is None or name == self.enc.setup.name:
            return False
        self.enc = self.enc.renamed(name)
        return True

    # ---- selection and mode ------------------------------------------------------------
    def select(self, figure_id: str | None) -> None:
        """Select a figure (None clears the selection)."""
        self.selected = figure_id

    def keep_selection(self, figure_ids: Iterable[str]) -> None:
        """Drop the selection when its figure is gone (after an undo or an edit)."""
        if self.selected is not None and self.selected not in set(figure_ids):
            self.selected = None

    def set_mode(self, mode: str) -> bool:
        """Switch between setting up ("edit") and playing ("play"); True when it changed."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        if mode == self.mode:
            return False
        self.mode = mode
        if mode == "play":  # a fresh Play starts with nothing selected (set-up's pick stays)
            self.selected = None
        return True

    # ---- changing ----------------------------------------------------------------------
    def change(self, make: Callable[[Encounter], Encounter], done: str = "") -> Encounter:
        """Apply a set-up edit made by the engine (its errors propagate; nothing changes)."""
        new = make(self.encounter)
        self.past.append(Change("edit", self.enc, done))
        self.future.clear()
        self.enc = new
        self.unsaved = True
        return new

    def perform(
        self, action: Action, faces: list[int] | None = None, note: str = ""
    ) -> list[Event]:
        """Carry out a play action (engine errors propagate, nothing changes).

        When undone actions were waiting to be redone (a worked example), they are set aside:
        :attr:`set_aside` says how many, and undo brings back the encounter with them.
        """
        enc = self.encounter
        waiting = len(enc.log) - enc.cursor
        before = enc.copy() if waiting else None
        events = enc.perform(action, faces, note)
        self.set_aside = waiting
        if before is not None:
            self.past.append(Change("aside", before, events[0].text if events else action.kind))
        else:
            self.past.append(Change("play"))
        self.future.clear()
        self.result = [e.to_json() for e in events]
        self.unsaved = True
        return events

    @property
    def can_undo(self) -> bool:
        """True when there is a change to undo."""
        return bool(self.past) or (self.enc is not None and self.enc.can_undo)

    @property
    def can_redo(self) -> bool:
        """True when there is an undone change to apply again."""
        return bool(self.future) or (self.enc is not None and self.enc.can_redo)

    def undo(self) -> str | None:
        """Step back one change (set-up edit or action); the words saying which, or None
        when there was nothing to undo."""
        if self.past:
            change = self.past.pop()
        elif self.enc is not None and self.enc.can_undo:
            change = Change("play")
        else:
            return None
        words = change.words
        if change.kind == "aside":  # back to the worked example, whose next step Redo takes
            assert change.encounter is not None
            self.enc = change.encounter
            words += ". The worked example is back: Redo steps through it"
        elif change.kind == "edit":
            assert change.encounter is not None
            self.future.append(Change("edit", self.enc, words))
            self.enc = change.encounter
        else:
            enc = self.encounter
            words = entry_words(enc, enc.cursor - 1)
            enc.undo()
            self.future.append(Change("play"))
        self.result = []
        self.unsaved = True
        return f"Undone: {words}" if words else "Undone."

    def redo(self) -> str | None:
        """Apply again the change undone last; the words saying which (None: nothing to redo).
        A redone action's events become :attr:`result`."""
        if self.future:
            change = self.future.pop()
        elif self.enc is not None and self.enc.can_redo:
            change = Change("play")
        else:
            return None
        self.result = []
        words = change.words
        if change.kind == "edit":
            assert change.encounter is not None
            self.past.append(Change("edit", self.enc, words))
            self.enc = change.encounter
        else:
            enc = self.encounter
            enc.redo()
            words = entry_words(enc, enc.cursor - 1)
            self.result = [e.to_json() for e in enc.entry_events(enc.cursor - 1)]
            self.past.append(Change("play"))
        self.unsaved = True
        return f"Redone: {words}" if words else "Redone."
