"""The ``strike-chance-pulse`` ruleset: the Pulse, offered actions and previews (handlers in
:mod:`.perform`).

A Pulse (SCP-6, A-13, A-14) has three steps: initiative (rolled for every
figure when the step ends), engaged figures acting one by one in initiative
order, then the other figures. Each figure takes one action: Move, Charge,
Melee, Fire, Grapple, Evade, Pass, Ready or Rise. A Melee miss that may be
parried asks the defender (a prompt, SCP-32, A-6); a parry of 8 or more asks
about the Riposte (SCP-35).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import Chain, Check, Rollable, Stage
from hexcombat.dice import Dice
from hexcombat.errors import Problem
from hexcombat.figures import Equipment, Figure, Pool, Status, place
from hexcombat.geometry import Hex, direction_to, distance, neighbors
from hexcombat.layout import hex_label
from hexcombat.rulesets.base import Outcome, Preview, StartingItem
from hexcombat.rulesets.data import load
from hexcombat.rulesets.manifest import Manifest
from hexcombat.rulesets.registry import register
from hexcombat.rulesets.strike_chance_pulse import (
    aftermath,
    flow,
    ground,
    missile,
    offers,
    offers_mounted,
    offers_strikes,
    resolve,
    resolve_multiple,
    resolve_parry,
    rules,
    words,
)
from hexcombat.rulesets.strike_chance_pulse.fields import EN, FT
from hexcombat.rulesets.strike_chance_pulse.options import DOC_NOTES, FIELDS, OPTIONS, TIME
from hexcombat.rulesets.strike_chance_pulse.perform import Perform, carry_on_rollables
from hexcombat.rulesets.strike_chance_pulse.resolve import KNOCKED_OUT
from hexcombat.rulesets.strike_chance_pulse.situation import (
    OUT_STATUSES,
    UNARMED,
    Settings,
    find_weapon,
    is_out,
    missile_weapon,
    parry_amount,
    parry_rank_of,
    settings,
    strike_check,
    weapon_rank,
)
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook, RoundBook
from hexcombat.state import GameState
from hexcombat.time import Acting, StepDef
from hexcombat.validation import Json, copy_json

DATA: Any = load("strike_chance_pulse")
DAMAGE_LIMIT_NOTE = "house default"


@register
class StrikeChancePulse(Perform):
    """Percentile Strike Chance, Pulses, Ranged/Melee/Close combat, parry and riposte."""

    id = "strike-chance-pulse"
    name = "Strike Chance, Pulses"
    summary = (
        "Pulses in which engaged figures act first; Strike Chance = Base + MD + 4 x Rank minus "
        "the target's Defense Rating, D100 at or under it hits; missiles checked against every "
        "figure on their line; six special attacks, parry and riposte, unarmed and mounted "
        "combat, infection after combat."
    )
    default_die = 10
    stacking_option = "core.stacking"
    out_statuses = OUT_STATUSES  # dead or unconscious
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    tables = DATA
    doc_notes = DOC_NOTES
    manifest = Manifest.built_in(
        id,
        prefix="SCP",
        gap_letters="AIR",
        rules=58,
        position=2,
        tagline="Pulses, Strike Chance, parries and special attacks.",
        demo_about=(
            "One Pulse of the strike-chance-pulse rules: an engaged pair acts first, a Melee "
            "attack misses by 30 or more and the defender parries on the D10 table, then an arrow"
            " is checked against a friend in the way before it hits. Press Redo to step through "
            "it."
        ),
    )
    starting_gear = (StartingItem("Broadsword", "Broadsword", 2),)
    """A new figure fights with a broadsword at Rank 2 (as the demo's Bo)."""

    # ---- set-up ----------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """The placeholder weapon and shield charts (A-15; every entry marked)."""
        return {
            "weapons": copy_json(DATA["weapons"]),
            "shields": copy_json(DATA["shields"]),
        }

    def item(
        self, name: str, *, state: str = "ready", data: Mapping[str, Json] | None = None
    ) -> Equipment:
        """A weapon or shield from the charts (or ``data``), its numbers copied."""
        tables = data or self.default_data()
        for table, kind in (("weapons", "weapon"), ("shields", "shield")):
            entries = tables.get(table)
            if isinstance(entries, dict) and isinstance(entries.get(name), dict):
                return Equipment(name, kind, state, None, dict(entries[name]))
        raise ValueError(f"no weapon or shield called {name!r}")

    def stacking(self, options: Mapping[str, Json]) -> int:
        """A-32: 0 means no fixed limit."""
        value = options.get("core.stacking", 0)
        return value if isinstance(value, int) and value > 0 else 99

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """The field checks, plus at most two hands of prepared items."""
        problems = super().figure_problems(figure, data)
        from hexcombat.rulesets.strike_chance_pulse.situation import hands_used

        if hands_used(figure) > 2:
            problems.append(Problem("equipment", "more than two hands of prepared items"))
        return problems

    def roster_statuses(self, figure: Figure, gather_dropped: bool) -> dict[str, Status]:
        """Evading lasts until the next Pulse or the figure's next action (SCP-29, R-6): the
        roster never keeps it."""
        return {k: s for k, s in figure.statuses.items() if k != "evading"}

    def start(self, state: GameState) -> None:
        """Endurance and Fatigue pools (A-26), then the first Pulse."""
        for f in state.figures.values():
            en, ft = EN(f, 1), FT(f)
            f.pools.setdefault("en", Pool(en, en))
            f.pools.setdefault("ft", Pool(ft, ft))
        self.start_step(state)

    # ---- time ----------------------------------------------------------------------
    def _group(self, state: GameState, step: str) -> list[str]:
        book = RoundBook(state)
        order, engaged = book.order, set(book.engaged)
        want = step == "engaged"
        return [
            i
            for i in order
            if i in state.figures and not is_out(state.figures[i]) and (i in engaged) == want
        ]

    def acting(self, state: GameState) -> Acting:
        """The table at initiative; then one figure at a time in initiative order (SCP-6)."""
        step = state.step.id
        if step == "initiative":
            return Acting("table")
        group = self._group(state, step)
        acted = set(RoundBook(state).acted)
        waiting = tuple(i for i in group if i not in acted)
        init = RoundBook(state).initiative
        shown = ", ".join(f"{state.figures[i].name} {init.get(i, '?')}" for i in group)
        why = "engaged first" if step == "engaged" else "not engaged"
        notes = (f"{why}, SCP-6; initiative {shown} (A-13)",) if group else ()
        return Acting("figure", tuple(group), waiting=waiting, order_notes=notes)

    def step_is_empty(self, state: GameState, step: StepDef) -> bool:
        """Engaged or free steps with nobody in them are skipped."""
        return step.kind == "act" and not self._group(state, step.id)

    def blocks_next_step(self, state: GameState) -> str:
        """Every figure of the step takes its one action (A-14), a Pass at least."""
        if state.step.kind != "act":
            return ""
        waiting = self.acting(state).waiting
        if not waiting:
            return ""
        return f"{state.figures[waiting[0]].name} has not acted yet (one action per Pulse, A-14)"

    def end_step(self, state: GameState, dice: Dice) -> None:
        """A new Pulse starts when initiative is rolled: timers, then the order (A-13)."""
        if state.step.id == "initiative":
            flow.new_pulse(state, dice)

    def step_rollables(self, state: GameState) -> tuple[Rollable, ...]:
        """Finishing the initiative step rolls initiative (A-13): the rolls of the Pulse's
        upkeep done first (a figure coming round rolls too)."""
        if state.step.id != "initiative":
            return ()
        work = state.copy()
        flow.upkeep(work)
        return tuple(amount for _f, amount in flow.initiative_rolls(work))

    def autopilot_hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """``unready``: how far its best Melee Strike Chance now falls short of the best a
        weapon of its own or one in reach would give (:func:`~.ground.unready`)."""
        return {"unready": ground.unready(state, figure)}

    # ---- offers --------------------------------------------------------------------
    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """The figure's one action of the Pulse."""
        p = offers.pulse(state)
        momentum = offers.momentum_spec(state, figure)
        if momentum is not None:  # SCP-52: the mount carries on, nothing else
            return [momentum]
        simple = offers.simple_specs(state, figure)
        must_pass = FigureBook(figure).must_pass_pulse == p
        if must_pass or figure.has_status("restrained"):
            return [s for s in simple if s.kind == "pass"]
        if figure.has_status("prone"):
            rise = ActionSpec("rise", "Rise", figure.id, (), "Stand up (A-14).", "A-14")
            blocked = figure.has_status("entangled")
            return [s for s in simple if s.kind == "pass"] + ([] if blocked else [rise])
        specs: list[ActionSpec] = []
        entangled_all = figure.has_status("entangled") and settings(state).entangle_blocks == "all"
        fumbled = FigureBook(figure).skip_attack_pulse == p  # SCP-31, A-5
        if fumbled:
            move = offers.move_spec(state, figure)
            return ([move] if move and not entangled_all else []) + simple
        if not entangled_all:
            for spec in (
                offers.attack_spec(state, figure, "melee"),
                offers.attack_spec(state, figure, "ranged"),
                offers.attack_spec(state, figure, "close"),
                offers_strikes.multiple_spec(state, figure),
                offers.charge_spec(state, figure),
                offers_mounted.mounted_charge_spec(state, figure),
                offers.move_spec(state, figure),
            ):
                if spec is not None:
                    specs.append(spec)
        specs += offers_mounted.mount_specs(state, figure)
        return specs + simple

    def table_actions(self, state: GameState) -> list[ActionSpec]:
        """After the fight: the end of combat (SCP-53), then each morning (SCP-56)."""
        return aftermath.table_specs(state, self.fight_outcome(state) is not None)

    def refusal(self, state: GameState, action: Action) -> str:
        """An outside cure refused says what the figure has to cure (SCP-57)."""
        return aftermath.cure_refusal(state, action) if action.kind == "outside_cure" else ""

    def gm_actions(self, state: GameState) -> list[ActionSpec]:
        """The GM's tools, and while the fight goes on, ending it (SCP-53)."""
        specs = super().gm_actions(state)
        if state.prompt is None and self.fight_outcome(state) is None:
            specs.append(aftermath.gm_end_spec())
        return specs

    def fight_outcome(self, state: GameState) -> Outcome | None:
        """Decided when one side is left standing, or ended by the GM."""
        if aftermath.ended_by_gm(state):
            sides = tuple(dict.fromkeys(f.side for f in state.figures.values()))
            return Outcome(None, sides, "The GM ended the fight")
        return super().fight_outcome(state)

    # ---- previews ---------------------------------------------------------------------
    def preview_or_raise(self, state: GameState, action: Action) -> Preview:
        """Exact odds and every number with its rule, before any roll."""
        kind = action.kind
        if kind == "mounted_charge":
            return self._mounted_charge_preview(state, action)
        if kind == "charge":
            return self._charge_preview(state, action)
        if kind not in ("melee", "fire", "grapple", "charge", "multiple_strike"):
            if kind == "move":
                figure = state.figure(action.figure)
                to = action.hex("to")
                cost = offers.reach(state, figure).get(to)
                return Preview(action, cost is not None, cost=cost, path=(figure.position, to))
            if kind == "parry" and state.prompt is not None:
                return self._parry_preview(state, action)
            if kind in ("end_combat", "morning"):  # the preview is the roll (SCP-53...SCP-58)
                return Preview(action, True, rollables=aftermath.rollables(state, kind))
            if kind == "carry_on":
                mount = state.figure(action.figure)
                return Preview(action, True, rollables=carry_on_rollables(state, mount))
            return Preview(action, True)
        attacker = state.figure(action.figure)
        if kind == "multiple_strike":
            plans = resolve_multiple.multiple_plans(state, attacker, action)
        else:
            plans = [resolve.plan_attack(state, attacker, action)]
            if plans[0].mode == "close":  # struck once in Close combat, shields dropped (SCP-41)
                state = state.copy()
                attacker = state.figure(attacker.id)
                resolve.enter_close(state, attacker, [state.figure(plans[0].target.id)])
                plans = [resolve.plan_attack(state, attacker, action)]
        rollables: list[Rollable] = []
        notes: list[str] = []
        highlights: dict[str, tuple[Hex, ...]] = {}
        for plan in plans:
            more, why, marks = self._plan_preview(state, attacker, plan)
            rollables += more
            notes += why
            for key, hexes in marks.items():
                highlights[key] = (*highlights.get(key, ()), *hexes)
        return Preview(
            action,
            True,
            rollables=tuple(rollables),
            notes=tuple(notes),
            cost=1,
            highlights=highlights,
        )

    def _charge_preview(self, state: GameState, action: Action) -> Preview:
        """SCP-8: the strike as it will be from the hex the charge ends in, facing the target
        (the shield and the hex the attack comes through depend on it, SCP-39)."""
        figure = state.figure(action.figure)
        target = state.figure(action.text("target"))
        to = action.hex("to")
        cost = offers.reach(state, figure).get(to)
        facing = direction_to(to, target.position)
        if cost is None or facing is None:
            why = f"{figure.name} cannot charge {target.name} from {hex_label(to)}"
            return Preview(action, False, why)
        home, heading = figure.position, figure.facing
        params = {**action.params, "charge": True}
        params.pop("to", None)
        try:
            place(state.figures.values(), figure, to, facing)
            inner = self.preview_or_raise(state, Action("melee", figure.id, params))
        finally:
            place(state.figures.values(), figure, home, heading)
        return Preview(
            action,
            inner.allowed,
            inner.reason,
            rollables=inner.rollables,
            notes=inner.notes,
            cost=cost,
            path=(home, to),
            highlights=inner.highlights,
        )

    def _mounted_charge_preview(self, state: GameState, action: Action) -> Preview:
        """SCP-51: the strike as it will be at the end of the straight run."""
        pair = offers_mounted.pair_of(state, state.figure(action.figure))
        if pair is None:
            return Preview(action, False, "a mounted Charge needs a rider and its mount (SCP-51)")
        rider, mount = pair
        target = state.figure(action.text("target"))
        to = action.hex("to")
        if to not in offers_mounted.charge_ends(state, rider, mount, target):
            return Preview(
                action, False, f"{mount.name} cannot run straight to {hex_label(to)} (SCP-51)"
            )
        home = mount.position
        params = {**action.params, "special": "none", "charge": True}
        params.pop("to", None)
        try:
            place(state.figures.values(), mount, to, mount.facing)
            inner = self.preview_or_raise(state, Action("melee", rider.id, params))
        finally:
            place(state.figures.values(), mount, home, mount.facing)
        notes = (
            f"{mount.name} runs {distance(home, to)} hexes straight ahead, facing unchanged "
            "(SCP-51); next Pulse it carries on for its full TMR (SCP-52)",
            *inner.notes,
        )
        return Preview(
            action,
            inner.allowed,
            inner.reason,
            rollables=inner.rollables,
            notes=notes,
            cost=distance(home, to),
            path=(home, to),
            highlights=inner.highlights,
        )

    def _plan_preview(
        self, state: GameState, attacker: Figure, plan: resolve.Plan
    ) -> tuple[list[Rollable], list[str], dict[str, tuple[Hex, ...]]]:
        """One attack's rollables, notes and highlights."""
        rollables: list[Rollable] = []
        notes = list(plan.notes)
        highlights: dict[str, tuple[Hex, ...]] = {"target": plan.target.hexes()}
        if plan.multiple:
            notes.append(f"Strike at {plan.target.name} with the {plan.weapon.name}")
        if plan.flight is not None:
            chain_stages: list[Stage] = []
            misses: tuple[str, ...] = ()
            for entry in plan.flight.entries:
                check = resolve.path_check(state, plan, entry)
                chain_stages.append(Stage(entry.figure.id, check, misses))
                misses = check.misses()  # the missile flies on past a miss (SCP-12)
            notes.append(f"If nothing is hit the missile {plan.flight.end}")
            highlights["los"] = plan.flight.path
            if chain_stages:
                rollables.append(
                    Chain(
                        f"{attacker.name}'s missile along its line",
                        tuple(chain_stages),
                        rule="SCP-12, A-24",
                        headline_stage=plan.target.id
                        if plan.target.id in [st.id for st in chain_stages]
                        else "",
                    )
                )
            if plan.check.fumble == "check":  # a 99 or 100 on the line (SCP-30)
                rollables.append(resolve.fumble_check(state, attacker, plan))
        else:
            fumble = Stage(
                "fumble", resolve.fumble_check(state, attacker, plan), plan.check.fumbles()
            )
            stages = (Stage("strike", plan.check), fumble)
            # only a weapon a fumble check can break or drop has one (SCP-30, SCP-31)
            rollables.append(
                Chain(
                    plan.check.label,
                    stages if plan.check.fumble == "check" else stages[:1],
                    rule="SCP-28, SCP-30",
                )
            )
        for extra in resolve.after_hit_rollables(state, plan):
            rollables.append(extra)
        if plan.check.parry_margin:
            ok, drank = parry_rank_of(state, plan.target)
            if ok:
                rollables.append(
                    flow_parry(drank, weapon_rank(attacker, plan.weapon), plan.target.name)
                )
        return rollables, notes, highlights

    def _parry_preview(self, state: GameState, action: Action) -> Preview:
        """SCP-33, SCP-34: the answer's D10 table with this defender's and attacker's Ranks."""
        prompt = state.prompt
        assert prompt is not None
        defender = state.figure(action.figure)
        if not parry_rank_of(state, defender)[0]:
            return Preview(action, False, f"{defender.name} cannot parry (SCP-36)")
        context = prompt.context if isinstance(prompt.context, dict) else {}
        attacker = state.figures.get(str(context.get("attacker")))
        name = attacker.name if attacker is not None else "the attacker"
        rollable = resolve_parry.parry_table(state, defender, context)
        return Preview(
            action,
            True,
            rollables=(rollable,),
            notes=(f"{defender.name} parries {name}: D10 on the parry table (SCP-34)",),
        )

    # ---- views --------------------------------------------------------------------
    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """SCP-3, SCP-10, A-24: where ``distance`` lies for ``figure``'s missile weapon (in
        range, too close to Fire, past the range where a missile still flies, or beyond its
        flight); '' without a figure or a missile weapon."""
        weapon = missile_weapon(state, figure) if figure is not None else None
        if weapon is None:
            return ""
        name, reach = weapon.name, weapon.range_hexes
        flight = rules.flight_hexes(reach)
        return {
            "adjacent": f"too close to Fire the {name} (SCP-3)",
            "in_range": f"in range of the {name} ({reach} hexes, A-24)",
            "flight": f"past the {name}'s range ({reach} hexes); a missile still flies "
            f"{flight} (SCP-10)",
            "beyond": f"beyond the {name}'s flight ({flight} hexes, SCP-10)",
        }[rules.missile_band(distance, reach)]

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure waits."""
        if figure.id in RoundBook(state).acted:
            return "Already acted this Pulse (one action, A-14)."
        return ""

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """Statuses, 'wounded', and 'engaged' (A-12)."""
        words = [w for w in super().badges(state, figure) if w != "evading"]
        if figure.has_status("evading"):
            words.append("evading")
        if figure.id in RoundBook(state).engaged and not is_out(figure):
            words.append("engaged")
        return words

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Strike Chances, Defense Rating, initiative and bookkeeping for the figure panel."""
        return words.figure_view(state, figure)

    def unoffered(self, state: GameState, action: Action) -> str:
        """An attack not offered says why: no weapon ready, or each foe out of its zone or
        range, or adjacent (SCP-3, SCP-4, SCP-5, A-11, A-24)."""
        figure = state.figures.get(action.figure or "")
        if figure is None:
            return ""
        return offers_strikes.attack_refusal(state, figure, action.kind, action.params)

    def conceal(self, state: GameState, figure: Figure) -> None:
        """A knockout's time unconscious is kept from the players (SCP-20) unless R-9 shows it."""
        status = figure.statuses.get("unconscious")
        shown = settings(state).knockout_duration_shown
        if status is not None and status.note == KNOCKED_OUT and not shown:
            figure.statuses["unconscious"] = Status("unconscious", None, KNOCKED_OUT)

    def invariant_problems(self, state: GameState) -> list[str]:
        """Core invariants, two hands at most, one action per Pulse."""
        from hexcombat.rulesets.strike_chance_pulse.situation import hands_used

        problems = super().invariant_problems(state)
        for f in state.figures.values():
            if hands_used(f) > 2:
                problems.append(f"{f.id} holds more than two hands of items")
        acted = RoundBook(state).acted
        if len(acted) != len(set(acted)):
            problems.append("a figure acted twice in one Pulse")
        return problems


def flow_parry(defender_rank: int | None, attacker_rank: int | None, name: str) -> Rollable:
    """The parry table a defender may roll (SCP-33, SCP-34)."""

    return parry_amount(defender_rank, attacker_rank, f"{name}'s parry, if offered")


__all__ = [
    "UNARMED",
    "Check",
    "Settings",
    "StrikeChancePulse",
    "find_weapon",
    "missile",
    "neighbors",
    "rules",
    "strike_check",
]
