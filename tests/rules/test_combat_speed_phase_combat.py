"""combat-speed-phase strikes by rule id: reach and arc (the text's), impairment, the GM's
ruling logged like any event, the borrowed skirmish roll, and the options that shape them."""

from __future__ import annotations

import pytest
from combat_speed_phase_fixtures import (
    add,
    arena,
    choices,
    kinds,
    last,
    next_step,
    run_phase,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.errors import InvalidDocumentError
from hexcombat.layout import from_offset
from hexcombat.rulesets.combat_speed_phase import weapon_reach
from hexcombat.rulesets.registry import get_ruleset

pytestmark = pytest.mark.pyodide

RS = get_ruleset("combat-speed-phase")


def duel(
    options: dict[str, object] | None = None,
    *,
    gap: int = 1,
    weapon: str = "Hand-and-a-half sword",
    bob_facing: int = 3,
    **bob: object,
) -> Encounter:
    """Ann at offset (4, 7) facing north with ``weapon``; Bob ``gap`` hexes north of her; the
    GM rules strikes unless ``options`` say otherwise (C-1)."""
    enc = arena({"csp.combat_resolver": "gm", **(options or {})}, width=9, height=12)  # type: ignore[arg-type]
    enc = add(enc, "ann", (4, 7), side="A", weapon=weapon)
    return add(enc, "bob", (4, 7 - gap), side="B", facing=bob_facing, **bob)  # type: ignore[arg-type]


def to_combat(enc: Encounter, **speeds: int) -> Encounter:
    run_phase(enc, {"ann": 0, "bob": 0, **speeds})
    return enc


def gm(enc: Encounter, fid: str = "ann", **params: object) -> Action:
    base = {"weapon": "Hand-and-a-half sword", "target": "bob", "outcome": "hit"}
    return Action("strike", fid, {**base, **params})  # type: ignore[arg-type]


# ---- the text's part: reach and arc ----------------------------------------------------------


def test_csp_17_c13_reach_2_strikes_at_1_and_2_reach_1_only_adjacent() -> None:
    assert weapon_reach(RS.item("Hand-and-a-half sword")) == 2  # the text's "2+"
    assert weapon_reach(RS.item("Short sword")) == 1
    for gap, sword, short in ((1, True, True), (2, True, False), (3, False, False)):
        enc = to_combat(duel(gap=gap))
        assert ("strike" in kinds(enc, "ann")) is sword, gap
        enc = to_combat(duel(gap=gap, weapon="Short sword"))
        assert ("strike" in kinds(enc, "ann")) is short, gap


def test_csp_17_c13_exact_reach_option() -> None:
    enc = to_combat(duel({"csp.reach_reading": "exact"}, gap=1))
    assert "strike" not in kinds(enc, "ann")
    enc = to_combat(duel({"csp.reach_reading": "exact"}, gap=2))
    assert "strike" in kinds(enc, "ann")


def test_csp_17_c17_gap_option_counts_the_hexes_between() -> None:
    enc = to_combat(duel({"csp.narrative_distance": "gap"}, gap=3))  # 2 hexes between
    assert "strike" in kinds(enc, "ann")
    enc = to_combat(duel({"csp.narrative_distance": "gap"}, gap=2, weapon="Short sword"))
    assert "strike" in kinds(enc, "ann")  # 1 hex between, reach 1


def test_csp_17_c13_the_target_must_be_in_the_front_arc() -> None:
    enc = arena({"csp.combat_resolver": "gm"}, width=9, height=12)
    enc = add(enc, "ann", (4, 7), side="A", facing=3, weapon="Hand-and-a-half sword")
    enc = add(enc, "bob", (4, 6), side="B", facing=3)  # behind Ann
    to_combat(enc)
    assert "strike" not in kinds(enc, "ann")
    pv = enc.preview(gm(enc))
    assert not pv.allowed
    for arc, offered in (("half180", False), ("any", True)):
        e = arena({"csp.attack_arc": arc, "csp.combat_resolver": "gm"}, width=9, height=12)
        e = add(e, "ann", (4, 7), side="A", facing=3, weapon="Hand-and-a-half sword")
        e = add(e, "bob", (4, 6), side="B", facing=3)
        to_combat(e)
        assert ("strike" in kinds(e, "ann")) is offered, arc


def test_csp_17_data_reach_is_overridable_per_encounter() -> None:
    enc = duel(gap=3)
    table = {"weapons": {"Hand-and-a-half sword": {"reach": 3, "damage": "d8"}}}
    enc = enc.with_setup(data=table)
    ann = enc.setup_figure("ann")
    ann.equipment = [RS.item("Hand-and-a-half sword", enc.state.data)]  # type: ignore[attr-defined]
    enc = enc.with_figure(ann)
    to_combat(enc)
    assert "strike" in kinds(enc, "ann")
    assert RS.default_data()["weapons"]["Dagger"]["house_default"] is True  # type: ignore[index]


# ---- impaired (CSP-3, C-2, C-7) ------------------------------------------------------------------


def qualify(enc: Encounter) -> None:
    """Ann walks 1 hex away and back to where she was (a phase at CS, CSP-13)."""
    run_phase(enc, {"ann": 1, "bob": 0}, {"ann": str(from_offset(4, 8))})
    next_step(enc)


def test_csp_3_c7_declared_n_3_impairs_even_moving_only_1_hex() -> None:
    enc = duel(gap=2)
    qualify(enc)
    run_phase(enc, {"ann": 3, "bob": 0}, {"ann": str(from_offset(4, 7))})
    ann = enc.state.figures["ann"]
    assert ann.has_status("impaired") and "impaired" in RS.badges(enc.state, ann)
    pv = enc.preview(gm(enc))
    assert pv.allowed
    assert any("is impaired (N > 1)" in n and "CSP-3, C-2" in n for n in pv.notes)
    next_step(enc)
    assert not enc.state.figures["ann"].has_status("impaired")


def test_csp_3_c2_no_attack_option_bars_an_impaired_striker() -> None:
    enc = duel({"csp.fast_move_penalty": "no_attack_no_shield"}, gap=2)
    qualify(enc)
    run_phase(enc, {"ann": 3, "bob": 0}, {"ann": str(from_offset(4, 7))})
    assert "strike" not in kinds(enc, "ann")
    assert "cannot strike (CSP-3, C-2)" in RS.idle_text(enc.state, enc.state.figures["ann"])


def borrowed(enc: Encounter) -> Action:
    return Action("strike", "ann", {"weapon": "Hand-and-a-half sword", "target": "bob"})


def test_csp_3_c2_shield_gives_no_defence_while_impaired_in_the_borrowed_roll() -> None:
    enc = duel({"csp.combat_resolver": "skirmish"}, gap=2, shield=True)
    to_combat(enc)
    chain = enc.preview(borrowed(enc)).rollables[0]
    assert any("Bob's shield" in line for line in chain.breakdown())
    enc = duel({"csp.combat_resolver": "skirmish"}, gap=3, shield=True)
    run_phase(enc, {"ann": 0, "bob": 1}, {"bob": str(from_offset(4, 5))})  # Bob at CS
    next_step(enc)
    run_phase(enc, {"ann": 0, "bob": 2})  # declared N = 2: impaired, shield useless
    assert enc.state.figures["bob"].has_status("impaired")
    chain = enc.preview(borrowed(enc)).rollables[0]
    assert not any("Bob's shield" in line for line in chain.breakdown())
    assert any("shield gives no defence" in n for n in enc.preview(borrowed(enc)).notes)


# ---- the GM's part (C-1) ------------------------------------------------------------------


def test_c1_the_gm_enters_the_outcome_and_it_is_logged_as_the_gms() -> None:
    enc = to_combat(duel(gap=2))
    spec = next(a for a in enc.legal_actions("ann") if a.kind == "strike")
    assert [p.name for p in spec.params] == ["weapon", "target", "outcome", "damage", "status"]
    assert "the GM's to enter (C-1)" in spec.help
    assert RS.action_words(spec)["confirm"] == "Log the GM's ruling"
    pv = enc.preview(gm(enc))
    assert pv.allowed and pv.rollables == ()
    assert pv.notes[0].startswith("Text: Bob is 2 away; the Hand-and-a-half sword reaches 1-2")
    assert pv.notes[-1].startswith("GM: enter hit or miss")
    events = enc.perform(gm(enc, damage=3, status="stunned"))
    strike = next(e for e in events if e.kind == "strike")
    assert strike.text == (
        "Ann hits Bob with the Hand-and-a-half sword: 3 damage (7/10 hp left), stunned "
        "(GM's ruling, C-1)"
    )
    assert [d.split(":")[0] for d in strike.details] == [
        "Text",
        "Text",
        "GM",
        "GM",
        "GM",
        "The text has no combat resolution (its Chapter 6 is missing)",
    ]
    assert strike.data["source"] == "gm"
    assert enc.state.figures["bob"].has_status("stunned")
    enc.undo()
    enc.redo()
    assert last(enc, "strike").text == strike.text


def test_c1_a_miss_takes_no_damage_and_status_needs_a_hit() -> None:
    enc = to_combat(duel(gap=2))
    with pytest.raises(IllegalActionError, match="a miss does no damage"):
        enc.perform(gm(enc, outcome="miss", damage=2))
    with pytest.raises(IllegalActionError, match="must be one of No status"):
        enc.perform(gm(enc, outcome="miss", status="prone"))
    events = enc.perform(gm(enc, outcome="miss"))
    assert events[0].text == "Ann misses Bob with the Hand-and-a-half sword (GM's ruling, C-1)"


def test_c1_csp_12_r3_a_gm_ruling_can_put_a_figure_on_its_knees_or_down() -> None:
    enc = to_combat(duel(gap=2))
    enc.perform(gm(enc, damage=1, status="on_knees"))
    next_step(enc)
    assert choices(enc, "bob", "declare_speed", "n") == [0, 1]
    enc = to_combat(duel(gap=2))
    enc.perform(gm(enc, damage=10))
    assert last(enc, "status").text == "Bob is down"
    assert RS.is_out(enc.state, enc.state.figures["bob"])


def test_c_1_by_default_movement_only_no_strike_is_offered() -> None:
    """C-1: the text has no combat; by default the ruleset runs movement only (the spec's
    default), the GM ruling and the borrowed roll are the option's alternatives."""
    assert RS.default_options()["csp.combat_resolver"] == "none"
    enc = arena(width=9, height=12)
    enc = add(enc, "ann", (4, 7), side="A", weapon="Hand-and-a-half sword")
    enc = to_combat(add(enc, "bob", (4, 6), side="B", facing=3))
    assert kinds(enc, "ann") == [] and kinds(enc, "bob") == []
    assert "Movement only" in RS.idle_text(enc.state, enc.state.figures["ann"])
    assert enc.ruleset.who_acts(enc.state).now() == ()
    gm_enc = to_combat(duel({"csp.combat_resolver": "gm"}, gap=1))
    assert kinds(gm_enc, "ann") == ["strike"]


def test_c1_borrowed_skirmish_roll_with_typed_dice() -> None:
    enc = to_combat(duel({"csp.combat_resolver": "skirmish"}, gap=2))
    spec = next(a for a in enc.legal_actions("ann") if a.kind == "strike")
    assert [p.name for p in spec.params] == ["weapon", "target"]
    action = Action("strike", "ann", {"weapon": "Hand-and-a-half sword", "target": "bob"})
    chain = enc.preview(action).rollables[0]
    assert chain.headline() is not None
    assert str(chain.headline().chance) == "3/5"  # d20 + 3 >= 12
    events = enc.perform(action, faces=[15, 6])
    strike = next(e for e in events if e.kind == "strike")
    assert strike.text == (
        "Ann strikes Bob with the Hand-and-a-half sword: hit, 6 damage (4/10 hp left) "
        "(roll borrowed from skirmish, C-1)"
    )


def test_c1_c2_borrowed_roll_gets_the_impaired_placeholder_penalty() -> None:
    enc = duel({"csp.combat_resolver": "skirmish", "csp.impaired_penalty": -5}, gap=2)
    qualify(enc)
    run_phase(enc, {"ann": 3, "bob": 0}, {"ann": str(from_offset(4, 7))})
    action = Action("strike", "ann", {"weapon": "Hand-and-a-half sword", "target": "bob"})
    chain = enc.preview(action).rollables[0]
    assert str(chain.headline().chance) == "7/20"  # d20 + 3 - 5 >= 12
    assert any("Impaired striker" in line and "house default" in line for line in chain.breakdown())


def test_r1_strikes_per_phase() -> None:
    enc = to_combat(duel(gap=2))
    enc.perform(gm(enc, outcome="miss"))
    assert kinds(enc, "ann") == []
    enc = to_combat(duel({"csp.strikes_per_phase": 2}, gap=2))
    enc.perform(gm(enc, outcome="miss"))
    assert kinds(enc, "ann") == ["strike"]


# ---- hit points (R-3) -------------------------------------------------------------------------


def test_csp_r3_by_default_each_figure_has_its_hit_points_and_is_down_at_0() -> None:
    assert RS.default_options()["csp.hit_points"] == "track"
    assert RS.new_figure("x", "X", "A", from_offset(0, 0)).stats["hp"] == 10
    enc = to_combat(duel(gap=2, hp=4))
    assert enc.state.figures["bob"].pools["hp"].maximum == 4
    spec = next(a for a in enc.legal_actions("ann") if a.kind == "strike")
    assert "damage" in [p.name for p in spec.params]
    enc.perform(gm(enc, damage=4))
    assert enc.state.figures["bob"].pools["hp"].current == 0
    assert RS.is_out(enc.state, enc.state.figures["bob"])


def test_csp_r3_without_hit_points_the_gm_rules_who_is_down() -> None:
    enc = to_combat(duel({"csp.hit_points": "none"}, gap=2, hp=4))
    assert "hp" not in enc.state.figures["bob"].pools
    spec = next(a for a in enc.legal_actions("ann") if a.kind == "strike")
    assert [p.name for p in spec.params] == ["weapon", "target", "outcome", "status"]
    with pytest.raises(IllegalActionError):
        enc.perform(gm(enc, damage=4))
    events = enc.perform(gm(enc, status="stunned"))
    strike = next(e for e in events if e.kind == "strike")
    assert strike.text == "Ann hits Bob with the Hand-and-a-half sword: stunned (GM's ruling, C-1)"
    assert not any("damage" in d for d in strike.details)
    assert strike.data["hp"] is None and strike.data["damage"] == 0
    assert not RS.is_out(enc.state, enc.state.figures["bob"])
    enc = to_combat(duel({"csp.hit_points": "none"}, gap=2))
    enc.perform(gm(enc, status="down"))
    assert RS.is_out(enc.state, enc.state.figures["bob"])
    with pytest.raises(InvalidDocumentError, match="cannot go with the borrowed skirmish roll"):
        duel({"csp.hit_points": "none", "csp.combat_resolver": "skirmish"})


# ---- when strikes take effect (R-7) --------------------------------------------------------------


def exchange(options: dict[str, object] | None = None) -> Encounter:
    """Ann and Bob face each other 1 apart, both within reach, in the combat step."""
    return to_combat(duel(options, gap=1, hp=5))


def bob_strikes() -> Action:
    return Action(
        "strike",
        "bob",
        {"weapon": "Short sword", "target": "ann", "outcome": "hit", "damage": 2},
    )


def test_csp_17_r7_by_default_a_strike_lands_at_once_and_the_downed_cannot_strike_back() -> None:
    enc = exchange()
    events = enc.perform(gm(enc, damage=5))
    assert events[0].text.startswith("Ann hits Bob with the Hand-and-a-half sword: 5 damage (0/5")
    assert RS.is_out(enc.state, enc.state.figures["bob"])
    assert kinds(enc, "bob") == []


def test_csp_17_r7_option_the_phase_strikes_land_together_whatever_the_entry_order() -> None:
    options = {"csp.strike_effects": "end_of_combat"}
    enc = exchange(options)
    events = enc.perform(gm(enc, damage=5, status="stunned"))
    assert events[0].text == (
        "Ann hits Bob with the Hand-and-a-half sword: 5 damage, stunned, at the end of the "
        "combat step (GM's ruling, C-1)"
    )
    bob = enc.state.figures["bob"]
    assert bob.pools["hp"].current == 5 and not bob.has_status("stunned")
    assert RS.figure_view(enc.state, bob)["pending_hits"] == "5 damage, Stunned"
    assert kinds(enc, "bob") == ["strike"]  # struck down, it still strikes this phase
    enc.perform(bob_strikes())
    events = next_step(enc)
    landed = [e.text for e in events if e.kind == "status"]
    assert landed == [
        "Ann: 2 damage (8/10 hp left), as the phase's strikes land together (R-7)",
        "Bob: 5 damage (0/5 hp left), stunned, as the phase's strikes land together (R-7)",
        "Bob is down",
    ]
    other = exchange(options)
    other.perform(bob_strikes())
    other.perform(gm(other, damage=5, status="stunned"))
    next_step(other)
    assert {f.id: f.to_json() for f in other.state.figures.values()} == {
        f.id: f.to_json() for f in enc.state.figures.values()
    }


def test_c1_r7_a_borrowed_roll_lands_at_the_end_of_combat_too() -> None:
    enc = exchange({"csp.strike_effects": "end_of_combat", "csp.combat_resolver": "skirmish"})
    events = enc.perform(borrowed(enc), faces=[15, 6])
    assert events[0].text == (
        "Ann strikes Bob with the Hand-and-a-half sword: hit, 6 damage, at the end of the "
        "combat step (roll borrowed from skirmish, C-1)"
    )
    assert enc.state.figures["bob"].pools["hp"].current == 5
    next_step(enc)
    assert RS.is_out(enc.state, enc.state.figures["bob"])
    assert last(enc, "status").text == "Bob is down"
