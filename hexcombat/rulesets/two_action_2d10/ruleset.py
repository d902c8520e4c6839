"""The ``two-action-2d10`` ruleset: two hidden actions a round, 2d10 attack against defence.

A round (TA-27) is: everyone declares two actions in secret (TA-1..TA-5),
revealed together; prepared missiles are shot (TA-22); movement (TA-23..TA-25);
combat in strike order by weapon, skill and ceding (TA-13..TA-19), each blow
answered by the target's declared Parry, Block or Dodge (a prompt, TA-6, TA-7)
and each result applied at once (TA-13); then counter-strikes (TA-17, I-3).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, ClassVar

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import (
    Amount,
    AmountResult,
    Band,
    Chain,
    Check,
    Modifier,
    OpposedCheck,
    OpposedSide,
    Rollable,
    Stage,
    Variant,
)
from hexcombat.dice import Dice, Roll, dice_words
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure, Pool, Status, figure_distance
from hexcombat.geometry import Hex
from hexcombat.layout import hex_label
from hexcombat.rulesets.base import Preview, Ruleset
from hexcombat.rulesets.data import load
from hexcombat.rulesets.registry import register
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.terrain import TerrainTable
from hexcombat.time import Acting
from hexcombat.validation import Json

from . import rules as R
from .options import ACTIONS, FIELDS, OPTIONS, STYLES, TIME

DATA: Any = load("two_action_2d10")

OUT = ("down", "dead", "incapacitated")
DEFENCE_WORDS = {"parry": "Parry", "block": "Block", "dodge": "Dodge"}
ANSWERS = {"parry": "parry", "block": "shield_block", "dodge": "dodge"}
"""The prompt's answer (action kind) for each declared defence."""


ADJUST_WORDS = {1: "+1 hex", 0: "As rolled", -1: "-1 hex"}
"""The second movement action's adjustment at choice (TA-25)."""

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


def _int(value: Json, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


@register
class TwoAction2d10(Ruleset):
    """Two actions a round, 2d10 (or 3d10 keep two) against defence, strike order by weapon."""

    id = "two-action-2d10"
    name = "Two actions, 2d10"
    summary = (
        "Two hidden actions a round (or both on one: 3d10 keep two); 2d10 + skill + weapon "
        "against defence; strike order by weapon; Parry, Block, Dodge; hit and body points."
    )
    default_die = 10
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    terrain = TerrainTable.from_json(DATA["terrain"])
    rules: ClassVar[dict[str, str]] = dict(DATA["rules"])

    # ---- set-up ----------------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """Weapons, missiles, armour and the hit-location table (house defaults, D-4, D-6)."""
        return {k: copy.deepcopy(DATA[k]) for k in ("weapons", "missiles", "armour", "locations")}

    def start(self, state: GameState) -> None:
        """Hit points and body points from Health (TA-12, D-8), then the first step."""
        base = _int(state.options.get("ta.hp_base"), 10)
        for f in state.figures.values():
            hp, bp = R.vitality(_int(f.stats.get("health"), 10), base)
            f.pools.setdefault("hp", Pool(hp, hp))
            f.pools.setdefault("bp", Pool(bp, bp))
        self.start_step(state)

    def is_out(self, state: GameState, figure: Figure) -> bool:
        """Down at 0 body points (R-5), dead (TA-12) or incapacitated (D-7)."""
        return any(figure.has_status(s) for s in OUT)

    def invariant_problems(self, state: GameState) -> list[str]:
        """The engine's invariants, hit points never below 0 (TA-12), and nobody out of the
        fight waiting to act."""
        problems = super().invariant_problems(state)
        for f in state.figures.values():
            hp = f.pools.get("hp")
            if hp is not None and hp.current < 0:
                problems.append(f"{f.id}.hp is {hp.current}, below 0 (TA-12)")
        out = {f.id for f in state.figures.values() if self.is_out(state, f)}
        if state.prompt is None and out & set(self.who_acts(state).now()):
            problems.append(f"{sorted(out)} are out of the fight but act now")
        return problems

    # ---- small readers ---------------------------------------------------------------
    def _table(self, state: GameState, key: str) -> Any:
        return state.data.get(key, DATA[key])

    def mem(self, state: GameState, key: str) -> Any:
        """A table of the round's bookkeeping in ``state.memory``."""
        default: Json = [] if key in ("done", "moved") else {}
        return state.memory.setdefault(key, default)

    def plan(self, state: GameState, fid: str) -> dict[str, Any]:
        """The revealed declaration of a figure this round ({} before the reveal)."""
        plan = self.mem(state, "plans").get(fid, {})
        assert isinstance(plan, dict)
        return plan

    def actions_of(self, state: GameState, fid: str) -> list[str]:
        """The two declared actions (TA-1)."""
        return [str(a) for a in self.plan(state, fid).get("actions", [])]

    def combined(self, state: GameState, fid: str, kind: str) -> bool:
        """Whether ``kind`` takes both actions this round (TA-5, TA-25)."""
        plan = self.plan(state, fid)
        acts = self.actions_of(state, fid)
        return kind in acts and R.is_combined(acts[0], acts[1], bool(plan.get("combine")))

    def armour(self, state: GameState, f: Figure) -> dict[str, Any]:
        """The figure's armour row: class, AC, movement die (TA-10, TA-24, D-4)."""
        row = self._table(state, "armour").get(str(f.stats.get("armour", "none")))
        return row if isinstance(row, dict) else {"class": "none", "ac": 0}

    def weapon(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The melee weapon and its row (TA-14, D-4)."""
        name = str(f.stats.get("weapon", "natural"))
        if f.has_status("dropped_weapon"):
            name = "natural"
        return name, self._table(state, "weapons").get(name, DATA["weapons"]["natural"])

    def missile(self, state: GameState, f: Figure) -> tuple[str, dict[str, Any]]:
        """The missile weapon and its row (TA-22, D-15)."""
        name = str(f.stats.get("missile", "none"))
        return name, self._table(state, "missiles").get(name, DATA["missiles"]["none"])

    def shield_ready(self, f: Figure) -> bool:
        """A shield in hand (TA-6, TA-7)."""
        return f.stats.get("shield") is True and not f.has_status("shield_lost")

    def posture(self, f: Figure) -> str:
        """Active, prone or comatose (TA-6)."""
        if f.has_status("comatose"):
            return "comatose"
        return "prone" if f.has_status("prone") else "active"

    def passive(self, state: GameState, f: Figure) -> int:
        """Passive defence (TA-6, D-1)."""
        return R.passive_defence(self.posture(f), self.shield_ready(f), state.options)

    def closed_with(self, state: GameState, fid: str) -> str:
        """The figure ``fid`` is closed with after a grapple ('' if none) (TA-15, TA-21)."""
        return str(self.mem(state, "closed").get(fid, ""))

    def allowed(self, state: GameState, f: Figure) -> int:
        """Actions this round: 2, less actions lost to a stagger or a lock (TA-1, TA-11)."""
        lost = _int(self.mem(state, "lost").get(f.id))
        return max(0, R.ACTIONS_PER_ROUND - lost)

    # ---- time ------------------------------------------------------------------------
    def start_step(self, state: GameState) -> None:
        """A new declare step starts the round: staggers and locks cost actions (TA-11)."""
        step = state.clock.step
        state.memory["done"] = []
        if step == "declare":
            for key in ("plans", "stopped", "spent", "blocks", "ripostes", "moves", "lost"):
                state.memory[key] = {}
            state.memory["moved"] = []
            lost = self.mem(state, "lost")
            for f in state.figures.values():
                if f.has_status("locked"):
                    lost[f.id] = 2
                elif f.has_status("staggered"):
                    lost[f.id] = 1
                    del f.statuses["staggered"]

    def step_is_empty(self, state: GameState, step: Any) -> bool:
        """No prepared shots: skip step 2; no counter-strikes: skip the Riposte (TA-27)."""
        if step.id == "missiles":
            return not self.prepared_shooters(state)
        if step.id == "riposte":
            return not self.mem(state, "ripostes")
        return False

    def prepared_shooters(self, state: GameState) -> list[str]:
        """Figures shooting a missile loaded in an earlier round: step 2 (TA-22, TA-27)."""
        out = []
        for f in state.living():
            acts = self.actions_of(state, f.id)
            if "shoot" in acts and "load" not in acts and f.memory.get("loaded") is True:
                out.append(f.id)
        return out

    def strikers(self, state: GameState, *, drop_waits: bool = True) -> list[R.Striker]:
        """Everyone with a blow to strike in the combat step (TA-14..TA-19), less pairs that
        wait for each other (TA-18, D-11) when ``drop_waits``."""
        targets: dict[str, str] = {}
        for f in state.living():
            plan = self.plan(state, f.id)
            acts = self.actions_of(state, f.id)
            if any(a in acts for a in R.STRIKES) or {"load", "shoot"} <= set(acts):
                targets[f.id] = str(plan.get("target") or "")
        out = []
        for fid, target in targets.items():
            f = state.figure(fid)
            acts = self.actions_of(state, fid)
            opponents = tuple(dict.fromkeys([target, *(o for o, t in targets.items() if t == fid)]))
            if {"load", "shoot"} <= set(acts):
                weapon, rank, skill = "missile", 0, _int(f.stats.get("missile_skill"))
            elif "attack" in acts and not f.has_status("dropped_weapon"):
                weapon, row = self.weapon(state, f)
                rank, skill = _int(row.get("strike_rank"), 7), _int(f.stats.get("skill"))
            else:
                weapon, row = "natural", self._table(state, "weapons")["natural"]
                rank, skill = _int(row.get("strike_rank"), 8), _int(f.stats.get("brawl"))
            out.append(
                R.Striker(
                    fid,
                    f.name,
                    weapon,
                    rank,
                    skill,
                    cedes="wait" in acts or "dodge" in acts,
                    waits="wait" in acts,
                    closed=bool(target) and self.closed_with(state, fid) == target,
                    opponents=tuple(o for o in opponents if o),
                )
            )
        if not drop_waits:
            return out
        pairs = R.no_attack_pairs(out, str(state.options.get("ta.mutual_wait")))
        return [
            s
            for s in out
            if not any(
                frozenset((s.id, str(self.plan(state, s.id).get("target")))) == p for p in pairs
            )
        ]

    def order(self, state: GameState) -> tuple[list[str], list[str]]:
        """The strike order and why (TA-14..TA-19, D-10, D-11)."""
        strikers = self.strikers(state)
        order, notes = R.strike_order(strikers, str(state.options.get("ta.closed_order")))
        waiting = set()
        for s in self.strikers(state, drop_waits=False):
            if s.id not in {x.id for x in strikers}:
                waiting.add(s.name)
        if waiting:
            notes.append(
                f"{' and '.join(sorted(waiting))} wait for each other: no attacks (TA-18, D-11)"
            )
        return order, notes

    def may_still_strike(self, state: GameState, fid: str) -> bool:
        """A blow is lost once a result stopped it (TA-13), unless its striker and the one who
        stopped it strike together (TA-16, R-4)."""
        if fid in self.mem(state, "done"):
            return False
        by = self.mem(state, "stopped").get(fid)
        if by is None:
            return True
        if state.options.get("ta.simultaneous") != "both_strike":
            return False
        strikers = {s.id: s for s in self.strikers(state)}
        closed = str(state.options.get("ta.closed_order"))
        a, b = strikers.get(fid), strikers.get(str(by))
        return a is not None and b is not None and R.simultaneous(a, b, strikers, closed)

    def acting(self, state: GameState) -> Acting:
        """Declare in secret; shots and strikes one figure at a time in order; everyone moves."""
        step = state.clock.step
        living = tuple(f.id for f in state.living())
        if step == "declare":
            hidden = state.options.get("core.hidden_declarations", True) is not False
            waiting = tuple(f for f in living if f not in self.mem(state, "plans"))
            return Acting("all", living, hidden=hidden, waiting=waiting)
        if step == "movement":
            moved = self.mem(state, "moved")
            return Acting("all", living, waiting=tuple(f for f in living if f not in moved))
        if step == "missiles":
            order = tuple(self.prepared_shooters(state))
            done = self.mem(state, "done")
            waiting = tuple(
                f for f in order if f not in done and f not in self.mem(state, "stopped")
            )
            return Acting(
                "figure", order, waiting=waiting, order_notes=("loaded last round (TA-22)",)
            )
        if step == "riposte":
            order = tuple(f for f in self.mem(state, "ripostes") if f in living)
            done = self.mem(state, "done")
            waiting = tuple(f for f in order if f not in done)
            return Acting(
                "figure", order, waiting=waiting, order_notes=("counter-strikes (TA-17, I-3)",)
            )
        strike_order, notes = self.order(state)
        live = [f for f in strike_order if f in living]
        waiting = tuple(f for f in live if self.may_still_strike(state, f))
        return Acting("figure", tuple(live), waiting=waiting, order_notes=tuple(notes))

    def blocks_next_step(self, state: GameState) -> str:
        """Hidden declarations still to make; in strike order, blows still to strike."""
        reason = super().blocks_next_step(state)
        if reason or state.clock.step not in ("missiles", "combat", "riposte"):
            return reason
        waiting = self.who_acts(state).waiting
        if waiting:
            return f"{state.figure(waiting[0]).name} still has to strike or hold (TA-13)"
        return ""

    # ---- offers ----------------------------------------------------------------------
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
            target = state.figures.get(str(self.mem(state, "ripostes").get(figure.id)))
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
        if state.clock.step == "missiles" or {"load", "shoot"} <= set(acts):
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
                0 < gap <= _int(row.get("range"))
                and self.sight(state, f.position, t.position).clear
            )
        if mode == "brawl":
            style = str(self.plan(state, f.id).get("style") or "pummel")
            if style in ("lock", "throw", "trip"):
                return self.closed_with(state, f.id) == t.id
        return gap == 1

    def _declare_spec(self, state: GameState, f: Figure) -> ActionSpec:
        allowed = self.allowed(state, f)
        names = [c.value for c in ACTIONS]
        if str(f.stats.get("missile", "none")) == "none":
            names = [n for n in names if n not in ("load", "shoot")]
        if not self.shield_ready(f):
            names.remove("block")
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
            FieldSpec(
                "first",
                "First action",
                "choice",
                "attack" if allowed else "none",
                rule="TA-1",
                choices=choices if allowed >= 1 else none_only,
            ),
            FieldSpec(
                "second",
                "Second action",
                "choice",
                "parry" if allowed >= 2 else "none",
                rule="TA-1",
                choices=choices if allowed >= 2 else none_only,
            ),
            FieldSpec(
                "combine",
                "Combine both into one",
                "bool",
                False,
                "Both actions into one: 3d10 keep the best two (TA-5), or two movement dice "
                "(TA-25).",
                "TA-5",
                required=False,
            ),
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
        return ActionSpec(
            "declare",
            "Declare two actions",
            f.id,
            params,
            "Two actions, hidden until everyone has declared (TA-1, TA-27).",
            "TA-1",
        )

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
        if acts & {"attack", "brawl", "shoot"} and not action.params.get("target"):
            raise IllegalActionError(f"{f.name}: an attack, brawl or shot needs a target (D-18)")
        if "shoot" in acts and "load" not in acts and f.memory.get("loaded") is not True:
            raise IllegalActionError(f"{f.name}: nothing is loaded; load first (TA-22)")
        guard_needed = (
            acts & {"parry", "dodge"} and state.options.get("ta.guard_scope") == "one_attacker"
        )
        if guard_needed and not action.params.get("guard"):
            raise IllegalActionError(
                f"{f.name}: name the attacker a Parry or Dodge counts against (D-2)"
            )

    # ---- movement --------------------------------------------------------------------
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

    def move_targets(self, state: GameState, f: Figure) -> list[Hex]:
        """Hexes a figure may move to now (TA-23..TA-25, D-12, D-17, R-1)."""
        if self.closed_with(state, f.id):
            return []
        extra = self.mem(state, "moves").get(f.id)
        allowance = R.move_allowance(
            None if extra is None else _int(extra), str(state.options.get("ta.move_extra"))
        )
        vaults = self.actions_of(state, f.id).count("other")
        ok = self._passable(state, f, vaults >= _int(state.options.get("ta.obstacle_actions"), 1))
        facings = range(6) if state.options.get("ta.free_turn_before_moving") else (f.facing,)
        forward: dict[Hex, int] = {}
        for facing in facings:
            forward.update(R.forward_reach(f.position, facing, allowance, ok))
        back = R.back_reach(f.position, f.facing, ok)
        reach = {*forward, *back} - {f.position}
        return sorted(reach, key=lambda h: (h.q, h.r))

    def _movement_specs(self, state: GameState, f: Figure) -> list[ActionSpec]:
        acts = self.actions_of(state, f.id)
        facing = FieldSpec(
            "facing", "Facing", "facing", f.facing, "Facing at the end of movement (D-12).", "D-12"
        )
        if "move" in acts and f.id not in self.mem(state, "moves"):
            if self.closed_with(state, f.id) and state.options.get("ta.break_closed", True):
                return [
                    ActionSpec(
                        "sprint",
                        "Break away",
                        f.id,
                        (),
                        "2d10 + Agility against 2d10 + Agility (D-17).",
                        "D-17",
                    )
                ]
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
            return [
                ActionSpec(
                    "sprint",
                    f"Roll movement ({die})",
                    f.id,
                    params,
                    "Extra hexes forward (TA-24).",
                    "TA-24",
                )
            ]
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

    def do_sprint(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll the movement die, or two and keep the better +-1 (TA-24, TA-25); or break
        away from a closed opponent (D-17)."""
        f = state.figure(action.figure)
        moves = self.mem(state, "moves")
        other = self.closed_with(state, f.id)
        if other:
            check = self.break_check(state, f, state.figure(other))
            result = check.roll(dice)
            if result.attacker_wins:
                closed = self.mem(state, "closed")
                closed.pop(f.id, None)
                closed.pop(other, None)
            moves[f.id] = 0
            word = "breaks away" if result.attacker_wins else "cannot break away"
            state.emit(
                Event(
                    "move",
                    f"{f.name} {word}",
                    f.id,
                    other,
                    "D-17",
                    (result.explain(),),
                    tuple(r.to_json() for r in result.rolls),
                )
            )
            return
        die = R.movement_die(str(self.armour(state, f).get("class")))
        if self.combined(state, f.id, "move"):
            rolls = [dice.roll(die), dice.roll(die)]
            adjust = action.integer("adjust", 1)
            extra = R.best_of_two([r.total for r in rolls], adjust)
            a, b = rolls[0].total, rolls[1].total
            text = (
                f"{f.name} rolls {a} and {b} on {die}, keeps the better "
                f"{adjust:+d}: {extra} extra hexes (TA-25)"
            )
        else:
            rolls = [dice.roll(die)]
            extra = rolls[0].total
            text = f"{f.name} rolls {extra} on {die}: {extra} extra hexes (TA-24)"
        moves[f.id] = extra
        mode = str(state.options.get("ta.move_extra"))
        allowance = R.move_allowance(extra, mode)
        state.emit(
            Event(
                "move",
                f"{text}; up to {allowance} forward",
                f.id,
                rule="TA-24",
                rolls=tuple(r.to_json() for r in rolls),
                data={"extra": extra, "allowance": allowance},
            )
        )

    def break_check(self, state: GameState, f: Figure, other: Figure) -> OpposedCheck:
        """Breaking away: 2d10 + Agility meets or beats 2d10 + the opponent's Agility (D-17)."""
        return OpposedCheck(
            "Break away",
            OpposedSide(
                f.name, "2d10", (Modifier("Agility", _int(f.stats.get("agility")), "D-17"),)
            ),
            OpposedSide(
                other.name, "2d10", (Modifier("Agility", _int(other.stats.get("agility")), "D-17"),)
            ),
            ties="attacker",
            rule="D-17",
        )

    def do_move(self, state: GameState, action: Action, dice: Dice) -> None:
        """Move forward within the allowance or 1 hex back, then face (TA-23, D-12)."""
        f = state.figure(action.figure)
        to = action.hex("to")
        start = f.position
        f.position = to
        f.facing = action.integer("facing", f.facing)
        self.mem(state, "moved").append(f.id)
        state.emit(
            Event(
                "move",
                f"{f.name} moves from {hex_label(start)} to {hex_label(to)}",
                f.id,
                rule="TA-23",
                data={"from": str(start), "to": str(to)},
            )
        )

    def do_stay(self, state: GameState, action: Action, dice: Dice) -> None:
        """Stay, perhaps turning (D-12)."""
        f = state.figure(action.figure)
        f.facing = action.integer("facing", f.facing)
        self.mem(state, "moved").append(f.id)
        state.emit(Event("move", f"{f.name} stays", f.id, rule="TA-23"))

    # ---- declarations ----------------------------------------------------------------
    def do_declare(self, state: GameState, action: Action, dice: Dice) -> None:
        """A revealed declaration takes effect (TA-1..TA-5, TA-22, TA-27)."""
        self.check_choice(state, action)
        f = state.figure(action.figure)
        first, second = action.text("first"), action.text("second")
        combine = R.is_combined(first, second, action.flag("combine"))
        target_id = str(action.params.get("target") or "")
        plan: dict[str, Json] = {
            "actions": [first, second],
            "combine": combine,
            "target": target_id,
            "guard": str(action.params.get("guard") or ""),
            "style": str(action.params.get("style") or "pummel"),
        }
        self.mem(state, "plans")[f.id] = plan
        acts = {first, second}
        if "load" in acts and "shoot" not in acts:
            f.memory["loaded"] = True
        if "recover" in acts:
            for s in ("prone", "dropped_weapon"):
                f.statuses.pop(s, None)
        if combine:
            words = f"{first} with both actions" + (
                " (3d10 keep two, TA-5)" if first != "move" else " (two dice, TA-25)"
            )
        else:
            words = f"{first} and {second}"
        target = state.figures.get(target_id)
        at = (
            f" at {target.name}"
            if target is not None and acts & {"attack", "brawl", "shoot"}
            else ""
        )
        state.emit(
            Event(
                "declare",
                f"{f.name} declares {words}{at}",
                f.id,
                target_id or None,
                "TA-1",
                data={"plan": plan},
            )
        )

    # ---- blows -----------------------------------------------------------------------
    def attack_side(self, state: GameState, f: Figure, mode: str, combined: bool) -> OpposedSide:
        """2d10 (or 3d10 keep two) + skill + weapon (TA-4, TA-5, TA-8)."""
        mods = []
        if mode == "shot":
            mods.append(Modifier("Missile skill", _int(f.stats.get("missile_skill")), "TA-8"))
        elif mode == "brawl":
            mods.append(Modifier("Brawling", _int(f.stats.get("brawl")), "TA-19"))
        else:
            weapon, row = self.weapon(state, f)
            mods.append(Modifier("Skill", _int(f.stats.get("skill")), "TA-8"))
            adj = _int(row.get("attack_adj"))
            if adj:
                mods.append(
                    Modifier(f"{weapon.capitalize()} (TA-20)", adj, "D-16", house_default=True)
                )
        return OpposedSide(f.name, R.action_dice(combined), tuple(mods))

    def defence_side(self, state: GameState, t: Figure, kind: str) -> tuple[OpposedSide, int]:
        """A Parry, Block or Dodge roll, never below the passive defence (TA-7, D-2)."""
        skill = _int(t.stats.get(kind))
        adj = R.defence_adjustment(kind, str(self.armour(state, t).get("class")), state.options)
        mods = [Modifier(f"{DEFENCE_WORDS[kind]} skill", skill, "TA-7")]
        if adj:
            mods.append(
                Modifier(f"{DEFENCE_WORDS[kind]} adjustment", adj, "D-2", house_default=True)
            )
        dice = R.action_dice(self.combined(state, t.id, kind))
        floor = self.passive(state, t) - skill - adj
        if (state.options.get("ta.defence_mode") == "max" or kind != "parry") and floor > 2:
            dice = f"{dice} min {floor}"
        return OpposedSide(f"{t.name} ({DEFENCE_WORDS[kind].lower()})", dice, tuple(mods)), floor

    def standing_defence(self, state: GameState, t: Figure, attacker: Figure) -> tuple[int, str]:
        """The defence with no roll now: passive, or a Block already rolled this round
        (it covers every blow, D-2)."""
        passive = self.passive(state, t)
        block = self.mem(state, "blocks").get(t.id)
        if isinstance(block, int) and self._covers(state, t, attacker, "block"):
            return R.effective_defence(passive, block), "Block rolled this round (D-2)"
        return passive, "Passive defence (TA-6)"

    def _covers(self, state: GameState, t: Figure, attacker: Figure, kind: str) -> bool:
        scope_key = "ta.block_scope" if kind == "block" else "ta.guard_scope"
        if state.options.get(scope_key) == "all":
            return True
        return str(self.plan(state, t.id).get("guard")) == attacker.id or (
            kind == "block" and not self.plan(state, t.id).get("guard")
        )

    def defences(self, state: GameState, t: Figure, attacker: Figure, mode: str) -> list[str]:
        """The declared defences ``t`` may still commit against this blow (TA-7, D-2, D-15)."""
        if t.id in self.mem(state, "stopped"):
            return []
        acts = self.actions_of(state, t.id)
        spent = self.mem(state, "spent").get(t.id, [])
        out = []
        for kind in R.DEFENCES:
            if kind not in acts or kind in spent:
                continue
            if kind == "block" and (not self.shield_ready(t) or t.id in self.mem(state, "blocks")):
                continue
            if kind == "parry" and mode == "shot" and not state.options.get("ta.missile_parry"):
                continue
            if self._covers(state, t, attacker, kind):
                out.append(kind)
        return out

    def hit_check(
        self, state: GameState, a: Figure, t: Figure, mode: str, combined: bool, kind: str | None
    ) -> Rollable:
        """To hit: the attack against the defence, meet or beat (TA-8, TA-9); an opposed roll
        when the target commits a Parry, Block or Dodge (TA-7)."""
        side = self.attack_side(state, a, mode, combined)
        if kind is None or (kind == "parry" and state.options.get("ta.defence_mode") != "max"):
            base, label = self.standing_defence(state, t, a)
            return Check(
                "To hit",
                side.dice,
                "ge",
                base,
                f"{t.name}'s {label}",
                (),
                side.modifiers,
                rule="TA-9",
                success_text="hit",
                success_phrase="to hit",
                failure_text="miss",
            )
        defence, _ = self.defence_side(state, t, kind)
        return OpposedCheck("To hit", side, defence, ties="attacker", rule="TA-9")

    def attack_chain(
        self, state: GameState, a: Figure, t: Figure, mode: str, combined: bool, kind: str | None
    ) -> Chain:
        """Hit, then damage minus armour class (TA-9, TA-10); more dice, a location and a save
        follow a surplus at a threshold (TA-11)."""
        hit = self.hit_check(state, a, t, mode, combined, kind)
        won = ("success",) if isinstance(hit, Check) else ("win", "tie")
        label = f"{a.name} at {t.name}"
        die = self._damage_die(state, a, mode)
        if not die:
            return Chain(label, (Stage("hit", hit),), rule="TA-9")
        damage = Amount(
            "Damage",
            self._damage_expr(die, 0, _int(self.armour(state, t).get("ac"))),
            rule="TA-10",
            unit="damage",
        )
        return Chain(label, (Stage("hit", hit), Stage("damage", damage, won)), rule="TA-9")

    def _damage_die(self, state: GameState, a: Figure, mode: str) -> str:
        if mode == "shot":
            return str(self.missile(state, a)[1].get("damage") or "")
        if mode == "brawl":
            return ""
        return str(self.weapon(state, a)[1].get("damage") or "")

    @staticmethod
    def _damage_expr(die: str, hit_tier: int, ac: int, reduce: int = 0) -> str:
        """Weapon dice + a die per threshold, minus AC, at least 0 (TA-10, TA-11)."""
        less = ac + reduce
        return f"{R.damage_dice(die, hit_tier)}{f'-{less}' if less else ''} min 0"

    def preview(self, state: GameState, action: Action) -> Preview:
        """A declaration's attack, a strike (with a variant per defence the target may commit),
        an answer's own roll, the movement die."""
        kind = action.kind
        if kind == "declare":
            return self._declare_preview(state, action)
        if kind in ("strike", "riposte"):
            a = state.figure(action.figure)
            t, mode = self._target_of(state, a, kind)
            combined = (
                kind == "strike"
                and mode != "shot"
                and self.combined(state, a.id, "attack" if mode == "melee" else "brawl")
            )
            plain = self.attack_chain(state, a, t, mode, combined, None)
            variants = [Variant("No defensive roll", plain)] + [
                Variant(
                    f"{t.name} commits a {DEFENCE_WORDS[d]}",
                    self.attack_chain(state, a, t, mode, combined, d),
                )
                for d in self.defences(state, t, a, mode)
            ]
            chain = Chain(
                plain.label, plain.stages, plain.rule, tuple(variants) if len(variants) > 1 else ()
            )
            return Preview(
                action,
                True,
                rollables=(chain,),
                highlights={"target": t.hexes()},
                notes=self._strike_notes(state, t, len(variants) > 1),
            )
        if kind in (*ANSWERS.values(), "take") and state.prompt is not None:
            c = state.prompt.context
            assert isinstance(c, dict)
            a, t = state.figure(str(c["attacker"])), state.figure(str(c["target"]))
            d = next((k for k, v in ANSWERS.items() if v == kind), None)
            chain = self.attack_chain(state, a, t, str(c["mode"]), bool(c["combined"]), d)
            return Preview(
                action, True, rollables=(chain,), notes=(f"{a.name} rolled {c['total']} to hit.",)
            )
        if kind == "sprint":
            f = state.figure(action.figure)
            die = R.movement_die(str(self.armour(state, f).get("class")))
            if not self.combined(state, f.id, "move"):
                amount = Amount("Extra hexes", die, rule="TA-24", unit="hexes")
                return Preview(action, True, rollables=(amount,))
            # TA-25, D-12: the better of two dice, then +1 or -1 hex at choice (never below
            # 0; a die shows at least 1): the chosen adjustment's odds, the others as variants
            chosen = action.integer("adjust", 1)

            def kept(adjust: int) -> Amount:
                words = {1: "+1 hex at choice", -1: "-1 hex at choice"}
                mods = (Modifier(words[adjust], adjust, "TA-25"),) if adjust else ()
                return Amount("Extra hexes", f"2{die}kh1", mods, rule="TA-25, D-12", unit="hexes")

            others = tuple(Variant(ADJUST_WORDS[a], kept(a)) for a in (1, 0, -1) if a != chosen)
            amount = replace(kept(chosen), variants=others)
            low, high = 0, int(die[1:]) + 1
            note = (
                f"Better of two {die}, then ±1 at choice: {low} to {high} extra hexes "
                f"(TA-25, D-12); {ADJUST_WORDS[chosen].lower()} shown."
            )
            return Preview(action, True, rollables=(amount,), notes=(note,))
        return Preview(action, True)

    def _declare_preview(self, state: GameState, action: Action) -> Preview:
        f = state.figure(action.figure)
        first, second = str(action.params.get("first", "")), str(action.params.get("second", ""))
        combine = R.is_combined(first, second, action.params.get("combine") is True)
        t = state.figures.get(str(action.params.get("target") or ""))
        rollables: list[Rollable] = []
        if "attack" in (first, second) and t is not None:
            side = self.attack_side(state, f, "melee", combine)
            base, label = self.passive(state, t), f"{t.name}'s passive defence (TA-6)"
            rollables.append(
                Check(
                    "Attack",
                    side.dice,
                    "ge",
                    base,
                    label,
                    (),
                    side.modifiers,
                    rule="TA-8",
                    success_text="hit",
                    success_phrase="to hit",
                    failure_text="miss",
                )
            )
        note = (
            "3d10, keep the best two (TA-5)"
            if combine and first != "move"
            else "2d10 per action (TA-4)"
        )
        return Preview(action, True, rollables=tuple(rollables), notes=(note,))

    def _strike_notes(self, state: GameState, t: Figure, defended: bool) -> tuple[str, ...]:
        """What the odds assume: thresholds (TA-11) and the defence never below passive (D-2)."""
        first = _int(state.options.get("ta.threshold_1"), 5)
        notes = [
            f"A surplus of {first} or more adds damage dice, a hit location and a save (TA-11)."
        ]
        if defended:
            notes.append(
                f"A defensive roll never lowers {t.name}'s defence below the passive "
                f"{self.passive(state, t)} ('min' in its dice, D-2); {t.name} is asked after "
                "the attack is rolled (TA-17)."
            )
        return tuple(notes)

    def _target_of(self, state: GameState, a: Figure, kind: str) -> tuple[Figure, str]:
        if kind == "riposte":
            c = state.prompt.context if state.prompt is not None else None
            if isinstance(c, dict) and c.get("attacker") == a.id:  # at once (I-3)
                return state.figure(str(c["target"])), "melee"
            return state.figure(str(self.mem(state, "ripostes").get(a.id))), "melee"
        return state.figure(str(self.plan(state, a.id).get("target"))), self.strike_mode(state, a)

    def do_hold(self, state: GameState, action: Action, dice: Dice) -> None:
        """The blow is not struck."""
        f = state.figure(action.figure)
        if state.prompt is None:
            self.mem(state, "done").append(f.id)
        state.emit(Event("hold", f"{f.name} holds", f.id, rule="TA-13"))

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """Strike in turn (TA-13, TA-14); a shot in step 2 or at rank 0 (TA-22, D-10)."""
        a = state.figure(action.figure)
        t, mode = self._target_of(state, a, "strike")
        self.mem(state, "done").append(a.id)
        if mode == "shot":
            a.memory["loaded"] = False
        kind = "attack" if mode == "melee" else "brawl"
        combined = mode != "shot" and self.combined(state, a.id, kind)
        self._blow(state, dice, a, t, mode, combined)

    def do_riposte(self, state: GameState, action: Action, dice: Dice) -> None:
        """The counter-strike of a protagonist who ceded, after a spectacular mistake
        (TA-17, I-3)."""
        a = state.figure(action.figure)
        if state.prompt is not None:
            c = state.prompt.context
            assert isinstance(c, dict)
            t = state.figure(str(c["target"]))
        else:
            t = state.figure(str(self.mem(state, "ripostes").get(a.id)))
            self.mem(state, "done").append(a.id)
        self._blow(state, dice, a, t, "melee", False)

    def _blow(
        self, state: GameState, dice: Dice, a: Figure, t: Figure, mode: str, combined: bool
    ) -> None:
        side = self.attack_side(state, a, mode, combined)
        roll = dice.roll(side.dice)
        total = roll.total + side.bonus
        passive = self.passive(state, t)
        rule = str(state.options.get("ta.fumble_rule"))
        context: dict[str, Json] = {
            "attacker": a.id,
            "target": t.id,
            "mode": mode,
            "combined": combined,
            "roll": roll.to_json(),
            "total": total,
        }
        faces = ", ".join(map(str, roll.faces))
        verb = "shoots at" if mode == "shot" else "strikes at"
        text = (
            f"{a.name} {verb} {t.name}: {total} ({dice_words(side.dice)}: {faces}; {side.bonus:+d})"
        )
        if R.is_spectacular_mistake(roll.kept_faces, total, passive, rule):
            state.emit(
                Event(
                    "attack",
                    f"{text}: a spectacular mistake, a miss (TA-17, D-9)",
                    a.id,
                    t.id,
                    "TA-17",
                    rolls=(roll.to_json(),),
                    data={"total": total, "fumble": True},
                )
            )
            self._offer_counter(state, t, a)
            return
        kinds = self.defences(state, t, a, mode)
        if kinds:
            answers = (
                *(
                    ActionSpec(
                        ANSWERS[k],
                        DEFENCE_WORDS[k],
                        t.id,
                        (),
                        f"Commit the declared {k} (TA-7).",
                        "TA-7",
                    )
                    for k in kinds
                ),
                ActionSpec(
                    "take",
                    "No defensive roll",
                    t.id,
                    (),
                    "Keep it; meet the blow with the passive defence (TA-6).",
                    "TA-6",
                ),
            )
            words = " or ".join(DEFENCE_WORDS[k] for k in kinds)
            state.ask(
                t.id,
                f"{t.name}: {words} this attack ({total} to hit)?",
                answers,
                rule="TA-7",
                context=context,
                text=text,
            )
            return
        self._land(state, dice, a, t, mode, combined, roll, None)

    def _offer_counter(self, state: GameState, t: Figure, a: Figure) -> None:
        """After a spectacular mistake against a protagonist who ceded, the unused defensive
        action may become a counter-strike (TA-17), in the Riposte step or at once (I-3)."""
        strikers = {s.id: s for s in self.strikers(state)}
        ceded = (
            (t.id in strikers and R.cedes_now(strikers[t.id], strikers))
            or "dodge" in self.actions_of(state, t.id)
            or "wait" in self.actions_of(state, t.id)
        )
        if not ceded or not any(k in self.actions_of(state, t.id) for k in R.DEFENCES):
            return
        spent = self.mem(state, "spent").setdefault(t.id, [])
        spent.extend(k for k in R.DEFENCES if k in self.actions_of(state, t.id))
        if (
            state.options.get("ta.counter_strike_step") == "immediate"
            and figure_distance(a, t) == 1
        ):
            answers = (
                ActionSpec(
                    "riposte", "Counter-strike", t.id, (), "Strike back now (TA-17).", "TA-17"
                ),
                ActionSpec("hold", "Hold", t.id, (), "", "TA-17"),
            )
            state.ask(
                t.id,
                f"{t.name}: counter-strike {a.name}?",
                answers,
                rule="TA-17",
                context={"attacker": t.id, "target": a.id},
            )
            return
        self.mem(state, "ripostes")[t.id] = a.id
        state.emit(
            Event(
                "riposte",
                f"{t.name} may counter-strike {a.name} in the Riposte step (TA-17, I-3)",
                t.id,
                a.id,
                "TA-17",
            )
        )

    def _answer(self, state: GameState, dice: Dice, kind: str | None) -> None:
        prompt = state.prompt
        assert prompt is not None and isinstance(prompt.context, dict)
        c = prompt.context
        a, t = state.figure(str(c["attacker"])), state.figure(str(c["target"]))
        roll = Roll.from_json(c["roll"])
        mode, combined = str(c["mode"]), bool(c["combined"])
        self._land(state, dice, a, t, mode, combined, roll, kind)

    def do_parry(self, state: GameState, action: Action, dice: Dice) -> None:
        """Commit the declared Parry against this attacker (TA-7, D-2)."""
        self._answer(state, dice, "parry")

    def do_shield_block(self, state: GameState, action: Action, dice: Dice) -> None:
        """Commit the Block: its roll covers every blow this round (TA-7, D-2)."""
        self._answer(state, dice, "block")

    def do_dodge(self, state: GameState, action: Action, dice: Dice) -> None:
        """Commit the declared Dodge against this attacker (TA-7, D-2)."""
        self._answer(state, dice, "dodge")

    def do_take(self, state: GameState, action: Action, dice: Dice) -> None:
        """Meet the blow with the passive defence and keep the defensive action (TA-6)."""
        self._answer(state, dice, None)

    def _land(
        self,
        state: GameState,
        dice: Dice,
        a: Figure,
        t: Figure,
        mode: str,
        combined: bool,
        roll: Roll,
        kind: str | None,
    ) -> None:
        """Resolve a rolled attack against the defence and apply the result at once
        (TA-9..TA-13)."""
        side = self.attack_side(state, a, mode, combined)
        attack = roll.total + side.bonus
        faces = ", ".join(map(str, roll.faces))
        details = [f"Attack: {side.dice} ({faces}) {side.bonus:+d} = {attack} (TA-8)"]
        rolls = [roll.to_json()]
        reduce = 0
        if kind is None:
            defence, label = self.standing_defence(state, t, a)
            details.append(f"{a.name} {attack} against {t.name}'s {label}: {defence}")
        else:
            dside, _ = self.defence_side(state, t, kind)
            droll = dice.roll(dside.dice)
            rolls.append(droll.to_json())
            dtotal = droll.total + dside.bonus
            passive = self.passive(state, t)
            spent = self.mem(state, "spent").setdefault(t.id, [])
            if kind == "block":
                self.mem(state, "blocks")[t.id] = dtotal
            else:
                spent.append(kind)
            if kind == "parry" and state.options.get("ta.defence_mode") != "max":
                defence = passive
                reduce = max(0, dtotal - passive)
                details.append(f"{t.name}'s parry {dtotal} reduces the surplus by {reduce} (I-4)")
            else:
                check = OpposedCheck("To hit", side, dside, ties="attacker", rule="TA-9")
                details.append(check.resolve(roll, droll).explain())
                defence = R.effective_defence(passive, dtotal)
            details.append(
                f"{t.name}'s defence {defence}: the higher of passive {passive} and the {kind} "
                f"roll (D-2)"
            )
        if not R.hits(attack, defence):
            state.emit(
                Event(
                    "attack",
                    f"{a.name} misses {t.name} ({attack} against {defence})",
                    a.id,
                    t.id,
                    "TA-9",
                    tuple(details),
                    tuple(rolls),
                    {"attack": attack, "defence": defence, "hit": False},
                )
            )
            return
        value = max(0, R.surplus(attack, defence) - reduce)
        thresholds = [_int(state.options.get(f"ta.threshold_{n}")) for n in (1, 2, 3)]
        hit_tier = R.tier(value, thresholds)
        state.emit(
            Event(
                "attack",
                f"{a.name} hits {t.name} ({attack} against {defence}, surplus {value})",
                a.id,
                t.id,
                "TA-9",
                tuple(details),
                tuple(rolls),
                {
                    "attack": attack,
                    "defence": defence,
                    "hit": True,
                    "surplus": value,
                    "tier": hit_tier,
                },
            )
        )
        if kind == "block" and state.options.get("ta.block_shield_risk") and value >= 5:
            risk = dice.roll("d10")
            word = "torn away" if risk.total <= 5 else "broken"
            t.statuses["shield_lost"] = Status("shield_lost", note=word)
            state.emit(
                Event(
                    "status",
                    f"{t.name}'s shield is {word} ({risk.total} on d10, D-3)",
                    t.id,
                    rule="D-3",
                    rolls=(risk.to_json(),),
                )
            )
        if mode == "brawl":
            self._brawl(state, dice, a, t, value)
            return
        ac = _int(self.armour(state, t).get("ac"))
        die = self._damage_die(state, a, mode)
        amount = Amount(
            "Damage", self._damage_expr(die, hit_tier, ac, reduce), rule="TA-10", unit="damage"
        )
        result = amount.roll(dice)
        self._hurt(state, a, t, result.total, result.explain(), result.rolls[0].to_json(), hit_tier)
        if hit_tier >= 1 and not self.is_out(state, t):
            self._tactical(state, dice, a, t, hit_tier)

    def _hurt(
        self,
        state: GameState,
        a: Figure,
        t: Figure,
        damage: int,
        line: str,
        roll: Any,
        hit_tier: int,
    ) -> None:
        """Damage off hit points, the overflow off body points (TA-12)."""
        hp, bp = t.pools["hp"], t.pools["bp"]
        hp.current, bp.current = R.take_damage(hp.current, bp.current, damage)
        extra = (
            f", {hit_tier} extra {'die' if hit_tier == 1 else 'dice'} (TA-11)" if hit_tier else ""
        )
        state.emit(
            Event(
                "damage",
                f"{t.name} takes {damage} damage{extra}: HP {hp.current}, BP {bp.current}",
                a.id,
                t.id,
                "TA-12",
                (line,),
                (roll,) if roll else (),
                {"damage": damage, "hp": hp.current, "bp": bp.current},
            )
        )
        if (
            bp.current <= 0
            and state.options.get("ta.down_at_zero_bp", True)
            and not t.has_status("down")
        ):
            t.statuses["down"] = Status("down")
            self.mem(state, "stopped")[t.id] = a.id
            state.emit(
                Event(
                    "status",
                    f"{t.name} is down at {bp.current} body points (TA-12, R-5)",
                    t.id,
                    rule="TA-12",
                )
            )

    def location_table(self, state: GameState) -> Amount:
        """The d10 hit location (TA-11, D-6)."""
        bands = tuple(
            Band(int(r["low"]), int(r["high"]), str(r["id"]), str(r["label"]))
            for r in self._table(state, "locations")
        )
        return Amount("Hit location", "d10", rule="TA-11", bands=bands)

    def save_check(self, state: GameState, t: Figure, attribute: str, hit_tier: int) -> Check:
        """The attribute save by location: 2d10 at or under the attribute plus the tier's
        penalty (TA-11, D-7)."""
        penalty = R.save_modifier(hit_tier, state.options)
        mods = (Modifier(f"Threshold {hit_tier}", penalty, "D-5"),) if penalty else ()
        return Check(
            f"{attribute.capitalize()} save",
            "2d10",
            "le",
            _int(t.stats.get(attribute), 10),
            attribute.capitalize(),
            mods,
            rule="TA-11",
            success_text="saved",
            success_phrase="to save",
            failure_text="failed",
        )

    def _tactical(self, state: GameState, dice: Dice, a: Figure, t: Figure, hit_tier: int) -> None:
        """Location, save and tactical effect, applied at once (TA-11, TA-13, D-6, D-7)."""
        where = self.location_table(state).roll(dice)
        assert isinstance(where, AmountResult)
        row = next(r for r in self._table(state, "locations") if r["id"] == where.outcome_id)
        save = self.save_check(state, t, str(row["attribute"]), hit_tier)
        result = save.roll(dice)
        rolls = (where.roll.to_json(), *(r.to_json() for r in result.rolls))
        lines = (where.explain(), result.explain())
        if result.success:
            state.emit(
                Event(
                    "save",
                    f"{t.name} is hit in the {row['label'].lower()} and saves",
                    t.id,
                    rule="TA-11",
                    details=lines,
                    rolls=rolls,
                )
            )
            return
        effect = "incapacitated" if hit_tier >= 3 else str(row["effect"])
        self._apply(state, a, t, effect, lasting=hit_tier >= 2)
        state.emit(
            Event(
                "tactical",
                f"{t.name} is hit in the {row['label'].lower()}, fails the save: "
                f"{effect.replace('_', ' ')}",
                t.id,
                rule="TA-11",
                details=lines,
                rolls=rolls,
                data={"effect": effect, "location": where.outcome_id},
            )
        )

    def _apply(
        self, state: GameState, a: Figure, t: Figure, effect: str, lasting: bool = False
    ) -> None:
        """A tactical effect at once (TA-11, TA-13): a lost blow is lost now."""
        stopped = self.mem(state, "stopped")
        if effect == "stagger" or lasting:
            t.statuses["staggered"] = Status("staggered")
        if effect in ("lose_actions", "incapacitated", "drop_weapon"):
            stopped[t.id] = a.id
        if effect == "lose_actions":
            self.mem(state, "spent")[t.id] = list(R.DEFENCES)
        if effect == "drop_weapon":
            t.statuses["dropped_weapon"] = Status("dropped_weapon")
        if effect == "drop_shield":
            t.statuses["shield_lost"] = Status("shield_lost", note="dropped")
        if effect == "stumble":
            t.statuses["prone"] = Status("prone")
        if effect == "incapacitated":
            t.statuses["incapacitated"] = Status("incapacitated")

    def _brawl(self, state: GameState, dice: Dice, a: Figure, t: Figure, value: int) -> None:
        """Pummel damage from the surplus (TA-19, D-13), or a grapple, lock, throw or trip with
        a save (TA-21, D-14)."""
        style = str(self.plan(state, a.id).get("style") or "pummel")
        ac = _int(self.armour(state, t).get("ac"))
        if style == "pummel":
            base, div = (
                _int(state.options.get("ta.pummel_base"), 1),
                _int(state.options.get("ta.pummel_divisor"), 2),
            )
            damage = R.pummel_damage(value, ac, base, div)
            self._hurt(state, a, t, damage, f"{base} + {value} // {div} - AC {ac} (D-13)", None, 0)
            return
        bar = _int(state.options.get("ta.brawl_bar"), 5)
        if value < bar:
            state.emit(
                Event(
                    "brawl",
                    f"{a.name}'s {style} falls short: surplus {value} under {bar} (TA-21)",
                    a.id,
                    t.id,
                    "TA-21",
                )
            )
            return
        attribute = "strength" if style == "lock" else "agility"
        target = R.brawl_save_target(_int(t.stats.get(attribute), 10), value, bar)
        save = Check(
            f"{attribute.capitalize()} save",
            "2d10",
            "le",
            target,
            f"{attribute.capitalize()} - (surplus - {bar})",
            rule="TA-21",
            success_text="saved",
            success_phrase="to save",
            failure_text="failed",
        )
        result = save.roll(dice)
        if result.success:
            state.emit(
                Event(
                    "brawl",
                    f"{t.name} saves against the {style}",
                    t.id,
                    a.id,
                    "TA-21",
                    (result.explain(),),
                    tuple(r.to_json() for r in result.rolls),
                )
            )
            return
        closed = self.mem(state, "closed")
        if style == "grapple":
            closed[a.id], closed[t.id] = t.id, a.id
        elif style == "lock":
            t.statuses["locked"] = Status("locked")
        else:
            t.statuses["prone"] = Status("prone")
            if style == "throw":
                t.statuses["staggered"] = Status("staggered")
        state.emit(
            Event(
                "brawl",
                f"{a.name}'s {style} succeeds against {t.name}",
                a.id,
                t.id,
                "TA-21",
                (result.explain(),),
                tuple(r.to_json() for r in result.rolls),
                {"style": style},
            )
        )

    def end_step(self, state: GameState, dice: Dice) -> None:
        """At the end of a round: death saves at 0 body points or less (TA-12, D-8), and a
        locked protagonist tries to break the lock (D-14)."""
        if self.next_clock(state).step != "declare":
            return
        for f in list(state.figures.values()):
            if f.has_status("dead"):
                continue
            bp = f.pools["bp"].current if "bp" in f.pools else 1
            if bp <= 0 and state.options.get("ta.death_saves", True):
                check = Check(
                    "Death save",
                    "2d10",
                    "le",
                    _int(f.stats.get("health"), 10),
                    "Health",
                    (Modifier("Body points", bp, "D-8"),),
                    rule="TA-12",
                    success_text="lives",
                    success_phrase="to live",
                    failure_text="dies",
                )
                result = check.roll(dice)
                if not result.success:
                    f.statuses["dead"] = Status("dead")
                state.emit(
                    Event(
                        "save",
                        f"{f.name} {'lives' if result.success else 'dies'} (TA-12, D-8)",
                        f.id,
                        rule="TA-12",
                        details=(result.explain(),),
                        rolls=tuple(r.to_json() for r in result.rolls),
                    )
                )
            if f.has_status("locked"):
                check = Check(
                    "Break the lock",
                    "2d10",
                    "le",
                    _int(f.stats.get("strength"), 10),
                    "Strength",
                    rule="TA-21",
                )
                result = check.roll(dice)
                if result.success:
                    del f.statuses["locked"]
                state.emit(
                    Event(
                        "save",
                        f"{f.name} {'breaks' if result.success else 'stays in'} the lock (D-14)",
                        f.id,
                        rule="TA-21",
                        details=(result.explain(),),
                        rolls=tuple(r.to_json() for r in result.rolls),
                    )
                )

    # ---- words and looks -------------------------------------------------------------
    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """Confirm words of declarations, strikes and moves."""
        return {
            "declare": {"confirm": "Declare"},
            "strike": {"confirm": "Strike!"},
            "move": {"confirm": "Move here"},
        }.get(spec.kind, {})

    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """D-15 (TA-22): whether ``distance`` is within ``figure``'s missile weapon's maximum
        range (there are no range modifiers); '' without a figure or a missile weapon."""
        if figure is None:
            return ""
        name, row = self.missile(state, figure)
        reach = _int(row.get("range"))
        if reach < 1 or distance < 1:
            return ""
        words = name.replace("_", " ")
        where = "in range" if distance <= reach else "out of range"
        return f"{where} of the {words} ({reach} hexes, D-15)"

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure waits now."""
        if state.clock.step == "combat" and figure.id in self.mem(state, "stopped"):
            return f"{figure.name}'s blow was stopped by an earlier result (TA-13)."
        if state.clock.step in ("combat", "missiles", "riposte"):
            if figure.id in self.mem(state, "done"):
                return f"{figure.name} has struck or held this step (TA-13)."
            if figure.id in self.who_acts(state).figures:
                return f"{figure.name} waits for its place in the strike order (TA-14)."
            return f"{figure.name} has no blow to strike in this step (TA-27)."
        return ""

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """Statuses, wounds, 'cedes' and 'closed'."""
        words = super().badges(state, figure)
        acts = self.actions_of(state, figure.id)
        if "dodge" in acts or "wait" in acts:
            words.append("cedes")
        if self.closed_with(state, figure.id):
            words.append("closed")
        return words

    def badge_color(self, badge: str) -> str:
        """Ceding in amber, closed in dark red."""
        return {"cedes": "#b7791f", "closed": "#7b241c"}.get(badge, super().badge_color(badge))

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Passive defence and the revealed declaration."""
        plan = self.plan(state, figure.id)
        acts = " + ".join(plan.get("actions", [])) + (" (combined)" if plan.get("combine") else "")
        return {
            "ta_passive": self.passive(state, figure),
            "ta_declared": acts,
            "ta_loaded": figure.memory.get("loaded") is True,
        }

    def view_label(self, key: str) -> str:
        """Names of the figure view's keys."""
        return {
            "ta_passive": "Passive defence",
            "ta_declared": "Declared",
            "ta_loaded": "Missile loaded",
            "hp": "Hit points",
            "bp": "Body points",
        }.get(key, super().view_label(key))


def signed(n: int) -> str:
    """'+3', '-2', '' for 0."""
    return f"{n:+d}" if n else ""
