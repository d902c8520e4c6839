"""Encounters for the ``strike-chance-pulse`` tests and demo, built through the public API.

``duel`` puts the spec's constructed E-2 pair on an open board: Ann (Broadsword,
Base 50, MD 14, Rank 3 -> SC 76) facing Bo (AG 13, Large Round Shield at Rank 3
-> DR 25), so a Melee attack through Bo's Front hex needs 51 (E-1, E-2 item 1).

Run ``python tests/rules/strike_chance_pulse_fixtures.py`` to rewrite the app's demo document
``static/demos/strike-chance-pulse.json`` (a test checks it is current).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import demo_files

from hexcombat import Action, Encounter, Hex
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import neighbor
from hexcombat.rulesets.strike_chance_pulse import StrikeChancePulse
from hexcombat.validation import Json

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "static" / "demos" / "strike-chance-pulse.json"
RULESET = "strike-chance-pulse"


def ruleset(enc: Encounter) -> StrikeChancePulse:
    """The encounter's ruleset, typed."""
    assert isinstance(enc.ruleset, StrikeChancePulse)
    return enc.ruleset


def arena(
    width: int = 10, height: int = 8, options: Mapping[str, Json] | None = None, seed: int = 1
) -> Encounter:
    """An empty open board."""
    enc = Encounter.new(RULESET, width, height, name="Strike Chance arena", seed=seed)
    return enc.with_options(dict(options or {})) if options else enc


def make(
    enc: Encounter,
    fid: str,
    name: str,
    side: str,
    at: Hex,
    facing: int,
    *,
    items: Sequence[str] = (),
    ranks: Mapping[str, int] | None = None,
    **stats: Json,
) -> Encounter:
    """Add a figure with prepared ``items`` (weapons or shields), Ranks and stats."""
    rs = ruleset(enc)
    f: Figure = rs.new_figure(fid, name, side, at, facing)
    f.stats.update(stats)
    f.skills.update(ranks or {})
    f.equipment += [rs.item(i) for i in items]
    return enc.with_figure(f)


def facing_to(a: Hex, b: Hex) -> int:
    """The direction from ``a`` to its neighbour ``b``."""
    for d in range(6):
        if neighbor(a, d) == b:
            return d
    raise ValueError(f"{a} and {b} are not neighbours")


ANN_AT = Hex(3, 3)
BO_AT = neighbor(ANN_AT, 1)


def duel(options: Mapping[str, Json] | None = None, seed: int = 1, **bo: Json) -> Encounter:
    """E-1/E-2: Ann (SC 76) faces Bo (DR 25) across a hexside; Bo faces Ann."""
    enc = arena(options=options, seed=seed)
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        ANN_AT,
        1,
        items=["Broadsword"],
        ranks={"Broadsword": 3},
        md=14,
        ag=12,
        ps=14,
    )
    stats: dict[str, Json] = {"ag": 13, "md": 12, "ps": 12}
    stats.update(bo)
    return make(
        enc,
        "bo",
        "Bo",
        "Red",
        BO_AT,
        4,
        items=["Broadsword", "Large Round Shield"],
        ranks={"Broadsword": 2, "Large Round Shield": 3},
        **stats,
    )


RIDE_FROM = Hex(2, 4)
"""Where the mounted encounters start (on a 12 x 10 board, facing 1)."""


def ahead(n: int) -> Hex:
    """The hex ``n`` steps straight ahead of :data:`RIDE_FROM` along direction 1."""
    at = RIDE_FROM
    for _ in range(n):
        at = neighbor(at, 1)
    return at


def riding(
    items: Sequence[str],
    ranks: Mapping[str, int],
    bo_at: int = 4,
    footprint: tuple[Hex, ...] = (),
) -> Encounter:
    """Ann (AG 12, MD 12, ``items`` at ``ranks``) rides Horse (TMR 5) at :data:`RIDE_FROM`
    facing 1; Bo ``bo_at`` hexes ahead; initiative rolled (Horse, Ann, Bo)."""
    enc = arena(12, 10)
    enc = make(enc, "horse", "Horse", "Blue", RIDE_FROM, 1, tmr=5, humanoid=False)
    horse = enc.setup_figure("horse")
    horse.footprint = footprint
    enc = enc.with_figure(horse)
    enc = make(enc, "ann", "Ann", "Blue", RIDE_FROM, 1, items=items, ranks=ranks, ag=12, md=12)
    ann = enc.setup_figure("ann")
    ann.mounted_on = "horse"
    enc = enc.with_figure(ann)
    enc = make(enc, "bo", "Bo", "Red", ahead(bo_at), 4, ag=10)
    initiative(enc, [10, 9, 8])
    return enc


def act(enc: Encounter, kind: str, figure: str | None = None, **params: Json) -> list[Event]:
    """Perform an action with the encounter's seeded dice."""
    return enc.perform(Action(kind, figure, params))


def roll(
    enc: Encounter, faces: Sequence[int], kind: str, figure: str | None = None, **params: Json
) -> list[Event]:
    """Perform an action with typed dice."""
    return enc.perform(Action(kind, figure, params), faces=list(faces))


def initiative(enc: Encounter, faces: Sequence[int]) -> list[Event]:
    """End the initiative step with typed D10s (one per living figure, set-up order)."""
    assert enc.state.step.id == "initiative"
    return roll(enc, faces, "next_step")


def kinds(enc: Encounter, fid: str | None) -> list[str]:
    """The action kinds offered to ``fid`` now."""
    return [s.kind for s in enc.legal_actions(fid)]


def of(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if e.kind == kind]


# ---- the signature example and the app's demo ------------------------------------------

CY_AT = Hex(8, 2)
DI_AT = Hex(6, 2)


def signature() -> Encounter:
    """Ann and Bo engaged (E-2's numbers); Cy, not engaged, shoots at Bo past Di."""
    enc = duel(seed=7)
    enc = make(
        enc, "cy", "Cy", "Blue", CY_AT, 5, items=["Short Bow"], ranks={"Short Bow": 2}, md=12, ag=12
    )
    enc = make(enc, "di", "Di", "Blue", DI_AT, 0, items=["Dagger"], ag=12)
    return enc.renamed("Strike Chance: a parry, then a shot past a friend")


def play_signature(enc: Encounter) -> None:
    """Pulse 1 with typed dice: initiative, a parried Melee attack, a strike, a shot."""
    initiative(enc, [8, 3, 7, 1])  # Ann 10, Bo 5, Cy 9, Di 3: Ann and Bo engaged first
    roll(enc, [81], "melee", "ann", weapon="Broadsword", special="none", target="bo")
    roll(enc, [5], "parry", "bo")  # 5 + 3 - 3 = 5: Ann is disarmed
    roll(enc, [40, 4], "melee", "bo", weapon="Broadsword", special="none", target="ann")
    roll(enc, [], "next_step")
    roll(enc, [90, 20, 3], "fire", "cy", weapon="Short Bow", special="none", target="bo")
    roll(enc, [], "pass", "di")
    roll(enc, [], "next_step")


def demo() -> Encounter:
    """The app's demo: the signature Pulse in the log with the cursor at the start."""
    enc = signature()
    play_signature(enc)
    notes = (
        "One Pulse: Ann and Bo are engaged and act first (SCP-6). "
        "Ann's Broadsword (MSC 51) rolls 81, 30 or more above: Bo is asked whether "
        "to parry and rolls 5 on the D10 table: Ann is disarmed (SCP-32...SCP-34). Bo strikes "
        "back (MSC 58). Then Cy fires at Bo: the arrow meets Di first (MSC 48, missed) and "
        "hits Bo from behind (MSC 47, SCP-12, SCP-39). Weapon numbers are placeholders (A-15)."
    )
    return demo_files.rewound(enc, notes)


def demo_text() -> str:
    """The demo document as written to ``static/demos/strike-chance-pulse.json``."""
    return demo_files.text(demo())


if __name__ == "__main__":
    demo_files.write(DEMO, demo())
