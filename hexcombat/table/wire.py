"""What a device is sent of the log: the shared log as its audience may read it, through the
one secrets model (:mod:`hexcombat.secrets`).

Each entry's secrets are the choice it made (:meth:`~hexcombat.rulesets.base.Ruleset.choice_secret`)
and the secrets its events hold (a roll kept from the players, the app's note naming a hidden
choice). An entry holding a secret kept from the audience travels as its stand-in: without
the note, the choice as the ruleset's :meth:`~hexcombat.rulesets.base.Ruleset.stand_in`
guesses it, each secret roll at its highest faces (a time runs out no sooner than the true
one). A stand-in is chosen from what the audience may know alone (were it chosen by how
the truth goes on, the choice itself would tell), so the table reads the device's copy as
it reads the truth (:func:`reading`; the tests hold every ruleset to it). An entry with no
stand-in, or one the device's copy would not take, is kept back with every one after it.
Once a secret's time comes its entry travels as it is: the device replays from there and
reaches the host's very state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from hexcombat.dice import Roll
from hexcombat.encounter import Encounter, LogEntry
from hexcombat.errors import HexcombatError
from hexcombat.secrets import Followed, Made, Secret, at, kept_from, visible_state
from hexcombat.state import GameState
from hexcombat.validation import Json


@dataclass(frozen=True)
class Audience:
    """Who a device shows the fight to: the GM (everything), or the sides it is seated at
    (their own secrets; an empty set: none)."""

    gm: bool = False
    sides: frozenset[str] = frozenset()

    def may_see(self, secret: Secret) -> bool:
        """True when this audience may see ``secret`` before its time."""
        return self.gm or (secret.side != "" and secret.side in self.sides)


@dataclass(frozen=True)
class Sent:
    """The log an audience is sent, how many entries after it are kept back, and where its
    stand-ins begin (``len(entries)`` when it has none: the log is the host's so far)."""

    entries: tuple[LogEntry, ...]
    kept_back: int = 0
    standing: int = -1

    def __post_init__(self) -> None:
        if self.standing < 0:
            object.__setattr__(self, "standing", len(self.entries))


class Wire:
    """The log each audience of a hosted fight is sent (the secrets of each entry followed
    once, as entries come: :class:`~hexcombat.secrets.Followed`)."""

    def __init__(self) -> None:
        self._followed = Followed()

    def made(self, encounter: Encounter) -> list[Made]:
        """The secrets of each applied entry of ``encounter``."""
        return [m for m, _ in self._followed.follow(encounter)]

    def sent(self, encounter: Encounter, audience: Audience) -> Sent:
        """The log ``audience`` is sent now (see the module's docstring)."""
        shared = encounter.log[: encounter.cursor]
        if audience.gm:
            return Sent(shared)
        followed = self._followed.follow(encounter)
        kept = kept_from(followed, audience.may_see)
        first = next((i for i, k in enumerate(kept) if k), None)
        if first is None:
            return Sent(shared)
        shadow = at(encounter, first)
        out = list(shared[:first])
        for index in range(first, len(shared)):
            wired = _wired(shadow, shared[index], followed[index][0], kept[index])
            if wired is None:
                break
            out.append(wired)
        return Sent(tuple(out), len(shared) - len(out), first)


def _wired(shadow: Encounter, entry: LogEntry, made: Made, kept: set[Secret]) -> LogEntry | None:
    """``entry`` as the audience is sent it, performed on ``shadow`` (the device's copy): the
    entry itself when nothing of it is kept, else its stand-in; None when it has none or the
    shadow does not take it."""
    action, note, faces = entry.action, entry.note, entry.faces
    if made.choice is not None and made.choice in kept:
        guess = shadow.ruleset.stand_in(shadow.state, action)
        if guess is None:
            return None
        action, note = guess, ""
    for secret, rolls in made.held:
        if secret in kept:
            faces = _highest(entry.rolls, rolls, faces)
    try:
        shadow.perform(action, faces, note)
    except HexcombatError:
        return None
    done = shadow.log[-1]
    if not kept and done.to_json(rolled=False) != entry.to_json(rolled=False):
        return None
    return done


def _highest(rolls: Sequence[Roll], secret: Sequence[Roll], faces: list[int]) -> list[int]:
    """``faces`` with the dice of each roll in ``secret`` (the last of ``rolls`` alike) at
    their highest."""
    out = [list(r.faces) for r in rolls]
    for hidden in secret:
        found = [i for i, r in enumerate(rolls) if r.to_json() == hidden.to_json()]
        if found:
            out[found[-1]] = [d.sides for d in rolls[found[-1]].dice]
    flat = [f for run in out for f in run]
    return flat if len(flat) == len(faces) else faces


def reading(encounter: Encounter, since: int) -> str:
    """What the table reads of ``encounter``: its state as the table may know it, and the
    events of the entries from ``since`` on."""
    seen: GameState = visible_state(encounter.state)
    held = {
        "figures": [f.to_json() for f in seen.figures.values()],
        "clock": [list(seen.clock.counters), seen.clock.step],
        "memory": seen.memory,
        "declarations": declarations_json(seen),
        "prompts": repr(seen.prompts),
        "asked": seen.asked,
        "events": [
            e.to_json() for i in range(since, encounter.cursor) for e in encounter.entry_events(i)
        ],
    }
    return json.dumps(held, sort_keys=True, default=repr)


def declarations_json(state: GameState) -> dict[str, Json]:
    """A hidden step's declarations as plain JSON: the choices known, and who has chosen."""
    d = state.declarations
    choices: dict[str, Json] = {f: a.to_json() for f, a in sorted(d.choices.items())}
    made: list[Json] = sorted({*d.choices, *d.concealed})
    return {"choices": choices, "revealed": d.revealed, "made": made}
