"""Seeded random games of any ruleset, and twins of them that differ in one secret only: a
hidden choice made otherwise (with the app's note naming it, as the app logs its own), or a
secret roll with other faces. What the table may read is the same in both until the
secret's time (tests/test_secrets.py), and so is the autopilot's decision
(tests/test_autopilot_fair.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from playouts import action_for

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.autopilot.play import restarted, symmetric_start
from hexcombat.encounter import LogEntry
from hexcombat.secrets import GM, Secret

MOVES = 120
"""Actions a game plays (random, seeded)."""


@dataclass(frozen=True)
class Twin:
    """A game and its twin: ``index`` is the entry whose secret differs; ``secret`` what the
    model says it is (who may see it, until when)."""

    game: Encounter
    twin: Encounter
    index: int
    secret: Secret


def app_note(enc: Encounter, action: Action) -> str:
    """A note naming the choice, as the app logs why it chose an action."""
    figure = enc.state.figure(action.figure) if action.figure else None
    side = figure.side if figure else "the table"
    return f"The app plays {side}: {action.kind} {sorted(action.params.items())}"[:500]


def random_game(
    template: Encounter, seed: int, moves: int = MOVES, *, close: bool = False
) -> Encounter:
    """A game from ``template``'s set-up (``close``: two against two of its figures, close
    on a small board) played by seeded random choices, each figure's action logged with
    the app's note naming it."""
    enc = symmetric_start(template, seed) if close else restarted(template, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        specs = [s for fid in [None, *enc.state.figures] for s in enc.legal_actions(fid)]
        if not specs:
            break
        spec = specs[rng.randrange(len(specs))]
        action = action_for(spec, rng.randrange)
        try:
            enc.perform(action, note=app_note(enc, action) if action.figure else "")
        except HexcombatError:
            continue
    return enc


def at(enc: Encounter, cursor: int) -> Encounter:
    """A copy of ``enc`` stepped back to ``cursor``."""
    copy = enc.copy()
    while copy.cursor > cursor:
        copy.undo()
    return copy


def secrets_of(enc: Encounter, index: int) -> list[Secret]:
    """The secrets entry ``index`` made (every event of it, as the GM reads them)."""
    return [e.secret for e in enc.entry_events(index, GM) if e.secret is not None]


def _replayed(game: Encounter, entries: list[LogEntry]) -> Encounter | None:
    """A new encounter of ``game``'s set-up that performs ``entries`` with their faces as far
    as the rules take them (None when not even the first does)."""
    twin = restarted(game, game.setup.seed)
    for entry in entries:
        try:
            twin.perform(entry.action, entry.faces, entry.note)
        except HexcombatError:
            break
    return twin


def twins(game: Encounter, seed: int, most: int = 12) -> Iterator[Twin]:
    """Twins of ``game``, each differing in one secret of one entry: another choice of the
    same figure for a hidden choice, other faces for a secret roll."""
    rng = random.Random(seed)
    log = list(game.log)
    found = 0
    for i, entry in enumerate(log):
        if found >= most:
            return
        before = at(game, i)
        until = before.ruleset.choice_secret(before.state, entry.action)
        if until:
            secret = Secret.made(before.state, entry.action.figure or "", until)
            other = _other_choice(before, entry, rng)
        else:
            kept = secrets_of(game, i)
            secret, other = (kept[0], _other_faces(game, i, entry)) if kept else (None, None)
        if secret is None or other is None:
            continue
        twin = _replayed(game, [*log[:i], other, *log[i + 1 :]])
        if twin is not None and twin.cursor > i:
            found += 1
            yield Twin(game, twin, i, secret)


def _other_choice(enc: Encounter, entry: LogEntry, rng: random.Random) -> LogEntry | None:
    """The same figure's choice made otherwise (a different offered action the rules take)."""
    fid = entry.action.figure
    specs = enc.legal_actions(fid)
    for _ in range(12):
        spec = specs[rng.randrange(len(specs))] if specs else None
        if spec is None:
            return None
        action = action_for(spec, rng.randrange, unoffered=False)
        if action == entry.action:
            continue
        try:
            enc.copy().perform(action)
        except HexcombatError:
            continue
        return LogEntry(action, (), app_note(enc, action))
    return None


def _other_faces(enc: Encounter, index: int, entry: LogEntry) -> LogEntry | None:
    """``entry`` with the faces of its secret roll turned (each face one up, wrapping)."""
    rolled = [r for e in enc.entry_events(index, GM) if e.secret is not None for r in e.rolls]
    if not rolled:
        return None
    faces = list(entry.faces)
    secret = [int(str(f)) for f in rolled[-1].get("faces", [])]  # type: ignore[union-attr]
    at = _last_run(faces, secret)
    if at < 0:
        return None
    sides = next(r.dice[0].sides for r in entry.rolls if list(r.faces) == secret)
    faces[at : at + len(secret)] = [f % sides + 1 for f in secret]
    return _refaced(entry, faces)


def _last_run(faces: list[int], run: list[int]) -> int:
    for at in range(len(faces) - len(run), -1, -1):
        if faces[at : at + len(run)] == run:
            return at
    return -1


def _refaced(entry: LogEntry, faces: list[int]) -> LogEntry:
    """A log entry performed again with ``faces`` (its rolls are rebuilt by the replay)."""
    return _Faced(entry.action, entry.rolls, entry.note, given=tuple(faces))


@dataclass(frozen=True)
class _Faced(LogEntry):
    given: tuple[int, ...] = ()

    @property
    def faces(self) -> list[int]:
        return list(self.given)


def swapped(game: Encounter, most: int = 2) -> Iterator[Twin]:
    """Twins of ``game`` whose two hidden choices in a row, by figures of one side, are made
    in the other order (the same secrets, permuted)."""
    log = list(game.log)
    found = 0
    for i in range(len(log) - 1):
        if found >= most:
            return
        first = at(game, i)
        if not first.ruleset.choice_secret(first.state, log[i].action):
            continue
        second = at(game, i + 1)
        two = second.ruleset.choice_secret(second.state, log[i + 1].action)
        figures = [first.state.figures.get(e.action.figure or "") for e in log[i : i + 2]]
        if not (two and all(figures)) or len({f.side for f in figures if f}) != 1:
            continue
        twin = _replayed(game, [*log[:i], log[i + 1], log[i], *log[i + 2 :]])
        if twin is not None and twin.cursor > i + 1:
            found += 1
            yield Twin(game, twin, i + 1, Secret.made(second.state, figures[1].id, two))


def twin_leaks(
    template: Encounter,
    seeds: Sequence[int],
    moves: int,
    most: int,
    first_leak: Callable[[Twin], str],
) -> list[str]:
    """Each twin of seeded random games from ``template`` whose ``first_leak`` says where a
    secret shows before its time, and a line when the games made secrets but none had a
    twin to compare (the sweep would then prove nothing)."""
    leaks, looked, made = [], 0, 0
    for seed in seeds:
        game = random_game(template, seed, moves)
        made += sum(bool(secrets_of(game, i)) for i in range(game.cursor))
        for pair in twins(game, seed, most):
            looked += 1
            where = first_leak(pair)
            if where:
                what = pair.game.log[pair.index].action.kind
                leaks.append(f"seed {seed}: {what} (entry {pair.index}): {where}")
    if made and not looked:
        leaks.append(f"{made} secrets made, none with a twin to compare")
    return leaks
