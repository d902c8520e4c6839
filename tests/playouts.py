"""Random legal playouts through the public encounter API, for conformance tests of any ruleset."""

from __future__ import annotations

import os
from collections.abc import Callable

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.actions import ActionSpec
from hexcombat.document import from_document, to_document
from hexcombat.validation import Json

LONG_MODE = int(os.environ.get("HEXCOMBAT_FUZZ", "0")) > 0
"""tests/fuzz sets HEXCOMBAT_FUZZ: the random tests play their long mode, not the fast subset."""

Pick = Callable[[int], int]
"""Given n > 0, returns an index in range(n) (hypothesis draws or a seeded stream)."""


def random_action(enc: Encounter, pick: Pick) -> Action | None:
    """A random action among everything offered now, with random offered parameter values."""
    specs: list[ActionSpec] = list(enc.legal_actions(None))
    for fid in enc.state.figures:
        specs += enc.legal_actions(fid)
    if not specs:
        return None
    return action_for(specs[pick(len(specs))], pick)


def action_for(spec: ActionSpec, pick: Pick, *, unoffered: bool = True) -> Action:
    """``spec`` as an action, with random offered parameter values; a choice parameter whose
    every choice the earlier values rule out gets any choice (``unoffered``) or none."""
    params: dict[str, Json] = {}
    for p in spec.params:
        offered = p.offered(params)  # choices that depend on earlier parameters (``when``)
        if offered:
            params[p.name] = offered[pick(len(offered))].value
        elif p.choices and not unoffered and not p.required:
            continue
        elif p.choices:
            params[p.name] = p.choices[pick(len(p.choices))].value
        elif p.type == "int" and p.minimum is not None and p.maximum is not None:
            params[p.name] = p.minimum + pick(p.maximum - p.minimum + 1)
        elif p.type == "bool":
            params[p.name] = bool(pick(2))
        elif p.default is not None:
            params[p.name] = p.default
        elif p.required:
            return Action(spec.kind, spec.figure, {})
    return Action(spec.kind, spec.figure, params)


def played_at_random(enc: Encounter, pick: Pick, actions: int) -> Encounter:
    """``enc`` after random offered actions until its log holds ``actions`` entries or nothing
    is offered (the fight is over); an action the engine refuses (offered values that do not
    go together) is skipped. No checks: :func:`playout` checks as it plays."""
    while len(enc.log) < actions and (action := random_action(enc, pick)) is not None:
        try:
            enc.perform(action)
        except HexcombatError:
            continue
    return enc


def playout(enc: Encounter, pick: Pick, steps: int) -> list[str]:
    """Play ``steps`` random actions; returns broken invariants (empty when all is well).

    An action the engine refuses must leave the encounter exactly as it was.
    """
    problems: list[str] = []
    for _ in range(steps):
        action = random_action(enc, pick)
        if action is None:
            break
        before = to_document(enc)
        try:
            enc.perform(action)
        except HexcombatError:
            if to_document(enc) != before:
                problems.append(f"refused {action} changed the encounter")
            continue
        problems += enc.ruleset.invariant_problems(enc.state)
        if pick(5) == 0 and enc.can_undo:
            enc.undo()
            if pick(2):
                enc.redo()
    return problems


def assert_replays_exactly(enc: Encounter) -> None:
    """Saved and read back, ``enc`` gives the same document, events, clock and figures."""
    doc = to_document(enc)
    again = from_document(doc)
    assert to_document(again) == doc
    assert [e.to_json() for e in again.events] == [e.to_json() for e in enc.events]
    assert again.state.clock == enc.state.clock
    assert {f.id: f.to_json() for f in again.state.figures.values()} == {
        f.id: f.to_json() for f in enc.state.figures.values()
    }
