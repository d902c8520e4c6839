"""The ``fig-percentile`` ruleset: hooks, offered actions, previews and action handlers.

A round (G-19) has four steps: declarations (move mode and weapon readying,
hidden until all are made), movement (each figure plans a move; all moves run
together when the step ends), stop or keep running (FP-27, spell beginnings,
G-6; hidden like declarations), and actions (attacks, spell releases, reloads,
dodges: chosen hidden, revealed together, then dodge picks and rolls are asked
for by prompts, see :mod:`.action_step`). End-of-round effects (stops, casting,
reloading) happen when the action step ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.dice import Dice, DiceSyntaxError, parse
from hexcombat.errors import IllegalActionError, Problem
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, Pool
from hexcombat.layout import hex_label
from hexcombat.movement import Reach
from hexcombat.rulesets.base import Preview, Ruleset, StartingItem
from hexcombat.rulesets.common import is_int
from hexcombat.rulesets.data import load
from hexcombat.rulesets.fig_percentile import action_step, flow, offers, resolve
from hexcombat.rulesets.fig_percentile.equipment import (
    catalogue_item,
    in_hand,
    is_ranged,
    spells,
    weapons,
)
from hexcombat.rulesets.fig_percentile.options import (
    ATTACK_KIND,
    CAST_ROUNDS,
    DAMAGE,
    DOC_NOTES,
    FIELDS,
    FIG,
    HP,
    MAX_ACTIONS,
    MAX_RANGE_YARDS,
    OPTIONS,
    RELOAD_ROUNDS,
    SKILL,
    TIME,
)
from hexcombat.rulesets.fig_percentile.situation import (
    actions_left,
    band_at,
    counted,
    item_max_hexes,
    mode_of,
    motion,
    ranged_item,
    settings,
    turns_freely,
)
from hexcombat.rulesets.fig_percentile.speed import (
    MODE_SHOWN,
    RUNNING,
    accel_speed,
    allowance,
    can_dodge,
    show,
    top_speed,
)
from hexcombat.rulesets.fig_percentile.state import FigureBook, RoundBook
from hexcombat.rulesets.manifest import Manifest
from hexcombat.rulesets.registry import register
from hexcombat.state import GameState
from hexcombat.time import Acting
from hexcombat.validation import Json, copy_json

DATA: Any = load("fig_percentile")
VIEW_LABELS = {
    "running": "Running since last round (FP-3)",
    "stop_declared": "Stop declared (FP-27)",
}
"""The figure panel's words for the keys of :meth:`FigPercentile.figure_view` that need more
than the key in words."""


def _waiting(names: list[str]) -> str:
    return ", ".join(names)


@register
class FigPercentile(Ruleset):
    """FIG-scaled movement, combined-speed to-hit penalties and a D100 roll at or under skill."""

    id = "fig-percentile"
    name = "FIG percentile"
    summary = (
        "Movement from the Fighting Attribute (FIG/10 hexes at top speed after a round at "
        "FIG/20), to-hit penalties from both opponents' combined speed, range bands on a "
        "10-yard hex, and a D100 roll at or under skill plus modifiers."
    )
    default_die = 100
    stacking_option = "core.stacking"
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    tables = DATA
    doc_notes = DOC_NOTES
    manifest = Manifest.built_in(
        id,
        prefix="FP",
        rules=27,
        position=1,
        tagline="speed from the Fighting Attribute, D100 to hit.",
        demo_about=(
            "The rule text's own example: a FIG 29 axeman charges a FIG 52 crossbow-and-staff "
            "fighter across an open field; acceleration, the combined-speed penalty, a crossbow "
            "hit at -15, half skill after drawing a staff, and a spell. Press Redo to step "
            "through it."
        ),
    )
    starting_gear = (StartingItem("Sword", "Sword", 50, "ready"),)
    """A new figure fights with a sword at skill 50 (a percentage, FP-21), drawn: it strikes
    in its first round, with no readying to declare (FP-23)."""

    # ---- set-up ----------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """The placeholder weapon and spell tables (every entry ``house_default``)."""
        return {"weapons": copy_json(DATA["weapons"]), "spells": copy_json(DATA["spells"])}

    def item(
        self,
        name: str,
        *,
        state: str = "carried",
        loaded: bool | None = None,
        data: Mapping[str, Json] | None = None,
    ) -> Equipment:
        """A weapon or spell from the data tables, its stats copied (ranged weapons loaded)."""
        return catalogue_item(data or self.default_data(), name, state=state, loaded=loaded)

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus weapons and spells that the rules can use."""
        problems = super().figure_problems(figure, data)
        in_hand_count = 0
        for i, item in enumerate(figure.equipment):
            path = f"equipment[{i}]"
            if item.kind not in ("weapon", "spell"):
                continue
            problems += [Problem(f"{path}.{p.path}", p.message) for p in _item_problems(item)]
            skill = SKILL.raw(item)
            if isinstance(skill, str) and skill and skill not in figure.skills:
                known = ", ".join(figure.skills) or "none"
                problems.append(
                    Problem(
                        f"{path}.stats.skill",
                        f"{figure.name} has no {skill!r} skill for the {item.name} "
                        f"(skills: {known})",
                    )
                )
            if item.kind == "weapon" and item.is_ready:
                in_hand_count += 1
        if in_hand_count > 1:
            problems.append(Problem("equipment", "only one weapon can be in hand (state 'ready')"))
        return problems

    def start(self, state: GameState) -> None:
        """Hit-point pools when the damage model is on, then the first round."""
        if settings(state).damage_model == "hp":
            for f in state.figures.values():
                hp = HP(f)
                f.pools.setdefault("hp", Pool(hp, hp))
        self.start_step(state)

    # ---- steps -------------------------------------------------------------------
    def start_step(self, state: GameState) -> None:
        """Round start resets; each step begins with empty plans or declarations."""
        step = state.step.id
        if step == "declare":
            flow.new_round(state)
        elif step == "move":
            RoundBook(state).clear_plans()
        elif step == "act":
            for f in state.living():
                book = FigureBook(f)
                ready = book.spell_ready
                if ready and state.clock.counters[0] <= book.ready_from:
                    text, rule = f"{f.name} may now release {ready}", "FP-26"
                elif ready:
                    text, rule = f"{f.name} still holds {ready} ready to release", "G-26"
                if ready:
                    state.emit(Event("spell_ready", text, f.id, rule=rule))

    def end_step(self, state: GameState, dice: Dice) -> None:
        """Run the moves together, or end the round."""
        step = state.step.id
        if step == "move":
            flow.execute_moves(state)
        elif step == "act":
            flow.end_of_round(state)

    def acting(self, state: GameState) -> Acting:
        """Everyone at once (G-19); declarations and stops are hidden with the G-19 option."""
        step = state.step.id
        living = list(state.living())
        hidden = settings(state).hidden_declarations
        everyone = tuple(f.id for f in living)
        if step == "declare":
            waiting = tuple(f.id for f in living if not FigureBook(f).declared)
            return Acting("all", everyone, hidden=hidden, waiting=waiting)
        if step == "stop":
            ids = tuple(f.id for f in living if offers.post_spec(state, f) is not None)
            return Acting("all", ids, hidden=hidden, waiting=ids)
        if step == "move":
            plans = RoundBook(state).plans
            waiting = tuple(
                f.id for f in living if mode_of(f) != "stationary" and f.id not in plans
            )
            return Acting("all", everyone, waiting=waiting)
        # G-19: every figure that can act chooses its action hidden; all are revealed together
        ids = tuple(f.id for f in living if offers.act_specs(state, f))
        return Acting("all", ids, hidden=True, waiting=ids)

    def blocks_next_step(self, state: GameState) -> str:
        """Declarations still to make, or running figures still to declare a stop."""
        step = state.step.id
        waiting = [state.figure(f) for f in self.who_acts(state).waiting]
        if step == "declare" and waiting:
            return f"Waiting for declarations from {_waiting([f.name for f in waiting])}"
        if step == "stop":
            running = [f.name for f in waiting if mode_of(f) in RUNNING]
            if running:
                return f"Waiting for {_waiting(running)} to declare a stop or keep running (FP-27)"
        if step == "act" and waiting:
            return f"Waiting for {_waiting([f.name for f in waiting])} to choose an action (G-19)"
        return ""

    def reveal(self, state: GameState, choices: list[Action], dice: Dice) -> None:
        """The action step's choices resolve together (G-19); the others take effect in turn."""
        if state.step.id == "act":
            action_step.reveal(state, choices, dice)
        else:
            super().reveal(state, choices, dice)

    def check_choice(self, state: GameState, action: Action) -> None:
        """G-6: a figure that moved may begin casting only with a stop declared."""
        if action.kind == "stop_or_continue":
            _spell_needs_stop(state, state.figure(action.figure), action)
        if action.kind in action_step.ATTACKS:
            resolve.extra_modifier(action)

    # ---- what may be done now -------------------------------------------------------
    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """The actions of the current step that ``figure`` has not taken yet."""
        step = state.step.id
        book = FigureBook(figure)
        if step == "declare":
            return [] if book.declared else [offers.declare_spec(state, figure)]
        if step == "move":
            spec = offers.move_spec(state, figure, self.reach(state, figure))
            return [spec] if spec else []
        if step == "stop":
            spec = offers.post_spec(state, figure)
            return [spec] if spec else []
        specs = offers.act_specs(state, figure)
        return [*specs, offers.hold_spec(figure)] if specs else []

    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Hexes the figure can still plan to reach this round, with their costs."""
        if state.step.id != "move" or FigureBook(figure).mode is None:
            return None
        if figure.id in (RoundBook(state).plans) or self.is_out(state, figure):
            return None
        return flow.reach_of(state, figure)

    # ---- previews ------------------------------------------------------------------------
    def preview_or_raise(self, state: GameState, action: Action) -> Preview:
        """The cost, path, exact odds and every modifier of an action, before any roll."""
        figure = state.figure(action.figure)
        kind = action.kind
        if kind in ("attack", "release_spell"):
            return resolve.attack_preview(state, action, figure)
        if kind == "roll_attack":
            return resolve.roll_attack_preview(state, action)
        if kind in ("pick_dodge", "dodge", "roll_dodge"):
            return resolve.dodge_preview(state, action, figure)
        if kind == "hold":
            return Preview(action, True, notes=("No action this round (G-19)",))
        if kind == "plan_move":
            reach = self.reach(state, figure)
            return resolve.plan_move_preview(state, action, figure, reach)
        if kind == "declare":
            return resolve.declare_preview(state, action, figure)
        return Preview(action, True)

    # ---- handlers ------------------------------------------------------------------------
    def do_declare(self, state: GameState, action: Action, dice: Dice) -> None:
        """Commit the round's move mode and readying (revealed when everyone has, G-19)."""
        figure = state.figure(action.figure)
        choice: dict[str, Json] = {
            "mode": action.text("mode"),
            "ready": action.text("ready", ""),
            "drop": action.flag("drop"),
        }
        flow.apply_declaration(state, figure, choice)

    def do_plan_move(self, state: GameState, action: Action, dice: Dice) -> None:
        """Plan this round's move; all moves run together when the step ends."""
        figure = state.figure(action.figure)
        to, facing = action.hex("to"), resolve.chosen_facing(action)
        path = flow.planned_path(state, figure, to, facing)
        RoundBook(state).plan(figure.id, str(to), facing)
        if settings(state).hidden_declarations:
            text = f"{figure.name} has planned a move (hidden until everyone moves)"
            data: dict[str, Json] = {}
        else:
            text = (
                f"{figure.name} plans to move to {hex_label(to)} ({sum(s.cost for s in path)} MP)"
            )
            data = {"to": str(to), "facing": facing}
        state.emit(Event("plan", text, figure.id, rule="G-19", data=data))

    def do_stop_or_continue(self, state: GameState, action: Action, dice: Dice) -> None:
        """FP-27: declare a stop (effective at the end of the round) or keep running."""
        figure = state.figure(action.figure)
        _spell_needs_stop(state, figure, action)
        choice = {"choice": action.text("choice"), "spell": action.text("spell", "")}
        flow.apply_post(state, figure, choice)

    def do_begin_spell(self, state: GameState, action: Action, dice: Dice) -> None:
        """Begin a spell that takes a full round (FP-26); released next round."""
        figure = state.figure(action.figure)
        flow.apply_post(state, figure, {"choice": None, "spell": action.text("spell")})

    def do_pick_dodge(self, state: GameState, action: Action, dice: Dice) -> None:
        """G-3, answering its prompt: the attack the dodger dodges."""
        action_step.pick_dodge(state, state.figure(action.figure), action.text("attacker"))

    def do_roll_attack(self, state: GameState, action: Action, dice: Dice) -> None:
        """FP-21 ... FP-25, answering its prompt: roll the revealed attack."""
        action_step.roll_attack(state, dice)

    def do_roll_dodge(self, state: GameState, action: Action, dice: Dice) -> None:
        """G-3, answering its prompt: roll the dodge; success cancels the hit."""
        action_step.roll_dodge(state, dice)

    # ---- views and checks ----------------------------------------------------------------
    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """A planned move costs movement points and is confirmed with "Move here" (it runs
        with everyone's when the step ends, as its help says)."""
        if spec.kind == "plan_move":
            return {"cost_unit": "MP", "confirm": "Move here"}
        return {}

    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """FP-14...FP-18 (G-24, G-25): the band ``figure``'s ranged weapon or spell shoots in
        at ``distance``, e.g. "Medium range (0) with the Crossbow (FP-17)"; '' without a
        figure or without anything ranged."""
        item = ranged_item(figure) if figure is not None else None
        if item is None:
            return ""
        what = f"the {item.name}" if item.kind == "weapon" else item.name
        band = band_at(state, item, distance)
        if band is None:
            return f"out of range for {what} ({show(item_max_hexes(item))} hexes, FP-14)"
        return f"{band.label} with {what} ({band.rule})"

    def ending_note(self, options: Mapping[str, Json]) -> str:
        """Hits only recorded (G-2's default): nobody is put out of the fight."""
        if options.get("fp.damage_model", "none") != "none":
            return ""
        return (
            "Hits only recorded (G-2): the text has no damage rules, so nobody is put out of "
            "the fight and it cannot end. To fight it out, set the rule option 'Damage' to "
            "'Hit points'."
        )

    def unarmed(self, figure: Figure) -> bool:
        """Only weapons and spells attack (FP-21, FP-26)."""
        return not weapons(figure) and not spells(figure)

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """A figure whose actions of the round are spent says so."""
        return "No actions left this round." if actions_left(figure) == 0 else ""

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """The common badges, plus 'hit' once the figure has taken a hit (all the text records)."""
        words = super().badges(state, figure)
        if FigureBook(figure).hits_taken and "wounded" not in words:
            words.append("hit")
        return words

    def autopilot_hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """``pace``: hexes the figure may cover next round as it moves now: a run goes on at
        top speed (FP-3), else a new run starts with its acceleration round (FP-2);
        ``facing`` 0: facing limits only turning and moving (FP-8, FP-9), never a blow."""
        book = FigureBook(figure)
        rounding = settings(state).rounding
        if book.running or (book.mode in RUNNING and not book.stop):
            return {"pace": float(top_speed(FIG(figure), rounding)), "facing": 0.0}
        return {"pace": float(max(1, accel_speed(FIG(figure), rounding))), "facing": 0.0}

    def choice_secret(self, state: GameState, action: Action) -> str:
        """A planned move is secret until the moves run at the step's end (G-19)."""
        if action.kind == "plan_move" and settings(state).hidden_declarations:
            return "step"
        return super().choice_secret(state, action)

    def stand_in(self, state: GameState, action: Action) -> Action | None:
        """A move planned in secret (G-19) travels to the other devices as a plan to stay."""
        figure = state.figures.get(action.figure or "")
        if action.kind != "plan_move" or figure is None:
            return None
        return Action("plan_move", figure.id, {"to": str(figure.position)})

    def conceal(self, state: GameState, figure: Figure) -> None:
        """A move planned in secret (G-19) is taken out: a guess may stand in for it."""
        book = RoundBook(state)
        if settings(state).hidden_declarations and figure.id in book.plans and not book.moved:
            book.unplan(figure.id)

    def view_label(self, key: str) -> str:
        """``running`` is the run carried from last round (FP-3): a figure starting to run
        this round is not running yet, so the panel says which run it means."""
        return VIEW_LABELS.get(key) or super().view_label(key)

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Speed, movement, dodging, actions, weapon and casting as a figure panel shows them."""
        s = settings(state)
        book = FigureBook(figure)
        fig = FIG(figure)
        hand = in_hand(figure)
        view: dict[str, Json] = {
            "fig": fig,
            "top_speed_hexes": top_speed(fig, s.rounding),
            "acceleration_hexes": accel_speed(fig, s.rounding),
            "running": book.running,
            # a hidden declaration counts as made: the panel says so before the reveal (G-19)
            "declared": book.declared or state.declarations.made(figure.id),
            "actions_left": actions_left(figure),
            "in_hand": hand.name if hand else None,
            "loaded": hand.loaded if hand else None,
            "readied_this_round": book.readied,
            "hits_taken": book.hits_taken,
        }
        if book.mode is not None:
            m = motion(state, figure)
            view.update(
                mode=MODE_SHOWN.get(m.mode, m.mode),
                speed=show(m.speed),
                hexes_allowed=allowance(m.mode, fig, s.rounding),
                hexes_moved=book.hexes_moved,
                may_dodge=can_dodge(m.speed, fig),
                turning="free (Slow)"
                if turns_freely(state, figure)
                else "one hexside once a round"
                if s.turn_policy == "per_round"
                else "one hexside per hex",
                stop_declared=book.stop,
            )
        if book.casting:
            view["casting"] = f"{book.casting[0]} ({counted(book.casting[1], 'round')} left)"
        if book.spell_ready:
            view["spell_ready"] = book.spell_ready
        if book.reloading:
            view["reloading"] = f"{book.reloading[0]} ({counted(book.reloading[1], 'round')} left)"
        return view

    def invariant_problems(self, state: GameState) -> list[str]:
        """The core invariants plus actions, weapons in hand and hexes moved."""
        problems = super().invariant_problems(state)
        s = settings(state)
        for f in state.figures.values():
            book = FigureBook(f)
            if book.actions_used > MAX_ACTIONS(f):
                problems.append(f"{f.id} used {book.actions_used} actions, above its maximum")
            if sum(1 for i in f.equipment if i.kind == "weapon" and i.is_ready) > 1:
                problems.append(f"{f.id} holds more than one weapon")
            mode = book.mode
            if mode is not None and book.hexes_moved > allowance(mode, FIG(f), s.rounding):
                problems.append(f"{f.id} moved {book.hexes_moved} hexes in {mode} mode")
            if book.running and mode not in (None, *RUNNING):
                problems.append(f"{f.id} is running but its mode is {mode}")
        return problems


def _spell_needs_stop(state: GameState, figure: Figure, action: Action) -> None:
    spell = action.text("spell", "")
    rule = settings(state).cast_requires_stationary
    if spell and action.text("choice") != "stop" and rule == "stationary_or_stopping":
        raise IllegalActionError(
            f"{figure.name} moved this round: to begin casting {spell} it must declare a stop (G-6)"
        )


def _item_problems(item: Equipment) -> list[Problem]:
    problems = []
    skill = SKILL.raw(item)
    if not isinstance(skill, str) or not skill:
        problems.append(Problem("stats.skill", "must name the skill the item uses"))
    if item.kind == "weapon" and ATTACK_KIND.raw(item) not in ("melee", "ranged"):
        problems.append(Problem("stats.attack", "must be 'melee' or 'ranged'"))
    if is_ranged(item):
        yards = MAX_RANGE_YARDS.raw(item)
        if not is_int(yards) or yards < 1:
            problems.append(
                Problem("stats.max_range_yards", "must be a whole number of yards >= 1")
            )
    for stat in (RELOAD_ROUNDS, CAST_ROUNDS):
        value = stat.raw(item)
        if value is not None and (not is_int(value) or value < 0):
            problems.append(Problem(f"stats.{stat.name}", "must be a whole number >= 0"))
    damage = DAMAGE.raw(item)
    if damage is not None:
        try:
            parse(str(damage), 100)
        except DiceSyntaxError as exc:
            problems.append(Problem("stats.damage", str(exc)))
    if item.loaded is not None and not (item.kind == "weapon" and is_ranged(item)):
        problems.append(Problem("loaded", "only ranged weapons are loaded"))
    return problems
