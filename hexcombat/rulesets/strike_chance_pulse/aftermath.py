"""After the fight: the end of combat with its infection checks, then each next morning.

SCP-53: the Infection Check comes "at the end of every combat", so it is offered only
once the fight is over: decided (one side left standing) or ended by the GM. SCP-56:
"every morning after becoming infected", so a morning comes only after that end, and
each one is its own action (one cure roll or one day's damage per figure). SCP-57: from
then on an outside cure (a Healer, a Hospitaler, an alchemist's potion, or a spell that
says it cures) ends an infection or a poison; nothing else does, a heal of Endurance
included.
"""

from __future__ import annotations

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import (
    Amount,
    AmountResult,
    Chain,
    ChainResult,
    Check,
    CheckResult,
    Rollable,
    Stage,
)
from hexcombat.dice import Dice
from hexcombat.events import Event
from hexcombat.figures import Figure, Status
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.fields import EN
from hexcombat.rulesets.strike_chance_pulse.resolve_damage import hurt_endurance
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook, RoundBook
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState

GM_END = "gm_end_fight"
AILMENTS = {"infected": "infection", "poisoned": "poison"}
"""The statuses an outside cure ends (SCP-57, SCP-58), by the word a player reads."""
CURERS = (
    Choice("healer", "a Healer"),
    Choice("hospitaler", "a Hospitaler"),
    Choice("potion", "an alchemist's potion"),
    Choice("spell", "a healing spell that says it cures it"),
)
"""Where an outside cure comes from (SCP-57: a healing spell only when it says so)."""


def ended_by_gm(state: GameState) -> bool:
    """The GM has ended the fight."""
    return RoundBook(state).fight_ended_by_gm


def combat_over(state: GameState) -> bool:
    """The end of combat has been taken (its infection checks rolled)."""
    return RoundBook(state).combat_over


def gm_end_spec() -> ActionSpec:
    """The GM's tool that ends an undecided fight (SCP-53: 'the end of every combat')."""
    return ActionSpec(
        GM_END,
        "GM: end the fight",
        None,
        (),
        "The fight stops here (a truce, a flight, a rout): no figure acts any more, and the "
        "end of combat with its infection checks comes next (SCP-53).",
        "SCP-53",
    )


def table_specs(state: GameState, fight_over: bool) -> list[ActionSpec]:
    """SCP-53...SCP-57: the end of combat once the fight is over, then each morning and the
    outside cures."""
    if not fight_over:
        return []
    if not combat_over(state):
        return [
            ActionSpec(
                "end_combat",
                "End of combat: infection checks",
                None,
                (),
                "Every wounded figure rolls D100 against its infection chance (SCP-53...SCP-55).",
                "SCP-53, SCP-54, SCP-55",
                tied_to="fight_over",
            )
        ]
    if not ailing(state):
        return []
    day = RoundBook(state).mornings + 1
    return [
        ActionSpec(
            "morning",
            f"Morning {day}: infection and poison",
            None,
            (),
            "Infected figures roll to be cured (D100 at or under original EN) or take "
            "D10 - 5 (at least 1); slow poison always hurts (SCP-56, SCP-58).",
            "SCP-56, SCP-58",
            tied_to="fight_over",
        ),
        cure_spec(state),
    ]


def cure_spec(state: GameState) -> ActionSpec:
    """SCP-57: an outside cure of one figure's infection or poison, given by whom the GM says."""
    sick = ailing(state)
    figures = tuple(Choice(f.id, f.name) for f in sick)
    ailments = tuple(
        Choice(status, f"the {word}", when={"figure": f.id})
        for f in sick
        for status, word in AILMENTS.items()
        if f.has_status(status)
    )
    return ActionSpec(
        "outside_cure",
        "Outside cure",
        None,
        (
            FieldSpec("figure", "Figure", "figure", choices=figures),
            FieldSpec("ailment", "Cures", "choice", choices=ailments),
            FieldSpec("by", "Given by", "choice", CURERS[0].value, choices=CURERS),
        ),
        "A Healer, a Hospitaler, an alchemist's potion or a spell that says so ends a figure's "
        "infection or poison; no roll (SCP-57). A heal of Endurance alone cures neither.",
        "SCP-57",
        tied_to="fight_over",
    )


def cure_refusal(state: GameState, action: Action) -> str:
    """Why an outside cure is refused, in words ('' when the figure is not known)."""
    figure = state.figures.get(str(action.params.get("figure")))
    if figure is None:
        return ""
    if figure not in ailing(state):
        return f"{figure.name} has no infection or poison to cure (SCP-57)"
    has = {status: word for status, word in AILMENTS.items() if figure.has_status(status)}
    if action.params.get("ailment") not in has:
        return f"{figure.name} has only the {' and the '.join(has.values())} to cure (SCP-57)"
    return ""


def outside_cure(state: GameState, action: Action) -> None:
    """SCP-57: the chosen ailment ends, with no roll."""
    figure = state.figure(action.text("figure"))
    status = action.text("ailment")
    by = action.text("by")
    given = next(c.label for c in CURERS if c.value == by)
    del figure.statuses[status]
    state.emit(
        Event(
            "infection",
            f"{figure.name} is cured of the {AILMENTS[status]} by {given}",
            figure.id,
            rule="SCP-57",
            data={"cured": status, "by": by},
        )
    )


def end_fight(state: GameState) -> None:
    """The GM ends the fight (:func:`gm_end_spec`)."""
    RoundBook(state).end_fight_by_gm()
    state.emit(Event("fight_end", "The GM ends the fight", rule="SCP-53"))


# ---- infection --------------------------------------------------------------------------
def wounded_unchecked(state: GameState) -> list[Figure]:
    """SCP-53: living figures wounded in this combat and not yet checked."""
    return [
        f
        for f in state.figures.values()
        if FigureBook(f).wounded
        and not f.has_status("dead")
        and not FigureBook(f).infection_checked
    ]


def ailing(state: GameState) -> list[Figure]:
    """Figures with an infection or a slow poison (SCP-56, SCP-58)."""
    return [
        f
        for f in state.figures.values()
        if not f.has_status("dead") and (f.has_status("infected") or f.has_status("poisoned"))
    ]


def infection_check(figure: Figure) -> Check:
    """SCP-54, SCP-55, A-27: D100 at or under the infection chance infects."""
    en = FigureBook(figure).en_damage
    bite = FigureBook(figure).bitten
    return Check(
        f"{figure.name}: infection",
        "d100",
        "le",
        rules.infection_chance(en, bite),
        f"10 + (20 + EN damage {en} if any) + (20 for a bite, claw or talon: "
        f"{'yes' if bite else 'no'}) (SCP-54)",
        rule="SCP-54, SCP-55, A-27",
        success_text="infected",
        success_phrase="to be infected",
        failure_text="not infected",
    )


def morning_rollables(figure: Figure) -> tuple[Rollable, ...]:
    """SCP-56, SCP-58: an infected figure's cure roll (D100 at or under its original EN),
    then on a failure D10 - 5 (at least 1) damage; a poisoned one takes the poison's damage,
    with no cure roll. A figure both infected and poisoned rolls both, the infection first."""
    found: list[Rollable] = []
    if figure.has_status("infected"):
        found.append(_infection_morning(figure))
    if figure.has_status("poisoned"):
        found.append(
            Amount(
                f"{figure.name}: the poison's damage", "d10-5 min 1", rule="SCP-58", unit="damage"
            )
        )
    return tuple(found)


def _infection_morning(figure: Figure) -> Rollable:
    """SCP-56: the cure roll, then on a failure the infection's D10 - 5 (at least 1)."""
    damage = Amount(f"{figure.name}: a day's damage", "d10-5 min 1", rule="SCP-56", unit="damage")
    original = EN(figure)
    cure = Check(
        f"{figure.name}: cure",
        "d100",
        "le",
        original,
        "original EN (SCP-56, I-7)",
        rule="SCP-56",
        success_text="cured",
        success_phrase="to be cured",
        failure_text="not cured",
    )
    return Chain(
        f"{figure.name}'s morning", (Stage("cure", cure), Stage("damage", damage, ("failure",)))
    )


def rollables(state: GameState, kind: str) -> tuple[Rollable, ...]:
    """What the end of combat or a morning will roll, figure by figure (the preview)."""
    if kind == "end_combat":
        return tuple(infection_check(f) for f in wounded_unchecked(state))
    return tuple(r for f in ailing(state) for r in morning_rollables(f))


def infection_checks(state: GameState, dice: Dice) -> None:
    """SCP-53...SCP-55: the combat is over; for each wounded figure a D100 at or under its
    infection chance infects."""
    RoundBook(state).end_combat()
    wounded = wounded_unchecked(state)
    if not wounded:
        state.emit(Event("infection", "End of combat: no living figure was wounded", rule="SCP-53"))
    for f in wounded:
        check = infection_check(f)
        result = check.roll(dice)
        FigureBook(f).check_infection()
        if result.success:
            f.statuses["infected"] = Status("infected")
        state.emit(
            Event(
                "infection",
                f"{f.name}: infection chance {check.target}, rolled {result.roll.total}: "
                f"{check.success_text if result.success else check.failure_text}",
                f.id,
                rule="SCP-53, SCP-54, SCP-55, A-27",
                details=(f"{check.base_label} = {check.target}",),
                rolls=(result.roll.to_json(),),
                data={
                    "chance": check.target,
                    "roll": result.roll.total,
                    "infected": result.success,
                },
            )
        )


def morning(state: GameState, dice: Dice) -> None:
    """SCP-56, SCP-58: a cure roll (not for poison), else D10 - 5 (at least 1) damage."""
    book = RoundBook(state)
    day = book.mornings + 1
    book.mornings = day
    state.emit(Event("morning", f"Morning {day} after the combat", rule="SCP-56"))
    for f in ailing(state):
        for rollable in morning_rollables(f):
            result = rollable.roll(dice)
            damage = result.result("damage") if isinstance(result, ChainResult) else result
            cure = result.result("cure") if isinstance(result, ChainResult) else None
            if isinstance(cure, CheckResult) and cure.success:
                f.statuses.pop("infected", None)
                state.emit(
                    Event(
                        "infection",
                        f"{f.name} is cured ({cure.roll.total} ≤ original EN {cure.check.target})",
                        f.id,
                        rule="SCP-56",
                        rolls=(cure.roll.to_json(),),
                    )
                )
            if isinstance(damage, AmountResult):
                hurt_endurance(state, f, damage.total, "SCP-58" if cure is None else "SCP-56")
