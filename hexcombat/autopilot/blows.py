"""The blows a hidden choice invites, at their previews' exact odds.

A declaration made now acts steps later: the play-out of a few engine calls ends before the
round's blows, so every "attack and ..." declaration looked alike. Once the choices are
revealed (the others' guessed), the table is let through its step ends with nobody acting
until a step offers blows; there every figure's plain blow is read from its preview (the
code path of the roll) at the harm its target is expected to take, the target meeting it
with whichever declared defence (a preview's variant) harms it least. What each blow does
to the side's and the foes' standing is what the declaration invites.
"""

from __future__ import annotations

from collections.abc import Iterator

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import plain
from hexcombat.autopilot.exact import expected_loss
from hexcombat.autopilot.lookahead import Look
from hexcombat.autopilot.scoring import DOWN, worth
from hexcombat.checks import Rollable
from hexcombat.figures import Figure
from hexcombat.state import GameState

BLOW_STEPS = 3
"""Step ends the table is let through (nobody acting) looking for the step of blows."""


def invited_blows(look: Look, state: GameState) -> float | None:
    """What the first step of blows after ``state`` (hidden choices revealed) is worth to the
    side at the blows' exact odds; None when no step of blows is found (the fight over, a
    prompt, choices still to make) or no blow's harm can be known; 0 when the step of blows
    comes with nobody in reach (:func:`_out_of_reach`)."""
    work = state
    for _ in range(BLOW_STEPS + 1):
        if work.prompt is not None or look.memo.outcome(work) is not None:
            return None
        if look.memo.acting(work).waiting and look.memo.acting(work).hidden:
            return None  # choices still to make: no blow is known yet
        found = list(_blows(look, work))
        if found:
            return sum(found)
        if not any(s.kind == "next_step" for s in look.memo.legal(work, None)):
            return 0.0 if _out_of_reach(look, work) else None
        after = look.imagine(work, Action("next_step"))
        if after is None:
            return None
        work = after[0]
    return None


def _blows(look: Look, state: GameState) -> Iterator[float]:
    """The worth to the side of each plain blow offered in this step, at its exact odds (the
    figures waiting for their place in a strike order included)."""
    acting = look.memo.acting(state)
    for fid in dict.fromkeys((*acting.now(), *acting.figures, *acting.waiting)):
        figure = state.figures.get(fid)
        if figure is None or state.ruleset.is_out(state, figure):
            continue
        for spec in state.ruleset.figure_actions(state, figure):
            action = plain(state, spec, look.rng)
            harm = None if action is None else _blow(look, state, figure, action)
            if harm is not None:
                yield harm
                break


def _out_of_reach(look: Look, state: GameState) -> bool:
    """Whether the step cannot end before its figures act and they are offered nothing to
    choose (a hold alone): the step of blows has come with nobody in reach, so a blow
    declared earlier lands nowhere (an archer's blade declared at a foe five hexes off)."""
    acting = look.memo.acting(state)
    fids = dict.fromkeys((*acting.now(), *acting.figures, *acting.waiting))
    figures = [state.figures[f] for f in fids if f in state.figures]
    return bool(figures) and all(
        not spec.params for f in figures for spec in state.ruleset.figure_actions(state, f)
    )


def _blow(look: Look, state: GameState, by: Figure, action: Action) -> float | None:
    """The worth to the side of ``by``'s blow ``action`` (None: not a blow at a figure of
    another side whose harm is known)."""
    preview = look.memo.preview(state, action)
    if not preview.allowed or len(preview.rollables) != 1:
        return None
    target = _target(state, by, action, preview.highlights.get("target", ()))
    if target is None or look.memo.hints(state, target).get("health"):
        return None
    mine = target.side == look.side
    down = 0.0 if mine else DOWN
    losses = [
        loss
        for r in _met_by(preview.rollables[0])
        if (odds := look.memo.odds(r)) is not None
        if (loss := expected_loss(target, odds, down)) is not None
    ]
    if not losses:
        return None
    weight = look.temper.harm_taken if mine else look.temper.harm_done
    return (-1 if mine else 1) * weight * worth(state, target, look.memo) * min(losses)


def _met_by(rollable: Rollable) -> list[Rollable]:
    """The roll as it may be met: plainly and against each defence its target may commit."""
    variants = getattr(rollable, "variants", ())
    return [rollable, *(v.rollable for v in variants)]


def _target(
    state: GameState, by: Figure, action: Action, hexes: tuple[object, ...]
) -> Figure | None:
    """The figure of another side a blow is aimed at: named by the action, else standing on
    the preview's target hexes."""
    others = [f for f in state.living() if f.side != by.side]
    named = [f for f in others if f.id in action.params.values()]
    if named:
        return named[0]
    at = set(hexes)
    return next((f for f in others if at & set(f.hexes())), None)
