"""The ``combat-speed-phase`` ruleset: hooks, offered actions, previews and handlers.

A phase (C-12) is: declare the speed multiple N (hidden, revealed together,
CSP-8, C-7), half-phase 1 and half-phase 2 (each figure plans its move in
secret; all plans run together, tick by tick, when the last one is in:
CSP-8...CSP-10, C-11), then combat (strikes within reach and arc, CSP-17,
C-13; the outcome is the GM's, or a borrowed roll, C-1). The phase's record
(its N and the hexes entered) decides the next phase's limits (CSP-13, CSP-16).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from ...actions import Action, ActionSpec
from ...checks import AmountResult, CheckResult
from ...dice import Dice
from ...errors import IllegalActionError, Problem
from ...events import Event
from ...figures import Equipment, Figure, Pool, Status, figure_distance, place
from ...geometry import Hex
from ...layout import hex_label
from ...movement import Pose, Reach, Room, Step, body_steps, lockstep, search
from ...schema import Choice, FieldSpec
from ...state import GameState
from ...terrain import TerrainTable
from ...time import Acting, Clock
from ...validation import Json
from ..base import BADGE_COLORS, Preview, Ruleset
from ..data import load
from ..registry import register
from .combat import (
    STATUSES,
    borrowed_chain,
    gm_lines,
    is_impaired,
    separation,
    strike_check,
    weapon_reach,
    weapons,
)
from .moves import (
    FACING_NAMES,
    RELATIVE,
    Motion,
    MoveRules,
    describe_step,
    step_function,
    tick_poses,
    ticks_of,
)
from .options import FIELDS, OPTIONS, TIME
from .speed import (
    PhaseRecord,
    allowance,
    change_cost,
    half_allowance,
    half_split,
    moved_multiple,
    must_keep_moving,
    offered_multiples,
    why_not,
)

DATA: Any = load("combat_speed_phase")


def _int(value: Json, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


class Book:
    """A figure's running record in ``figure.memory`` (all plain JSON)."""

    def __init__(self, figure: Figure) -> None:
        self.m = figure.memory
        self.figure = figure

    @property
    def n(self) -> int | None:
        """The N declared this phase (None until the declarations are revealed, C-7)."""
        value = self.m.get("n")
        return value if isinstance(value, int) else None

    @n.setter
    def n(self, value: int | None) -> None:
        self.m["n"] = value

    def _int(self, key: str) -> int:
        return _int(self.m.get(key), 0)

    @property
    def hexes(self) -> int:
        """Hexes entered this phase."""
        return self._int("hexes")

    @hexes.setter
    def hexes(self, value: int) -> None:
        self.m["hexes"] = value

    @property
    def debt(self) -> int:
        """Hexes a change begun in the first half takes from the second (C-10)."""
        return self._int("debt")

    @debt.setter
    def debt(self, value: int) -> None:
        self.m["debt"] = value

    @property
    def carry(self) -> int:
        """Hexes a change begun in the second half takes from the next phase (R-5)."""
        return self._int("carry")

    @carry.setter
    def carry(self, value: int) -> None:
        self.m["carry"] = value

    @property
    def owed(self) -> int:
        """Hexes of this phase's first half that finish last phase's change (R-5)."""
        return self._int("owed")

    @owed.setter
    def owed(self, value: int) -> None:
        self.m["owed"] = value

    @property
    def oblique(self) -> int:
        """Backward and oblique hexes entered this phase (C-6 'count_hexes')."""
        return self._int("oblique")

    @oblique.setter
    def oblique(self, value: int) -> None:
        self.m["oblique"] = value

    @property
    def strikes(self) -> int:
        """Strikes made this phase (R-1)."""
        return self._int("strikes")

    @strikes.setter
    def strikes(self, value: int) -> None:
        self.m["strikes"] = value

    @property
    def motion(self) -> str:
        """The direction of motion relative to facing ('' after a standstill, CSP-6, C-4)."""
        value = self.m.get("motion")
        return value if isinstance(value, str) else ""

    @motion.setter
    def motion(self, value: str) -> None:
        self.m["motion"] = value

    @property
    def last(self) -> PhaseRecord:
        """The previous phase's N and hexes entered (CSP-13, CSP-16); stationary at first."""
        raw = self.m.get("last")
        if isinstance(raw, dict):
            return PhaseRecord(_int(raw.get("n")), _int(raw.get("hexes")))
        return PhaseRecord()

    @last.setter
    def last(self, value: PhaseRecord) -> None:
        self.m["last"] = {"n": value.n, "hexes": value.hexes}


def cs_of(figure: Figure) -> int:
    """CSP-1: the figure's Combat Speed."""
    return max(1, _int(figure.stats.get("cs"), 1))


def on_knees(figure: Figure) -> bool:
    """CSP-12: a leg or hip disability (set up, or a GM's ruling) forces it onto its knees."""
    return figure.stats.get("on_knees") is True or figure.has_status("on_knees")


def _opt(state: GameState, name: str) -> str:
    return str(state.options.get(name))


HP_DEFAULT = next(_int(f.default) for f in FIELDS if f.name == "hp")
"""Hit points of a new figure (the figure field's default, R-3)."""


def tracks_hp(state: GameState) -> bool:
    """R-3: figures have hit points that damage takes off (option ``csp.hit_points``)."""
    return _opt(state, "csp.hit_points") != "none"


@register
class CombatSpeedPhase(Ruleset):
    """Combat Speed multiples, half-phase simultaneous movement, turn costs N, weapon reach."""

    id = "combat-speed-phase"
    name = "Combat Speed and phases"
    summary = (
        "Each phase every figure secretly declares a multiple N of its Combat Speed (up to 6 "
        "forward, 2 backward or oblique, 1 on its knees); all move together in two half-phases "
        "(first half rounded up); turning or changing direction costs N hexes; a phase at "
        "Combat Speed comes before running and before stopping; above it weapons and shields "
        "are impaired. The text's rules stop at weapon reach and arc: the GM enters each "
        "strike's outcome (or a landed ruleset's roll is borrowed)."
    )
    default_die = 20
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    terrain = TerrainTable.from_json(DATA["terrain"])
    rules: ClassVar[dict[str, str]] = dict(DATA["rules"])

    # ---- set-up ----------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """The weapon table (reach from the text, CSP-17; damage dice are placeholders)."""
        return {"weapons": copy.deepcopy(DATA["weapons"])}

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
            reach = item.stats.get("reach", 1)
            if isinstance(reach, bool) or not isinstance(reach, int) or reach < 1:
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

    def start(self, state: GameState) -> None:
        """Hit points unless R-3 says none; every figure starts still (E-2: 'both
        stationary'), or as the option R-6 says: moving forward at CS, or running."""
        starting = _opt(state, "csp.starting_motion")
        for f in state.figures.values():
            if tracks_hp(state):
                hp = _int(f.stats.get("hp"), HP_DEFAULT)
                f.pools.setdefault("hp", Pool(hp, hp))
            book = Book(f)
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

    def half(self, state: GameState) -> int:
        """The half-phase under way (1 or 2)."""
        return state.clock.counters[1]

    def half_left(self, state: GameState, figure: Figure, half: int | None = None) -> int:
        """Hexes of movement in a half-phase: ceil or floor of N x CS / 2 (CSP-9), less a
        change carried over from the half before (C-10; from the last phase, R-5)."""
        book = Book(figure)
        n = book.n or 0
        h = self.half(state) if half is None else half
        left = half_allowance(allowance(n, cs_of(figure)), h)
        return max(0, left - (book.debt if h == 2 else book.owed))

    def acting(self, state: GameState) -> Acting:
        """Everyone declares in secret; in a half-phase those with hexes plan in secret; in
        combat, those with a strike left and a target within reach and arc."""
        step = state.step.id
        living = tuple(f.id for f in state.living())
        if step == "declare":
            return Acting("all", living, hidden=True, waiting=living, order_notes=("CSP-8, C-7",))
        if step == "move":
            movers = tuple(f for f in living if self.half_left(state, state.figure(f)) > 0)
            note = "simultaneous, revealed together (CSP-8, CSP-10)"
            return Acting("all", movers, hidden=True, waiting=movers, order_notes=(note,))
        waiting = tuple(f for f in living if self._strike_options(state, state.figure(f)))
        return Acting("all", living, waiting=waiting)

    def start_step(self, state: GameState) -> None:
        """A new phase forgets the last one's direction of motion when C-4 is off."""
        if state.step.id == "declare" and not state.options.get(
            "csp.direction_memory_across_phases", True
        ):
            for f in state.figures.values():
                Book(f).motion = ""

    def end_step(self, state: GameState, dice: Dice) -> None:
        """The end of combat ends the phase: its record sets the next phase's limits."""
        if state.step.id == "combat":
            self._land(state)
            self._end_phase(state)

    def is_out(self, state: GameState, figure: Figure) -> bool:
        """Down (a GM's ruling or 0 hit points)."""
        return figure.has_status("down")

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
        rule = _opt(state, "csp.cs_phase_rule")
        book = Book(figure)
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
                label = f"{n} x CS = {_hexes(m)} ({h1} + {h2})"
                detail = (
                    "at Combat Speed (CSP-4)" if n == 1 else "impaired: weapons and shields (CSP-3)"
                )
            choices.append(Choice(n, label, detail))
        last = Book(figure).last
        limits = []
        if on_knees(figure):
            limits.append("on its knees: N at most 1 (CSP-12)")
        elif len(choices) and max(c.value for c in choices if isinstance(c.value, int)) == 1:
            limits.append("N above 1 needs a phase at Combat Speed first (CSP-13)")
        if must_keep_moving(last):
            limits.append("it ran last phase, so it may not stop yet (CSP-16)")
        if Book(figure).owed:
            limits.append(
                f"{_hexes(Book(figure).owed)} of the first half finish last phase's turn, so it "
                "may not stand still (R-5)"
            )
        help_text = (
            f"N x CS hexes this phase (CS {cs}); the first half-phase gets half rounded up "
            "(CSP-9). " + " ".join(f"{s[:1].upper()}{s[1:]}." for s in limits)
        ).strip()
        n_field = FieldSpec(
            "n", "Speed multiple N", "choice", help=help_text, rule="CSP-11", choices=tuple(choices)
        )
        return ActionSpec(
            "declare_speed", "Declare speed", figure.id, (n_field,), help_text, "CSP-8, C-7"
        )

    # ---- movement ---------------------------------------------------------------------
    def move_rules(self, state: GameState, figure: Figure) -> MoveRules:
        """The figure's step rules in the current half-phase."""
        n = Book(figure).n or 0
        forward = frozenset({"F"} if _opt(state, "csp.forward_dirs") == "F" else {"F", "FL", "FR"})
        span, into = 0, "the second half (C-10)"
        if _opt(state, "csp.turn_cost_split") == "span":
            if self.half(state) == 1:
                span = self.half_left(state, figure, 2)
            elif state.options.get("csp.turn_into_next_phase") is True:
                span, into = half_split(cs_of(figure))[0], "the next phase (C-10, R-5)"
        return MoveRules(
            n,
            cs_of(figure),
            _opt(state, "csp.facing_cost"),
            forward,
            _opt(state, "csp.mixed_direction_rule"),
            span,
            into,
        )

    def start_pose(self, state: GameState, figure: Figure) -> Pose:
        """The figure's pose with its direction of motion as the tag."""
        rules = self.move_rules(state, figure)
        book = Book(figure)
        return Pose(
            figure.position, figure.facing, Motion(book.motion, book.oblique).tag(rules.counting)
        )

    def half_reach(self, state: GameState, figure: Figure) -> Reach:
        """Every pose the figure can reach in this half-phase, at its cheapest cost."""
        room = Room.around(state.board, state.figures.values(), figure, 1)
        blocked = [h for h, n in room.crowd.items() if n >= room.limit]
        steps = step_function(state.board, blocked, self.move_rules(state, figure))
        body = body_steps(steps, figure.footprint, room)
        return search(self.start_pose(state, figure), body, self.half_left(state, figure))

    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Where the figure may plan to go in this half-phase (before it has planned)."""
        if state.step.id != "move" or not self.who_acts(state).may_act(figure.id):
            return None
        return self.half_reach(state, figure)

    def _must_enter(self, state: GameState, figure: Figure) -> bool:
        """R-2: the phase at CS after a fast phase must enter a hex; checked in its last half."""
        if not state.options.get("csp.slowing_phase_must_move", True):
            return False
        book = Book(figure)
        last_half = self.half(state) == 2 or self.half_left(state, figure, 2) == 0
        return must_keep_moving(book.last) and book.hexes == 0 and last_half

    def destinations(self, state: GameState, figure: Figure) -> list[Hex]:
        """Hexes the figure may plan to end this half on (its own included, unless R-2)."""
        reach = self.half_reach(state, figure)
        hexes = sorted(reach.hex_costs(), key=lambda h: (h.q, h.r))
        if self._must_enter(state, figure) and len(hexes) > 1:
            hexes = [h for h in hexes if h != figure.position]
        return hexes

    def _plan_spec(self, state: GameState, figure: Figure) -> ActionSpec:
        left = self.half_left(state, figure)
        hexes = self.destinations(state, figure)
        n = Book(figure).n or 0
        to = FieldSpec(
            "to",
            "Destination",
            "hex",
            help="Where the figure stands at the end of this half-phase (its own hex: it "
            "stays, or only turns).",
            rule="CSP-9",
            choices=tuple(Choice(str(h), hex_label(h)) for h in hexes),
        )
        facing = FieldSpec(
            "facing",
            "Facing at the end",
            "facing",
            help=f"Each hexside turned costs {_hexes(change_cost(n))} at N = {n} "
            "(CSP-6, CSP-15, C-3).",
            rule="CSP-15",
            required=False,
        )
        motion = FieldSpec(
            "motion",
            "Direction of motion at the end",
            "choice",
            help="Relative to facing. A change of direction costs N hexes and moves nothing, "
            "so it can be made in one half and the step in the next (CSP-6, C-4).",
            rule="CSP-6",
            choices=tuple(Choice(d, d) for d in RELATIVE),
            required=False,
        )
        half = self.half(state)
        text = (
            f"Plan half-phase {half}: up to {_hexes(left)} "
            f"({'first half, rounded up' if half == 1 else 'second half, rounded down'}, CSP-9). "
            "Plans stay secret until everyone has planned, then all move together (CSP-8)."
        )
        return ActionSpec(
            "plan_half",
            "Plan this half's move",
            figure.id,
            (to, facing, motion),
            text,
            "CSP-8, CSP-9, CSP-10",
        )

    def plan_path(self, state: GameState, figure: Figure, action: Action) -> list[Step]:
        """The cheapest way to the planned hex (and facing and direction of motion, if given)."""
        to = action.hex("to")
        facing = action.params.get("facing")
        motion = action.params.get("motion")
        reach = self.half_reach(state, figure)
        book = Book(figure)
        candidates = []
        for pose, cost in reach.poses().items():
            m = Motion.read(pose.tag)
            if pose.hex != to or (facing is not None and pose.facing != facing):
                continue
            if motion is not None and m.direction != motion:
                continue
            keep = (pose.facing != figure.facing, m.direction != book.motion, m.debt)
            candidates.append((cost, keep, str(pose), pose))
        if not candidates:
            wanted = f"{hex_label(to)}" + (
                f" facing {FACING_NAMES[_int(facing)]}" if facing is not None else ""
            )
            wanted += f" moving {motion}" if motion is not None else ""
            raise IllegalActionError(
                f"{figure.name} cannot reach {wanted} with {_hexes(self.half_left(state, figure))} "
                f"in this half-phase (CSP-6, CSP-9, CSP-15)"
            )
        pose = min(candidates)[3]
        path = reach.path_to(pose)
        moves = any(s.kind == "move" for s in path)
        if (
            self._must_enter(state, figure)
            and not moves
            and len(self.destinations(state, figure)) > 1
        ):
            raise IllegalActionError(
                f"{figure.name} ran last phase and must spend this one moving at Combat "
                "Speed before stopping: it must enter at least one hex (CSP-16, R-2)"
            )
        return path

    def check_choice(self, state: GameState, action: Action) -> None:
        """A plan must be a move the figure can make (refused when it is made)."""
        if action.kind == "plan_half":
            self.plan_path(state, state.figure(action.figure), action)

    def reveal(self, state: GameState, choices: list[Action], dice: Dice) -> None:
        """Declarations take effect together; plans run together, tick by tick (C-11)."""
        if state.step.id == "declare":
            for action in choices:
                self.dispatch(state, action, dice)
            return
        self._run_half(state, {a.figure: a for a in choices if a.figure is not None})

    def _run_half(self, state: GameState, plans: Mapping[str, Action]) -> None:
        paths: dict[str, list[Step]] = {}
        ticks: dict[str, list[Pose]] = {}
        per_step = self._per_step(state)
        for fid, action in plans.items():
            f = state.figure(fid)
            paths[fid] = self.plan_path(state, f, action)
            ticks[fid] = tick_poses(
                self.start_pose(state, f),
                paths[fid],
                per_step=per_step,
                wait=self._finishing(state, f),
            )
        hexes = {fid: [p.hex for p in poses] for fid, poses in ticks.items()}
        if _opt(state, "csp.collision_rule") == "priority":

            def rank(fid: str) -> tuple[int, int, str]:
                f = state.figure(fid)
                return (-(Book(f).n or 0), -cs_of(f), fid)

            walked = lockstep(hexes, policy="priority", priority=sorted(hexes, key=rank))
        else:
            walked = lockstep(hexes)
        half = self.half(state)
        for fid in plans:
            self._moved(state, state.figure(fid), paths[fid], ticks[fid], walked[fid], half)
        self._report_separation(state, f"After half-phase {half}")

    def _per_step(self, state: GameState) -> bool:
        """R-4 'per_step': every step takes one tick of a half-phase, whatever it costs."""
        return _opt(state, "csp.tick_timing") == "per_step"

    def _finishing(self, state: GameState, figure: Figure) -> int:
        """Hexes at the start of this half that finish a change begun in the half before
        (C-10); they hold the figure in place for as many ticks (R-4 'per_hex')."""
        book = Book(figure)
        return book.debt if self.half(state) == 2 else book.owed

    def _moved(
        self,
        state: GameState,
        figure: Figure,
        path: list[Step],
        poses: list[Pose],
        walked: list[Hex],
        half: int,
    ) -> None:
        book = Book(figure)
        left = self.half_left(state, figure)
        done = len(walked) - 1
        cut = done < len(poses) - 1
        final = poses[done]
        start = figure.position
        entered = sum(1 for i in range(1, len(walked)) if walked[i] != walked[i - 1])
        m = Motion.read(final.tag)
        book_motion = book.motion
        place(state.figures.values(), figure, final.hex, final.facing)
        book.motion = m.direction
        book.oblique = m.oblique
        book.hexes += entered
        if half == 1:
            book.debt, book.owed = 0 if cut else m.debt, 0
        else:
            book.carry = 0 if cut else m.debt
        details: list[str] = []
        spent = 0
        per_step = self._per_step(state)
        ticks = 0 if per_step else self._finishing(state, figure)
        for step in path:
            ticks += ticks_of(step, per_step)
            if ticks > done:
                break
            spent += step.cost
            details.append(describe_step(step))
        n = book.n or 0
        if m.debt and not cut:
            into = "the second half (C-10)" if half == 1 else "the next phase (R-5)"
            details.append(f"{_hexes(m.debt)} of {into} go to finishing the change")
        if spent < left and not cut:
            which = "first" if half == 1 else "second"
            details.append(f"{_hexes(left - spent)} of the {which} half unused: lost (CSP-10)")
        if entered:
            text = (
                f"{figure.name} moves {_hexes(entered)}: "
                f"{hex_label(start)} → {hex_label(final.hex)} "
                f"({spent} of {left} in half-phase {half})"
            )
        elif final.facing != figure.facing:
            text = (
                f"{figure.name} stays at {hex_label(start)} and turns to face "
                f"{FACING_NAMES[final.facing]} ({spent} of {left} in half-phase {half})"
            )
        elif spent:
            text = (
                f"{figure.name} stays at {hex_label(start)} and changes direction of motion "
                f"{book_motion or '-'} → {m.direction} ({spent} of {left} in half-phase {half})"
            )
        else:
            text = (
                f"{figure.name} stays at {hex_label(start)} "
                f"(its {_hexes(left)} of half-phase {half} lost, CSP-10)"
            )
        if cut:
            text += ": stopped, another figure is in the way (C-11)"
        state.emit(
            Event(
                "move",
                text,
                figure.id,
                rule="CSP-8, CSP-9, CSP-10",
                details=tuple(details),
                data={
                    "from": str(start),
                    "to": str(final.hex),
                    "facing": final.facing,
                    "path": [str(h) for h in walked],
                    "hexes": entered,
                    "spent": spent,
                    "allowance": left,
                    "half": half,
                    "n": n,
                    "motion": m.direction,
                    "debt": book.debt if half == 1 else book.carry,
                    "stopped": cut,
                },
            )
        )

    def _report_separation(self, state: GameState, when: str) -> None:
        living = list(state.living())
        pairs: list[Json] = []
        words = []
        gap = _opt(state, "csp.narrative_distance") == "gap"
        for i, a in enumerate(living):
            for b in living[i + 1 :]:
                if a.side == b.side:
                    continue
                s = separation(state, a, b)
                pairs.append(
                    {"a": a.id, "b": b.id, "separation": s, "distance": figure_distance(a, b)}
                )
                words.append(
                    f"{a.name} and {b.name}: {_hexes(s)} {'between them' if gap else 'apart'}"
                )
        if words:
            state.emit(
                Event(
                    "separation",
                    f"{when}: " + "; ".join(words),
                    rule="C-17",
                    data={"pairs": pairs},
                )
            )

    def _end_phase(self, state: GameState) -> None:
        basis = _opt(state, "csp.speed_basis")
        rule = _opt(state, "csp.cs_phase_rule")
        for f in state.figures.values():
            book = Book(f)
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
                what = f"entered {_hexes(record.hexes)} at N = {record.n}"
            nexts = []
            if record.fast:
                nexts.append("may not stop next phase (CSP-16)")
            if book.owed:
                nexts.append(
                    f"finishes its turn with the first {_hexes(book.owed)} of next phase (R-5)"
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

    # ---- combat -----------------------------------------------------------------------
    def _strike_options(self, state: GameState, figure: Figure) -> list[tuple[Equipment, Figure]]:
        """(weapon, target) pairs the figure may strike with now (CSP-17, C-13, C-2, R-1)."""
        if state.step.id != "combat" or _opt(state, "csp.combat_resolver") == "none":
            return []
        limit = _int(state.options.get("csp.strikes_per_phase"), 1)
        if Book(figure).strikes >= limit or self.is_out(state, figure):
            return []
        pairs = []
        for item in weapons(figure):
            for target in state.living():
                if target.side != figure.side and strike_check(state, figure, target, item).allowed:
                    pairs.append((item, target))
        return pairs

    def _strike_spec(self, state: GameState, figure: Figure) -> ActionSpec | None:
        pairs = self._strike_options(state, figure)
        if not pairs:
            return None
        names = list(dict.fromkeys(item.name for item, _ in pairs))
        weapon = FieldSpec(
            "weapon",
            "Weapon",
            "choice",
            rule="CSP-17",
            choices=tuple(Choice(n, f"{n} (reach {weapon_reach(figure.item(n))})") for n in names),
        )
        target = FieldSpec(
            "target",
            "Target",
            "figure",
            help="Within the weapon's reach and the front arc (the text's, CSP-17, C-13).",
            rule="CSP-17, C-13",
            choices=tuple(Choice(t.id, t.name, when={"weapon": i.name}) for i, t in pairs),
        )
        params: tuple[FieldSpec, ...] = (weapon, target)
        resolver = _opt(state, "csp.combat_resolver")
        if resolver == "gm":
            params += (
                FieldSpec(
                    "outcome",
                    "The GM's ruling",
                    "choice",
                    help="The GM's ruling: the text has no to-hit rule (C-1).",
                    rule="C-1",
                    choices=(Choice("hit", "Hit"), Choice("miss", "Miss")),
                ),
            )
            if tracks_hp(state):
                params += (
                    FieldSpec(
                        "damage",
                        "GM: damage",
                        "int",
                        0,
                        "Hit points the target loses (0 on a miss). The text has no damage "
                        "(C-1, R-3).",
                        "R-3",
                        minimum=0,
                        maximum=99,
                        required=False,
                    ),
                )
            params += (
                FieldSpec(
                    "status",
                    "GM: status",
                    "choice",
                    "none",
                    "A status the hit gives, if any (R-3).",
                    "R-3",
                    tuple(
                        Choice(v, label, when={} if v == "none" else {"outcome": "hit"})
                        for v, label in STATUSES
                    ),
                    required=False,
                ),
            )
            label, help_text = (
                "Strike (GM rules the outcome)",
                "Reach, arc and impairment are the text's (CSP-17, C-13, CSP-3); whether the "
                "strike lands, its damage and any status are the GM's to enter (C-1).",
            )
        else:
            label, help_text = (
                "Strike (borrowed d20 roll)",
                "Reach, arc and impairment are the text's (CSP-17, C-13, CSP-3); the to-hit and "
                "damage roll is borrowed from the skirmish ruleset (C-1 option), with "
                "placeholder impaired and shield modifiers (C-2).",
            )
        return ActionSpec("strike", label, figure.id, params, help_text, "CSP-17, C-1, C-13")

    def _strike_parts(
        self, state: GameState, action: Action
    ) -> tuple[Figure, Figure, Equipment, list[str]]:
        attacker = state.figure(action.figure)
        target = state.figure(action.text("target"))
        try:
            item = attacker.item(action.text("weapon"))
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from exc
        check = strike_check(state, attacker, target, item)
        if not check.allowed:
            raise IllegalActionError(check.reason)
        return attacker, target, item, list(check.lines)

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """A strike: the text's checks, then the GM's ruling or the borrowed roll."""
        attacker, target, item, lines = self._strike_parts(state, action)
        Book(attacker).strikes += 1
        if _opt(state, "csp.combat_resolver") == "skirmish":
            self._borrowed(state, attacker, target, item, lines, dice)
            return
        outcome = action.text("outcome")
        damage = action.integer("damage", 0)
        status = action.text("status", "none")
        if outcome == "miss" and (damage or status != "none"):
            raise IllegalActionError("a miss does no damage and gives no status (C-1)")
        hp = target.pools.get("hp")
        later = self._later(state)
        words = "hits" if outcome == "hit" else "misses"
        text = f"{attacker.name} {words} {target.name} with the {item.name}"
        rule = "CSP-17, C-1"
        if outcome == "hit":
            hurt = self._hurt(state, target, 0 if hp is None else damage, status)
            if hurt:
                text += f": {hurt}"
            rule += ", R-7" if later else ""
        text += " (GM's ruling, C-1)"
        state.emit(
            Event(
                "strike",
                text,
                attacker.id,
                target.id,
                rule=rule,
                details=(*lines, *gm_lines(outcome, None if hp is None else damage, status)),
                data={
                    "source": "gm",
                    "weapon": item.name,
                    "outcome": outcome,
                    "damage": damage if outcome == "hit" else 0,
                    "status": status,
                    "hp": None if hp is None else hp.current,
                    "separation": separation(state, attacker, target),
                    "lands": "end_of_combat" if later else "at_once",
                },
            )
        )
        if not later:
            self._maybe_down(state, target)

    def _borrowed(
        self,
        state: GameState,
        attacker: Figure,
        target: Figure,
        item: Equipment,
        lines: list[str],
        dice: Dice,
    ) -> None:
        chain = borrowed_chain(state, attacker, target, item)
        result = chain.roll(dice)
        hit = result.results[0]
        assert isinstance(hit, CheckResult)
        damage = result.result("damage")
        hp = target.pools["hp"]
        amount = damage.total if isinstance(damage, AmountResult) else 0
        later = self._later(state)
        text = f"{attacker.name} strikes {target.name} with the {item.name}: "
        text += f"hit, {self._hurt(state, target, amount, 'none')}" if damage else "miss"
        text += " (roll borrowed from skirmish, C-1)"
        state.emit(
            Event(
                "strike",
                text,
                attacker.id,
                target.id,
                rule="CSP-17, C-1, C-2" + (", R-7" if later and damage else ""),
                details=(*lines, *chain.stages[0].rollable.breakdown(), *result.lines()),
                rolls=tuple(r.to_json() for r in result.rolls),
                data={
                    "source": "skirmish",
                    "weapon": item.name,
                    "outcome": "hit" if damage else "miss",
                    "damage": amount,
                    "hp": hp.current,
                    "lands": "end_of_combat" if later else "at_once",
                },
            )
        )
        if not later:
            self._maybe_down(state, target)

    def _later(self, state: GameState) -> bool:
        """R-7 'end_of_combat': a phase's strikes land together when the combat step ends."""
        return _opt(state, "csp.strike_effects") == "end_of_combat"

    def _hurt(self, state: GameState, target: Figure, damage: int, status: str) -> str:
        """A hit's damage (with hit points, R-3) and status: taken now, or kept for the end of
        the combat step (R-7). Returns the words for the strike's log line."""
        hp = target.pools.get("hp")
        parts = []
        if self._later(state):
            pending = self._pending(target)
            pending["damage"] = _int(pending.get("damage")) + damage
            statuses = pending.get("statuses")
            pending["statuses"] = [
                *(statuses if isinstance(statuses, list) else []),
                *([status] if status != "none" else []),
            ]
            target.memory["pending"] = pending
            if hp is not None:
                parts.append(f"{damage} damage")
        elif hp is not None:
            hp.current = max(0, hp.current - damage)
            parts.append(f"{damage} damage ({hp.current}/{hp.maximum} hp left)")
        if status != "none":
            if not self._later(state):
                target.statuses[status] = Status(status, note="GM's ruling (R-3)")
            parts.append(dict(STATUSES)[status].split(" (")[0].lower())
        if parts and self._later(state):
            parts.append("at the end of the combat step")
        return ", ".join(parts)

    @staticmethod
    def _pending(figure: Figure) -> dict[str, Json]:
        """What strikes this phase will do to the figure when the combat step ends (R-7)."""
        pending = figure.memory.get("pending")
        return dict(pending) if isinstance(pending, dict) else {}

    def _land(self, state: GameState) -> None:
        """R-7 'end_of_combat': the phase's strikes land together, figure by figure in the
        set-up's order (damage adds up, statuses in the table's order: entry order is lost)."""
        for f in state.figures.values():
            pending = self._pending(f)
            f.memory.pop("pending", None)
            if not pending:
                continue
            damage = _int(pending.get("damage"))
            given = pending.get("statuses")
            statuses = [s for s, _ in STATUSES if isinstance(given, list) and s in given]
            hp = f.pools.get("hp")
            parts = []
            if hp is not None:
                hp.current = max(0, hp.current - damage)
                parts.append(f"{damage} damage ({hp.current}/{hp.maximum} hp left)")
            for status in statuses:
                f.statuses[status] = Status(status, note="GM's ruling (R-3)")
                parts.append(dict(STATUSES)[status].split(" (")[0].lower())
            if not parts:
                continue
            state.emit(
                Event(
                    "status",
                    f"{f.name}: {', '.join(parts)}, as the phase's strikes land together (R-7)",
                    f.id,
                    rule="R-7",
                    data={
                        "hp_lost": damage,
                        "hp": None if hp is None else hp.current,
                        "statuses": list(statuses),
                    },
                )
            )
            self._maybe_down(state, f)

    def _maybe_down(self, state: GameState, target: Figure) -> None:
        hp = target.pools.get("hp")
        if hp is not None and hp.current == 0 and not target.has_status("down"):
            target.statuses["down"] = Status("down")
        if target.has_status("down"):
            state.emit(Event("status", f"{target.name} is down", target.id, rule="R-3"))

    # ---- handlers ------------------------------------------------------------------------
    def do_declare_speed(self, state: GameState, action: Action, dice: Dice) -> None:
        """A revealed declaration: N, the allowance and its halves, impairment (CSP-3, CSP-9)."""
        figure = state.figure(action.figure)
        n = action.integer("n")
        if n not in self.multiples(state, figure):
            last, rule = Book(figure).last, _opt(state, "csp.cs_phase_rule")
            why = why_not(n, last, cs_of(figure), on_knees=on_knees(figure), rule=rule) or (
                "it must finish the turn it began last phase (R-5)"
            )
            raise IllegalActionError(f"{figure.name} cannot declare N = {n} now: {why}")
        book = Book(figure)
        book.n = n
        cs = cs_of(figure)
        m = allowance(n, cs)
        h1, h2 = half_split(m)
        details = [
            f"M = N x CS = {n} x {cs} = {m} (CSP-4, CSP-11)",
            f"Half-phase 1: {m}/2 rounded up = {h1}; half-phase 2: rounded down = {h2} (CSP-9)",
        ]
        if book.owed:
            details.append(f"The first {_hexes(book.owed)} finish last phase's turn (R-5)")
        if n > 1:
            figure.statuses["impaired"] = Status("impaired", note="N > 1 this phase (CSP-3)")
            details.append("Faster than Combat Speed: weapons and shields impaired (CSP-3, C-2)")
            details.append(f"Each facing or direction change costs {n} hexes (CSP-15)")
        text = (
            f"{figure.name} stands still this phase (N = 0)"
            if n == 0
            else f"{figure.name} declares N = {n}: {_hexes(m)} this phase ({h1} + {h2})"
        )
        if n > 1:
            text += ", impaired"
        state.emit(
            Event(
                "speed",
                text,
                figure.id,
                rule="CSP-8, CSP-9, C-7",
                details=tuple(details),
                data={"n": n, "m": m, "h1": h1, "h2": h2, "impaired": n > 1},
            )
        )

    # ---- previews ------------------------------------------------------------------------
    def preview(self, state: GameState, action: Action) -> Preview:
        """Cost and path of a plan, the halves of a declaration, the checks of a strike."""
        try:
            return self._preview(state, action)
        except IllegalActionError as exc:
            return Preview(action, False, str(exc))

    def _preview(self, state: GameState, action: Action) -> Preview:
        figure = state.figure(action.figure)
        if action.kind == "plan_half":
            path = self.plan_path(state, figure, action)
            reach = self.half_reach(state, figure)
            return Preview(
                action,
                True,
                cost=sum(s.cost for s in path),
                path=(figure.position, *(s.pose.hex for s in path if s.kind == "move")),
                notes=tuple(_sentence(describe_step(s)) for s in path),
                highlights={"reach": tuple(reach.hex_costs())},
            )
        if action.kind == "declare_speed":
            n = action.integer("n")
            m = allowance(n, cs_of(figure))
            h1, h2 = half_split(m)
            notes = [f"{_hexes(m)} this phase: {h1} in the first half, {h2} in the second (CSP-9)"]
            if n > 1:
                notes.append("Impaired this phase: weapons and shields (CSP-3, C-2)")
                notes.append(f"Each facing or direction change costs {n} hexes (CSP-15)")
            return Preview(action, True, notes=tuple(notes))
        if action.kind == "strike":
            attacker, target, item, lines = self._strike_parts(state, action)
            highlights = {"target": target.hexes()}
            if _opt(state, "csp.combat_resolver") == "skirmish":
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

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure has nothing to do in this step."""
        step = state.step.id
        if step == "move" and self.half_left(state, figure) == 0:
            n = Book(figure).n or 0
            if n == 0:
                return "Standing still this phase (N = 0)."
            h1, h2 = half_split(allowance(n, cs_of(figure)))
            return f"No hexes in this half-phase (N x CS splits {h1} + {h2}, CSP-9)."
        if step == "combat":
            if _opt(state, "csp.combat_resolver") == "none":
                return "Movement only: the text has no combat resolution (C-1)."
            if Book(figure).strikes:
                return "Has struck this phase (R-1)."
            no_attack = _opt(state, "csp.fast_move_penalty") == "no_attack_no_shield"
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
            "phase_hexes": "Hexes this phase (N x CS)",
            "half_hexes": "This half-phase",
            "entered_hexes": "Hexes entered this phase",
            "motion_dir": "Direction of motion",
            "turn_cost": "A turn costs",
            "may_run": "May run next",
            "may_stop": "May stand still",
            "reaches": "Weapon reach",
            "pending_hits": "Strikes landing at the end of combat",
            "on_knees": "On its knees",
        }
        return words.get(key, super().view_label(key))

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Combat Speed, N, allowances, direction of motion, turn cost and reaches."""
        book = Book(figure)
        cs = cs_of(figure)
        view: dict[str, Json] = {"cs_hexes": cs}
        n = book.n
        if n is not None:
            m = allowance(n, cs)
            h1, h2 = half_split(m)
            view.update(
                n_now=n,
                phase_hexes=f"{m} ({h1} + {h2})",
                entered_hexes=book.hexes,
                turn_cost=_hexes(change_cost(n)),
            )
            if state.step.id == "move":
                view["half_hexes"] = self.half_left(state, figure)
        view["motion_dir"] = book.motion or "none (standstill)"
        multiples = self.multiples(state, figure)
        view["may_run"] = max(multiples) > 1
        view["may_stop"] = 0 in multiples
        view["reaches"] = (
            ", ".join(f"{i.name} {weapon_reach(i)}" for i in weapons(figure)) or "none"
        )
        pending = self._pending(figure)
        if pending:
            given = pending.get("statuses")
            words = [f"{_int(pending.get('damage'))} damage"] if "hp" in figure.pools else []
            words += [label for s, label in STATUSES if isinstance(given, list) and s in given]
            view["pending_hits"] = ", ".join(words) or "no effect"
        return view

    def invariant_problems(self, state: GameState) -> list[str]:
        """The core invariants, plus N within its limits and hexes within N x CS."""
        problems = super().invariant_problems(state)
        for f in state.figures.values():
            book = Book(f)
            n = book.n
            if n is None:
                continue
            if not 0 <= n <= 6:
                problems.append(f"{f.id} declared N = {n}")
            if book.hexes > allowance(n, cs_of(f)):
                problems.append(f"{f.id} entered {book.hexes} hexes at N = {n}")
            if n > 1 and not is_impaired(f):
                problems.append(f"{f.id} runs at N = {n} but is not impaired")
        return problems


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
