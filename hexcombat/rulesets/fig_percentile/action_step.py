"""The action step, order-free (G-19, G-3): hidden choices, one reveal, dodge picks, rolls.

Every figure that can act chooses its action for the step (an attack with its
target, a spell release, a reload, a dodge, or no action), hidden until all
have chosen; the last choice in reveals them together, in setup order. A
figure that chose to dodge is then asked which attack against it it dodges (a
prompt), and each attacker is asked to roll (a prompt each, in setup order).
Every roll uses the positions after movement and the numbers before any
result of the step; all results apply at once, so a figure hit in this step
still makes its chosen attack (with ``fp.round_order = "sequential"`` a figure
taken out loses the rolls it has not made). When the last roll is in, figures
with actions left choose again. Nothing depends on the order in which players
enter their choices.
"""

from __future__ import annotations

from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import AmountResult, ChainResult, CheckResult, RollResult, percent
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, figure_distance
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.moves import sentence
from hexcombat.rulesets.fig_percentile.equipment import find, in_hand, is_ranged
from hexcombat.rulesets.fig_percentile.flow import land_hit
from hexcombat.rulesets.fig_percentile.options import (
    ATTACK_KIND,
    DODGE_SKILL,
    MAX_ACTIONS,
    RELOAD_ROUNDS,
)
from hexcombat.rulesets.fig_percentile.situation import (
    attack_check,
    counted,
    dodge_check,
    dodge_roll,
    dodge_speed,
    hit_roll,
    needs_text,
    settings,
)
from hexcombat.rulesets.fig_percentile.state import FigureBook, RoundBook
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.time import Declarations
from hexcombat.validation import Json

ATTACKS = ("attack", "release_spell")
"""Choices that attack a target and are rolled after the reveal."""

_VERBS = {
    "ranged": ("fires the {item} at {target}", "fire the {item} at {target}"),
    "melee": ("strikes at {target} with the {item}", "strike at {target} with the {item}"),
    "spell": ("casts {item} at {target}", "cast {item} at {target}"),
}


def verb(item: Equipment, target: Figure, infinitive: bool = False) -> str:
    """``fires the Crossbow at Barclay`` (or ``fire ...``): what an attack does, in words."""
    key = "spell" if item.kind == "spell" else ATTACK_KIND(item, "melee")
    return _VERBS[key][infinitive].format(item=item.name, target=target.name)


def _choice_event(state: GameState, figure: Figure, text: str, **data: Json) -> None:
    state.emit(
        Event(
            "choice",
            f"{figure.name} chose to {text}",
            figure.id,
            target if isinstance(target := data.get("target"), str) else None,
            rule="G-19",
            data=data,
        )
    )


def reveal(state: GameState, choices: list[Action], dice: Dice) -> None:
    """G-19: every choice of the step is revealed at once (in setup order) and takes effect:
    actions are spent, dodgers are asked which attack they dodge, attackers are asked to roll."""
    attacks, dodgers = _take_choices(state, choices)
    _ask_dodgers(state, dodgers, attacks)
    _ask_attackers(state, attacks)
    finish_if_done(state)


def _take_choices(
    state: GameState, choices: list[Action]
) -> tuple[list[dict[str, Json]], list[Figure]]:
    """Each revealed choice takes effect: actions spent, choices logged; the attacks made and
    the figures that dodge."""
    attacks: list[dict[str, Json]] = []
    dodgers: list[Figure] = []
    for action in choices:
        figure = state.figure(action.figure)
        book = FigureBook(figure)
        kind = action.kind
        if kind == "hold":
            book.actions_used = MAX_ACTIONS(figure)
            _choice_event(state, figure, "take no action this round", action="hold")
        elif kind == "reload":
            _reload(state, figure)
        elif kind == "dodge":
            book.actions_used += 1
            dodgers.append(figure)
            _choice_event(state, figure, "dodge one attack against it (G-3)", action="dodge")
        elif kind in ATTACKS:
            item = _chosen_item(figure, kind)
            target = state.figure(action.text("target"))
            book.actions_used += 1
            if kind == "release_spell":
                book.spell_ready = None
            _choice_event(state, figure, verb(item, target, True), action=kind, target=target.id)
            attacks.append(
                {
                    "attacker": figure.id,
                    "target": target.id,
                    "item": item.name,
                    "kind": item.kind,
                    "modifier": action.integer("modifier", 0),
                }
            )
        else:
            raise IllegalActionError(f"{kind!r} is not a choice of the action step")
    return attacks, dodgers


def _ask_dodgers(state: GameState, dodgers: list[Figure], attacks: list[dict[str, Json]]) -> None:
    """Each dodger with an attack coming at it is asked which one it dodges."""
    dodging: dict[str, Json] = {}
    for dodger in dodgers:
        against = [a for a in attacks if a["target"] == dodger.id]
        if not against:
            state.emit(
                Event(
                    "dodge",
                    f"{dodger.name} was ready to dodge, but no attack comes at it: "
                    "the action is spent",
                    dodger.id,
                    rule="G-3",
                )
            )
            continue
        dodging[dodger.id] = ""
        state.ask(
            dodger.id,
            f"{dodger.name}: which attack do you dodge?",
            (_pick_spec(state, dodger, against),),
            rule="G-3, G-19",
            context={"roll": "pick"},
            text=f"{dodger.name} picks the attack to dodge (G-3)",
        )
    RoundBook(state).start_dodging(dodging)


def _ask_attackers(state: GameState, attacks: list[dict[str, Json]]) -> None:
    """Each attacker is asked to roll to hit."""
    for attack in attacks:
        attacker = state.figure(str(attack["attacker"]))
        target = state.figure(str(attack["target"]))
        item = find(attacker, str(attack["item"]), str(attack["kind"]))
        state.ask(
            attacker.id,
            f"{attacker.name}: roll to hit {target.name} with the {item.name}",
            (
                ActionSpec(
                    "roll_attack",
                    sentence(verb(item, target, infinitive=True)),  # after the page's "Roll — "
                    attacker.id,
                    (),
                    "D100 at or under skill + speed band"
                    + (" + range band" if is_ranged(item) else "")
                    + " hits; the numbers are those after movement (FP-21, FP-22, G-19).",
                    "FP-21, FP-22, G-19",
                ),
            ),
            rule="FP-21, G-19",
            context=attack,
        )


def _chosen_item(figure: Figure, kind: str) -> Equipment:
    if kind == "release_spell":
        ready = FigureBook(figure).spell_ready
        if ready:
            return find(figure, ready, "spell")
        raise IllegalActionError(f"{figure.name} has no spell ready")
    item = in_hand(figure)
    if item is None:
        raise IllegalActionError(f"{figure.name} has no weapon in hand")
    return item


def _reload(state: GameState, figure: Figure) -> None:
    item = in_hand(figure)
    if item is None:
        raise IllegalActionError(f"{figure.name} has no weapon in hand")
    book = FigureBook(figure)
    rounds = max(1, RELOAD_ROUNDS(item, 1))
    book.reloading = (item.name, rounds)
    book.actions_used = MAX_ACTIONS(figure)
    state.emit(
        Event(
            "reload",
            f"{figure.name} reloads the {item.name}: loaded at the end of round "
            f"{state.clock.counters[0] + rounds - 1}",
            figure.id,
            rule="G-5",
        )
    )


def _pick_spec(state: GameState, dodger: Figure, against: list[dict[str, Json]]) -> ActionSpec:
    choices = []
    for a in against:
        attacker = state.figure(str(a["attacker"]))
        item = find(attacker, str(a["item"]), str(a["kind"]))
        check = attack_check(state, attacker, dodger, item, int_or(a["modifier"], 0))
        choices.append(
            Choice(
                attacker.id,
                f"{attacker.name}'s {item.name}",
                f"{needs_text(check)} to hit ({percent(check.chance())})",
            )
        )
    dodge = dodge_check(state, dodger)
    return ActionSpec(
        "pick_dodge",
        "Dodge this attack",
        dodger.id,
        (FieldSpec("attacker", "Attack to dodge", "figure", choices=tuple(choices)),),
        f"If it hits, you roll to dodge it ({needs_text(dodge)}); success cancels the hit. "
        "The other attacks on you are not dodged (G-3).",
        "G-3, FP-10",
    )


def _context(state: GameState, roll: str) -> dict[str, Any]:
    prompt = state.prompt
    context = prompt.context if prompt is not None else None
    if not isinstance(context, dict) or context.get("roll", "attack") != roll:
        raise IllegalActionError("there is no such roll to make now")
    return context


def pick_dodge(state: GameState, figure: Figure, attacker_id: str) -> None:
    """G-3: the dodger names the attack it dodges (answering its prompt)."""
    _context(state, "pick")
    attacker = state.figure(attacker_id)
    RoundBook(state).pick_dodge(figure.id, attacker.id)
    state.emit(
        Event(
            "dodge_pick",
            f"{figure.name} will dodge {attacker.name}'s attack",
            figure.id,
            attacker.id,
            rule="G-3",
        )
    )
    finish_if_done(state)


def roll_context(state: GameState) -> tuple[Figure, Figure, Equipment, int]:
    """The attacker, target, item and GM modifier of the attack whose roll is asked for."""
    context = _context(state, "attack")
    attacker = state.figure(str(context["attacker"]))
    target = state.figure(str(context["target"]))
    item = find(attacker, str(context["item"]), str(context["kind"]))
    return attacker, target, item, int_or(context.get("modifier"), 0)


def dodged_by(state: GameState, target: Figure, attacker: Figure) -> bool:
    """True when ``target`` picked ``attacker``'s attack to dodge (G-3)."""
    return RoundBook(state).dodges(target.id, attacker.id)


def roll_attack(state: GameState, dice: Dice) -> None:
    """FP-21: the attacker rolls D100 for its revealed attack; a hit its target picked to
    dodge asks the target to roll (G-3), any other hit lands."""
    attacker, target, item, extra = roll_context(state)
    if state.ruleset.is_out(state, target):
        _wasted(state, attacker, target)
        finish_if_done(state)
        return
    check = attack_check(state, attacker, target, item, extra)
    dodging = dodged_by(state, target, attacker)
    # as its preview shows it: with the hit-point option an undodged hit rolls its damage
    rolled = (check if dodging else hit_roll(state, target, item, check)).roll(dice)
    result = rolled.results[0] if isinstance(rolled, ChainResult) else rolled
    assert isinstance(result, CheckResult)
    details = [*check.breakdown(), result.outcome()]
    if item.kind == "weapon" and is_ranged(item) and RELOAD_ROUNDS(item) > 0:
        item.loaded = False
        rounds = RELOAD_ROUNDS(item)
        details.append(
            f"The {item.name} is empty: reloading takes {counted(rounds, 'full round')} (G-5)"
        )
    s = settings(state)
    if result.success and not dodging and s.dodge and DODGE_SKILL(target):
        fast, why = dodge_speed(state, target)
        reason = why if fast else f"{target.name} did not choose to dodge this attack (G-3)"
        details.append(f"No dodge: {reason}")
    outcome = "hit" if result.success else "miss"
    state.emit(
        Event(
            "attack",
            f"{attacker.name} {verb(item, target)}: {needs_text(check)}, rolled "
            f"{result.roll.total}: {outcome}",
            attacker.id,
            target.id,
            rule="FP-21, FP-22, G-1, G-19",
            details=tuple(details),
            rolls=(result.roll.to_json(),),
            data={
                "item": item.name,
                "target_number": check.target,
                "roll": result.roll.total,
                "hit": result.success,
                "distance": figure_distance(attacker, target),
                "modifiers": [m.to_json() for m in check.modifiers],
            },
        )
    )
    if result.success and dodging:
        _ask_to_dodge(state, attacker, target, item)
    elif result.success:
        land_hit(state, attacker, target, item, _damage(rolled))
    finish_if_done(state)


def _wasted(state: GameState, attacker: Figure, target: Figure) -> None:
    """An attack on a target already out of the fight is wasted."""
    state.emit(
        Event(
            "attack",
            f"{attacker.name}'s attack on {target.name} is wasted: {target.name} is out "
            "of the fight (G-19 option: one by one)",
            attacker.id,
            target.id,
            rule="G-19",
        )
    )


def _ask_to_dodge(state: GameState, attacker: Figure, target: Figure, item: Equipment) -> None:
    """A hit the target chose to dodge: the target is asked to roll."""
    dodge = dodge_check(state, target)
    state.ask(
        target.id,
        f"{target.name}: roll to dodge {attacker.name}'s {item.name}",
        (
            ActionSpec(
                "roll_dodge",
                f"Roll to dodge ({needs_text(dodge)})",
                target.id,
                (),
                "D100 at or under the dodge skill cancels the hit (G-3).",
                "G-3, FP-10",
            ),
        ),
        rule="G-3",
        context={
            "roll": "dodge",
            "attacker": attacker.id,
            "item": item.name,
            "kind": item.kind,
        },
    )


def roll_dodge(state: GameState, dice: Dice) -> None:
    """G-3: the dodger rolls against its dodge skill; success cancels the hit."""
    figure, attacker, item = dodge_context(state)
    check = dodge_check(state, figure)
    rolled = dodge_roll(state, figure, item).roll(dice)
    result = rolled.results[0] if isinstance(rolled, ChainResult) else rolled
    assert isinstance(result, CheckResult)
    outcome = "the hit is cancelled" if result.success else "the hit lands"
    state.emit(
        Event(
            "dodge",
            f"{figure.name} dodges {attacker.name}'s {item.name}: {needs_text(check)}, "
            f"rolled {result.roll.total}: {outcome}",
            figure.id,
            attacker.id,
            rule="G-3, FP-10",
            details=(*check.breakdown(), result.outcome()),
            rolls=(result.roll.to_json(),),
            data={
                "target_number": check.target,
                "roll": result.roll.total,
                "dodged": result.success,
            },
        )
    )
    if not result.success:
        land_hit(state, attacker, figure, item, _damage(rolled))
    finish_if_done(state)


def dodge_context(state: GameState) -> tuple[Figure, Figure, Equipment]:
    """The dodger, the attacker and the item of the hit whose dodge roll is asked for."""
    _context(state, "dodge")
    prompt = state.prompt
    assert prompt is not None
    context = prompt.context
    assert isinstance(context, dict)
    attacker = state.figure(str(context["attacker"]))
    item = find(attacker, str(context["item"]), str(context["kind"]))
    return state.figure(prompt.figure), attacker, item


def _damage(rolled: RollResult) -> AmountResult | None:
    """The damage stage of a rolled chain (None: the roll had none)."""
    found = rolled.result("damage") if isinstance(rolled, ChainResult) else None
    return found if isinstance(found, AmountResult) else None


def finish_if_done(state: GameState) -> None:
    """When no roll of the step is left to make, the choices start afresh: figures with
    actions left choose again (hidden, G-19)."""
    current = state.prompt
    if any(p is not current for p in state.prompts):
        return
    RoundBook(state).end_dodging()
    state.declarations = Declarations()
    again = state.ruleset.acting(state).figures
    if again:
        names = ", ".join(state.figure(f).name for f in again)
        state.emit(Event("volley", f"{names} still may act: choose again (G-19)", rule="G-19"))
