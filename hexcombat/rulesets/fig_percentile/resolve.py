"""fig-percentile's previews: what an attack, a dodge, a planned move or a declaration would
do, with the very rollables the handlers roll (the preview is the roll)."""

from __future__ import annotations

from dataclasses import replace

from hexcombat.actions import Action
from hexcombat.checks import Variant
from hexcombat.errors import IllegalActionError
from hexcombat.figures import Figure
from hexcombat.geometry import Hex
from hexcombat.movement import Reach
from hexcombat.rulesets.base import Preview
from hexcombat.rulesets.common.moves import path_preview
from hexcombat.rulesets.fig_percentile import action_step, flow, offers
from hexcombat.rulesets.fig_percentile.moves import describe_step
from hexcombat.rulesets.fig_percentile.options import DODGE_SKILL, FIG
from hexcombat.rulesets.fig_percentile.situation import (
    attack_check,
    attack_item,
    counted,
    dodge_check,
    dodge_roll,
    dodged_roll,
    hit_roll,
    los_needed,
    may_dodge,
    needs_text,
    settings,
    sight_between,
    target_problem,
)
from hexcombat.rulesets.fig_percentile.speed import allowance, can_dodge, show, speed_value
from hexcombat.state import GameState


def attack_preview(state: GameState, action: Action, figure: Figure) -> Preview:
    """An attack or a spell's release by ``figure``: the roll to hit its target, with the
    dodge the target may choose as a variant, and the line of sight."""
    kind = action.kind
    item = attack_item(figure, spell=kind == "release_spell")
    if item is None:
        raise IllegalActionError(f"{figure.name} has nothing to attack with")
    target = state.figure(action.text("target"))
    problem = target_problem(state, figure, target, item)
    if problem:
        raise IllegalActionError(problem)
    check = attack_check(state, figure, target, item, extra_modifier(action))
    roll = hit_roll(state, target, item, check)
    notes: list[str] = []
    ok, why = may_dodge(state, target)
    if ok:
        dodge = dodge_check(state, target)
        roll = replace(
            roll,
            variants=(
                Variant("No dodge", roll),
                Variant(
                    f"Dodge ({needs_text(dodge)})", dodged_roll(state, target, item, check, dodge)
                ),
            ),
        )
        notes.append(f"{target.name} may dodge a hit: {why}")
    elif settings(state).dodge and DODGE_SKILL(target):
        notes.append(f"{target.name} cannot dodge: {why}")
    highlights: dict[str, tuple[Hex, ...]] = {"target": target.hexes()}
    if los_needed(state, item):
        seen = sight_between(state, figure, target)
        highlights["los"] = seen.between
        notes.append(f"Line of sight: {seen.reason} ({seen.rule})")
    return Preview(
        action,
        True,
        rollables=(roll,),
        notes=tuple(notes),
        cost=1,
        highlights=highlights,
    )


def roll_attack_preview(state: GameState, action: Action) -> Preview:
    """The action step's attack roll, asked for by its prompt (G-19), with the dodge its target
    chose (G-3)."""
    attacker, target, item, extra = action_step.roll_context(state)
    check = attack_check(state, attacker, target, item, extra)
    notes = ["The numbers are those after movement, before any result of this step (G-19)"]
    if action_step.dodged_by(state, target, attacker):
        dodge = dodge_check(state, target)
        dodged = dodged_roll(state, target, item, check, dodge)
        aimed = replace(
            check,
            variants=(Variant(f"{target.name} dodges ({needs_text(dodge)})", dodged),),
        )
        notes.append(f"{target.name} chose to dodge this attack: a hit asks for its roll (G-3)")
        return Preview(action, True, rollables=(aimed,), notes=tuple(notes))
    roll = hit_roll(state, target, item, check)
    return Preview(action, True, rollables=(roll,), notes=tuple(notes))


def dodge_preview(state: GameState, action: Action, figure: Figure) -> Preview:
    """Choosing to dodge, picking the attack to dodge, and the dodge roll (G-3, G-19)."""
    kind = action.kind
    if kind == "pick_dodge":  # rolls nothing now: the dodge is rolled if the attack hits
        dodge = dodge_check(state, figure)
        attacker = state.figure(action.text("attacker"))
        return Preview(
            action,
            True,
            notes=(
                f"If {attacker.name}'s attack hits, you roll to dodge it: "
                f"{needs_text(dodge)} ({dodge.percent()}); the other attacks on you are "
                "not dodged (G-3)",
            ),
        )
    note = {
        "dodge": "Your action for this step: after the reveal you pick one attack "
        "against you to dodge (G-3, G-19)",
        "roll_dodge": "Success cancels the hit (G-3)",
    }[kind]
    if kind == "roll_dodge":  # as it is rolled: with the hit-point option, damage if it fails
        dodger, _attacker, item = action_step.dodge_context(state)
        roll = dodge_roll(state, dodger, item)
        return Preview(action, True, rollables=(roll,), notes=(note,))
    return Preview(action, True, rollables=(dodge_check(state, figure),), notes=(note,), cost=1)


def plan_move_preview(
    state: GameState, action: Action, figure: Figure, reach: Reach | None
) -> Preview:
    """A planned move: its steps in words, its cost and path, and the hexes still in ``reach``."""
    path = flow.planned_path(state, figure, action.hex("to"), chosen_facing(action))
    return path_preview(action, figure, path, describe_step, reach)


def declare_preview(state: GameState, action: Action, figure: Figure) -> Preview:
    """A move mode declared: how far and how fast this round, and whether dodging is allowed
    (FP-5, FP-10, FP-23)."""
    s = settings(state)
    mode = action.text("mode")
    fig = FIG(figure)
    speed = speed_value(mode, fig, 1, s.walk_speed)
    dodging = "dodging allowed" if can_dodge(speed, fig) else "no dodging"
    hexes = counted(allowance(mode, fig, s.rounding), "hex", "hexes")
    notes = [f"Up to {hexes} this round; speed {show(speed)}; {dodging} (FP-5, FP-10)"]
    if action.text("ready", ""):
        notes.append("Every roll this round is at half skill (FP-23)")
    return Preview(action, True, notes=tuple(notes))


def extra_modifier(action: Action) -> int:
    """The attack's other modifier, within the offered limit."""
    value = action.integer("modifier", 0)
    limit = offers.MODIFIER_LIMIT
    if not -limit <= value <= limit:
        raise IllegalActionError(
            f"the other modifier must be from {-limit} to {limit}, got {value}"
        )
    return value


def chosen_facing(action: Action) -> int | None:
    """The facing a planned move ends in, if one was chosen."""
    if action.params.get("facing") is None:
        return None
    return action.integer("facing")
