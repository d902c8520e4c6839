"""Strike-chance-pulse: what a referee found against the text, by rule id."""

from __future__ import annotations

from fractions import Fraction

import pytest
from strike_chance_pulse_fixtures import (
    ANN_AT,
    BO_AT,
    act,
    arena,
    duel,
    initiative,
    make,
    of,
    roll,
    ruleset,
)

from hexcombat import Action, Encounter, IllegalActionError, InvalidDocumentError
from hexcombat.document import to_document
from hexcombat.figures import Status
from hexcombat.geometry import neighbor
from hexcombat.rulesets.strike_chance_pulse import rules

pytestmark = pytest.mark.pyodide

SWORD = {"weapon": "Broadsword", "special": "none", "target": "bo"}


def start(enc: Encounter) -> Encounter:
    """Roll initiative so that the set-up order is the initiative order."""
    initiative(enc, list(range(10, 10 - len(enc.state.figures), -1)))
    return enc


def ready_choices(enc: Encounter, fid: str) -> list[str]:
    spec = next((s for s in enc.legal_actions(fid) if s.kind == "prepare"), None)
    return [] if spec is None else [str(c.value) for c in spec.param("item").choices]


def next_pulse(enc: Encounter) -> None:
    """Everyone still to act passes; the next Pulse's initiative in set-up order."""
    while enc.state.step.id != "initiative":
        waiting = enc.ruleset.who_acts(enc.state).waiting
        if waiting:
            act(enc, "pass", waiting[0])
        else:
            act(enc, "next_step")
    start(enc)


def dropped_sword(options: dict[str, object] | None = None) -> Encounter:
    """Ann fumbles a 100 and drops her Broadsword in her hex; Bo's hands are empty."""
    enc = duel(options)
    bo = enc.setup_figure("bo")
    bo.equipment = []
    enc = start(enc.with_figure(bo))
    roll(enc, [100, 50], "melee", "ann", **SWORD)
    assert enc.state.figures["ann"].item("Broadsword").state == "dropped"
    return enc


def test_scp_31_r16_any_figure_in_reach_picks_up_a_dropped_weapon_and_it_becomes_its() -> None:
    enc = dropped_sword()
    act(enc, "pass", "bo")
    next_pulse(enc)
    assert ready_choices(enc, "ann") == ["Broadsword"]
    act(enc, "pass", "ann")
    assert ready_choices(enc, "bo") == ["ann/Broadsword"]  # next to Ann's hex
    events = act(enc, "prepare", "bo", item="ann/Broadsword")
    assert of(events, "ready")[0].text == "Bo picks up Ann's Broadsword"
    ann, bo = enc.state.figures["ann"], enc.state.figures["bo"]
    assert [i.name for i in ann.equipment] == []
    assert bo.item("Broadsword").state == "ready" and "lies_at" not in bo.item("Broadsword").stats


def test_scp_31_r16_only_from_the_hex_it_lies_in() -> None:
    enc = dropped_sword({"scp.pick_up_reach": "same_hex"})
    act(enc, "pass", "bo")
    next_pulse(enc)
    assert ready_choices(enc, "ann") == ["Broadsword"]  # in her own hex
    act(enc, "move", "ann", to=str(neighbor(ANN_AT, 4)))  # one hex away from it
    assert ready_choices(enc, "bo") == []  # Bo is next to it, not in its hex
    act(enc, "pass", "bo")
    next_pulse(enc)
    assert ready_choices(enc, "ann") == []


def test_scp_31_r16_a_dropped_weapon_out_of_reach_is_not_offered() -> None:
    enc = dropped_sword()
    act(enc, "pass", "bo")
    next_pulse(enc)
    far = neighbor(neighbor(ANN_AT, 4), 4)
    act(enc, "move", "ann", to=str(far))
    assert ready_choices(enc, "bo") == ["ann/Broadsword"]
    act(enc, "pass", "bo")
    next_pulse(enc)
    assert ready_choices(enc, "ann") == []  # two hexes from where it lies
    before = to_document(enc)
    with pytest.raises(IllegalActionError):
        act(enc, "prepare", "ann", item="Broadsword")
    assert to_document(enc) == before


def test_scp_22_no_disarm_against_a_figure_with_nothing_to_drop() -> None:
    enc = duel()
    bo = enc.setup_figure("bo")
    bo.equipment = []
    enc = start(enc.with_figure(bo))
    melee = next(s for s in enc.legal_actions("ann") if s.kind == "melee")
    specials = melee.param("special").offered({"weapon": "Broadsword"})
    assert "disarm" not in [c.value for c in specials]
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match=r"got 'disarm'"):
        roll(enc, [1], "melee", "ann", weapon="Broadsword", special="disarm", target="bo")
    assert to_document(enc) == before


def test_scp_34_a8_a_parry_disarm_of_an_attacker_with_nothing_in_hand_drops_nothing() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, ranks={"Unarmed Combat": 0}, ag=12)
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, items=["Broadsword"], ranks={"Broadsword": 3})
    start(enc)
    hands = {"weapon": "Bare hands", "special": "none", "target": "bo"}
    roll(enc, [99], "melee", "ann", **hands)  # bare hands: no fumble check (SCP-31)
    events = roll(enc, [2], "parry", "bo")  # 2 + Rank 3 - Rank 0 = 5: a disarm
    parry = of(events, "parry")[0]
    assert "Ann is disarmed" not in parry.text and "Ann has nothing to drop" in parry.text
    disarm = of(events, "disarm")[0]
    assert disarm.data["item"] is None and "not disarmed" in disarm.text
    assert (
        enc.state.figures["ann"].pools["en"].current == enc.state.figures["ann"].pools["en"].maximum
    )


@pytest.mark.parametrize("zone", ["melee_zone", "any"])
def test_scp_35_r17_a_riposte_into_the_melee_zone_only_or_from_the_rear_too(zone: str) -> None:
    enc = duel({"scp.riposte_zone": zone})
    bo = enc.setup_figure("bo")
    bo.facing = 1  # Bo turns his back on Ann: she attacks through his rear hex
    enc = start(enc.with_figure(bo))
    roll(enc, [95], "melee", "ann", **SWORD)  # MSC 63 from the rear; 95 misses by 32
    events = roll(enc, [8], "parry", "bo")  # 8 + Rank 3 - Rank 3 = 8: riposte
    assert of(events, "parry")[0].data["result"] == "riposte"
    if zone == "melee_zone":
        assert enc.state.prompt is None
        assert "cannot riposte" in of(events, "riposte")[0].text
    else:
        assert enc.state.prompt is not None
        assert [s.kind for s in enc.legal_actions("bo")] == ["riposte", "decline_riposte"]
        events = roll(enc, [1, 5], "riposte", "bo", weapon="Broadsword")  # hits; D10 damage
        assert of(events, "attack")[0].text.startswith("Bo ripostes at Ann")


def timed(enc: Encounter) -> dict[str, str]:
    """The table's actions now with the time each is tied to."""
    return {s.kind: s.tied_to for s in enc.legal_actions(None) if s.kind != "next_step"}


def test_scp_53_the_end_of_combat_comes_only_once_the_fight_is_decided() -> None:
    enc = start(duel(ft=0, en=20))
    roll(enc, [5, 10], "melee", "ann", **SWORD)  # 12 damage: Bo is wounded in Pulse 1
    assert enc.state.figures["bo"].pools["en"].current == 8
    assert timed(enc) == {}  # no infection checks, no morning while the fight goes on
    assert "gm_end_fight" in [s.kind for s in enc.gm_actions()]
    act(enc, "pass", "bo")
    next_pulse(enc)
    roll(enc, [5, 10], "melee", "ann", **SWORD)  # Bo falls: the fight is decided
    assert enc.state.figures["bo"].has_status("dead")
    assert enc.ruleset.fight_outcome(enc.state) is not None
    assert timed(enc) == {"end_combat": "fight_over"}
    assert "gm_end_fight" not in [s.kind for s in enc.gm_actions()]


def test_scp_53_scp_56_the_gm_ends_the_fight_then_one_end_of_combat_then_one_morning_a_press() -> (
    None
):
    enc = duel()
    ann = enc.setup_figure("ann")
    ann.statuses["poisoned"] = Status("poisoned")
    enc = start(enc.with_figure(ann))
    assert timed(enc) == {}
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match="cannot morning now"):
        roll(enc, [7], "morning")
    assert to_document(enc) == before
    act(enc, "gm_end_fight")
    assert enc.legal_actions("ann") == [] and enc.legal_actions("bo") == []
    assert timed(enc) == {"end_combat": "fight_over"}  # the morning comes after it
    events = act(enc, "end_combat")
    assert of(events, "infection")[0].text == "End of combat: no living figure was wounded"
    assert timed(enc) == {"morning": "fight_over", "outside_cure": "fight_over"}
    assert enc.legal_actions(None)[0].label == "Morning 1: infection and poison"
    events = roll(enc, [7], "morning")  # one day: D10 7 -> 2 EN
    assert of(events, "morning")[0].text == "Morning 1 after the combat"
    assert enc.state.figures["ann"].pools["en"].current == 13
    assert enc.legal_actions(None)[0].label == "Morning 2: infection and poison"
    enc.undo()
    enc.undo()
    assert timed(enc) == {"end_combat": "fight_over"}


def beast(enc: Encounter, items: list[str]) -> Encounter:
    """Bo is a non-humanoid monster with natural weapons, facing Ann."""
    return make(enc, "bo", "Bo", "Red", BO_AT, 4, items=items, humanoid=False, ag=10, md=10)


def test_scp_14_scp_26_natural_weapons_use_no_hands_and_a_monster_strikes_3_times() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Broadsword"], ag=12)
    enc = beast(enc, ["Claws", "Claws", "Teeth"])  # three natural weapons: accepted
    enc = start(enc)
    act(enc, "pass", "ann")
    spec = next(s for s in enc.legal_actions("bo") if s.kind == "multiple_strike")
    weapons = [c.value for c in spec.param("weapon").offered({"form": "two_weapon"})]
    assert weapons == ["Claws + Claws + Teeth"]
    assert [p.name for p in spec.params][2:5] == ["target", "second_target", "third_target"]
    strikes = {
        "form": "two_weapon",
        "weapon": "Claws + Claws + Teeth",
        "target": "ann",
        "second_target": "ann",
        "third_target": "ann",
    }
    # each: 40 + MD 10 (natural, SCP-26) - Ann's AG 12 - 10 (multiple, A-15) = 28; no hand
    preview = enc.preview(Action("multiple_strike", "bo", strikes)).to_json()
    checks = [r for r in preview["rollables"] if r["kind"] == "chain"]
    assert [c["headline"]["chance"] for c in checks] == ["7/25"] * 3
    events = roll(enc, [90, 90, 90], "multiple_strike", "bo", **strikes)
    assert [e.data["msc"] for e in of(events, "attack")] == [28, 28, 28]
    # the third strike may be left out
    enc.undo()
    two = {**strikes, "third_target": "none"}
    events = roll(enc, [90, 90], "multiple_strike", "bo", **two)
    assert len(of(events, "attack")) == 2


def test_scp_14_a_monster_holding_two_weapons_also_bites() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Broadsword"], ag=12)
    enc = beast(enc, ["Broadsword", "Dagger", "Teeth"])  # two hands full, and teeth
    enc = start(enc)
    act(enc, "pass", "ann")
    spec = next(s for s in enc.legal_actions("bo") if s.kind == "multiple_strike")
    melee = spec.param("weapon").offered({"form": "two_weapon"})
    assert [c.value for c in melee] == ["Broadsword + Dagger + Teeth"]
    close = spec.param("weapon").offered({"form": "two_weapon_grapple"})
    assert [c.value for c in close] == ["Dagger + Teeth"]  # a Broadsword is not for Close
    with pytest.raises(InvalidDocumentError, match="more than two hands"):  # hands still count
        beast(arena(), ["Broadsword", "Dagger", "Large Round Shield", "Teeth"])


def brawler(unarmed: int, options: dict[str, object] | None = None) -> Encounter:
    """Ann, empty-handed at Unarmed Combat Rank ``unarmed``, faces Bo (E-2's Bo, DR 25)."""
    enc = duel(options)
    ann = enc.setup_figure("ann")
    ann.equipment = []
    ann.skills = {"Unarmed Combat": unarmed}
    return start(enc.with_figure(ann))


PUNCH_KICK = {
    "form": "punch_kick",
    "weapon": "Bare hands + Kick",
    "target": "bo",
    "second_target": "bo",
}


def form_values(enc: Encounter) -> list[str]:
    spec = next((s for s in enc.legal_actions("ann") if s.kind == "multiple_strike"), None)
    return [] if spec is None else [str(c.value) for c in spec.param("form").choices]


@pytest.mark.parametrize("reading", ["multiple", "free"])
def test_scp_46_r18_from_unarmed_rank_3_a_punch_and_a_kick_in_one_attack(reading: str) -> None:
    assert form_values(brawler(2, {"scp.punch_and_kick": reading})) == []
    enc = brawler(3, {"scp.punch_and_kick": reading})
    assert form_values(enc) == ["punch_kick"]
    # punch and kick: Base 2 x AG 12 = 24, + MD 14 + 4 x Rank 3 = 50, - Bo's DR 25 = 25
    msc = 25 - (10 if reading == "multiple" else 0)
    events = roll(enc, [90, 90], "multiple_strike", "ann", **PUNCH_KICK)
    attacks = of(events, "attack")
    assert [a.data["msc"] for a in attacks] == [msc, msc]
    assert [a.data["weapon"] for a in attacks] == ["Bare hands", "Kick"]


def test_a15_a_short_bow_and_a_crossbow_take_both_hands() -> None:
    enc = arena()
    for bow in ("Short Bow", "Crossbow"):
        with pytest.raises(InvalidDocumentError, match="more than two hands"):
            make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=[bow, "Large Round Shield"])
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Short Bow"])
    enc = start(make(enc, "bo", "Bo", "Red", BO_AT, 4))
    assert "melee" not in [s.kind for s in enc.legal_actions("ann")]  # no hand free to punch


def test_scp_31_a14_two_items_of_one_name_are_readied_and_dropped_one_by_one() -> None:
    enc = duel()
    ann = enc.setup_figure("ann")
    ann.equipment = [ruleset(enc).item("Dagger"), ruleset(enc).item("Dagger")]
    for item in ann.equipment:
        item.state = "carried"
    enc = start(enc.with_figure(ann))
    act(enc, "prepare", "ann", item="Dagger")
    act(enc, "pass", "bo")
    next_pulse(enc)
    assert ready_choices(enc, "ann") == ["Dagger"]  # the second one is still on the belt
    act(enc, "prepare", "ann", item="Dagger")
    assert [i.state for i in enc.state.figures["ann"].equipment] == ["ready", "ready"]
    act(enc, "pass", "bo")
    for _ in range(2):  # a 100 and a failed check each time: each drops a Dagger in hand
        next_pulse(enc)
        dagger = {"weapon": "Dagger", "special": "none", "target": "bo"}
        roll(enc, [100, 99], "melee", "ann", **dagger)
        if enc.state.prompt is not None:
            act(enc, "decline_parry", "bo")
        act(enc, "pass", "bo")
    assert [i.state for i in enc.state.figures["ann"].equipment] == ["dropped", "dropped"]


def test_scp_54_scp_56_the_end_of_combat_and_a_morning_preview_what_they_roll() -> None:
    enc = duel()
    bo = enc.setup_figure("bo")
    bo.memory.update(wounded=True, en_damage=7, bitten=False)
    enc = enc.with_figure(bo)
    enc = start(enc)
    act(enc, "gm_end_fight")
    checks = enc.preview(Action("end_combat")).rollables
    assert [(c.label, c.chance()) for c in checks] == [("Bo: infection", Fraction(37, 100))]
    events = roll(enc, [37], "end_combat")  # 37 <= 10 + 20 + 7: infected
    assert of(events, "infection")[0].data["infected"] is True
    (morning,) = enc.preview(Action("morning")).rollables
    odds = {o.id: o.chance for o in morning.outcomes()}
    assert sum(odds.values()) == 1 and odds["cure.success"] == Fraction(15, 100)
    # D10 - 5, at least 1 (SCP-56): faces 1...6 give 1, then 2...5
    for face in range(1, 11):
        damage = f"damage.{rules.daily_damage(face)}"
        assert odds[damage] == Fraction(85, 100) * Fraction(
            sum(rules.daily_damage(f) == rules.daily_damage(face) for f in range(1, 11)), 10
        )
    events = roll(enc, [16, 8], "morning")  # not cured; 8 - 5 = 3
    assert [e.data["amount"] for e in of(events, "damage")] == [3]


def test_scp_31_r16_a_picked_up_item_is_told_apart_from_the_pickers_own_of_that_name() -> None:
    enc = duel()
    bo = enc.setup_figure("bo")
    bo.equipment = [ruleset(enc).item("Broadsword")]
    bo.equipment[0].state = "carried"  # on Bo's belt
    enc = start(enc.with_figure(bo))
    roll(enc, [100, 50], "melee", "ann", **SWORD)  # Ann drops hers (no parry: Bo is unarmed)
    assert ready_choices(enc, "bo") == ["Broadsword", "ann/Broadsword"]
    events = act(enc, "prepare", "bo", item="ann/Broadsword")
    assert of(events, "ready")[0].text == "Bo picks up Ann's Broadsword"
    names = [(i.name, i.state) for i in enc.state.figures["bo"].equipment]
    assert names == [("Broadsword", "carried"), ("Broadsword (Ann's)", "ready")]
