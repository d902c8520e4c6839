"""The ``skirmish`` class: its identity and manifest, the round's time, movement and offers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import Chain
from hexcombat.dice import Dice, DiceSyntaxError, parse
from hexcombat.errors import Problem
from hexcombat.events import Event
from hexcombat.figures import Figure, Pool, place
from hexcombat.geometry import direction_to
from hexcombat.kept_searches import KeptSearches
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Reach, Room, Step, TerrainWalk, body_steps
from hexcombat.rulesets.base import Preview
from hexcombat.rulesets.common.moves import destinations
from hexcombat.rulesets.common.once_per_step import OncePerStep
from hexcombat.rulesets.data import load
from hexcombat.rulesets.manifest import Manifest
from hexcombat.rulesets.registry import register
from hexcombat.rulesets.skirmish.options import DAMAGE, FACINGS, FIELDS, HP, MOVE, OPTIONS, TIME
from hexcombat.rulesets.skirmish.resolve import attack, attack_chain, enemies_in_reach
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

WALK = TerrainWalk()
"""Skirmish moves at terrain cost; facing is free."""
REACHES: KeptSearches[Reach] = KeptSearches()
"""Move searches kept by what they read: a move is checked against its figure's reach, then
walked by its handler on an equal state, and the page asks for it again on every tap."""


def bodies(state: GameState) -> tuple[tuple[object, ...], ...]:
    """Everything a skirmish search depends on besides the board and the mover's Move: where
    every body stands and faces, its shape and its mount (so two equal states share a search)."""
    return tuple(
        (f.id, f.position, f.facing, f.footprint, f.mounted_on) for f in state.figures.values()
    )


@register
class Skirmish(OncePerStep):
    """The engine's own minimal ruleset: move with terrain costs, then one d20 melee attack."""

    id = "skirmish"
    name = "Skirmish (engine demo)"
    summary = "Minimal built-in rules: move with terrain costs, then a d20 melee attack."
    default_die = 20
    stacking_option = "skirmish.stacking"
    starter = True
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    tables = load("skirmish")
    manifest = Manifest.built_in(
        id,
        "demo_skirmish:skirmish_demo",
        position=0,
        tagline="the small built-in rules; a d20 attack.",
        demo_about=(
            "Three wardens hold a stream crossing against three raiders: terrain costs, sight "
            "blocked by hills and walls, d20 attacks with exact odds."
        ),
    )  # no rules spec: no rule ids, no coverage table

    # ---- set-up ----------------------------------------------------------
    def start(self, state: GameState) -> None:
        """Give every figure its hit-point pool, then begin the first step."""
        for f in state.figures.values():
            hp = HP(f)
            f.pools.setdefault("hp", Pool(hp, hp))
        self.start_step(state)

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus damage dice that must parse."""
        problems = super().figure_problems(figure, data)
        damage = DAMAGE.raw(figure)
        if isinstance(damage, str):
            try:
                parse(damage, self.default_die)
            except DiceSyntaxError as exc:
                problems.append(Problem("stats.damage", str(exc)))
        return problems

    # ---- movement ----------------------------------------------------------
    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Hexes within Move points, paying terrain costs, not through full hexes.

        Facing is free, so a one-hex figure's search ignores it (one pose per
        hex). A figure covering several hexes faces the way it steps and may
        turn in place, wherever its whole body fits. A rider moves only with its mount.
        """
        if state.step.id != "move" or self.is_done(state, figure) or figure.mounted_on:
            return None
        key = (type(self), self.stacking(state.options), figure.id, MOVE(figure), bodies(state))
        return REACHES.get(state.board, key, lambda: self._search_reach(state, figure))

    def _search_reach(self, state: GameState, figure: Figure) -> Reach:
        """:meth:`reach` worked out: the search itself."""
        return WALK.reach(self._room(state, figure), figure, MOVE(figure))

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

    def autopilot_hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """``dearest``: a move pays each hex's terrain cost out of the figure's Move, so a
        hex dearer than its whole Move (water for a Move of 2) is one it never enters."""
        return {"dearest": float(MOVE(figure))}

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Move and face in the movement step; attack an enemy within one hex in the attack step."""
        return self._offers(state, figure, None)

    def figure_offers(self, state: GameState, figure: Figure, kind: str) -> list[ActionSpec]:
        """The offers of one kind: a logged face is checked without the figure's reach."""
        return self._offers(state, figure, kind)

    def _offers(self, state: GameState, figure: Figure, kind: str | None) -> list[ActionSpec]:
        """:meth:`figure_actions`, or only those of ``kind``, made alone."""
        if self.is_done(state, figure):
            return []
        if state.step.id == "move":
            if figure.mounted_on:
                return []
            specs = []
            if kind in (None, "move") and (move := self._move_spec(state, figure)):
                specs.append(move)
            if kind in (None, "face"):
                facing = FieldSpec(
                    "facing", "Facing", "facing", choices=self._facings(state, figure)
                )
                specs.append(
                    ActionSpec(
                        "face",
                        "Face",
                        figure.id,
                        (facing,),
                        "Turn to face any hexside your body has room to turn to; free.",
                    )
                )
            return specs
        if kind not in (None, "attack"):
            return []
        targets = tuple(Choice(t.id, t.name) for t in enemies_in_reach(state, figure))
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

    def _move_spec(self, state: GameState, figure: Figure) -> ActionSpec | None:
        """Move to any hex of the figure's reach but its own (None: nowhere to go)."""
        hexes = destinations(figure, self.reach(state, figure))
        if not hexes:
            return None
        return ActionSpec(
            "move",
            "Move",
            figure.id,
            (FieldSpec("to", "Destination", "hex", choices=hexes),),
            "Move along the cheapest path; ends your movement for the round.",
        )

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
        self.mark_done(state, figure)
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
    def attack_chain(self, state: GameState, attacker: Figure, target: Figure) -> Chain:
        """To hit (d20 + Attack, + rear bonus, against Defence), then damage on a hit."""
        return attack_chain(state, attacker, target, self.default_die)

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
        self.mark_done(state, attacker)
        attack(state, attacker, target, chain, dice)

    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """A move costs movement points and is confirmed with "Move here"."""
        if spec.kind == "move":
            return {"cost_unit": "MP", "confirm": "Move here"}
        return {}

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Whether the figure has already used its step."""
        return {"done_this_step": self.is_done(state, figure)}
