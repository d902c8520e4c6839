"""An encounter: its setup plus the ordered log of actions and their rolls.

The state is never stored; it is derived by replaying the log, so undo and
redo are moves of a cursor along the log and a saved encounter replays to the
same state anywhere. States are kept at checkpoints (every
:data:`CHECKPOINT_EVERY` entries) and the few most recent replays are
remembered, so a long log is replayed once, not on every rename or reopening.
An action that is illegal, or whose dice are wrong, raises and leaves the
encounter exactly as it was; a replay checks every logged action against what
was offered at its place, so a tampered entry is refused by its path (a ruleset
may keep a search by everything it depends on, so the handler that walks the
checked move does not search again: skirmish does). Only a fight an app saved on
this device with its :func:`end_seal` is replayed without those checks, and that
replay is kept only when it ends in the sealed state.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from hexcombat.actions import Action, ActionSpec
from hexcombat.board import Board
from hexcombat.dice import Dice, DiceExhaustedError, Roll, Rolled, ScriptedDice, SeededDice
from hexcombat.errors import HexcombatError, IllegalActionError, InvalidDocumentError, Problem
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import Hex
from hexcombat.map_picture import MapPicture
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.base import Preview, Ruleset
from hexcombat.rulesets.gm_tools import GM_ACTIONS
from hexcombat.sealing import played, played_more, state_seal
from hexcombat.secrets import TABLE, Secret, Viewer, reveal_due, shown_events
from hexcombat.setup_checks import figure_problems, merged_data, option_problems, placement_problems
from hexcombat.state import GameState
from hexcombat.validation import Json, limit_problems, shown

NAME_LIMIT = 120
NOTE_LIMIT = 500
AUTOPILOT_TEMPERAMENTS = ("aggressive", "careful")
"""How the app may play a side (``hexcombat.autopilot`` gives each its meaning)."""
CHECKPOINT_EVERY = 50
"""States are kept every this many log entries; others are rebuilt from the one before."""
REPLAYS_KEPT = 4
"""Replays remembered by setup and log, so opening or renaming the same fight does not replay."""
MAX_SEED = 2**64 - 1
"""Seeds are 64-bit: the dice stream is SplitMix64."""
DRAWS_PER_ACTION = 1 << 20
"""Each log position rolls from its own stretch of the seeded stream, so an action undone and
performed again gets the same dice (no re-rolling by undo) and no counter needs saving."""


class MoreDiceNeededError(HexcombatError):
    """The faces typed for an action ran out: it needs another die with ``sides`` sides."""

    def __init__(self, faces_given: int, sides: int) -> None:
        self.faces_given = faces_given
        self.sides = sides
        entered = f"{faces_given} face" + (" was" if faces_given == 1 else "s were")
        super().__init__(f"roll one more d{sides} and add its face: {entered} not enough")


@dataclass(frozen=True)
class Setup:
    """Everything about an encounter before the first action."""

    name: str
    ruleset: str
    options: Mapping[str, Json]
    board: Board
    figures: tuple[Figure, ...] = ()
    data: Mapping[str, Json] = field(default_factory=dict)
    seed: int = 1
    notes: str = ""
    autopilot: Mapping[str, str] = field(default_factory=dict)
    """Sides the app plays, with the temperament of each (:data:`AUTOPILOT_TEMPERAMENTS`)."""
    picture: MapPicture | None = None
    """The map picture under the board (its bytes kept apart, named by digest)."""


@dataclass(frozen=True)
class LogEntry:
    """One action of the log with every roll it made, and a note (why the app chose it).

    ``rolled`` says, for each rollable the action rolled, which one (its id, as the preview
    names it), which of ``rolls`` it made and the outcome it reached: what the action's own
    resolution recorded (:attr:`~hexcombat.dice.Dice.rolled`), never read from a document
    (a replay records it again).
    """

    action: Action
    rolls: tuple[Roll, ...] = ()
    note: str = ""
    rolled: tuple[Rolled, ...] = ()

    @property
    def faces(self) -> list[int]:
        """Every die face the action used, in order."""
        return [face for roll in self.rolls for face in roll.faces]

    def to_json(self, rolled: bool = True) -> dict[str, Json]:
        """Plain JSON form, as stored in documents (``rolled=False``: without what the replay
        records again)."""
        data: dict[str, Json] = {"action": self.action.to_json()}
        if self.rolls:
            data["rolls"] = [r.to_json() for r in self.rolls]
        if self.rolled and rolled:
            data["rolled"] = [r.to_json() for r in self.rolled]
        if self.note:
            data["note"] = self.note
        return data


Replay = tuple[list[list[Event]], dict[int, GameState], tuple[LogEntry, ...]]
"""A replayed log: each entry's events, the states at checkpoints, the entries with what they
rolled."""


Done = TypeVar("Done")


def drained(steps: Generator[None, None, Done]) -> Done:
    """What a stepwise piece of work (such as :meth:`Encounter.in_steps`) returns, run
    through at once."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: Done = done.value
            return value


def apply_entry(state: GameState, entry: LogEntry, dice: Dice) -> LogEntry:
    """Resolve a log entry on ``state``: its note first (an event of the acting figure), then
    the action, which rolls only through rollables; the entry with what it rolled (every
    roll, and each rollable's outcome)."""
    if entry.note:
        until = state.ruleset.choice_secret(state, entry.action)
        secret = Secret.made(state, entry.action.figure or "", until) if until else None
        note = Event("note", entry.note, entry.action.figure, data={"note": True}, secret=secret)
        state.emit(note)
    dice.only_through_rollables()
    state.ruleset.resolve(state, entry.action, dice)
    reveal_due(state)
    return LogEntry(entry.action, dice.rolls, entry.note, dice.rolled)


def setup_problems(setup: Setup, ruleset: Ruleset) -> list[Problem]:
    """Every reason the setup cannot be played: name, options, figures, positions, stacking."""
    problems = option_problems(setup.options, ruleset)
    if not setup.name.strip() or len(setup.name) > NAME_LIMIT:
        problems.append(Problem("name", f"must be 1-{NAME_LIMIT} characters"))
    seed = setup.seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        problems.append(
            Problem("dice.seed", f"must be a whole number 0-{MAX_SEED}, got {shown(seed)}")
        )
    for side, temper in setup.autopilot.items():
        if not isinstance(side, str) or not side or len(side) > NAME_LIMIT:
            problems.append(Problem("autopilot", f"a side is 1-{NAME_LIMIT} characters"))
        elif temper not in AUTOPILOT_TEMPERAMENTS:
            allowed = ", ".join(AUTOPILOT_TEMPERAMENTS)
            problems.append(Problem(f"autopilot.{side}", f"must be one of {allowed}"))
    figures = list(enumerate(setup.figures))
    problems += figure_problems(figures, ruleset, setup.data)
    options = {**ruleset.default_options(), **setup.options}
    return problems + placement_problems(figures, setup.board, ruleset.stacking(options))


class Encounter:
    """A fight: setup, action log and cursor, with the current state derived by replay.

    Play: :meth:`legal_actions`, :meth:`preview`, :meth:`perform`, :meth:`undo`,
    :meth:`redo`. Editing the setup returns a new encounter (:meth:`with_setup`
    and the helpers after it) and replays the log against it.
    """

    def __init__(
        self,
        setup: Setup,
        log: Iterable[LogEntry] = (),
        cursor: int | None = None,
        *,
        end_seal: str = "",
    ) -> None:
        """``end_seal``: what :func:`end_seal` said of this very setup and log when this device
        saved them (its own storage only): the log is then replayed without checking each
        action against its offers, and that replay is kept only when it ends in the sealed
        state; otherwise (or when it fails in any way) the log is replayed and checked."""
        drained(self._opening(setup, log, cursor, end_seal))

    @classmethod
    def in_steps(
        cls,
        setup: Setup,
        log: Iterable[LogEntry] = (),
        cursor: int | None = None,
        *,
        end_seal: str = "",
    ) -> Generator[None, None, Encounter]:
        """The constructor's work (the replay above all) in steps of one log entry: yields
        between them and returns the encounter ``Encounter(...)`` would make (or raises its
        errors). A page drives it in slices, answering taps between them (:func:`drained`
        runs it through at once)."""
        enc = cls.__new__(cls)
        yield from enc._opening(setup, log, cursor, end_seal)
        return enc

    def _opening(
        self, setup: Setup, log: Iterable[LogEntry], cursor: int | None, end_seal: str
    ) -> Generator[None, None, None]:
        self.ruleset = get_ruleset(setup.ruleset)
        problems = setup_problems(setup, self.ruleset)
        if problems:
            raise InvalidDocumentError(problems, "this encounter cannot be set up")
        self.setup = setup
        self._log = tuple(log)
        stop = len(self._log) if cursor is None else cursor
        if not 0 <= stop <= len(self._log):
            raise InvalidDocumentError(
                [Problem("cursor", f"must be 0-{len(self._log)}, got {shown(stop)}")]
            )
        self._played = played(setup, ())
        for entry in self._log:
            played_more(self._played, (entry,))
            yield
        key = self._played.hexdigest()
        known = _REPLAYS.pop(key, None)
        self._seal = ""
        """The :func:`end_seal` of this set-up and log, once worked out (or held on opening)."""
        if known is None and end_seal:
            known = yield from self._replay_sealed(key, end_seal)
            self._seal = end_seal if known is not None else ""
        if known is None:
            known = yield from self._replaying()
        _REPLAYS[key] = known
        while len(_REPLAYS) > REPLAYS_KEPT:
            del _REPLAYS[next(iter(_REPLAYS))]
        self._events = list(known[0])
        self._checkpoints = dict(known[1])
        self._log = known[2]
        self._near: dict[int, GameState] = {}
        self._cursor = stop
        self._offers_state: GameState | None = None
        self._offers: dict[str | None, tuple[ActionSpec, ...]] = {}

    def _replaying(self, checked: bool = True) -> Generator[None, None, Replay]:
        """Check and replay the whole log, yielding after each entry: every entry's events,
        the states at checkpoints (the last one after the whole log) and the entries with
        what they rolled. ``checked=False`` only for :meth:`_replay_sealed`.

        One working state takes every entry in turn and is copied only at checkpoints (a
        failed entry refuses the whole log, so no entry needs a copy to fall back to); the
        states kept are those copies, never changed again, as a copy per entry left them.
        """
        state = self._initial_state()
        events: list[list[Event]] = []
        checkpoints = {0: state}
        entries = []
        work = state.copy()
        for i, entry in enumerate(self._log):
            try:
                entries.append(self._replay(work, entry, checked))
            except (HexcombatError, ValueError) as exc:
                raise InvalidDocumentError(
                    [Problem(f"log[{i}]", f"{entry.action.kind} cannot be replayed: {_why(exc)}")],
                    "the action log does not replay",
                ) from exc
            events.append(work.events)
            if (i + 1) % CHECKPOINT_EVERY == 0 or i + 1 == len(self._log):
                kept = work.copy()
                kept.events = work.events
                checkpoints[i + 1] = kept
            work.events = []
            yield
        return events, checkpoints, tuple(entries)

    def _replay_sealed(self, key: str, seal: str) -> Generator[None, None, Replay | None]:
        """The replay without the offer checks, when it ends in the state ``seal`` names
        (None when it does not, or fails: the caller then replays with the checks)."""
        try:
            replay = yield from self._replaying(checked=False)
            end = replay[1][len(self._log)]
            return replay if state_seal(key, end) == seal else None
        except Exception:  # a log the rules no longer take: the checked replay says where
            return None

    # ---- building ------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: str,
        width: int,
        height: int,
        *,
        name: str = "New encounter",
        options: Mapping[str, Json] | None = None,
        seed: int = 1,
    ) -> Encounter:
        """An empty encounter on an open board of the ruleset's default terrain."""
        rs = get_ruleset(ruleset)
        board = Board(width, height, rs.terrain, {})
        return cls(Setup(name, ruleset, dict(options or {}), board, (), {}, seed))

    def _initial_state(self) -> GameState:
        options = {**self.ruleset.default_options(), **self.setup.options}
        figures = {f.id: f for f in _fresh(self.setup.figures)}
        state = GameState(
            self.ruleset,
            options,
            merged_data(self.ruleset, self.setup.data),
            self.setup.board,
            figures,
            self.ruleset.time.start(),
        )
        self.ruleset.start(state)
        state.events = []
        return state

    # ---- reading -------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The state after every action up to the cursor (do not change it)."""
        return self._state_at(self._cursor)

    def _state_at(self, index: int) -> GameState:
        """The state after ``index`` entries, rebuilt from the nearest earlier one kept."""
        found = self._near.get(index) or self._checkpoints.get(index)
        if found is not None:
            return found
        base = max(i for i in (*self._checkpoints, *self._near) if i < index)
        state = self._near.get(base) or self._checkpoints[base]
        for i in range(base, index):
            work = state.copy()
            apply_entry(work, self._log[i], ScriptedDice(self._log[i].faces))
            state = work
            self._keep(i + 1, state)
        return state

    def _keep(self, index: int, state: GameState) -> None:
        """Keep the state after ``index`` entries near at hand (a few checkpoints' worth)."""
        self._near[index] = state
        if len(self._near) > 2 * CHECKPOINT_EVERY:
            self._near = {i: s for i, s in self._near.items() if abs(i - index) <= CHECKPOINT_EVERY}

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """The whole action log, including undone entries after the cursor (not a copy: the
        log is a tuple that :meth:`perform` replaces, so reading it costs nothing)."""
        return self._log

    @property
    def cursor(self) -> int:
        """How many log entries are applied."""
        return self._cursor

    @property
    def events(self) -> list[Event]:
        """Every event of the applied actions the table may read now, oldest first."""
        return [e for i in range(self._cursor) for e in self.entry_events(i)]

    def entry_events(self, index: int, viewer: Viewer = TABLE) -> list[Event]:
        """The events of log entry ``index`` as ``viewer`` reads them (:mod:`hexcombat.secrets`):
        the table (unless told) reads a secret with the entry that brought its time; the GM
        reads each where it was made, marked."""
        return shown_events(self._events[index], viewer)

    @property
    def can_undo(self) -> bool:
        """True when there is an applied action to undo."""
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be applied again."""
        return self._cursor < len(self._log)

    def legal_actions(self, figure_id: str | None = None) -> list[ActionSpec]:
        """What a figure (or, with None, the table) may do now.

        Worked out once per state and figure: a page asks again on every selection
        and tap (its turn tracker for every figure), and nothing changes a state once
        it is made (the cursor moves between states; a perform adds a new one).
        """
        state = self.state
        if self._offers_state is not state:
            self._offers_state = state
            self._offers = {}
        specs = self._offers.get(figure_id)
        if specs is None:
            specs = self._offers[figure_id] = tuple(self.ruleset.legal_actions(state, figure_id))
        return list(specs)

    def gm_actions(self) -> list[ActionSpec]:
        """The GM's tools offered now (set a pool, a status, a note, free dice; see
        :meth:`~hexcombat.rulesets.base.Ruleset.gm_actions`)."""
        return self.ruleset.gm_actions(self.state)

    def preview(self, action: Action) -> Preview:
        """The cost, exact odds and breakdown of ``action``, or why it is not allowed now."""
        try:
            self._check_offered(action)
            if self._is_hidden_choice(action):  # refused when made: so is its preview
                self.ruleset.check_choice(self.state, action)
        except IllegalActionError as exc:
            return Preview(action, False, str(exc))
        if action.figure is None and action.kind == "roll_dice":  # the GM's free dice
            try:
                return Preview(action, True, rollables=(self.ruleset.free_dice(action),))
            except IllegalActionError as exc:
                return Preview(action, False, str(exc))
        if action.figure is None and action.kind in GM_ACTIONS:  # the GM's tools: no odds
            return Preview(action, True)
        if action.figure is None and action.kind == "next_step":  # the table ends the step
            notes = (self.state.step.help,) if self.state.step.help else ()
            rolls = self.ruleset.step_rollables(self.state)
            return Preview(action, True, rollables=rolls, notes=notes)
        return self.ruleset.preview(self.state, action)

    def _is_hidden_choice(self, action: Action) -> bool:
        """True when ``action`` is a figure's secret choice, checked as it is made."""
        state = self.state
        return (
            action.figure is not None
            and state.prompt is None
            and self.ruleset.who_acts(state).hidden
        )

    # ---- playing -------------------------------------------------------
    def perform(
        self, action: Action, faces: Sequence[int] | None = None, note: str = ""
    ) -> list[Event]:
        """Carry out ``action`` and return its events the table may read now.

        With ``faces`` the dice are the ones a player rolled by hand (every face,
        in the order the action rolls them); without, the encounter's seeded dice
        roll. ``note`` (why the app chose it) is logged with it as its first event.
        Undone actions after the cursor are discarded.
        """
        if len(note) > NOTE_LIMIT:
            raise IllegalActionError(f"a note is at most {NOTE_LIMIT} characters")
        self._check_offered(action)
        work = self.state.copy()
        if faces is None:
            dice: SeededDice | ScriptedDice = SeededDice(
                self.setup.seed, self._cursor * DRAWS_PER_ACTION
            )
        else:
            dice = ScriptedDice(faces)
        try:
            entry = apply_entry(work, LogEntry(action, (), note), dice)
        except DiceExhaustedError as exc:
            raise MoreDiceNeededError(len(faces or ()), exc.sides) from exc
        if isinstance(dice, ScriptedDice) and dice.remaining:
            raise IllegalActionError(
                f"{len(faces or ())} face(s) entered but the action rolled only "
                f"{len(faces or ()) - dice.remaining}: " + ", ".join(r.expr for r in dice.rolls)
            )
        if self._cursor == len(self._log):  # the digest so far, with the new entry added
            self._played = played_more(self._played.copy(), (entry,))
        else:
            self._played = played(self.setup, (*self._log[: self._cursor], entry))
        self._log = (*self._log[: self._cursor], entry)
        self._seal = ""
        del self._events[self._cursor :]
        self._checkpoints = {i: s for i, s in self._checkpoints.items() if i <= self._cursor}
        self._near = {i: s for i, s in self._near.items() if i <= self._cursor}
        self._events.append(work.events)
        self._cursor += 1
        if self._cursor % CHECKPOINT_EVERY == 0:
            self._checkpoints[self._cursor] = work
        self._keep(self._cursor, work)
        return self.entry_events(self._cursor - 1)

    def undo(self) -> None:
        """Step back one action (IllegalActionError when there is none)."""
        if not self.can_undo:
            raise IllegalActionError("there is nothing to undo")
        self._cursor -= 1

    def redo(self) -> None:
        """Apply the next undone action again, with the same rolls."""
        if not self.can_redo:
            raise IllegalActionError("there is nothing to redo")
        self._cursor += 1

    def copy(self) -> Encounter:
        """An independent copy at the same cursor, made without replaying the log.

        The setup, the log entries and the checkpoint states are shared: none of them
        changes once made (:meth:`perform` works on a copy of the state). Playing on the copy
        leaves this encounter as it is, so an app can keep it to go back to.
        """
        twin = copy.copy(self)
        twin._events = list(self._events)
        twin._checkpoints = dict(self._checkpoints)
        twin._near = dict(self._near)
        return twin

    def _replay(self, work: GameState, entry: LogEntry, checked: bool = True) -> LogEntry:
        """Check a logged entry against what ``work`` offers, then apply it to ``work``; the
        entry with what it rolled."""
        if checked:
            self._check_offered(entry.action, work)
        dice = ScriptedDice(entry.faces)
        replayed = apply_entry(work, entry, dice)
        if [r.expr for r in replayed.rolls] != [r.expr for r in entry.rolls]:
            raise IllegalActionError(
                f"rolled {[r.expr for r in replayed.rolls]} on replay but the log recorded "
                f"{[r.expr for r in entry.rolls]}"
            )
        return replayed

    def _check_offered(self, action: Action, state: GameState | None = None) -> None:
        """Refuse an action not offered now, with values a document could not hold (a lone
        surrogate, a huge number or text, a key that is not text), or with parameters its
        spec does not allow."""
        if state is None:
            state = self.state
            specs = self.legal_actions(action.figure)
        elif action.figure is not None:  # a replay: only the offers of the logged kind
            specs = self.ruleset.legal_actions(state, action.figure, action.kind)
        else:
            specs = self.ruleset.legal_actions(state)
        matching = [s for s in specs if s.kind == action.kind]
        if not matching and action.figure is None:  # the GM's tools, made only when asked for
            specs = [*specs, *self.ruleset.gm_actions(state)]
            matching = [s for s in specs if s.kind == action.kind]
        who = state.figure(action.figure).name if action.figure is not None else "The table"
        if not matching:
            if action.figure is not None:  # every offer, to say what is allowed
                specs = self.ruleset.legal_actions(state, action.figure)
            why = self.ruleset.unoffered(state, action)
            if why:
                raise IllegalActionError(why)
            idle = (
                self.ruleset.idle_text(state, state.figure(action.figure)) if action.figure else ""
            )
            if idle and not specs:
                raise IllegalActionError(
                    f"{who} cannot {action.kind.replace('_', ' ')} now: {idle}"
                )
            offered = ", ".join(dict.fromkeys(s.label for s in specs)) or "nothing"
            raise IllegalActionError(
                f"{who} cannot {action.kind.replace('_', ' ')} now; allowed now: {offered}"
            )
        beyond = limit_problems(dict(action.params), "params")
        if beyond:  # what a document could not hold is never logged, nor shown to a hook
            raise IllegalActionError(f"{action.kind}: {beyond[0]}")
        try:
            matching[0].check(action.params)
        except IllegalActionError as generic:  # the ruleset's own reason, when it has one
            reason = self.ruleset.refusal(state, action)
            if reason:
                raise IllegalActionError(reason) from generic
            raise

    # ---- editing the setup ---------------------------------------------
    def with_setup(self, **changes: Json) -> Encounter:
        """A new encounter with the setup changed and the log replayed (raises if that fails).

        A new name, notes or map picture change no state: the replay is shared, not
        repeated.
        """
        setup = replace(self.setup, **changes)
        if not set(changes) <= {"name", "notes", "autopilot", "picture"}:
            return Encounter(setup, self._log, self._cursor)
        problems = setup_problems(setup, self.ruleset)
        if problems:
            raise InvalidDocumentError(problems, "this encounter cannot be set up")
        twin = copy.copy(self)
        twin.setup = setup
        twin._events = list(self._events)
        twin._checkpoints = dict(self._checkpoints)
        twin._near = dict(self._near)
        return twin

    def renamed(self, name: str) -> Encounter:
        """The encounter under a new name."""
        return self.with_setup(name=name)

    def with_options(self, options: Mapping[str, Json]) -> Encounter:
        """The encounter with ruleset options changed (only the given ones)."""
        return self.with_setup(options={**self.setup.options, **options})

    def painted(self, hexes: Iterable[Hex], terrain_id: str) -> Encounter:
        """The encounter with ``hexes`` painted ``terrain_id``."""
        return self.with_setup(board=self.setup.board.painted(hexes, terrain_id))

    def resized(self, width: int, height: int) -> Encounter:
        """The encounter on a board of a new size."""
        return self.with_setup(board=self.setup.board.resized(width, height))

    def with_figure(self, figure: Figure) -> Encounter:
        """The encounter with ``figure`` added, or replacing the figure with the same id.

        Its riders, if it is a mount, move and turn with it.
        """
        figures = [
            replace(f, position=figure.position, facing=figure.facing)
            if f.mounted_on == figure.id
            else f
            for f in self.setup.figures
        ]
        for i, f in enumerate(figures):
            if f.id == figure.id:
                figures[i] = figure
                break
        else:
            figures.append(figure)
        return self.with_setup(figures=tuple(figures))

    def without_figure(self, figure_id: str) -> Encounter:
        """The encounter with the figure ``figure_id`` removed."""
        self.setup_figure(figure_id)
        return self.with_setup(figures=tuple(f for f in self.setup.figures if f.id != figure_id))

    def setup_figure(self, figure_id: str) -> Figure:
        """A copy of the figure ``figure_id`` as it is in the setup."""
        for f in _fresh(self.setup.figures):
            if f.id == figure_id:
                return f
        raise IllegalActionError(f"there is no figure {figure_id!r} in the setup")

    def new_figure_id(self, name: str) -> str:
        """An unused figure id made from ``name`` ('Brie the Oaken' -> 'brie-the-oaken')."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "figure"
        taken = {f.id for f in self.setup.figures}
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        return candidate


_REPLAYS: dict[str, Replay] = {}
"""The most recent replays, oldest first, by :func:`~hexcombat.sealing.played` (states never
change)."""


def end_seal(encounter: Encounter) -> str:
    """A digest of the engine's code (:func:`~hexcombat.version.engine_digest`), everything
    a replay of the encounter depends on (:func:`~hexcombat.sealing.played`: set-up and
    whole log) and the state after its whole log.

    An app keeps it beside a fight it saved in this device's own storage and passes it back
    when it opens that fight (``Encounter(..., end_seal=...)``): the encounter in memory was
    checked (played action by action, or replayed with every action checked), so a replay of
    the same log by the same engine that ends in the same state needs no checks. Never for
    documents from elsewhere (files, share links, other devices): those are always checked.
    """
    if not encounter._seal:
        end = encounter._state_at(len(encounter.log))
        encounter._seal = state_seal(encounter._played.hexdigest(), end)
    return encounter._seal


def _fresh(figures: Sequence[Figure]) -> list[Figure]:
    """Deep copies of setup figures, so play never changes the setup."""
    return [f.copy() for f in figures]


def _why(exc: Exception) -> str:
    """Why a log entry does not replay, with the parameter refused when one was (a
    document's reader finds it by that name)."""
    param = exc.param if isinstance(exc, IllegalActionError) else ""
    return f"{exc} (parameter {param})" if param else str(exc)
