"""The preview is the roll: an action's log entry names each rollable it rolled, and the
preview's rollables, performed face by face, are what the action rolls (faces.py), here for
the rules where a preview and its action once parted."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "rules"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import faces  # noqa: E402
import strike_chance_pulse_fixtures as scp  # noqa: E402
import two_action_2d10_fixtures as ta  # noqa: E402

from hexcombat import Action, Encounter  # noqa: E402
from hexcombat.checks import Amount, Chain, Check  # noqa: E402
from hexcombat.document import from_document, to_document  # noqa: E402
from hexcombat.encounter import MoreDiceNeededError  # noqa: E402
from hexcombat.errors import IllegalActionError  # noqa: E402
from hexcombat.figures import Status  # noqa: E402
from hexcombat.rulesets.two_action_2d10.ruleset import TwoAction2d10  # noqa: E402


def face_by_face(
    enc: Encounter, action: Action, most: int = 300
) -> tuple[list[str], faces.Figures]:
    """Every face combination of ``action`` against its preview (past ``most``, seeded
    samples of the later dice)."""
    figures = faces.Figures()
    problems = faces.face_problems(enc, action, enc.preview(action), most, figures)
    return problems, figures


def perform_padded(enc: Encounter, action: Action, given: list[int]) -> None:
    """Perform ``action`` with the faces ``given``, then 1s for every die it asks for more."""
    typed = list(given)
    while True:
        try:
            enc.perform(action, faces=typed)
            return
        except MoreDiceNeededError:
            typed.append(1)


def scp_start(enc: Encounter) -> Encounter:
    """Initiative in set-up order."""
    scp.initiative(enc, list(range(10, 10 - len(enc.state.figures), -1)))
    return enc


def test_a_log_entry_names_each_rollable_rolled_with_its_rolls_and_outcome() -> None:
    enc = scp_start(scp.duel())
    action = Action("melee", "ann", {"weapon": "Broadsword", "special": "none", "target": "bo"})
    preview = enc.preview(action)
    enc.perform(action, faces=[5, 4])  # a hit, then the damage die
    entry = enc.log[-1]
    strike, damage = entry.rolled
    chain = preview.rollables[0]
    assert isinstance(chain, Chain)
    assert (strike.rollable, strike.outcome, strike.faces) == (
        chain.stages[0].rollable.id,
        "success",
        (5,),
    )
    assert damage.rollable == preview.rollables[1].id and damage.faces == (4,)
    named = preview.to_json()["rollables"]
    assert isinstance(named, list)
    stages = [s for r in named if isinstance(r, dict) for s in r["stages"]]  # type: ignore[union-attr]
    assert {r["rollable"] for r in [*named, *stages]} >= {strike.rollable, damage.rollable}  # type: ignore[index]
    doc = to_document(enc)
    assert doc["log"][-1]["rolled"][0] == {  # type: ignore[index]
        "rollable": strike.rollable,
        "outcome": "success",
        "rolls": 1,
    }
    older = {
        **doc,
        "version": 2,
        "log": [{k: v for k, v in e.items() if k != "rolled"} for e in doc["log"]],
    }  # type: ignore[union-attr]
    assert to_document(from_document(older)) == doc  # the replay records it again


@pytest.mark.parametrize(
    ("weapon", "item"), [("Bare hands", None), ("Teeth", "Teeth")], ids=["hands", "teeth"]
)
@pytest.mark.parametrize("skips_pulse", [False, True], ids=["plain", "pulse-option"])
def test_scp_31_an_unarmed_or_natural_strike_prices_no_fumble_check_on_99_or_100(
    weapon: str, item: str | None, skips_pulse: bool
) -> None:
    enc = scp.arena(options={"scp.natural_fumble_skips_pulse": skips_pulse})
    if item is None:
        enc = scp.make(enc, "ann", "Ann", "Blue", scp.ANN_AT, 1, ranks={"Unarmed Combat": 0})
    else:
        enc = scp.make(enc, "ann", "Wolf", "Blue", scp.ANN_AT, 1, items=[item], humanoid=False)
    enc = scp_start(scp.make(enc, "bo", "Bo", "Red", scp.BO_AT, 4))
    action = Action("melee", "ann", {"weapon": weapon, "special": "none", "target": "bo"})
    problems, figures = face_by_face(enc, action)
    assert problems == []
    chain = enc.preview(action).rollables[0]
    assert isinstance(chain, Chain) and [s.id for s in chain.stages] == ["strike"]
    assert figures.combinations >= 100  # every D100 face, and the damage dice after a hit
    strike = {o.id: o.chance for o in chain.outcomes()}
    assert ("strike.fumble_hit" in strike) is skips_pulse  # the GM's lost Pulse


def ta_strike_at_prone(**ann: object) -> Encounter:
    """Bo (spear, skill 6) strikes at Ann lying prone (passive 8): 2d10 + 6 always reaches
    it; Ann declared no defence, so the blow lands at once."""
    enc = ta.duel(skill=6)
    prone = enc.setup_figure("ann")
    prone.statuses["prone"] = Status("prone")
    prone.stats.update(ann)
    enc = enc.with_figure(prone)
    ta.declare(enc, "ann", "other", "none")
    ta.declare(enc, "bo", "attack", "other", target="ann")
    ta.to_step(enc, "combat")
    return enc


def test_ta_17_d9_the_hit_preview_prices_the_spectacular_mistake() -> None:
    enc = ta_strike_at_prone()
    action = Action("strike", "bo", {})
    chain = enc.preview(action).rollables[0]
    assert isinstance(chain, Chain)
    hit = chain.stages[0].rollable
    assert isinstance(hit, Check)
    assert {o.id: o.chance for o in hit.outcomes()}["mistake"] == Fraction(1, 100)
    assert hit.chance() == Fraction(99, 100)  # never certain: (1, 1) misses (TA-17, D-9)
    events = enc.copy().perform(action, faces=[1, 1])
    assert ta.of(events, "attack")[0].data["fumble"] is True
    problems, figures = face_by_face(enc, action)
    assert problems == []
    assert figures.combinations >= 100


@pytest.mark.parametrize(("faces", "dice"), [([2, 1], "1d8"), ([5, 4], "2d8"), ([10, 10], "4d8")])
def test_ta_11_a_hit_past_a_threshold_rolls_the_damage_dice_its_preview_shows(
    faces: list[int], dice: str
) -> None:
    """Surplus 1, 7 and 18 over the passive 8: one d8, then a die more per threshold."""
    enc = ta_strike_at_prone(health=20)
    action = Action("strike", "bo", {})
    chain = enc.preview(action).rollables[0]
    assert isinstance(chain, Chain)
    shown = {s.rollable.id: s for s in chain.stages}
    perform_padded(enc, action, faces)  # then 1s: damage, a location and a save
    (stage,) = [  # the damage the preview shows for this surplus
        shown[r.rollable]
        for r in enc.log[-1].rolled
        if r.rollable in shown and shown[r.rollable].id.startswith("damage")
    ]
    assert isinstance(stage.rollable, Amount) and stage.rollable.dice == f"{dice} min 0"
    assert stage.when == (("hit",) if dice == "1d8" else (f"hit{int(dice[0]) - 1}",))


@pytest.mark.parametrize("answer", ["dodge", "take"])
def test_ta_11_an_answer_s_damage_follows_the_threshold_its_defence_leaves(answer: str) -> None:
    enc = ta.duel(skill=8)
    ta.declare(enc, "ann", "attack", "dodge", target="bo", guard="bo")
    ta.declare(enc, "bo", "attack", "other", target="ann")
    ta.to_step(enc, "combat")
    enc.perform(Action("strike", "bo", {}), faces=[10, 9])  # 27 against passive 12
    action = Action(answer, "ann", {})
    problems, figures = face_by_face(enc, action)
    assert problems == []
    assert figures.outcomes > 0


def test_scp_41_a_grapple_previews_its_strike_check_once_the_shields_are_dropped() -> None:
    enc = scp_start(scp.duel())  # Bo's Large Round Shield counts until Close combat
    action = Action("grapple", "ann", {"weapon": "Bare hands", "special": "none", "target": "bo"})
    problems, figures = face_by_face(enc, action)
    assert problems == []
    assert figures.combinations >= 100


def test_scp_30_scp_31_a4_a_fumble_breaks_on_99_and_drops_on_100_by_the_strikes_outcome() -> None:
    enc = scp_start(scp.duel())
    action = Action("melee", "ann", {"weapon": "Broadsword", "special": "none", "target": "bo"})
    problems, _ = face_by_face(enc, action)
    assert problems == []
    chain = enc.preview(action).rollables[0]
    assert isinstance(chain, Chain)
    strike = {o.id: o.chance for o in chain.stages[0].rollable.outcomes()}
    assert {k: strike[k] for k in ("break_miss", "drop_miss")} == {
        "break_miss": Fraction(1, 100),
        "drop_miss": Fraction(1, 100),
    }
    done, exact = faces.combinations(enc, action, 1000, "scp-30")
    assert exact
    seen = set()
    for rolled, _, entry, after in done:
        if rolled[0] < 99:
            continue
        outcome = entry.rolled[0].outcome
        fumble = [e.text for e in after.events if e.kind == "fumble"][-1]
        misfortune = "no misfortune" not in fumble  # the fumble check failed
        assert outcome == ("break_miss" if rolled[0] == 99 else "drop_miss")
        if misfortune:
            assert {"break_miss": "breaks", "drop_miss": "drops"}[outcome] in fumble
        seen.add((outcome, misfortune))
    assert len(seen) == 4


def test_ta_19_d13_fists_only_declare_a_brawl_not_an_attack_and_pummel_face_by_face() -> None:
    """A figure whose weapon is "natural" (no damage dice) is refused an Attack with the
    reason and never offered one; its Brawl pummels, damage from the surplus (TA-19, D-13)."""
    enc = ta.duel(weapon="natural")
    spec = next(s for s in enc.legal_actions("bo") if s.kind == "declare")
    first = next(p for p in spec.params if p.name == "first")
    assert "attack" not in [c.value for c in first.choices] and first.default == "brawl"
    with pytest.raises(IllegalActionError, match="no weapon to attack with: declare a Brawl"):
        ta.declare(enc, "bo", "attack", "dodge", target="ann")
    ta.declare(enc, "ann", "dodge", "none", guard="bo")
    ta.declare(enc, "bo", "brawl", "dodge", target="ann", guard="ann")
    ta.to_step(enc, "combat")
    problems, figures = face_by_face(enc, Action("strike", "bo", {}))
    assert problems == [] and figures.combinations >= 100


def test_d3_ta_7_a_block_beaten_by_5_or_more_rolls_the_shield_d10_its_answer_previews() -> None:
    """With ``ta.block_shield_risk`` a Block beaten by a surplus of 5 or more rolls the
    shield's d10 before the damage (D-3): the answer's preview has that stage, its chance
    exact, and every face combination rolls what it shows."""
    enc = ta.duel(options={"ta.block_shield_risk": True}, shield=True)
    ta.declare(enc, "ann", "attack", "attack", target="bo", combine=True)
    ta.declare(enc, "bo", "block", "none")
    ta.to_step(enc, "combat")
    ta.roll(enc, [10, 10, 10], "strike", "ann")  # 24 against the Block's roll
    answer = Action("shield_block", "bo", {})
    chain = enc.preview(answer).rollables[0]
    assert isinstance(chain, Chain)
    risks = [s for s in chain.stages if s.id.startswith("shield")]
    assert risks and all(s.rollable.label == "Shield" for s in risks)
    problems, figures = face_by_face(enc, answer, most=400)
    assert problems == [] and figures.combinations >= 100
    done, _ = faces.combinations(enc, answer, 400, "d-3")
    risked = {s.rollable.id for s in risks}
    shaken = [(any(r.rollable in risked for r in e.rolled), a) for _, _, e, a in done]
    assert {at_risk for at_risk, _ in shaken} == {True, False}  # surpluses under 5 and over
    assert all(a.figures["bo"].has_status("shield_lost") is at_risk for at_risk, a in shaken)


def test_ta_21_d14_a_grapples_save_by_its_surplus_is_in_the_preview_face_by_face() -> None:
    """A grapple that reaches the bar (5) leaves the target a save at Agility - (surplus -
    bar) (TA-21, D-14): each surplus is an outcome of the hit with its save after it, and
    every face combination rolls what the preview shows."""
    enc = ta.duel()
    ta.declare(enc, "ann", "other", "none")
    ta.declare(enc, "bo", "brawl", "other", target="ann", style="grapple")
    ta.to_step(enc, "combat")
    strike = Action("strike", "bo", {})
    chain = enc.preview(strike).rollables[0]
    assert isinstance(chain, Chain)
    saves = {s.when: s.rollable for s in chain.stages if s.id.startswith("brawl-")}
    assert saves and all(isinstance(c, Check) and c.label == "Agility save" for c in saves.values())
    targets = sorted(c.target for c in saves.values() if isinstance(c, Check))
    assert targets[-1] == 10 and targets[0] < 10  # Agility 10 at the bar, less past it
    problems, figures = face_by_face(enc, strike)
    assert problems == [] and figures.combinations >= 100
    done, _ = faces.combinations(enc, strike, 300, "ta-21")
    ruleset = enc.ruleset
    assert isinstance(ruleset, TwoAction2d10)
    held = {ruleset.closed_with(after, "bo") == "ann" for _, _, _, after in done}
    assert held == {True, False}


def test_scp_12_a26_damage_to_a_figure_on_the_line_of_fire_is_in_the_preview() -> None:
    """Cy's arrow meets Di on its way to Bo (SCP-12): a hit on Di rolls Di's damage, which
    the shot's preview shows, and every face combination rolls what it shows."""
    enc = scp.signature()
    scp.initiative(enc, [8, 3, 7, 6])
    scp.act(enc, "pass", "ann")
    scp.act(enc, "pass", "bo")
    scp.act(enc, "next_step")
    shot = Action("fire", "cy", {"weapon": "Short Bow", "special": "none", "target": "bo"})
    labels = [r.label for r in enc.preview(shot).rollables]
    assert "Damage to Di on a hit" in labels and "Damage to Bo on a hit" in labels
    problems, figures = face_by_face(enc, shot, most=600)
    assert problems == [] and figures.combinations >= 200
    done, _ = faces.combinations(enc, shot, 600, "scp-12")
    hurt = {e.figure for _, _, _, after in done for e in after.events if e.kind == "damage"}
    assert {"di", "bo"} <= hurt


def test_ta_21_i4_a_parry_that_reduces_a_grapples_surplus_previews_the_save_it_leaves() -> None:
    """Under ``parry_reduces_surplus`` the Parry's margin comes off the grapple's surplus
    (I-4): the parry's outcomes are the saves the surplus left sets (TA-21), each a stage of
    the answer's preview, and every face combination rolls what it shows."""
    enc = ta.duel(options={"ta.defence_mode": "parry_reduces_surplus"})
    ta.declare(enc, "ann", "parry", "none", guard="bo")
    ta.declare(enc, "bo", "brawl", "other", target="ann", style="grapple")
    ta.to_step(enc, "combat")
    ta.roll(enc, [10, 10], "strike", "bo")
    answer = Action("parry", "ann", {})
    chain = enc.preview(answer).rollables[0]
    assert isinstance(chain, Chain)
    assert [s.id for s in chain.stages][:2] == ["hit", "parry"]
    assert any(s.id.startswith("brawl-") for s in chain.stages)
    problems, figures = face_by_face(enc, answer)
    assert problems == [] and figures.combinations >= 100
