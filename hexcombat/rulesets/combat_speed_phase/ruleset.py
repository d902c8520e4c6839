"""The ``combat-speed-phase`` ruleset: hooks, offered actions, previews and handlers.

A phase (C-12) is: declare the speed multiple N (hidden, revealed together,
CSP-8, C-7), half-phase 1 and half-phase 2 (each figure plans its move in
secret; all plans run together, tick by tick, when the last one is in:
CSP-8...CSP-10, C-11), then combat (strikes within reach and arc, CSP-17,
C-13; none by default, else the GM's ruling or a borrowed roll, C-1). The phase's record
(its N and the hexes entered) decides the next phase's limits (CSP-13, CSP-16).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError, Problem
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, Pool, Status
from hexcombat.rulesets.base import BADGE_COLORS, Preview, StartingItem
from hexcombat.rulesets.combat_speed_phase.combat import (
    STATUSES,
    borrowed_chain,
    is_impaired,
    reaches,
    separation,
    weapon_reach,
    weapons,
    within_reach,
)
from hexcombat.rulesets.combat_speed_phase.halves import HalfPhases
from hexcombat.rulesets.combat_speed_phase.moves import RELATIVE, describe_step, motion_words
from hexcombat.rulesets.combat_speed_phase.options import (
    COMBAT_HELP,
    DOC_NOTES,
    FIELDS,
    HP,
    OPTIONS,
    REACH,
    TIME,
)
from hexcombat.rulesets.combat_speed_phase.situation import (
    cs_of,
    hexes_text,
    on_knees,
    opt_text,
    tracks_hp,
)
from hexcombat.rulesets.combat_speed_phase.speed import (
    PhaseRecord,
    allowance,
    change_cost,
    half_split,
    moved_multiple,
    must_keep_moving,
    offered_multiples,
    why_not,
)
from hexcombat.rulesets.combat_speed_phase.state import FigureBook
from hexcombat.rulesets.combat_speed_phase.strikes import Strikes
from hexcombat.rulesets.common import int_or, is_int
from hexcombat.rulesets.common.moves import path_preview
from hexcombat.rulesets.data import load
from hexcombat.rulesets.manifest import Manifest
from hexcombat.rulesets.registry import register
from hexcombat.schema import Choice, FieldSpec
from hexcombat.secrets import Secret
from hexcombat.state import GameState
from hexcombat.time import Acting, Clock, StepDef
from hexcombat.validation import Json, copy_json

DATA: Any = load("combat_speed_phase")


@register
class CombatSpeedPhase(HalfPhases, Strikes):
    """Combat Speed multiples, half-phase simultaneous movement, turn costs N, weapon reach."""

    id = "combat-speed-phase"
    name = "Combat Speed and phases"
    summary = (
        "Each phase every figure secretly declares a multiple N of its Combat Speed (up to 6 "
        "forward, 2 backward or oblique, 1 on its knees); all move together in two half-phases "
        "(first half rounded up); turning or changing direction costs N hexes; a phase at "
        "Combat Speed comes before running and before stopping; above it weapons and shields "
        "are impaired. The text's rules stop at weapon reach and arc: movement only by "
        "default; as options the GM enters each strike's outcome, or a landed ruleset's roll "
        "is borrowed."
    )
    default_die = 20
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    tables = DATA
    doc_notes = DOC_NOTES
    manifest = Manifest.built_in(
        id,
        prefix="CSP",
        gap_letters="CIR",
        rules=17,
        starts=("combat_speed_phase_fixtures:armed_four",),
        position=3,
        tagline="secret speeds, simultaneous movement.",
        demo_about=(
            "The rule text's own example: a guard (Combat Speed 3) runs Derek (CS 2) down over "
            "three phases of two half-phases each; speeds declared in secret, a run at 3 x CS "
            "after a phase at Combat Speed, slowing before stopping, and reach 2 against reach 1 "
            "at two hexes. Press Redo to step through it."
        ),
    )
    starting_gear = (StartingItem("Short sword"),)
    """A new figure fights with the guard's short sword (reach 1, CSP-17)."""

    # ---- set-up ----------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """The weapon table (reach from the text, CSP-17; damage dice are placeholders)."""
        return {"weapons": copy_json(DATA["weapons"])}

    def item(self, name: str, data: Mapping[str, Json] | None = None) -> Equipment:
        """A weapon of the data table (an encounter's overrides win), its stats copied."""
        table = (data or self.default_data()).get("weapons")
        if not isinstance(table, dict) or not isinstance(table.get(name), dict):
            known = ", ".join(table) if isinstance(table, dict) else "none"
            raise ValueError(f"no weapon {name!r} in the table (weapons: {known})")
        stats = {k: v for k, v in table[name].items() if k in ("reach", "damage", "house_default")}
        return Equipment(name, "weapon", "ready", None, stats)

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus weapon reaches that are whole numbers from 1."""
        problems = super().figure_problems(figure, data)
        for i, item in enumerate(figure.equipment):
            if item.kind != "weapon":
                continue
            reach = REACH.raw(item, 1)
            if not is_int(reach) or reach < 1:
                problems.append(
                    Problem(f"equipment[{i}].stats.reach", "must be a whole number of hexes >= 1")
                )
        return problems

    def option_problems(self, values: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus: no hit points (R-3) needs strikes without a damage roll."""
        problems = super().option_problems(values)
        if values.get("csp.hit_points") == "none" and values.get("csp.combat_resolver") == (
            "skirmish"
        ):
            problems.append(
                Problem(
                    "csp.hit_points",
                    "'none' (no hit points) cannot go with the borrowed skirmish roll, which "
                    "deals damage: choose 'track' or let the GM resolve strikes (C-1, R-3)",
                )
            )
        return problems

    def roster_statuses(self, figure: Figure, gather_dropped: bool) -> dict[str, Status]:
        """Impairment lasts the phase it was declared in (CSP-3): the roster never keeps it."""
        return {k: s for k, s in figure.statuses.items() if k != "impaired"}

    def start(self, state: GameState) -> None:
        """Hit points unless R-3 says none; every figure starts still (E-2: 'both
        stationary'), or as the option R-6 says: moving forward at CS, or running."""
        starting = opt_text(state, "csp.starting_motion")
        for f in state.figures.values():
            if tracks_hp(state):
                hp = HP(f)
                f.pools.setdefault("hp", Pool(hp, hp))
            book = FigureBook(f)
            book.n, book.hexes, book.debt, book.oblique, book.strikes = None, 0, 0, 0, 0
            book.carry, book.owed = 0, 0
            book.motion, book.last = self._starting(starting, cs_of(f))
        self.start_step(state)

    @staticmethod
    def _starting(starting: str, cs: int) -> tuple[str, PhaseRecord]:
        """R-6: the direction of motion and the 'last phase' a figure starts with."""
        if starting == "combat_speed":
            return "F", PhaseRecord(1, cs)
        if starting == "running":
            return "F", PhaseRecord(2, 2 * cs)
        return "", PhaseRecord()

    # ---- time ------------------------------------------------------------------------
    def step_def(self, state: GameState, step_id: str) -> StepDef:
        """The combat step says what the chosen resolver does (C-1)."""
        step = self.time.step(step_id)
        if step_id != "combat":
            return step
        return replace(step, help=COMBAT_HELP[opt_text(state, "csp.combat_resolver")])

    def next_clock(self, state: GameState) -> Clock:
        """Declare, half-phase 1, half-phase 2, combat; then the next phase (C-12)."""
        clock, step = state.clock, state.step.id
        if step == "declare":
            return clock.at("move")
        if step == "move" and clock.counters[1] == 1:
            return clock.rolled(1, "move")
        if step == "move":
            return clock.at("combat")
        return clock.rolled(0, "declare")

    def acting(self, state: GameState) -> Acting:
        """Everyone declares in secret; in a half-phase those with hexes plan in secret; in
        combat, those with a strike left and a target within reach and arc. Nobody once the
        fight is over (no figure is offered an action then)."""
        step = state.step.id
        over = self.fight_outcome(state) is not None
        living = () if over else tuple(f.id for f in state.living())
        if step == "declare":
            return Acting("all", living, hidden=True, waiting=living, order_notes=("CSP-8, C-7",))
        if step == "move":  # before the speeds are shown everyone plans, lest N = 0 show
            movers = tuple(
                f
                for f in living
                if self.half_left(state, state.figure(f)) > 0
                or not FigureBook(state.figure(f)).shown
            )
            note = "simultaneous, revealed together (CSP-8, CSP-10)"
            return Acting("all", movers, hidden=True, waiting=movers, order_notes=(note,))
        waiting = tuple(f for f in living if self._strike_options(state, state.figure(f)))
        return Acting("all", waiting, waiting=waiting)

    def start_step(self, state: GameState) -> None:
        """A new phase forgets the last one's direction of motion when C-4 is off."""
        if state.step.id == "declare" and not state.options.get(
            "csp.direction_memory_across_phases", True
        ):
            for f in state.figures.values():
                FigureBook(f).motion = ""

    def end_step(self, state: GameState, dice: Dice) -> None:
        """The end of combat ends the phase: its record sets the next phase's limits."""
        if state.step.id == "move":
            self._show_speeds(state)  # nobody moved in the first half: shown as it ends
        if state.step.id == "combat":
            self._land(state)
            self._end_phase(state)

    # ---- what may be done now ------------------------------------------------------
    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Declare N, plan this half's move, or strike."""
        step = state.step.id
        if step == "declare":
            return [self._declare_spec(state, figure)]
        if step == "move":
            return [self._plan_spec(state, figure)]
        spec = self._strike_spec(state, figure)
        return [spec] if spec else []

    def multiples(self, state: GameState, figure: Figure) -> list[int]:
        """The N this figure may declare (CSP-11...CSP-16)."""
        rule = opt_text(state, "csp.cs_phase_rule")
        book = FigureBook(figure)
        offered = offered_multiples(book.last, cs_of(figure), on_knees=on_knees(figure), rule=rule)
        return [n for n in offered if n or not book.owed]

    def _declare_spec(self, state: GameState, figure: Figure) -> ActionSpec:
        cs = cs_of(figure)
        choices = []
        for n in self.multiples(state, figure):
            m = allowance(n, cs)
            h1, h2 = half_split(m)
            if n == 0:
                label, detail = "0: stand still", "No hex this phase (CSP-7)"
            else:
                label = f"{n} x CS = {hexes_text(m)} ({h1} + {h2})"
                detail = (
                    "at Combat Speed (CSP-4)" if n == 1 else "impaired: weapons and shields (CSP-3)"
                )
            choices.append(Choice(n, label, detail))
        last = FigureBook(figure).last
        limits = []
        if on_knees(figure):
            limits.append("on its knees: N at most 1 (CSP-12)")
        elif len(choices) and max(c.value for c in choices if isinstance(c.value, int)) == 1:
            limits.append("N above 1 needs a phase at Combat Speed first (CSP-13)")
        if must_keep_moving(last):
            limits.append("it ran last phase, so it may not stop yet (CSP-16)")
        if FigureBook(figure).owed:
            limits.append(
                f"{hexes_text(FigureBook(figure).owed)} of the first half finish last phase's "
                "turn, so it "
                "may not stand still (R-5)"
            )
        help_text = (
            f"The speed multiple times the Combat Speed ({cs}) in hexes this phase; the first "
            "half-phase gets half, rounded up (CSP-9). "
            + " ".join(f"{s[:1].upper()}{s[1:]}." for s in limits)
        ).strip()
        n_field = FieldSpec(
            "n", "Speed multiple N", "choice", help=help_text, rule="CSP-11", choices=tuple(choices)
        )
        return ActionSpec(
            "declare_speed", "Declare speed", figure.id, (n_field,), help_text, "CSP-8, C-7"
        )

    def refusal(self, state: GameState, action: Action) -> str:
        """The rule a refused declaration, plan or strike breaks ('' when its parameters
        cannot be read: the generic text says what is wrong with them)."""
        fid = action.figure
        if fid is None or fid not in state.figures or not _readable(action.params):
            return ""
        figure = state.figure(fid)
        try:
            if action.kind == "declare_speed":
                return self._declare_refusal(state, figure, action.integer("n"))
            if action.kind == "plan_half":
                self.plan_path(state, figure, action)
            elif action.kind == "strike":
                self._strike_parts(state, action)
        except IllegalActionError as exc:
            return str(exc)
        return ""

    def check_choice(self, state: GameState, action: Action) -> None:
        """A plan must be a move the figure can make (refused when it is made)."""
        if action.kind == "plan_half":
            self.plan_path(state, state.figure(action.figure), action)

    def reveal(self, state: GameState, choices: list[Action], dice: Dice) -> None:
        """Declarations take effect together, still secret; plans run together, tick by tick
        (C-11), the first half's after the speeds are shown (C-7, C-12)."""
        if state.step.id == "declare":
            for action in choices:
                self.dispatch(state, action, dice)
            state.emit(
                Event(
                    "speed",
                    "Every figure has declared its speed: secret until the first half-phase's "
                    "moves are revealed (C-7, C-12)",
                    rule="C-7, C-12",
                )
            )
            return
        self._show_speeds(state)
        self._run_half(state, {a.figure: a for a in choices if a.figure is not None})

    def _end_phase(self, state: GameState) -> None:
        basis = opt_text(state, "csp.speed_basis")
        rule = opt_text(state, "csp.cs_phase_rule")
        for f in state.figures.values():
            book = FigureBook(f)
            cs = cs_of(f)
            n = book.n or 0
            if basis == "moved":
                n = moved_multiple(book.hexes, cs)
            record = PhaseRecord(n, book.hexes)
            book.last = record
            if record.stationary:
                book.motion = ""
            f.statuses.pop("impaired", None)
            book.n, book.hexes, book.debt, book.oblique, book.strikes = None, 0, 0, 0, 0
            book.owed, book.carry = book.carry, 0
            if self.is_out(state, f):
                continue
            if record.stationary:
                what = "stood still (C-7): its direction of motion is forgotten (C-4)"
            else:
                what = f"entered {hexes_text(record.hexes)} at N = {record.n}"
            nexts = []
            if record.fast:
                nexts.append("may not stop next phase (CSP-16)")
            if book.owed:
                nexts.append(
                    f"finishes its turn with the first {hexes_text(book.owed)} of next phase (R-5)"
                )
            elif record.at_combat_speed(cs, rule):
                nexts.append("may run next phase (CSP-13)")
            state.emit(
                Event(
                    "phase_end",
                    f"{f.name} {what}" + (f": {', '.join(nexts)}" if nexts else ""),
                    f.id,
                    rule="CSP-13, CSP-16, C-8",
                    data={"n": record.n, "hexes": record.hexes},
                )
            )

    # ---- handlers ------------------------------------------------------------------------
    def do_declare_speed(self, state: GameState, action: Action, dice: Dice) -> None:
        """A declaration taken in: N is kept, still secret (C-7); see :meth:`_show_speeds`."""
        figure = state.figure(action.figure)
        n = action.integer("n")
        why = self._declare_refusal(state, figure, n)
        if why:
            raise IllegalActionError(why)
        book = FigureBook(figure)
        book.n, book.shown = n, False

    def _show_speeds(self, state: GameState) -> None:
        """C-7, C-12: the declared N are revealed with the first half's moves: each
        figure's allowance, its halves (CSP-9) and impairment (CSP-3)."""
        for figure in state.figures.values():
            book = FigureBook(figure)
            n = book.n
            if n is None or book.shown:
                continue
            book.shown = True
            cs = cs_of(figure)
            m = allowance(n, cs)
            h1, h2 = half_split(m)
            details = [
                f"{n} x Combat Speed {cs} = {hexes_text(m)} this phase (CSP-4, CSP-11)",
                f"Half-phase 1: half of {m}, rounded up = {h1}; half-phase 2: the rest, {h2} "
                "(CSP-9)",
            ]
            if book.owed:
                details.append(f"The first {hexes_text(book.owed)} finish last phase's turn (R-5)")
            if n > 1:
                figure.statuses["impaired"] = Status("impaired", note="N > 1 this phase (CSP-3)")
                details.append(
                    "Faster than Combat Speed: weapons and shields impaired (CSP-3, C-2)"
                )
                details.append(f"Each facing or direction change costs {n} hexes (CSP-15)")
            text = (
                f"{figure.name} stands still this phase (N = 0)"
                if n == 0
                else f"{figure.name} declared N = {n}: {hexes_text(m)} this phase ({h1} + {h2})"
            )
            if n > 1:
                text += ", impaired"
            state.emit(
                Event(
                    "speed",
                    text,
                    figure.id,
                    rule="CSP-8, CSP-9, C-7, C-12",
                    details=tuple(details),
                    data={"n": n, "m": m, "h1": h1, "h2": h2, "impaired": n > 1},
                )
            )

    def _declare_refusal(self, state: GameState, figure: Figure, n: int) -> str:
        """Why the figure may not declare N = ``n`` now ('' when it may)."""
        if n in self.multiples(state, figure):
            return ""
        last, rule = FigureBook(figure).last, opt_text(state, "csp.cs_phase_rule")
        why = why_not(n, last, cs_of(figure), on_knees=on_knees(figure), rule=rule) or (
            "it must finish the turn it began last phase (R-5)"
        )
        return f"{figure.name} cannot declare N = {n} now: {why}"

    # ---- previews ------------------------------------------------------------------------
    def preview_or_raise(self, state: GameState, action: Action) -> Preview:
        """Cost and path of a plan, the halves of a declaration, the checks of a strike."""
        figure = state.figure(action.figure)
        if action.kind == "plan_half":
            path = self.plan_path(state, figure, action)
            reach = self.half_reach(state, figure)
            return path_preview(action, figure, path, describe_step, reach)
        if action.kind == "declare_speed":
            n = action.integer("n")
            m = allowance(n, cs_of(figure))
            h1, h2 = half_split(m)
            notes = [
                f"{hexes_text(m)} this phase: {h1} in the first half, {h2} in the second (CSP-9)"
            ]
            if n > 1:
                notes.append("Impaired this phase: weapons and shields (CSP-3, C-2)")
                notes.append(f"Each facing or direction change costs {n} hexes (CSP-15)")
            return Preview(action, True, notes=tuple(notes))
        if action.kind == "strike":
            attacker, target, item, lines = self._strike_parts(state, action)
            highlights = {"target": target.hexes()}
            if opt_text(state, "csp.combat_resolver") == "skirmish":
                chain = borrowed_chain(state, attacker, target, item)
                return Preview(
                    action, True, rollables=(chain,), notes=tuple(lines), highlights=highlights
                )
            gm = (
                "GM: enter hit or miss, the damage and any status: the text has no combat "
                "resolution (C-1)"
            )
            return Preview(action, True, notes=(*lines, gm), highlights=highlights)
        return Preview(action, True)

    # ---- views ------------------------------------------------------------------------------
    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """A plan costs hexes of movement and is confirmed on its hex; a GM strike is 'entered'."""
        if spec.kind == "plan_half":
            return {"cost_unit": "hexes", "confirm": "Plan this move"}
        if spec.kind == "strike" and any(p.name == "outcome" for p in spec.params):
            return {"confirm": "Log the GM's ruling"}
        return {}

    def ending_note(self, options: Mapping[str, Json]) -> str:
        """Movement only (C-1's default): no strike puts anyone out of the fight."""
        if options.get("csp.combat_resolver", "none") != "none":
            return ""
        return (
            "Movement only (C-1): nobody can be put out of the fight, so it cannot end. "
            "To fight it out, set the rule option 'Who resolves a strike' to the GM or to "
            "skirmish's d20 roll."
        )

    def unarmed(self, figure: Figure) -> bool:
        """Only a weapon strikes (CSP-17, C-13)."""
        return not weapons(figure)

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure has nothing to do in this step."""
        step = state.step.id
        book = FigureBook(figure)
        if step == "move" and self.half_left(state, figure) == 0 and book.shown:
            n = book.n or 0
            if n == 0:
                return "Standing still this phase (N = 0)."
            h1, h2 = half_split(allowance(n, cs_of(figure)))
            return f"No hexes in this half-phase (the phase's hexes split {h1} + {h2}, CSP-9)."
        if step == "combat":
            if opt_text(state, "csp.combat_resolver") == "none":
                return "Movement only: the text has no combat resolution (C-1)."
            if FigureBook(figure).strikes:
                return "Has struck this phase (R-1)."
            no_attack = opt_text(state, "csp.fast_move_penalty") == "no_attack_no_shield"
            if no_attack and is_impaired(figure):
                return "Impaired (N > 1 this phase): it cannot strike (CSP-3, C-2)."
            return "No enemy within reach and in the front arc (CSP-17, C-13)."
        return ""

    def badge_color(self, badge: str) -> str:
        """Impaired in orange, on its knees in brown."""
        colors = {**BADGE_COLORS, "impaired": "#d35400", "on_knees": "#7d5a2b"}
        return colors.get(badge, super().badge_color(badge))

    def view_label(self, key: str) -> str:
        """Panel words for the figure view's keys and statuses."""
        words = {
            "cs_hexes": "Combat Speed",
            "n_now": "Speed multiple N",
            "phase_hexes": "Hexes this phase",
            "half_hexes": "This half-phase",
            "entered_hexes": "Hexes entered this phase",
            "motion_dir": "Direction of motion",
            "turn_cost": "A turn costs",
            "may_run": "May run next",
            "may_stop": "May stand still",
            "reaches": "Weapon reach",
            "in_reach": "Within reach and front arc",
            "pending_hits": "Strikes landing at the end of combat",
            "on_knees": "On its knees",
        }
        return words.get(key, super().view_label(key))

    def choice_secret(self, state: GameState, action: Action) -> str:
        """A declared N stays secret past the declarations' reveal, until the first
        half-phase's moves show it (C-7, C-12)."""
        if action.kind == "declare_speed" and state.prompt is None:
            return "phase"
        return super().choice_secret(state, action)

    def secret_kept(self, state: GameState, secret: Secret) -> bool:
        """A declared N (``phase``) is kept until shown with the first half's moves (in its
        own declare step it is never shown: a figure's book still says the last phase's N
        was shown until the declarations take effect)."""
        if secret.until != "phase":
            return super().secret_kept(state, secret)
        figure = state.figures.get(secret.figure)
        same_phase = state.clock.counters[:1] == secret.counters[:1]
        if not same_phase or figure is None:
            return False
        return secret.made_now(state.clock) or not FigureBook(figure).shown

    def conceal(self, state: GameState, figure: Figure) -> None:
        """An N not yet shown (C-7) gives way to the plainest guess (:meth:`guessed_n`), in
        the figure's book and in the step's revealed declarations alike."""
        book = FigureBook(figure)
        if book.n is None or book.shown:
            return
        book.n = self.guessed_n(state, figure)
        declared = state.declarations.choices.get(figure.id)
        guess = None if declared is None else self.stand_in(state, declared)
        if guess is not None:
            state.declarations.choices = {**state.declarations.choices, figure.id: guess}

    def stand_in(self, state: GameState, action: Action) -> Action | None:
        """A declared N not yet shown travels to the other devices as the guess (C-7)."""
        if action.kind != "declare_speed" or action.figure not in state.figures:
            return None
        n = self.guessed_n(state, state.figures[action.figure])
        return Action(action.kind, action.figure, {**action.params, "n": n})

    def guessed_n(self, state: GameState, figure: Figure) -> int:
        """The plainest guess of an N not yet shown: 1 where it may be declared, else the
        smallest it may."""
        offered = self.multiples(state, figure) or [0]
        return 1 if 1 in offered else min(offered)

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Combat Speed, N and allowances (once shown, C-7), direction of motion, turn cost
        and reaches."""
        book = FigureBook(figure)
        cs = cs_of(figure)
        view: dict[str, Json] = {"cs_hexes": cs}
        n = book.n
        if n is not None and book.shown:  # secret until the first half's moves (C-7, C-12)
            m = allowance(n, cs)
            h1, h2 = half_split(m)
            view.update(
                n_now=n,
                phase_hexes=f"{m} ({h1} + {h2})",
                entered_hexes=book.hexes,
                turn_cost=hexes_text(change_cost(n)),
            )
            if state.step.id == "move":
                view["half_hexes"] = self.half_left(state, figure)
        view["motion_dir"] = motion_words(book.motion) if book.motion else "none (standstill)"
        multiples = self.multiples(state, figure)
        view["may_run"] = max(multiples) > 1
        view["may_stop"] = 0 in multiples
        view["reaches"] = (
            ", ".join(f"{i.name} {weapon_reach(i)}" for i in weapons(figure)) or "none"
        )
        view["in_reach"] = self._in_reach_words(state, figure)  # shown whatever resolves (C-1)
        pending = FigureBook(figure).pending
        if pending:
            given = pending.get("statuses")
            words = [f"{int_or(pending.get('damage'), 0)} damage"] if "hp" in figure.pools else []
            words += [label for s, label in STATUSES if isinstance(given, list) and s in given]
            view["pending_hits"] = ", ".join(words) or "no effect"
        return view

    def _in_reach_words(self, state: GameState, figure: Figure) -> str:
        """C-1, CSP-17, C-13: the enemies this figure's weapons reach in its front arc, as
        "Guard (Hand-and-a-half sword, 2 away)"; 'none'."""
        if self.is_out(state, figure):
            return "none"
        found: dict[str, tuple[Figure, list[str]]] = {}
        for item, target in within_reach(state, figure):
            found.setdefault(target.id, (target, []))[1].append(item.name)
        words = [
            f"{target.name} ({' or '.join(items)}, {separation(state, figure, target)} away)"
            for target, items in found.values()
        ]
        return ", ".join(words) or "none"

    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """CSP-17, C-13, C-17: which of ``figure``'s weapons reach that far (the arc is the
        figure's panel's); '' without a figure or a weapon."""
        items = weapons(figure) if figure is not None else []
        if not items:
            return ""
        fits = [i.name for i in items if reaches(state, i, distance)]
        if fits:
            return f"within the reach of the {' and the '.join(fits)} (CSP-17)"
        return f"beyond the reach of the {' and the '.join(i.name for i in items)} (CSP-17)"

    def invariant_problems(self, state: GameState) -> list[str]:
        """The core invariants, plus N within its limits and hexes within N x CS."""
        problems = super().invariant_problems(state)
        for f in state.figures.values():
            book = FigureBook(f)
            n = book.n
            if n is None:
                continue
            if not 0 <= n <= 6:
                problems.append(f"{f.id} declared N = {n}")
            if book.hexes > allowance(n, cs_of(f)):
                problems.append(f"{f.id} entered {book.hexes} hexes at N = {n}")
            if n > 1 and book.shown and not is_impaired(f):
                problems.append(f"{f.id} runs at N = {n} but is not impaired")
        return problems


def _readable(params: Mapping[str, Json]) -> bool:
    """True when N, facing and motion (those given) have the types the handlers read."""
    return (
        all(isinstance(params.get(k, 0), int) for k in ("n", "facing"))
        and params.get("facing", 0) in range(6)
        and params.get("motion", "F") in RELATIVE
    )
