"""Encounters for the ``two-action-2d10`` tests and demo, built through the public API.

``duel`` puts Ann (axe, parry 3) and Bo (spear, skill 4) face to face. The
signature round (``play_signature``): both declare two actions in secret, Bo
combines both on one spear attack (3d10 keep two: 3, 9, 6 -> 15 + 4 = 19, the
spec's test vector 1); the Spear strikes before the Axe (TA-14); Ann parries
(12, the higher of her passive 12 and her roll); the surplus 7 meets the first
threshold: 2d8 damage, a torso hit and a failed Health save cost Ann the rest of
her actions, so her later Axe blow never comes (TA-13).

Run ``python tests/rules/two_action_2d10_fixtures.py`` to rewrite the app's demo document
``static/demos/two-action-2d10.json`` (a test checks it is current).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import demo_files

from hexcombat import Action, Encounter, Hex
from hexcombat.events import Event
from hexcombat.geometry import neighbor
from hexcombat.validation import Json

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "static" / "demos" / "two-action-2d10.json"
RULESET = "two-action-2d10"
ANN_AT = Hex(3, 3)
BO_AT = neighbor(ANN_AT, 1)


def arena(
    width: int = 10, height: int = 8, options: Mapping[str, Json] | None = None, seed: int = 1
) -> Encounter:
    """An empty open board."""
    enc = Encounter.new(RULESET, width, height, name="Two-action arena", seed=seed)
    return enc.with_options(dict(options)) if options else enc


def make(
    enc: Encounter, fid: str, name: str, side: str, at: Hex, facing: int, **stats: Json
) -> Encounter:
    """Add a figure with its fields at their defaults, changed by ``stats``."""
    f = enc.ruleset.new_figure(fid, name, side, at, facing)
    f.stats.update(stats)
    return enc.with_figure(f)


def duel(options: Mapping[str, Json] | None = None, seed: int = 1, **bo: Json) -> Encounter:
    """Ann (axe, skill 4, parry 3, passive 12) faces Bo (spear, skill 4) across a hexside."""
    enc = make(arena(options=options, seed=seed), "ann", "Ann", "Blue", ANN_AT, 1, weapon="axe")
    stats: dict[str, Json] = {"weapon": "spear"}
    stats.update(bo)
    return make(enc, "bo", "Bo", "Red", BO_AT, 4, **stats)


def act(enc: Encounter, kind: str, figure: str | None = None, **params: Json) -> list[Event]:
    """Perform an action with the encounter's seeded dice."""
    return enc.perform(Action(kind, figure, params))


def roll(
    enc: Encounter, faces: Sequence[int], kind: str, figure: str | None = None, **params: Json
) -> list[Event]:
    """Perform an action with typed dice."""
    return enc.perform(Action(kind, figure, params), faces=list(faces))


def declare(
    enc: Encounter,
    fid: str,
    first: str,
    second: str,
    *,
    target: str = "",
    guard: str = "",
    combine: bool = False,
    style: str = "",
) -> list[Event]:
    """Declare two actions (hidden until everyone has, TA-27)."""
    params: dict[str, Json] = {"first": first, "second": second}
    if combine:
        params["combine"] = True
    for key, value in (("target", target), ("guard", guard), ("style", style)):
        if value:
            params[key] = value
    return act(enc, "declare", fid, **params)


def stay_all(enc: Encounter) -> None:
    """Everyone who still may stays put in the movement step."""
    for f in list(enc.state.figures):
        if "stay" in kinds(enc, f):
            act(enc, "stay", f, facing=enc.state.figures[f].facing)


def to_step(enc: Encounter, step: str) -> list[Event]:
    """End steps (everyone staying in movement) until ``step``."""
    events: list[Event] = []
    for _ in range(8):
        if enc.state.step.id == step:
            return events
        if enc.state.step.id == "movement":
            stay_all(enc)
        events += act(enc, "next_step")
    raise AssertionError(f"never reached {step}; at {enc.state.step.id}")


def kinds(enc: Encounter, fid: str | None) -> list[str]:
    """The action kinds offered to ``fid`` now."""
    return [s.kind for s in enc.legal_actions(fid)]


def of(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if e.kind == kind]


# ---- the signature round and the app's demo --------------------------------------------


def signature() -> Encounter:
    """The duel named for the demo."""
    return duel(seed=12).renamed("Two actions: a combined spear thrust, a parry, a lost blow")


def play_signature(enc: Encounter) -> list[Event]:
    """One round with typed dice (see the module docstring); returns its events."""
    events = declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    events += declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    events += to_step(enc, "combat")
    events += roll(enc, [3, 9, 6], "strike", "bo")  # 3d10kh2 15 + 4 = 19: Ann is asked
    events += roll(enc, [2, 3, 4, 5, 5, 6, 7], "parry", "ann")  # parry, 2d8, location, save
    events += act(enc, "next_step")
    return events


def demo() -> Encounter:
    """The app's demo: the signature round in the log with the cursor at the start."""
    enc = signature()
    play_signature(enc)
    notes = (
        "One round. Ann (axe) declares attack + parry; Bo (spear) "
        "puts both actions into one attack: 3d10 keep the best two (TA-5). The Spear strikes "
        "before the Axe (TA-14): Bo rolls 3, 9, 6 -> 15 + 4 = 19; Ann parries: her roll 9 + 3 "
        "= 12 meets her passive 12 (D-2). Surplus 7 meets the first threshold (D-5): 2d8 "
        "damage (9), a torso hit and a failed Health save: Ann loses her remaining actions, so "
        "her Axe blow is lost (TA-11, TA-13). Numbers are the spec's placeholders."
    )
    return demo_files.rewound(enc, notes)


def demo_text() -> str:
    """The demo document as written to ``static/demos/two-action-2d10.json``."""
    return demo_files.text(demo())


if __name__ == "__main__":
    demo_files.write(DEMO, demo())
