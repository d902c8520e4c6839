"""The GM's tools every ruleset offers to the table (mixed into :class:`~.base.Ruleset`): set
a pool, put a status on or take it off for a number of units, write a note, roll free dice;
each is logged, undone and replayed like any action."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import Amount
from hexcombat.dice import Dice, DiceSyntaxError
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Status
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.time import Time

GM_ACTIONS = ("gm_pool", "gm_status", "gm_note", "roll_dice")
"""The table actions every ruleset offers (:meth:`Ruleset.gm_actions`): a GM sets a pool, puts
on or takes off a status, writes a note, or rolls free dice; each is logged like any action."""
POOL_LIMIT = 10_000
NOTE_LIMIT = 500
DURATION_LIMIT = 1000
GM_NOTE = "set by the GM"
COMMON_STATUSES = ("wounded", "down", "prone", "stunned")
"""Status words a GM is offered after the ones in use."""


class GmTools:
    """The GM's table actions and their handlers; the ruleset gives ``time``, ``default_die``
    and ``view_label``."""

    time: ClassVar[Time]
    default_die: ClassVar[int | None]

    def view_label(self, key: str) -> str:
        """A figure or pool key in words (the ruleset's own labels)."""
        raise NotImplementedError

    def gm_pools(self, state: GameState) -> list[str]:
        """The pools a GM may set during play (override): every pool some figure has."""
        return list(dict.fromkeys(name for f in state.figures.values() for name in f.pools))

    def gm_statuses(self, state: GameState) -> list[str]:
        """Status words a GM is offered (any other may be typed): the ones in use, then common
        ones. Override to name a ruleset's conditions."""
        used = [s for f in state.figures.values() for s in f.statuses]
        return list(dict.fromkeys([*used, *COMMON_STATUSES]))

    def _gm_status_spec(self, state: GameState, who: FieldSpec) -> ActionSpec:
        """The GM's status on a figure, for a number of the outermost units or until taken
        off (or taking one off)."""
        status = FieldSpec(
            "status", "Status", "text", help="e.g. " + ", ".join(self.gm_statuses(state)[:4])
        )
        rounds = FieldSpec(
            "duration",
            f"For how many {self.time.units[0]}s (0: until taken off)",
            "int",
            0,
            minimum=0,
            maximum=DURATION_LIMIT,
        )
        remove = FieldSpec("remove", "Take it off instead", "bool", False, required=False)
        return ActionSpec(
            "gm_status",
            "GM: status",
            None,
            (who, status, rounds, remove),
            "A condition on a figure, for a number of units or until taken off.",
        )

    def gm_actions(self, state: GameState) -> list[ActionSpec]:
        """The GM's table actions: set a pool, a status with a duration, a note, free dice.

        Offered beside :meth:`legal_actions` of the table whenever no prompt is open, also
        after the fight has ended (``Encounter.gm_actions``); logged, undone and replayed
        like any action.
        """
        if state.prompt is not None:
            return []
        figures = tuple(Choice(f.id, f.name) for f in state.figures.values())
        who = FieldSpec("figure", "Figure", "figure", choices=figures)
        specs: list[ActionSpec] = []
        pools = self.gm_pools(state)
        if figures and pools:
            pool = FieldSpec(
                "pool",
                "Pool",
                "choice",
                pools[0],
                choices=tuple(Choice(p, self.view_label(p)) for p in pools),
            )
            value = FieldSpec("value", "New value", "int", minimum=0, maximum=POOL_LIMIT)
            specs.append(
                ActionSpec(
                    "gm_pool",
                    "GM: set a pool (hit points...)",
                    None,
                    (who, pool, value),
                    "Set a figure's pool to a new value (at most its maximum). Logged; undo "
                    "takes it back.",
                )
            )
        if figures:
            specs.append(self._gm_status_spec(state, who))
        about = FieldSpec("figure", "About (optional)", "figure", choices=figures, required=False)
        note = FieldSpec("note", "Note", "text")
        specs.append(
            ActionSpec(
                "gm_note",
                "GM: note",
                None,
                (about, note) if figures else (note,),
                "A free note for the log (a ruling, a reminder).",
            )
        )
        dice = FieldSpec("dice", "Dice", "text", "3d6", help="e.g. 3d6, d20+2, 2d10kh1")
        specs.append(
            ActionSpec(
                "roll_dice",
                "Roll dice",
                None,
                (dice,),
                "Roll any dice with the app (or type real ones); the result goes in the log.",
            )
        )
        return specs

    def do_gm_pool(self, state: GameState, action: Action, dice: Dice) -> None:
        """Set a figure's pool (clamped to its maximum)."""
        figure = state.figure(action.text("figure"))
        name = action.text("pool")
        pool = figure.pools.get(name)
        if pool is None:
            has = ", ".join(self.view_label(p) for p in figure.pools) or "none"
            raise IllegalActionError(
                f"{figure.name} has no {self.view_label(name).lower()} (pools: {has})"
            )
        before = pool.current
        pool.current = min(max(0, action.integer("value")), pool.maximum)
        label = self.view_label(name).lower()
        state.emit(
            Event(
                "gm",
                f"GM sets {figure.name}'s {label} to {pool.current} of {pool.maximum} "
                f"(was {before})",
                figure.id,
                data={"gm": "pool", "pool": name, "before": before, "after": pool.current},
            )
        )

    def do_gm_status(self, state: GameState, action: Action, dice: Dice) -> None:
        """Put a status on a figure (for ``duration`` units, 0: until taken off) or take it off."""
        figure = state.figure(action.text("figure"))
        word = action.text("status").strip()
        if not word or len(word) > 40:
            raise IllegalActionError("type a status of 1-40 characters, e.g. stunned")
        if action.flag("remove"):
            if word not in figure.statuses:
                has = ", ".join(figure.statuses) or "none"
                raise IllegalActionError(f"{figure.name} is not {word} (statuses: {has})")
            del figure.statuses[word]
            text = f"GM takes {word} off {figure.name}"
        else:
            duration = action.integer("duration", 0)
            unit = self.time.units[0]
            figure.statuses[word] = Status(word, duration or None, GM_NOTE)
            span = f" for {duration} {unit}{'' if duration == 1 else 's'}" if duration else ""
            text = f"GM: {figure.name} is {word}{span}"
        state.emit(Event("gm", text, figure.id, data={"gm": "status", "status": word}))

    def do_gm_note(self, state: GameState, action: Action, dice: Dice) -> None:
        """A GM's note in the log."""
        note = action.text("note").strip()
        if not note or len(note) > NOTE_LIMIT:
            raise IllegalActionError(f"write a note of 1-{NOTE_LIMIT} characters")
        about = action.params.get("figure")
        figure = state.figure(about).id if isinstance(about, str) and about else None
        name = f" ({state.figure(figure).name})" if figure else ""
        state.emit(Event("gm", f"GM note{name}: {note}", figure, data={"gm": "note"}))

    def free_dice(self, action: Action) -> Amount:
        """The free dice a ``roll_dice`` asks for, as its preview shows them."""
        try:
            return Amount("Free dice", action.text("dice"), default_sides=self.default_die)
        except DiceSyntaxError as exc:
            raise IllegalActionError(f"these dice cannot be rolled: {exc}") from exc

    def do_roll_dice(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll free dice (the engine's dice language); the result goes in the log."""
        roll = self.free_dice(action).roll(dice).roll
        faces = ", ".join(str(f) for f in roll.faces)
        state.emit(
            Event(
                "roll",
                f"Rolled {roll.expr}: {roll.total}",
                details=(f"Faces: {faces}",),
                rolls=(roll.to_json(),),
                data={"total": roll.total},
            )
        )

    def _tick_gm_statuses(self, state: GameState) -> None:
        """A new outermost unit (round, phase): statuses the GM put on for a number of units
        count down, and end at 0."""
        for figure in state.figures.values():
            for word, status in list(figure.statuses.items()):
                if status.note != GM_NOTE or status.remaining is None:
                    continue
                if status.remaining <= 1:
                    del figure.statuses[word]
                    state.emit(Event("gm", f"{figure.name} is no longer {word}", figure.id))
                else:
                    figure.statuses[word] = replace(status, remaining=status.remaining - 1)
