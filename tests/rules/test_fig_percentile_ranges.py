"""Fig-percentile FP-14 ... FP-18: 10-yard hexes, line of sight and the three range bands."""

from __future__ import annotations

from fractions import Fraction

import pytest
from fig_percentile_fixtures import add, arena, choices, end_round, kinds, play_round

from hexcombat import Action, Encounter
from hexcombat.rulesets.fig_percentile import HEX_YARDS, max_range_hexes, range_band
from hexcombat.view import measure_view

pytestmark = pytest.mark.pyodide


def _band(d: int, yards: int, **kw: object) -> str | None:
    band = range_band(d, max_range_hexes(yards), **kw)  # type: ignore[arg-type]
    return None if band is None else f"{band.name} {band.modifier:+d}"


def test_fp_14_a_hex_is_10_yards_and_ranges_stay_exact() -> None:
    assert HEX_YARDS == 10
    assert max_range_hexes(60) == 6 and max_range_hexes(45) == Fraction(9, 2)
    assert max_range_hexes(180) == 18


@pytest.mark.parametrize("d", [0, 1])
def test_fp_16_point_blank_is_the_same_or_an_adjacent_hex_plus_5(d: int) -> None:
    assert _band(d, 60) == "Point Blank +5"


@pytest.mark.parametrize(("d", "yards"), [(2, 60), (3, 60), (2, 50)])
def test_fp_17_medium_range_is_up_to_half_the_maximum_inclusive(d: int, yards: int) -> None:
    assert _band(d, yards) == "Medium range +0"


@pytest.mark.parametrize(
    ("d", "yards", "band"),
    [
        (4, 60, "Long range -10"),
        (6, 60, "Long range -10"),
        (7, 60, None),
        (3, 50, "Long range -10"),
        (5, 50, "Long range -10"),
        (6, 50, None),
        (2, 20, "Long range -10"),  # half of 2 hexes is 1: Medium is empty
        (3, 20, None),
    ],
)
def test_fp_18_long_range_up_to_the_maximum_and_nothing_beyond(
    d: int, yards: int, band: str | None
) -> None:
    assert _band(d, yards) == band


def test_fp_18_e2_the_60_yard_spell_table() -> None:
    assert [_band(d, 60) for d in range(8)] == [
        "Point Blank +5",
        "Point Blank +5",
        "Medium range +0",
        "Medium range +0",
        "Long range -10",
        "Long range -10",
        "Long range -10",
        None,
    ]


def test_fp_18_g24_bands_counted_in_hexes_between() -> None:
    assert _band(4, 60, measure="gap") == "Medium range +0"  # 3 between: up to half of 6
    assert _band(7, 60, measure="gap") == "Long range -10"  # 6 between
    assert _band(1, 60, measure="gap") == "Point Blank +5"
    with pytest.raises(ValueError, match="distance, gap"):
        range_band(3, 6, measure="yards")


def test_fp_16_g25_without_point_blank_the_nearest_hexes_are_medium() -> None:
    assert _band(1, 60, point_blank=False) == "Medium range +0"


def _archer(options: dict[str, object] | None = None, **paint: list[tuple[int, int]]) -> Encounter:
    enc = arena(dict(options or {}), width=14, paint=paint or None)
    enc = add(
        enc,
        "archer",
        (1, 4),
        side="A",
        skills={"Bow": 60, "Spellcasting": 50},
        items=["Short bow", "Spark"],
        ready="Short bow",
    )
    enc = add(enc, "near", (2, 4), side="B")
    enc = add(enc, "mid", (6, 4), side="B")
    enc = add(enc, "far", (12, 4), side="B")
    play_round(enc, {})
    return enc


def _target(enc: Encounter, target: str, kind: str = "attack") -> int:
    return enc.preview(Action(kind, "archer", {"target": target})).rollables[0].target


def test_fp_16_fp_17_fp_18_bands_in_play_for_a_120_yard_bow() -> None:
    enc = _archer()
    assert _target(enc, "near") == 65  # Point Blank +5, both stationary
    assert _target(enc, "mid") == 60  # 5 hexes of 12: Medium
    assert _target(enc, "far") == 50  # 11 of 12: Long -10
    check = enc.preview(Action("attack", "archer", {"target": "far"})).rollables[0]
    assert [m.rule for m in check.modifiers] == ["G-10", "FP-18"]


def test_fp_15_a_ranged_attack_needs_line_of_sight() -> None:
    enc = _archer(hill=[(4, 4)])
    offered = choices(enc, "archer", "attack", "target")
    assert offered == ["near"]  # the hill hides both others
    preview = enc.preview(Action("attack", "archer", {"target": "mid"}))
    assert not preview.allowed and "Target: must be one of Near, got 'mid'" in preview.reason


def test_fp_15_a_weapon_that_needs_no_line_of_sight_fires_over_the_hill() -> None:
    enc = arena(width=14, paint={"hill": [(4, 4)]})
    enc = add(enc, "archer", (1, 4), side="A", skills={"Bow": 60}, items=["Short bow"])
    bow = enc.setup_figure("archer")
    bow.equipment[0].state = "ready"
    bow.equipment[0].stats["requires_los"] = False
    enc = enc.with_figure(bow)
    enc = add(enc, "mid", (6, 4), side="B")
    play_round(enc, {})
    assert choices(enc, "archer", "attack", "target") == ["mid"]


def test_fp_15_fp_19_one_tree_between_lets_the_shot_through_g16_option_penalises_it() -> None:
    enc = _archer(heavy_woods=[(4, 4)])
    assert "mid" in choices(enc, "archer", "attack", "target")
    assert _target(enc, "mid") == 60
    penalised = _archer({"fp.tree_cover_modifier": -10}, heavy_woods=[(4, 4)])
    check = penalised.preview(Action("attack", "archer", {"target": "mid"})).rollables[0]
    assert check.target == 50 and check.modifiers[-1].rule == "G-16"


def test_fp_15_g22_figures_in_the_way_block_only_with_the_option() -> None:
    enc = _archer()
    assert "mid" in choices(enc, "archer", "attack", "target")
    blocked = _archer({"fp.figures_block_los": True})
    assert "mid" not in choices(blocked, "archer", "attack", "target")  # "near" is in the way


def test_fp_18_out_of_range_targets_are_not_offered() -> None:
    enc = arena(width=20)
    enc = add(enc, "archer", (1, 4), side="A", skills={"Bow": 60}, items=["Short bow"])
    enc = add(enc, "beyond", (14, 4), side="B")  # 13 hexes > 12
    archer = enc.setup_figure("archer")
    archer.equipment[0].state = "ready"
    enc = enc.with_figure(archer)
    play_round(enc, {})
    assert "attack" not in kinds(enc, "archer")


def test_fp_16_g25_spells_get_point_blank_and_need_sight_unless_the_option_is_off() -> None:
    def caster(options: dict[str, object]) -> Encounter:
        enc = arena(dict(options), width=14, paint={"hill": [(4, 4)]})
        enc = add(enc, "mage", (1, 4), side="A", skills={"Spellcasting": 50}, items=["Spark"])
        enc = add(enc, "foe", (2, 4), side="B")
        enc = add(enc, "hidden", (6, 4), side="B")
        play_round(enc, {}, post={"mage": {"spell": "Spark"}})
        end_round(enc)
        play_round(enc, {})
        return enc

    enc = caster({})
    assert choices(enc, "mage", "release_spell", "target") == ["foe"]
    assert _spell(enc, "foe") == 55  # Point Blank +5 (G-25)
    loose = caster({"fp.spells_as_ranged": False})
    assert set(choices(loose, "mage", "release_spell", "target")) == {"foe", "hidden"}
    assert _spell(loose, "foe") == 50


def _spell(enc: Encounter, target: str) -> int:
    return enc.preview(Action("release_spell", "mage", {"target": target})).rollables[0].target


def test_fp_14_fp_16_fp_17_fp_18_the_measure_tool_names_the_band_of_the_weapon() -> None:
    """Measuring from the archer (or with it selected) names the band its
    bow shoots in; a figure with nothing ranged, or no figure, gets no band."""
    enc = _archer()
    state, rs = enc.state, enc.ruleset
    archer, near = state.figures["archer"], state.figures["near"]
    assert rs.range_band(state, archer, 1) == "Point Blank (+5) with the Short bow (FP-16)"
    assert rs.range_band(state, archer, 5) == "Medium range (0) with the Short bow (FP-17)"
    assert rs.range_band(state, archer, 11) == "Long range (-10) with the Short bow (FP-18)"
    assert rs.range_band(state, archer, 13) == "out of range for the Short bow (12 hexes, FP-14)"
    assert rs.range_band(state, near, 3) == "" and rs.range_band(state, None, 3) == ""
    far = state.figures["far"].position
    measured = measure_view(enc, archer.position, far)
    assert measured["band"] == "Long range (-10) with the Short bow (FP-18)"
    assert measured["text"].endswith("; Long range (-10) with the Short bow (FP-18)")
    assert measured["head"] == "11 hexes; line of sight clear"  # the page shows the band below
    assert measure_view(enc, near.position, far)["band"] == ""  # measured from a swordless foe
    assert measure_view(enc, near.position, far, "archer")["band"].startswith("Long range")


def test_fp_16_g25_the_measure_tool_uses_a_spell_when_no_ranged_weapon_is_carried() -> None:
    enc = arena({}, width=14)
    enc = add(enc, "mage", (1, 4), side="A", skills={"Spellcasting": 50}, items=["Spark"])
    mage = enc.state.figures["mage"]
    assert enc.ruleset.range_band(enc.state, mage, 1) == "Point Blank (+5) with Spark (FP-16)"
    assert enc.ruleset.range_band(enc.state, mage, 7) == "out of range for Spark (6 hexes, FP-14)"
    loose = enc.with_options({"fp.spells_as_ranged": False})
    assert loose.ruleset.range_band(loose.state, loose.state.figures["mage"], 1).startswith(
        "Medium range (0) with Spark"
    )
