"""strike-chance-pulse: two-weapon strikes of the Fire and Grapple types (SCP-14: the strikes
"must be of the same type (Grapple, Melee, or Fire)"), with exact numbers from typed dice.

Fire: each missile flies its own line and checks every figure on it (SCP-10...SCP-12), in
declaration order (A-31). Grapple: one step into the targets' hex (R-1) and one shield drop
(SCP-41, R-4) before the strikes. Which missile weapons may fire two at once is R-15.
"""

from __future__ import annotations

import pytest
from strike_chance_pulse_fixtures import (
    ANN_AT,
    BO_AT,
    arena,
    initiative,
    kinds,
    make,
    of,
    roll,
    ruleset,
)

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.geometry import neighbor

pytestmark = pytest.mark.pyodide

BO_FAR = Hex(6, 1)  # 3 hexes out in Ann's Ranged Zone (she faces 1)
CY_FAR = Hex(7, 2)  # 4 hexes out; the Dart's line to Cy runs through 5,3
ON_DART_LINE = Hex(5, 3)
FIRE = {"form": "two_weapon_fire", "weapon": "Dagger + Dart", "target": "bo", "second_target": "cy"}


def throwers(options: dict[str, object] | None = None, di: bool = False) -> Encounter:
    """Ann (MD 14): Dagger (Rank 2) and Dart (Rank 1); Bo (AG 12) and Cy (AG 10) at range;
    with ``di`` her friend Di (AG 8) stands on the Dart's line to Cy."""
    enc = arena(options=options)
    ranks = {"Dagger": 2, "Dart": 1}
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Dagger", "Dart"], ranks=ranks, md=14)
    enc = make(enc, "bo", "Bo", "Red", BO_FAR, 4, ag=12)
    enc = make(enc, "cy", "Cy", "Red", CY_FAR, 4, ag=10)
    if di:
        enc = make(enc, "di", "Di", "Blue", ON_DART_LINE, 1, ag=8)
    initiative(enc, [10, 9, 8, 7][: 4 if di else 3])
    return enc


def forms(enc: Encounter, fid: str = "ann") -> list[str]:
    spec = next((s for s in enc.legal_actions(fid) if s.kind == "multiple_strike"), None)
    return [] if spec is None else [str(c.value) for c in spec.param("form").choices]


def test_scp_14_two_weapon_fire_two_missiles_each_along_its_own_line_in_order() -> None:
    enc = throwers()
    assert forms(enc) == ["two_weapon_fire"]  # the Dart is no Melee weapon: no Melee form
    # Dagger at Bo: 45 + 14 + 4 x 2 - AG 12 - 10 (multiple) = 45
    # Dart at Cy: 40 + 14 + 4 x 1 - AG 10 - 10 (secondary hand, R-10) - 10 (multiple) = 28
    preview = enc.preview(Action("multiple_strike", "ann", FIRE)).to_json()
    chains = [r for r in preview["rollables"] if r["kind"] == "chain"]
    assert [c["headline"]["chance"] for c in chains] == ["9/20", "7/25"]
    events = roll(enc, [10, 3, 95], "multiple_strike", "ann", **FIRE)
    fires = of(events, "fire")
    assert [f.target for f in fires] == ["bo", "cy"]  # declaration order
    assert fires[0].data["path"][:3] == ["4,2", "5,2", "6,1"]  # its own line (SCP-10)
    attacks = of(events, "attack")
    assert [(a.target, a.data["msc"], a.data["roll"], a.data["hit"]) for a in attacks] == [
        ("bo", 45, 10, True),
        ("cy", 28, 95, False),
    ]
    assert of(events, "damage")[0].data["damage"] == 1  # Dagger d10 - 2 with a 3
    assert of(events, "missile")[0].text == "The Dart's missile leaves the board and falls"
    assert "multiple_strike" not in kinds(enc, "ann")  # one action a Pulse


def test_scp_12_two_weapon_fire_checks_a_figure_on_the_second_line_first() -> None:
    enc = throwers(di=True)
    # Dart at Di (a friend on the line, A-24 same SC, own DR): 40 + 14 + 4 - 8 - 10 - 10 = 30
    events = roll(enc, [90, 40, 20, 6], "multiple_strike", "ann", **FIRE)
    attacks = of(events, "attack")
    assert [(a.target, a.data["msc"], a.data["hit"]) for a in attacks] == [
        ("bo", 45, False),
        ("di", 30, False),
        ("cy", 28, True),
    ]
    assert of(events, "fire")[1].data["checked"] == ["di", "cy"]
    assert of(events, "damage")[0].data["damage"] == 2  # Dart d10 - 4 with a 6


def test_r15_two_weapon_fire_needs_thrown_weapons_unless_the_option_says_loaded() -> None:
    for rule, offered in (("thrown", []), ("loaded", ["two_weapon_fire"])):
        enc = arena(options={"scp.two_weapon_fire": rule})
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, md=14)
        ann = enc.setup_figure("ann")
        for name in ("Short Bow", "Crossbow"):  # the GM makes both one-handed (hand-held)
            item = ruleset(enc).item(name)
            item.stats["two_handed"] = False
            ann.equipment.append(item)
        enc = make(enc.with_figure(ann), "bo", "Bo", "Red", BO_FAR, 4)
        initiative(enc, [10, 9])
        assert forms(enc) == offered, rule
    assert forms(throwers({"scp.two_weapon_fire": "loaded"})) == ["two_weapon_fire"]


def test_scp_49_a_rider_makes_no_two_weapon_fire_unless_horsemanship_lifts_it() -> None:
    for lift, offered in ((0, []), (1, ["two_weapon_fire"])):
        enc = arena(options={"scp.rider_lift_rank": lift})
        enc = make(enc, "horse", "Horse", "Blue", ANN_AT, 1, humanoid=False)
        ranks = {"Dagger": 2, "Dart": 1, "Horsemanship": 1}
        enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Dagger", "Dart"], ranks=ranks)
        ann = enc.setup_figure("ann")
        ann.mounted_on = "horse"
        enc = enc.with_figure(ann)
        enc = make(enc, "bo", "Bo", "Red", BO_FAR, 4)
        initiative(enc, [10, 9, 8])
        enc.perform(Action("pass", "horse"))
        assert forms(enc) == offered, lift


# ---- Grapple -----------------------------------------------------------------------------

GRAPPLE = {
    "form": "two_weapon_grapple",
    "weapon": "Dagger + Sap",
    "target": "bo",
    "second_target": "cy",
}


def grapplers(options: dict[str, object] | None = None, cy_at: Hex = BO_AT) -> Encounter:
    """Ann (MD 14): Dagger (Rank 2) and Sap (Rank 1); Bo (AG 12, Large Round Shield) and Cy
    (AG 10, Small Shield) share the hex in front of her (no stacking limit, A-32)."""
    enc = arena(options=options)
    ranks = {"Dagger": 2, "Sap": 1}
    enc = make(enc, "ann", "Ann", "Blue", ANN_AT, 1, items=["Dagger", "Sap"], ranks=ranks, md=14)
    enc = make(enc, "bo", "Bo", "Red", BO_AT, 4, items=["Large Round Shield"], ag=12)
    enc = make(enc, "cy", "Cy", "Red", cy_at, 4, items=["Small Shield"], ag=10)
    initiative(enc, [10, 9, 8])
    return enc


def test_scp_14_r1_scp_41_two_weapon_grapple_steps_in_and_drops_shields_once() -> None:
    enc = grapplers()
    assert forms(enc) == ["two_weapon", "two_weapon_grapple"]
    # Close combat ignores shields (SCP-41): Dagger at Bo 45 + 14 + 8 - 12 - 10 = 45;
    # Sap at Cy 45 + 14 + 4 - 10 - 10 (secondary hand) - 10 = 33
    preview = enc.preview(Action("multiple_strike", "ann", GRAPPLE)).to_json()
    chains = [r for r in preview["rollables"] if r["kind"] == "chain"]
    assert [c["headline"]["chance"] for c in chains] == ["9/20", "33/100"]
    events = roll(enc, [10, 7, 90], "multiple_strike", "ann", **GRAPPLE)
    moves = of(events, "move")
    assert len(moves) == 1 and moves[0].rule == "SCP-5, R-1"  # one step for both strikes
    assert enc.state.figures["ann"].position == BO_AT
    drops = of(events, "drop")
    assert sorted(d.figure for d in drops) == ["bo", "cy"]  # R-4 default: both, once each
    kinds_in_order = [e.kind for e in events if e.kind in ("move", "drop", "attack")]
    assert kinds_in_order == ["move", "drop", "drop", "attack", "attack"]  # before the strikes
    attacks = of(events, "attack")
    assert [(a.target, a.data["msc"], a.data["hit"]) for a in attacks] == [
        ("bo", 45, True),
        ("cy", 33, False),
    ]
    assert of(events, "damage")[0].data["damage"] == 5  # Dagger d10 - 2 with a 7


def test_r4_two_weapon_grapple_drops_only_the_attackers_shield_with_the_option() -> None:
    enc = grapplers({"scp.close_drops_shields": "attacker"})
    events = roll(enc, [90, 90], "multiple_strike", "ann", **GRAPPLE)
    assert of(events, "drop") == []  # Ann holds no shield; the targets keep theirs
    assert enc.state.figures["bo"].item("Large Round Shield").state == "ready"


def test_scp_5_r1_a_two_weapon_grapple_strikes_into_one_hex_only() -> None:
    elsewhere = neighbor(ANN_AT, 0)  # Cy in Ann's FL hex, Bo in F
    enc = grapplers(cy_at=elsewhere)
    spec = next(s for s in enc.legal_actions("ann") if s.kind == "multiple_strike")
    second = spec.param("second_target")
    chosen = {"form": "two_weapon_grapple", "weapon": "Dagger + Sap"}
    assert [c.value for c in second.offered({**chosen, "target": "bo"})] == ["bo"]
    assert [c.value for c in second.offered({**chosen, "target": "cy"})] == ["cy"]
    with pytest.raises(IllegalActionError):
        enc.perform(Action("multiple_strike", "ann", GRAPPLE), faces=[1, 1])
    assert enc.state.figures["ann"].position == ANN_AT  # refused: nothing moved
    events = roll(
        enc, [90, 90], "multiple_strike", "ann", **{**GRAPPLE, "second_target": "bo"}
    )  # both weapons at one figure (SCP-14: the targets need not differ)
    assert [a.target for a in of(events, "attack")] == ["bo", "bo"]
