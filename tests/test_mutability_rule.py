"""The mutability rule (docs/architecture.md, "What changes in place"): a set-up edit returns
a new encounter and leaves the old one exactly as it was; play (perform, undo, redo) changes
the encounter in place; everything else only reads. Every public name of ``Encounter`` is
one of the three, so a new method has to take a side."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from factories import skirmish_duel

from hexcombat import Action, Encounter, Hex, dumps

SETUP_EDITS: dict[str, Callable[[Encounter], Encounter]] = {
    "with_setup": lambda e: e.with_setup(notes="a ford"),
    "renamed": lambda e: e.renamed("Another duel"),
    "with_options": lambda e: e.with_options({"skirmish.stacking": 2}),
    "painted": lambda e: e.painted([Hex(0, 0)], "woods"),
    "resized": lambda e: e.resized(9, 7),
    "with_figure": lambda e: e.with_figure(e.ruleset.new_figure("cy", "Cy", "Blue", Hex(0, 4), 2)),
    "without_figure": lambda e: e.without_figure("ann"),
}
"""Each set-up edit, called with a change it makes."""
MAKERS = {"new", "copy", "in_steps"}
"""Names that make an encounter from nothing or from another one."""
PLAY = {"perform", "undo", "redo"}
"""Moves along the log: they change the encounter in place."""
READS = {
    "can_redo",
    "can_undo",
    "cursor",
    "entry_events",
    "events",
    "gm_actions",
    "legal_actions",
    "log",
    "new_figure_id",
    "preview",
    "setup_figure",
    "state",
}
"""Everything else: reads (``tests/test_reading_never_writes.py`` holds the views to it)."""


def test_every_public_name_of_an_encounter_is_an_edit_a_move_of_play_or_a_read() -> None:
    public = {name for name, _ in inspect.getmembers(Encounter) if not name.startswith("_")}
    assert public == set(SETUP_EDITS) | MAKERS | PLAY | READS
    for name in SETUP_EDITS:
        assert inspect.signature(getattr(Encounter, name)).return_annotation == "Encounter"


def test_a_set_up_edit_returns_a_new_encounter_and_leaves_the_old_one_as_it_was() -> None:
    enc = skirmish_duel()
    before, cursor = dumps(enc), enc.cursor
    for name, edit in SETUP_EDITS.items():
        edited = edit(enc)
        assert edited is not enc, name
        assert dumps(edited) != before, f"{name} changed nothing"
        assert (dumps(enc), enc.cursor) == (before, cursor), f"{name} changed the encounter"


def test_play_changes_the_encounter_in_place() -> None:
    enc = skirmish_duel()
    start = dumps(enc)
    events = enc.perform(Action("move", "ann", {"to": "3,1"}))
    assert events and enc.cursor == 1 and dumps(enc) != start
    assert enc.undo() is None and enc.cursor == 0
    assert enc.redo() is None and enc.cursor == 1
