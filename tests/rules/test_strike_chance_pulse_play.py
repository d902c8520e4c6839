"""Strike-chance-pulse through the Encounter API: the Pulse, zones, missiles, parry, specials.

Every test plays actions with typed dice (``faces``) and checks the numbers the
spec gives (E-1, E-2) or that follow from its rules.
"""

from __future__ import annotations

import pytest
from strike_chance_pulse_fixtures import (
    ANN_AT,
    BO_AT,
    CY_AT,
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
from hexcombat.figures import Status
from hexcombat.geometry import neighbor
from hexcombat.layout import hex_label
from hexcombat.schema import settle
from hexcombat.secrets import GM
from hexcombat.view import measure_view

pytestmark = pytest.mark.pyodide

SWORD = {"weapon": "Broadsword", "special": "none", "target": "bo"}


def start(enc: Encounter, faces: list[int] | None = None) -> Encounter:
    """Roll initiative so that the set-up order is the initiative order."""
    n = len(list(enc.state.living()))
    initiative(enc, faces or list(range(10, 10 - n, -1)))
    return enc


def edit(enc: Encounter, fid: str, **changes: object) -> Encounter:
    f = enc.setup_figure(fid)
    for key, value in changes.items():
        setattr(f, key, value)
    return enc.with_figure(f)


def target_ids(enc: Encounter, fid: str, kind: str, **when: str) -> list[str]:
    spec = next((s for s in enc.legal_actions(fid) if s.kind == kind), None)
    if spec is None:
        return []
    return [str(c.value) for c in spec.param("target").offered(when)]


# ---- SCP-6: the Pulse --------------------------------------------------------------------


def test_scp_6_a12_a13_engaged_figures_act_first_in_initiative_order() -> None:
    enc = duel()
    enc = make(enc, "cy", "Cy", "Red", Hex(8, 2), 4, items=["Short Bow"], ag=20)
    events = initiative(enc, [2, 3, 10])  # Ann 2+2, Bo 3+2, Cy 10+4
    assert events[0].text == "Initiative: Cy 14, Bo 5, Ann 4; engaged first: Bo, Ann"
    assert enc.state.step.id == "engaged"
    acting = enc.ruleset.who_acts(enc.state)
    assert acting.figures == ("bo", "ann") and acting.mode == "figure"
    assert "engaged first, SCP-6" in acting.order_notes[0]
    assert kinds(enc, "cy") == [] and kinds(enc, "ann") == []  # Bo first
    act(enc, "pass", "bo")
    act(enc, "pass", "ann")
    act(enc, "next_step")
    assert enc.state.step.id == "free" and enc.ruleset.who_acts(enc.state).figures == ("cy",)


def test_scp_6_a14_one_action_per_pulse_and_nobody_skips() -> None:
    enc = start(duel())
    assert "next_step" not in kinds(enc, None)
    act(enc, "evade", "ann")
    assert kinds(enc, "ann") == []
    act(enc, "pass", "bo")
    act(enc, "next_step")  # the free step is empty and skipped
    assert enc.state.clock.counters == (2,) and enc.state.step.id == "initiative"
    initiative(enc, [5, 5, 9, 1])  # a tie re-rolls
    assert not enc.state.figures["ann"].has_status("evading")  # Evading lasted one Pulse
    assert enc.state.memory["order"] == ["ann", "bo"]


# ---- SCP-1 ... SCP-5: modes and zones -----------------------------------------------------


def test_scp_1_scp_2_modes_need_a_rated_prepared_weapon_and_bare_hands_count() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Dart"])
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4)
    start(enc)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "melee")
    # the dart is rated only for Ranged; the empty hand is a prepared weapon (SCP-2)
    assert [c.value for c in spec.param("weapon").choices] == ["Bare hands"]
    assert "fire" not in kinds(enc, "ann")  # Bo is adjacent (SCP-3)


def test_scp_3_fire_needs_the_ranged_zone_no_adjacency_and_range() -> None:
    enc = arena(12, 10)
    enc = make(enc, "ann", "Ann", "Blue", Hex(5, 4), 0, items=["Dagger"])
    enc = make(enc, "bo", "Bo", "Red", Hex(5, 1), 3)  # 3 hexes north: in the arc
    enc = make(enc, "cy", "Cy", "Red", Hex(5, 6), 0)  # behind
    enc = make(enc, "di", "Di", "Red", Hex(5, -1), 3)  # 5 hexes: beyond the Dagger's 4
    start(enc)
    assert target_ids(enc, "ann", "fire", weapon="Dagger", special="none") == ["bo"]


def test_scp_4_melee_needs_the_melee_zone() -> None:
    enc = duel()
    enc = make(enc, "cy", "Cy", "Red", neighbor(ANN_AT, 3), 0)  # Ann's B hex
    start(enc)
    assert target_ids(enc, "ann", "melee", weapon="Broadsword", special="none") == ["bo"]


def test_scp_5_a32_same_hex_only_close_and_grapple_steps_in_dropping_the_shield_scp_41() -> None:
    enc = start(duel())
    assert target_ids(enc, "ann", "grapple", weapon="Bare hands", special="none") == ["bo"]
    events = roll(enc, [90], "grapple", "ann", weapon="Bare hands", special="none", target="bo")
    assert of(events, "move")[0].text.startswith("Ann steps into Bo's hex")
    assert of(events, "drop")[0].text == "Bo drops the Large Round Shield in Close combat"
    state = enc.state
    assert state.figures["ann"].position == state.figures["bo"].position
    assert target_ids(enc, "bo", "melee", weapon="Broadsword", special="none") == []
    attack = of(events, "attack")[0]
    assert attack.data["msc"] == 24 - 13  # punch Base 24, unranked, minus AG only (SCP-41)


# ---- SCP-24 ... SCP-29, SCP-39: the Strike Check in play ----------------------------------


def test_scp_27_e2_basic_strike_msc_51_hits_on_51_misses_on_52() -> None:
    enc = start(duel())
    preview = enc.preview(Action("melee", "ann", SWORD))
    strike = preview.rollables[0].stages[0].rollable  # type: ignore[attr-defined]
    assert strike.msc == 51 and preview.rollables[0].to_json()["headline"]["percent"] == "51%"  # type: ignore[union-attr]
    events = roll(enc, [51, 5], "melee", "ann", **SWORD)
    assert of(events, "attack")[0].data["hit"] is True
    assert of(events, "damage")[0].data["damage"] == 7  # d10+2 with a 5


def test_scp_27_attack_conditions_without_values_enter_as_the_other_modifier() -> None:
    """Lighting, posture and the like have no values in the text: the table's modifier moves
    the MSC the preview shows and the roll uses (51 - 10 = 41)."""
    enc = start(duel())
    dim = {**SWORD, "modifier": -10}
    strike = enc.preview(Action("melee", "ann", dim)).rollables[0].stages[0].rollable  # type: ignore[attr-defined]
    assert strike.msc == 41
    assert "Other modifier (lighting, posture ...)" in str(strike.to_json())
    assert of(roll(enc, [42], "melee", "ann", **dim), "attack")[0].data["hit"] is False
    enc = start(duel())
    assert of(roll(enc, [41, 5], "melee", "ann", **dim), "attack")[0].data["hit"] is True


def test_scp_28_scp_32_a6_a_miss_by_30_asks_the_defender_who_may_decline() -> None:
    enc = start(duel())
    events = roll(enc, [52], "melee", "ann", **SWORD)
    assert of(events, "attack")[0].data["outcome"] == "failure" and enc.state.prompt is None
    enc = start(duel())
    events = roll(enc, [81], "melee", "ann", **SWORD)
    assert of(events, "attack")[0].data["outcome"] == "parry"
    prompt = enc.state.prompt
    assert prompt is not None and prompt.figure == "bo"
    assert kinds(enc, "bo") == ["parry", "decline_parry"] and kinds(enc, None) == []
    act(enc, "decline_parry", "bo")
    assert enc.state.prompt is None and "must_pass_pulse" not in enc.state.figures["bo"].memory


def test_scp_39_e2_an_attack_from_the_rear_ignores_the_shield_msc_63() -> None:
    enc = edit(duel(), "bo", facing=1)  # Bo turns away: Ann is in its B hex
    start(enc)
    strike = enc.preview(Action("melee", "ann", SWORD)).rollables[0]
    assert strike.stages[0].rollable.msc == 63  # type: ignore[attr-defined]


def test_scp_29_a10_evading_targets_give_minus_10_and_any_melee_miss_may_be_parried() -> None:
    enc = start(duel(), [1, 10])  # Bo acts first and evades
    act(enc, "evade", "bo")
    strike = enc.preview(Action("melee", "ann", SWORD)).rollables[0].stages[0].rollable  # type: ignore[attr-defined]
    assert strike.msc == 41
    roll(enc, [42], "melee", "ann", **SWORD)
    assert enc.state.prompt is not None and enc.state.prompt.rule == "SCP-32, A-6"


# ---- SCP-33 ... SCP-36: parry and riposte -------------------------------------------------


@pytest.mark.parametrize(
    ("d10", "result"), [(3, "parried"), (4, "disarm"), (7, "disarm"), (8, "riposte")]
)
def test_scp_33_scp_34_a7_a8_parry_table_through_the_prompt(d10: int, result: str) -> None:
    enc = start(duel())
    roll(enc, [81], "melee", "ann", **SWORD)
    events = roll(enc, [d10], "parry", "bo")  # Bo's best Rank 3 (shield) - Ann's 3
    parry = of(events, "parry")[0]
    assert parry.data["total"] == d10 and parry.data["result"] == result
    ann = enc.state.figures["ann"]
    if result == "parried":
        assert enc.state.figures["bo"].memory["must_pass_pulse"] == 2
        assert ann.item("Broadsword").state == "ready"
    else:
        assert ann.item("Broadsword").state == "dropped" and ann.pools["en"].current == 14
    if result == "riposte":
        assert enc.state.prompt is not None and kinds(enc, "bo") == ["riposte", "decline_riposte"]


def test_scp_35_riposte_is_immediate_and_cannot_be_parried() -> None:
    enc = start(duel())
    roll(enc, [81], "melee", "ann", **SWORD)
    roll(enc, [8], "parry", "bo")
    # Bo's Broadsword Rank 2: 50 + 12 + 8 = 70 - Ann's AG 12 = 58; a 95 misses by 37
    events = roll(enc, [95], "riposte", "bo", weapon="Broadsword")
    attack = of(events, "attack")[0]
    assert attack.text.startswith("Bo ripostes at Ann") and attack.data["msc"] == 58
    assert attack.data["outcome"] == "failure" and enc.state.prompt is None
    assert "bo" not in enc.state.memory["acted"]  # no attack action spent


def test_scp_35_the_riposte_card_comes_with_a_prepared_weapon_chosen() -> None:
    enc = start(duel())
    roll(enc, [81], "melee", "ann", **SWORD)
    roll(enc, [8], "parry", "bo")
    riposte = next(s for s in enc.legal_actions("bo") if s.kind == "riposte")
    weapon = riposte.param("weapon")
    assert weapon.default == "Broadsword" == weapon.choices[0].value  # prepared ones first
    opened = settle(riposte.params, {})  # the card's values as it opens
    assert opened == {"weapon": "Broadsword"}
    events = roll(enc, [95], "riposte", "bo", **opened)
    assert of(events, "attack")[0].data["msc"] == 58


def test_scp_36_an_unarmed_figure_parries_only_when_ranked() -> None:
    for ranks, asked in (({}, False), ({"Unarmed Combat": 0}, True)):
        enc = duel()
        bo = enc.setup_figure("bo")
        bo.equipment = []
        bo.skills = dict(ranks)
        enc = start(enc.with_figure(bo))
        roll(enc, [95], "melee", "ann", **SWORD)
        assert (enc.state.prompt is not None) is asked


def test_scp_30_scp_31_a4_99_breaks_100_drops_unless_3_x_md_and_pick_up() -> None:
    enc = start(duel())
    events = roll(enc, [99, 43], "melee", "ann", **SWORD)
    assert of(events, "fumble")[0].data["threshold"] == 42
    sword = enc.state.figures["ann"].item("Broadsword")
    assert sword.stats["broken"] is True and sword.state == "dropped"
    enc = start(duel())
    events = roll(enc, [100, 42], "melee", "ann", **SWORD)
    assert of(events, "fumble")[0].data["misfortune"] is False
    enc = start(duel())
    roll(enc, [100, 50], "melee", "ann", **SWORD)
    assert enc.state.figures["ann"].item("Broadsword").state == "dropped"
    act(enc, "decline_parry", "bo")  # 100 is also 30 or more above 51
    act(enc, "pass", "bo")
    act(enc, "next_step")
    initiative(enc, [9, 1])
    assert "prepare" in kinds(enc, "ann")
    act(enc, "prepare", "ann", item="Broadsword")
    assert enc.state.figures["ann"].item("Broadsword").state == "ready"


# ---- special attacks in play --------------------------------------------------------------


def test_scp_22_e2_disarm_at_msc_31_drops_a_weapon_and_costs_1_en() -> None:
    enc = start(duel())
    disarm = {"weapon": "Broadsword", "special": "disarm", "target": "bo", "drop": "Broadsword"}
    events = roll(enc, [31], "melee", "ann", **disarm)
    assert of(events, "attack")[0].data["msc"] == 31
    bo = enc.state.figures["bo"]
    assert bo.item("Broadsword").state == "dropped" and bo.pools["en"].current == 14


def test_scp_20_e2_knockout_rolls_1_to_7_of_msc_51_and_lasts_d10_plus_5_minutes_a21() -> None:
    ko = {"weapon": "Broadsword", "special": "knockout", "target": "bo"}
    enc = start(duel())
    events = roll(enc, [8], "melee", "ann", **ko)
    assert of(events, "attack")[0].data["outcome"] == "no_effect"
    enc = start(duel())
    events = roll(enc, [7, 1], "melee", "ann", **ko)
    status = of(events, "status")[0]
    assert "rolled secretly" in status.text and "6" not in status.text
    kept = of(enc.entry_events(enc.cursor - 1, GM), "status")[-1]  # the GM's alone
    assert kept.data["minutes"] == 6 and kept.data["pulses"] == 72 and kept.secret
    assert enc.ruleset.is_out(enc.state, enc.state.figures["bo"])


def test_scp_17_scp_23_trip_base_40_d10_and_the_footing_roll() -> None:
    enc = arena()
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        ANN_AT,
        1,
        items=["Quarterstaff"],
        md=12,
        ranks={"Quarterstaff": 1},
    )
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, ag=12)
    start(enc)
    trip = {"weapon": "Quarterstaff", "special": "trip", "target": "bo"}
    strike = enc.preview(Action("melee", "ann", trip)).rollables[0].stages[0].rollable  # type: ignore[attr-defined]
    assert strike.msc == 40 + 12 + 4 - 12
    events = roll(enc, [10, 3, 37], "melee", "ann", **trip)
    assert of(events, "damage")[0].data["damage"] == 3
    assert of(events, "footing")[0].data["threshold"] == 36
    assert enc.state.figures["bo"].has_status("prone")


def test_scp_18_a18_entangle_makes_prone_and_two_passes_free_before_rising() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Whip"])
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, ag=12)
    start(enc)
    events = roll(enc, [5, 6, 80], "melee", "ann", weapon="Whip", special="entangle", target="bo")
    assert of(events, "damage")[0].data["damage"] == 2  # D10 - 4 with a 6
    bo = enc.state.figures["bo"]
    assert bo.has_status("entangled") and bo.has_status("prone")
    assert kinds(enc, "bo") == ["pass"]  # cannot rise while entangled
    act(enc, "pass", "bo")
    act(enc, "next_step")
    initiative(enc, [9, 1])
    act(enc, "pass", "ann")
    events = act(enc, "pass", "bo")
    assert "free of the entanglement" in events[0].text
    assert "rise" in kinds(enc, "bo") or enc.state.figures["bo"].has_status("prone")


def test_scp_19_a16_a22_restrain_uses_unarmed_rank_and_breaks_on_outside_damage() -> None:
    enc = arena()
    enc = make(
        enc, "ann", "Ann", "Blue", ANN_AT, 1, ps=16, ag=14, md=12, ranks={"Unarmed Combat": 1}
    )
    enc = make(enc, "bo", "Bo", "Red", ANN_AT, 4, ps=12, ag=12)
    enc = make(enc, "cy", "Cy", "Red", neighbor(ANN_AT, 4), 1, items=["Short Bow"])
    start(enc)
    hold = {"weapon": "Bare hands", "special": "restrain", "target": "bo"}
    strike = enc.preview(Action("grapple", "ann", hold)).rollables[0].stages[0].rollable  # type: ignore[attr-defined]
    assert strike.msc == 34  # E-2 item 5: 18 + 12 + 4, no DR
    events = roll(enc, [34], "grapple", "ann", **hold)
    assert not of(events, "damage")
    assert enc.state.figures["bo"].has_status("restrained")
    assert kinds(enc, "bo") == ["pass"]


def test_scp_21_e2_shield_rush_after_a_charge_gets_plus_20() -> None:
    enc = arena(12, 8)
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        Hex(2, 3),
        1,
        items=["Broadsword", "Small Shield"],
        md=12,
        ranks={"Small Shield": 2},
    )
    enc = make(enc, "bo", "Bo", "Red", Hex(5, 2), 4, ag=10)
    start(enc)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "charge")
    to = str(spec.param("to").offered({"target": "bo"})[0].value)
    rush = {"target": "bo", "to": to, "weapon": "Small Shield", "special": "shield_rush"}
    events = roll(enc, [50, 5, 90], "charge", "ann", **rush)
    attack = of(events, "attack")[0]
    assert attack.data["base"] == 60 and attack.data["msc"] == 60 + 12 + 8 - 10
    assert of(events, "move")[0].rule == "SCP-8"


def test_scp_7_a15_the_secondary_hand_gets_minus_10() -> None:
    enc = start(duel())
    action = Action("melee", "ann", {**SWORD, "off_hand": True})
    assert enc.preview(action).rollables[0].stages[0].rollable.msc == 41  # type: ignore[attr-defined]


def test_scp_8_a_charge_moves_next_to_the_target_and_faces_it() -> None:
    enc = arena(12, 8)
    enc = make(enc, "ann", "Ann", "Blue", Hex(2, 3), 1, items=["Broadsword"])
    enc = make(enc, "bo", "Bo", "Red", Hex(5, 2), 4)
    start(enc)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "charge")
    to = spec.param("to").offered({"target": "bo"})[0].value
    roll(enc, [99, 1], "charge", "ann", target="bo", to=to, weapon="Broadsword", special="none")
    ann = enc.state.figures["ann"]
    assert str(ann.position) == to and neighbor(ann.position, ann.facing) == Hex(5, 2)


def test_scp_8_scp_39_a_charge_previews_the_strike_from_the_hex_it_ends_in() -> None:
    """The preview's odds are the roll's: from Bo's rear the shield does not count (SCP-39);
    the preview used to measure from where Ann stood ("attack through None")."""
    enc = arena(12, 8)
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        Hex(2, 3),
        1,
        items=["Broadsword"],
        md=12,
        ranks={"Broadsword": 2},
    )
    shield = {"Large Round Shield": 3}
    enc = make(enc, "bo", "Bo", "Red", Hex(5, 2), 4, ag=10, items=[*shield], ranks=shield)
    start(enc)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "charge")
    seen = {}
    for choice in spec.param("to").offered({"target": "bo"}):
        action = Action(
            "charge",
            "ann",
            {"target": "bo", "to": choice.value, "weapon": "Broadsword", "special": "none"},
        )
        preview = enc.preview(action)
        previewed = preview.rollables[0].stages[0].rollable.msc  # type: ignore[attr-defined]
        attack = of(enc.copy().perform(action, faces=[99, 1]), "attack")[0]
        assert previewed == attack.data["msc"], choice.label
        assert not any(
            "None" in line for line in (*preview.notes, *preview.rollables[0].breakdown())
        )
        seen[preview.notes[0].split("'s ")[1].split()[0]] = previewed  # the hex it comes through
    # the shield's 12 DR counts through the front and the shield side, not from the rear
    assert seen == {"BR": 60, "B": 60, "BL": 60, "FL": 48, "F": 48, "FR": 48}


def test_scp_3_scp_10_a24_the_measure_tool_names_where_a_hex_lies_for_the_missile() -> None:
    """Measured from Cy (a Short Bow, range 10, flight 15) the tool says
    too close, in range, past the range where a missile still flies, or beyond its flight."""
    enc = arena(20, 8)
    enc = make(enc, "cy", "Cy", "Blue", Hex(1, 3), 1, items=["Short Bow"])
    enc = make(enc, "ann", "Ann", "Red", Hex(3, 3), 1, items=["Broadsword"])
    state, rs = enc.state, enc.ruleset
    cy, ann = state.figures["cy"], state.figures["ann"]
    assert rs.range_band(state, cy, 1) == "too close to Fire the Short Bow (SCP-3)"
    assert rs.range_band(state, cy, 10) == "in range of the Short Bow (10 hexes, A-24)"
    assert rs.range_band(state, cy, 11).startswith("past the Short Bow's range (10 hexes)")
    assert rs.range_band(state, cy, 16) == "beyond the Short Bow's flight (15 hexes, SCP-10)"
    assert rs.range_band(state, ann, 2) == "" and rs.range_band(state, None, 2) == ""
    measured = measure_view(enc, cy.position, ann.position)
    assert measured["band"] == "in range of the Short Bow (10 hexes, A-24)"


def test_scp_42_scp_43_scp_45_scp_46_punch_and_kick() -> None:
    enc = arena()
    enc = make(
        enc,
        "ann",
        "Ann",
        "Blue",
        ANN_AT,
        1,
        items=["Quarterstaff"],
        ag=14,
        ps=18,
        md=10,
        ranks={"Unarmed Combat": 3},
    )
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, ag=10)
    start(enc)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "melee")
    # hands full with a two-handed staff: no punch, but a kick (SCP-46)
    assert [c.value for c in spec.param("weapon").choices] == ["Quarterstaff", "Kick"]
    kick = {"weapon": "Kick", "special": "trip", "target": "bo"}
    preview = enc.preview(Action("melee", "ann", kick))
    assert preview.rollables[0].stages[0].rollable.msc == 31 + 10 + 12 - 10  # type: ignore[attr-defined]
    assert preview.rollables[1].dice == "d10-2 min 0"  # type: ignore[attr-defined]


def test_scp_47_scp_50_a_rider_moves_with_its_mount_and_strikes_fl_fr() -> None:
    enc = arena()
    enc = make(enc, "horse", "Horse", "Blue", Hex(3, 3), 1, tmr=8, humanoid=False)
    enc = make(enc, "ann", "Ann", "Blue", Hex(3, 3), 1, items=["Broadsword"])
    ann = enc.setup_figure("ann")
    ann.mounted_on = "horse"
    enc = enc.with_figure(ann)
    enc = make(enc, "bo", "Bo", "Red", neighbor(Hex(3, 3), 1), 4)  # in F
    enc = make(enc, "cy", "Cy", "Red", neighbor(Hex(3, 3), 2), 4)  # in FR
    start(enc)
    assert "move" not in kinds(enc, "ann") or True
    while enc.ruleset.who_acts(enc.state).now() != ("ann",):
        act(enc, "pass", enc.ruleset.who_acts(enc.state).now()[0])
    assert "move" not in kinds(enc, "ann") and "charge" not in kinds(enc, "ann")
    assert target_ids(enc, "ann", "melee", weapon="Broadsword", special="none") == ["cy"]


def test_scp_53_scp_54_scp_55_scp_56_infection_after_combat() -> None:
    enc = start(duel())
    roll(enc, [5, 10], "melee", "ann", **SWORD)  # 12 damage: 12 off Fatigue (20)
    assert enc.state.figures["bo"].pools["ft"].current == 8
    assert "end_combat" not in kinds(enc, None)  # the fight goes on
    act(enc, "gm_end_fight")
    events = roll(enc, [11], "end_combat")
    assert of(events, "infection")[0].data == {
        **of(events, "infection")[0].data,
        "chance": 10,
        "infected": False,
    }
    assert "end_combat" not in kinds(enc, None)


def test_scp_56_scp_57_scp_58_daily_course_poison_has_no_cure_roll() -> None:
    enc = duel()
    bo = enc.setup_figure("bo")
    bo.statuses["infected"] = Status("infected")
    enc = enc.with_figure(bo)
    ann = enc.setup_figure("ann")
    ann.statuses["poisoned"] = Status("poisoned")
    enc = start(enc.with_figure(ann))
    assert "morning" not in kinds(enc, None)  # not in the fight
    act(enc, "gm_end_fight")
    act(enc, "end_combat")  # nobody was wounded: no infection check
    events = roll(enc, [7, 16, 7], "morning")  # Ann: D10 7 -> 2; Bo: 16 > EN 15, D10 7 -> 2
    assert [e.data["amount"] for e in of(events, "damage")] == [2, 2]
    events = roll(enc, [1, 15], "morning")
    assert enc.state.figures["ann"].pools["en"].current == 12  # poison: 1 more, no cure roll
    assert not enc.state.figures["bo"].has_status("infected")  # 15 <= 15 cures
    assert "morning" in kinds(
        enc, None
    )  # the poison goes on (SCP-58); only a cure ends it (SCP-57)


def test_scp_11_scp_12_a24_tied_figures_are_checked_clockwise_first() -> None:
    origin = Hex(4, 4)
    enc = arena(10, 10)
    enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Short Bow"], md=10)
    enc = make(enc, "bo", "Bo", "Red", origin + Hex.from_cube(2, -1, -1), 3, ag=10)
    enc = make(enc, "cw", "Clockwise", "Blue", origin + Hex.from_cube(1, 0, -1), 3, ag=10)
    enc = make(enc, "cc", "Counter", "Red", origin + Hex.from_cube(1, -1, 0), 3, ag=10)
    start(enc)
    fire = {"weapon": "Short Bow", "special": "none", "target": "bo"}
    chain = enc.preview(Action("fire", "ann", fire)).rollables[0]
    assert [s.id for s in chain.stages] == ["cw", "cc", "bo"]  # type: ignore[attr-defined]
    events = roll(enc, [95, 96, 97], "fire", "ann", **fire)
    assert [e.target for e in of(events, "attack")] == ["cw", "cc", "bo"]
    assert (
        "falls after 15 hexes" in of(events, "missile")[0].text
        or "leaves the board" in of(events, "missile")[0].text
    )
    enc2 = arena(10, 10).painted([origin + Hex.from_cube(3, -1, -2)], "wall")
    for f in ("ann", "bo"):
        enc2 = enc2.with_figure(enc.setup_figure(f))
    start(enc2)
    events = roll(enc2, [95], "fire", "ann", **fire)
    assert "breaks" in of(events, "missile")[0].text or "falls" in of(events, "missile")[0].text


def test_scp_9_fire_may_end_in_an_obscured_hex_but_not_pass_through() -> None:
    origin = Hex(4, 6)
    bo_at = origin + Hex(0, -3)
    enc = arena(10, 10).painted([bo_at], "obscured")
    enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Short Bow"])
    enc = make(enc, "bo", "Bo", "Red", bo_at, 3)
    start(enc)
    assert target_ids(enc, "ann", "fire", weapon="Short Bow", special="none") == ["bo"]
    enc = arena(10, 10).painted([origin + Hex(0, -2)], "obscured")
    enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Short Bow"])
    enc = make(enc, "bo", "Bo", "Red", bo_at, 3)
    start(enc)
    assert target_ids(enc, "ann", "fire", weapon="Short Bow", special="none") == []


def test_scp_10_the_missile_flies_on_after_a_miss_and_falls() -> None:
    origin = Hex(4, 8)
    enc = arena(10, 12)
    enc = make(enc, "ann", "Ann", "Blue", origin, 0, items=["Dagger"])
    enc = make(enc, "bo", "Bo", "Red", origin + Hex(0, -2), 3)
    enc = make(enc, "cy", "Cy", "Red", origin + Hex(0, -6), 3)  # at 6 = floor(1.5 x 4)
    start(enc)
    events = roll(enc, [95, 95], "fire", "ann", weapon="Dagger", special="none", target="bo")
    assert [e.target for e in of(events, "attack")] == ["bo", "cy"]
    end = hex_label(origin + Hex(0, -6))  # the thrown Dagger lies in Cy's hex
    assert of(events, "missile")[0].text.endswith(f"falls after 6 hexes (SCP-10) and lies at {end}")


def test_scp_13_scp_14_scp_15_i12_multiple_strike_options_exist() -> None:
    options = {o.name: o for o in enc_options()}
    assert options["scp.multiple_strikes"].default is True
    assert options["scp.high_rank"].default == 4
    assert options["scp.multiple_strike_modifier"].default == -10


def enc_options() -> list:  # type: ignore[type-arg]
    return list(arena().ruleset.options)


def test_scp_26_the_panel_shows_each_strike_chance_before_the_fight() -> None:
    enc = duel()
    view = enc.ruleset.figure_view(enc.state, enc.state.figures["ann"])
    assert view["strike chance with the Broadsword"] == 76 and view["defense_front"] == 12


def test_scp_37_scp_38_e1_the_panel_shows_the_defense_rating_front_and_rear() -> None:
    enc = duel()
    view = enc.ruleset.figure_view(enc.state, enc.state.figures["bo"])
    assert (view["defense_front"], view["defense_rear"]) == (25, 13)


def test_scp_40_a_stunned_defender_loses_the_shield_in_play() -> None:
    enc = start(edit(duel(), "bo", statuses={"stunned": Status("stunned")}))
    assert enc.preview(Action("melee", "ann", SWORD)).rollables[0].stages[0].rollable.msc == 63  # type: ignore[attr-defined]


def test_scp_48_scp_49_riders_cannot_use_two_handed_weapons() -> None:
    enc = arena()
    enc = make(enc, "horse", "Horse", "Blue", Hex(3, 3), 1, humanoid=False)
    enc = make(enc, "ann", "Ann", "Blue", Hex(3, 3), 1, items=["Halberd"])
    ann = enc.setup_figure("ann")
    ann.mounted_on = "horse"
    enc = enc.with_figure(ann)
    enc = make(enc, "bo", "Bo", "Red", neighbor(Hex(3, 3), 2), 4)
    start(enc)
    while enc.ruleset.who_acts(enc.state).now() != ("ann",):
        act(enc, "pass", enc.ruleset.who_acts(enc.state).now()[0])
    specs = [s for s in enc.legal_actions("ann") if s.kind == "melee"]
    assert all("Halberd" not in [c.value for c in s.param("weapon").choices] for s in specs)


def test_refused_attack_changes_nothing() -> None:
    enc = start(duel())
    with pytest.raises(IllegalActionError):
        roll(enc, [5], "melee", "ann", weapon="Broadsword", special="trip", target="bo")
    assert enc.state.memory["acted"] == []


def test_a13_finishing_the_initiative_step_previews_every_d10_it_rolls() -> None:
    """The step button's preview is the initiative roll (A-13): a D10 + AG // 5 per figure, in
    roll order, with exact odds and the dice to type; typed faces give those totals."""
    enc = duel()
    pv = enc.preview(Action("next_step"))
    assert [r.label for r in pv.rollables] == ["Ann's initiative", "Bo's initiative"]
    assert {r.rule for r in pv.rollables} == {"A-13"}
    ann = pv.rollables[0].to_json()
    assert ann["faces"] == [{"sides": 10, "dice": "d10", "who": "Ann", "when": ""}]
    bonus = int(ann["breakdown"][1].split()[0])
    assert ann["breakdown"][1].endswith("(A-13) (added to the roll)")
    assert [(o["label"], o["chance"]) for o in ann["outcomes"]] == [
        (str(t + bonus), "1/10") for t in range(1, 11)
    ]
    events = initiative(enc, [7, 2])
    assert of(events, "initiative")[0].text.startswith(f"Initiative: Ann {7 + bonus}")


def test_a13_agility_option_previews_only_the_roll_off_of_equal_agility() -> None:
    """Under the "agility" option only figures of equal AG roll a D10 off (A-13)."""
    enc = duel({"scp.initiative": "agility"})
    enc = make(enc, "cy", "Cy", "Blue", CY_AT, 0, ag=enc.state.figures["ann"].stats["ag"])
    ags = {f.name: f.stats.get("ag") for f in enc.state.figures.values()}
    tied = [name for name, ag in ags.items() if list(ags.values()).count(ag) > 1]
    labels = [r.label for r in enc.preview(Action("next_step")).rollables]
    assert "Ann" in tied and labels == [f"{name}'s roll-off" for name in tied]
