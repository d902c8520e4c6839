"""Rollables: exact odds for every outcome equal brute force over every face; chains in order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from hexcombat.checks import (
    Amount,
    AmountResult,
    Band,
    Chain,
    ChainResult,
    Check,
    CheckError,
    Modifier,
    OpposedCheck,
    OpposedSide,
    Outcome,
    Rollable,
    Stage,
    Variant,
)
from hexcombat.dice import DiceExhaustedError, ScriptedDice, evaluate, parse

pytestmark = pytest.mark.pyodide


def every_roll(exprs: Sequence[str]) -> Iterator[list[int]]:
    """Every sequence of faces the dice ``exprs`` can show, in roll order (equally likely)."""
    sides = [s for e in exprs for s in parse(e).faces_needed()]
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        yield list(faces)


def brute_force(rollable: Rollable) -> dict[str, Fraction]:
    """Outcome odds by rolling every combination of faces of every die the rollable may roll."""
    exprs = rollable.roll_order()
    combos = list(every_roll(exprs))
    counts: dict[str, Fraction] = {}
    for faces in combos:
        result = rollable.roll(ScriptedDice(faces))
        # A chain that stops early leaves later faces unused: each combination still counts once.
        counts[result.outcome_id] = counts.get(result.outcome_id, Fraction(0)) + Fraction(
            1, len(combos)
        )
    return counts


def odds(rollable: Rollable) -> dict[str, Fraction]:
    return {o.id: o.chance for o in rollable.outcomes() if o.chance}


def brute_force_opposed(contest: OpposedCheck) -> dict[str, Fraction]:
    """Opposed odds over every face of both sides: each side's faces, then every pairing."""
    sides = []  # per side: one roll for each total, and how many face combinations give it
    for side in (contest.attacker, contest.defender):
        rolls = [evaluate(side.dice, faces) for faces in every_roll([side.dice])]
        totals = Counter(r.total for r in rolls)
        sample = {r.total: r for r in rolls}
        sides.append([(sample[t], n) for t, n in totals.items()])
    combos = sum(n for _, n in sides[0]) * sum(n for _, n in sides[1])
    counts: dict[str, Fraction] = {}
    for (a_roll, a_n), (d_roll, d_n) in itertools.product(*sides):
        outcome = contest.resolve(a_roll, d_roll).outcome_id
        counts[outcome] = counts.get(outcome, Fraction(0)) + Fraction(a_n * d_n, combos)
    return counts


def skill_contest() -> OpposedCheck:
    """3d10 keep the best two + skill against 2d10 + defence (meet-or-beat wins)."""
    return OpposedCheck(
        "Sword thrust",
        OpposedSide("Alda", "3d10kh2", (Modifier("Sword skill", 4, "TA-3"),)),
        OpposedSide("Bors", "2d10", (Modifier("Defence", 6, "TA-5"),)),
        wins="higher",
        ties="attacker",
        rule="TA-3",
    )


def attack_chain(damage: str = "d6") -> Chain:
    hit = Check(
        "To hit", "d20", "ge", 12, "Defence", (), (Modifier("Attack", 3),), None, "", "hit", "miss"
    )
    return Chain(
        "Ann attacks Bo",
        (Stage("hit", hit), Stage("damage", Amount("Damage", damage, unit="damage"), ("success",))),
    )


def full_chain() -> Chain:
    """Hit -> damage -> location -> a save rolled only for a head hit."""
    hit = Check("To hit", "d6", "ge", 3, "Target", success_text="hit", failure_text="miss")
    damage = Amount("Damage", "d4", (Modifier("Strength", 1),), unit="damage")
    location = Amount(
        "Location",
        "d6",
        bands=(Band(1, 3, "body", "Body"), Band(4, 5, "arms", "Arms"), Band(6, 6, "head", "Head")),
    )
    save = Check("Helmet save", "d6", "ge", 5, "Helmet", success_text="saved", failure_text="hurt")
    return Chain(
        "Strike",
        (
            Stage("hit", hit),
            Stage("damage", damage, ("success",)),
            Stage("location", location),
            Stage("save", save, ("head",)),
        ),
    )


# --------------------------------------------------------------------------- opposed


def test_3d10kh2_plus_skill_against_2d10_plus_defence_equals_brute_force_exactly() -> None:
    contest = skill_contest()
    assert odds(contest) == brute_force_opposed(contest)  # 1000 x 100 faces, exact Fractions
    assert sum(o.chance for o in contest.outcomes()) == 1
    win, tie, lose = contest.outcomes()
    assert (win.label, tie.label, lose.label) == ("Alda wins", "tie: Alda wins", "Bors wins")
    assert contest.headline().chance == win.chance + tie.chance == contest.chance()


@pytest.mark.parametrize("defence", ["2d10", "3d10kh2"])
@pytest.mark.parametrize(("wins", "ties"), [("higher", "defender"), ("lower", "attacker")])
def test_opposed_outcomes_follow_the_comparison(defence: str, wins: str, ties: str) -> None:
    contest = OpposedCheck(
        "Contest",
        OpposedSide("A", "3d10kh2", (Modifier("Skill", 2),)),
        OpposedSide("D", defence, (Modifier("Defence", 1),)),
        wins=wins,
        ties=ties,
    )
    assert odds(contest) == brute_force_opposed(contest)
    win, tie, _ = contest.outcomes()
    assert contest.chance() == win.chance + (tie.chance if ties == "attacker" else 0)


def test_opposed_faces_name_each_side_in_roll_order() -> None:
    faces = skill_contest().faces()
    assert [(f.sides, f.dice, f.who) for f in faces] == [
        *[(10, "best two of 3d10", "Alda")] * 3,
        *[(10, "2d10", "Bors")] * 2,
    ]
    result = skill_contest().roll(ScriptedDice([9, 2, 8, 10, 10]))
    assert (result.attacker_total, result.defender_total, result.outcome_id) == (21, 26, "lose")
    assert result.explain() == (
        "Sword thrust: Alda 17 (best two of 3d10: 9, 2 dropped, 8), +4 Sword skill (TA-3) = 21 vs "
        "Bors 20 (2d10: 10, 10), +6 Defence (TA-5) = 26: Bors wins"
    )


# --------------------------------------------------------------------------- checks and amounts


def test_a_check_has_both_outcomes_and_they_sum_to_one() -> None:
    check = attack_chain().stages[0].rollable
    assert [(o.id, o.label, o.chance) for o in check.outcomes()] == [
        ("success", "hit", Fraction(12, 20)),
        ("failure", "miss", Fraction(8, 20)),
    ]
    assert odds(check) == brute_force(check)


def test_an_amount_gives_each_total_or_each_band() -> None:
    damage = Amount("Damage", "2d6", (Modifier("Strength", 1),), unit="damage")
    assert odds(damage) == brute_force(damage)
    assert damage.outcomes()[0].label == "3 damage"
    location = full_chain().stages[2].rollable
    assert [(o.id, o.chance) for o in location.outcomes()] == [
        ("body", Fraction(1, 2)),
        ("arms", Fraction(1, 3)),
        ("head", Fraction(1, 6)),
    ]
    with pytest.raises(CheckError, match="no band covers the total"):
        Amount("Location", "d6", bands=(Band(1, 5, "body", "Body"),))


# --------------------------------------------------------------------------- chains


@pytest.mark.parametrize("chain", [attack_chain(), attack_chain("2d4"), full_chain()])
def test_chain_odds_equal_enumeration_and_sum_to_one(chain: Chain) -> None:
    assert odds(chain) == brute_force(chain)
    assert sum(o.chance for o in chain.outcomes()) == 1


def test_chain_outcomes_are_where_it_stops() -> None:
    chain = attack_chain()
    assert [(o.id, o.label, o.chance) for o in chain.outcomes()] == [
        ("hit.failure", "To hit: miss", Fraction(2, 5)),
        *[(f"damage.{n}", f"Damage: {n} damage", Fraction(1, 10)) for n in range(1, 7)],
    ]
    assert full_chain().reached() == [1, Fraction(2, 3), Fraction(2, 3), Fraction(1, 9)]


def test_chain_dice_in_roll_order_say_when_they_are_rolled() -> None:
    chain = full_chain()
    assert chain.roll_order() == ["d6", "d4", "d6", "d6"]
    assert [(f.dice, f.when) for f in chain.faces()] == [
        ("d6", ""),
        ("d4", "if hit"),
        ("d6", "if hit"),
        ("d6", "if Head"),
    ]


def test_typed_faces_resolve_a_chain_in_order_and_ask_for_the_next_die() -> None:
    chain = full_chain()
    with pytest.raises(DiceExhaustedError) as needed:
        chain.roll(ScriptedDice([5]))  # a hit: the damage d4 comes next
    assert needed.value.sides == 4
    with pytest.raises(DiceExhaustedError) as needed:
        chain.roll(ScriptedDice([5, 2, 6]))  # a head hit: the helmet save comes next
    assert needed.value.sides == 6
    result = chain.roll(ScriptedDice([5, 2, 6, 3]))
    assert isinstance(result, ChainResult) and result.outcome_id == "save.failure"
    assert result.lines() == [
        "To hit: 3 Target; rolled 5 ≥ 3: hit",
        "Damage: rolled 2, +1 Strength = 3 damage",
        "Location: rolled 6: Head",
        "Helmet save: 5 Helmet; rolled 3 < 5: hurt",
    ]
    miss = chain.roll(ScriptedDice([1]))
    assert miss.outcome_id == "hit.failure" and miss.result("damage") is None
    body = chain.roll(ScriptedDice([6, 4, 1]))
    damage = body.result("damage")
    assert body.outcome_id == "location.body"
    assert isinstance(damage, AmountResult) and damage.total == 5
    assert [r.expr for r in body.rolls] == ["d6", "d4", "d6"]


def test_a_chain_refuses_conditions_its_stages_cannot_meet() -> None:
    hit = attack_chain().stages[0]
    with pytest.raises(CheckError, match="'hit' does not have"):
        Chain("x", (hit, Stage("damage", Amount("Damage", "d6"), ("crit",))))
    with pytest.raises(CheckError, match="first stage is always rolled"):
        Chain("x", (Stage("damage", Amount("Damage", "d6"), ("success",)),))


def test_a_chain_may_head_with_a_later_stage_times_the_chance_it_is_reached() -> None:
    """A missile checked against a bystander first: the card's chance is hitting the target."""
    first = Check("At Di", "d10", "le", 5, "Di", success_text="hit", failure_text="miss")
    then = Check("At Bo", "d10", "le", 4, "Bo", success_text="hit", failure_text="miss")
    stages = (Stage("di", first), Stage("bo", then, ("failure",)))
    assert Chain("Shot", stages).headline() == first.headline()
    head = Chain("Shot", stages, headline_stage="bo").headline()
    assert head is not None and head.chance == Fraction(1, 2) * Fraction(2, 5)
    assert Chain("Shot", stages, headline_stage="bo").to_json()["headline"]["percent"] == "20%"
    with pytest.raises(CheckError, match="no stage 'cy'"):
        Chain("Shot", stages, headline_stage="cy")


# --------------------------------------------------------------------------- the page's shape


def test_a_headline_reads_as_the_ruleset_words_it_after_its_percentage() -> None:
    """A check's "chance of dodged" read badly. A check names its chance of success
    ("60% to hit"); an opposed roll says who wins; a chain keeps its head stage's words; a
    check that words nothing reads "chance: <label>"."""
    hit = Check("To hit", "d20", "ge", 9, "Defence", success_text="hit", success_phrase="to hit")
    assert hit.headline().to_json()["phrase"] == "to hit"
    assert hit.headline() == Outcome("success", "hit", Fraction(3, 5))  # words are no value
    chain = Chain("Ann attacks Bo", (Stage("hit", hit), Stage("damage", Amount("Dmg", "d6"))))
    assert chain.to_json()["headline"]["phrase"] == "to hit"
    assert skill_contest().headline().words == "that Alda wins"
    assert attack_chain().headline() is not None
    assert attack_chain().to_json()["headline"]["phrase"] == "chance: hit"


def test_every_rollable_serialises_to_one_shape() -> None:
    check = attack_chain().stages[0].rollable
    dodge = Check("Dodge", "d100", "le", 40, "Dodge skill", success_text="dodged")
    with_variants = Check(
        "To hit",
        "d20",
        "ge",
        12,
        "Defence",
        variants=(
            Variant("No dodge", check),
            Variant(
                "Dodge", Chain("To hit", (Stage("hit", check), Stage("dodge", dodge, ("success",))))
            ),
        ),
    )
    keys = {
        "rollable",
        "kind",
        "label",
        "rule",
        "dice",
        "faces",
        "outcomes",
        "headline",
        "breakdown",
        "stages",
        "variants",
    }
    for rollable in (check, skill_contest(), full_chain(), with_variants, Amount("Damage", "d6")):
        data = rollable.to_json()
        assert set(data) == keys
        assert all(
            set(o) == {"id", "label", "chance", "percent", "phrase"} for o in data["outcomes"]
        )
        assert sum(Fraction(o["chance"]) for o in data["outcomes"]) == 1
    data = attack_chain().to_json()
    assert data["kind"] == "chain" and data["dice"] == ["d20", "d6"]
    assert data["headline"] == {
        "id": "success",
        "label": "hit",
        "chance": "3/5",
        "percent": "60%",
        "phrase": "chance: hit",  # attack_chain's check words no phrase of its own
    }
    assert data["faces"] == [
        {"sides": 20, "dice": "d20", "who": "", "when": ""},
        {"sides": 6, "dice": "d6", "who": "", "when": "if hit"},
    ]
    assert [s["id"] for s in data["stages"]] == ["hit", "damage"]
    assert data["stages"][1]["reached"]["percent"] == "60%"
    assert data["stages"][1]["when_text"] == "if hit"
    variants = with_variants.to_json()["variants"]
    assert [v["label"] for v in variants] == ["No dodge", "Dodge"]
    assert [o["percent"] for o in variants[1]["outcomes"]] == ["40%", "24%", "36%"]


# --------------------------------------------------------------------------- bands and branches


def mistake_check(target: int = 4) -> Check:
    """2d6 + 3 against ``target``: double one a mistake, a margin of 5 or more a strong hit."""
    return Check(
        "Blow",
        "2d6",
        "ge",
        target,
        "Defence",
        roll_modifiers=(Modifier("Skill", 3),),
        success_text="hit",
        naturals=(Band(2, 2, "mistake", "spectacular mistake"),),
        margins=(Band(0, 4, "hit", "hit"), Band(5, 10**6, "strong", "strong hit")),
    )


def test_a_check_s_naturals_and_margins_equal_brute_force_and_head_with_every_success() -> None:
    check = mistake_check()
    assert odds(check) == brute_force(check)
    assert set(odds(check)) == {"mistake", "hit", "strong"}  # 2 + 3 >= 4: no plain miss
    assert check.chance() == 1 - Fraction(1, 36) == check.headline().chance
    assert check.roll(ScriptedDice([1, 1])).outcome_id == "mistake"
    assert not check.roll(ScriptedDice([1, 1])).success
    assert check.roll(ScriptedDice([6, 6])).outcome_id == "strong"


def every_path(rollable: Rollable) -> dict[str, Fraction]:
    """Outcome odds over every face of every die the rollable asks for as it rolls (a branch
    asks for its own dice)."""
    counts: dict[str, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, weight = stack.pop()
        try:
            outcome = rollable.roll(ScriptedDice(faces)).outcome_id
        except DiceExhaustedError as exc:
            stack += [((*faces, v), weight / exc.sides) for v in range(1, exc.sides + 1)]
            continue
        counts[outcome] = counts.get(outcome, Fraction(0)) + weight
    return counts


def test_a_chain_s_branches_roll_the_dice_of_the_outcome_reached() -> None:
    hit = mistake_check(9)
    chain = Chain(
        "Blow and damage",
        (
            Stage("hit", hit),
            Stage("damage", Amount("Damage", "d4"), ("hit",)),
            Stage("strong", Amount("Damage", "2d4"), ("strong",), after="hit"),
            Stage("save", Check("Save", "d6", "ge", 4, "Save"), ("8",)),
        ),
    )
    assert odds(chain) == every_path(chain)
    assert sum(o.chance for o in chain.outcomes()) == 1
    result = chain.roll(ScriptedDice([6, 6, 4, 4, 5]))  # 12 + 3: strong, 8 damage, a save
    assert isinstance(result, ChainResult)
    assert result.stage_ids == ("hit", "strong", "save") and result.outcome_id == "save.success"
    assert result.result("damage") is None
    weak = chain.roll(ScriptedDice([3, 3, 2]))
    assert isinstance(weak, ChainResult) and weak.outcome_id == "damage.2"
    assert [f.when for f in chain.faces()][-1] == "if 8"  # the save names the total it follows


def test_an_opposed_check_s_naturals_and_margins_are_exact() -> None:
    contest = OpposedCheck(
        "Blow",
        OpposedSide("A", "2d6", (Modifier("Skill", 2),)),
        OpposedSide("D", "d6"),
        ties="attacker",
        naturals=(Band(2, 2, "mistake", "a mistake"),),
        margins=(Band(0, 3, "hit", "hit"), Band(4, 10**6, "strong", "strong hit")),
    )
    assert odds(contest) == every_path(contest)
    assert contest.chance() == sum(
        o.chance for o in contest.outcomes() if o.id in ("hit", "strong")
    )
    mistake = contest.roll(ScriptedDice([1, 1, 1]))  # 2 + 2 beats 1, yet a mistake
    assert mistake.outcome_id == "mistake" and not mistake.attacker_wins
