"""What a figure may do now, described for forms: the actions of each step and their choices.

Every :class:`~hexcombat.actions.ActionSpec` lists only legal values (reachable
hexes with their cost, targets in range and sight with the roll they need), so
the engine can refuse anything else before a handler runs.
"""

from __future__ import annotations

from fractions import Fraction

from hexcombat.actions import ActionSpec
from hexcombat.checks import percent
from hexcombat.figures import Equipment, Figure, figure_distance
from hexcombat.movement import Reach
from hexcombat.rulesets.common.moves import destinations
from hexcombat.rulesets.fig_percentile.equipment import in_hand, is_ranged, spells, weapons
from hexcombat.rulesets.fig_percentile.moves import FACING_NAMES
from hexcombat.rulesets.fig_percentile.options import (
    CAST_ROUNDS,
    FIG,
    MAX_RANGE_YARDS,
    RELOAD_ROUNDS,
)
from hexcombat.rulesets.fig_percentile.situation import (
    actions_left,
    attack_check,
    attack_item,
    counted,
    dodge_check,
    may_dodge,
    mode_of,
    needs_text,
    settings,
    stopped,
    target_problem,
    turns_freely,
)
from hexcombat.rulesets.fig_percentile.speed import (
    MODE_SHOWN,
    RUNNING,
    accel_speed,
    show,
    top_speed,
)
from hexcombat.rulesets.fig_percentile.state import FigureBook
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState

FACINGS = tuple(Choice(i, name) for i, name in enumerate(FACING_NAMES))
"""The six facings as choices."""

MODIFIER_LIMIT = 50
"""The largest situational modifier a GM may add to one roll (G-7)."""


def declare_spec(state: GameState, figure: Figure) -> ActionSpec:
    """Start of round (G-19): the move modes open to the figure and the weapons it may draw."""
    s = settings(state)
    fig = FIG(figure)
    top, acc = top_speed(fig, s.rounding), accel_speed(fig, s.rounding)
    if FigureBook(figure).running:
        modes = [
            Choice(
                "top",
                f"Keep running at top speed: {counted(top, 'hex', 'hexes')}, speed {fig} (FP-3)",
            )
        ]
    else:
        modes = [
            Choice("stationary", "Stay where you are (speed 0)"),
            Choice("walk", "Walk: up to 1 hex (G-11)"),
            Choice(
                "accelerate",
                f"Start running: {counted(acc, 'hex', 'hexes')} this round, "
                f"speed {show(Fraction(fig, 2))} (FP-2)",
            ),
        ]
    params = [FieldSpec("mode", "Movement this round", "choice", choices=tuple(modes))]
    hand = in_hand(figure)
    ready = [Choice("", f"Keep the {hand.name} in hand" if hand else "Draw nothing")]
    ready += [
        Choice(w.name, f"Draw the {w.name} (half skill for the rest of the round, FP-23)")
        for w in weapons(figure)
        if w is not hand
    ]
    if len(ready) > 1:
        params.append(
            FieldSpec("ready", "Weapon", "choice", "", choices=tuple(ready), required=False)
        )
    if hand is not None:
        params.append(
            FieldSpec(
                "drop",
                f"Drop the {hand.name}",
                "bool",
                default=False,
                required=False,
                help="Dropping is free (G-5); otherwise a weapon you replace is put away.",
            )
        )
    hidden = " Hidden until everyone has declared." if s.hidden_declarations else ""
    return ActionSpec(
        "declare",
        "Declare movement and weapon",
        figure.id,
        tuple(params),
        "How you move this round and whether you draw a weapon." + hidden,
        "G-19, FP-2, FP-3, FP-23",
    )


def move_spec(state: GameState, figure: Figure, reach: Reach | None) -> ActionSpec | None:
    """Movement step: every hex the figure can reach this round, with its cost (None: none)."""
    if reach is None or len(reach.poses()) <= 1:
        return None
    here = "turn here" if turns_freely(state, figure) else "stay"  # G-12: no turn without a step
    hexes = destinations(figure, reach, here=here)
    mode = mode_of(figure)
    when = "one step of the round" if settings(state).turn_policy == "per_round" else "each step"
    how = (
        "Turning is free (Slow, FP-8)."
        if turns_freely(state, figure)
        else f"You step into your front hex; before {when} you may turn one hexside "
        "free or two for 1 MP (FP-9)."
    )
    return ActionSpec(
        "plan_move",
        "Move",
        figure.id,
        (
            FieldSpec("to", "Destination", "hex", choices=hexes),
            FieldSpec(
                "facing",
                "Facing at the end",
                "facing",
                choices=FACINGS,
                required=False,
                help="Leave empty to take the cheapest way.",
            ),
        ),
        f"Up to {reach.allowance} MP ({MODE_SHOWN.get(mode, mode)}). {how} "
        "Costly terrain: FP-11...FP-13. "
        "All moves happen together when the step ends.",
        "FP-1, FP-2, FP-9, FP-13",
    )


def can_begin_spell(state: GameState, figure: Figure, stopping: bool) -> bool:
    """G-6: whether the figure may begin a spell now (``stopping``: with a stop declared)."""
    book = FigureBook(figure)
    if not spells(figure) or book.casting or actions_left(figure) < 1:
        return False
    rule = settings(state).cast_requires_stationary
    still = mode_of(figure) == "stationary" or stopped(state, figure)  # G-11
    return rule == "no" or still or (stopping and rule == "stationary_or_stopping")


def post_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """After movement: stop or keep running (FP-27), or begin a spell (FP-26, G-6)."""
    if FigureBook(figure).post_declared:
        return None
    spell_choices = tuple(Choice(sp.name, spell_label(sp)) for sp in spells(figure))
    if mode_of(figure) in RUNNING and not stopped(state, figure):
        params = [
            FieldSpec(
                "choice",
                "Stop or keep running",
                "choice",
                choices=(
                    Choice("continue", "Keep running: top speed next round (FP-3)"),
                    Choice(
                        "stop",
                        "Stop at the end of this round: the next run starts with an "
                        "acceleration round (FP-4)",
                    ),
                ),
            )
        ]
        if can_begin_spell(state, figure, stopping=True):
            params.append(
                FieldSpec(
                    "spell",
                    "Begin a spell",
                    "choice",
                    choices=spell_choices,
                    required=False,
                    help=cast_help(state),
                )
            )
        return ActionSpec(
            "stop_or_continue",
            "Stop or keep running",
            figure.id,
            tuple(params),
            "A stop takes effect at the end of the round; until then you count as moving.",
            "FP-27, FP-4, G-6",
        )
    if not can_begin_spell(state, figure, stopping=False):
        return None
    return ActionSpec(
        "begin_spell",
        "Begin a spell",
        figure.id,
        (FieldSpec("spell", "Spell", "choice", choices=spell_choices),),
        cast_help(state),
        "FP-26, G-6",
    )


def target_choices(state: GameState, figure: Figure, item: Equipment) -> tuple[Choice, ...]:
    """Every figure ``item`` can reach now, each with the roll it needs."""
    choices = []
    for t in state.figures.values():
        if target_problem(state, figure, t, item):
            continue
        check = attack_check(state, figure, t, item)
        d = figure_distance(figure, t)
        detail = f"{d} {'hex' if d == 1 else 'hexes'} away; {needs_text(check)}"
        choices.append(Choice(t.id, t.name, f"{detail} ({percent(check.chance())})"))
    return tuple(choices)


def threatened(state: GameState, figure: Figure) -> bool:
    """Whether an opponent with an action left could attack ``figure`` in this step (so a
    dodge is worth choosing, G-3). Reads only what everyone can see."""
    for other in state.living():
        if other.side == figure.side or actions_left(other) < 1:
            continue
        for spell in (False, True):
            item = attack_item(other, spell)
            if item is not None and not target_problem(state, other, figure, item):
                return True
    return False


def _weapon_specs(state: GameState, figure: Figure, item: Equipment) -> list[ActionSpec]:
    """The weapon in hand: an attack (FP-21, FP-22) and a ranged weapon's reload (G-5)."""
    specs: list[ActionSpec] = []
    book = FigureBook(figure)
    targets = target_choices(state, figure, item)
    if targets:
        verb = "Fire" if is_ranged(item) else "Strike with"
        specs.append(
            ActionSpec(
                "attack",
                f"{verb} the {item.name}",
                figure.id,
                (FieldSpec("target", "Target", "figure", choices=targets), modifier_param()),
                "D100 at or under skill + speed band"
                + (" + range band" if is_ranged(item) else "")
                + " hits (FP-21, FP-22). Hidden until everyone has chosen, then rolled "
                "from where everyone stands (G-19).",
                "FP-21, FP-22, FP-25" if not is_ranged(item) else "FP-21, FP-22",
            )
        )
    if (
        is_ranged(item)
        and item.loaded is False
        and book.reloading is None
        and book.actions_used == 0
    ):
        rounds = RELOAD_ROUNDS(item, 1)
        specs.append(
            ActionSpec(
                "reload",
                f"Reload the {item.name}",
                figure.id,
                (),
                f"Takes {counted(rounds, 'full round')}: no other actions (G-5).",
                "G-5",
            )
        )
    return specs


def act_specs(state: GameState, figure: Figure) -> list[ActionSpec]:
    """Action step (G-19): attack, reload, release a spell or dodge; chosen hidden."""
    specs: list[ActionSpec] = []
    if actions_left(figure) < 1:
        return specs
    item = in_hand(figure)
    if item is not None:
        specs += _weapon_specs(state, figure, item)
    spell = attack_item(figure, spell=True)
    if spell is not None:
        targets = target_choices(state, figure, spell)
        if targets:
            specs.append(
                ActionSpec(
                    "release_spell",
                    f"Release {spell.name}",
                    figure.id,
                    (FieldSpec("target", "Target", "figure", choices=targets), modifier_param()),
                    "The spell begun earlier (FP-26), kept until released (G-26); rolled "
                    "like a ranged attack.",
                    "FP-26, FP-21, G-26",
                )
            )
    if may_dodge(state, figure)[0] and threatened(state, figure):
        check = dodge_check(state, figure)
        specs.append(
            ActionSpec(
                "dodge",
                f"Dodge an attack ({needs_text(check)})",
                figure.id,
                (),
                "Your action for this step. When the choices are revealed you pick one attack "
                "against you; if it hits, D100 at or under your dodge skill cancels it (G-3).",
                "G-3, G-19, FP-10",
            )
        )
    return specs


def hold_spec(figure: Figure) -> ActionSpec:
    """G-19: choosing no action, so that the choices of the step can be revealed."""
    return ActionSpec(
        "hold",
        "No action this round",
        figure.id,
        (),
        "You keep still this step; your remaining actions this round are given up (G-19).",
        "G-19",
    )


def spell_label(spell: Equipment) -> str:
    """A spell as a choice: name, range and casting time."""
    yards = MAX_RANGE_YARDS(spell)
    rounds = CAST_ROUNDS(spell)
    return f"{spell.name} ({yards} yd, {counted(rounds, 'round')} to cast)"


def cast_help(state: GameState) -> str:
    """Who may begin a spell under the G-6 option, in plain words."""
    rule = settings(state).cast_requires_stationary
    who = {
        "stationary_or_stopping": "if you did not move this round or declare a stop",
        "stationary": "only if you did not move this round",
        "no": "whether or not you move",
    }[rule]
    return f"Casting takes the rest of the round; you may begin {who} (G-6)."


def modifier_param() -> FieldSpec:
    """The GM's situational modifier of a roll (G-7)."""
    return FieldSpec(
        "modifier",
        "Other modifier",
        "int",
        minimum=-MODIFIER_LIMIT,
        maximum=MODIFIER_LIMIT,
        default=0,
        required=False,
        help="Any situational modifier the GM adds (G-7).",
    )
