"""strike-chance-pulse: the text's own situations a referee read against the app, by rule id."""

from __future__ import annotations

import pytest
from strike_chance_pulse_fixtures import (
    RIDE_FROM,
    act,
    ahead,
    arena,
    initiative,
    kinds,
    make,
    of,
    riding,
    roll,
    signature,
)

from hexcombat import Action, Encounter, IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Status
from hexcombat.geometry import neighbor
from hexcombat.layout import hex_label

pytestmark = pytest.mark.pyodide

BOW = {"weapon": "Short Bow", "special": "none", "target": "bo"}


def test_scp_49_a_rider_fires_a_bow_from_a_mount_that_stood_still() -> None:
    """Exception (2) is "firing any missile or thrown weapon while moving": from a mount
    standing still the rider fires, though a bow takes both hands."""
    enc = riding(["Short Bow"], {"Short Bow": 2})
    act(enc, "pass", "horse")
    assert "fire" in kinds(enc, "ann")
    events = roll(enc, [10, 3], "fire", "ann", **BOW)
    assert of(events, "attack")[0].data["hit"] is True


def test_scp_49_a_rider_does_not_fire_while_the_mount_moves() -> None:
    enc = riding(["Short Bow"], {"Short Bow": 2}, bo_at=6)
    act(enc, "move", "horse", to=str(ahead(1)))
    assert "fire" not in kinds(enc, "ann")
    with pytest.raises(IllegalActionError):
        enc.perform(Action("fire", "ann", BOW))


def test_scp_47_scp_5_a_riders_grapple_never_steps_it_off_its_mount() -> None:
    """'The rider may not move at all': a rider grapples only a figure already in its hex."""
    enc = riding(["Dagger"], {"Dagger": 2}, bo_at=1)
    act(enc, "pass", "horse")
    grapple = {"weapon": "Dagger", "special": "none", "target": "bo"}
    assert "grapple" not in kinds(enc, "ann")
    with pytest.raises(IllegalActionError):
        enc.perform(Action("grapple", "ann", grapple))
    ann = enc.state.figures["ann"]
    assert (ann.position, ann.mounted_on) == (RIDE_FROM, "horse")


def test_scp_12_a_knocked_out_figure_on_the_line_of_fire_gets_its_strike_check() -> None:
    """'A Strike Check must be resolved for all figures occupying any hex along the Line of
    Fire': Di, knocked out between Cy and Bo, is checked first, without a shield to help."""
    enc = signature()
    di = enc.setup_figure("di")
    di.statuses["unconscious"] = Status("unconscious", 60)
    enc = enc.with_figure(di)
    initiative(enc, [8, 3, 7])  # Di, unconscious, rolls no initiative
    act(enc, "pass", "ann")
    act(enc, "pass", "bo")
    act(enc, "next_step")
    shot = Action("fire", "cy", {"weapon": "Short Bow", "special": "none", "target": "bo"})
    chain = enc.preview(shot).to_json()["rollables"][0]
    assert [s["id"] for s in chain["stages"]] == ["di", "bo"]
    events = enc.perform(shot, faces=[10, 4])
    assert of(events, "fire")[0].data["checked"] == ["di", "bo"]
    hit = of(events, "attack")
    assert [(a.target, a.data["hit"]) for a in hit] == [("di", True)]


def thrower(item: str, bo_at: int = 3) -> Encounter:
    """Ann on foot at ``RIDE_FROM`` facing 1 with one ``item``; Bo ``bo_at`` hexes ahead."""
    enc = arena(12, 10)
    enc = make(enc, "ann", "Ann", "Blue", RIDE_FROM, 1, items=[item], ranks={item: 2}, ag=12, md=12)
    enc = make(enc, "bo", "Bo", "Red", ahead(bo_at), 4, ag=10)
    initiative(enc, [10, 9])
    return enc


def lies(enc: Encounter, item: str) -> tuple[str, str]:
    thrown = enc.state.figures["ann"].item(item)
    return thrown.state, str(thrown.stats.get("lies_at"))


@pytest.mark.parametrize("item", ["Dagger", "Spear", "Bola", "Net"])
def test_scp_10_scp_12_a_thrown_weapon_leaves_the_hand_and_stays_in_the_figure_it_hit(
    item: str,
) -> None:
    """'The weapon's flight is always stopped when it strikes a figure and remains in that
    figure until withdrawn': the thrower's hand is empty, so no second throw next Pulse."""
    enc = thrower(item)
    special = "entangle" if item in ("Bola", "Net") else "none"
    faces = [5, 1, 90] if special == "entangle" else [5, 1]  # hit, damage (, footing)
    events = roll(enc, faces, "fire", "ann", weapon=item, special=special, target="bo")
    assert of(events, "attack")[0].data["hit"] is True
    assert lies(enc, item) == ("dropped", str(ahead(3)))
    act(enc, "pass", "bo")
    act(enc, "next_step")
    initiative(enc, [10, 9])
    assert "fire" not in kinds(enc, "ann")


def test_scp_10_a_thrown_weapon_that_hits_nothing_falls_at_the_end_of_its_flight() -> None:
    """'It will travel 1.5 times the range of the weapon and fall to the ground': a Dagger
    (range 4) missing Bo lies 6 hexes on, where anyone in reach may pick it up (SCP-31)."""
    enc = thrower("Dagger")
    events = roll(enc, [95], "fire", "ann", weapon="Dagger", special="none", target="bo")
    assert of(events, "missile")[0].text.endswith(f"lies at {hex_label(ahead(6))}")
    assert lies(enc, "Dagger") == ("dropped", str(ahead(6)))


def test_scp_58_scp_56_an_infected_and_poisoned_figure_rolls_the_cure_and_both_damages() -> None:
    """Poisons 'function in the same manner as infections except there is no roll for cure':
    a figure with both rolls its cure, takes the infection's damage when it fails, and the
    poison's damage as well, each previewed in that order."""
    enc = thrower("Dagger")
    ann = enc.setup_figure("ann")
    ann.statuses["infected"] = Status("infected")
    ann.statuses["poisoned"] = Status("poisoned")
    enc = enc.with_figure(ann)
    act(enc, "gm_end_fight")
    act(enc, "end_combat")
    preview = enc.preview(Action("morning", None, {})).to_json()["rollables"]
    assert [r["rule"] for r in preview][-1] == "SCP-58" and len(preview) == 2
    en = enc.state.figures["ann"].pools["en"].current
    events = roll(enc, [99, 8, 9], "morning")  # cure fails (99), infection 3, poison 4
    assert [(e.rule, e.data["amount"]) for e in of(events, "damage")] == [
        ("SCP-56", 3),
        ("SCP-58", 4),
    ]
    assert enc.state.figures["ann"].pools["en"].current == en - 7


def test_scp_12_scp_31_a_dagger_stuck_in_a_figure_goes_with_it_until_withdrawn() -> None:
    """Bo walks off with Ann's Dagger in him; it is within his reach, not Ann's, and when he
    withdraws it (picks it up) it is his."""
    enc = thrower("Dagger")
    roll(enc, [5, 1], "fire", "ann", weapon="Dagger", special="none", target="bo")
    away = neighbor(neighbor(ahead(3), 1), 1)  # two hexes on: out of reach of where it hit
    act(enc, "move", "bo", to=str(away))
    act(enc, "next_step")
    initiative(enc, [10, 9])
    act(enc, "pass", "ann")
    spec = next(s for s in enc.legal_actions("bo") if s.kind == "prepare")
    assert [str(c.value) for c in spec.param("item").choices] == ["ann/Dagger"]
    events = act(enc, "prepare", "bo", item="ann/Dagger")
    assert of(events, "ready")[0].text == "Bo picks up Ann's Dagger"
    dagger = enc.state.figures["bo"].item("Dagger")
    assert dagger.state == "ready" and "stuck_in" not in dagger.stats


def ailing_after_the_fight(*statuses: str) -> Encounter:
    """Ann under ``statuses`` (infected, poisoned) once the fight is over and its end taken."""
    enc = thrower("Dagger")
    ann = enc.setup_figure("ann")
    for status in statuses:
        ann.statuses[status] = Status(status)
    enc = enc.with_figure(ann)
    act(enc, "gm_end_fight")
    act(enc, "end_combat")
    return enc


def cure(enc: Encounter, figure: str, ailment: str, by: str) -> list[Event]:
    """The table's outside cure of ``figure``'s ``ailment`` (SCP-57)."""
    return enc.perform(
        Action("outside_cure", None, {"figure": figure, "ailment": ailment, "by": by})
    )


def morning(enc: Encounter) -> list[dict[str, object]]:
    """What the next morning will roll, as its preview shows it."""
    return enc.preview(Action("morning", None, {})).to_json()["rollables"]  # type: ignore[return-value]


def test_scp_57_an_outside_cure_ends_the_infection_or_the_poison_it_names() -> None:
    """'Curing infection usually relies on a Healer, Hospitaler or potion created by an
    alchemist': once the fight is over the GM may give Ann one, for the ailment it cures and
    with no roll; the next morning then rolls only what is left, and once she is well no
    morning and no cure is offered."""
    enc = ailing_after_the_fight("infected", "poisoned")
    spec = next(s for s in enc.legal_actions(None) if s.kind == "outside_cure")
    assert spec.rule == "SCP-57" and spec.tied_to == "fight_over"
    assert [c.value for c in spec.param("figure").choices] == ["ann"]
    ailments = spec.param("ailment").offered({"figure": "ann"})
    assert [c.value for c in ailments] == ["infected", "poisoned"]
    assert [c.label for c in spec.param("by").choices] == [
        "a Healer",
        "a Hospitaler",
        "an alchemist's potion",
        "a healing spell that says it cures it",
    ]
    with pytest.raises(IllegalActionError, match=r"^Bo has no infection or poison to cure"):
        cure(enc, "bo", "infected", "healer")
    assert enc.preview(Action("outside_cure", None, {})).rollables == ()
    events = cure(enc, "ann", "infected", "hospitaler")
    assert [e.text for e in of(events, "infection")] == [
        "Ann is cured of the infection by a Hospitaler"
    ]
    ann = enc.state.figures["ann"]
    assert not ann.has_status("infected") and ann.has_status("poisoned")
    assert [r["rule"] for r in morning(enc)] == ["SCP-58"]  # the poison's damage, no cure roll
    with pytest.raises(IllegalActionError, match=r"^Ann has only the poison to cure"):
        cure(enc, "ann", "infected", "healer")
    cure(enc, "ann", "poisoned", "potion")
    assert not {"morning", "outside_cure"} & set(kinds(enc, None))


def test_scp_57_a_heal_of_endurance_alone_leaves_the_infection() -> None:
    """'Healing spells do not cure infection unless it specifically states that it does':
    the GM gives wounded Ann her Endurance back in full (a healing spell's points); she is
    still infected, and the next morning still rolls her cure and, failing, the damage."""
    enc = ailing_after_the_fight("infected")
    ann = enc.state.figures["ann"]
    full = ann.pools["en"].maximum
    enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "en", "value": full - 5}))
    enc.perform(Action("gm_pool", None, {"figure": "ann", "pool": "en", "value": full}))
    assert enc.state.figures["ann"].has_status("infected")
    (course,) = morning(enc)
    assert [s["id"] for s in course["stages"]] == ["cure", "damage"]  # type: ignore[attr-defined]
    events = roll(enc, [99, 10], "morning")  # no cure (99), the infection's 5
    assert [(e.rule, e.data["amount"]) for e in of(events, "damage")] == [("SCP-56", 5)]
    assert enc.state.figures["ann"].has_status("infected")
