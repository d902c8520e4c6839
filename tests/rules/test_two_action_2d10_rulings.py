"""two-action-2d10: errors a referee found against the text, each reproduced in the text's
own situation and named by its rule or gap id (a Block stands against every later blow, a
counter-strike is the defender's choice, results apply as they occur, blows struck together,
a loaded bow, no repeated attack), and the debatable readings as options (R-11..R-15)."""

from __future__ import annotations

import pytest
from two_action_2d10_fixtures import ANN_AT, act, declare, duel, kinds, make, of, roll, to_step

from hexcombat import Encounter
from hexcombat.document import to_document
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Pool, Status
from hexcombat.geometry import neighbor
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.validation import Json
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

CY_AT = neighbor(ANN_AT, 0)
"""Cy (sword) stands beside Ann and Bo: the Spear strikes, then the Sword, then the Axe."""
ARCHER_AT = neighbor(neighbor(ANN_AT, 4), 4)
"""Two hexes behind Ann: in bow range, out of reach."""


def _three(options: dict[str, Json] | None = None, **ann: Json) -> Encounter:
    """Ann (axe, changed by ``ann``) between Bo (spear) and Cy (sword), both Red."""
    enc = duel(options=options)
    figure = enc.setup_figure("ann")
    figure.stats.update(ann)
    enc = enc.with_figure(figure)
    return make(enc, "cy", "Cy", "Red", CY_AT, 3, weapon="sword")


def _archer(options: dict[str, Json] | None = None) -> Encounter:
    """Ann and Bo face to face; Cy (bow, missile skill 3) loaded it last round."""
    enc = make(duel(options=options), "cy", "Cy", "Red", ARCHER_AT, 1, missile="bow")
    declare(enc, "ann", "none", "none")
    declare(enc, "bo", "none", "none")
    declare(enc, "cy", "load", "none")
    to_step(enc, "combat")
    act(enc, "next_step")
    assert enc.state.step.id == "declare"
    return enc


def _view(enc: Encounter, fid: str) -> dict[str, Json]:
    """The figure panel's ruleset lines: passive defence, declared, missile loaded."""
    return enc.ruleset.figure_view(enc.state, enc.state.figures[fid])


def _torso_shot(enc: Encounter) -> list[Event]:
    """Step 2: Cy's prepared shot, 9 + 9 + 3 = 21 against Ann's passive 12: surplus 9, 2d6
    (1, 1), torso, a failed Health save: Ann loses her remaining actions (TA-11, TA-13)."""
    assert enc.state.step.id == "missiles"
    events = roll(enc, [9, 9, 1, 1, 5, 10, 10], "strike", "cy")
    assert of(events, "tactical")[0].data["effect"] == "lose_actions"
    return events


# ---- a Block stands between the protagonist and any incoming blow (TA-7, D-2) ---------


def test_ta_7_d2_a_parry_after_a_block_never_lowers_the_defence_below_the_block() -> None:
    """'Block - interposes a shield between the protagonist and any incoming blow': Ann's
    Block of 23 against Bo still stands when she parries Cy; a poor parry (2 + 3 = 5) leaves
    her defence at 23, and Cy's 22 misses (it was tested against the parry's 13)."""
    enc = _three(shield=True)
    declare(enc, "ann", "block", "parry", guard="cy")
    declare(enc, "bo", "attack", "other", target="ann")
    declare(enc, "cy", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [5, 5], "strike", "bo")  # the Spear first: 14
    events = roll(enc, [9, 9], "shield_block", "ann")  # 18 + 3 + 2 = 23: a miss
    assert of(events, "attack")[0].data["defence"] == 23
    roll(enc, [9, 9], "strike", "cy")  # the Sword: 22
    assert kinds(enc, "ann") == ["parry", "take"]
    preview = enc.preview(enc.legal_actions("ann")[0])
    assert preview.rollables[0].stages[0].rollable.outcomes()[0].chance == 0  # never a hit
    events = roll(enc, [1, 1], "parry", "ann")
    attack = of(events, "attack")[0]
    assert (attack.data["attack"], attack.data["defence"], attack.data["hit"]) == (22, 23, False)
    assert "never below block rolled this round 23" in attack.details[-1]


def test_ta_7_d2_a_dropped_shield_blocks_no_later_blow() -> None:
    """Bo's combined thrust beats Ann's Block (28 against 23) and her failed save drops the
    shield (D-7): the Block no longer covers Cy's later blow, which meets her passive 12
    (without the shield) and hits (it met the Block's 23 and missed)."""
    enc = _three(shield=True)
    figure = enc.setup_figure("bo")
    figure.stats["skill"] = 8
    enc = enc.with_figure(figure)
    declare(enc, "ann", "block", "none")
    declare(enc, "bo", "attack", "attack", target="ann", combine=True)
    declare(enc, "cy", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [10, 10, 10], "strike", "bo")  # 20 + 8 = 28
    # Block 9 + 9 + 5 = 23: surplus 5, 2d8 (1, 1), shield arm, Strength save 10 + 10 fails
    events = roll(enc, [9, 9, 1, 1, 2, 10, 10], "shield_block", "ann")
    assert of(events, "tactical")[0].data["effect"] == "drop_shield"
    events = roll(enc, [5, 4, 1], "strike", "cy")  # 13: no prompt, d8 1
    assert enc.state.prompt is None
    attack = of(events, "attack")[0]
    assert (attack.data["attack"], attack.data["defence"], attack.data["hit"]) == (13, 12, True)


# ---- after a spectacular mistake the defender may choose (TA-17) ----------------------


def _fumbled_at_ann(options: dict[str, Json] | None = None) -> Encounter:
    """Bo's Spear strikes first and makes a spectacular mistake against Ann, who declared
    attack + parry and strikes second; Cy's Sword comes next."""
    enc = _three({"ta.guard_scope": "all", **(options or {})})
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    declare(enc, "cy", "attack", "other", target="ann")
    to_step(enc, "combat")
    events = roll(enc, [1, 1], "strike", "bo")
    assert "spectacular mistake" in of(events, "attack")[0].text
    return enc


def test_ta_17_after_a_spectacular_mistake_the_defender_may_keep_its_parry() -> None:
    """'They need not commit their defensive option and may choose to transfer it to a
    counter-strike': Ann is asked; she keeps the parry, and it still meets Cy's blow."""
    enc = _fumbled_at_ann()
    assert kinds(enc, "ann") == ["counter", "keep_defence"]
    assert "giving up the parry, or keep it" in str(enc.state.prompt and enc.state.prompt.question)
    act(enc, "keep_defence", "ann")
    assert "ann" not in enc.state.memory["ripostes"]
    roll(enc, [5, 5], "strike", "cy")
    assert kinds(enc, "ann") == ["parry", "take"]


def test_ta_17_i3_the_defender_may_transfer_the_parry_to_a_counter_strike() -> None:
    """Transferred, the parry is spent: Cy's blow finds no parry, and Ann counter-strikes Bo
    in the Riposte step (I-3); at once (``immediate``) she is asked the same and strikes."""
    enc = _fumbled_at_ann()
    act(enc, "counter", "ann")
    assert enc.state.memory["ripostes"] == {"ann": "bo"}
    roll(enc, [2, 2], "strike", "cy")  # 8 against 12: a miss, no prompt
    assert enc.state.prompt is None
    enc = _fumbled_at_ann({"ta.counter_strike_step": "immediate"})
    assert kinds(enc, "ann") == ["riposte", "keep_defence"]
    events = roll(enc, [3, 3], "riposte", "ann")  # 10 against Bo's passive 12
    assert of(events, "attack")[0].text == "Ann misses Bo (10 against 12)"
    assert enc.state.memory["spent"]["ann"] == ["parry"]


def test_ta_13_ta_17_a_counter_strike_is_lost_with_its_owner_s_remaining_actions() -> None:
    """'A warrior who receives a tactical result early in the round may lose the
    opportunity to strike later in the round': Ann takes the counter-strike, then Cy's blow
    costs her the remaining actions; the Riposte step has no counter-strike left to offer."""
    enc = _fumbled_at_ann()
    act(enc, "counter", "ann")
    events = roll(enc, [9, 8, 1, 1, 5, 10, 10], "strike", "cy")  # 21: torso, save fails
    assert of(events, "tactical")[0].data["effect"] == "lose_actions"
    assert kinds(enc, "ann") == []
    act(enc, "next_step")
    assert enc.state.step.id == "declare"  # the Riposte step is skipped


# ---- results are implemented as soon as they occur (TA-13) ----------------------------


def test_ta_13_a_figure_that_lost_its_actions_to_a_prepared_shot_rolls_no_movement() -> None:
    """Cy's prepared shot (step 2) costs Ann her remaining actions: her declared movement
    action is one of them, so she is offered only the free 3 forward or 1 back (TA-23)."""
    enc = _archer()
    declare(enc, "ann", "move", "parry", guard="bo")
    declare(enc, "bo", "none", "none")
    declare(enc, "cy", "shoot", "none", target="ann")
    act(enc, "next_step")
    _torso_shot(enc)
    act(enc, "next_step")
    assert enc.state.step.id == "movement"
    assert kinds(enc, "ann") == ["move", "stay"]


# ---- blows struck together (TA-16, D-10) ----------------------------------------------


def _twins(**bo: Json) -> Encounter:
    """Ann and Bo, both axe and skill 4: the same place in the order, Ann first in set-up."""
    enc = duel(weapon="axe")
    figure = enc.setup_figure("bo")
    figure.stats.update(bo)
    if "health" in bo:
        figure.pools["hp"], figure.pools["bp"] = Pool(1, 1), Pool(1, 1)
    enc = enc.with_figure(figure)
    declare(enc, "ann", "attack", "other", target="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["order_notes"] == [
        "Ann and Bo strike together (TA-16, D-10)"
    ]
    return enc


def test_d10_ta_16_a_twin_disarmed_first_still_strikes_with_its_weapon() -> None:
    """Same weapon and skill: 'both resolve, then both apply'. Ann's blow makes Bo drop his
    axe; he still strikes with it, at his place, and only then is it on the ground."""
    enc = _twins()
    # 9 + 7 + 4 = 20 against 12: surplus 8, 2d8 (1, 1), weapon arm, Strength save fails
    events = roll(enc, [9, 7, 1, 1, 3, 10, 10], "strike", "ann")
    assert "once Bo's own blow is struck" in of(events, "tactical")[0].text
    bo = enc.state.figures["bo"]
    assert not bo.has_status("dropped_weapon") and kinds(enc, "bo") == ["strike", "hold"]
    assert enc.ruleset.strike_mode(enc.state, bo) == "melee"
    events = roll(enc, [6, 5, 3], "strike", "bo")  # 15 with the axe: d8 3 damage
    assert of(events, "damage")[0].data["damage"] == 3
    assert enc.state.figures["bo"].has_status("dropped_weapon")


def test_d10_ta_16_a_twin_downed_first_still_strikes_then_goes_down() -> None:
    """Bo (1 hit point, 1 body point) is brought to 0 body points by Ann's blow: he still
    strikes back at his place in the order, then is down (TA-12, R-5)."""
    enc = _twins(health=1)
    roll(enc, [6, 6, 4], "strike", "ann")  # 16: surplus 4, d8 4 damage
    assert enc.state.figures["bo"].pools["bp"].current <= 0
    assert kinds(enc, "bo") == ["strike", "hold"]
    events = roll(enc, [6, 6, 2], "strike", "bo")
    assert of(events, "damage")[0].data["damage"] == 2
    assert [e.text for e in of(events, "status")] == ["Bo is down at -2 body points (TA-12, R-5)"]
    assert enc.ruleset.is_out(enc.state, enc.state.figures["bo"])


# ---- missiles (TA-22, TA-27) ----------------------------------------------------------


def test_ta_22_ta_27_a_bow_loaded_last_round_shoots_in_step_2_and_the_load_readies_it() -> None:
    """Loaded last round, Cy declares shoot + load: the shot is a prepared missile of step
    2 (not a load-and-shoot of combat), and the Load readies the bow again for next round."""
    enc = _archer()
    declare(enc, "ann", "none", "none")
    declare(enc, "bo", "none", "none")
    declare(enc, "cy", "shoot", "load", target="ann")
    act(enc, "next_step")
    assert enc.state.step.id == "missiles" and kinds(enc, "cy") == ["strike", "hold"]
    roll(enc, [2, 2], "strike", "cy")  # 7 against 12: a miss
    to_step(enc, "combat")
    assert kinds(enc, "cy") == []  # no second shot in combat
    assert _view(enc, "cy")["ta_loaded"] is True


# ---- the same action may not be repeated (TA-3) ---------------------------------------


def test_ta_3_attack_and_brawl_is_refused_as_a_repeated_attack() -> None:
    """'The same action may not be repeated': a brawl is a pummelling attack (TA-19), so an
    attack and a brawl are refused with the reason and the alternative, and nothing changes;
    combined, one attack takes both actions."""
    enc = duel()
    before = to_document(enc)
    with pytest.raises(IllegalActionError, match="both attacks"):
        declare(enc, "ann", "attack", "brawl", target="bo")
    assert to_document(enc) == before
    assert R.declaration_problem("brawl", "attack", False)
    declare(enc, "ann", "attack", "attack", target="bo", combine=True)


# ---- the debatable readings, as options -----------------------------------------------


def test_r12_ta_7_a_parry_needs_a_weapon_or_a_shield_in_hand() -> None:
    """'Parry - ... by countering with weapon or shield': bare-handed Ann without a shield is
    not offered a Parry and is refused one with the reason (default); a shield gives her
    one; ``anything`` lets anyone parry. Disarmed during the round, her Parry is gone."""
    enc = duel(shield=False)
    figure = enc.setup_figure("ann")
    figure.stats["weapon"] = "natural"
    enc = enc.with_figure(figure)
    first, second = enc.legal_actions("ann")[0].params[:2]
    assert "parry" not in [c.value for c in first.choices] and second.default == "dodge"
    with pytest.raises(IllegalActionError, match="neither is in hand; Dodge instead"):
        declare(enc, "ann", "brawl", "parry", target="bo", guard="bo")
    figure.stats["shield"] = True
    declare(enc.with_figure(figure), "ann", "brawl", "parry", target="bo", guard="bo")
    enc = duel(options={"ta.parry_needs": "anything"})
    figure = enc.setup_figure("ann")
    figure.stats["weapon"] = "natural"
    declare(enc.with_figure(figure), "ann", "brawl", "parry", target="bo", guard="bo")


def test_r12_a_figure_disarmed_during_the_round_has_no_parry_left() -> None:
    """Bo's spear knocks Ann's axe from her hand (weapon arm, failed save) and Cy strikes
    next: with no weapon and no shield in hand Ann is not asked to parry (TA-7, R-12)."""
    enc = _three({"ta.guard_scope": "all"})
    declare(enc, "ann", "attack", "parry", target="bo", guard="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    declare(enc, "cy", "attack", "other", target="ann")
    to_step(enc, "combat")
    roll(enc, [9, 8], "strike", "bo")  # 21
    events = roll(enc, [1, 1, 3, 10, 10], "take", "ann")  # surplus 9: weapon arm
    assert of(events, "tactical")[0].data["effect"] == "drop_weapon"
    roll(enc, [5, 5, 1], "strike", "cy")  # 14 against passive 12: no prompt, d8 1
    assert enc.state.prompt is None


@pytest.mark.parametrize(("timing", "answers"), [("first_blow", 1), ("at_choice", 2)])
def test_r13_ta_7_a_block_stands_from_the_first_blow_or_is_kept_at_choice(
    timing: str, answers: int
) -> None:
    """Default: a Block is rolled against the first blow it covers, and the strike's
    preview shows that one roll; ``at_choice``: the defender sees the attack roll and may
    take it on the passive defence, keeping the Block for later."""
    enc = duel(options={"ta.block_timing": timing}, shield=False)
    figure = enc.setup_figure("ann")
    figure.stats["shield"] = True
    enc = enc.with_figure(figure)
    declare(enc, "ann", "block", "attack", target="bo")
    declare(enc, "bo", "attack", "other", target="ann")
    to_step(enc, "combat")
    (chain,) = enc.preview(enc.legal_actions("bo")[0]).rollables
    assert len(chain.to_json().get("variants", [])) == (answers if answers > 1 else 0)
    roll(enc, [3, 3], "strike", "bo")
    expected = ["shield_block", "take"][:answers]
    assert kinds(enc, "ann") == expected


@pytest.mark.parametrize(("moving", "offered"), [("free", ["move", "stay"]), ("none", ["stay"])])
def test_r14_a_prone_figure_moves_freely_or_lies_still(moving: str, offered: list[str]) -> None:
    """TA-23 names no exception for a prone protagonist (default ``free``); ``none`` keeps
    it where it lies until it has risen (D-7), a movement action included."""
    enc = duel(options={"ta.prone_movement": moving})
    figure = enc.setup_figure("ann")
    figure.statuses["prone"] = Status("prone")
    enc = enc.with_figure(figure)
    declare(enc, "ann", "move", "other")
    declare(enc, "bo", "none", "none")
    act(enc, "next_step")
    assert enc.state.step.id == "movement"
    assert kinds(enc, "ann") == (["sprint"] if moving == "free" else offered)


def test_r15_recover_takes_effect_as_combat_begins_and_is_lost_with_the_actions() -> None:
    """Default ``combat``: prone Ann declares Recover; Cy's prepared shot meets her prone
    passive 8, and the shot's result takes her remaining actions, so she never rises
    (TA-13, TA-27). With ``declaration`` she rises at the reveal and the shot meets 12."""
    shots = {"combat": [5, 5, 1, 1, 5, 10, 10], "declaration": [5, 5, 1]}  # 13: torso or d6
    for timing, passive, prone in (("combat", 8, True), ("declaration", 12, False)):
        enc = duel(options={"ta.ready_actions_at": timing})
        enc = make(enc, "cy", "Cy", "Red", ARCHER_AT, 1, missile="bow")
        figure = enc.setup_figure("cy")
        figure.memory["loaded"] = True
        enc = enc.with_figure(figure)
        figure = enc.setup_figure("ann")
        figure.statuses["prone"] = Status("prone")
        enc = enc.with_figure(figure)
        declare(enc, "ann", "recover", "parry", guard="bo")
        declare(enc, "bo", "none", "none")
        declare(enc, "cy", "shoot", "none", target="ann")
        act(enc, "next_step")
        assert _view(enc, "ann")["ta_passive"] == passive
        events = roll(enc, shots[timing], "strike", "cy")
        assert of(events, "attack")[0].data["defence"] == passive
        to_step(enc, "combat")
        assert enc.state.figures["ann"].has_status("prone") is prone, timing


def test_r15_a_load_takes_effect_as_combat_begins_by_default() -> None:
    """Load + parry: the bow is ready once combat begins (default), at the reveal with
    ``declaration``; either way its shot comes in step 2 of the next round (TA-22)."""
    for timing, at_reveal in (("combat", False), ("declaration", True)):
        enc = make(duel(options={"ta.ready_actions_at": timing}), "cy", "Cy", "Red", ARCHER_AT, 1)
        figure = enc.setup_figure("cy")
        figure.stats["missile"] = "bow"
        enc = enc.with_figure(figure)
        declare(enc, "ann", "none", "none")
        declare(enc, "bo", "none", "none")
        declare(enc, "cy", "load", "none")
        loaded = _view(enc, "cy")["ta_loaded"]
        assert loaded is at_reveal, timing
        to_step(enc, "combat")
        assert _view(enc, "cy")["ta_loaded"] is True


def test_r11_ta_17_ta_19_a_ceding_spear_strikes_after_fists_or_fists_come_last() -> None:
    """A Spear that cedes (a Dodge) against fists not closed: by default ceding puts it
    after everyone, the fists too (TA-17); with ``fists_last``, fists 'come last in the
    round' whatever (TA-19)."""
    spear = R.Striker("s", "Sif", "spear", 1, 4, cedes=True, opponents=("f",))
    fists = R.Striker("f", "Finn", "natural", 8, 2, opponents=("s",))
    order, notes = R.strike_order([spear, fists])
    assert order == ["f", "s"] and notes == ["Sif cedes the initiative (TA-17, TA-18)"]
    order, notes = R.strike_order([spear, fists], ceding="fists_last")
    assert order == ["s", "f"]
    assert notes == ["Finn's fists come last in the round, after who cedes (TA-19, R-11)"]
    enc = duel(options={"ta.ceding_and_fists": "fists_last"}, weapon="natural")
    declare(enc, "ann", "attack", "dodge", target="bo", guard="bo")
    declare(enc, "bo", "brawl", "none", target="ann")
    to_step(enc, "combat")
    assert encounter_view(enc)["time"]["acting"]["figures"] == ["ann", "bo"]


def test_ta_12_nothing_in_the_fight_restores_hit_or_body_points() -> None:
    """Sentence 25 (body points recover more slowly) is recovery after the fight: within it
    no action but the GM's own pool tool gives back a point of either pool."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the games
    from secret_games import at, random_game

    dropped = 0
    for seed in (1, 2, 3):
        game = random_game(duel(), seed)
        states = [at(game, i).state for i in range(game.cursor + 1)]
        for i, entry in enumerate(game.log[: game.cursor]):
            if entry.action.kind == "gm_pool":
                continue
            for fid, figure in states[i + 1].figures.items():
                for key in ("hp", "bp"):
                    before, after = states[i].figures[fid].pools.get(key), figure.pools.get(key)
                    if before is not None and after is not None:
                        assert after.current <= before.current, f"seed {seed}, entry {i}: {key}"
                        dropped += after.current < before.current
    assert dropped, "no blow landed in these games"
