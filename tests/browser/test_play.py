"""Play mode in the browser, through the UI alone: select, move, end steps, attack with typed
dice (and the extra die a hit asks for), the log, undo and redo; secret declarations and secret
action choices (rolled after the reveal, a chosen dodge aimed through a prompt); and the
previewed chance equal to the engine's exact value. Each ruleset that is registered plays a
short fight at desktop size (mouse) and at tablet size (taps)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from hexcombat import Action, Encounter, Hex
from hexcombat.rulesets import all_rulesets
from hexcombat.view import sight_view

from .appdriver import (
    choose,
    figure,
    hex_at,
    highlighted,
    import_encounter,
    log_texts,
    next_step,
    open_action,
    press,
    read_stored,
    select,
    set_mode,
    started_app_fixture,
    stored_document,
    touch,
    type_faces,
    wait_toast_gone,
)
from .conftest import App

pytestmark = pytest.mark.browser

RULESETS = {r.id for r in all_rulesets()}


@pytest.fixture(scope="module", params=["desktop", "tablet-landscape"])
def ui(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[App]:
    """The app started once per viewport for this module."""
    yield from started_app_fixture(request, browser, base_url)


# ---- skirmish -------------------------------------------------------------------------------
def skirmish_duel() -> Encounter:
    enc = Encounter.new("skirmish", 10, 8, name="Skirmish duel")
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("ash", "Ash the Warden", "Wardens", Hex(2, 2), 2))
    return enc.with_figure(rs.new_figure("dax", "Dax the Red", "Raiders", Hex(4, 2), 4))


def test_skirmish_fight_move_attack_typed_dice_log_undo_redo(ui: App) -> None:
    """Select, see reach, move with one clear button, attack with typed dice, undo, redo."""
    page = ui.page
    import_encounter(ui, skirmish_duel())
    expect(page.locator("#turn-tracker")).to_contain_text("Round 1")
    select(ui, "ash")
    reach = highlighted(ui, "reach")
    assert "3,2" in reach and "2,2" in reach
    if not touch(ui):  # the mouse shows the way before anything is chosen
        hex_at(ui, "3,1").hover()
        expect(page.locator("#hover-info")).to_have_text("hex D3: Open ground, move 1")
        assert highlighted(ui, "path") == ["3,1", "2,2"]
    press(ui, hex_at(ui, "3,2"))  # choosing a destination moves nothing yet
    expect(figure(ui, "ash")).to_have_attribute("data-at", "2,2")
    assert highlighted(ui, "path") == ["2,2", "3,2"]
    expect(page.locator("#preview")).to_contain_text("Cost: 1")
    wait_toast_gone(ui)
    ui.screenshot("play-skirmish-path")
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    expect(figure(ui, "ash")).to_have_attribute("data-at", "3,2")
    assert log_texts(ui)[-1] == "Ash the Warden moves C4 → D4 (1 MP)"

    next_step(ui, "Finish: Movement")
    expect(page.locator("#turn-tracker")).to_contain_text("Attacks")
    select(ui, "ash")
    press(ui, figure(ui, "dax"))  # tapping the enemy asks: attack it, or select it
    press(ui, '#panel-body [data-choice="dax"] [data-cmd="choose-target"]')
    card = page.locator('#panel-body [data-action="attack"]')
    expect(card).to_have_attribute("data-expanded", "true")
    expect(page.locator("#preview [data-percent]")).to_have_text("60%")
    expect(page.locator("#preview .check")).to_have_attribute("data-chance", "3/5")
    breakdown = page.locator("#preview .check .breakdown")
    expect(breakdown).to_contain_text("+3 Attack (added to the roll)")
    # a hit -> damage chain: every way it can end, with its exact chance, and the damage die later
    expect(page.locator("#preview .check")).to_have_attribute("data-kind", "chain")
    expect(breakdown).to_contain_text("If hit: Damage")
    outcomes = page.locator("#preview .check .outcomes li")
    expect(outcomes).to_have_count(7)  # a miss, or 1-6 damage
    expect(outcomes.first).to_have_text("To hit: miss 40%")
    expect(page.locator('#preview [data-outcome="damage.4"]')).to_have_attribute(
        "data-chance", "1/10"
    )
    expect(page.locator("#preview .later-dice")).to_have_text("If hit: d6")
    assert highlighted(ui, "target") == ["4,2"]
    assert "4,2" in highlighted(ui, "los")
    wait_toast_gone(ui)
    ui.screenshot("play-skirmish-preview")

    type_faces(ui, [15])  # a hit: the damage die is asked for next
    expect(page.locator("#action-error")).to_contain_text("roll one more d")
    expect(page.locator("#preview .dice-row input")).to_have_count(2)
    expect(page.locator("#preview .dice-row label").nth(1)).to_contain_text("d6, if hit")
    expect(page.locator("#preview .later-dice")).to_have_count(0)  # the field is open now
    page.locator("#preview .dice-row input").nth(1).fill("4")
    press(ui, '#preview [data-cmd="use-faces"]')
    hit = "Ash the Warden hits Dax the Red for 4 (6/10 hp left)"
    assert log_texts(ui)[-1] == hit
    expect(page.locator("#panel-body .result")).to_be_in_viewport()  # not left scrolled away
    expect(figure(ui, "dax")).to_have_attribute("aria-label", re.compile("wounded"))
    count = page.locator("#log > li").count()

    expect(page.locator("#panel-body .result")).to_contain_text(hit)
    press(ui, "#undo-button")
    expect(page.locator("#log > li")).to_have_count(count - 1)
    expect(figure(ui, "dax")).not_to_have_attribute("aria-label", re.compile("wounded"))
    expect(page.locator("#toast")).to_have_text(f"Undone: {hit}")
    expect(page.locator("#panel-body")).not_to_contain_text(hit)  # no card for what was undone
    press(ui, "#redo-button")
    expect(page.locator("#log > li")).to_have_count(count)
    assert log_texts(ui)[-1] == hit
    expect(page.locator("#toast")).to_have_text(f"Redone: {hit}")
    expect(page.locator("#panel-body .result")).to_contain_text(hit)

    press(ui, "#log-button")
    entry = page.locator("#log > li").last
    press(ui, entry.locator("summary"))
    expect(entry.locator(".more")).to_contain_text("Rolled d20: 15")
    expect(entry.locator(".more")).to_contain_text("Rolled d6: 4")
    ui.screenshot("play-skirmish-log")
    page.select_option("#log-filter", "dax")  # only what Dax did or suffered
    expect(page.locator("#log > li:not([hidden]) .text")).to_have_text([hit])
    page.select_option("#log-filter", "")
    press(ui, '#log-drawer [data-cmd="log"]')


def test_names_typed_like_markup_stay_text_on_the_play_screen(ui: App) -> None:
    """Encounter, figure and side names that look like markup show as their text: in the
    figure sheet, the log, the attack-or-select choice and the set-up's figure list."""
    page = ui.page
    hostile = "<img src=x onerror=window.pwned=1>"
    enc = Encounter.new("skirmish", 10, 8, name=f"Duel {hostile}")
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("ash", f"Ash {hostile}", f"W {hostile}", Hex(2, 2), 2))
    enc = enc.with_figure(rs.new_figure("dax", f"Dax {hostile}", f"R {hostile}", Hex(4, 2), 4))
    import_encounter(ui, enc)
    select(ui, "ash")
    expect(page.locator("#panel-body h2")).to_contain_text(f"Ash {hostile}")
    press(ui, hex_at(ui, "3,2"))
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    expect(figure(ui, "ash")).to_have_attribute("data-at", "3,2")
    assert log_texts(ui)[-1].startswith(f"Ash {hostile} moves")
    next_step(ui, "Finish: Movement")
    select(ui, "ash")
    press(ui, figure(ui, "dax"))
    expect(page.locator('#panel-body [data-choice="dax"] strong')).to_have_text(
        f"Dax {hostile} (R {hostile})"
    )
    set_mode(ui, "edit")  # the set-up's figure editor, then its list of figures
    expect(page.locator("#panel-body h2")).to_have_text(f"Ash {hostile}")
    press(ui, '#panel-body [data-cmd="deselect"]')
    expect(page.locator("#panel-body .fig-list")).to_contain_text(f"Dax {hostile}R {hostile}")
    assert page.locator('img[src="x"]').count() == 0
    assert page.evaluate("window.pwned") is None
    set_mode(ui, "play")


# Clicks the step's button and, in the same task, before the save's later task can run, hides
# the page as a tab closed or put away does: what was waiting, and the storage then.
CLOSED_RIGHT_AFTER = """() => {
  document.querySelector('#turn-tracker [data-action="next_step"]').click();
  const waiting = document.documentElement.dataset.waiting;
  window.dispatchEvent(new PageTransitionEvent("pagehide"));
  return { waiting, items: Object.fromEntries(Object.entries(localStorage)) };
}"""


def test_an_action_is_saved_when_the_page_is_closed_right_after_it(ui: App) -> None:
    """A change is saved in a later task; a page closed before that task ran (pagehide) writes
    it first: nothing is lost."""
    page = ui.page
    import_encounter(ui, skirmish_duel())
    expect(page.locator("#turn-tracker")).to_contain_text("Movement")
    logged = len(stored_document(ui)["log"])
    step = page.locator('#turn-tracker [data-action="next_step"]')
    expect(step).to_have_attribute("data-rolls", "false")  # performed at once, no card
    seen = page.evaluate(CLOSED_RIGHT_AFTER)
    assert "save" in seen["waiting"].split()  # the save had not run when the page closed
    assert len(read_stored(seen["items"])["log"]) == logged + 1
    expect(page.locator("#turn-tracker")).to_contain_text("Attacks")


def test_hex_details_say_why_not_and_show_a_blocked_line_of_sight(ui: App) -> None:
    """A hex no action takes: the engine's reason, and the sight line red from the blocker."""
    page = ui.page
    enc = skirmish_duel().painted([Hex(4, 1), Hex(5, 1)], "hill")
    expected = sight_view(enc, "ash", Hex(8, 0))
    assert not expected["clear"] and expected["blocking"]
    import_encounter(ui, enc)
    select(ui, "ash")
    press(ui, hex_at(ui, "8,0"))
    card = page.locator("#panel-body .result.info")
    expect(card).to_contain_text("Hex I5: Open ground")
    expect(card.locator(".problem")).to_have_text("Move: I5 is out of reach now.")
    expect(card.locator(".sight")).to_have_attribute("data-clear", "false")
    assert highlighted(ui, "focus") == ["8,0"]
    assert sorted(highlighted(ui, "blocked")) == sorted(expected["blocking"])
    expect(page.locator("#layer-lines .los.blocked")).to_have_count(1)
    expect(figure(ui, "ash")).to_have_attribute("data-at", "2,2")
    wait_toast_gone(ui)
    ui.screenshot("play-blocked-sight")

    token = figure(ui, "dax").bounding_box()  # a long press shows details, selects nothing
    assert token
    x, y = token["x"] + token["width"] / 2, token["y"] + token["height"] / 2
    if touch(ui):
        cdp = page.context.new_cdp_session(page)
        point = [{"x": x, "y": y, "id": 0}]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
        page.wait_for_timeout(800)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        page.mouse.move(x, y)
        page.mouse.down()
        page.wait_for_timeout(800)
        page.mouse.up()
    expect(card).to_contain_text("Dax the Red (Raiders) stands here: Hit points 10/10")
    expect(figure(ui, "ash")).to_have_class(re.compile(r"\bselected\b"))


def test_previewed_chance_is_the_engines_exact_value(ui: App) -> None:
    """The percentage and fraction shown are those of the engine's preview, from the rear too."""
    enc = skirmish_duel()
    enc.perform(Action("move", "ash", {"to": "3,2"}))
    enc.perform(Action("face", "dax", {"facing": 2}))  # ash is now behind dax
    enc.perform(Action("next_step"))
    expected = enc.preview(Action("attack", "ash", {"target": "dax"})).to_json()["rollables"][0]
    import_encounter(ui, enc)
    select(ui, "ash")
    open_action(ui, "attack")
    page = ui.page
    expect(page.locator("#preview [data-percent]")).to_have_text(expected["headline"]["percent"])
    expect(page.locator("#preview .check")).to_have_attribute(
        "data-chance", expected["headline"]["chance"]
    )
    shown = page.locator("#preview .check .breakdown li").all_text_contents()
    assert shown == expected["breakdown"]
    # a stacked card: the chance above the breakdown, both as wide as the card, inside the panel
    card = page.locator("#preview .check").bounding_box()
    chance = page.locator("#preview .check .chance").bounding_box()
    lines = page.locator("#preview .check .breakdown").bounding_box()
    panel = page.locator("#panel-body").bounding_box()
    assert card and chance and lines and panel
    assert lines["y"] >= chance["y"] + chance["height"] - 1
    assert lines["width"] >= 0.8 * card["width"]
    assert card["x"] + card["width"] <= panel["x"] + panel["width"] + 1
    type_faces(ui, [25])  # no d20 shows 25: the engine says so and nothing happens
    expect(page.locator("#action-error")).to_contain_text("but a d20 shows 1-20")
    expect(page.locator("#log > li")).to_have_count(len(enc.events))
    press(ui, '[data-commit-bar] [data-cmd="roll"]')  # the encounter's seeded dice
    assert log_texts(ui)[-1].startswith("Ash the Warden ")


# ---- fig-percentile ---------------------------------------------------------------------------
def percentile_duel() -> Encounter:
    enc = Encounter.new("fig-percentile", 10, 8, name="Percentile duel")
    rs = enc.ruleset
    alice = rs.new_figure("alice", "Alice", "Blue", Hex(2, 3), 2)
    alice.skills = {"Sword": 60, "Bow": 50}
    alice.equipment = [rs.item("Sword", state="ready"), rs.item("Short bow")]  # type: ignore[attr-defined]
    bob = rs.new_figure("bob", "Bob", "Red", Hex(5, 2), 5)
    bob.skills = {"Sword": 50}
    bob.equipment = [rs.item("Sword", state="ready")]  # type: ignore[attr-defined]
    return enc.with_figure(alice).with_figure(bob)


def declare_walk(ui: App, fid: str) -> None:
    page = ui.page
    select(ui, fid)
    open_action(ui, "declare")
    mode = page.locator('#action-form [data-field="mode"] select')
    expect(mode).to_have_value("")  # nothing chosen yet: nobody sees another's choice
    labels = mode.locator("option").all_text_contents()
    mode.select_option(str(next(i for i, t in enumerate(labels) if t.startswith("Walk")) - 1))
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    expect(page.locator("#panel-body .declared")).to_have_text(
        "Chosen in this step (Declarations): the choice stays hidden until everyone has chosen."
    )


def answer_prompt(ui: App, question: str, kind: str) -> None:
    """The prompt card asks ``question``; its answer ``kind`` opens for the prompted figure."""
    card = ui.page.locator("#panel-body [data-prompt]")
    expect(card).to_contain_text(question)
    expect(ui.page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(0)
    press(ui, card.locator(f'[data-answer="{kind}"]'))
    expect(ui.page.locator(f'#panel-body [data-action="{kind}"]')).to_have_attribute(
        "data-expanded", "true"
    )


def choose_hidden(
    ui: App, fid: str, kind: str, target: str | None = None, last: bool = False
) -> None:
    """In a hidden step: ``fid`` makes its choice; nothing is rolled and, until the ``last``
    choice is in, nothing is shown."""
    page = ui.page
    select(ui, fid)
    if target is not None:
        press(ui, figure(ui, target))  # tapping the enemy asks: attack it, or select it
        press(ui, f'#panel-body [data-choice="{target}"] [data-kind="{kind}"]')
    else:
        open_action(ui, kind)
    expect(page.locator(f'#panel-body [data-action="{kind}"]')).to_have_attribute(
        "data-expanded", "true"
    )
    commit_hidden(ui, fid, kind, last)


def commit_hidden(ui: App, fid: str, kind: str, last: bool = False) -> None:
    """Commit the open hidden choice: the panel says it is done and keeps it secret; the last
    choice in reveals them all (the result card lists them)."""
    page = ui.page
    press(ui, f'[data-commit-bar] [data-cmd="commit"][data-commit="{kind}"]')
    if last:
        expect(page.locator("#panel-body .result[role=status]")).to_contain_text(" chose to ")
        return
    step = page.locator("#turn-tracker .step-name").inner_text().split(" · ")[0]
    expect(page.locator("#panel-body .declared")).to_have_text(
        f"Chosen in this step ({step}): the choice stays hidden until everyone has chosen."
    )
    name = page.locator(f'#turn-tracker [data-pick="{fid}"]').get_attribute("title") or ""
    assert name.endswith(": waiting")


def to_actions(enc: Encounter) -> Encounter:
    """Both walk a hex toward each other (adjacent after movement); the action step is next."""
    for fid in ("alice", "bob"):
        enc.perform(Action("declare", fid, {"mode": "walk"}))
    enc.perform(Action("next_step"))
    for fid, to in (("alice", "3,3"), ("bob", "4,3")):
        enc.perform(Action("plan_move", fid, {"to": to}))
    enc.perform(Action("next_step"))
    enc.perform(Action("next_step"))
    return enc


@pytest.mark.skipif("fig-percentile" not in RULESETS, reason="fig-percentile is not registered")
def test_fig_percentile_round_declare_move_attack(ui: App) -> None:
    """Secret declarations, planned moves, then secret action choices (G-19): the attack shows
    its exact chance when chosen, rolls nothing until both have chosen, then the page asks the
    attacker by name to roll."""
    page = ui.page
    import_encounter(ui, percentile_duel())
    expect(page.locator("#turn-tracker")).to_contain_text("Declarations")
    declare_walk(ui, "alice")
    assert log_texts(ui)[-1] == "Alice has declared (hidden until everyone has)"
    declare_walk(ui, "bob")
    next_step(ui, "Finish: Declarations")
    assert "Alice walks (up to 1 hex)" in log_texts(ui)

    for fid, to in (("alice", "3,3"), ("bob", "4,3")):
        select(ui, fid)
        press(ui, hex_at(ui, to))
        press(ui, '[data-commit-bar] [data-cmd="commit"]')
        expect(page.locator("#panel-body .declared")).to_contain_text(
            "Done in this step (Movement)"
        )
    next_step(ui, "Finish: Movement")
    expect(figure(ui, "alice")).to_have_attribute("data-at", "3,3")
    expect(figure(ui, "bob")).to_have_attribute("data-at", "4,3")
    next_step(ui, "Finish")
    expect(page.locator("#turn-tracker .step-name")).to_have_text("Actions · secret")
    expect(page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(0)

    select(ui, "alice")
    press(ui, figure(ui, "bob"))
    press(ui, '#panel-body [data-choice="bob"] [data-cmd="choose-target"][data-kind="attack"]')
    expect(page.locator('#panel-body [data-action="attack"]')).to_have_attribute(
        "data-expanded", "true"
    )
    expect(page.locator("#preview [data-percent]").first).to_have_text("55%")
    expect(page.locator("#preview")).to_contain_text("FP-6, FP-7")
    expect(page.locator("#preview .hidden-choice")).to_contain_text("stays hidden")
    expect(page.locator("#preview .dice-row")).to_have_count(0)  # nothing is rolled yet
    wait_toast_gone(ui)
    ui.screenshot("play-percentile-hidden-attack")
    commit_hidden(ui, "alice", "attack")
    assert log_texts(ui)[-1] == "Alice has declared (hidden until everyone has)"
    choose_hidden(ui, "bob", "hold", last=True)
    answer_prompt(ui, "Alice: roll to hit Bob with the Sword", "roll_attack")
    expect(figure(ui, "alice")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#preview [data-percent]").first).to_have_text("55%")
    type_faces(ui, [30])
    strike = [
        "Alice strikes at Bob with the Sword: needs 55 or lower, rolled 30: hit",
        "Bob is hit by Alice's Sword (hits taken: 1)",
    ]
    assert log_texts(ui)[-2:] == strike
    assert "Alice chose to strike at Bob with the Sword" in log_texts(ui)
    expect(page.locator("#panel-body .result")).to_contain_text(strike[0])
    expect(figure(ui, "bob")).to_have_attribute("aria-label", re.compile(r"\bhit\b"))
    press(ui, "#undo-button")
    expect(page.locator("#panel-body [data-prompt]")).to_contain_text("roll to hit Bob")
    press(ui, "#redo-button")
    assert log_texts(ui)[-2:] == strike


@pytest.mark.skipif("fig-percentile" not in RULESETS, reason="fig-percentile is not registered")
def test_a_chosen_dodge_is_aimed_at_an_attack_when_the_choices_are_revealed(ui: App) -> None:
    """G-3, G-19: Bob chooses to dodge (hidden), and when the attacks are revealed the page
    asks Bob by name which one he dodges, then Alice to roll, then Bob to roll his dodge."""
    enc = percentile_duel()
    bob = enc.setup_figure("bob")
    bob.stats["dodge_skill"] = 40
    enc = to_actions(enc.with_figure(bob))
    page = ui.page
    import_encounter(ui, enc)
    choose_hidden(ui, "bob", "dodge")
    choose_hidden(ui, "alice", "attack", target="bob", last=True)
    log = log_texts(ui)
    assert log.index("Alice chose to strike at Bob with the Sword") + 1 == log.index(
        "Bob chose to dodge one attack against it (G-3)"
    )  # revealed together, in setup order, though Bob chose first
    answer_prompt(ui, "Bob: which attack do you dodge?", "pick_dodge")
    expect(figure(ui, "bob")).to_have_class(re.compile(r"\bselected\b"))
    choose(ui, "attacker", "Alice's Sword")
    expect(page.locator("#preview .notes")).to_contain_text("needs 40 or lower (40%)")
    wait_toast_gone(ui)
    ui.screenshot("play-percentile-dodge-pick")
    press(ui, '[data-commit-bar] [data-cmd="commit"]')
    assert "Bob will dodge Alice's attack" in log_texts(ui)
    answer_prompt(ui, "Alice: roll to hit Bob with the Sword", "roll_attack")
    type_faces(ui, [30])
    answer_prompt(ui, "Bob: roll to dodge Alice's Sword", "roll_dodge")
    type_faces(ui, [25])
    assert log_texts(ui)[-1] == (
        "Bob dodges Alice's Sword: needs 40 or lower, rolled 25: the hit is cancelled"
    )
    expect(page.locator("#panel-body [data-prompt]")).to_have_count(0)
    expect(page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(1)
