"""Encounters for the ``fig-percentile`` tests and demo, built through the public API.

``e3_encounter`` sets up the spec's worked example E-3 (Barclay the Black vs
Brie the Oaken, 12 hexes between them on open ground); ``play_e3`` plays it
round by round. The distance convention of the narrative is converted here
(G-24, I-8): the text counts the hexes *between* the figures, ``gap = d - 1``.

Run ``python tests/rules/fig_percentile_fixtures.py`` to rewrite the app's
demo document ``static/demos/fig-percentile.json`` (a test checks it is current).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import demo_files

from hexcombat import Action, Encounter, Hex
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import distance, neighbor
from hexcombat.layout import from_offset, to_offset
from hexcombat.rulesets.fig_percentile import FigPercentile
from hexcombat.validation import Json

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "static" / "demos" / "fig-percentile.json"

Cell = tuple[int, int] | tuple[int, int, int]
"""An offset cell ``(col, row)``, optionally with a facing."""

WIDTH, HEIGHT = 20, 14
BARCLAY_START = from_offset(2, 6)
BRIE_START = from_offset(15, 6)

# Where each figure goes, round by round (offset col, row), chosen so that every
# statement of the narrative holds: gaps 12 -> 8 -> 0 -> 5 -> 4 -> 1.
BARCLAY_PLAN: dict[int, tuple[int, ...]] = {1: (3, 6), 2: (6, 6), 3: (6, 7), 4: (7, 9)}
BRIE_PLAN: dict[int, tuple[int, ...]] = {1: (12, 6), 2: (7, 6, 4), 3: (7, 11)}

SCENERY = {
    "heavy_woods": [(4, 1), (5, 1), (5, 2), (6, 2), (13, 11), (14, 11), (14, 12)],
    "hill": [(10, 1), (11, 1), (10, 2)],
    "marsh": [(2, 11), (3, 11), (3, 12), (4, 12)],
    "stream": [(17, 2), (17, 3), (18, 3), (18, 4)],
    "deep_snow": [(0, 0), (1, 0)],
    "structure": [(18, 10), (19, 10), (18, 11)],
}


def hexes(cells: Sequence[tuple[int, int]]) -> list[Hex]:
    """Offset ``(col, row)`` cells as hexes."""
    return [from_offset(c, r) for c, r in cells]


def ruleset(enc: Encounter) -> FigPercentile:
    """The encounter's ruleset, typed."""
    assert isinstance(enc.ruleset, FigPercentile)
    return enc.ruleset


def barclay(enc: Encounter, dodge_skill: int = 0) -> Figure:
    """Barclay the Black: FIG 29, Pole Arm 38, beaked axe not yet drawn, facing SE."""
    rs = ruleset(enc)
    f = rs.new_figure("barclay", "Barclay the Black", "Black", BARCLAY_START, 2)
    f.stats.update(fig=29, dodge_skill=dodge_skill)
    f.skills.update({"Pole Arm": 38})
    f.equipment.append(rs.item("Beaked axe"))
    return f


def brie(enc: Encounter) -> Figure:
    """Brie the Oaken: FIG 52, loaded crossbow in hand (74), staff (97), a 60-yard spell.

    The spell's skill (Spellcasting 60) is a placeholder: the text does not give it.
    """
    rs = ruleset(enc)
    f = rs.new_figure("brie", "Brie the Oaken", "Oaken", BRIE_START, 5)
    f.stats.update(fig=52)
    f.skills.update({"Crossbow": 74, "Staff": 97, "Spellcasting": 60})
    f.equipment += [
        rs.item("Crossbow", state="ready", loaded=True),
        rs.item("Staff"),
        rs.item("Spark"),
    ]
    return f


def e3_encounter(
    options: Mapping[str, Json] | None = None,
    *,
    scenery: bool = False,
    dodge_skill: int = 0,
    seed: int = 3,
) -> Encounter:
    """The E-3 set-up: open field, 12 hexes between them (hex distance 13)."""
    enc = Encounter.new(
        "fig-percentile",
        WIDTH,
        HEIGHT,
        name="Barclay the Black vs Brie the Oaken",
        options=dict(options or {}),
        seed=seed,
    )
    if scenery:
        for terrain, cells in SCENERY.items():
            enc = enc.painted(hexes(cells), terrain)
    return enc.with_figure(barclay(enc, dodge_skill)).with_figure(brie(enc))


def act(enc: Encounter, kind: str, figure: str | None = None, **params: Json) -> list[Event]:
    """Perform one action with seeded dice (for actions that roll nothing)."""
    return enc.perform(Action(kind, figure, params))


def roll(
    enc: Encounter, faces: Sequence[int], kind: str, figure: str, **params: Json
) -> list[Event]:
    """Perform one action with the dice faces given (scripted dice)."""
    return enc.perform(Action(kind, figure, params), faces=list(faces))


def next_step(enc: Encounter) -> list[Event]:
    """End the current step."""
    return enc.perform(Action("next_step"))


def goto(enc: Encounter, figure: str, cell: tuple[int, ...], facing: int | None = None) -> None:
    """Plan a move to an offset cell ``(col, row)`` or ``(col, row, facing)``."""
    params: dict[str, Json] = {"to": str(from_offset(cell[0], cell[1]))}
    if len(cell) == 3:
        facing = cell[2]
    if facing is not None:
        params["facing"] = facing
    enc.perform(Action("plan_move", figure, params))


def forward(enc: Encounter, figure: str, n: int = 1) -> tuple[int, int]:
    """The offset cell ``n`` hexes straight ahead of a figure (a move that enters hexes: a
    figure that enters none has stopped, G-11)."""
    f = enc.state.figures[figure]
    h = f.position
    for _ in range(n):
        h = neighbor(h, f.facing)
    return to_offset(h)


def beside(figure: str, other: str) -> Callable[[Encounter], Cell]:
    """A move for :func:`play_round`: the first hex ``figure`` can reach this round, other
    than its own, that is next to ``other`` (so that it enters a hex: G-11)."""

    def pick(enc: Encounter) -> Cell:
        spec = next(a for a in enc.legal_actions(figure) if a.kind == "plan_move")
        here, there = enc.state.figures[figure].position, enc.state.figures[other].position
        for c in spec.param("to").choices:
            h = Hex.parse(str(c.value))
            if h != here and distance(h, there) == 1:
                return to_offset(h)
        raise AssertionError(f"{figure} cannot reach a hex next to {other}")

    return pick


def gap(enc: Encounter) -> int:
    """The narrative's "hexes between them" (G-24): hex distance - 1."""
    s = enc.state
    return distance(s.figures["barclay"].position, s.figures["brie"].position) - 1


def e3_round_1_to_actions(enc: Encounter) -> None:
    """Round 1 up to its action step: both start running, Barclay draws his axe, both keep on."""
    act(enc, "declare", "barclay", mode="accelerate", ready="Beaked axe")
    act(enc, "declare", "brie", mode="accelerate")
    next_step(enc)
    goto(enc, "barclay", BARCLAY_PLAN[1])
    goto(enc, "brie", BRIE_PLAN[1])
    next_step(enc)
    act(enc, "stop_or_continue", "barclay", choice="continue")
    act(enc, "stop_or_continue", "brie", choice="continue")
    next_step(enc)


def e3_round_1(enc: Encounter, crossbow: int = 43, dodge: int = 80) -> None:
    """Round 1: both start running; Barclay draws his axe; Brie shoots (D100 face ``crossbow``).

    Barclay, accelerating, may dodge (FP-10): he chooses to (G-3, G-19), picks the bolt and
    fails (``dodge``, a placeholder roll: the text only says the bolt "carves a navel in
    Barclay's stomach"). Without a dodge skill he takes no action.
    """
    e3_round_1_to_actions(enc)
    if "dodge" in kinds(enc, "barclay"):
        act(enc, "dodge", "barclay")
    elif kinds(enc, "barclay"):
        act(enc, "hold", "barclay")
    act(enc, "attack", "brie", target="barclay")
    answer_prompts(enc, {"brie": [crossbow], "barclay": [dodge]})
    next_step(enc)


def e3_round_2(enc: Encounter, axe: int = 60, staff: int = 70) -> None:
    """Top speed; Brie drops the crossbow and draws the staff; they meet and both miss."""
    act(enc, "declare", "barclay", mode="top")
    act(enc, "declare", "brie", mode="top", ready="Staff", drop=True)
    next_step(enc)
    goto(enc, "barclay", BARCLAY_PLAN[2])
    goto(enc, "brie", BRIE_PLAN[2])
    next_step(enc)
    act(enc, "stop_or_continue", "barclay", choice="stop")
    act(enc, "stop_or_continue", "brie", choice="continue")
    next_step(enc)
    act(enc, "attack", "barclay", target="brie")  # hidden until both have chosen (G-19)
    act(enc, "attack", "brie", target="barclay")
    answer_prompts(enc, {"barclay": [axe], "brie": [staff]})
    next_step(enc)


def e3_round_3_moves(enc: Encounter) -> None:
    """Barclay accelerates again; Brie turns away and runs on (up to the stop step)."""
    act(enc, "declare", "barclay", mode="accelerate")
    act(enc, "declare", "brie", mode="top")
    next_step(enc)
    goto(enc, "barclay", BARCLAY_PLAN[3])
    goto(enc, "brie", BRIE_PLAN[3])
    next_step(enc)


def e3_round_3_rest(enc: Encounter) -> None:
    """Brie stops and begins her spell; nothing more happens this round."""
    act(enc, "stop_or_continue", "barclay", choice="continue")
    act(enc, "stop_or_continue", "brie", choice="stop", spell="Spark")
    next_step(enc)
    next_step(enc)


def e3_round_4(enc: Encounter, spell: int = 20) -> None:
    """Barclay sprints to 1 hex between them; Brie stands and releases the spell."""
    act(enc, "declare", "barclay", mode="top")
    act(enc, "declare", "brie", mode="stationary")
    next_step(enc)
    goto(enc, "barclay", BARCLAY_PLAN[4])
    next_step(enc)
    act(enc, "stop_or_continue", "barclay", choice="continue")
    next_step(enc)
    act(enc, "release_spell", "brie", target="barclay")  # the only figure that can act
    answer_prompts(enc, {"brie": [spell]})


def answer_prompts(
    enc: Encounter,
    faces: Mapping[str, Sequence[int]] | None = None,
    picks: Mapping[str, str] | None = None,
) -> list[Event]:
    """Answer every open prompt in turn (G-3, G-19): a dodger picks the attack in ``picks``
    (else the first offered); a roll uses the figure's ``faces`` (else the seeded dice)."""
    events: list[Event] = []
    while (prompt := enc.state.prompt) is not None:
        spec = prompt.answers[0]
        fid = prompt.figure
        if spec.kind == "pick_dodge":
            attacker = (picks or {}).get(fid) or spec.param("attacker").choices[0].value
            events += enc.perform(Action("pick_dodge", fid, {"attacker": attacker}))
            continue
        given = (faces or {}).get(fid)
        events += enc.perform(Action(spec.kind, fid), faces=list(given) if given else None)
    return events


def strike(
    enc: Encounter, figure: str, faces: Sequence[int] | None = None, kind: str = "attack",
    **params: Json,
) -> list[Event]:  # fmt: skip
    """In the action step, ``figure`` attacks (or releases its spell) and every other figure
    that must choose takes no action; the roll uses ``faces``. Returns the events from the
    roll on (the attack first)."""
    act(enc, kind, figure, **params)
    for fid in enc.state.figures:
        if fid != figure and "hold" in kinds(enc, fid):
            act(enc, "hold", fid)
    return answer_prompts(enc, {figure: faces} if faces else None)


def everyone_holds(enc: Encounter) -> None:
    """Every figure still to choose in the action step takes no action (G-19)."""
    for fid in enc.state.figures:
        if "hold" in kinds(enc, fid):
            act(enc, "hold", fid)


def play_e3(enc: Encounter) -> None:
    """Play all four rounds of E-3 (round 4 stops after Brie's spell)."""
    e3_round_1(enc)
    e3_round_2(enc)
    e3_round_3_moves(enc)
    e3_round_3_rest(enc)
    e3_round_4(enc)


# ---- small arenas for rule tests ------------------------------------------------------


def arena(
    options: Mapping[str, Json] | None = None,
    *,
    width: int = 12,
    height: int = 10,
    paint: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> Encounter:
    """An open board with some hexes painted (offset cells per terrain id)."""
    enc = Encounter.new("fig-percentile", width, height, name="Arena", options=dict(options or {}))
    for terrain, cells in (paint or {}).items():
        enc = enc.painted(hexes(cells), terrain)
    return enc


def add(
    enc: Encounter,
    fid: str,
    cell: tuple[int, int],
    *,
    side: str,
    fig: int = 30,
    facing: int = 0,
    skills: Mapping[str, int] | None = None,
    items: Sequence[str] = (),
    ready: str | None = None,
    **stats: Json,
) -> Encounter:
    """The encounter with one more figure; ``ready`` names the weapon in hand."""
    rs = ruleset(enc)
    f = rs.new_figure(fid, fid.capitalize(), side, from_offset(*cell), facing)
    f.stats.update(fig=fig, **stats)
    f.skills.update(skills or {})
    for name in items:
        f.equipment.append(rs.item(name, state="ready" if name == ready else "carried"))
    return enc.with_figure(f)


def play_round(
    enc: Encounter,
    declare: Mapping[str, Mapping[str, Json] | str],
    moves: Mapping[str, Cell | Callable[[Encounter], Cell]] | None = None,
    post: Mapping[str, Mapping[str, Json] | str] | None = None,
) -> None:
    """From a round's declarations to its action step: declare, move, stop-or-continue.

    ``declare`` maps figure ids to a mode or to declare params; ``moves`` to an
    offset cell (optionally with a facing), or to a function of the encounter giving one
    in the movement step (see :func:`beside`); ``post`` to "stop"/"continue" or params.
    Figures not named in ``post`` that must declare keep running.
    """
    assert enc.state.step.id == "declare", enc.state.step.id
    for fid in enc.state.figures:
        if not enc.legal_actions(fid):
            continue
        params = declare.get(fid, "stationary")
        act(enc, "declare", fid, **({"mode": params} if isinstance(params, str) else params))
    next_step(enc)
    for fid, target in (moves or {}).items():
        goto(enc, fid, target(enc) if callable(target) else target)
    next_step(enc)
    for fid in enc.state.figures:
        kinds = [a.kind for a in enc.legal_actions(fid)]
        choice = (post or {}).get(fid)
        if choice is None and "stop_or_continue" not in kinds:
            continue
        params = {"choice": choice or "continue"} if not isinstance(choice, Mapping) else choice
        kind = "stop_or_continue" if "stop_or_continue" in kinds else "begin_spell"
        act(enc, kind, fid, **params)
    next_step(enc)
    assert enc.state.step.id == "act", enc.state.step.id


def end_round(enc: Encounter) -> None:
    """End the action step (and so the round); figures that have not chosen take no action."""
    assert enc.state.step.id == "act"
    everyone_holds(enc)
    answer_prompts(enc)
    next_step(enc)


def kinds(enc: Encounter, fid: str | None) -> list[str]:
    """The kinds of action offered now."""
    return [a.kind for a in enc.legal_actions(fid)]


def choices(enc: Encounter, fid: str, kind: str, param: str) -> list[Json]:
    """The values offered for one parameter of one action."""
    spec = next(a for a in enc.legal_actions(fid) if a.kind == kind)
    return [c.value for c in spec.param(param).choices]


def last(enc: Encounter, kind: str) -> Event:
    """The most recent event of ``kind``."""
    return next(e for e in reversed(enc.events) if e.kind == kind)


def demo() -> Encounter:
    """The app's demo: E-3 on a field with woods, a hill, marsh, a stream and a ruin.

    The whole example is in the log with the cursor at the start, so "redo"
    steps through it and any new action starts a game of one's own.
    """
    enc = e3_encounter(scenery=True, dodge_skill=30)
    play_e3(enc)
    notes = (
        "The fig-percentile rules' own worked example: four rounds of running, a crossbow "
        "hit, a staff and an axe missing as Brie runs by, and a spell. Barclay's dodge skill "
        "(30) and Brie's Spellcasting (60) are placeholders; the text gives neither."
    )
    return demo_files.rewound(enc, notes)


def demo_text() -> str:
    """The demo document as written to ``static/demos/fig-percentile.json``."""
    return demo_files.text(demo())


if __name__ == "__main__":
    demo_files.write(DEMO, demo())
