"""The fight in numbers: rounds, actions, hits, damage, dice rolled and who fell.

Totals are folded over the log and kept every :data:`~hexcombat.encounter.CHECKPOINT_EVERY`
entries for each encounter, so a summary after an undo, a redo or a jump folds at most that
many entries, never the whole log (a long fight's view costs what a short one's does).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field, replace
from weakref import WeakKeyDictionary

from hexcombat.encounter import CHECKPOINT_EVERY, Encounter, LogEntry, drained
from hexcombat.validation import Json


@dataclass
class Totals:
    """What the first ``entries`` log entries add up to."""

    entries: int = 0
    hits: int = 0
    damage: int = 0
    dice: int = 0
    actions: int = 0
    last_hit: dict[str, int] = field(default_factory=dict)
    """The entry that last hit each figure (or first changed its status, if never hit)."""

    def add(self, encounter: Encounter, index: int) -> None:
        """Fold in log entry ``index`` (the next one)."""
        entry = encounter.log[index]
        events = encounter.entry_events(index)
        counted = encounter.ruleset.tally(events)
        self.hits += counted.get("hits", 0)
        self.damage += counted.get("damage", 0)
        self.dice += sum(len(roll.faces) for roll in entry.rolls)
        self.actions += entry.action.kind != "next_step"
        for e in events:
            if e.target is not None:
                self.last_hit[e.target] = index
            elif e.figure is not None and e.kind in ("status", "gm"):
                self.last_hit.setdefault(e.figure, index)
        self.entries = index + 1


_KEPT: WeakKeyDictionary[Encounter, dict[int, tuple[LogEntry | None, Totals]]] = WeakKeyDictionary()
"""Per encounter: the totals after every CHECKPOINT_EVERY entries, with the last entry folded
(an entry undone and replaced by another action makes the totals after it stale)."""


def totals(encounter: Encounter) -> Totals:
    """The totals of the log up to the encounter's cursor."""
    return drained(totals_in_steps(encounter))


def totals_in_steps(encounter: Encounter) -> Generator[None, None, Totals]:
    """:func:`totals` in steps of one log entry (a page folds a long fight's in slices; the
    totals it keeps make the next summary cheap)."""
    kept = _KEPT.setdefault(encounter, {})
    log, cursor = encounter.log, encounter.cursor
    base = cursor - cursor % CHECKPOINT_EVERY
    while base > 0 and (base not in kept or kept[base][0] is not log[base - 1]):
        base -= CHECKPOINT_EVERY
    running = Totals()
    if base:
        snapshot = kept[base][1]
        running = replace(snapshot, last_hit=dict(snapshot.last_hit))
    for i in range(base, cursor):
        running.add(encounter, i)
        if running.entries % CHECKPOINT_EVERY == 0:
            kept[running.entries] = (log[i], replace(running, last_hit=dict(running.last_hit)))
        yield
    return running


def fight_summary(encounter: Encounter) -> dict[str, Json]:
    """The fight so far in numbers, from the log up to the cursor: the outermost unit's count
    (rounds), actions, hits and damage (the ruleset's :meth:`~Ruleset.tally` of each action),
    dice rolled, and who fell (figures out of the fight, in the order they were last hit)."""
    state = encounter.state
    ruleset = encounter.ruleset
    t = totals(encounter)
    out = [f for f in state.figures.values() if ruleset.is_out(state, f)]
    out.sort(key=lambda f: t.last_hit.get(f.id, -1))
    unit = ruleset.time.units[0]
    count = state.clock.counters[0]
    return {
        "unit": unit,
        "units": count,
        "units_label": f"{count} {unit}{'' if count == 1 else 's'}",
        "actions": t.actions,
        "hits": t.hits,
        "damage": t.damage,
        "dice": t.dice,
        "fell": [{"id": f.id, "name": f.name, "side": f.side} for f in out],
        "lines": _summary_lines(unit, count, t.hits, t.damage, t.dice, [f.name for f in out]),
    }


def _summary_lines(
    unit: str, count: int, hits: int, damage: int, dice: int, fell: list[str]
) -> list[str]:
    plural = "" if count == 1 else "s"
    lines = [
        f"{count} {unit}{plural}",
        f"{hits} hit{'' if hits == 1 else 's'}, {damage} damage",
        f"{dice} {'die' if dice == 1 else 'dice'} rolled",
    ]
    lines.append("Fell: " + ", ".join(fell) if fell else "Nobody fell")
    return lines
