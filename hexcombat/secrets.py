"""Secrets: a hidden roll or an undeclared choice, who may see it and until when.

One model for every reader. A :class:`Secret` rides on the event that holds it (a hidden
roll's result, the app's note naming a hidden choice); the ruleset says when each secret's
time has come (:meth:`~hexcombat.rulesets.base.Ruleset.secret_kept`) and takes what a side
keeps secret out of a copy of the state (:meth:`~hexcombat.rulesets.base.Ruleset.conceal`).
A secret's event waits in the state (``GameState.secrets``) and reaches the table with the
log entry that brings its time (:func:`reveal_due`: told again, marked ``revealed``), so what
an entry shows depends on the log up to it alone, and a log drawn entry by entry, undone or
redone, never shows it early. Every reader goes through :func:`shown_events` (the log, the
result box, the exports, the share viewer, a device's replica) and :func:`visible_state` (the
figures as the page draws them, and the state the autopilot decides from); the GM's own
reader may ask for everything, each secret where it was made and marked. What leaves the
device (another device's log, a share link) is cut or stood in for where an entry holds a
secret still kept (:class:`Followed`, :func:`kept_from`, :func:`told_entries`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hexcombat.dice import Roll
from hexcombat.events import Event
from hexcombat.state import GameState
from hexcombat.time import Clock
from hexcombat.validation import Json

if TYPE_CHECKING:
    from hexcombat.encounter import Encounter, LogEntry

UNTIL = ("reveal", "step", "phase", "status", "never")
"""When a secret's time comes: ``reveal`` its hidden step's reveal (or the step's end);
``step`` the end of the step it was made in; ``phase`` the ruleset's own moment within the
outermost unit it was made in (the ruleset's :meth:`secret_kept` says); ``status`` once its
figure no longer has the status ``detail`` names; ``never`` the GM's alone."""


@dataclass(frozen=True)
class Secret:
    """Who may see something before its time, and until when.

    ``figure``: whose secret it is ('' for the table's); ``side``: the side that may see it
    before its time ('' nobody but the GM); ``until``: one of :data:`UNTIL`, with ``detail``
    (the status for ``status``); ``counters`` and ``step``: the clock it was made at.
    """

    figure: str
    side: str
    until: str
    counters: tuple[int, ...]
    step: str
    detail: str = ""

    def __post_init__(self) -> None:
        if self.until not in UNTIL:
            raise ValueError(f"a secret is kept until one of {UNTIL}, got {self.until!r}")

    @classmethod
    def made(
        cls, state: GameState, figure: str, until: str, detail: str = "", *, gm_only: bool = False
    ) -> Secret:
        """A secret about ``figure`` made now, that its side may see (``gm_only``: the GM
        alone, such as a roll kept from the players)."""
        side = state.figures[figure].side if figure in state.figures and not gm_only else ""
        return cls(figure, side, until, state.clock.counters, state.clock.step, detail)

    def made_now(self, clock: Clock) -> bool:
        """True while the clock is still where the secret was made."""
        return self.counters == clock.counters and self.step == clock.step

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form (the GM's reader marks a secret event with it)."""
        data: dict[str, Json] = {"figure": self.figure, "side": self.side, "until": self.until}
        if self.detail:
            data["detail"] = self.detail
        return data


@dataclass(frozen=True)
class Viewer:
    """Who reads: the GM (everything, secrets marked), or a side ('' the whole table, one
    screen every player sees: no side's secret)."""

    side: str = ""
    gm: bool = False


TABLE = Viewer()
"""The whole table at one screen: what the page, the exports and share links show."""

GM = Viewer(gm=True)
"""The GM: every secret, each marked."""


def reveal_due(state: GameState) -> None:
    """After a log entry: each secret of ``state`` whose time has come is told to the table
    now (its event again, marked ``revealed`` and with no secret), the rest kept."""
    kept = state.ruleset.secret_kept
    due = [e for e in state.secrets if e.secret is None or not kept(state, e.secret)]
    if not due:
        return
    state.secrets = tuple(e for e in state.secrets if e not in due)
    for event in due:
        state.events.append(replace(event, secret=None, data={**event.data, "revealed": True}))


def shown_events(events: Iterable[Event], viewer: Viewer = TABLE) -> list[Event]:
    """The events of one log entry as ``viewer`` reads them: the table, those with no secret
    (a secret told once its time came included); the GM, every event where it was made,
    secrets marked, and none told again."""
    if viewer.gm:
        return [e for e in events if not e.data.get("revealed")]
    return [e for e in events if e.secret is None]


def visible_state(state: GameState, viewer: Viewer = TABLE) -> GameState:
    """``state`` as ``viewer`` may know it: a copy with the secrets of every figure not on the
    viewer's side taken out (unrevealed hidden choices, and what the ruleset's
    :meth:`conceal` says is secret: a declared speed, a planned move, a secret duration).
    The GM's is ``state`` itself."""
    if viewer.gm:
        return state
    seen = state.copy()
    others = [f for f in seen.figures.values() if f.side != viewer.side]
    declarations = seen.declarations
    if not declarations.revealed:
        hidden = {f.id for f in others} & set(declarations.choices)
        declarations.choices = {
            fid: a for fid, a in declarations.choices.items() if fid not in hidden
        }
        declarations.concealed = declarations.concealed | hidden
    for figure in others:
        state.ruleset.conceal(seen, figure)
    return seen


@dataclass(frozen=True)
class Made:
    """The secrets one log entry made: its choice's (None when the choice is no secret) and
    its events' (with the rolls each holds)."""

    choice: Secret | None
    held: tuple[tuple[Secret, tuple[Roll, ...]], ...]

    def all(self) -> tuple[Secret, ...]:
        """Every secret of the entry."""
        return (*(() if self.choice is None else (self.choice,)), *(s for s, _ in self.held))


class Followed:
    """The secrets each applied entry of an encounter made, and which of all are still kept
    after it, followed entry by entry as :func:`reveal_due` tells them (a secret whose time
    has come is never kept again); worked out once per entry as entries come."""

    def __init__(self) -> None:
        self._entries: list[tuple[LogEntry, Made, frozenset[Secret]]] = []

    def follow(self, encounter: Encounter) -> list[tuple[Made, frozenset[Secret]]]:
        """Per applied entry of ``encounter``: its secrets, and every secret still kept
        after it."""
        shared = encounter.log[: encounter.cursor]
        same = 0
        known = self._entries
        while same < min(len(shared), len(known)) and known[same][0] is shared[same]:
            same += 1
        del known[same:]
        walker = at(encounter, same)
        for index in range(same, len(shared)):
            before = walker.state
            walker.redo()
            after = walker.state
            made = entry_made(encounter, index, before)
            kept = known[-1][2] if known else frozenset()
            pending = {s for s in (*kept, *made.all()) if after.ruleset.secret_kept(after, s)}
            known.append((shared[index], made, frozenset(pending)))
        return [(m, p) for _, m, p in known]


def kept_from(
    followed: list[tuple[Made, frozenset[Secret]]], may_see: Callable[[Secret], bool]
) -> list[set[Secret]]:
    """Per entry, its secrets still kept (after the last entry) from a reader that may see
    only those ``may_see`` says."""
    pending = followed[-1][1] if followed else frozenset()
    return [{s for s in m.all() if s in pending and not may_see(s)} for m, _ in followed]


def told_entries(encounter: Encounter) -> int:
    """How many of ``encounter``'s applied entries everyone may read now: those before the
    first that holds a secret still kept (a share link carries only them)."""
    kept = kept_from(Followed().follow(encounter), lambda secret: False)
    return next((i for i, k in enumerate(kept) if k), encounter.cursor)


def entry_made(encounter: Encounter, index: int, before: GameState) -> Made:
    """The secrets entry ``index`` of ``encounter`` made (``before``: the state it was made
    in): its choice, if the ruleset keeps it secret, and its events' secrets."""
    entry = encounter.log[index]
    until = encounter.ruleset.choice_secret(before, entry.action)
    choice = Secret.made(before, entry.action.figure or "", until) if until else None
    held = tuple(
        (e.secret, tuple(Roll.from_json(r) for r in e.rolls))
        for e in encounter.entry_events(index, GM)
        if e.secret is not None and e.secret != choice
    )
    return Made(choice, held)


def at(encounter: Encounter, cursor: int) -> Encounter:
    """A copy of ``encounter`` stepped back to ``cursor``."""
    copy = encounter.copy()
    while copy.cursor > cursor:
        copy.undo()
    return copy


def kept_back_words(count: int) -> str:
    """What a reader is told of the actions kept back from it (a device, a share link)."""
    entries = "1 action" if count == 1 else f"{count} actions"
    return f"{entries} kept back until a secret's time"
