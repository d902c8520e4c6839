"""The set-up's checks that need no encounter: options, figures and their places on the board.

:func:`hexcombat.encounter.setup_problems` runs them on a whole set-up; the document reader
runs them on the parts it could read, so one pass reports every problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from hexcombat.board import Board
from hexcombat.errors import Problem
from hexcombat.figures import Figure, is_standing, mount_problems
from hexcombat.geometry import Hex
from hexcombat.layout import hex_label
from hexcombat.rulesets.base import Ruleset
from hexcombat.validation import Json, shown


def merged_data(ruleset: Ruleset, overrides: Mapping[str, Json]) -> dict[str, Json]:
    """The ruleset's data tables with an encounter's overrides applied entry by entry."""
    data = ruleset.default_data()
    for table, entries in overrides.items():
        base = data.get(table)
        if isinstance(base, dict) and isinstance(entries, dict):
            data[table] = {**base, **entries}
        else:
            data[table] = entries
    return data


def option_problems(options: Mapping[str, Json], ruleset: Ruleset) -> list[Problem]:
    """Unknown ruleset options and values that are not allowed, by path."""
    return [
        Problem(f"ruleset.options.{p.path}", p.message) for p in ruleset.option_problems(options)
    ]


def figure_problems(
    figures: Sequence[tuple[int, Figure]], ruleset: Ruleset, overrides: Mapping[str, Json]
) -> list[Problem]:
    """Duplicate ids, a roster character played twice, facings and the ruleset's own checks
    of each (index, figure)."""
    data = merged_data(ruleset, overrides)
    problems = []
    seen: dict[str, int] = {}
    playing: dict[str, int] = {}
    for i, fig in figures:
        path = f"figures[{i}]"
        if fig.id in seen:
            problems.append(
                Problem(f"{path}.id", f"{fig.id!r} is already used by figures[{seen[fig.id]}]")
            )
        seen.setdefault(fig.id, i)
        if fig.character in playing:
            where = f"figures[{playing[fig.character]}]"
            problems.append(Problem(f"{path}.character", f"is already played by {where}"))
        if fig.character:
            playing.setdefault(fig.character, i)
        if not 0 <= fig.facing <= 5:
            problems.append(Problem(f"{path}.facing", f"must be 0-5, got {shown(fig.facing)}"))
        problems += [
            Problem(f"{path}.{p.path}", p.message) for p in ruleset.figure_problems(fig, data)
        ]
    return problems + mount_problems(figures)


def placement_problems(
    figures: Sequence[tuple[int, Figure]], board: Board, limit: int
) -> list[Problem]:
    """Figures off the board, in terrain no one can enter, or crowded beyond ``limit`` per hex.

    Every covered hex counts; a rider shares its mount's place and is not counted.
    """
    problems = []
    crowd: dict[Hex, list[str]] = {}
    for i, fig in figures:
        for h in fig.hexes():
            if not board.contains(h):
                where = f"{h} is off the {board.width}x{board.height} board"
                problems.append(Problem(f"figures[{i}].position", where))
            elif board.terrain_at(h).impassable:
                where = (
                    f"{hex_label(h)} ({h}) is {board.terrain_at(h).name}, which no one can enter"
                )
                problems.append(Problem(f"figures[{i}].position", where))
            if is_standing(fig):
                crowd.setdefault(h, []).append(fig.id)
    for h, ids in crowd.items():
        if len(ids) > limit:
            problems.append(
                Problem(
                    "figures",
                    f"{', '.join(ids)} share {hex_label(h)} ({h}); at most {limit} per hex",
                )
            )
    return problems


UNARMED_NOTE = (
    "Nobody carries anything to strike with, so nobody can be put out of the fight and it "
    "cannot end. To fight it out, select a figure and give it a weapon with Add item."
)


def ending_note(ruleset: Ruleset, options: Mapping[str, Json], figures: Iterable[Figure]) -> str:
    """'' when a fight of ``figures`` under ``options`` can end (one side out of it); else
    why it cannot, for the set-up to say before anyone plays: the options' reason
    (:meth:`Ruleset.ending_note`), or figures of two sides none of whom can strike."""
    note = ruleset.ending_note(options)
    if note:
        return note
    figures = list(figures)
    if len({f.side for f in figures}) > 1 and all(ruleset.unarmed(f) for f in figures):
        return UNARMED_NOTE
    return ""
