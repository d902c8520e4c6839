"""Test-only rulesets that exercise the engine's time, hidden choices and prompts.

They are not registered in the app: a test registers them with
:func:`registered` (undone when the test ends). Each is as small as its point:

- :class:`PulseKit`: a round of three Pulses; engaged figures act before the others
  (strike-chance-pulse's SCP-6), and an empty step is skipped.
- :class:`HalfPhaseKit`: a phase of two half-phases whose lengths are ceil/floor of
  each figure's hidden declared speed (combat-speed-phase's CSP-9).
- :class:`StrikeOrderKit`: a strike order by weapon and skill with ceded initiative
  (two-action-2d10's TA-14, TA-16, TA-17), and a parry prompt for the target of a strike.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import Check
from hexcombat.dice import Dice
from hexcombat.encounter import Encounter
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import Hex, distance
from hexcombat.rulesets import registry
from hexcombat.rulesets.base import Ruleset
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.terrain import TerrainTable
from hexcombat.time import Acting, Clock, StepDef, Time

TERRAIN = TerrainTable.from_json([{"id": "open", "name": "Open", "move_cost": 1}])


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register every kit ruleset for one test only."""
    for cls in (PulseKit, HalfPhaseKit, StrikeOrderKit):
        monkeypatch.setitem(registry._REGISTRY, cls.id, cls())
    yield


def encounter(ruleset: str, *figures: tuple[str, str, str, tuple[int, int]]) -> Encounter:
    """An encounter of a kit ruleset with figures (id, name, side, (q, r)) on a 10x10 board."""
    enc = Encounter.new(ruleset, 10, 10, name="Kit")
    for fid, name, side, (q, r) in figures:
        enc = enc.with_figure(enc.ruleset.new_figure(fid, name, side, Hex(q, r)))
    return enc


class Kit(Ruleset):
    """What every kit ruleset shares: figures that ``pass`` once per step, done ids in memory."""

    summary = "Test-only."
    terrain = TERRAIN

    def start_step(self, state: GameState) -> None:
        """Nobody has acted in a new step."""
        state.memory["done"] = []

    def done(self, state: GameState) -> list[str]:
        """Figures that have acted in this step."""
        done = state.memory["done"]
        assert isinstance(done, list)
        return [str(f) for f in done]

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Pass, once per step."""
        if figure.id in self.done(state):
            return []
        return [ActionSpec("pass", "Pass", figure.id)]

    def do_pass(self, state: GameState, action: Action, dice: Dice) -> None:
        """Do nothing this step."""
        figure = state.figure(action.figure)
        state.memory["done"] = [*self.done(state), figure.id]
        state.emit(Event("pass", f"{figure.name} passes", figure.id))


class PulseKit(Kit):
    """Rounds of three Pulses; in each, engaged figures act first (SCP-6)."""

    id = "kit-pulse"
    name = "Kit: Pulses"
    pulses = 3
    time = Time(
        ("round", "pulse"),
        (
            StepDef("engaged", "Engaged combat", "act", rule="SCP-6"),
            StepDef("free", "Everyone else", "act", rule="SCP-6"),
        ),
    )

    def engaged(self, state: GameState) -> list[str]:
        """Figures next to an enemy, in setup order."""
        living = list(state.living())
        return [
            f.id
            for f in living
            if any(o.side != f.side and distance(o.position, f.position) == 1 for o in living)
        ]

    def step_is_empty(self, state: GameState, step: StepDef) -> bool:
        """The engaged step is skipped when nobody is engaged."""
        return step.id == "engaged" and not self.engaged(state)

    def next_clock(self, state: GameState) -> Clock:
        """After the last step of the last Pulse, the next round begins."""
        clock = super().next_clock(state)
        if clock.counters[1] > self.pulses:
            return state.clock.rolled(0, clock.step)
        return clock

    def acting(self, state: GameState) -> Acting:
        """The engaged figures, or everyone else."""
        engaged = self.engaged(state)
        if state.step.id == "engaged":
            ids, note = engaged, "engaged figures act first (SCP-6)"
        else:
            ids = [f.id for f in state.living() if f.id not in engaged]
            note = "after the engaged figures (SCP-6)"
        waiting = tuple(f for f in ids if f not in self.done(state))
        return Acting("all", tuple(ids), waiting=waiting, order_notes=(note,))


class HalfPhaseKit(Kit):
    """A phase: hidden speeds, two half-phases of ceil(M/2) and floor(M/2) hexes, combat."""

    id = "kit-half-phase"
    name = "Kit: half-phases"
    time = Time(
        ("phase", "half-phase"),
        (
            StepDef("declare", "Declare speed", "declare", unit="phase", rule="CSP-8"),
            StepDef("move", "Movement", "move", rule="CSP-9"),
            StepDef("combat", "Combat", "act", unit="phase"),
        ),
    )

    def next_clock(self, state: GameState) -> Clock:
        """Declare, the first half, the second half, combat; then the next phase."""
        clock, step = state.clock, state.step.id
        if step == "declare":
            return clock.at("move")
        if step == "move" and clock.counters[1] == 1:
            return clock.rolled(1, "move")
        if step == "move":
            return clock.at("combat")
        return clock.rolled(0, "declare")

    def allowance(self, state: GameState, figure: Figure) -> int:
        """Hexes left in this half-phase: ceil(M/2) in the first, floor(M/2) in the second."""
        speed = state.memory.get("speed", {})
        assert isinstance(speed, dict)
        m = int(speed.get(figure.id, 0))
        half = (m + 1) // 2 if state.clock.counters[1] == 1 else m // 2
        return 0 if figure.id in self.done(state) else half

    def acting(self, state: GameState) -> Acting:
        """Everyone declares (hidden); in a half-phase, those with hexes left move."""
        living = tuple(f.id for f in state.living())
        if state.step.id == "declare":
            return Acting("all", living, hidden=True)
        if state.step.id == "move":
            movers = tuple(f.id for f in state.living() if self.allowance(state, f) > 0)
            return Acting("all", movers, waiting=movers, order_notes=("simultaneous (CSP-8)",))
        return super().acting(state)

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Declare a speed, or advance up to this half's allowance."""
        if state.step.id == "declare":
            speed = FieldSpec("speed", "Speed", "int", minimum=0, maximum=12)
            return [ActionSpec("declare", "Declare speed", figure.id, (speed,))]
        if state.step.id == "move":
            most = self.allowance(state, figure)
            hexes = FieldSpec("hexes", "Hexes", "int", minimum=1, maximum=most)
            return [ActionSpec("advance", "Advance", figure.id, (hexes,))]
        return super().figure_actions(state, figure)

    def do_declare(self, state: GameState, action: Action, dice: Dice) -> None:
        """The revealed speed takes effect."""
        figure = state.figure(action.figure)
        speeds = state.memory.setdefault("speed", {})
        assert isinstance(speeds, dict)
        speeds[figure.id] = action.integer("speed")
        state.emit(Event("speed", f"{figure.name} moves {speeds[figure.id]} this phase", figure.id))

    def do_advance(self, state: GameState, action: Action, dice: Dice) -> None:
        """Move forward (east) some hexes of this half's allowance."""
        figure = state.figure(action.figure)
        n = action.integer("hexes")
        figure.position = Hex(figure.position.q + n, figure.position.r)
        state.memory["done"] = [*self.done(state), figure.id]
        state.emit(Event("advance", f"{figure.name} advances {n}", figure.id))


WEAPONS = ("spear", "sword", "axe")
"""Longer and thrusting weapons first (TA-14)."""


class StrikeOrderKit(Kit):
    """Hidden weapon and ceding declarations, then strikes in weapon order; a strike asks its
    target whether to parry."""

    id = "kit-strike-order"
    name = "Kit: strike order"
    figure_fields = (FieldSpec("skill", "Skill", "int", 3, minimum=0, maximum=10),)
    time = Time(
        ("round",),
        (
            StepDef("declare", "Declarations", "declare", rule="TA-27"),
            StepDef("combat", "Combat", "act", rule="TA-14"),
        ),
    )

    def declared(self, state: GameState) -> dict[str, dict[str, object]]:
        """Each figure's revealed weapon and ceding."""
        table = state.memory.setdefault("declared", {})
        assert isinstance(table, dict)
        return table

    def order(self, state: GameState) -> tuple[list[str], list[str]]:
        """The strike order and why: weapon (TA-14), then skill (TA-16); who cedes goes last
        (TA-17)."""
        table = self.declared(state)
        figures = {f.id: f for f in state.living()}

        def key(fid: str) -> tuple[bool, int, int]:
            d = table[fid]
            skill = figures[fid].stats["skill"]
            assert isinstance(skill, int)
            return (bool(d["cede"]), WEAPONS.index(str(d["weapon"])), -skill)

        order = sorted((f for f in figures if f in table), key=key)
        notes = []
        for a, b in pairwise(order):
            wa, wb = table[a]["weapon"], table[b]["weapon"]
            if table[b]["cede"] and not table[a]["cede"]:
                notes.append(f"{figures[b].name} cedes the initiative (TA-17)")
            elif wa != wb:
                notes.append(f"{str(wa).capitalize()} strikes before {wb} (TA-14)")
            else:
                notes.append(f"{figures[a].name} is more skilled (TA-16)")
        return order, notes

    def acting(self, state: GameState) -> Acting:
        """Hidden declarations; then one figure at a time in strike order."""
        if state.step.id == "declare":
            return Acting("all", tuple(f.id for f in state.living()), hidden=True)
        order, notes = self.order(state)
        waiting = tuple(f for f in order if f not in self.done(state))
        return Acting("figure", tuple(order), waiting=waiting, order_notes=tuple(notes))

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """Declare a weapon (and whether to cede), or strike an enemy."""
        if state.step.id == "declare":
            weapon = FieldSpec(
                "weapon",
                "Weapon",
                "choice",
                choices=tuple(Choice(w, w.capitalize()) for w in WEAPONS),
            )
            cede = FieldSpec("cede", "Cede the initiative", "bool", default=False, required=False)
            return [ActionSpec("declare", "Declare", figure.id, (weapon, cede))]
        targets = tuple(Choice(t.id, t.name) for t in state.living() if t.side != figure.side)
        strike = ActionSpec(
            "strike",
            "Strike",
            figure.id,
            (FieldSpec("target", "Target", "figure", choices=targets),),
        )
        return [strike, *super().figure_actions(state, figure)]

    def do_declare(self, state: GameState, action: Action, dice: Dice) -> None:
        """The revealed weapon and ceding take effect."""
        figure = state.figure(action.figure)
        weapon, cede = action.text("weapon"), action.flag("cede")
        self.declared(state)[figure.id] = {"weapon": weapon, "cede": cede}
        text = f"{figure.name} takes the {weapon}" + (" and cedes" if cede else "")
        state.emit(Event("declare", text, figure.id))

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """Strike: the target is asked whether to parry (d6 4+ parries)."""
        figure = state.figure(action.figure)
        target = state.figure(action.text("target"))
        state.memory["done"] = [*self.done(state), figure.id]
        answers = (
            ActionSpec("parry", "Parry (4+ on a d6)", target.id),
            ActionSpec("take", "Take the blow", target.id),
        )
        state.ask(
            target.id,
            f"{target.name}: parry this strike?",
            answers,
            rule="TA-7",
            context={"attacker": figure.id},
            text=f"{figure.name} strikes at {target.name}",
        )

    def do_parry(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll a d6: 4 or more parries the blow."""
        figure = state.figure(action.figure)
        parried = Check("Parry", "d6", "ge", 4, "Parry").roll(dice)
        result = "parries" if parried.success else "fails to parry and is hit"
        state.emit(Event("parry", f"{figure.name} {result} ({parried.roll.total})", figure.id))

    def do_take(self, state: GameState, action: Action, dice: Dice) -> None:
        """Take the blow."""
        figure = state.figure(action.figure)
        prompt = state.prompt
        assert prompt is not None and isinstance(prompt.context, dict)
        attacker = state.figure(str(prompt.context["attacker"]))
        state.emit(Event("hit", f"{figure.name} is hit by {attacker.name}", figure.id))
