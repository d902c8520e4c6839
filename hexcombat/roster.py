"""The roster: per ruleset, the characters kept from fight to fight.

A character is a figure's set-up without its placement (no position, facing or mount). It
joins an encounter of its ruleset as a figure that names it (:attr:`Figure.character`);
when the fight ends, :func:`write_back` says per character what the fight changed (pools,
statuses, equipment, what its ruleset carries between fights) as a :class:`Change` the GM
accepts or not, and :func:`accept` writes the accepted ones into the roster.

The roster document is versioned JSON like the encounter's: a roster from a newer
hexcombat is refused, older versions are migrated through :data:`MIGRATIONS`, and every
problem is reported with its path (``characters[1].pools.hp``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from hexcombat.document import migrated
from hexcombat.encounter import Encounter
from hexcombat.errors import HexcombatError, Problem
from hexcombat.figures import Equipment, Figure, Pool, Status, figure_from_json
from hexcombat.geometry import Hex
from hexcombat.rulesets import get_ruleset
from hexcombat.rulesets.base import Ruleset, humanize
from hexcombat.schema import FieldSpec
from hexcombat.setup_checks import figure_problems
from hexcombat.validation import Json, Reader, describe, limit_problems

FORMAT = "hexcombat-roster"
VERSION = 2
MAX_CHARACTERS = 500
PLACEMENT = ("position", "facing", "mounted_on", "character")
"""Figure fields a character does not have: where it stands is the encounter's."""
BOARD_BOUND = ("lies_at", "stuck_in")
"""Item stats that name a hex or a figure of one fight (where a dropped item lies, whom a
thrown one struck): meaningless in the next fight, so never carried."""
ITEM_STATE_WORDS = {"ready": "in hand", "carried": "carried", "dropped": "dropped"}
GATHER_DROPPED = FieldSpec(
    "roster.gather_dropped",
    "They pick up what they dropped",
    "bool",
    True,
    help="When a fight ends, what a character dropped comes back carried; off, what lies on "
    "the field is lost. The texts are silent on gear after a fight.",
)
"""Named option ``roster.gather_dropped``, asked when a fight's changes are written back."""
OPTIONS = (GATHER_DROPPED,)
"""The roster's named options (the guide's roster page lists them)."""

Migration = Callable[[dict[str, Json]], dict[str, Json]]


def _to_2(doc: dict[str, Json]) -> dict[str, Json]:
    """Version 2 lets a character carry its token's portrait (``portrait``): none before."""
    return dict(doc)


MIGRATIONS: dict[int, Migration] = {1: _to_2}
"""``MIGRATIONS[n]`` turns a version-``n`` roster into a version ``n + 1`` one."""


@dataclass(frozen=True)
class Character:
    """One character of a roster: its id there and its figure as set up (placed nowhere)."""

    id: str
    figure: Figure

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form: the figure's set-up without its placement, under the character's id."""
        data = {k: v for k, v in self.figure.to_json().items() if k not in PLACEMENT}
        return {**data, "id": self.id}


@dataclass(frozen=True)
class Roster:
    """The characters of one ruleset."""

    ruleset: str
    characters: tuple[Character, ...] = ()

    def character(self, character_id: str) -> Character:
        """The character ``character_id`` (HexcombatError naming the ones there are)."""
        for c in self.characters:
            if c.id == character_id:
                return c
        known = ", ".join(c.id for c in self.characters) or "none"
        raise HexcombatError(f"there is no character {character_id!r}; characters: {known}")


@dataclass(frozen=True)
class Change:
    """What one fight changed of one character: its figure as the fight left it, and in words."""

    character: str
    name: str
    after: Figure
    lines: tuple[str, ...] = field(default_factory=tuple)


def new_roster(ruleset_id: str) -> Roster:
    """An empty roster of a ruleset (HexcombatError when there is no such ruleset)."""
    return Roster(get_ruleset(ruleset_id).id)


def saved(roster: Roster, figure: Figure) -> tuple[Roster, str]:
    """The roster with ``figure`` saved as a character, and its id: the character it plays,
    replaced, else a new one named after it."""
    body = _unplaced(figure)
    if figure.character and any(c.id == figure.character for c in roster.characters):
        body = replace(body, id=figure.character)
        kept = tuple(
            Character(c.id, body) if c.id == figure.character else c for c in roster.characters
        )
        return replace(roster, characters=kept), figure.character
    new_id = _fresh_id(figure.name, {c.id for c in roster.characters})
    added = Character(new_id, replace(body, id=new_id))
    return replace(roster, characters=(*roster.characters, added)), new_id


def without(roster: Roster, character_id: str) -> Roster:
    """The roster without the character ``character_id``."""
    roster.character(character_id)
    return replace(roster, characters=tuple(c for c in roster.characters if c.id != character_id))


def joined(encounter: Encounter, roster: Roster, character_id: str, at: Hex) -> Encounter:
    """The encounter with the character added as a figure standing at ``at`` (the set-up's
    checks apply: InvalidDocumentError when it cannot stand there)."""
    if roster.ruleset != encounter.setup.ruleset:
        raise HexcombatError(
            f"a {roster.ruleset} character cannot join a {encounter.setup.ruleset} encounter"
        )
    body = roster.character(character_id).figure.copy()
    figure = replace(
        body,
        id=encounter.new_figure_id(body.name),
        position=at,
        character=character_id,
    )
    return encounter.with_figure(figure)


def write_back(
    roster: Roster, encounter: Encounter, *, gather_dropped: bool = GATHER_DROPPED.default is True
) -> list[Change]:
    """Per character of ``roster`` playing in ``encounter``, what the fight changed (only
    characters with a change; in set-up order). A pool the character did not have and that
    the fight left full is not carried: the ruleset gives it again at the next start."""
    changes = []
    state = encounter.state
    for start in encounter.setup.figures:
        if not start.character or start.id not in state.figures:
            continue
        try:
            before = roster.character(start.character).figure
        except HexcombatError:
            continue
        played = state.figures[start.id]
        ruleset = state.ruleset
        after = _after_fight(played, ruleset, gather_dropped)
        pools = {k: p for k, p in after.pools.items() if k in before.pools or p.current < p.maximum}
        after = replace(after, id=before.id, pools=pools)
        lines = _differences(before, after, ruleset)
        if lines:
            changes.append(Change(start.character, before.name, after, tuple(lines)))
    return changes


def accept(roster: Roster, changes: Iterable[Change]) -> Roster:
    """The roster with ``changes`` written (the ones the GM ticked)."""
    by_id = {c.character: c.after for c in changes}
    return replace(
        roster,
        characters=tuple(
            Character(c.id, by_id[c.id]) if c.id in by_id else c for c in roster.characters
        ),
    )


def _after_fight(played: Figure, ruleset: Ruleset, gather_dropped: bool) -> Figure:
    """The character as ``played`` left it: pools and equipment as they ended, the statuses
    and memory its ruleset keeps between fights."""
    equipment = []
    for item in played.equipment:
        stats = {k: v for k, v in item.stats.items() if k not in BOARD_BOUND}
        state = item.state
        if state == "dropped":
            if not gather_dropped:
                continue
            state = "carried"
        equipment.append(Equipment(item.name, item.kind, state, item.loaded, stats))
    kept = replace(
        played.copy(),
        equipment=equipment,
        statuses=ruleset.roster_statuses(played, gather_dropped),
        memory=ruleset.roster_memory(played),
    )
    return _unplaced(kept)


def _unplaced(figure: Figure) -> Figure:
    """A copy of ``figure`` standing nowhere: origin, facing 0, no mount, no character."""
    return replace(figure.copy(), position=Hex(0, 0), facing=0, mounted_on="", character="")


def _differences(before: Figure, after: Figure, ruleset: Ruleset) -> list[str]:
    """What differs, in the table's words: one line per pool, status, item or carried memory."""
    label = ruleset.view_label
    lines = [
        f"{label(key)}: {_pool_words(before.pools.get(key))} → {_pool_words(after.pools.get(key))}"
        for key in dict.fromkeys([*before.pools, *after.pools])
        if _pool_json(before.pools.get(key)) != _pool_json(after.pools.get(key))
    ]
    lines += [
        f"now {_status_words(after.statuses[s], label)}"
        for s in after.statuses
        if s not in before.statuses
    ]
    lines += [f"no longer {label(s).lower()}" for s in before.statuses if s not in after.statuses]
    old = {i.name: i for i in before.equipment}
    new = {i.name: i for i in after.equipment}
    for name in dict.fromkeys([*old, *new]):
        if name not in new:
            lines.append(f"{name}: lost")
        elif name not in old:
            lines.append(f"{name}: gained")
        elif old[name].to_json() != new[name].to_json():
            lines.append(f"{name}: {_item_change(old[name], new[name])}")
    for key in dict.fromkeys([*before.memory, *after.memory]):
        if before.memory.get(key) != after.memory.get(key):
            lines.append(
                f"{label(key)}: {_value_words(before.memory.get(key))} → "
                f"{_value_words(after.memory.get(key))}"
            )
    return lines


def _pool_json(pool: Pool | None) -> Json:
    return pool.to_json() if pool is not None else None


def _pool_words(pool: Pool | None) -> str:
    """'3 of 12'; 'full' for a pool the character lacks (the ruleset fills it at the start)."""
    return f"{pool.current} of {pool.maximum}" if pool is not None else "full"


def _status_words(status: Status, label: Callable[[str], str]) -> str:
    timed = f" ({status.remaining} left)" if status.remaining is not None else ""
    return f"{label(status.id).lower()}{timed}"


def _value_words(value: Json) -> str:
    if value is None or value is False:
        return "no"
    return "yes" if value is True else describe(value)


def _item_change(old: Equipment, new: Equipment) -> str:
    """Only what differs of an item: where it is, its load, the stats that changed."""
    parts = []
    if old.state != new.state:
        parts.append(f"{ITEM_STATE_WORDS[new.state]} (was {ITEM_STATE_WORDS[old.state]})")
    if old.loaded != new.loaded:
        parts.append("loaded" if new.loaded else "not loaded")
    for key in dict.fromkeys([*old.stats, *new.stats]):
        if old.stats.get(key) != new.stats.get(key):
            parts.append(
                f"{humanize(key).lower()} {_value_words(old.stats.get(key))} → "
                f"{_value_words(new.stats.get(key))}"
            )
    return ", ".join(parts)


def _fresh_id(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


# ---- the document ------------------------------------------------------------------------
def to_document(roster: Roster) -> dict[str, Json]:
    """The roster as a JSON-ready document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": roster.ruleset,
        "characters": [c.to_json() for c in roster.characters],
    }


def from_document(data: Json) -> Roster:
    """Read a roster from a parsed document (InvalidDocumentError listing every problem;
    UnsupportedVersionError for a newer one)."""
    reader = Reader()
    reader.problems += limit_problems(data)
    reader.raise_if_any("this roster is beyond hexcombat's limits")
    doc = reader.object(data, "")
    reader.raise_if_any("this is not a roster file")
    assert doc is not None
    doc = _migrated(doc)
    ruleset = None
    rs_id = reader.string(doc, "ruleset", "")
    if rs_id is not None:
        try:
            ruleset = get_ruleset(rs_id)
        except HexcombatError as exc:
            reader.problem("ruleset", str(exc))
    raw = reader.list(doc.get("characters", []), "characters") or []
    if len(raw) > MAX_CHARACTERS:
        reader.problem("characters", f"has {len(raw)} entries; at most {MAX_CHARACTERS}")
        raw = []
    characters = [c for i, item in enumerate(raw) if (c := _character(item, i, reader)) is not None]
    if ruleset is not None:
        figures = [(i, c.figure) for i, c in enumerate(characters)]
        reader.problems += [
            Problem(p.path.replace("figures[", "characters[", 1), p.message)
            for p in figure_problems(figures, ruleset, {})
        ]
    reader.raise_if_any("this roster cannot be read")
    assert ruleset is not None
    return Roster(ruleset.id, tuple(characters))


def _character(data: Json, i: int, reader: Reader) -> Character | None:
    path = f"characters[{i}]"
    obj = reader.object(data, path)
    if obj is None:
        return None
    for key in PLACEMENT:
        if key in obj:
            reader.problem(f"{path}.{key}", "a character stands nowhere until it joins a fight")
    body = {**obj, "position": "0,0"}
    figure = figure_from_json(body, path, reader)
    return Character(figure.id, figure) if figure is not None else None


def _migrated(doc: dict[str, Json]) -> dict[str, Json]:
    return migrated(doc, FORMAT, VERSION, MIGRATIONS, "roster")


__all__ = [
    "FORMAT",
    "GATHER_DROPPED",
    "OPTIONS",
    "VERSION",
    "Change",
    "Character",
    "Roster",
    "accept",
    "from_document",
    "joined",
    "new_roster",
    "saved",
    "to_document",
    "without",
    "write_back",
]
