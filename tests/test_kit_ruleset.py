"""The test-only ``kit-duel`` ruleset (tests/kit/) played end to end through the Encounter API.

One round uses the whole engine interface together: hidden stances (KIT-1), a strike
order by reach, skill and ceding (KIT-2, KIT-3), a strike's weapon -> special -> target
choices (KIT-4), an opposed hit -> damage chain with exact odds (KIT-5, KIT-7), a block
prompt (KIT-6), two passes a round (KIT-8), a two-hex mount and two figures sharing a hex
(KIT-9). Dice are typed faces; undo/redo and save/load replay it exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from itertools import product

import pytest
from kit import KitDuel
from kit.rules import damage_left, in_zone, strike_key, weapon_list
from playouts import playout

from hexcombat import Action, Encounter, HexcombatError, dumps, loads
from hexcombat.checks import Chain
from hexcombat.document import to_document
from hexcombat.errors import IllegalActionError
from hexcombat.geometry import Hex
from hexcombat.rulesets import registry
from hexcombat.view import encounter_view

pytestmark = pytest.mark.pyodide

STANCES = {"cy": "cede", "ann": "press", "horse": "press", "bo": "press"}


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[KitDuel]:
    """Register ``kit-duel`` for one test only (it is never registered in the app)."""
    ruleset = KitDuel()
    monkeypatch.setitem(registry._REGISTRY, KitDuel.id, ruleset)
    yield ruleset


def duel(**options: object) -> Encounter:
    """Ann (sword, dagger) shares a hex with Cy (dagger, Red); Bo (spear, Red) stands in
    front of her; her Warhorse covers two hexes beside her."""
    enc = Encounter.new("kit-duel", 8, 8, name="Kit duel", seed=3)
    if options:
        enc = enc.with_options({**enc.setup.options, **options})  # type: ignore[dict-item]
    rs = enc.ruleset
    rows = (
        ("ann", "Ann Blade", "Blue", Hex(3, 3), 0, {"weapons": "sword,dagger"}, ()),
        ("cy", "Cy Knife", "Red", Hex(3, 3), 0, {"weapons": "dagger", "skill": 2}, ()),
        ("bo", "Bo Pike", "Red", Hex(3, 2), 3, {"weapons": "spear", "defence": 2}, ()),
        ("horse", "Warhorse", "Blue", Hex(4, 2), 0, {"weapons": "hooves", "skill": 1},
         (Hex(0, 1),)),
    )  # fmt: skip
    for fid, name, side, at, facing, stats, footprint in rows:
        f = rs.new_figure(fid, name, side, at, facing)
        f = dataclasses.replace(f, stats={**f.stats, **stats}, footprint=footprint)
        enc = enc.with_figure(f)
    return enc


def act(enc: Encounter, kind: str, figure: str | None = None, faces: list[int] | None = None,
        **params: object) -> list[str]:  # fmt: skip
    return [e.text for e in enc.perform(Action(kind, figure, params), faces=faces)]  # type: ignore[arg-type]


def stances(enc: Encounter, order: list[str]) -> None:
    for fid in order:
        act(enc, "stance", fid, stance=STANCES[fid])


def now(enc: Encounter) -> list[str]:
    return list(enc.ruleset.who_acts(enc.state).now())


def spec(enc: Encounter, fid: str, kind: str) -> dict[str, object]:
    found = [s for s in enc.legal_actions(fid) if s.kind == kind]
    assert found, f"{fid} is not offered {kind}"
    return found[0].to_json()


def offered(enc: Encounter, fid: str, name: str, **values: object) -> list[object]:
    s = next(s for s in enc.legal_actions(fid) if s.kind == "strike")
    field = next(p for p in s.params if p.name == name)
    return [c.value for c in field.offered(values)]  # type: ignore[arg-type]


def brute_force_win(attack: int, defence: int) -> Fraction:
    wins = sum(a + b + attack > c + d + defence for a, b, c, d in product(range(1, 7), repeat=4))
    return Fraction(wins, 6**4)


# ---- calculators, by rule id --------------------------------------------------------
def test_kit_2_kit_3_strike_key_orders_stance_then_reach_then_skill() -> None:
    table = {"spear": {"reach": 3}, "sword": {"reach": 2}}
    keys = {
        "pike": strike_key("press", ["spear"], 1, table),
        "blade": strike_key("press", ["sword"], 3, table),
        "novice": strike_key("press", ["sword"], 1, table),
        "ceder": strike_key("cede", ["spear"], 9, table),
    }
    assert sorted(keys, key=keys.__getitem__) == ["pike", "blade", "novice", "ceder"]


def test_kit_4_kit_9_zones_count_every_hex_of_a_body_and_a_shared_hex(
    registered: KitDuel,
) -> None:
    s = duel().state
    ann, cy, bo, horse = (s.figure(f) for f in ("ann", "cy", "bo", "horse"))
    assert weapon_list(" sword, dagger,") == ["sword", "dagger"]
    assert in_zone("close", ann, cy) and not in_zone("adjacent", ann, cy)
    assert in_zone("front", ann, bo) and in_zone("adjacent", ann, bo)
    assert horse.hexes() == (Hex(4, 2), Hex(4, 3))
    assert in_zone("front", horse, bo)
    assert in_zone("adjacent", cy, horse)  # through either of its hexes
    with pytest.raises(ValueError, match="unknown zone 'far'"):
        in_zone("far", ann, bo)


def test_kit_7_damage_never_goes_below_zero() -> None:
    assert (damage_left(8, 3), damage_left(2, 5)) == (5, 0)


# ---- a round end to end through the Encounter API ---------------------------------
def test_kit_1_hidden_stances_are_revealed_together_in_any_order_of_entry() -> None:
    a, b = duel(), duel()
    texts = [act(a, "stance", f, stance=STANCES[f]) for f in ("cy", "ann", "horse")]
    assert texts == [[f"{n} has declared (hidden until everyone has)"] for n in
                     ("Cy Knife", "Ann Blade", "Warhorse")]  # fmt: skip
    assert "Cy" not in str(encounter_view(a)["figures"]).split("kit_stance")[1][:20]
    act(a, "stance", "bo", stance="press")
    stances(b, ["bo", "horse", "ann", "cy"])
    assert [e.to_json() for e in a.state.events[-4:]] == [e.to_json() for e in b.state.events[-4:]]
    assert [e.text for e in a.state.events[-4:]] == [
        "Ann Blade presses", "Cy Knife cedes the initiative", "Bo Pike presses", "Warhorse presses",
    ]  # fmt: skip


def test_kit_2_kit_3_kit_8_a_strike_order_in_two_passes_a_round() -> None:
    enc = duel()
    stances(enc, ["cy", "ann", "horse", "bo"])
    act(enc, "next_step")
    time = encounter_view(enc)["time"]
    assert isinstance(time, dict)
    assert time["label"] == "Round 1 · Pass 1 · Strikes"
    acting = time["acting"]
    assert isinstance(acting, dict)
    assert acting["figures"] == ["bo", "ann", "horse", "cy"]
    assert acting["order_notes"] == [
        "Bo Pike's longer weapon strikes before Ann Blade (KIT-2)",
        "Ann Blade is more skilled than Warhorse (KIT-2)",
        "Cy Knife cedes the initiative (KIT-3)",
    ]
    for fid in ("bo", "ann", "horse", "cy"):
        assert now(enc) == [fid]
        assert enc.legal_actions("cy" if fid != "cy" else "bo") == []
        act(enc, "wait", fid)
    act(enc, "next_step")
    assert enc.ruleset.time.label(enc.state.clock) == "Round 1 · Pass 2 · Strikes"
    act(enc, "next_step")
    assert enc.ruleset.time.label(enc.state.clock) == "Round 2 · Stances"
    assert enc.state.memory["stances"] == {}


def test_kit_4_weapon_special_target_each_depends_on_the_one_before() -> None:
    enc = duel()
    stances(enc, ["cy", "ann", "horse", "bo"])
    act(enc, "next_step")
    act(enc, "wait", "bo")
    assert offered(enc, "ann", "weapon") == ["sword", "dagger"]
    assert offered(enc, "ann", "special", weapon="sword") == ["cut", "lunge"]
    assert offered(enc, "ann", "special", weapon="dagger") == ["stab", "slash"]
    assert offered(enc, "ann", "target", weapon="dagger", special="stab") == ["cy"]
    assert offered(enc, "ann", "target", weapon="dagger", special="slash") == ["bo"]
    params = spec(enc, "ann", "strike")["params"]
    assert isinstance(params, list)
    assert {"value": "stab", "label": "Stab", "detail": "zone: close",
            "when": {"weapon": "dagger"}} in params[1]["choices"]  # fmt: skip
    with pytest.raises(IllegalActionError, match=r"Special: must be one of Stab, Slash "
                       r"with Weapon: Dagger, got 'cut'"):  # fmt: skip
        act(enc, "strike", "ann", weapon="dagger", special="cut", target="bo")
    with pytest.raises(IllegalActionError, match=r"Target: must be one of Cy Knife "
                       r"with Weapon: Dagger, Special: Stab, got 'bo'"):  # fmt: skip
        act(enc, "strike", "ann", weapon="dagger", special="stab", target="bo")


def test_kit_5_kit_7_the_opposed_chain_has_exact_odds_for_every_outcome() -> None:
    enc = duel()
    stances(enc, ["cy", "ann", "horse", "bo"])
    act(enc, "next_step")
    preview = enc.preview(Action("strike", "bo", {"weapon": "spear", "special": "thrust",
                                                  "target": "horse"}))  # fmt: skip
    (chain,) = preview.rollables
    assert isinstance(chain, Chain)
    win = brute_force_win(3 + 1, 3)  # skill 3 + thrust 1 against defence 3
    outcomes = {o.id: o.chance for o in chain.outcomes()}
    assert outcomes["hit.tie"] + outcomes["hit.lose"] == 1 - win
    assert [outcomes[f"damage.{n}"] for n in range(1, 9)] == [win / 8] * 8
    assert sum(outcomes.values()) == 1
    _, blocked = chain.variants
    assert blocked.label == "Warhorse blocks"
    block_win = brute_force_win(4, 3 + 2)
    assert blocked.rollable.outcomes()[-1].chance == block_win / 8
    assert set(preview.highlights["target"]) == {Hex(4, 2), Hex(4, 3)}
    data = preview.to_json()["rollables"][0]  # type: ignore[index]
    assert [s["id"] for s in data["stages"]] == ["hit", "damage"]  # type: ignore[index]
    assert data["dice"] == ["2d6", "2d6", "d8"]  # type: ignore[index]


def test_kit_6_g1_a_block_prompt_holds_everything_until_it_is_answered() -> None:
    enc = duel()
    stances(enc, ["cy", "ann", "horse", "bo"])
    act(enc, "next_step")
    texts = act(enc, "strike", "bo", weapon="spear", special="thrust", target="horse")
    assert texts == ["Bo Pike strikes at Warhorse (thrust with the spear)"]
    prompt = encounter_view(enc)["prompt"]
    assert isinstance(prompt, dict)
    assert prompt["question"] == "Warhorse: block this attack?"
    assert [a["kind"] for a in prompt["answers"]] == ["block", "take"]  # type: ignore[index]
    assert [enc.legal_actions(f) for f in ("ann", "bo", "cy")] == [[], [], []]
    assert enc.legal_actions(None) == []
    # 2d6 + 3 + 1 = 5 + 4 against 2d6 + 3 + 2 (block) = 5 + 5: a tie goes to the defender
    assert act(enc, "block", "horse", faces=[2, 3, 1, 4])[0] == "Bo Pike misses Warhorse"
    assert enc.state.prompt is None and now(enc) == ["ann"]


def test_kit_9_g2_a_shared_hex_and_a_two_hex_body_end_to_end_with_undo_and_replay() -> None:
    enc = duel()
    stances(enc, ["cy", "ann", "horse", "bo"])
    act(enc, "next_step")
    act(enc, "strike", "bo", weapon="spear", special="thrust", target="horse")
    # typed faces: Bo 6+5 +4 = 15 against 1+2 +3 = 6, then a d8 of 7
    assert act(enc, "take", "horse", faces=[6, 5, 1, 2, 7]) == [
        "Bo Pike hits Warhorse for 7 (1 hp left)"
    ]
    act(enc, "strike", "ann", weapon="dagger", special="stab", target="cy")
    assert act(enc, "take", "cy", faces=[6, 6, 1, 1, 4]) == [
        "Ann Blade hits Cy Knife for 4 (4 hp left)"
    ]
    act(enc, "strike", "horse", weapon="hooves", special="trample", target="bo")
    act(enc, "take", "bo", faces=[1, 1, 6, 6])
    act(enc, "strike", "cy", weapon="dagger", special="slash", target="horse")
    assert act(enc, "take", "horse", faces=[6, 6, 1, 1, 3])[-1] == "Warhorse is down"
    assert now(enc) == [] and "horse" not in [f.id for f in enc.state.living()]
    view = encounter_view(enc)
    figures = {f["id"]: f for f in view["figures"]}  # type: ignore[union-attr,index]
    assert figures["horse"]["hexes"] == ["4,2", "4,3"]
    assert figures["ann"]["hexes"] == figures["cy"]["hexes"] == ["3,3"]
    assert "cedes" in figures["cy"]["badges"]  # type: ignore[operator]
    final = [e.to_json() for e in enc.events]
    while enc.can_undo:
        enc.undo()
    while enc.can_redo:
        enc.redo()
    assert [e.to_json() for e in enc.events] == final
    again = loads(dumps(enc))
    assert [e.to_json() for e in again.events] == final
    assert to_document(again) == to_document(enc)


def test_g2_stacking_one_refuses_a_shared_hex() -> None:
    with pytest.raises(HexcombatError, match="3,3"):
        duel(**{"core.stacking": 1})


def test_random_playouts_keep_invariants_and_replay() -> None:
    for seed in range(4):
        enc = duel()
        counter = iter(range(10**6))

        def pick(n: int, _s: int = seed, _c: Iterator[int] = counter) -> int:
            return (next(_c) * 7919 + _s) % n

        assert playout(enc, pick, 40) == []
        assert to_document(loads(dumps(enc))) == to_document(enc)
