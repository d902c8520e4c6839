"""``skirmish``: a small built-in ruleset that exercises the engine core end to end.

It is not one of the four source rulesets. Each round has a movement step
(every figure may move up to its Move in movement points, paying terrain
costs, and face any way) and an attack step (one melee attack on an adjacent
enemy, or one sharing its hex when ``skirmish.stacking`` allows: d20 + Attack
meets or beats Defence, +2 from the target's rear hexes; a hit deals the
attacker's damage dice to the target's hit points). A figure covering several
hexes (a footprint) moves and turns as one body. The attack previews and rolls
as a chain: hit -> damage.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..actions import Action, ActionSpec
from ..board import Board
from ..checks import Amount, AmountResult, Chain, Check, CheckResult, Modifier, Stage
from ..dice import Dice, DiceSyntaxError, parse
from ..errors import IllegalActionError, Problem
from ..events import Event
from ..figures import Figure, Pool, Status, figure_distance, nearest_hexes, place
from ..geometry import DIRECTION_SHORT, direction_to, neighbors, rear_hexes
from ..layout import hex_label
from ..movement import Pose, Reach, Room, Step, StepFunction, body_steps, search
from ..schema import Choice, FieldSpec
from ..state import GameState
from ..terrain import TerrainTable
from ..time import Acting, StepDef, Time
from ..validation import Json
from .base import Preview, Ruleset
from .data import load
from .manifest import Manifest
from .registry import register

FACINGS = tuple(Choice(i, label) for i, label in enumerate(DIRECTION_SHORT))


@register
class Skirmish(Ruleset):
    """The engine's own minimal ruleset: move with terrain costs, then one d20 melee attack."""

    id = "skirmish"
    name = "Skirmish (engine demo)"
    summary = "Minimal built-in rules: move with terrain costs, then a d20 melee attack."
    default_die = 20
    stacking_option = "skirmish.stacking"
    starter = True
    options = (
        FieldSpec(
            "skirmish.stacking",
            "Figures per hex",
            "int",
            1,
            "How many figures may share a hex.",
            minimum=1,
            maximum=4,
        ),
        FieldSpec(
            "skirmish.rear_bonus",
            "Rear attack bonus",
            "int",
            2,
            "Added to an attack made from one of the target's rear hexes.",
            minimum=0,
            maximum=10,
        ),
    )
    figure_fields = (
        FieldSpec("move", "Move", "int", 4, "Movement points per round.", minimum=0, maximum=20),
        FieldSpec(
            "attack", "Attack", "int", 3, "Added to the d20 attack roll.", minimum=-5, maximum=20
        ),
        FieldSpec(
            "defence",
            "Defence",
            "int",
            12,
            "An attack total must reach this to hit.",
            minimum=1,
            maximum=30,
        ),
        FieldSpec(
            "hp", "Hit points", "int", 10, "Damage the figure can take.", minimum=1, maximum=200
        ),
        FieldSpec("damage", "Damage dice", "text", "d6", "Dice rolled for damage on a hit."),
    )
    time = Time(
        ("round",),
        (
            StepDef(
                "move", "Movement", "move", help="Each figure may move once, paying terrain costs."
            ),
            StepDef(
                "attack", "Attacks", "act", help="Each figure may attack one adjacent enemy once."
            ),
        ),
    )
    terrain = TerrainTable.from_json(load("skirmish")["terrain"])
    manifest = Manifest(
        package="hexcombat/rulesets", builder="demo_skirmish:skirmish_demo", demo="skirmish.json"
    )  # no rules spec: no rule ids, no coverage table

    # ---- set-up ----------------------------------------------------------
    def start(self, state: GameState) -> None:
        """Give every figure its hit-point pool, then begin the first step."""
        for f in state.figures.values():
            hp = _int(f.stats.get("hp"), 1)
            f.pools.setdefault("hp", Pool(hp, hp))
        self.start_step(state)

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus damage dice that must parse."""
        problems = super().figure_problems(figure, data)
        damage = figure.stats.get("damage")
        if isinstance(damage, str):
            try:
                parse(damage, self.default_die)
            except DiceSyntaxError as exc:
                problems.append(Problem("stats.damage", str(exc)))
        return problems

    def start_step(self, state: GameState) -> None:
        """A new step: nobody has moved or attacked in it yet."""
        state.memory["done"] = []

    def is_out(self, state: GameState, figure: Figure) -> bool:
        """Down at 0 hit points."""
        return figure.has_status("down")

    def acting(self, state: GameState) -> Acting:
        """Everyone at once, in any order; those who have not moved or attacked yet wait."""
        living = tuple(f.id for f in state.living())
        done = _done(state)
        return Acting("all", living, waiting=tuple(f for f in living if f not in done))

    # ---- movement ----------------------------------------------------------
    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Hexes within Move points, paying terrain costs, not through full hexes.

        Facing is free, so a one-hex figure's search ignores it (one pose per
        hex). A figure covering several hexes faces the way it steps and may
        turn in place, wherever its whole body fits. A rider moves only with its mount.
        """
        if state.step.id != "move" or figure.id in _done(state) or figure.mounted_on:
            return None
        room = self._room(state, figure)
        board = state.board
        body = bool(figure.footprint)

        def steps(pose: Pose, spent: int, allowance: int) -> Iterable[Step]:
            for direction, nxt in enumerate(neighbors(pose.hex)):
                if not room.is_free(nxt):
                    continue
                cost = board.terrain_at(nxt).move_cost
                if cost is not None and spent + cost <= allowance:
                    yield Step("move", Pose(nxt, direction if body else 0), cost)
            if body:
                for turn in (1, -1):
                    yield Step("turn", Pose(pose.hex, (pose.facing + turn) % 6), 0)

        start = Pose(figure.position, figure.facing if body else 0)
        allowance = _int(figure.stats.get("move"), 0)
        if not body:
            return search(start, self._one_hex_steps(board, room), allowance)
        return search(start, body_steps(steps, figure.footprint, room), allowance)

    _move_table: tuple[Board, dict[tuple[int, int], tuple[tuple[tuple[int, int], Step], ...]]]

    def _one_hex_steps(self, board: Board, room: Room) -> StepFunction:
        """The same steps for a one-hex figure, cheaper: the steps out of a hex depend only on
        the board, so they are made once per board (kept for the last board seen, which every
        state of an encounter shares, so every figure's search) and the hexes other figures
        fill are left out per search; the search itself drops steps past the allowance."""
        cached = getattr(self, "_move_table", None)
        if cached is None or cached[0] is not board:
            cached = self._move_table = (board, {})
        table = cached[1]
        full = {(h.q, h.r) for h, n in room.crowd.items() if n >= room.limit}
        contains, terrain_at = board.contains, board.terrain_at

        def steps(pose: Pose, spent: int, allowance: int) -> list[Step]:
            h = pose.hex
            key = (h.q, h.r)
            moves = table.get(key)
            if moves is None:
                made = []
                for nxt in neighbors(h):
                    if contains(nxt):
                        cost = terrain_at(nxt).move_cost
                        if cost is not None:
                            made.append(((nxt.q, nxt.r), Step("move", Pose(nxt, 0), cost)))
                moves = table[key] = tuple(made)
            return [step for at, step in moves if at not in full]

        return steps

    def _room(self, state: GameState, figure: Figure) -> Room:
        limit = self.stacking(state.options)
        return Room.around(state.board, state.figures.values(), figure, limit)

    def _facings(self, state: GameState, figure: Figure) -> tuple[Choice, ...]:
        """The facings the figure can turn to where it stands (all six for one hex)."""
        if not figure.footprint:
            return FACINGS

        def turns(pose: Pose, spent: int, allowance: int) -> Iterable[Step]:
            return (Step("turn", Pose(pose.hex, f), 0) for f in range(6))

        fits = body_steps(turns, figure.footprint, self._room(state, figure))
        able = {s.pose.facing for s in fits(Pose(figure.position, figure.facing), 0, 0)}
        return tuple(c for c in FACINGS if c.value in able)

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Move and face in the movement step; attack an enemy within one hex in the attack step."""
        if figure.id in _done(state):
            return []
        if state.step.id == "move":
            reach = self.reach(state, figure)
            costs = reach.hex_costs() if reach else {}
            hexes = tuple(
                Choice(str(h), f"{hex_label(h)} ({cost} MP)")
                for h, cost in sorted(costs.items())
                if h != figure.position
            )
            if figure.mounted_on:
                return []
            specs = [
                ActionSpec(
                    "face",
                    "Face",
                    figure.id,
                    (
                        FieldSpec(
                            "facing", "Facing", "facing", choices=self._facings(state, figure)
                        ),
                    ),
                    "Turn to face any hexside your body has room to turn to; free.",
                )
            ]
            if hexes:
                specs.insert(
                    0,
                    ActionSpec(
                        "move",
                        "Move",
                        figure.id,
                        (FieldSpec("to", "Destination", "hex", choices=hexes),),
                        "Move along the cheapest path; ends your movement for the round.",
                    ),
                )
            return specs
        targets = tuple(Choice(t.id, t.name) for t in self._targets(state, figure))
        if not targets:
            return []
        return [
            ActionSpec(
                "attack",
                "Attack",
                figure.id,
                (FieldSpec("target", "Target", "figure", choices=targets),),
                "d20 + Attack against the target's Defence.",
            )
        ]

    def do_move(self, state: GameState, action: Action, dice: Dice) -> None:
        """Walk the cheapest path to the chosen hex and face along the last step."""
        figure = state.figure(action.figure)
        reach = self.reach(state, figure)
        assert reach is not None  # move is offered only when the figure can move
        path = reach.path_to(action.hex("to"))
        start = figure.position
        hexes = [start, *(s.pose.hex for s in path if s.kind == "move")]
        final = path[-1].pose
        facing = final.facing if figure.footprint else direction_to(hexes[-2], final.hex) or 0
        place(state.figures.values(), figure, final.hex, facing)
        _done(state).append(figure.id)
        cost = sum(s.cost for s in path)
        state.emit(
            Event(
                "move",
                f"{figure.name} moves {hex_label(start)} → {hex_label(figure.position)} "
                f"({cost} MP)",
                figure.id,
                data={"path": [str(h) for h in hexes], "cost": cost},
            )
        )

    def do_face(self, state: GameState, action: Action, dice: Dice) -> None:
        """Turn to a new facing."""
        figure = state.figure(action.figure)
        place(state.figures.values(), figure, figure.position, action.integer("facing"))
        state.emit(Event("face", f"{figure.name} faces {FACINGS[figure.facing].label}", figure.id))

    # ---- attacks -------------------------------------------------------------
    def _targets(self, state: GameState, figure: Figure) -> list[Figure]:
        return [
            t for t in state.living() if t.side != figure.side and figure_distance(figure, t) <= 1
        ]

    def attack_chain(self, state: GameState, attacker: Figure, target: Figure) -> Chain:
        """To hit (d20 + Attack, + rear bonus, against Defence), then damage on a hit."""
        bonus = [Modifier("Attack", _int(attacker.stats.get("attack"), 0))]
        near, far = nearest_hexes(attacker, target)
        if near in rear_hexes(far, target.facing):
            bonus.append(Modifier("From the rear", _int(state.option("skirmish.rear_bonus"), 0)))
        hit = Check(
            "To hit",
            "d20",
            "ge",
            _int(target.stats.get("defence"), 1),
            f"{target.name}'s Defence",
            (),
            tuple(bonus),
            success_text="hit",
            success_phrase="to hit",
            failure_text="miss",
        )
        damage = Amount(
            "Damage", str(attacker.stats.get("damage", "d6")), (), self.default_die, unit="damage"
        )
        return Chain(
            f"{attacker.name} attacks {target.name}",
            (Stage("hit", hit), Stage("damage", damage, ("success",))),
        )

    def preview(self, state: GameState, action: Action) -> Preview:
        """The attack's hit -> damage chain with exact odds, or the cost of a move."""
        figure = state.figure(action.figure)
        if action.kind == "attack":
            target = state.figure(action.text("target"))
            return Preview(action, True, rollables=(self.attack_chain(state, figure, target),))
        if action.kind == "move":
            reach = self.reach(state, figure)
            assert reach is not None
            path = reach.path_to(action.hex("to"))
            return Preview(
                action,
                True,
                cost=sum(s.cost for s in path),
                path=(figure.position, *(s.pose.hex for s in path if s.kind == "move")),
            )
        return Preview(action, True)

    def do_attack(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll the chain: to hit, then damage on a hit; at 0 hit points the target is down."""
        attacker = state.figure(action.figure)
        target = state.figure(action.text("target"))
        chain = self.attack_chain(state, attacker, target)
        result = chain.roll(dice)
        _done(state).append(attacker.id)
        hit = result.results[0]
        assert isinstance(hit, CheckResult)
        details = (*chain.stages[0].rollable.breakdown(), hit.outcome(), *result.lines()[1:])
        rolls = tuple(r.to_json() for r in result.rolls)
        damage = result.result("damage")
        if damage is None:
            text = f"{attacker.name} misses {target.name}"
            state.emit(Event("attack", text, attacker.id, target.id, details=details, rolls=rolls))
            return
        assert isinstance(damage, AmountResult)
        amount = damage.total
        hp = target.pools["hp"]
        hp.current = max(0, hp.current - amount)
        left = f"{hp.current}/{hp.maximum} hp left"
        text = f"{attacker.name} hits {target.name} for {amount} ({left})"
        state.emit(
            Event(
                "attack",
                text,
                attacker.id,
                target.id,
                details=details,
                rolls=rolls,
                data={"damage": amount, "hp": hp.current},
            )
        )
        if hp.current == 0:
            target.statuses["down"] = Status("down")
            state.emit(Event("status", f"{target.name} is down", target.id))

    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """A move costs movement points and is confirmed with "Move here"."""
        if spec.kind == "move":
            return {"cost_unit": "MP", "confirm": "Move here"}
        return {}

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Whether the figure has already used its step."""
        return {"done_this_step": figure.id in _done(state)}


def _done(state: GameState) -> list[Json]:
    done = state.memory.setdefault("done", [])
    if not isinstance(done, list):
        raise IllegalActionError("corrupt memory: 'done' must be a list")
    return done


def _int(value: Json, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
