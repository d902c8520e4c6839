"""The invariants every ruleset keeps at every state of a game, checked through the public API.

Each check returns the problems it finds (empty when all is well) and counts what it
compared in a :class:`Tally`, so a run can say how much it checked.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from faces import Figures

from hexcombat import Action, Encounter
from hexcombat.checks import Rollable
from hexcombat.dice import DiceExhaustedError, ScriptedDice, SeededDice
from hexcombat.document import to_document
from hexcombat.encounter import DRAWS_PER_ACTION
from hexcombat.errors import HexcombatError
from hexcombat.schema import settle
from hexcombat.view import encounter_view
from web.play.table import turn_line

NOBODY_WORDS = ("Everyone is done", "Everyone has chosen", "Nobody acts", "Nobody has to act")
"""What the turn line says when nobody has anything left to do."""
TIED_WORDS = ("end of combat", "next morning", "after combat", "after the fight")
"""Label words of an action whose rule ties it to a time (it must declare ``tied_to``)."""
MOST_IN_A_STEP = 12
"""No figure acts more often than this in one step (a dozen)."""


@dataclass
class Tally:
    """What a run checked: states, actions played, refusals, and checks compared."""

    states: int = 0
    actions: int = 0
    refusals: int = 0
    checks: int = 0
    rollables: int = 0
    exact: int = 0
    sampled: int = 0
    seen: set[str] = field(default_factory=set)
    faces: Figures = field(default_factory=Figures)


def ready(enc: Encounter) -> list[str]:
    """The figures offered an action now, in set-up order."""
    return [fid for fid in enc.state.figures if enc.legal_actions(fid)]


def turn_line_problems(enc: Encounter, tally: Tally) -> list[str]:
    """The turn line names exactly the figures offered an action; "everyone is done" and its
    kin show only when nobody is."""
    view = encounter_view(enc)
    if view["prompt"] is not None or view["outcome"] is not None:
        return []
    acting = view["time"]["acting"]
    offered = ready(enc)
    names = {f.id: f.name for f in enc.state.figures.values()}
    line = turn_line(view)
    tally.checks += 3
    problems = []
    if sorted(acting["waiting"]) != sorted(offered):
        problems.append(f"turn line waits for {acting['waiting']}, offered: {offered}")
    if offered and any(w in line for w in NOBODY_WORDS):
        problems.append(f"turn line {line!r} while {offered} are offered actions")
    if not offered and not any(w in line for w in NOBODY_WORDS):
        problems.append(f"turn line {line!r} while nobody is offered an action")
    named = [names[f] for f in offered if names[f] not in acting["text"]]
    if acting["mode"] != "figure" and named:
        problems.append(f"the acting text {acting['text']!r} leaves out {named}")
    return problems


def form_problems(enc: Encounter, tally: Tally) -> list[str]:
    """Forms that cannot trap: a choice list never repeats an item, and the values a form
    starts with (:func:`~hexcombat.schema.settle`) are ones its lists offer."""
    problems = []
    for fid in (None, *enc.state.figures):
        for spec in enc.legal_actions(fid):
            settled = settle(spec.params, {})
            for p in spec.params:
                if not p.choices:
                    continue
                tally.checks += 2
                values = [repr(c.value) for c in p.offered(settled)]
                if len(set(values)) != len(values):
                    problems.append(f"{spec.kind}: {p.name} lists a value twice: {values}")
                if p.name in settled and p.check(settled[p.name], settled) is not None:
                    problems.append(
                        f"{spec.kind}: {p.name} starts at {settled[p.name]!r}, not offered"
                    )
            if fid is not None and enc.ruleset.who_acts(enc.state).hidden:
                problems += _start_problems(enc, Action(spec.kind, fid, settled), tally)
    return problems


def _start_problems(enc: Encounter, action: Action, tally: Tally) -> list[str]:
    """A secret choice as its form starts is either refused by its preview, with the reason
    the form shows, or done: never allowed by the preview and then refused."""
    preview = enc.preview(action)
    if not preview.allowed:
        return []
    tally.checks += 1
    try:
        enc.copy().perform(action)
    except HexcombatError as exc:
        return [f"{action} previews as allowed, then is refused: {exc}"]
    return []


def tied_problems(enc: Encounter, tally: Tally) -> list[str]:
    """An action whose words tie it to a time declares it (``tied_to``), and one that
    declares it is offered only then."""
    over = enc.ruleset.fight_outcome(enc.state) is not None
    problems = []
    for spec in enc.legal_actions(None):
        tally.checks += 1
        words = spec.label.lower()
        if any(w in words for w in TIED_WORDS) and not spec.tied_to:
            problems.append(f"{spec.label!r} reads as tied to a time but declares no tied_to")
        if spec.tied_to == "fight_over" and not over:
            problems.append(f"{spec.label!r} is offered before the fight is over")
    return problems


def rollables(preview: Any) -> list[Rollable]:
    """A preview's rollables with every variant's."""
    found: list[Rollable] = []
    for r in preview.rollables:
        found += [r, *(v.rollable for v in r.variants)]
    return found


def odds_problems(rollable: Rollable, tally: Tally) -> list[str]:
    """A rollable's outcomes are distinct and their chances sum to exactly 1."""
    outcomes = rollable.outcomes()
    tally.rollables += 1
    tally.checks += 2
    problems = []
    total = sum((o.chance for o in outcomes), Fraction(0))
    if total != 1:
        problems.append(f"{rollable.label}: outcomes sum to {total}")
    if len({o.id for o in outcomes}) != len(outcomes):
        problems.append(f"{rollable.label}: outcome ids repeat: {[o.id for o in outcomes]}")
    return problems


def exact_frequencies(rollable: Rollable, most: int) -> dict[str, Fraction] | None:
    """Every way the typed faces can come up, rolled (None when there are more than ``most``):
    outcome id -> exact chance."""
    chances: dict[str, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        faces, weight = stack.pop()
        try:
            result = rollable.roll(ScriptedDice(faces))
        except DiceExhaustedError as exc:
            if exc.sides <= 0 or len(stack) + exc.sides + leaves > most:
                return None
            stack += [((*faces, v), weight / exc.sides) for v in range(1, exc.sides + 1)]
            continue
        leaves += 1
        chances[result.outcome_id] = chances.get(result.outcome_id, Fraction(0)) + weight
    return chances


def frequency_problems(
    rollable: Rollable, tally: Tally, most: int, samples: int, sampled: int = 10**9
) -> list[str]:
    """The preview's odds equal the roll's frequencies: exactly, over every typed face when
    there are at most ``most`` ways, else within five standard errors of ``samples`` seeded
    rolls (for at most ``sampled`` rollables a run). Each distinct rollable is checked once
    per run."""
    key = json.dumps(rollable.to_json(), sort_keys=True)
    if key in tally.seen:
        return []
    tally.seen.add(key)
    shown = {o.id: o.chance for o in rollable.outcomes() if o.chance}
    exact = exact_frequencies(rollable, most)
    if exact is not None:
        tally.exact += 1
        tally.checks += len(shown)
        if exact != shown:
            return [f"{rollable.label}: preview {_odds(shown)}, every face gives {_odds(exact)}"]
        return []
    if tally.sampled >= sampled:
        return []
    tally.sampled += 1
    seen: Counter[str] = Counter()
    rng = random.Random(key)
    for _ in range(samples):
        seen[rollable.roll(SeededDice(rng.randrange(2**32))).outcome_id] += 1
    problems = []
    for oid in {*shown, *seen}:
        p = shown.get(oid, Fraction(0))
        f = seen[oid] / samples
        tally.checks += 1
        if abs(f - float(p)) > 5 * math.sqrt(float(p * (1 - p)) / samples) + 2 / samples:
            problems.append(f"{rollable.label}: {oid} previewed {float(p):.3f}, rolled {f:.3f}")
    return problems


def _odds(chances: dict[str, Fraction]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(chances.items()))


def roll_problems(enc: Encounter, preview: Any, cursor: int, tally: Tally) -> list[str]:
    """The preview is the roll: the action's first roll is the first rollable's, with the
    same dice and faces (rolled again from the same seeded draws), and its outcome is
    one the preview listed."""
    if not preview.rollables or cursor >= len(enc.log):
        return []
    made = enc.log[cursor].rolls
    if not made:
        return []
    rollable = preview.rollables[0]
    dice = SeededDice(enc.setup.seed, cursor * DRAWS_PER_ACTION)
    try:
        again = rollable.roll(dice)
    except HexcombatError as exc:
        return [f"{rollable.label}: the preview's rollable cannot be rolled: {exc}"]
    tally.checks += 2
    problems = []
    if again.outcome_id not in {o.id for o in rollable.outcomes()}:
        problems.append(f"{rollable.label}: rolled {again.outcome_id!r}, not an outcome listed")
    first = made[0].to_json()
    if again.rolls and again.rolls[0].to_json() != first:
        problems.append(
            f"{preview.action}: previewed {rollable.label} rolls "
            f"{again.rolls[0].to_json()}, the action rolled {first}"
        )
    return problems


def perform_or_refuse(enc: Encounter, action: Action, tally: Tally) -> tuple[bool, list[str]]:
    """Perform ``action``; a refusal must leave the document byte-identical."""
    before = json.dumps(to_document(enc))
    try:
        enc.perform(action)
    except HexcombatError:
        tally.refusals += 1
        tally.checks += 1
        if json.dumps(to_document(enc)) != before:
            return False, [f"refused {action} changed the encounter"]
        return False, []
    tally.actions += 1
    return True, []


def step_bound_problems(enc: Encounter, tally: Tally) -> list[str]:
    """Undo everything, then redo it step by step: no figure acts more than
    :data:`MOST_IN_A_STEP` times in one step, and the redone document is the same."""
    before = json.dumps(to_document(enc))
    events = [e.to_json() for e in enc.events]
    cursor = enc.cursor
    while enc.can_undo:
        enc.undo()
    counts: Counter[tuple[str, str]] = Counter()
    problems: list[str] = []
    while enc.cursor < cursor:
        clock = repr(enc.state.clock)
        figure = enc.log[enc.cursor].action.figure
        if figure is not None:
            counts[(clock, figure)] += 1
            if counts[(clock, figure)] == MOST_IN_A_STEP + 1:
                problems.append(f"{figure} acts more than {MOST_IN_A_STEP} times in {clock}")
        enc.redo()
        tally.checks += 1
    tally.checks += 2
    if json.dumps(to_document(enc)) != before:
        problems.append("undo all, redo all changed the document")
    if [e.to_json() for e in enc.events] != events:
        problems.append("undo all, redo all changed the events")
    return problems
