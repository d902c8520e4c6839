"""The play panel's markup, under CPython (its modules need no page): the turn tracker, the
action cards with their chance badges and parameter defaults, a preview's rollables and dice
fields, a figure's and a hex's details, a prompt and a result, all from the engine's views."""

from __future__ import annotations

from hexcombat import Action, Encounter, Hex
from hexcombat.schema import FieldSpec
from hexcombat.view import actions_view, encounter_view, ruleset_view
from web.play import cards, figure_sheet, rollables, table
from web.ui.html import Markup


def duel() -> Encounter:
    enc = Encounter.new("skirmish", 8, 6, name="Markup")
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("ash", "Ash", "Wardens", Hex(2, 2), 1))
    enc = enc.with_figure(rs.new_figure("dax", "Dax", "Raiders", Hex(3, 2), 4))
    enc.perform(Action("next_step"))  # to the step where Ash may attack Dax
    return enc


def test_the_tracker_shows_the_step_each_figure_and_next_only_while_playing() -> None:
    view = encounter_view(duel())
    html = table.tracker_html(view, playing=True, acts=lambda fid: fid == "ash", selected="dax")
    assert f'<span class="step-name">{view["time"]["step"]["label"]}' in html
    assert 'data-pick="ash"' in html and "Ash: to act" in html
    assert 'class="waiting current"' in html and "Dax: waiting" in html  # selected, not acting
    assert 'data-cmd="next-step"' in html and 'data-rolls="false"' in html
    rolling = table.tracker_html(
        view, playing=True, acts=lambda fid: True, selected=None, next_rolls=lambda: True
    )
    assert 'data-rolls="true"' in rolling  # ending the step rolls: the button opens its card
    setting_up = table.tracker_html(view, playing=False, acts=lambda fid: True, selected=None)
    assert "data-pick" not in setting_up and "next-step" not in setting_up


def test_the_attack_card_fills_its_single_choices_and_shows_its_chance() -> None:
    enc = duel()
    specs = actions_view(enc, "ash")
    attack = next(s for s in specs if s["kind"] == "attack")
    assert cards.defaults(attack, {}) == {"target": "dax"}  # the only target, chosen already
    assert cards.defaults(attack, {"target": "nobody"}) == {"target": "dax"}  # not offered
    badge = cards.chance_badge(enc, attack, {})
    assert badge.startswith('<span class="chance-badge">') and badge.endswith("%</span>")
    html = cards.cards_html(specs, "attack", {"target": "dax"}, enc)
    assert 'data-action="attack" data-expanded="true"' in html and 'id="preview"' in html
    assert html.count('data-expanded="true"') == 1


def test_a_cards_fields_are_the_engines_own_for_the_state_else_read_from_its_json() -> None:
    enc = duel()
    view = encounter_view(enc)
    specs = [*actions_view(enc, "ash"), *view["table_actions"], *view["gm_actions"]]
    for spec in specs:
        read = [FieldSpec.from_json(p) for p in spec["params"]]
        assert list(cards.offered_fields(enc, spec)) == read, spec["kind"]
    attack = next(s for s in specs if s["kind"] == "attack")
    offered = next(a for a in enc.legal_actions("ash") if a.kind == "attack")
    assert cards.offered_fields(enc, attack) is offered.params  # not read again
    gone = {**attack, "kind": "no-such-action"}
    assert cards.offered_fields(enc, gone) == [FieldSpec.from_json(p) for p in attack["params"]]


def test_a_preview_shows_every_outcome_with_its_exact_chance_and_the_dice_to_type() -> None:
    enc = duel()
    pv = enc.preview(Action("attack", "ash", {"target": "dax"})).to_json()
    (check,) = pv["rollables"][:1]
    html = rollables.rollable_html(check)
    for outcome in check["outcomes"]:
        assert f'data-outcome="{outcome["id"]}" data-chance="{outcome["chance"]}"' in html
    assert f'data-chance="{check["headline"]["chance"]}"' in html
    face = check["faces"][0]
    assert rollables.die_name(face).endswith(face["dice"])
    field = rollables.face_input(1, 6, "d6", 4)
    assert 'max="6"' in field and 'value="4"' in field and "Die 1 (d6, 1-6)" in field
    assert 'max="' not in rollables.face_input(2, 0, "next die", None)


def test_a_figure_sheet_and_a_hex_card_tell_what_the_view_says() -> None:
    enc = duel()
    view = encounter_view(enc)
    ash = next(f for f in view["figures"] if f["id"] == "ash")
    fields = ruleset_view(enc.ruleset)["figure_fields"]
    html = figure_sheet.figure_html(ash, fields, "<i>suggest</i>", "<i>cards</i>")
    assert '<h2 class="grow">Ash' in html and "<i>suggest</i><h3>Actions</h3><i>cards</i>" in html
    for pool in (ash.get("pools") or {}).values():
        assert f"<strong>{pool['current']}/{pool['maximum']}</strong>" in html
    assert figure_sheet.idle_html(view, None) == ""
    terrain = ruleset_view(enc.ruleset)["terrain"][0]
    sight = {"clear": False, "reason": "a wall", "distance": 3}
    card = figure_sheet.hex_info_html("C3", terrain, ash, "Move: out of reach", sight, "Dax")
    assert f"Hex C3: {terrain['name']}" in card and "<strong>Ash</strong> (Wardens)" in card
    assert 'role="alert">Move: out of reach' in card
    assert "Line of sight from Dax: blocked (a wall), 3 hexes away." in card


def test_a_result_shows_unless_only_the_clock_moved_and_a_prompt_names_its_figure() -> None:
    clock = {"kind": "clock", "text": "Round 2"}
    hit = {"kind": "attack", "text": "Ash hits Dax"}
    assert not table.worth_showing([clock]) and table.worth_showing([clock, hit])
    html = table.result_html([hit, clock])
    assert html.index("Ash hits Dax") < html.index('<li class="muted">Round 2</li>')
    prompt = {
        "id": "p1",
        "question": "Parry?",
        "figure_name": "Dax",
        "rule": "R-1",
        "answers": [{"kind": "parry", "label": "Parry"}, {"kind": "take", "label": "Take it"}],
    }
    asked = table.prompt_html(prompt)
    assert 'data-prompt="p1"' in asked and "Only Dax can act" in asked
    assert asked.count('data-cmd="answer"') == 2


HOSTILE = "<img src=x onerror=alert(1)>"
"""A name a player might type: markup if it ever reached the page unescaped."""
SHOWN = "&lt;img src=x onerror=alert(1)&gt;"


def hostile_duel() -> Encounter:
    """The duel with every name a player types (figures, sides, the encounter) hostile."""
    enc = Encounter.new("skirmish", 8, 6, name=HOSTILE)
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("ash", f"Ash {HOSTILE}", f"W {HOSTILE}", Hex(2, 2), 1))
    enc = enc.with_figure(rs.new_figure("dax", f"Dax {HOSTILE}", f"R {HOSTILE}", Hex(3, 2), 4))
    enc.perform(Action("next_step"))
    return enc


def test_names_a_player_typed_stay_text_in_every_play_card() -> None:
    enc = hostile_duel()
    attack = next(s for s in actions_view(enc, "ash") if s["kind"] == "attack")
    events = [e.to_json() for e in enc.perform(Action("attack", "ash", {"target": "dax"}))]
    view = encounter_view(enc)
    ash, dax = (next(f for f in view["figures"] if f["id"] == i) for i in ("ash", "dax"))
    fields = ruleset_view(enc.ruleset)["figure_fields"]
    terrain = ruleset_view(enc.ruleset)["terrain"][0]
    sight = {"clear": True, "reason": "", "distance": 1}
    prompt = {"id": "p", "question": f"{ash['name']}: parry?", "figure_name": ash["name"],
              "answers": [{"kind": "parry", "label": "Parry"}]}  # fmt: skip
    shown = {
        "tracker": table.tracker_html(view, playing=True, acts=lambda _: True, selected="ash"),
        "turn line": table.turn_line_html(view),
        "to act": table.to_act_html([ash, dax]),
        "target": table.target_line(attack, {"target": "dax"}, view),
        "choice": table.choice_html(dax, [(attack, "target")]),
        "prompt": table.prompt_html(prompt),
        "result": table.result_html(events),
        "refused": table.refused_bar("Attack", f"{dax['name']} is out of reach"),
        "problem": table.with_problem(table.commit_bar("", Markup("")), f"{dax['name']} left"),
        "sheet": figure_sheet.figure_html(ash, fields, "", ""),
        "hex": figure_sheet.hex_info_html("C3", terrain, dax, "", sight, ash["name"]),
    }
    for where, html in shown.items():
        assert "<img" not in html, where
        assert SHOWN in html, where
    assert f'title="Ash {SHOWN}: to act"' in shown["tracker"]  # as an attribute value too


def test_a_figures_name_in_a_typed_dice_field_stays_text() -> None:
    face = {"who": f"Ash {HOSTILE}", "dice": "3d10kh2", "when": ""}
    field = rollables.face_input(1, 10, rollables.die_name(face), None)
    assert "<img" not in field and f"Die 1 (Ash {SHOWN}'s 3d10kh2, 1-10)" in field
    assert f'aria-label="Die 1, Ash {SHOWN}\'s 3d10kh2, 1-10"' in field
