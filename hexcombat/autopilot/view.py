"""The autopilot for the page: which sides the app plays, a suggestion for the figure in
hand, and the app's next move (one at a time, so players can follow), all as plain JSON."""

from __future__ import annotations

from hexcombat.actions import Action
from hexcombat.autopilot.pilot import Autopilot
from hexcombat.autopilot.play import PER_FIGURE_STEP
from hexcombat.autopilot.policy import actors
from hexcombat.autopilot.scoring import TEMPERAMENTS
from hexcombat.encounter import Encounter
from hexcombat.validation import Json

SECONDS = 0.2
"""The page's time budget per decision (anytime: the best move found by then), so that a
tablet answers within about 300 ms."""


def autopilot_view(enc: Encounter) -> dict[str, Json]:
    """Every side with who plays it ('' people, else a temperament), and the temperaments."""
    sides = list(dict.fromkeys(f.side for f in enc.state.figures.values()))
    played = enc.setup.autopilot
    return {
        "temperaments": [{"id": t.id, "label": t.label} for t in TEMPERAMENTS.values()],
        "sides": [{"side": s, "played_by": played.get(s, "")} for s in sides],
    }


def played_by(enc: Encounter, side: str, temperament: str) -> Encounter:
    """``enc`` with ``side`` played by the app with ``temperament`` ('' gives it back to
    people); a set-up change, saved with the encounter and undone like one."""
    sides = {k: v for k, v in enc.setup.autopilot.items() if k != side}
    if temperament:
        sides[side] = temperament
    return enc.with_setup(autopilot=sides)


def suggest_view(
    enc: Encounter, figure_id: str, temperament: str = "aggressive"
) -> dict[str, Json]:
    """What the app would do with the figure in hand, without doing it: ``action`` (None when
    nothing) and ``reason`` in a player's words with its numbers."""
    figure = enc.state.figure(figure_id)
    pilot = Autopilot(temperament if temperament in TEMPERAMENTS else "aggressive", seconds=SECONDS)
    state = enc.state
    optional = (  # a hidden choice the step may end without: the app may pass, so may Suggest
        state.prompt is None
        and enc.ruleset.who_acts(state).hidden
        and any(s.kind == "next_step" for s in enc.legal_actions(None))
    )
    decision = pilot.decide(enc, figure.side, must_act=not optional, figures=[figure_id])
    if decision is None and optional and enc.legal_actions(figure_id):
        why = "nothing offered gains anything now: better to let the step end"
        return {"action": None, "reason": f"{figure.name}: {why}"}
    if decision is None:
        return {"action": None, "reason": f"{figure.name} has nothing to do now"}
    return {
        "action": decision.action.to_json(),
        "reason": decision.reason + _chosen(enc, decision.action),
        "numbers": dict(decision.numbers),
    }


def _chosen(enc: Encounter, action: Action) -> str:
    """The options an action picks, in the form's words (' (chosen: Walk ...; Draw ...)'):
    for Suggest, which only the player sees; the log's note of a hidden choice names none."""
    spec = next((s for s in enc.legal_actions(action.figure) if s.kind == action.kind), None)
    labels = [
        choice.label
        for field in (spec.params if spec else ())
        for choice in field.choices
        if field.type == "choice" and choice.value and action.params.get(field.name) == choice.value
    ]
    return f" (chosen: {'; '.join(labels)})" if labels else ""


def app_move(enc: Encounter) -> dict[str, Json] | None:
    """The app's next move for the sides it plays, or None when it is the people's turn (or
    the fight is over): ``action``, ``side`` and ``note`` (why, for the log)."""
    played = enc.setup.autopilot
    state = enc.state
    if not played or enc.ruleset.fight_outcome(state) is not None:
        return None
    prompt = state.prompt
    if prompt is not None:
        side = state.figure(prompt.figure).side
        return _decided(enc, side, played.get(side, ""), True) if side in played else None
    for side, temper in played.items():
        who = actors(enc, side)
        if who and _moves_this_step(enc, side) < PER_FIGURE_STEP * len(who):
            found = _decided(enc, side, temper, False)
            if found is not None:
                return found
    table = enc.legal_actions(None)
    if not any(s.kind == "next_step" for s in table):
        for side, temper in played.items():  # the step waits for the app's figures
            if actors(enc, side):
                return _decided(enc, side, temper, True)
        return None
    fighting = enc.ruleset.sides_in_fight(state)
    if fighting and all(s in played for s in fighting):  # nobody else to press Next
        return {"action": Action("next_step").to_json(), "side": None, "note": ""}
    return None


def left_by_app(enc: Encounter) -> list[str]:
    """The figures of the sides the app plays that are still offered an action when it has
    no move for them (:func:`app_move` is None): the app leaves them as they are, and the
    turn line says so (else it waits for them for good)."""
    played = enc.setup.autopilot
    if enc.state.prompt is not None or enc.ruleset.fight_outcome(enc.state) is not None:
        return []
    return [fid for side in played for fid in actors(enc, side)]


def _moves_this_step(enc: Encounter, side: str) -> int:
    """How many of the app's moves for ``side`` the log holds in the current step."""
    clock = enc.state.clock
    now = [list(clock.counters), clock.step]
    count = 0
    for i in range(enc.cursor - 1, -1, -1):
        events = enc.entry_events(i)
        if not events or [events[0].data.get("time"), events[0].data.get("step")] != now:
            break
        entry = enc.log[i]
        figure = enc.state.figures.get(entry.action.figure or "")
        count += bool(entry.note) and figure is not None and figure.side == side
    return count


def _decided(enc: Encounter, side: str, temper: str, must: bool) -> dict[str, Json] | None:
    decision = Autopilot(temper, seconds=SECONDS).decide(enc, side, must_act=must)
    if decision is None:
        return None
    label = TEMPERAMENTS[temper].label.lower()
    return {
        "action": decision.action.to_json(),
        "side": side,
        "note": f"The app ({label}) plays {side}: {decision.reason}"[:500],
    }
