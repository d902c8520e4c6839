"""strike-chance-pulse: readings the text leaves open, each a named option (R-19...R-22)
with the text's reading available, on the spec's E-1/E-2 pair (Ann's MSC 51 against Bo)."""

from __future__ import annotations

import pytest
from strike_chance_pulse_fixtures import act, duel, initiative, make, of, roll, signature

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.encounter import MoreDiceNeededError
from hexcombat.figures import Status

pytestmark = pytest.mark.pyodide

SWORD = {"weapon": "Broadsword", "special": "none", "target": "bo"}


def with_bo(status: str, options: dict[str, object] | None = None) -> Encounter:
    """The E-2 duel with Bo under ``status`` and Cy, his friend, still fighting far off;
    Ann acts first."""
    enc = make(duel(options), "cy", "Cy", "Red", Hex(8, 2), 3, ag=10)  # type: ignore[arg-type]
    bo = enc.setup_figure("bo")
    bo.statuses[status] = Status(status, 60)
    enc = enc.with_figure(bo)
    initiative(enc, [10, 1] if status == "unconscious" else [10, 2, 1])
    return enc


def targets(enc: Encounter, special: str = "none") -> list[str]:
    spec = next((s for s in enc.legal_actions("ann") if s.kind == "melee"), None)
    if spec is None:
        return []
    offered = spec.param("target").offered({"weapon": "Broadsword", "special": special})
    return [str(c.value) for c in offered]


def test_r19_scp_1_scp_40_a_knocked_out_figure_may_be_attacked_its_shield_no_help() -> None:
    """'A hostile figure may be attacked ... while on the display': Bo, knocked out, is a
    target; incapacitated, his shield gives nothing (SCP-40): 76 - AG 13 = 63, no parry."""
    enc = with_bo("unconscious")
    assert targets(enc) == ["bo"]
    events = roll(enc, [95], "melee", "ann", **SWORD)  # 32 above 63: no one to parry
    assert of(events, "attack")[0].data["msc"] == 63
    assert enc.state.prompt is None


def test_r19_with_the_option_off_only_figures_in_the_fight_are_attacked() -> None:
    enc = with_bo("unconscious", {"scp.attack_unconscious": False})
    assert targets(enc) == []
    with pytest.raises(IllegalActionError):
        enc.perform(Action("melee", "ann", SWORD))


@pytest.mark.parametrize(("may_parry", "asked"), [(False, False), (True, True)])
def test_r20_scp_19_a_restrained_figure_is_asked_to_parry_only_with_the_option(
    may_parry: bool, asked: bool
) -> None:
    """A restrained figure 'is treated as incapacitated': by default it is not asked to
    parry a miss by 30 or more (63 + 30 = 93: a 95), nor is a parry priced."""
    enc = with_bo("restrained", {"scp.incapacitated_parry": may_parry})
    preview = enc.preview(Action("melee", "ann", SWORD)).to_json()["rollables"]
    outcomes = [o["id"] for o in preview[0]["stages"][0]["outcomes"]]
    assert ("parry" in outcomes) is asked
    roll(enc, [95], "melee", "ann", **SWORD)
    assert (enc.state.prompt is not None) is asked


def empty_handed(options: dict[str, object] | None = None) -> Encounter:
    enc = duel(options)  # type: ignore[arg-type]
    bo = enc.setup_figure("bo")
    bo.equipment = []
    enc = enc.with_figure(bo)
    initiative(enc, [10, 1])
    return enc


def test_r21_scp_22_a_disarm_against_empty_hands_is_refused_or_deals_its_damage_alone() -> None:
    """'The target is forced to drop one weapon or item ... and also 1 point of Endurance
    damage is done': refused by default against empty hands; with the option a hit deals
    the point of damage and nothing is dropped."""
    assert "bo" not in targets(empty_handed(), "disarm")
    enc = empty_handed({"scp.disarm_empty_handed": "damage_only"})
    assert targets(enc, "disarm") == ["bo"]
    en = enc.state.figures["bo"].pools["en"].current
    events = roll(enc, [5], "melee", "ann", weapon="Broadsword", special="disarm", target="bo")
    assert of(events, "disarm")[0].data["item"] is None
    assert enc.state.figures["bo"].pools["en"].current == en - 1


def shot() -> tuple[Encounter, Action]:
    """Cy's arrow at Bo past Di (the signature Pulse's line)."""
    enc = signature()
    initiative(enc, [8, 3, 7, 1])
    act(enc, "pass", "ann")
    act(enc, "pass", "bo")
    act(enc, "next_step")
    return enc, Action("fire", "cy", {"weapon": "Short Bow", "special": "none", "target": "bo"})


def test_r22_scp_30_one_missile_makes_one_fumble_check_by_default() -> None:
    """Di's check rolls 99, Bo's 100: the arrow was loosed once, so one fumble check (10,
    under 3 x MD 36: no misfortune)."""
    enc, fire = shot()
    events = enc.perform(fire, faces=[99, 10, 100])
    assert [e.target for e in of(events, "attack")] == ["di", "bo"]
    assert len(of(events, "fumble")) == 1


def test_r22_with_each_every_99_or_100_on_the_line_makes_a_fumble_check() -> None:
    enc, fire = shot()
    enc = enc.with_options({"scp.line_fumbles": "each"})
    with pytest.raises(MoreDiceNeededError):
        enc.perform(fire, faces=[99, 10, 100])
    events = enc.perform(fire, faces=[99, 10, 100, 10])
    assert len(of(events, "fumble")) == 2
