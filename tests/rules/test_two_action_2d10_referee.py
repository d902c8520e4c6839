"""Two-action-2d10: the errors a referee found against the text, each by its rule
or gap id: movement taken once (D-12), recovering (R-3), the parry's margin counted once
(I-4), no two Other actions (TA-3), reading that never writes; and the debatable readings
as options (R-8 counter-strikes, R-9 closed fists, R-10 a dropped weapon)."""

from __future__ import annotations

import json
import random

import pytest
from two_action_2d10_fixtures import (
    ANN_AT,
    BO_AT,
    act,
    arena,
    declare,
    duel,
    kinds,
    make,
    of,
    roll,
    to_step,
)

from hexcombat import Action, Encounter, Hex, HexcombatError
from hexcombat.document import to_document
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Status
from hexcombat.geometry import neighbor
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.validation import Json
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide


def _now(enc: Encounter) -> set[str]:
    """The figures the turn line names."""
    return set(enc.ruleset.who_acts(enc.state).now())


def _movement(enc: Encounter) -> None:
    declare(enc, "ann", "other", "none")
    declare(enc, "bo", "other", "none")
    act(enc, "next_step")
    assert enc.state.step.id == "movement"


def _open_board() -> Encounter:
    enc = make(arena(14, 14), "ann", "Ann", "Blue", Hex(6, 5), 0)
    return make(enc, "bo", "Bo", "Red", Hex(1, 1), 3)


def test_d12_free_movement_is_taken_once_not_repeated() -> None:
    """After one free move (3 forward or 1 back, TA-23) a figure has no move left this
    round: it cannot go 3 more, nor add the 1 back to the 3 forward (D-12); the turn line
    then names only who has not moved."""
    enc = _open_board()
    _movement(enc)
    ahead = neighbor(neighbor(neighbor(Hex(6, 5), 0), 0), 0)
    act(enc, "move", "ann", to=str(ahead), facing=0)
    assert enc.legal_actions("ann") == []
    ann = enc.state.figures["ann"]
    assert "taken once (D-12)" in enc.ruleset.idle_text(enc.state, ann)
    with pytest.raises(HexcombatError):
        act(enc, "move", "ann", to=str(neighbor(ahead, 3)), facing=0)
    acting = encounter_view(enc)["time"]["acting"]
    assert _now(enc) == {"bo"} and acting["text"] == "Bo acts"
    act(enc, "stay", "bo", facing=3)
    assert _now(enc) == set()
    assert kinds(enc, None) == ["next_step"]


def test_d12_the_turn_line_names_exactly_who_has_a_legal_action() -> None:
    """Random legal rounds: at every state the figures the turn line names are exactly those
    offered an action, and no figure acts more than a few times in one step (D-12, TA-27)."""
    rng = random.Random(20)
    for seed in range(6):
        acts: dict[tuple[object, ...], int] = {}
        enc = duel(seed=seed, shield=True)
        enc = make(enc, "cy", "Cy", "Blue", neighbor(BO_AT, 0), 3, missile="bow")
        for _ in range(120):
            now = _now(enc)
            offered = {f for f in enc.state.figures if enc.legal_actions(f)}
            if enc.state.prompt is None:
                assert now == offered, (enc.state.step.id, now, offered)
            specs = [s for f in enc.state.figures for s in enc.legal_actions(f)]
            specs = specs or enc.legal_actions(None)  # the step ends only when nobody acts
            if not specs:
                break
            spec = rng.choice(specs)
            params: dict[str, Json] = {}
            for p in spec.params:
                offered_values = p.offered(params) or (p.choices if p.required else ())
                if offered_values:
                    params[p.name] = rng.choice(offered_values).value
                elif p.default is not None:
                    params[p.name] = p.default
            try:
                enc.perform(Action(spec.kind, spec.figure, params))
            except HexcombatError:
                continue
            key = (tuple(enc.state.clock.counters), enc.state.clock.step, spec.figure)
            acts[key] = acts.get(key, 0) + 1
            assert spec.figure is None or acts[key] <= 3, key


def _snapshot(enc: Encounter) -> str:
    """The saved document, the state's memory and its figures, as one text."""
    state = enc.state
    figures = {f.id: f.to_json() for f in state.figures.values()}
    return json.dumps([to_document(enc), state.memory, figures], sort_keys=True)


def test_reading_never_writes_views_and_previews_leave_the_state_unchanged() -> None:
    """Encounter_view and every offered action's preview change neither the state nor the
    saved document, at each step of a round with a prompt open (reads were writing
    empty tables into the state)."""
    enc = duel(shield=True)
    seen = 0
    plans: list[dict[str, Json]] = [
        {"first": "attack", "second": "parry", "target": "bo", "guard": "bo"},
        {"first": "attack", "second": "block", "target": "ann"},
    ]
    script: list[tuple[str, str | None, dict[str, Json], list[int] | None]] = [
        ("declare", "ann", plans[0], None),
        ("declare", "bo", plans[1], None),
        ("next_step", None, {}, None),
        ("stay", "ann", {"facing": 1}, None),
        ("stay", "bo", {"facing": 4}, None),
        ("next_step", None, {}, None),
        ("strike", "bo", {}, [6, 6]),
    ]
    for kind, fid, params, faces in script:
        before = _snapshot(enc)
        encounter_view(enc)
        for f in (None, *enc.state.figures):
            for spec in enc.legal_actions(f):
                enc.preview(Action(spec.kind, spec.figure, {}))
                seen += 1
        encounter_view(enc)
        assert _snapshot(enc) == before, kind
        enc.perform(Action(kind, fid, params), faces=faces)
    assert enc.state.prompt is not None and seen > 5
    before = _snapshot(enc)
    for spec in enc.legal_actions("ann"):
        enc.preview(Action(spec.kind, "ann", {}))
    encounter_view(enc)
    assert _snapshot(enc) == before


def _prone_ann(options: dict[str, Json] | None = None) -> Encounter:
    enc = duel(options=options)
    ann = enc.setup_figure("ann")
    ann.statuses["prone"] = Status("prone")
    return enc.with_figure(ann)


def test_r3_recover_actions_2_needs_both_actions_to_rise() -> None:
    """At ``ta.recover_actions = 2`` one Recover is refused with the reason and changes
    nothing; Recover with both actions (combined) rises (R-3). At 1, one Recover rises."""
    enc = _prone_ann({"ta.recover_actions": 2})
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match="2 Recover actions"):
        declare(enc, "ann", "recover", "parry", guard="bo")
    assert to_document(enc) == before
    declare(enc, "ann", "recover", "recover", combine=True)
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")  # the Recover takes effect as combat begins
    assert not enc.state.figures["ann"].has_status("prone")
    enc = _prone_ann({"ta.recover_actions": 1})
    declare(enc, "ann", "recover", "parry", guard="bo")
    declare(enc, "bo", "other", "none")
    to_step(enc, "combat")
    assert not enc.state.figures["ann"].has_status("prone")


def test_ta_3_two_other_actions_are_refused_unless_one_activity_takes_both() -> None:
    """'The same action may not be repeated' (TA-3): two separate Other actions are refused;
    one Other activity declared with both actions (combined) is allowed (TA-26, R-1)."""
    enc = duel()
    with pytest.raises(IllegalActionError, match="same action may not be taken twice"):
        declare(enc, "ann", "other", "other")
    assert R.declaration_problem("other", "other", False)
    assert R.declaration_problem("other", "other", True) == ""
    declare(enc, "ann", "other", "other", combine=True)
    declare(enc, "bo", "other", "none")
    assert enc.state.memory["plans"]["ann"]["actions"] == ["other", "other"]


def test_i4_parry_reduces_the_surplus_once_not_again_off_the_damage() -> None:
    """Under ``parry_reduces_surplus`` the parry's margin over the passive defence comes off
    the surplus (a lower threshold), and the damage is the weapon's roll minus AC only."""
    enc = duel(options={"ta.defence_mode": "parry_reduces_surplus"})
    declare(enc, "ann", "parry", "none", guard="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [9, 6], "strike", "bo")  # 19 against passive 12: surplus 7
    events = roll(enc, [7, 6, 5], "parry", "ann")  # parry 13 + 3 = 16: 4 off the surplus
    assert (
        of(events, "attack")[0].data["surplus"] == 3 and of(events, "attack")[0].data["tier"] == 0
    )
    assert of(events, "damage")[0].data["damage"] == 5  # d8 = 5, AC 0, nothing more off


def _fumble_against_a_non_ceder(options: dict[str, Json]) -> list[Event]:
    """Bo (spear) strikes first and fumbles against Ann, who declared attack + parry and did
    not cede: she strikes second (TA-14)."""
    enc = duel(options=options)
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "parry", target="ann", guard="ann")
    to_step(enc, "combat")
    return roll(enc, [1, 1], "strike", "bo")


def test_r8_ta_17_the_second_striker_may_counter_strike_or_only_one_that_ceded() -> None:
    """TA-17 gives the benefit to 'the second' striker: Ann, striking after Bo's Spear,
    may turn her parry into a counter-strike (default); with ``ceded`` only a protagonist
    that ceded the initiative may (R-8)."""
    events = _fumble_against_a_non_ceder({})
    assert "Counter-strike in the Riposte step" in of(events, "reaction")[0].text
    events = _fumble_against_a_non_ceder({"ta.counter_strike_by": "ceded"})
    assert "spectacular mistake" in of(events, "attack")[0].text and not of(events, "reaction")


def test_r10_ta_17_a_counter_strike_after_a_dropped_weapon_is_struck_with_fists() -> None:
    """Ann has dropped her weapon (R-10 'fists': her blows come with fists) and may still
    counter-strike Bo's fumble (TA-17), her shield's parry given up: the counter-strike
    previews and lands as a brawl (TA-19), as her strike would; it raised an error on the
    missing weapon dice."""
    enc = duel()
    ann = enc.setup_figure("ann")
    ann.statuses["dropped_weapon"] = Status("dropped_weapon")
    ann.stats["shield"] = True  # a parry with the shield (TA-7, R-12)
    enc = enc.with_figure(ann)
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "parry", target="ann", guard="ann")
    to_step(enc, "combat")
    roll(enc, [1, 1], "strike", "bo")
    events = act(enc, "counter", "ann")
    assert of(events, "riposte")[0].text.startswith("Ann gives up the defence to counter-strike")
    enc.perform(Action("hold", "ann"))
    to_step(enc, "riposte")
    counter = Action("riposte", "ann")
    breakdown = enc.preview(counter).rollables[0].breakdown()
    assert any("Brawling" in line for line in breakdown), breakdown
    struck = enc.perform(counter, faces=[9, 9])  # 9 + 9 + 2 (brawling, as previewed)
    assert of(struck, "reaction")[0].text == "Ann strikes at Bo: 20 (2d10: 9, 9; +2)"
    assert [s.kind for s in enc.legal_actions("bo")] == ["parry", "take"]
    landed = enc.perform(Action("take", "bo"))  # raised on the missing weapon dice before
    assert of(landed, "attack")[0].data["surplus"] == 8
    damage = of(landed, "damage")[0].data["damage"]
    assert isinstance(damage, int) and enc.state.figures["bo"].pools["hp"].current == 20 - damage


def test_r9_ta_19_closed_fists_do_not_come_last_in_the_normal_order() -> None:
    """Under ``ta.closed_order = normal``, TA-19's 'unless closed': a closed pair's fists
    strike before the weapons (default ``first``); ``last`` keeps them last (R-9)."""
    spear = R.Striker("a", "A", "spear", 1, 3, closed=True, opponents=("b",))
    fists = R.Striker("b", "B", "natural", 8, 3, closed=True, opponents=("a",))
    order, notes = R.strike_order([spear, fists], "normal")
    assert order == ["b", "a"] and "fists do not come last when closed (TA-19, R-9)" in notes[0]
    assert R.strike_order([spear, fists], "normal", "last")[0] == ["a", "b"]
    shot = R.Striker("c", "C", "missile", 0, 3)
    assert R.strike_order([spear, fists, shot], "normal")[0] == ["c", "b", "a"]
    open_fists = R.Striker("b", "B", "natural", 8, 3)
    assert R.strike_order([open_fists, spear], "normal")[0] == ["a", "b"]  # not closed: last


def _arm_hit(options: dict[str, Json]) -> Encounter:
    """Bo's spear hits Ann's weapon arm before her axe blow and she fails the save."""
    enc = duel(options=options)
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    # 9 + 7 + 4 = 20 against 12: surplus 8; 2d8 (1, 1); location 3 (weapon arm); save 10, 10
    events = roll(enc, [9, 7, 1, 1, 3, 10, 10], "strike", "bo")
    assert of(events, "tactical")[0].data["effect"] == "drop_weapon"
    return enc


def test_r10_d7_a_failed_arm_save_drops_the_weapon_and_fists_remain() -> None:
    """The text's tactical effect is 'drop weapon' (D-7): Ann's blow still comes, with her
    fists, last (default ``fists``); with ``lost`` the blow is lost as well (R-10)."""
    enc = _arm_hit({})
    assert kinds(enc, "ann") == ["strike", "hold"]
    assert enc.ruleset.strike_mode(enc.state, enc.state.figures["ann"]) == "brawl"
    enc = _arm_hit({"ta.dropped_weapon_blow": "lost"})
    assert kinds(enc, "ann") == []
    assert enc.state.figures["ann"].has_status("dropped_weapon")


def test_ta_17_a_counter_strike_needs_a_defensive_action_not_yet_committed() -> None:
    """'They need not commit their defensive option and may choose to transfer it' (TA-17):
    Ann's Block, already committed against Bo, cannot become a counter-strike when Cy then
    makes a spectacular mistake."""
    enc = duel(shield=False)
    ann = enc.setup_figure("ann")
    ann.stats["shield"] = True
    enc = enc.with_figure(ann)
    enc = make(enc, "cy", "Cy", "Red", neighbor(ANN_AT, 0), 3, weapon="sword")
    declare(enc, "ann", "block", "attack", target="cy")
    declare(enc, "bo", "attack", "other", target="ann")
    declare(enc, "cy", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [5, 5], "strike", "bo")  # Spear first: 14
    roll(enc, [9, 9], "shield_block", "ann")  # Block 23: a miss
    events = roll(enc, [1, 1], "strike", "cy")  # Sword next: a spectacular mistake
    assert "spectacular mistake" in of(events, "attack")[0].text
    assert not of(events, "riposte") and "ann" not in enc.state.memory.get("ripostes", {})
