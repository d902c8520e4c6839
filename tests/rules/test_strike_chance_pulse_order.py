"""strike-chance-pulse: no result depends on the order in which the table enters things.

The ruleset has no hidden step (each figure acts alone, in initiative order), so what is
simultaneous is the table's: the initiative D10s of every figure are rolled at once (SCP-6,
A-13), and the figures were entered in some set-up order. The property permutes that order
(the encounter is rebuilt with the figures added in a random order) and hands each figure the
same initiative dice (so the typed faces are permuted with it, tie re-rolls included); the
rest of the Pulse is played with the same choices, picked by value, not by list position,
and the same dice. Every event (kind, text, figures, data) and every figure's final state
must be the same.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strike_chance_pulse_fixtures import arena, signature

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.encounter import MoreDiceNeededError
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.fields import AG

pytestmark = pytest.mark.pyodide

IDS = ("ann", "bo", "cy", "di")


def rebuilt(order: tuple[str, ...]) -> Encounter:
    """The signature encounter with its figures entered in ``order``."""
    sig = signature()
    enc = arena(seed=7)
    for fid in order:
        enc = enc.with_figure(sig.setup_figure(fid))
    return enc


def initiative_faces(enc: Encounter, rolls: dict[str, list[int]]) -> list[int] | None:
    """The D10 faces in the engine's roll order (set-up order, tie re-rolls after) that give
    each figure its own ``rolls`` (None when 20 rounds still tie)."""
    state = enc.state
    order = [f for f in state.figures if not enc.ruleset.is_out(state, state.figures[f])]
    bonus = {f: rules.initiative_bonus(AG(enc.state.figures[f])) for f in order}
    key: dict[str, tuple[int, ...]] = {f: () for f in order}
    used = dict.fromkeys(order, 0)
    faces: list[int] = []
    pending = order
    for _ in range(20):
        for f in pending:
            face = rolls[f][used[f]]
            used[f] += 1
            faces.append(face)
            key[f] = (*key[f], -(face + bonus[f]))
        keys = [key[f] for f in order]
        pending = [f for f in order if keys.count(key[f]) > 1]
        if not pending:
            return faces
    return None


def perform(enc: Encounter, action: Action, dice: list[int]) -> None:
    """Perform with typed faces taken from ``dice`` as the action asks for them."""
    faces: list[int] = []
    while True:
        try:
            enc.perform(action, faces=list(faces))
            del dice[: len(faces)]
            return
        except MoreDiceNeededError as more:
            face = dice[len(faces)] if len(faces) < len(dice) else 1
            faces.append((face - 1) % more.sides + 1)


def canonical_action(enc: Encounter, picks: list[int]) -> Action | None:
    """The next action: the prompted or first waiting figure's, chosen by sorted values."""
    state = enc.state
    prompt = state.prompt
    if prompt is not None:
        fid: str | None = prompt.figure
    else:
        waiting = enc.ruleset.acting(state).waiting
        fid = waiting[0] if waiting else None
    specs = sorted(enc.legal_actions(fid), key=lambda s: s.kind) if fid else []
    if not specs:
        table = enc.legal_actions(None)
        return Action("next_step") if any(s.kind == "next_step" for s in table) else None
    spec = specs[picks.pop(0) % len(specs)] if picks else specs[0]
    params: dict[str, object] = {}
    for p in spec.params:
        offered = sorted(p.offered(params), key=lambda c: str(c.value))
        if offered:
            params[p.name] = offered[(picks.pop(0) if picks else 0) % len(offered)].value
        elif p.default is not None:
            params[p.name] = p.default
    return Action(spec.kind, spec.figure, params)  # type: ignore[arg-type]


def play(
    order: tuple[str, ...], rolls: dict[str, list[int]], picks: list[int], dice: list[int]
) -> tuple[list[tuple[object, ...]], dict[str, object]] | None:
    enc = rebuilt(order)
    picks, dice = list(picks), list(dice)
    pulses = 0
    for _ in range(16):
        if enc.state.step.id == "initiative":  # each figure its own D10s, whatever the order
            if pulses == 2:
                break
            faces = initiative_faces(enc, {f: r[20 * pulses :] for f, r in rolls.items()})
            if faces is None:
                return None
            enc.perform(Action("next_step"), faces=faces)
            pulses += 1
            continue
        action = canonical_action(enc, picks)
        if action is None:
            break
        try:
            perform(enc, action, dice)
        except HexcombatError:
            break
    events = [
        (e.kind, e.text, e.figure, e.target, repr(sorted(e.data.items()))) for e in enc.events
    ]
    figures = {fid: enc.state.figures[fid].to_json() for fid in IDS}
    return events, figures


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    order=st.permutations(IDS),
    rolls=st.fixed_dictionaries(
        {f: st.lists(st.integers(1, 10), min_size=40, max_size=40) for f in IDS}
    ),
    picks=st.lists(st.integers(0, 50), min_size=40, max_size=40),
    dice=st.lists(st.integers(1, 100), min_size=60, max_size=60),
)
def test_scp_6_a13_results_do_not_depend_on_the_order_the_table_entered_figures(
    order: tuple[str, ...],
    rolls: dict[str, list[int]],
    picks: list[int],
    dice: list[int],
) -> None:
    first = play(IDS, rolls, picks, dice)
    again = play(tuple(order), rolls, picks, dice)
    assert first == again


def test_scp_6_a_tie_is_re_rolled_whatever_the_entry_order() -> None:
    """Ann and Cy tie on 10 (D10 8 + 2); the re-roll, not the list, puts Cy first."""
    rolls = {"ann": [8, 3] + [1] * 18, "bo": [5] * 20, "cy": [8, 9] + [1] * 18, "di": [1] * 20}
    for order in (IDS, ("cy", "di", "bo", "ann")):
        enc = rebuilt(order)
        faces = initiative_faces(enc, rolls)
        assert faces is not None
        events = enc.perform(Action("next_step"), faces=faces)
        init = next(e for e in events if e.kind == "initiative")
        assert init.data["order"] == ["cy", "ann", "bo", "di"]
        assert init.data["engaged"] == ["ann", "bo"]
        assert init.text == "Initiative: Cy 10, Ann 10, Bo 7, Di 3; engaged first: Ann, Bo"


def test_r12_figures_sharing_a_hex_are_checked_target_first_then_by_name() -> None:
    """Bo grapples Zed in his hex; Cy shoots at Zed: the entry order never decides."""
    for rule, checked in (("target_first", ["zed", "bo"]), ("target_last", ["bo", "zed"])):
        for order in (("zed", "bo"), ("bo", "zed")):
            enc = arena(options={"scp.same_hex_check_order": rule}, seed=3)
            sig = signature()
            cy = sig.setup_figure("cy")
            for fid in order:
                f = sig.setup_figure("bo")
                f.id, f.name = fid, fid.title()
                f.side = "Red" if fid == "zed" else "Green"
                enc = enc.with_figure(f)
            enc = enc.with_figure(cy)
            rolls = {"zed": [9] * 20, "bo": [5] * 20, "cy": [1] * 20}
            faces = initiative_faces(enc, rolls)
            assert faces is not None
            enc.perform(Action("next_step"), faces=faces)
            while (waiting := enc.ruleset.acting(enc.state).waiting) != ("cy",):
                enc.perform(Action("pass", waiting[0]) if waiting else Action("next_step"))
            fire = {"weapon": "Short Bow", "special": "none", "target": "zed"}
            events = enc.perform(Action("fire", "cy", fire), faces=[95, 95])
            assert next(e for e in events if e.kind == "fire").data["checked"] == checked


def agility_faces(enc: Encounter, rolls: dict[str, list[int]]) -> list[int]:
    """The roll-off D10s in the engine's roll order (tied figures in set-up order, a round
    at a time) that give each tied figure its own ``rolls`` under ``scp.initiative=agility``."""
    state = enc.state
    living = [f for f in state.figures if not enc.ruleset.is_out(state, state.figures[f])]
    key = {f: (-AG(state.figures[f]),) for f in living}
    used = dict.fromkeys(living, 0)
    faces: list[int] = []
    while pending := [f for f in living if [*key.values()].count(key[f]) > 1]:
        for f in pending:
            face = rolls[f][used[f]]
            used[f] += 1
            faces.append(face)
            key[f] = (*key[f], -face)
    return faces


def test_a13_agility_option_equal_agility_rolls_off_whatever_the_entry_order() -> None:
    """Ann, Cy and Di share AG 12 under Bo's 13: a D10 roll-off orders them, Cy and Di tie
    on 7 and roll again (A-13's ties re-roll); every set-up order gives the same order."""
    rolls = {"ann": [4], "cy": [7, 2], "di": [7, 9]}
    seen = set()
    for order in itertools.permutations(IDS):
        sig = signature()
        enc = arena(seed=7, options={"scp.initiative": "agility"})
        for fid in order:
            enc = enc.with_figure(sig.setup_figure(fid))
        events = enc.perform(Action("next_step"), faces=agility_faces(enc, rolls))
        init = next(e for e in events if e.kind == "initiative")
        seen.add((tuple(init.data["order"]), init.text))
    assert seen == {
        (
            ("bo", "di", "cy", "ann"),
            "Initiative: Bo 13, Di 12, Cy 12, Ann 12; engaged first: Bo, Ann",
        )
    }


def test_a13_agility_option_rolls_nothing_without_a_tie() -> None:
    """Distinct AG needs no dice: the step ends without asking for a face."""
    enc = arena(options={"scp.initiative": "agility"})
    sig = signature()
    for fid in ("ann", "bo"):
        enc = enc.with_figure(sig.setup_figure(fid))
    events = enc.perform(Action("next_step"), faces=[])
    init = next(e for e in events if e.kind == "initiative")
    assert init.data["order"] == ["bo", "ann"]
    assert init.rolls == ()


def test_scp_53_scp_55_infection_checks_do_not_depend_on_the_entry_order() -> None:
    """Each wounded figure rolls its own D100 (SCP-55): whatever the set-up order, the same
    die gives the same figure the same result (the table types each figure's own face)."""
    own = {"ann": 25, "bo": 60, "cy": 19}  # chances: Ann 30 (bite), Bo 37, Cy 10
    wounds = {"ann": (0, True), "bo": (7, False), "cy": (0, False)}
    seen = set()
    for order in itertools.permutations(("ann", "bo", "cy")):
        sig = signature()
        enc = arena(seed=7)
        for fid in order:
            f = sig.setup_figure(fid)
            f.memory.update(wounded=True, en_damage=wounds[fid][0], bitten=wounds[fid][1])
            enc = enc.with_figure(f)
        faces = [own[f] for f in enc.state.figures if f in own]
        enc.perform(Action("gm_end_fight"))
        events = enc.perform(Action("end_combat"), faces=faces)
        checks = sorted((e.figure, e.text) for e in events if e.kind == "infection")
        infected = sorted(f for f in own if enc.state.figures[f].has_status("infected"))
        seen.add((tuple(checks), tuple(infected)))
    assert len(seen) == 1
    assert seen.pop()[1] == ("ann",)
