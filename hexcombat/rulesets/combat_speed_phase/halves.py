"""Half-phase planning and movement of ``combat-speed-phase`` (CSP-5...CSP-10, C-10, C-11).

Each figure plans its half-phase in secret: a destination, and if it likes a facing and
a direction of motion; the cheapest way there is made (moving in the direction of
facing first, CSP-5). The plans run together, tick by tick, when the last is in (C-11).
"""

from __future__ import annotations

from collections.abc import Mapping

from hexcombat.actions import Action, ActionSpec
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure, figure_distance, is_standing, place
from hexcombat.geometry import Hex
from hexcombat.kept_searches import KeptSearches
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Reach, Room, Step, body_steps, lockstep, search
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.combat_speed_phase.combat import separation
from hexcombat.rulesets.combat_speed_phase.moves import (
    FACING_NAMES,
    RELATIVE,
    Motion,
    MoveRules,
    describe_step,
    motion_words,
    step_function,
    tick_poses,
    ticks_of,
)
from hexcombat.rulesets.combat_speed_phase.situation import cs_of, hexes_text, opt_text
from hexcombat.rulesets.combat_speed_phase.speed import (
    allowance,
    change_cost,
    half_allowance,
    half_split,
    must_keep_moving,
)
from hexcombat.rulesets.combat_speed_phase.state import FigureBook
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.moves import WalkedMove
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

HALF_REACHES: KeptSearches[Reach] = KeptSearches()
"""Half-phase searches kept by what they read (:meth:`HalfPhases.half_reach`)."""


class HalfPhases(Ruleset):
    """The half-phases of a phase: allowances, plans, and the lockstep that runs them."""

    def half(self, state: GameState) -> int:
        """The half-phase under way (1 or 2)."""
        return state.clock.counters[1]

    def half_left(self, state: GameState, figure: Figure, half: int | None = None) -> int:
        """Hexes of movement in a half-phase: ceil or floor of N x CS / 2 (CSP-9), less a
        change carried over from the half before (C-10; from the last phase, R-5)."""
        book = FigureBook(figure)
        n = book.n or 0
        h = self.half(state) if half is None else half
        left = half_allowance(allowance(n, cs_of(figure)), h)
        return max(0, left - (book.debt if h == 2 else book.owed))

    # ---- movement ---------------------------------------------------------------------
    def move_rules(self, state: GameState, figure: Figure) -> MoveRules:
        """The figure's step rules in the current half-phase."""
        n = FigureBook(figure).n or 0
        forward = frozenset(
            {"F"} if opt_text(state, "csp.forward_dirs") == "F" else {"F", "FL", "FR"}
        )
        span, into = 0, "the second half (C-10)"
        if opt_text(state, "csp.turn_cost_split") == "span":
            if self.half(state) == 1:
                span = self.half_left(state, figure, 2)
            elif state.options.get("csp.turn_into_next_phase") is True:
                span, into = half_split(cs_of(figure))[0], "the next phase (C-10, R-5)"
        return MoveRules(
            n,
            cs_of(figure),
            opt_text(state, "csp.facing_cost"),
            forward,
            opt_text(state, "csp.mixed_direction_rule"),
            span,
            into,
        )

    def start_pose(self, state: GameState, figure: Figure) -> Pose:
        """The figure's pose with its direction of motion as the tag."""
        rules = self.move_rules(state, figure)
        book = FigureBook(figure)
        return Pose(
            figure.position, figure.facing, Motion(book.motion, book.oblique).tag(rules.counting)
        )

    def half_reach(self, state: GameState, figure: Figure) -> Reach:
        """Every pose the figure can reach in this half-phase, at its cheapest cost.

        Only figures that are out block a plan: a living figure's hex may be free by the
        tick the mover gets there, and C-11 stops a step only into a hex occupied then.
        Kept by everything the search reads (a plan is offered, checked, revealed and
        imagined by the autopilot on equal states)."""
        lying = [f for f in state.figures.values() if f.id != figure.id and self.is_out(state, f)]
        rules = self.move_rules(state, figure)
        start, left = self.start_pose(state, figure), self.half_left(state, figure)
        bodies = tuple((f.id, f.mounted_on, is_standing(f), f.hexes()) for f in lying)
        mover = (type(self), figure.id, figure.mounted_on, figure.footprint)
        key = (mover, start, left, rules, bodies)

        def walk() -> Reach:
            room = Room.around(state.board, lying, figure, 1)
            blocked = [h for h, n in room.crowd.items() if n >= room.limit]
            body = body_steps(step_function(state.board, blocked, rules), figure.footprint, room)
            return search(start, body, left)

        return HALF_REACHES.get(state.board, key, walk)

    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Where the figure may plan to go in this half-phase (before it has planned)."""
        if state.step.id != "move" or not self.who_acts(state).may_act(figure.id):
            return None
        return self.half_reach(state, figure)

    def _must_enter(self, state: GameState, figure: Figure) -> bool:
        """R-2: the phase at CS after a fast phase must enter a hex; checked in its last half."""
        if not state.options.get("csp.slowing_phase_must_move", True):
            return False
        book = FigureBook(figure)
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
        n = FigureBook(figure).n or 0
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
            help=f"Each hexside turned costs {hexes_text(change_cost(n))} at N = {n} "
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
            choices=tuple(Choice(d, motion_words(d).capitalize()) for d in RELATIVE),
            required=False,
        )
        half = self.half(state)
        text = (
            f"Plan half-phase {half}: up to {hexes_text(left)} "
            f"({'first half, rounded up' if half == 1 else 'second half, rounded down'}, CSP-9). "
            "Plans stay secret until everyone has planned, then all move together (CSP-8)."
        )
        return ActionSpec(
            "plan_half",
            "Plan this half's move",
            figure.id,
            (to, facing, motion) if left else (to,),  # no hex to move or turn: it stays (C-7)
            text,
            "CSP-8, CSP-9, CSP-10",
        )

    def plan_path(self, state: GameState, figure: Figure, action: Action) -> list[Step]:
        """The cheapest way to the planned hex (and facing and direction of motion, if given)."""
        to = action.hex("to")
        facing = action.params.get("facing")
        motion = action.params.get("motion")
        reach = self.half_reach(state, figure)
        book = FigureBook(figure)
        candidates = []
        for pose, cost in reach.poses().items():
            m = Motion.read(pose.tag)
            if pose.hex != to or (facing is not None and pose.facing != facing):
                continue
            if motion is not None and m.direction != motion:
                continue
            candidates.append((cost, pose.facing != figure.facing, pose))
        if not candidates:
            wanted = f"{hex_label(to)}" + (
                f" facing {FACING_NAMES[int_or(facing, 0)]}" if facing is not None else ""
            )
            wanted += f" moving to the {motion_words(str(motion))}" if motion is not None else ""
            rules = self.move_rules(state, figure)
            if isinstance(motion, str) and not rules.allows(motion, book.oblique):
                raise IllegalActionError(
                    f"{figure.name} cannot reach {wanted}: at N = {rules.n}, backward or "
                    "oblique movement is limited to 2 x CS (CSP-11, C-6)"
                )
            raise IllegalActionError(
                f"{figure.name} cannot reach {wanted} with "
                f"{hexes_text(self.half_left(state, figure))} "
                f"in this half-phase (CSP-6, CSP-9, CSP-15)"
            )
        best = min(c[:2] for c in candidates)
        pose, path = min(
            ((p, reach.path_to(p)) for c, turned, p in candidates if (c, turned) == best),
            key=lambda pp: _facing_first(pp[0], pp[1], book.motion),
        )
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
        for f in state.figures.values():  # those not moving hold their hexes (C-11)
            if f.id not in hexes and is_standing(f):
                hexes[f.id] = [f.position]
        if opt_text(state, "csp.collision_rule") == "priority":

            def rank(fid: str) -> tuple[int, int, str]:
                f = state.figure(fid)
                return (-(FigureBook(f).n or 0), -cs_of(f), fid)

            walked = lockstep(hexes, policy="priority", priority=sorted(hexes, key=rank))
        else:
            walked = lockstep(hexes)
        half = self.half(state)
        for fid in plans:
            self._moved(state, state.figure(fid), paths[fid], ticks[fid], walked[fid], half)
        self._report_separation(state, f"After half-phase {half}")

    def _per_step(self, state: GameState) -> bool:
        """R-4 'per_step': every step takes one tick of a half-phase, whatever it costs."""
        return opt_text(state, "csp.tick_timing") == "per_step"

    def _finishing(self, state: GameState, figure: Figure) -> int:
        """Hexes at the start of this half that finish a change begun in the half before
        (C-10); they hold the figure in place for as many ticks (R-4 'per_hex')."""
        book = FigureBook(figure)
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
        book = FigureBook(figure)
        left = self.half_left(state, figure)
        move = WalkedMove(figure.position, poses, walked)
        done, cut, final, entered = move.ticks, move.cut, move.end, move.entered
        start, facing = figure.position, figure.facing
        m = Motion.read(final.tag)
        book_motion = book.motion
        _record_move(state, figure, final, m, entered, half, cut)
        spent, details = self._walked_steps(state, figure, path, done)
        stopped = cut or (spent < left and not m.debt)
        if half == 1 and stopped and opt_text(state, "csp.half_phase_stop") == "standstill":
            book.motion = ""  # C-4 option: it stood still, the second half starts free
        n = book.n or 0
        if m.debt and not cut:
            into = "the second half (C-10)" if half == 1 else "the next phase (R-5)"
            details.append(f"{hexes_text(m.debt)} of {into} go to finishing the change")
        if spent < left and not cut:
            which = "first" if half == 1 else "second"
            details.append(f"{hexes_text(left - spent)} of the {which} half unused: lost (CSP-10)")
        moved = (start, facing, final, entered)
        text = _move_text(figure, moved, spent, left, half, (book_motion, m.direction))
        if cut:
            text += ": stopped, another figure is in the way (C-11)"
        state.emit(
            Event(
                "move",
                text,
                figure.id,
                rule="CSP-8, CSP-9, CSP-10",
                details=tuple(details),
                data=move.data(
                    spent=spent,
                    allowance=left,
                    half=half,
                    n=n,
                    motion=m.direction,
                    debt=book.debt if half == 1 else book.carry,
                    stopped=cut,
                ),
            )
        )

    def _walked_steps(
        self, state: GameState, figure: Figure, path: list[Step], done: int
    ) -> tuple[int, list[str]]:
        """The movement spent on the steps walked (``done`` ticks of the path) and each step
        in words."""
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
        return spent, details

    def _report_separation(self, state: GameState, when: str) -> None:
        living = list(state.living())
        pairs: list[Json] = []
        words = []
        gap = opt_text(state, "csp.narrative_distance") == "gap"
        for i, a in enumerate(living):
            for b in living[i + 1 :]:
                if a.side == b.side:
                    continue
                s = separation(state, a, b)
                pairs.append(
                    {"a": a.id, "b": b.id, "separation": s, "distance": figure_distance(a, b)}
                )
                words.append(
                    f"{a.name} and {b.name}: {hexes_text(s)} {'between them' if gap else 'apart'}"
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


def _facing_first(pose: Pose, path: list[Step], motion: str) -> tuple[int, int, int, int, int]:
    """Which of equally cheap plans to the same hex is made (CSP-5: 'movement is normally in
    the direction of facing'): fewest hexes entered off the facing, then ending on the move
    forward, then keeping the direction of motion, then no change left to finish (C-10);
    last, the direction of motion in facing order from front, then the facing."""
    m = Motion.read(pose.tag)
    off = sum(1 for s in path if s.kind == "move" and Motion.read(s.pose.tag).direction != "F")
    order = RELATIVE.index(m.direction) if m.direction in RELATIVE else -1
    return (off, m.direction != "F", m.direction != motion, m.debt, order * 6 + pose.facing)


def _record_move(
    state: GameState, figure: Figure, final: Pose, m: Motion, entered: int, half: int, cut: bool
) -> None:
    """Put ``figure`` where its move ended and keep its motion, hexes and debt in its book."""
    book = FigureBook(figure)
    place(state.figures.values(), figure, final.hex, final.facing)
    book.motion = m.direction
    book.oblique = m.oblique
    book.hexes += entered
    if half == 1:
        book.debt, book.owed = 0 if cut else m.debt, 0
    else:
        book.carry = 0 if cut else m.debt


def _move_text(
    figure: Figure,
    moved: tuple[Hex, int, Pose, int],
    spent: int,
    left: int,
    half: int,
    motions: tuple[str, str],
) -> str:
    """The move in words: hexes entered, a turn, a change of direction of motion, or a
    half-phase lost (``moved``: where it started and its facing there, its last pose, how many
    hexes it entered; ``motions``: the direction of motion before and after)."""
    start, facing, final, entered = moved
    before, after = motions
    if entered:
        return (
            f"{figure.name} moves {hexes_text(entered)}: "
            f"{hex_label(start)} → {hex_label(final.hex)} "
            f"({spent} of {left} in half-phase {half})"
        )
    if final.facing != facing:
        return (
            f"{figure.name} stays at {hex_label(start)} and turns to face "
            f"{FACING_NAMES[final.facing]} ({spent} of {left} in half-phase {half})"
        )
    if spent:
        return (
            f"{figure.name} stays at {hex_label(start)} and changes direction of motion "
            f"{motion_words(before)} → {motion_words(after)} "
            f"({spent} of {left} in half-phase {half})"
        )
    return (
        f"{figure.name} stays at {hex_label(start)} "
        f"(its {hexes_text(left)} of half-phase {half} lost, CSP-10)"
    )
