"""strike-chance-pulse through the Encounter API: Multiple Strikes (SCP-13...SCP-15) as an
action in play, and the mounted Charge with its momentum (SCP-51, SCP-52) on the engine's
mount links (figures.mounted_on) and bodies (footprints)."""

from __future__ import annotations

import pytest
from strike_chance_pulse_fixtures import (
    ANN_AT,
    BO_AT,
    RIDE_FROM,
    ahead,
    arena,
    initiative,
    kinds,
    make,
    of,
    riding,
    roll,
)

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.events import Event
from hexcombat.geometry import neighbor
from hexcombat.layout import hex_label
from hexcombat.validation import Json

pytestmark = pytest.mark.pyodide

CY_AT = neighbor(ANN_AT, 0)  # Ann's FL hex (she faces 1)


def two_blades(options: dict[str, object] | None = None, sword_rank: int = 4) -> Encounter:
    """Ann: Broadsword (Rank ``sword_rank``) and Dagger (Rank 1); Bo in F, Cy in FL."""
    enc = arena(options=options)
    ranks = {"Broadsword": sword_rank, "Dagger": 1}
    enc = make(
        enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Broadsword", "Dagger"], ranks=ranks, md=14
    )
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, ag=12)
    enc = make(enc, "cy", "Cy", "Red", CY_AT, 3, ag=10)
    initiative(enc, [10, 9, 8])
    return enc


def forms(enc: Encounter) -> list[str]:
    spec = next((s for s in enc.legal_actions("ann") if s.kind == "multiple_strike"), None)
    return [] if spec is None else [str(c.value) for c in spec.param("form").choices]


def test_scp_13_i11_i12_who_may_make_a_multiple_strike() -> None:
    assert forms(two_blades()) == ["two_weapon", "multi_target"]
    assert forms(two_blades(sword_rank=3)) == ["two_weapon"]  # SCP-15 needs Rank 4
    assert forms(two_blades({"scp.multiple_strikes": False})) == []  # I-12
    assert forms(two_blades({"scp.high_rank": 5})) == ["two_weapon"]  # A-15 option


def test_scp_14_a15_a31_two_weapons_strike_two_targets_in_declaration_order() -> None:
    enc = two_blades()
    action = {
        "form": "two_weapon",
        "weapon": "Broadsword + Dagger",
        "target": "bo",
        "second_target": "cy",
    }
    # Broadsword at Bo: 50 + 14 + 4 x 4 - 12 - 10 (multiple) = 58
    # Dagger at Cy: 45 + 14 + 4 x 1 - 10 - 10 (secondary hand, SCP-7) - 10 (multiple) = 33
    preview = enc.preview(Action("multiple_strike", "ann", action)).to_json()
    checks = [r for r in preview["rollables"] if r["kind"] == "chain"]
    assert [c["headline"]["chance"] for c in checks] == ["29/50", "33/100"]
    events = roll(enc, [10, 5, 95], "multiple_strike", "ann", **action)
    assert of(events, "multiple_strike")[0].data["targets"] == ["bo", "cy"]
    attacks = of(events, "attack")
    assert [(a.target, a.data["msc"], a.data["hit"]) for a in attacks] == [
        ("bo", 58, True),
        ("cy", 33, False),
    ]
    assert of(events, "damage")[0].data["damage"] == 7  # d10 + 2 with a 5
    assert "multiple_strike" not in kinds(enc, "ann")  # one action a Pulse


def test_scp_15_one_weapon_at_rank_4_strikes_each_adjacent_target_once() -> None:
    enc = two_blades()
    action = {"form": "multi_target", "weapon": "Broadsword", "target": "cy", "second_target": "bo"}
    with pytest.raises(IllegalActionError, match="each target once"):
        enc.perform(
            Action("multiple_strike", "ann", {**action, "second_target": "cy"}), faces=[1, 1]
        )
    events = roll(enc, [95, 95], "multiple_strike", "ann", **action)
    # Broadsword at Cy: 50 + 14 + 16 - 10 - 10 = 60; at Bo: 58
    assert [(a.target, a.data["msc"]) for a in of(events, "attack")] == [("cy", 60), ("bo", 58)]


def test_scp_15_only_adjacent_targets_in_the_melee_zone() -> None:
    enc = arena()
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Spear"], ranks={"Spear": 4})
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4)
    enc = make(enc, "cy", "Cy", "Red", neighbor(ANN_AT, 4), 1)  # behind her: B
    initiative(enc, [10, 9, 8])
    assert "multiple_strike" not in kinds(enc, "ann")  # only one target in the zone


# ---- SCP-51, SCP-52: the mounted Charge ------------------------------------------------------


def cavalry(footprint: tuple[Hex, ...] = (), bo_at: int = 4) -> Encounter:
    """Ann (Spear, Horsemanship 1, AG 12) rides Horse (TMR 5) facing 1; Bo ``bo_at`` ahead."""
    return riding(["Spear"], {"Spear": 2, "Horsemanship": 1}, bo_at, footprint)


def charge_ends(enc: Encounter, fid: str) -> list[str]:
    spec = next((s for s in enc.legal_actions(fid) if s.kind == "mounted_charge"), None)
    return (
        [] if spec is None else [str(c.value) for c in spec.param("to").offered({"target": "bo"})]
    )


def test_scp_51_a_mounted_charge_runs_straight_with_no_facing_change() -> None:
    enc = cavalry()
    assert charge_ends(enc, "horse") == [str(ahead(3))]  # the spear reaches F
    assert "charge" not in kinds(enc, "horse")  # the on-foot Charge is not the mount's
    charge = {"target": "bo", "to": str(ahead(3)), "weapon": "Spear"}
    with pytest.raises(IllegalActionError, match="must be one of"):
        enc.perform(Action("mounted_charge", "horse", {**charge, "to": str(ahead(2))}))
    events = roll(enc, [10, 5], "mounted_charge", "horse", **charge)
    state = enc.state
    horse, ann = state.figures["horse"], state.figures["ann"]
    assert (horse.position, horse.facing) == (ahead(3), 1)  # facing unchanged
    assert (ann.position, ann.facing) == (ahead(3), 1)  # the rider moved with it
    attack = of(events, "attack")[0]
    assert attack.figure == "ann" and attack.data["hit"] is True
    assert attack.data["msc"] == 45 + 12 + 4 * 2 - 10  # Spear (placeholder A-15), MD, Rank, AG
    assert of(events, "move")[0].text == (
        f"Ann charges on Horse {hex_label(RIDE_FROM)} → {hex_label(ahead(3))} straight ahead at Bo "
        "(3 hexes, SCP-51)"
    )
    assert kinds(enc, "ann") == []  # both actions are spent


def test_scp_51_a_long_mount_needs_room_for_its_whole_body() -> None:
    # a two-hex horse whose hind hex trails behind the anchor (offset south = direction 3)
    enc = cavalry(footprint=(Hex(0, 1),))
    assert charge_ends(enc, "horse") == [str(ahead(3))]
    blocked = cavalry(footprint=(Hex(0, 1),)).painted([ahead(2)], "wall")
    assert charge_ends(blocked, "horse") == []


def next_pulse(enc: Encounter) -> None:
    """Everyone still to act passes; the steps end until the next initiative."""
    while enc.state.step.id != "initiative":
        waiting = enc.ruleset.acting(enc.state).waiting
        if waiting:
            enc.perform(Action("pass", waiting[0]))
        else:
            enc.perform(Action("next_step"))


def test_scp_52_a28_momentum_carries_the_mount_on_for_its_full_tmr() -> None:
    enc = cavalry(bo_at=2)
    charge = {"target": "bo", "to": str(ahead(1)), "weapon": "Spear"}
    roll(enc, [95], "mounted_charge", "horse", **charge)
    bo = enc.state.figures["bo"]
    enc.perform(Action("move", "bo", {"to": str(neighbor(bo.position, 0)), "facing": 4}))
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    assert kinds(enc, "horse") == ["carry_on"]  # nothing else: no turn, no stop
    events = roll(enc, [90], "carry_on", "horse")
    assert enc.state.figures["horse"].position == ahead(6)  # 5 hexes on, full TMR
    check = of(events, "horsemanship")[0]
    assert (check.data["threshold"], check.data["stopped"]) == (46, False)  # 3 x 12 + 10 x 1
    assert enc.state.figures["ann"].position == ahead(6)
    # failed: it keeps going next Pulse
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    assert kinds(enc, "horse") == ["carry_on"]
    events = roll(enc, [46], "carry_on", "horse")
    assert of(events, "horsemanship")[0].data["stopped"] is True


def test_r10_the_second_weapon_strikes_from_the_secondary_hand_with_the_option() -> None:
    action = {
        "form": "two_weapon",
        "weapon": "Broadsword + Dagger",
        "target": "bo",
        "second_target": "cy",
    }
    for on, dagger in ((True, "33/100"), (False, "43/100")):
        enc = two_blades({"scp.two_weapon_off_hand": on})
        preview = enc.preview(Action("multiple_strike", "ann", action)).to_json()
        checks = [r for r in preview["rollables"] if r["kind"] == "chain"]
        assert checks[1]["headline"]["chance"] == dagger


def test_scp_48_mount_and_dismount_only_while_the_mount_is_not_moving() -> None:
    enc = cavalry(bo_at=6)
    act_first = enc.ruleset.acting(enc.state).figures[0]
    assert act_first == "horse"
    enc.perform(Action("move", "horse", {"to": str(ahead(1)), "facing": 1}))
    assert "dismount" not in kinds(enc, "ann")  # the horse moved this Pulse
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    enc.perform(Action("pass", "horse"))
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "dismount")
    to = str(spec.param("to").choices[0].value)
    events = enc.perform(Action("dismount", "ann", {"to": to}))
    assert events[-1].text == f"Ann dismounts from Horse to {hex_label(Hex.parse(to))}"
    ann = enc.state.figures["ann"]
    assert (ann.mounted_on, str(ann.position)) == ("", to)
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    enc.perform(Action("pass", "horse"))
    events = enc.perform(Action("mount", "ann", {"mount": "horse"}))
    ann, horse = enc.state.figures["ann"], enc.state.figures["horse"]
    assert events[-1].text == "Ann mounts Horse"
    assert (ann.mounted_on, ann.position, ann.facing) == ("horse", horse.position, horse.facing)


def test_r11_only_non_humanoids_of_the_own_side_are_mounts_unless_the_option_says_any() -> None:
    for rule, offered in (("non_humanoid", False), ("any", True)):
        enc = arena(options={"scp.rideable": rule})
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1)
        enc = make(enc, "di", "Di", "Blue", BO_AT, 4)
        initiative(enc, [10, 9])
        assert ("mount" in kinds(enc, "ann")) is offered, rule


def momentum_into_a_wall(
    options: dict[str, Json], faces: list[int]
) -> tuple[Encounter, list[Event]]:
    """Ann charges Bo on Horse (TMR 5); next Pulse a wall 3 hexes on stops the carry-on."""
    enc = cavalry(bo_at=2).with_options(options)
    roll(enc, [95], "mounted_charge", "horse", target="bo", to=str(ahead(1)), weapon="Spear")
    bo = enc.state.figures["bo"]
    enc.perform(Action("move", "bo", {"to": str(neighbor(bo.position, 0)), "facing": 4}))
    next_pulse(enc)
    enc = enc.painted([ahead(4)], "wall")
    initiative(enc, [10, 9, 8])
    return enc, roll(enc, faces, "carry_on", "horse")


def test_r13_scp_52_a_mount_carried_on_stops_in_front_of_an_obstacle_then_checks() -> None:
    """Default: it stops in the last free hex; the failed check keeps it pressing on."""
    enc, events = momentum_into_a_wall({}, [90])
    assert enc.state.figures["horse"].position == ahead(3)
    move = of(events, "move")[0]
    assert move.data["blocked"] is True and move.rule == "SCP-52, R-13"
    assert move.text.endswith("; stopped by what is in the way after 2 of 5")
    assert of(events, "horsemanship")[0].data["stopped"] is False
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    assert kinds(enc, "horse") == ["carry_on"]


def test_r13_with_halt_the_obstacle_ends_the_momentum_without_a_check() -> None:
    enc, events = momentum_into_a_wall({"scp.momentum_blocked": "halt"}, [])
    assert enc.state.figures["horse"].position == ahead(3)
    assert of(events, "horsemanship") == []
    next_pulse(enc)
    initiative(enc, [10, 9, 8])
    assert "carry_on" not in kinds(enc, "horse") and "move" in kinds(enc, "horse")


def test_r14_scp_51_a_mounted_charge_spends_the_mounts_action_unless_the_option_says_not() -> None:
    charge = {"target": "bo", "to": str(ahead(3)), "weapon": "Spear"}
    enc = cavalry()
    roll(enc, [10, 5], "mounted_charge", "horse", **charge)
    assert kinds(enc, "horse") == []  # default: the Charge was the pair's one action
    enc = cavalry().with_options({"scp.charge_spends_mount": False})
    roll(enc, [10, 5], "mounted_charge", "horse", **charge)
    offered = kinds(enc, "horse")
    assert "pass" in offered  # its own action is left ...
    assert not {"move", "charge", "mounted_charge"} & set(offered)  # ... but it has moved
    assert kinds(enc, "ann") == []
