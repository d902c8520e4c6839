"""The test-only ``kit-duel`` ruleset: every part of the engine interface at once.

A round (KIT-8) is a hidden stance step (KIT-1) and two passes of strikes in a
strike order by stance, reach and skill (KIT-2, KIT-3). A strike names a weapon,
one of its specials and a target in that special's zone (dependent choices,
KIT-4); the target is asked whether to block (a prompt, KIT-6); the attack is an
opposed roll 2d6 + skill against 2d6 + defence and, on a win, weapon damage
(a hit -> damage chain with exact odds, KIT-5, KIT-7). A mount covers two hexes
and two figures may share a hex (KIT-9). Not registered in the app.
"""

from __future__ import annotations

import copy
from itertools import pairwise
from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import (
    Amount,
    AmountResult,
    Chain,
    Modifier,
    OpposedCheck,
    OpposedSide,
    Stage,
    Variant,
)
from hexcombat.dice import Dice
from hexcombat.events import Event
from hexcombat.figures import Figure, Pool
from hexcombat.rulesets.base import Preview, Ruleset
from hexcombat.rulesets.common import int_or, knock_down
from hexcombat.rulesets.manifest import Manifest
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.time import Acting, Clock
from hexcombat.validation import Json
from kit import DATA
from kit.options import DEFENCE, FIELDS, HP, OPTIONS, PASSES, SKILL, TIME, WEAPONS
from kit.rules import damage_left, in_zone, strike_key, weapon_list
from kit.state import RoundBook

STANCES = (
    Choice("press", "Press", "Strike in your place in the order (KIT-2)"),
    Choice("cede", "Cede the initiative", "Strike after everyone who presses (KIT-3)"),
)


class KitDuel(Ruleset):
    """Hidden stances, a strike order, dependent weapon choices, a block prompt, opposed
    rolls chained to damage, a two-hex mount and a shared hex."""

    id = "kit-duel"
    name = "Kit: duel (test only)"
    summary = "Test-only: hidden stances, a strike order, blocks and opposed 2d6 rolls."
    default_die = 6
    stacking_option = "core.stacking"
    options = OPTIONS
    figure_fields = FIELDS
    time = TIME
    manifest = Manifest(
        package="tests/kit",
        builder="kit.demo:demo",
        prefix="KIT",
        rules=9,
        data="tests/kit/data.json",
        tests="tests/test_kit_*.py",
    )
    tables = DATA

    # ---- set-up ---------------------------------------------------------------
    def default_data(self) -> dict[str, Json]:
        """The weapon table (every entry ``house_default``)."""
        return {"weapons": copy.deepcopy(DATA["weapons"])}

    def start(self, state: GameState) -> None:
        """Hit-point pools (KIT-7), then the first step."""
        for f in state.figures.values():
            hp = HP(f)
            f.pools.setdefault("hp", Pool(hp, hp))
        self.start_step(state)

    def start_step(self, state: GameState) -> None:
        """Nobody has struck in a new step."""
        RoundBook(state).new_step()

    # ---- time -----------------------------------------------------------------
    def stances(self, state: GameState) -> dict[str, str]:
        """Revealed stances (KIT-1)."""
        return RoundBook(state).stances

    def done(self, state: GameState) -> list[str]:
        """Figures that have struck or waited in this pass."""
        return RoundBook(state).done

    def _weapons(self, state: GameState, figure: Figure) -> dict[str, Any]:
        table: Any = state.data.get("weapons", DATA["weapons"])
        return {w: table[w] for w in weapon_list(WEAPONS(figure)) if w in table}

    def order(self, state: GameState) -> tuple[list[str], list[str]]:
        """The strike order and why (KIT-2, KIT-3)."""
        stances = self.stances(state)
        living = list(state.living())
        table: Any = state.data.get("weapons", DATA["weapons"])

        def key(f: Figure) -> tuple[bool, int, int]:
            return strike_key(
                stances.get(f.id, "press"),
                list(self._weapons(state, f)),
                SKILL(f),
                table,
            )

        ordered = sorted(living, key=key)
        notes = []
        for a, b in pairwise(ordered):
            ka, kb = key(a), key(b)
            if ka[0] != kb[0]:
                notes.append(f"{b.name} cedes the initiative (KIT-3)")
            elif ka[1] != kb[1]:
                notes.append(f"{a.name}'s longer weapon strikes before {b.name} (KIT-2)")
            elif ka[2] != kb[2]:
                notes.append(f"{a.name} is more skilled than {b.name} (KIT-2)")
        return [f.id for f in ordered], notes

    def acting(self, state: GameState) -> Acting:
        """Everyone chooses a stance in secret; then one figure at a time in strike order."""
        if state.step.id == "stance":
            hidden = state.options.get("core.hidden_declarations", True) is not False
            living = tuple(f.id for f in state.living())
            waiting = tuple(f for f in living if f not in self.stances(state))
            return Acting("all", living, hidden=hidden, waiting=waiting)
        order, notes = self.order(state)
        done = self.done(state)
        waiting = tuple(f for f in order if f not in done)
        return Acting("figure", tuple(order), waiting=waiting, order_notes=tuple(notes))

    def next_clock(self, state: GameState) -> Clock:
        """Stances, then two passes of strikes, then the next round (KIT-8)."""
        clock = state.clock
        if clock.step == "stance":
            return clock.at("strike")
        if clock.counters[1] < PASSES:
            return clock.rolled(1, "strike")
        return clock.rolled(0, "stance")

    # ---- offers ---------------------------------------------------------------
    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """A stance; or a strike (weapon -> special -> target) or waiting."""
        if state.step.id == "stance":
            if figure.id in self.stances(state):
                return []
            stance = FieldSpec("stance", "Stance", "choice", "press", rule="KIT-1", choices=STANCES)
            return [ActionSpec("stance", "Choose a stance", figure.id, (stance,), rule="KIT-1")]
        if figure.id in self.done(state):
            return []
        specs = []
        weapons, specials, targets = [], [], []
        for w, row in self._weapons(state, figure).items():
            usable = False
            for s, special in row["specials"].items():
                hits = [
                    t
                    for t in state.living()
                    if t.side != figure.side and in_zone(special["zone"], figure, t)
                ]
                if not hits:
                    continue
                usable = True
                zone = special["zone"]
                specials.append(Choice(s, special["label"], f"zone: {zone}", when={"weapon": w}))
                targets += [Choice(t.id, t.name, when={"weapon": w, "special": s}) for t in hits]
            if usable:
                weapons.append(Choice(w, w.capitalize(), f"damage {row['damage']}"))
        if weapons:
            params = (
                FieldSpec("weapon", "Weapon", "choice", rule="KIT-4", choices=tuple(weapons)),
                FieldSpec("special", "Special", "choice", rule="KIT-4", choices=tuple(specials)),
                FieldSpec("target", "Target", "figure", rule="KIT-4", choices=tuple(targets)),
            )
            specs.append(
                ActionSpec(
                    "strike",
                    "Strike",
                    figure.id,
                    params,
                    "2d6 + skill against the target's 2d6 + defence (KIT-5).",
                    "KIT-5",
                )
            )
        specs.append(ActionSpec("wait", "Wait", figure.id, (), "Let this pass go by.", "KIT-2"))
        return specs

    # ---- previews -------------------------------------------------------------
    def attack_chain(
        self,
        state: GameState,
        attacker: Figure,
        target: Figure,
        weapon: str,
        special: str,
        *,
        block: bool,
    ) -> Chain:
        """Opposed 2d6 + skill (+ special) against 2d6 + defence (+ block), then damage on a
        win (KIT-5, KIT-6, KIT-7)."""
        row = self._weapons(state, attacker)[weapon]
        spec = row["specials"][special]
        mods = [Modifier("Skill", SKILL(attacker), "KIT-5")]
        if spec["attack"]:
            mods.append(Modifier(spec["label"], int(spec["attack"]), "KIT-4", house_default=True))
        guard = [Modifier("Defence", DEFENCE(target), "KIT-5")]
        if block:
            guard.append(Modifier("Block", int_or(state.option("kit.block_bonus"), 0), "KIT-6"))
        hit = OpposedCheck(
            "To hit",
            OpposedSide(attacker.name, "2d6", tuple(mods)),
            OpposedSide(target.name, "2d6", tuple(guard)),
            ties="defender",
            rule="KIT-5",
        )
        damage = Amount("Damage", str(row["damage"]), (), 6, rule="KIT-7", unit="damage")
        label = f"{attacker.name}: {spec['label'].lower()} with the {weapon} at {target.name}"
        return Chain(label, (Stage("hit", hit), Stage("damage", damage, ("win",))), rule="KIT-5")

    def _pending(self, state: GameState) -> tuple[Figure, Figure, str, str]:
        prompt = state.prompt
        assert prompt is not None and isinstance(prompt.context, dict)
        c = prompt.context
        return (
            state.figure(str(c["attacker"])),
            state.figure(str(c["target"])),
            str(c["weapon"]),
            str(c["special"]),
        )

    def preview(self, state: GameState, action: Action) -> Preview:
        """A strike's chain with a variant per answer the target may give; an answer's own
        chain."""
        if action.kind == "strike":
            attacker = state.figure(action.figure)
            target = state.figure(action.text("target"))
            w, s = action.text("weapon"), action.text("special")
            plain = self.attack_chain(state, attacker, target, w, s, block=False)
            blocked = self.attack_chain(state, attacker, target, w, s, block=True)
            chain = Chain(
                plain.label,
                plain.stages,
                plain.rule,
                (Variant("No block", plain), Variant(f"{target.name} blocks", blocked)),
            )
            return Preview(action, True, rollables=(chain,), highlights={"target": target.hexes()})
        if action.kind in ("block", "take"):
            attacker, target, w, s = self._pending(state)
            chain = self.attack_chain(state, attacker, target, w, s, block=action.kind == "block")
            return Preview(action, True, rollables=(chain,), highlights={"target": target.hexes()})
        return Preview(action, True)

    # ---- handlers -------------------------------------------------------------
    def do_stance(self, state: GameState, action: Action, dice: Dice) -> None:
        """A revealed stance takes effect (KIT-1)."""
        figure = state.figure(action.figure)
        stance = action.text("stance")
        RoundBook(state).take_stance(figure.id, stance)
        word = "presses" if stance == "press" else "cedes the initiative"
        state.emit(Event("stance", f"{figure.name} {word}", figure.id, rule="KIT-1"))

    def end_step(self, state: GameState, dice: Dice) -> None:
        """After the last pass, stances are forgotten (KIT-8)."""
        if state.step.id == "strike" and state.clock.counters[1] == PASSES:
            RoundBook(state).forget_stances()

    def do_wait(self, state: GameState, action: Action, dice: Dice) -> None:
        """Let the pass go by (KIT-2)."""
        figure = state.figure(action.figure)
        RoundBook(state).mark_done(figure.id)
        state.emit(Event("wait", f"{figure.name} waits", figure.id, rule="KIT-2"))

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """Strike: the target is asked whether to block (KIT-6); the answer rolls."""
        figure = state.figure(action.figure)
        target = state.figure(action.text("target"))
        w, s = action.text("weapon"), action.text("special")
        RoundBook(state).mark_done(figure.id)
        answers = (
            ActionSpec("block", "Block", target.id, (), "Add the block bonus (KIT-6).", "KIT-6"),
            ActionSpec("take", "Do not block", target.id, (), "", "KIT-6"),
        )
        special = DATA["weapons"][w]["specials"][s]["label"].lower()
        state.ask(
            target.id,
            f"{target.name}: block this attack?",
            answers,
            rule="KIT-6",
            context={"attacker": figure.id, "target": target.id, "weapon": w, "special": s},
            text=f"{figure.name} strikes at {target.name} ({special} with the {w})",
        )

    def do_block(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll the attack against a block (KIT-6)."""
        self._roll(state, dice, block=True)

    def do_take(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll the attack without a block."""
        self._roll(state, dice, block=False)

    def _roll(self, state: GameState, dice: Dice, *, block: bool) -> None:
        attacker, target, w, s = self._pending(state)
        chain = self.attack_chain(state, attacker, target, w, s, block=block)
        result = chain.roll(dice)
        rolls = tuple(r.to_json() for r in result.rolls)
        details = tuple(chain.stages[0].rollable.breakdown()) + tuple(result.lines())
        damage = result.result("damage")
        if damage is None:
            text = f"{attacker.name} misses {target.name}"
            state.emit(Event("strike", text, attacker.id, target.id, details=details, rolls=rolls))
            return
        assert isinstance(damage, AmountResult)
        hp = target.pools["hp"]
        hp.current = damage_left(hp.current, damage.total)
        text = f"{attacker.name} hits {target.name} for {damage.total} ({hp.current} hp left)"
        state.emit(
            Event(
                "strike",
                text,
                attacker.id,
                target.id,
                details=details,
                rolls=rolls,
                data={"damage": damage.total, "hp": hp.current},
                rule="KIT-7",
            )
        )
        if hp.current == 0:
            knock_down(target)
            state.emit(Event("status", f"{target.name} is down", target.id, rule="KIT-7"))

    # ---- words and looks for the page ------------------------------------------
    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """A strike is confirmed with "Strike!"."""
        return {"confirm": "Strike!"} if spec.kind == "strike" else {}

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure waits in the strike order."""
        if state.step.id == "strike" and figure.id not in self.done(state):
            return f"{figure.name} strikes later in this pass (KIT-2)."
        return ""

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """'cedes' for a figure that ceded the initiative this round."""
        words = super().badges(state, figure)
        if self.stances(state).get(figure.id) == "cede":
            words.append("cedes")
        return words

    def badge_color(self, badge: str) -> str:
        """Ceding is shown in amber."""
        return "#b7791f" if badge == "cedes" else super().badge_color(badge)

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """The revealed stance (blank while hidden)."""
        return {"kit_stance": self.stances(state).get(figure.id, "")}

    def view_label(self, key: str) -> str:
        """'Stance' for the figure view's stance."""
        return "Stance" if key == "kit_stance" else super().view_label(key)
