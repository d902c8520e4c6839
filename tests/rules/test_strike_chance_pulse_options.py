"""strike-chance-pulse: each proposed default is an option whose alternative works (A, I, R)."""

from __future__ import annotations

import json

import pytest
from strike_chance_pulse_fixtures import (
    ANN_AT,
    BO_AT,
    act,
    arena,
    duel,
    initiative,
    kinds,
    make,
    of,
    roll,
)

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.document import to_document
from hexcombat.geometry import neighbor
from hexcombat.rulesets.strike_chance_pulse import missile
from hexcombat.rulesets.strike_chance_pulse.situation import defense
from hexcombat.secrets import GM
from hexcombat.share import log_markdown
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

SWORD = {"weapon": "Broadsword", "special": "none", "target": "bo"}


def start(enc: Encounter) -> Encounter:
    initiative(enc, list(range(10, 10 - len(enc.state.figures), -1)))
    return enc


def whip(options: dict[str, object]) -> Encounter:
    enc = arena(options=options)
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        ANN_AT,
        1,
        items=["Whip", "Small Shield"],
        ranks={"Whip": 2, "Small Shield": 1},
        md=12,
    )
    return start(make(enc, "bo", "Bo", "Red", BO_AT, 4, ag=12))


def test_a1_a2_entangle_and_shield_rush_damage_readings() -> None:
    for option, special, weapon in (
        ("scp.entangle_damage", "entangle", "Whip"),
        ("scp.shield_rush_damage", "shield_rush", "Small Shield"),
    ):
        default = whip({})
        alt = whip({option: "d10+4" if special == "entangle" else "d10+2"})
        action = Action("melee", "ann", {"weapon": weapon, "special": special, "target": "bo"})
        got = [e.preview(action).rollables[1].dice for e in (default, alt)]  # type: ignore[attr-defined]
        assert got[0].endswith("min 0") and "+" in got[1]


def test_a17_special_attacks_without_md_and_rank() -> None:
    action = Action("melee", "ann", {"weapon": "Whip", "special": "entangle", "target": "bo"})
    msc = [
        whip(o).preview(action).rollables[0].stages[0].rollable.msc  # type: ignore[attr-defined]
        for o in ({}, {"scp.special_uses_rank": False})
    ]
    assert msc == [40 + 12 + 8 - 12, 40 - 12]


def test_a5_a_natural_weapon_fumble_skips_the_next_attack_with_the_option() -> None:
    for on in (False, True):
        enc = arena(options={"scp.natural_fumble_skips_pulse": on})
        enc = make(enc, "wolf", "Wolf", "Red", ANN_AT, 1, items=["Teeth"], humanoid=False)
        enc = start(make(enc, "bo", "Bo", "Blue", BO_AT, 4))
        roll(enc, [99], "melee", "wolf", weapon="Teeth", special="none", target="bo")
        act(enc, "pass", "bo")
        act(enc, "next_step")
        initiative(enc, [10, 1])
        assert ("melee" in kinds(enc, "wolf")) is not on


def test_a9_riposte_only_for_evading_defenders_with_the_option() -> None:
    enc = start(duel({"scp.riposte_requires_evading": True}))
    roll(enc, [81], "melee", "ann", **SWORD)
    roll(enc, [9], "parry", "bo")
    assert enc.state.prompt is None


def test_a11_ranged_zone_arc_or_half() -> None:
    for zone, offered in (("arc120", []), ("half180", ["bo"])):
        enc = arena(12, 10, options={"scp.ranged_zone": zone})
        enc = make(enc, "ann", "Ann", "Blue", Hex(5, 4), 0, items=["Short Bow"])
        # two hexes to the right (direction 2 = south-east, twice): in the half, not the arc
        enc = start(make(enc, "bo", "Bo", "Red", Hex(7, 3), 0))
        spec = next((s for s in enc.legal_actions("ann") if s.kind == "fire"), None)
        got = [] if spec is None else [c.value for c in spec.param("target").choices]
        assert got == offered


def test_a26_damage_model_fatigue_first_or_endurance_only() -> None:
    for model, ft, en in (("ft_then_en", 13, 15), ("en_only", 20, 8)):
        enc = start(duel({"scp.damage_model": model}))
        roll(enc, [5, 5], "melee", "ann", **SWORD)
        bo = enc.state.figures["bo"]
        assert (bo.pools["ft"].current, bo.pools["en"].current) == (ft, en)


def test_a29_a_shot_along_a_hexside_comes_through_the_hex_better_for_the_defender() -> None:
    origin = Hex(4, 4)
    for favour, pick in (("defender", max), ("attacker", min)):
        for facing in range(6):
            enc = arena(10, 10, options={"scp.entry_hex_tie": favour})
            enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Short Bow"])
            enc = make(
                enc,
                "bo",
                "Bo",
                "Red",
                origin + Hex.from_cube(2, -1, -1),
                facing,
                items=["Large Round Shield"],
                ranks={"Large Round Shield": 3},
                ag=13,
            )
            state = enc.state
            bo = state.figures["bo"]
            before = (origin + Hex.from_cube(1, 0, -1), origin + Hex.from_cube(1, -1, 0))
            through = missile.through_hex(state, bo, before)
            totals = [defense(state, bo, missile.where(bo, h), False)[0].total for h in before]
            assert defense(state, bo, through, False)[0].total == pick(totals)


def test_r1_grapple_steps_into_an_adjacent_hex_only_with_the_option() -> None:
    for on in (True, False):
        enc = start(duel({"scp.grapple_enters_hex": on}))
        assert ("grapple" in kinds(enc, "ann")) is on


def test_r2_horsemanship_rank_lifts_the_rider_limits_with_the_option() -> None:
    for lift, offered in ((0, False), (1, True)):
        enc = arena(options={"scp.rider_lift_rank": lift})
        enc = make(enc, "horse", "Horse", "Blue", Hex(3, 3), 1, humanoid=False)
        enc = make(
            enc, "ann", "Ann", "Blue", Hex(3, 3), 1, items=["Halberd"], ranks={"Horsemanship": 1}
        )
        ann = enc.setup_figure("ann")
        ann.mounted_on = "horse"
        enc = enc.with_figure(ann)
        enc = start(make(enc, "bo", "Bo", "Red", neighbor(Hex(3, 3), 2), 4))
        act(enc, "pass", "horse")
        assert ("melee" in kinds(enc, "ann")) is offered


def test_a32_core_stacking_0_means_no_fixed_limit() -> None:
    enc = duel()
    assert enc.ruleset.stacking({"core.stacking": 0}) == 99
    assert enc.ruleset.stacking({"core.stacking": 3}) == 3
    assert of([], "x") == []


def test_r3_a_missile_along_a_hexside_breaks_only_if_both_tied_hexes_break_it() -> None:
    """SCP-11: a wall on one side of the line passes the shot, unless ``either``."""
    origin = Hex(4, 4)
    fire = {"weapon": "Short Bow", "special": "none", "target": "bo"}
    for rule, walls, hit_bo in (
        ("both", [Hex.from_cube(1, 0, -1)], True),
        ("both", [Hex.from_cube(1, 0, -1), Hex.from_cube(1, -1, 0)], False),
        ("either", [Hex.from_cube(1, 0, -1)], False),
    ):
        # walls break missiles but (option A-24 off) do not block the line of fire
        options = {"scp.hexside_missile_break": rule, "scp.hard_obstacle_blocks": False}
        enc = arena(10, 10, options=options)
        enc = enc.painted([origin + w for w in walls], "wall")
        enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Short Bow"], md=10)
        enc = start(make(enc, "bo", "Bo", "Red", origin + Hex.from_cube(2, -1, -1), 3, ag=10))
        events = roll(enc, [5, 1] if hit_bo else [], "fire", "ann", **fire)
        assert [e.target for e in of(events, "attack")] == (["bo"] if hit_bo else []), rule
        if not hit_bo:
            assert "breaks" in of(events, "missile")[0].text


def test_r4_close_combat_drops_both_shields_or_only_the_attackers() -> None:
    for rule, dropped in (("both", "dropped"), ("attacker", "ready")):
        enc = arena(options={"scp.close_drops_shields": rule})
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Small Shield"], md=12)
        enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, items=["Large Round Shield"], ag=13, md=12)
        start(enc)
        events = roll(enc, [90], "grapple", "ann", weapon="Bare hands", special="none", target="bo")
        ann, bo = enc.state.figures["ann"], enc.state.figures["bo"]
        assert ann.item("Small Shield").state == "dropped"
        assert bo.item("Large Round Shield").state == dropped
        assert len(of(events, "drop")) == (2 if rule == "both" else 1)


def test_r5_disarm_drops_the_attackers_choice_or_the_first_item_or_a_weapon_first() -> None:
    disarm = {"weapon": "Broadsword", "special": "disarm", "target": "bo"}
    for rule, drop, gone in (
        ("attacker", "Broadsword", "Broadsword"),
        ("attacker", "Large Round Shield", "Large Round Shield"),
        ("first", None, "Large Round Shield"),
        ("weapon_first", None, "Broadsword"),
    ):
        enc = arena(options={"scp.disarm_drops": rule})
        enc = make(
            enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Broadsword"], ranks={"Broadsword": 3}
        )
        enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, items=["Large Round Shield", "Broadsword"])
        start(enc)
        melee = next(s for s in enc.legal_actions("ann") if s.kind == "melee")
        if drop is None:  # the order of Bo's items decides: the form does not ask
            assert "drop" not in [p.name for p in melee.params]
            events = roll(enc, [1], "melee", "ann", **disarm)
        else:  # a dependent choice: Bo's items in hand, once Disarm and Bo are chosen
            offered = melee.param("drop").offered({"special": "disarm", "target": "bo"})
            assert [c.value for c in offered] == ["Large Round Shield", "Broadsword"]
            assert melee.param("drop").offered({"special": "none", "target": "bo"}) == ()
            before = to_document(enc)
            with pytest.raises(IllegalActionError, match="choose what Bo is to drop"):
                roll(enc, [1], "melee", "ann", **disarm)
            assert to_document(enc) == before
            events = roll(enc, [1], "melee", "ann", **disarm, drop=drop)
        assert of(events, "disarm")[0].data["item"] == gone
        assert enc.state.figures["bo"].item(gone).state == "dropped"


def test_r6_evading_lasts_until_the_next_initiative_or_the_figures_next_action() -> None:
    for rule, still in (("next_initiative", False), ("next_action", True)):
        enc = duel({"scp.evading_lasts": rule})
        initiative(enc, [1, 10])  # Bo first
        act(enc, "evade", "bo")
        act(enc, "pass", "ann")
        act(enc, "next_step")
        act(enc, "next_step")  # Pulse 2's initiative
        assert enc.state.figures["bo"].has_status("evading") is still, rule
        if still:
            for fid in enc.ruleset.acting(enc.state).figures:
                act(enc, "pass", fid)
                if fid == "bo":
                    break
            assert not enc.state.figures["bo"].has_status("evading")


def test_r7_move_cannot_enter_a_hostiles_hex_unless_the_option_allows_it() -> None:
    for on in (False, True):
        enc = arena(options={"scp.move_into_hostile": on})
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Small Shield"], tmr=4)
        enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, items=["Large Round Shield"], tmr=4)
        start(enc)
        spec = next(s for s in enc.legal_actions("ann") if s.kind == "move")
        offered = {str(c.value) for c in spec.param("to").choices}
        assert (str(BO_AT) in offered) is on
        beyond = neighbor(BO_AT, 1)
        assert str(beyond) in offered  # around Bo, never through him
        if on:
            events = act(enc, "move", "ann", to=str(BO_AT))
            assert [e.text for e in of(events, "drop")] == [
                "Ann drops the Small Shield in Close combat",
                "Bo drops the Large Round Shield in Close combat",
            ]


def test_r8_a_free_hand_may_always_punch_or_only_without_a_weapon() -> None:
    for rule, punch in (("free_hand", True), ("empty_handed", False)):
        enc = arena(options={"scp.free_hand_punch": rule})
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Broadsword"])
        enc = start(make(enc, "bo", "Bo", "Red", BO_AT, 4))
        spec = next(s for s in enc.legal_actions("ann") if s.kind == "melee")
        weapons = [c.value for c in spec.param("weapon").choices]
        assert ("Bare hands" in weapons) is punch, rule


def test_r9_scp_20_the_knockout_time_is_the_gms_until_it_wakes_unless_shown() -> None:
    ko = {"weapon": "Broadsword", "special": "knockout", "target": "bo"}
    for on, text in (
        (False, "Bo is knocked out (for a time rolled secretly)"),
        (True, "Bo is knocked out (for 6 minutes (72 Pulses, R-9))"),
    ):
        enc = start(duel({"scp.knockout_duration_shown": on}))
        events = roll(enc, [7, 1], "melee", "ann", **ko)
        status = of(events, "status")[0]
        assert status.text == text
        assert ("minutes" in status.data) is on and (len(of(events, "status")) == 1)
        table = log_markdown(enc) + json.dumps(encounter_view(enc))
        assert ("6 minutes" in table) is on and ("72" in table) is on
        kept = of(enc.entry_events(enc.cursor - 1, GM), "status")[-1]
        assert (kept.data["minutes"], kept.data["pulses"]) == (6, 72)
        assert (kept.secret is None) is on  # the GM's alone, until Bo wakes (SCP-20)


def test_a14_r7_a_kept_reach_follows_every_figure_it_depends_on() -> None:
    """A-14's search is kept by what it reads: the same board with Bo elsewhere gives Ann
    the hex Bo left (R-7 kept her out of it) and not the one he stands on now."""
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, tmr=4)
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, tmr=4)
    moved_to = neighbor(neighbor(BO_AT, 1), 1)
    bo = enc.setup_figure("bo")
    bo.position = moved_to
    other = start(enc.with_figure(bo))
    start(enc)
    assert enc.state.board is other.state.board  # one board: the kept searches are shared

    def offered(e: Encounter) -> set[str]:
        spec = next(s for s in e.legal_actions("ann") if s.kind == "move")
        return {str(c.value) for c in spec.param("to").choices}

    here, there = offered(enc), offered(other)
    assert str(BO_AT) not in here and str(moved_to) in here
    assert str(BO_AT) in there and str(moved_to) not in there
    assert offered(enc) == here
