"""Face by face: an action performed with every combination of typed dice faces (seeded
samples of them above a limit) rolls exactly what its preview priced.

For every combination (past a limit, seeded samples of the later dice) the action is
performed on a copy of the state, and its log entry's records
(:attr:`~hexcombat.encounter.LogEntry.rolled`) are compared with the preview: every roll
went through a rollable the preview shows (by its id), that rollable rolled with the
logged faces throws the same dice and reaches the logged outcome, a previewed rollable the
action starts throws no die the action does not (unless the action stops at a question
whose answer rolls the rest), and over every combination each outcome comes up exactly as
often as its previewed chance says.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass, field
from fractions import Fraction

from hexcombat import Action, Encounter
from hexcombat.checks import Chain, Rollable
from hexcombat.dice import Dice, DiceExhaustedError, Rolled, ScriptedDice
from hexcombat.encounter import LogEntry, apply_entry
from hexcombat.errors import HexcombatError
from hexcombat.rulesets.base import Preview
from hexcombat.state import GameState


@dataclass
class Figures:
    """What the face-by-face check compared: actions, face combinations, outcomes."""

    actions: int = 0
    combinations: int = 0
    outcomes: int = 0
    sampled: int = 0
    split: int = 0
    """Face combinations whose action did not roll what the preview priced."""
    kinds: Counter[str] = field(default_factory=Counter)

    def add(self, other: Figures) -> None:
        self.actions += other.actions
        self.combinations += other.combinations
        self.outcomes += other.outcomes
        self.sampled += other.sampled
        self.split += other.split
        self.kinds.update(other.kinds)


def shown(preview: Preview) -> tuple[dict[str, Rollable], list[Rollable]]:
    """Every rollable a preview shows, by id (each one's variants and a chain's stages
    too), and the ones it heads with (its rollables and their variants)."""
    found: dict[str, Rollable] = {}
    heads: list[Rollable] = []

    def walk(rollable: Rollable, head: bool) -> None:
        found[rollable.id] = rollable
        if head:
            heads.append(rollable)
        for variant in rollable.variants:
            walk(variant.rollable, head)
        if isinstance(rollable, Chain):
            for stage in rollable.stages:
                walk(stage.rollable, False)

    for rollable in preview.rollables:
        walk(rollable, True)
    return found, heads


Combination = tuple[tuple[int, ...], Fraction, LogEntry, GameState]
"""Faces typed, their chance, the log entry the action made with them, the state after."""


def combinations(
    enc: Encounter, action: Action, most: int, seed: str
) -> tuple[list[Combination], bool]:
    """The action performed with every combination of faces it asks for. The dice are taken
    breadth first: every face of a die while at most ``most`` combinations are open; past
    that, each open one is completed with seeded random faces (and stands for all of its
    completions). The flag: every combination, none of them sampled."""
    done: list[Combination] = []
    open_: deque[tuple[tuple[int, ...], Fraction]] = deque([((), Fraction(1))])
    rng = random.Random(seed)
    exact = True
    while open_:
        faces, weight = open_.popleft()
        outcome = _perform(enc, action, faces, None)
        if isinstance(outcome, int) and len(open_) + len(done) + outcome > most:
            exact = False
            outcome = _perform(enc, action, faces, rng)
        if isinstance(outcome, int):
            open_ += [((*faces, v), weight / outcome) for v in range(1, outcome + 1)]
        elif outcome is not None:
            entry, after = outcome
            done.append((tuple(f for r in entry.rolls for f in r.faces), weight, entry, after))
    return done, exact


class _Faces(Dice):
    """The faces given, then seeded random ones (or, without ``rng``, none: the sides of
    the die asked for, raised)."""

    def __init__(self, faces: tuple[int, ...], rng: random.Random | None) -> None:
        super().__init__()
        self._faces = list(faces)
        self._rng = rng

    def _next_face(self, sides: int) -> int:
        if self._faces:
            return self._faces.pop(0)
        if self._rng is None:
            raise DiceExhaustedError(f"a d{sides} more", sides)
        return self._rng.randint(1, sides)


def _perform(
    enc: Encounter, action: Action, faces: tuple[int, ...], rng: random.Random | None
) -> int | tuple[LogEntry, GameState] | None:
    """The entry ``action`` (offered now) makes with ``faces`` and the state after it, or the
    sides of the next die it needs (None: it cannot be done with these faces)."""
    state = enc.state.copy()
    try:
        entry = apply_entry(state, LogEntry(action), _Faces(faces, rng))
    except DiceExhaustedError as exc:
        return exc.sides
    except HexcombatError:
        return None
    return entry, state


def face_problems(
    enc: Encounter, action: Action, preview: Preview, most: int, figures: Figures
) -> list[str]:
    """Perform ``action`` face by face (:func:`combinations`) and compare every combination
    with ``preview``."""
    found, heads = shown(preview)
    done, exact = combinations(enc, action, most, f"{enc.setup.seed}/{action}")
    if not done:
        return []
    figures.actions += 1
    figures.combinations += len(done)
    figures.sampled += not exact
    problems: set[str] = set()
    weights: dict[str, dict[str, Fraction]] = {}
    for faces, weight, entry, after in done:
        asks = after.prompt is not None
        start = 0
        here: set[str] = set()
        for record in entry.rolled:
            here.update(_record_problems(action, record, found, figures))
            chances = weights.setdefault(record.rollable, {})
            chances[record.outcome] = chances.get(record.outcome, Fraction(0)) + weight
            here.update(_head_problems(action, heads, record, entry, start, asks, faces))
            start += len(record.rolls)
        figures.split += bool(here)
        problems |= here
    if exact:
        for rid, chances in weights.items():
            rollable = found.get(rid)
            if rollable is None:
                continue
            reached = sum(chances.values(), Fraction(0))
            previewed = {o.id: o.chance for o in rollable.outcomes() if o.chance}
            got = {k: v / reached for k, v in chances.items()}
            figures.outcomes += len(previewed)
            if got != previewed:
                problems.add(
                    f"{action.kind}: outcome shares differ from the preview: {rollable.label}: "
                    f"previewed {_odds(previewed)}, every face gives {_odds(got)}"
                )
    for text in problems:
        figures.kinds[f"{action.kind}: {text.split(':')[1].strip()}"] += 1
    return sorted(problems)


def _record_problems(
    action: Action, record: Rolled, found: dict[str, Rollable], figures: Figures
) -> list[str]:
    """One record: rolled through a rollable the preview shows, with the same dice and the
    same outcome."""
    exprs = [r.expr for r in record.rolls]
    if not record.faces:  # a number already known (a rolled attack's total): no die thrown
        return []
    if not record.rollable:
        return [f"{action.kind}: dice thrown through no rollable: {exprs}"]
    rollable = found.get(record.rollable)
    if rollable is None:
        return [f"{action.kind}: a rollable its preview does not show: rolled {exprs}"]
    dice = ScriptedDice(record.faces)
    try:
        again = rollable.roll(dice)
    except (DiceExhaustedError, HexcombatError) as exc:
        return [f"{action.kind}: the logged faces do not roll it: {rollable.label}: {exc}"]
    figures.outcomes += 1
    if [r.expr for r in again.rolls] != exprs or dice.remaining:
        return [
            f"{action.kind}: other dice than its id's: {rollable.label}: "
            f"{[r.expr for r in again.rolls]}, thrown {exprs}"
        ]
    if again.outcome_id != record.outcome:
        return [
            f"{action.kind}: the logged outcome is not the preview's: {rollable.label}: faces "
            f"{list(record.faces)} give {again.outcome_id!r}, logged {record.outcome!r}"
        ]
    return []


def _head_problems(
    action: Action,
    heads: list[Rollable],
    record: Rolled,
    entry: LogEntry,
    start: int,
    asks: bool,
    faces: tuple[int, ...],
) -> list[str]:
    """A previewed rollable the action starts (it, or a chain whose first stage the record
    is) throws the action's own dice from there on, and no more unless the action stops at
    a question."""
    started = [h for h in heads if record.rollable in (h.id, _first(h))]
    if not started:
        return []
    thrown = [r for r in entry.rolls[start:] if r.dice]
    problems = []
    for head in started:
        dice = ScriptedDice([f for r in thrown for f in r.faces])
        try:
            rolls = [r for r in head.roll(dice).rolls if r.dice]
        except DiceExhaustedError:
            if asks:  # the answer to the question rolls the rest
                return []
            problems.append(
                f"{action.kind}: the preview throws more dice than the action: {head.label}, "
                f"faces {list(faces)}: {[r.expr for r in thrown]}"
            )
            continue
        except HexcombatError as exc:
            problems.append(f"{action.kind}: the action's dice do not roll it: {head.label}: {exc}")
            continue
        if [(r.expr, r.faces) for r in rolls] == [(r.expr, r.faces) for r in thrown[: len(rolls)]]:
            return []
        problems.append(
            f"{action.kind}: the preview throws other dice than the action: {head.label} "
            f"throws {[r.expr for r in rolls]}, the action {[r.expr for r in thrown]} "
            f"(faces {list(faces)})"
        )
    return problems[:1]


def _first(rollable: Rollable) -> str:
    return rollable.stages[0].rollable.id if isinstance(rollable, Chain) else ""


def _odds(chances: dict[str, Fraction]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(chances.items()))
