"""Encounters for the ``combat-speed-phase`` tests and demo, built through the public API.

``e2_encounter`` sets up the spec's worked example E-2 (the guard, CS 3, chasing
Derek, CS 2, along a straight line, s0 = 19 hexes apart, I-3); ``play_e2``
plays its three phases half-phase by half-phase. Run
``python tests/rules/combat_speed_phase_fixtures.py`` to rewrite the app's demo
``static/demos/combat-speed-phase.json`` (a test checks it is current).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import demo_files

from hexcombat import Action, Encounter, Hex
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import distance
from hexcombat.layout import from_offset
from hexcombat.rulesets.combat_speed_phase import CombatSpeedPhase
from hexcombat.validation import Json

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "static" / "demos" / "combat-speed-phase.json"
RULESET = "combat-speed-phase"

COL = 2
"""Both figures stand in one column of the flat-topped board: north is straight up it."""
GUARD_ROW, DEREK_ROW = 21, 2
"""s0 = 21 - 2 = 19 (derived, I-3)."""


def ruleset(enc: Encounter) -> CombatSpeedPhase:
    """The encounter's ruleset, typed."""
    assert isinstance(enc.ruleset, CombatSpeedPhase)
    return enc.ruleset


def row(r: int) -> str:
    """The hex of row ``r`` of the chase's column, as a parameter."""
    return str(from_offset(COL, r))


def figure(
    enc: Encounter,
    fid: str,
    name: str,
    side: str,
    at: Hex,
    facing: int,
    *,
    cs: int,
    weapon: str = "Short sword",
    **stats: Json,
) -> Figure:
    """A figure with Combat Speed ``cs`` and one weapon of the data table."""
    rs = ruleset(enc)
    f = rs.new_figure(fid, name, side, at, facing)
    f.stats.update(cs=cs, **stats)
    f.equipment.append(rs.item(weapon))
    return f


def e2_encounter(options: Mapping[str, Json] | None = None, *, seed: int = 2) -> Encounter:
    """E-2: the guard (CS 3, short sword, facing north) 19 hexes south of Derek (CS 2,
    hand-and-a-half sword, facing south), on an open board of 5 x 24 hexes."""
    enc = Encounter.new(
        RULESET, 5, 24, name="The guard chases Derek", options=dict(options or {}), seed=seed
    )
    guard = figure(enc, "guard", "The guard", "Bandits", from_offset(COL, GUARD_ROW), 0, cs=3)
    derek = figure(
        enc,
        "derek",
        "Derek",
        "Derek and Val",
        from_offset(COL, DEREK_ROW),
        3,
        cs=2,
        weapon="Hand-and-a-half sword",
    )
    return enc.with_figure(guard).with_figure(derek)


def act(enc: Encounter, kind: str, figure_id: str | None = None, **params: Json) -> list[Event]:
    """Perform one action (nothing it does rolls dice); once only figures with no hex this
    half-phase are left to plan (asked before the speeds are shown, C-7), they stay put."""
    events = enc.perform(Action(kind, figure_id, params))
    if kind == "plan_half":
        events += stay_put(enc)
    return events


def stay_put(enc: Encounter) -> list[Event]:
    """The plans 'stay' of the figures with no hex this half-phase, when only they are left."""
    asked = {fid: s for fid in enc.state.figures for s in enc.legal_actions(fid)}
    if not asked or any([p.name for p in s.params] != ["to"] for s in asked.values()):
        return []
    events: list[Event] = []
    for fid in asked:
        position = str(enc.state.figures[fid].position)
        events += enc.perform(Action("plan_half", fid, {"to": position}))
    return events


def next_step(enc: Encounter) -> list[Event]:
    """End the current step; a figure with no hex this half-phase that is still asked for
    a plan (before the speeds are shown, C-7) stays put first."""
    events = stay_put(enc) if enc.state.step.id == "move" else []
    if not events or any(s.kind == "next_step" for s in enc.legal_actions()):
        events += act(enc, "next_step")
    return events


def declare(enc: Encounter, **speeds: int) -> list[Event]:
    """Every figure's N, then the step ends (revealed when the last is in)."""
    events = []
    for fid, n in speeds.items():
        events += act(enc, "declare_speed", fid, n=n)
    return events + next_step(enc)


def half(enc: Encounter, **plans: str | Mapping[str, Json]) -> list[Event]:
    """Every mover's plan for this half-phase (a hex, or plan params), then every other figure
    still to plan stays put (before the speeds are shown, N = 0 plans too, C-7); the moves
    run when the last is in."""
    events = []
    for fid, plan in plans.items():
        params = {"to": plan} if isinstance(plan, str) else dict(plan)
        events += act(enc, "plan_half", fid, **params)
    for fid, f in enc.state.figures.items():
        if fid not in plans and "plan_half" in kinds(enc, fid):
            events += act(enc, "plan_half", fid, to=str(f.position))
    return events


def separation(enc: Encounter) -> int:
    """Hex distance between the guard and Derek (C-17)."""
    s = enc.state
    return distance(s.figures["guard"].position, s.figures["derek"].position)


E2_PHASES: list[tuple[dict[str, int], list[dict[str, str | dict[str, Json]]]]] = [
    (
        {"guard": 1, "derek": 1},
        [{"guard": row(19), "derek": row(2)}, {"guard": row(18), "derek": row(3)}],
    ),
    (
        {"guard": 3, "derek": 1},
        [{"guard": row(13), "derek": row(4)}, {"guard": row(9), "derek": row(5)}],
    ),
    (
        {"guard": 1, "derek": 1},
        [
            {"guard": row(7), "derek": {"to": row(5), "motion": "B"}},
            {"guard": row(6), "derek": row(4)},
        ],
    ),
]
"""Each phase of E-2: the declared N, then both halves' plans (Derek's phase-3 change in H1)."""
E2_SEPARATIONS = [17, 15, 9, 4, 2, 2]
"""s after every half-phase (spec E-2: 19 -> 17 -> 15 -> 9 -> 4 -> 2 -> 2)."""


def play_e2(enc: Encounter, *, upto_phase: int = 3) -> list[int]:
    """Play E-2's phases; returns the separation after every half-phase. Ends in the combat
    step of the last phase played."""
    seen = []
    for number, (speeds, halves) in enumerate(E2_PHASES[:upto_phase], start=1):
        if number > 1:
            next_step(enc)  # end the last phase's combat step
        declare(enc, **speeds)
        for i, plans in enumerate(halves):
            half(enc, **plans)
            seen.append(separation(enc))
            next_step(enc)
            assert enc.state.step.id == ("move" if i == 0 else "combat")
    return seen


def kinds(enc: Encounter, fid: str | None) -> list[str]:
    """The kinds of action offered now."""
    return [a.kind for a in enc.legal_actions(fid)]


def choices(enc: Encounter, fid: str, kind: str, param: str) -> list[Json]:
    """The values offered for one parameter of one action (every ``when``)."""
    spec = next(a for a in enc.legal_actions(fid) if a.kind == kind)
    return [c.value for c in spec.param(param).choices]


def last(enc: Encounter, kind: str, fid: str | None = None) -> Event:
    """The most recent event of ``kind`` (of figure ``fid`` when given)."""
    return next(
        e for e in reversed(enc.events) if e.kind == kind and (fid is None or e.figure == fid)
    )


def arena(
    options: Mapping[str, Json] | None = None, *, width: int = 9, height: int = 9
) -> Encounter:
    """An open board for rule tests."""
    return Encounter.new(RULESET, width, height, name="Arena", options=dict(options or {}))


def add(
    enc: Encounter,
    fid: str,
    at: tuple[int, int],
    *,
    side: str,
    cs: int = 3,
    facing: int = 0,
    weapon: str = "Short sword",
    **stats: Json,
) -> Encounter:
    """The encounter with one more figure at offset cell ``at``."""
    f = figure(
        enc, fid, fid.capitalize(), side, from_offset(*at), facing, cs=cs, weapon=weapon, **stats
    )
    return enc.with_figure(f)


def armed_four(seed: int) -> Encounter:
    """Two against two, armed and face to face, strikes resolved by the borrowed roll (C-1's
    alternative): the conformance suite's start for this ruleset's combat."""
    enc = arena({"csp.combat_resolver": "skirmish"}, width=10, height=10).with_setup(seed=seed)
    enc = add(enc, "a1", (4, 5), side="A", cs=2, weapon="Hand-and-a-half sword")
    enc = add(enc, "a2", (5, 5), side="A", cs=2)
    enc = add(enc, "b1", (4, 4), side="B", cs=2, facing=3)
    return add(enc, "b2", (5, 4), side="B", cs=2, facing=3, weapon="Hand-and-a-half sword")


def run_phase(enc: Encounter, speeds: Mapping[str, int], *halves: Mapping[str, Json]) -> None:
    """Declare, then each half's plans (figures not named stay put), to the combat step."""
    declare(enc, **speeds)
    for h in range(2):
        plans = dict(halves[h]) if h < len(halves) else {}
        for fid in enc.state.figures:
            if "plan_half" in kinds(enc, fid):
                plan = plans.get(fid, str(enc.state.figures[fid].position))
                params = {"to": plan} if isinstance(plan, str) else dict(plan)  # type: ignore[arg-type]
                act(enc, "plan_half", fid, **params)
        next_step(enc)
    assert enc.state.step.id == "combat"


def demo() -> Encounter:
    """The app's demo: E-2 with the whole chase in the log and the cursor at the start."""
    enc = e2_encounter()
    play_e2(enc)
    notes = (
        "The combat-speed-phase rules' own worked example: the guard (CS 3) runs Derek "
        "(CS 2) down over three phases, with speeds declared "
        "in secret, both half-phases of every phase (first half rounded up), the guard "
        "breaking into a run at 3 x CS after a phase at Combat Speed, slowing again, and "
        "Derek stepping back so that his hand-and-a-half sword (reach 2) reaches and the "
        "guard's short sword (reach 1) does not. The text stops there, and so does this "
        "ruleset by default (movement only, C-1; the GM may rule strikes with the option "
        "'Who resolves a strike'). The starting distance (19) is derived (I-3); weapon "
        "damage is a placeholder."
    )
    return demo_files.rewound(enc, notes)


def demo_text() -> str:
    """The demo document as written to ``static/demos/combat-speed-phase.json``."""
    return demo_files.text(demo())


if __name__ == "__main__":
    demo_files.write(DEMO, demo())
