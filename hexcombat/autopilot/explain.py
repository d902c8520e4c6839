"""A decision in a player's words, with its numbers: the preview's chance and phrase, the
damage expected (exact where the preview gives amounts) and what the imagined rolls showed."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexcombat.actions import Action, ActionSpec
from hexcombat.autopilot.candidates import hex_of, nearest_enemy
from hexcombat.checks import Amount, Chain, Rollable, percent
from hexcombat.figures import figure_distance
from hexcombat.layout import hex_label
from hexcombat.rulesets.base import Preview
from hexcombat.state import GameState


@dataclass(frozen=True)
class Imagined:
    """What the imagined rolls of one action showed, on average: damage dealt and taken
    (pool points), the chance some foe is put out of the fight, and the value reached."""

    dealt: float = 0.0
    taken: float = 0.0
    downs: float = 0.0
    score: float = 0.0
    samples: int = 0


def expected_damage(rollable: Rollable) -> Fraction | None:
    """The exact damage a rollable deals on average, from its damage amounts (None when it
    names no damage)."""
    if isinstance(rollable, Amount):
        if rollable.unit != "damage":
            return None
        outcomes = rollable.outcomes()
        if not all(o.id.lstrip("-").isdigit() for o in outcomes):
            return None
        return sum((int(o.id) * o.chance for o in outcomes), Fraction(0))
    if isinstance(rollable, Chain):
        found: Fraction | None = None
        for stage, reached in zip(rollable.stages, rollable.reached(), strict=True):
            part = expected_damage(stage.rollable)
            if part is not None:
                found = (found or Fraction(0)) + reached * part
        return found
    return None


def _target(state: GameState, spec: ActionSpec | None, action: Action) -> str:
    """The action's object in words: a figure's name, else a hex's label."""
    kinds = {p.name: p.type for p in spec.params} if spec else {}
    for name, value in action.params.items():
        if kinds.get(name) == "figure" and isinstance(value, str) and value in state.figures:
            return state.figures[value].name
    for name, value in action.params.items():
        h = hex_of(value)
        if kinds.get(name) == "hex" and h is not None:
            return f"to {hex_label(h)}"
    return ""


def numbers(preview: Preview, seen: Imagined) -> dict[str, float]:
    """The decision's numbers for the page and tests: chance (0-1), damage, taken, downs."""
    data: dict[str, float] = {}
    heads = [r.headline() for r in preview.rollables]
    head = next((h for h in heads if h is not None), None)
    if head is not None:
        data["chance"] = float(head.chance)
    exact = [d for r in preview.rollables if (d := expected_damage(r)) is not None]
    data["damage"] = float(sum(exact)) if exact else seen.dealt
    data["taken"] = seen.taken
    data["downs"] = seen.downs
    return data


def reason(
    state: GameState,
    spec: ActionSpec | None,
    action: Action,
    preview: Preview,
    seen: Imagined,
    idle: bool = False,
) -> str:
    """One line: 'Attack (Bo): 60% to hit, 4.2 damage expected, 20% to put a foe out of the
    fight, about 1.5 damage back'; answering a prompt: 'Parry: against the foe's roll of 72%
    to hit, 3.2 damage to you expected, about 4.5 damage taken over the next moves'; an
    ``idle`` action (one that gains nothing, made because something must be): 'Declare
    speed: nothing useful to do now (Bo, the nearest foe, is 6 hexes away)'."""
    label = spec.label if spec else action.kind.replace("_", " ").capitalize()
    target = _target(state, spec, action)
    prompt = state.prompt
    # the odds are the foe's blow's only for the figure the question is put to
    answering = prompt is not None and prompt.figure == action.figure and not target
    parts: list[str] = []
    heads = [r.headline() for r in preview.rollables]
    head = next((h for h in heads if h is not None), None)
    if head is not None:
        odds = f"{percent(head.chance)} {head.words}"
        parts.append(f"against the foe's roll of {odds}" if answering else odds)
    exact = [d for r in preview.rollables if (d := expected_damage(r)) is not None]
    if exact:
        to = " to you" if answering else ""
        parts.append(f"{float(sum(exact)):.1f} damage{to} expected")
    elif seen.dealt >= 0.05:  # nothing rolled now (a reload, a step): the moves after it
        later = "" if head is not None else " over the next moves"
        parts.append(f"about {seen.dealt:.1f} damage expected{later}")
    if seen.downs >= 0.005:
        parts.append(f"{100 * seen.downs:.0f}% to put a foe out of the fight")
    if seen.taken >= 0.05:
        after = "taken over the next moves" if answering else "back"
        parts.append(f"about {seen.taken:.1f} damage {after}")
    me = state.figures.get(action.figure) if action.figure else None
    foe = nearest_enemy(state, me) if me is not None else None
    if idle and me is not None:  # what the play-outs showed is no reason to make it
        where = ""
        if foe is not None:
            gap = figure_distance(me, foe)
            where = f" ({foe.name}, the nearest foe, is {gap} hex{'es' if gap > 1 else ''} away)"
        parts = [f"nothing useful to do now{where}"]
    elif not parts and foe is not None:
        parts.append(f"{foe.name} is the nearest foe")
    head_text = f"{label} ({target})" if target and target not in label else label
    return f"{head_text}: {', '.join(parts)}" if parts else head_text
