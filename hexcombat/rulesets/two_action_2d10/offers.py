"""What a ``two-action-2d10`` figure may do now: the declaration form (TA-1..TA-5, D-18),
strikes in order, and the movement step's moves (TA-23..TA-25, D-12, D-17, R-1)."""

from __future__ import annotations

from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.errors import IllegalActionError
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import Hex
from hexcombat.layout import hex_label
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.fields import MISSILE
from hexcombat.rulesets.two_action_2d10.flow import Flow
from hexcombat.rulesets.two_action_2d10.options import ACTIONS, STYLES
from hexcombat.rulesets.two_action_2d10.state import FigureBook
from hexcombat.rulesets.two_action_2d10.words import ADJUST_WORDS
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

TARGETED = ("attack", "brawl", "shoot")
"""The declared actions aimed at a target (D-18)."""


def _either(kinds: list[str], firsts: list[str], seconds: list[str]) -> list[dict[str, Json]]:
    """``when`` conditions that hold exactly when the first or the second action is one of
    ``kinds`` (each case once, so a form never lists a choice twice).

    >>> _either(["brawl"], ["attack", "brawl"], ["brawl", "move"])
    [{'first': 'brawl'}, {'first': 'attack', 'second': 'brawl'}]
    """
    whens: list[dict[str, Json]] = [{"first": k} for k in kinds if k in firsts]
    return whens + [
        {"first": a, "second": k} for a in firsts if a not in kinds for k in kinds if k in seconds
    ]


def _when_either(
    figures: list[Figure], kinds: tuple[str, ...] | list[str], firsts: list[str], seconds: list[str]
) -> tuple[Choice, ...]:
    """Each figure as a choice offered only when one of the two actions is in ``kinds``."""
    return tuple(
        Choice(t.id, t.name, when=when)
        for t in figures
        for when in _either(list(kinds), firsts, seconds)
    )


class Offers(Flow):
    """The actions offered in each step."""

    def _enemies(self, state: GameState, f: Figure) -> list[Figure]:
        return [t for t in state.living() if t.side != f.side]

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """What a figure may do in the current step."""
        step = state.clock.step
        if step == "declare":
            return [self._declare_spec(state, figure)]
        if step == "movement":
            return self._movement_specs(state, figure)
        hold = ActionSpec("hold", "Hold", figure.id, (), "Let this blow go (TA-13).", "TA-13")
        if step == "riposte":
            if figure.id not in self.counter_strikers(state):
                return []
            target = state.figures.get(str(self.round_of(state).ripostes.get(figure.id)))
            if target is not None and self._can_reach(state, figure, target, "melee"):
                return [self._strike_spec(figure, "riposte", "Counter-strike", "TA-17"), hold]
            return [hold]
        mode = self.strike_mode(state, figure)
        target = state.figures.get(str(self.plan(state, figure.id).get("target") or ""))
        if (
            target is not None
            and not self.is_out(state, target)
            and self._can_reach(state, figure, target, mode)
        ):
            label = {"shot": "Shoot", "brawl": "Brawl"}.get(mode, "Attack")
            return [self._strike_spec(figure, "strike", f"{label} {target.name}", "TA-8"), hold]
        return [hold]

    def _strike_spec(self, f: Figure, kind: str, label: str, rule: str) -> ActionSpec:
        return ActionSpec(
            kind, label, f.id, (), "2d10 + skill + weapon against defence (TA-8, TA-9).", rule
        )

    def strike_mode(self, state: GameState, f: Figure) -> str:
        """``shot`` (TA-22), ``brawl`` (TA-19) or ``melee`` (TA-8) for this step."""
        acts = self.actions_of(state, f.id)
        if state.clock.step == "missiles" or self.shoots_in_combat(state, f.id):
            return "shot"
        if "attack" in acts and not f.has_status("dropped_weapon"):
            return "melee"
        return "brawl"

    def _can_reach(self, state: GameState, f: Figure, t: Figure, mode: str) -> bool:
        """Melee and brawling at 1 hex (each weapon at its best range, TA-15); lock, throw and
        trip need the pair closed (TA-21, D-14); a shot within range and sight (D-15)."""
        gap = figure_distance(f, t)
        if mode == "shot":
            _, row = self.missile(state, f)
            return (
                0 < gap <= int_or(row.get("range"), 0)
                and self.sight(state, f.position, t.position).clear
            )
        if mode == "brawl":
            style = str(self.plan(state, f.id).get("style") or "pummel")
            if style in ("lock", "throw", "trip"):
                return self.closed_with(state, f.id) == t.id
        return gap == 1

    def _declare_spec(self, state: GameState, f: Figure) -> ActionSpec:
        """The hidden declaration of two actions (TA-1): what ``f`` may declare, whom at."""
        allowed = self.allowed(state, f)
        names = [c.value for c in ACTIONS]
        if MISSILE(f) == "none":
            names = [n for n in names if n not in ("load", "shoot")]
        if self.fists_only(state, f):
            names.remove("attack")
        if not self.shield_ready(f):
            names.remove("block")
        if not self.parry_ready(state, f):
            names.remove("parry")
        if not (f.has_status("prone") or f.has_status("dropped_weapon")):
            names.remove("recover")
        choices = tuple(c for c in ACTIONS if c.value in names)
        none_only = tuple(c for c in ACTIONS if c.value == "none")
        enemies = self._enemies(state, f)
        guarded = [
            kind
            for kind, key in (("parry", "guard"), ("dodge", "guard"), ("block", "block"))
            if state.options.get(f"ta.{key}_scope") == "one_attacker"
        ] or ["parry", "dodge", "block"]
        firsts = [c.value for c in (choices if allowed >= 1 else none_only)]
        seconds = [c.value for c in (choices if allowed >= 2 else none_only)]
        targets = _when_either(enemies, TARGETED, firsts, seconds)
        guards = _when_either(enemies, guarded, firsts, seconds)
        styles = tuple(
            Choice(c.value, c.label, c.detail, when)
            for when in _either(["brawl"], firsts, seconds)
            for c in STYLES
        )
        params = (
            *_action_fields(allowed, choices, none_only),
            *_aim_fields(targets, guards, styles),
        )
        return ActionSpec(
            "declare",
            "Declare two actions",
            f.id,
            params,
            "Two actions, hidden until everyone has declared (TA-1, TA-27).",
            "TA-1",
        )

    def refusal(self, state: GameState, action: Action) -> str:
        """Why the declaration form refuses an action: a Block needs a shield in hand, a Parry
        a weapon or a shield (TA-7, R-12), an Attack a weapon with damage dice (TA-19)."""
        if action.kind != "declare" or action.figure is None:
            return ""
        f = state.figure(action.figure)
        acts = {str(action.params.get(key)) for key in ("first", "second")}
        if "parry" in acts and not self.parry_ready(state, f):
            return (
                f"{f.name}: a Parry counters with a weapon or a shield, and neither is in "
                "hand; Dodge instead (TA-7, R-12)"
            )
        if "block" in acts and not self.shield_ready(f):
            return f"{f.name}: a Block needs a shield in hand (TA-7)"
        if "attack" in acts and self.fists_only(state, f):
            return (
                f"{f.name} has no weapon to attack with: declare a Brawl to pummel with fists "
                "and boots (TA-19)"
            )
        return ""

    def check_choice(self, state: GameState, action: Action) -> None:
        """Refuse an illegal declaration when it is made (TA-1..TA-5, TA-22)."""
        if action.kind != "declare":
            return
        f = state.figure(action.figure)
        first, second = action.text("first"), action.text("second")
        combine = action.flag("combine")
        may = R.combinable(str(state.options.get("ta.combinable", "")))
        why = R.declaration_problem(
            first, second, combine, allowed=self.allowed(state, f), may_combine=may
        )
        if why:
            raise IllegalActionError(f"{f.name}: {why}")
        acts = {first, second}
        need = int_or(state.options.get("ta.recover_actions"), 1)
        if "recover" in acts and [first, second].count("recover") < need:
            raise IllegalActionError(
                f"{f.name}: rising or picking up the weapon takes {need} Recover actions: "
                "declare Recover with both actions, combined (R-3)"
            )
        if acts & {"attack", "brawl", "shoot"} and not action.params.get("target"):
            raise IllegalActionError(f"{f.name}: an attack, brawl or shot needs a target (D-18)")
        if "shoot" in acts and "load" not in acts and not FigureBook(f).loaded:
            raise IllegalActionError(f"{f.name}: nothing is loaded; load first (TA-22)")
        guard_needed = (
            acts & {"parry", "dodge"} and state.options.get("ta.guard_scope") == "one_attacker"
        )
        if guard_needed and not action.params.get("guard"):
            raise IllegalActionError(
                f"{f.name}: name the attacker a Parry or Dodge counts against (D-2)"
            )

    def _passable(self, state: GameState, f: Figure, obstacles_ok: bool) -> Any:
        others = {
            h
            for o in state.figures.values()
            if o.id != f.id and not self.is_out(state, o)
            for h in o.hexes()
        }

        def ok(h: Hex) -> bool:
            if not state.board.contains(h) or h in others:
                return False
            terrain = state.board.terrain_at(h)
            if terrain.impassable:
                return False
            return obstacles_ok or terrain.id != "obstacle"

        return ok

    @staticmethod
    def _lies_still(state: GameState, f: Figure) -> bool:
        """Prone, with ``ta.prone_movement`` at ``none``: no movement until risen (R-14)."""
        return f.has_status("prone") and state.options.get("ta.prone_movement") == "none"

    def move_targets(self, state: GameState, f: Figure) -> list[Hex]:
        """Hexes a figure may move to now (TA-23..TA-25, D-12, D-17, R-1)."""
        if self.closed_with(state, f.id):
            return []
        extra = self.round_of(state).moves.get(f.id)
        allowance = R.move_allowance(
            None if extra is None else int_or(extra, 0), str(state.options.get("ta.move_extra"))
        )
        if self._lies_still(state, f):
            return []
        lost = self.lost_the_round(state, f.id)  # a vault is an action (TA-13, TA-26)
        vaults = 0 if lost else self.actions_of(state, f.id).count("other")
        ok = self._passable(state, f, vaults >= int_or(state.options.get("ta.obstacle_actions"), 1))
        facings = range(6) if state.options.get("ta.free_turn_before_moving") else (f.facing,)
        forward: dict[Hex, int] = {}
        for facing in facings:
            forward.update(R.forward_reach(f.position, facing, allowance, ok))
        back = R.back_reach(f.position, f.facing, ok)
        reach = {*forward, *back} - {f.position}
        return sorted(reach, key=lambda h: (h.q, h.r))

    def _movement_specs(self, state: GameState, f: Figure) -> list[ActionSpec]:
        acts = self.actions_of(state, f.id)
        rolls = "move" in acts and f.id not in self.round_of(state).moves
        if rolls and not self.lost_the_round(state, f.id) and not self._lies_still(state, f):
            return [self._sprint_spec(state, f)]
        facing = FieldSpec(
            "facing", "Facing", "facing", f.facing, "Facing at the end of movement (D-12).", "D-12"
        )
        specs = []
        targets = self.move_targets(state, f)
        if targets:
            to = FieldSpec(
                "to",
                "To",
                "hex",
                rule="TA-23",
                choices=tuple(Choice(str(h), hex_label(h)) for h in targets),
            )
            specs.append(
                ActionSpec(
                    "move",
                    "Move",
                    f.id,
                    (to, facing),
                    "3 forward or 1 back, free (TA-23).",
                    "TA-23",
                )
            )
        specs.append(
            ActionSpec("stay", "Stay", f.id, (facing,), "Stay in this hex (TA-23).", "TA-23")
        )
        return specs

    def _sprint_spec(self, state: GameState, f: Figure) -> ActionSpec:
        """A declared move action: break away when closed (D-17), else roll the armour's
        movement die (TA-24), adjusting the better die when combined (TA-25)."""
        if self.closed_with(state, f.id) and state.options.get("ta.break_closed", True):
            return ActionSpec(
                "sprint",
                "Break away",
                f.id,
                (),
                "2d10 + Agility against 2d10 + Agility (D-17).",
                "D-17",
            )
        params: tuple[FieldSpec, ...] = ()
        if self.combined(state, f.id, "move"):
            adjust = tuple(Choice(a, ADJUST_WORDS[a]) for a in (1, 0, -1))
            params = (
                FieldSpec(
                    "adjust",
                    "Adjust the better die",
                    "choice",
                    1,
                    "Add or subtract 1 hex at choice (TA-25).",
                    "TA-25",
                    adjust,
                ),
            )
        die = R.movement_die(str(self.armour(state, f).get("class")))
        return ActionSpec(
            "sprint",
            f"Roll movement ({die})",
            f.id,
            params,
            "Extra hexes forward (TA-24).",
            "TA-24",
        )


def _action_fields(
    allowed: int, choices: tuple[Choice, ...], none_only: tuple[Choice, ...]
) -> tuple[FieldSpec, ...]:
    """The declaration's two actions and whether they are combined into one."""
    return (
        FieldSpec(
            "first",
            "First action",
            "choice",
            ("attack" if any(c.value == "attack" for c in choices) else "brawl")
            if allowed
            else "none",
            rule="TA-1",
            choices=choices if allowed >= 1 else none_only,
        ),
        FieldSpec(
            "second",
            "Second action",
            "choice",
            ("parry" if any(c.value == "parry" for c in choices) else "dodge")
            if allowed >= 2
            else "none",
            rule="TA-1",
            choices=choices if allowed >= 2 else none_only,
        ),
        FieldSpec(
            "combine",
            "Combine both into one",
            "bool",
            False,
            "Both actions into one: 3d10 keep the best two (TA-5), or two movement dice (TA-25).",
            "TA-5",
            required=False,
        ),
    )


def _aim_fields(
    targets: tuple[Choice, ...], guards: tuple[Choice, ...], styles: tuple[Choice, ...]
) -> tuple[FieldSpec, ...]:
    """Whom the declaration aims at: the target, the one attacker guarded against, and a
    brawl's style."""
    return (
        FieldSpec(
            "target",
            "Target",
            "figure",
            None,
            "Whom an attack, brawl or shot is aimed at (D-18); offered when one of the "
            "two actions is one of them.",
            "D-18",
            targets,
            required=False,
        ),
        FieldSpec(
            "guard",
            "Parry or dodge against",
            "figure",
            None,
            "The one attacker a Parry or Dodge counts against (and a Block, when the "
            "encounter's Block covers one declared attacker); offered when one is declared.",
            "D-2",
            guards,
            required=False,
        ),
        FieldSpec(
            "style",
            "Brawl",
            "choice",
            "pummel",
            "Pummel or a tactical outcome (TA-19, TA-21); offered when a Brawl is declared.",
            "TA-21",
            styles,
            required=False,
        ),
    )
