"""Seeded random legal games of any ruleset, from its demo (at its start and at its end) and
from a four-figure start built through the API, with every invariant checked at every state.

``HEXCOMBAT_CONFORMANCE=N`` plays N games of each start instead of the fast subset's
(the long mode; ``python tests/conformance/games.py`` prints the figures per ruleset).
"""

from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for folder in (TESTS.parent, TESTS, Path(__file__).parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import faces  # noqa: E402
import invariants as inv  # noqa: E402
import manifests  # noqa: E402
from playouts import action_for, assert_replays_exactly  # noqa: E402

from hexcombat import Action, Encounter  # noqa: E402
from hexcombat.actions import ActionSpec  # noqa: E402
from hexcombat.autopilot.starts import SHAPES, fresh_start  # noqa: E402
from hexcombat.errors import HexcombatError  # noqa: E402
from hexcombat.geometry import Hex  # noqa: E402

STARTS = ("demo-start", "demo-end", "four")
"""Where every ruleset's games start; a manifest's ``starts`` add builders of its own."""
FRESH = tuple(f"fresh {shape}" for shape in SHAPES)
"""The long mode's starts besides: fights the autopilot has never seen, built fresh from
the seed (:func:`~hexcombat.autopilot.starts.fresh_start`, each shape)."""
TRIES = 8
"""Offered actions tried at a state before giving up on it (each refusal is checked)."""
LONG = int(os.environ.get("HEXCOMBAT_CONFORMANCE", "0"))


@dataclass(frozen=True)
class Mode:
    """How much a run plays: games per start, actions per game, the limits of the odds
    checks (ways enumerated exactly, else seeded rolls, for so many rollables a start) and of
    the face-by-face check (combinations enumerated before the later dice are sampled, for
    so many actions a start)."""

    games: int
    actions: int
    exact_ways: int
    samples: int
    sampled: int
    face_ways: int
    face_actions: int


FAST = Mode(
    games=1,
    actions=40,
    exact_ways=1_500,
    samples=200,
    sampled=12,
    face_ways=100,
    face_actions=4,
)
LONG_MODE = Mode(
    games=LONG or 20,
    actions=150,
    exact_ways=20_000,
    samples=2_000,
    sampled=10**6,
    face_ways=2_000,
    face_actions=200,
)


def start(ruleset_id: str, which: str, seed: int) -> Encounter:
    """The encounter a game starts from."""
    if which == "four":
        return four(ruleset_id, seed)
    if which in FRESH:
        return fresh_start(ruleset_id, which.removeprefix("fresh "), seed)
    if which in manifests.manifest(ruleset_id).starts:
        return manifests.function(which)(seed)
    enc = manifests.demo(ruleset_id)
    if which == "demo-end":
        while enc.can_redo:
            enc.redo()
    return enc.with_setup(seed=seed) if enc.cursor == 0 else enc


def starts(ruleset_id: str) -> tuple[str, ...]:
    """The starts a ruleset's games are played from (in the long mode, fresh ones too)."""
    return STARTS + manifests.manifest(ruleset_id).starts + (FRESH if LONG else ())


def four(ruleset_id: str, seed: int) -> Encounter:
    """Two against two, face to face in the middle of a 10 x 10 board, each figure as the
    ruleset makes a new one."""
    enc = Encounter.new(ruleset_id, 10, 10, name="Four", seed=seed)
    rows = (("a1", "A", Hex(4, 4), 2), ("a2", "A", Hex(4, 5), 2))
    rows += (("b1", "B", Hex(5, 4), 5), ("b2", "B", Hex(5, 5), 5))
    for fid, side, at, facing in rows:
        name = f"{side}{fid[1]} {fid}"
        enc = enc.with_figure(enc.ruleset.new_figure(fid, name, side, at, facing))
    return enc


def offered(enc: Encounter) -> list[ActionSpec]:
    """Everything offered now: the table's, then each figure's."""
    specs = list(enc.legal_actions(None))
    for fid in enc.state.figures:
        specs += enc.legal_actions(fid)
    return specs


def hidden_order_problems(enc: Encounter, rng: random.Random, tally: inv.Tally) -> list[str]:
    """Hidden choices entered in two orders give the same state (and the same next step)."""
    acting = enc.ruleset.who_acts(enc.state)
    if enc.state.prompt is not None or not acting.hidden or len(acting.waiting) < 2:
        return []
    picks = []
    for fid in acting.waiting:
        specs = enc.legal_actions(fid)
        if not specs:
            return []
        picks.append(action_for(specs[rng.randrange(len(specs))], rng.randrange, unoffered=False))
    results = []
    for order in (picks, picks[::-1]):
        copy = enc.copy()
        for action in order:
            done, _ = inv.perform_or_refuse(copy, action, inv.Tally())
            if not done:
                return []
        then = (
            [e.to_json() for e in copy.perform(Action("next_step"))]
            if any(s.kind == "next_step" for s in copy.legal_actions(None))
            else []
        )
        figures = {f.id: f.to_json() for f in copy.state.figures.values()}
        results.append((figures, repr(copy.state.clock), then))
    tally.checks += 1
    if results[0] != results[1]:
        return [f"hidden choices {picks} give another state entered the other way round"]
    return []


Problem = tuple[str, str]
"""A broken invariant: its family (one of :data:`FAMILIES`) and what was seen."""
FAMILIES = (
    "steps",
    "turn line",
    "tied",
    "previews",
    "odds",
    "rolls",
    "faces",
    "refusals",
    "replay",
    "hidden order",
    "forms",
)


def tagged(family: str, found: list[str]) -> list[Problem]:
    """``found`` as problems of ``family``."""
    return [(family, text) for text in found]


def play(enc: Encounter, rng: random.Random, mode: Mode, tally: inv.Tally) -> list[Problem]:
    """Play one random legal game, checking every invariant at every state."""
    problems: list[Problem] = []
    for _ in range(mode.actions):
        tally.states += 1
        problems += tagged("turn line", inv.turn_line_problems(enc, tally))
        problems += tagged("tied", inv.tied_problems(enc, tally))
        problems += tagged("forms", inv.form_problems(enc, tally))
        actions = [action_for(spec, rng.randrange, unoffered=False) for spec in offered(enc)]
        if not actions:  # only a finished fight may leave nothing to do, not even next_step
            if enc.ruleset.fight_outcome(enc.state) is None:
                problems.append(("steps", f"stuck at {enc.state.clock}: nothing is offered"))
            break
        previews = {}
        for action in actions:
            try:  # every offered action previews
                preview = enc.preview(action)
            except HexcombatError as exc:
                problems.append(("previews", f"{action} does not preview: {exc}"))
                continue
            tally.checks += 1
            previews[id(action)] = preview
            for rollable in inv.rollables(preview):
                problems += tagged("odds", inv.odds_problems(rollable, tally))
                odds = inv.frequency_problems(
                    rollable, tally, mode.exact_ways, mode.samples, mode.sampled
                )
                problems += tagged("odds", odds)
        if rng.random() < 0.2:
            problems += tagged("hidden order", hidden_order_problems(enc, rng, tally))
        if rng.random() < 0.1:  # something never offered: refused, and nothing changes
            _, refused = inv.perform_or_refuse(enc, Action("no-such-action", None, {}), tally)
            problems += tagged("refusals", refused)
        rng.shuffle(actions)
        for action in actions[:TRIES]:  # random offered values may not fit together: try again
            cursor = enc.cursor
            before = enc.copy()
            done, refused = inv.perform_or_refuse(enc, action, tally)
            problems += tagged("refusals", refused)
            preview = previews.get(id(action))
            if not done:
                if (
                    preview is not None
                    and preview.allowed
                    and refused == []
                    and cursor == enc.cursor
                ):
                    problems.append(("forms", f"{action} previews as allowed, then is refused"))
                continue
            if preview is not None:
                tally.checks += 1
                if not preview.allowed:
                    problems.append(
                        ("previews", f"{action} was done, its preview: {preview.reason}")
                    )
                problems += tagged("rolls", inv.roll_problems(enc, preview, cursor, tally))
                if enc.log[cursor].rolls and tally.faces.actions < mode.face_actions:
                    found = faces.face_problems(
                        before, action, preview, mode.face_ways, tally.faces
                    )
                    problems += tagged("faces", found)
            break
        if rng.random() < 0.1 and enc.can_undo:
            enc.undo()
            if rng.random() < 0.5:
                enc.redo()
    problems += tagged("steps", inv.step_bound_problems(enc, tally))
    try:
        assert_replays_exactly(enc)
        tally.checks += 1
    except AssertionError as exc:
        problems.append(("replay", f"save and load do not replay exactly: {exc}"))
    return problems


def run(ruleset_id: str, which: str, mode: Mode, tally: inv.Tally) -> list[str]:
    """Every game of one start; the problems found, each once, with its first game."""
    found: dict[str, Problem] = {}
    with manifests.test_only_registered():
        for game in range(mode.games):
            seed = 1000 * game + starts(ruleset_id).index(which)
            rng = random.Random(f"{ruleset_id}/{which}/{seed}")
            enc = start(ruleset_id, which, seed)
            for family, text in play(enc, rng, mode, tally):
                found.setdefault(f"{family}: {text[:50]}", (family, f"game {game}: {text}"))
    return list(found.values())


def main() -> int:
    """Print each ruleset's figures in the long mode (or the fast one with ``--fast``)."""
    mode = FAST if "--fast" in sys.argv else LONG_MODE
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    failed = 0
    print(f"{'ruleset':22} {'states':>7} {'actions':>7} {'refused':>7} {'checks':>8} {'odds':>5} "
          f"{'exact':>5} {'rolled':>6} {'seconds':>7} {'cpu':>5}  problems")  # fmt: skip
    for ruleset_id in manifests.every_id():
        if only and ruleset_id not in only:
            continue
        tally = inv.Tally()
        began, cpu = time.perf_counter(), time.process_time()
        problems = [p for which in starts(ruleset_id) for p in run(ruleset_id, which, mode, tally)]
        took, used = time.perf_counter() - began, time.process_time() - cpu
        failed += bool(problems)
        print(f"{ruleset_id:22} {tally.states:7} {tally.actions:7} {tally.refusals:7} "
              f"{tally.checks:8} {tally.rollables:5} {tally.exact:5} {tally.sampled:6} "
              f"{took:7.1f} {used:5.1f}  {len(problems)}")  # fmt: skip
        f = tally.faces
        print(
            f"    face by face: {f.actions} actions checked, {f.combinations} face "
            f"combinations ({f.sampled} actions sampled), {f.outcomes} outcomes compared, "
            f"{f.split} combinations not as previewed"
        )
        for kind, n in sorted(f.kinds.items()):
            print(f"    face by face: {n} actions: {kind}")
        for family, text in problems:
            print(f"    {family}: {text}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
