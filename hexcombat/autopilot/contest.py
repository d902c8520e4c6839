"""Moves planned at once: where every figure plans its move and all of them move together
when the step ends (a collision stopping both), two foes whose best plan is the one hex
between them each plan it round after round, meet there, stop and never come to blows.
Which of the two waits for the other to come is drawn from what both sides see, so that
exactly one of them moves (neither side's secret is read: only the clock, the hex and who
the two are)."""

from __future__ import annotations

from hexcombat.actions import Action, ActionSpec
from hexcombat.autopilot.candidates import enemies, facing_towards, hex_of, plain
from hexcombat.autopilot.lookahead import Look
from hexcombat.autopilot.memo import Memo
from hexcombat.autopilot.scoring import imagine
from hexcombat.autopilot.stream import Stream
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import Hex
from hexcombat.state import GameState
from hexcombat.validation import Json


def destination(spec: ActionSpec, action: Action) -> Hex | None:
    """The hex ``action`` moves to (its first hex parameter), or None."""
    name = next((p.name for p in spec.params if p.type == "hex"), None)
    return hex_of(action.params.get(name)) if name else None


def rival(
    seen: GameState, spec: ActionSpec, action: Action, side: str, memo: Memo, rng: Stream
) -> Figure | None:
    """The nearest foe whose plain plan (:func:`~.candidates.plain`: the hex that closes in)
    enters the hex ``action`` plans to move to, when ``action`` is a plan (it leaves the
    figure where it stands until the step ends); None otherwise."""
    me = seen.figures.get(action.figure or "")
    to = destination(spec, action)
    if me is None or to is None or to == me.position:
        return None
    after = imagine(seen, action, side, rng, None, memo)
    if after is None or after[0].figures[me.id].position != me.position:
        return None  # carried out at once: whoever moves first takes the hex
    for foe in sorted(enemies(seen, side), key=lambda f: (figure_distance(me, f), f.id)):
        for offered in memo.legal(seen, foe.id):
            if offered.kind != action.kind:
                continue
            guess = plain(seen, offered, rng)
            if guess is not None and destination(offered, guess) == to:
                return foe
    return None


def waits(seen: GameState, me: Figure, foe: Figure, to: Hex) -> bool:
    """Whether ``me`` waits for ``foe`` to come to ``to`` this step (else ``foe`` waits):
    a coin both sides draw alike, from the clock, the hex and the two figures alone."""
    pair = sorted((me.id, foe.id))
    coin = Stream(f"contest:{seen.ruleset.id}:{seen.clock}:{to}:{pair}")
    return pair[coin.randrange(2)] == me.id


def staying(seen: GameState, spec: ActionSpec, me: Figure, to: Hex, look: Look) -> Action | None:
    """The plan of ``spec`` that keeps ``me`` where it stands turned towards ``to`` (the
    foe then comes into its front), else just where it stands; None when the rules accept
    neither."""
    where = next((p.name for p in spec.params if p.type == "hex"), "")
    turn = next((p.name for p in spec.params if p.type == "facing"), None)
    here: dict[str, Json] = {where: str(me.position)}
    tries = [{**here, turn: facing_towards(me.position, to)}] if turn else []
    for params in [*tries, here]:
        action = Action(spec.kind, me.id, params)
        if look.imagine(seen, action) is not None:
            return action
    return None
