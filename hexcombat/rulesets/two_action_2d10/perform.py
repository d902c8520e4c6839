"""What each ``two-action-2d10`` action does: declarations (TA-1..TA-5), movement
(TA-23..TA-25), blows answered by a defence prompt and results applied at once (TA-7..TA-13),
tactical effects and brawling (TA-11, TA-21), each rolling :mod:`.resolve`'s rollables."""

from __future__ import annotations

from typing import Any

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import (
    Amount,
    AmountResult,
    Chain,
    Check,
)
from hexcombat.dice import Dice, Roll, dice_words
from hexcombat.events import Event
from hexcombat.figures import Figure, Status, figure_distance
from hexcombat.layout import hex_label
from hexcombat.rulesets.common import int_or, knock_down
from hexcombat.state import GameState
from hexcombat.validation import Json

from . import rules as R
from .resolve import Resolve
from .state import FigureBook
from .words import ANSWERS, DEFENCE_WORDS


class Perform(Resolve):
    """The ``do_*`` handlers and what they apply."""

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
        self.writing(state).plans[f.id] = plan
        acts = {first, second}
        if "load" in acts and "shoot" not in acts:
            FigureBook(f).loaded = True
        if "recover" in acts:  # both actions when ta.recover_actions is 2
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

    def do_sprint(self, state: GameState, action: Action, dice: Dice) -> None:
        """Roll the movement die, or two and keep the better +-1 (TA-24, TA-25); or break
        away from a closed opponent (D-17)."""
        f = state.figure(action.figure)
        moves = self.writing(state).moves
        other = self.closed_with(state, f.id)
        if other:
            check = self.break_check(state, f, state.figure(other))
            result = check.roll(dice)
            if result.attacker_wins:
                closed = self.writing(state).closed
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
        adjust = action.integer("adjust", 1) if self.combined(state, f.id, "move") else 0
        rolled = self.sprint_amount(state, f, adjust).roll(dice)  # what the preview showed
        extra = rolled.total
        faces = rolled.roll.faces
        die = R.movement_die(str(self.armour(state, f).get("class")))
        if len(faces) == 2:
            text = (
                f"{f.name} rolls {faces[0]} and {faces[1]} on {die}, keeps the better "
                f"{adjust:+d}: {extra} extra hexes (TA-25)"
            )
        else:
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
                rolls=(rolled.roll.to_json(),),
                data={"extra": extra, "allowance": allowance},
            )
        )

    def do_move(self, state: GameState, action: Action, dice: Dice) -> None:
        """Move forward within the allowance or 1 hex back, then face (TA-23, D-12)."""
        f = state.figure(action.figure)
        to = action.hex("to")
        start = f.position
        f.position = to
        f.facing = action.integer("facing", f.facing)
        self.writing(state).moved.append(f.id)
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
        self.writing(state).moved.append(f.id)
        state.emit(Event("move", f"{f.name} stays", f.id, rule="TA-23"))

    def do_hold(self, state: GameState, action: Action, dice: Dice) -> None:
        """The blow is not struck."""
        f = state.figure(action.figure)
        if state.prompt is None:
            self.writing(state).done.append(f.id)
        state.emit(Event("hold", f"{f.name} holds", f.id, rule="TA-13"))

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """Strike in turn (TA-13, TA-14); a shot in step 2 or at rank 0 (TA-22, D-10)."""
        a = state.figure(action.figure)
        t, mode = self._target_of(state, a, "strike")
        self.writing(state).done.append(a.id)
        if mode == "shot":
            FigureBook(a).loaded = False
        kind = "attack" if mode == "melee" else "brawl"
        combined = mode != "shot" and self.combined(state, a.id, kind)
        self._blow(state, dice, a, t, mode, combined)

    def do_riposte(self, state: GameState, action: Action, dice: Dice) -> None:
        """The counter-strike of the protagonist striking second (or who ceded, R-8), after a
        spectacular mistake (TA-17, I-3)."""
        a = state.figure(action.figure)
        t, mode = self._target_of(state, a, "riposte")  # as its preview (fists: R-10)
        if state.prompt is None:
            self.writing(state).done.append(a.id)
        self._blow(state, dice, a, t, mode, False)

    def _blow(
        self, state: GameState, dice: Dice, a: Figure, t: Figure, mode: str, combined: bool
    ) -> None:
        side = self.attack_side(state, a, mode, combined)
        # the strike preview's hit stage, rolled: its dice are the attack's (TA-8, TA-9)
        (roll,) = self.hit_check(state, a, t, mode, combined, None).roll(dice).rolls
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
        """After a spectacular mistake against the protagonist striking second (or who ceded,
        R-8), the unused defensive action may become a counter-strike (TA-17), in the
        Riposte step or at once (I-3)."""
        if state.options.get("ta.counter_strike_by") == "ceded":
            strikers = {s.id: s for s in self.strikers(state)}
            second = (
                (t.id in strikers and R.cedes_now(strikers[t.id], strikers))
                or "dodge" in self.actions_of(state, t.id)
                or "wait" in self.actions_of(state, t.id)
            )
        else:  # TA-17: the protagonist striking second, not yet struck this step
            second = t.id not in self.round_of(state).done
        used = [
            *self.round_of(state).spent.get(t.id, []),
            *(["block"] * (t.id in self.round_of(state).blocks)),
        ]
        unused = [k for k in R.DEFENCES if k in self.actions_of(state, t.id) and k not in used]
        if not second or not unused:  # a defensive action not yet committed (TA-17)
            return
        self.writing(state).spent.setdefault(t.id, []).extend(unused)
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
        self.writing(state).ripostes[t.id] = a.id
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
        chain = self.answer_chain(state, a, t, mode, kind, attack)  # what the answer previewed
        hit = chain.stages[0].rollable
        assert isinstance(hit, Check)
        result = hit.roll(dice)
        details.append(result.explain())
        rolls += [r.to_json() for r in result.rolls if r.dice]
        defence = hit.target if hit.comparison == "ge" else result.roll_total
        self._note_defence(state, t, kind, defence, details)
        if not result.success:
            self._missed(state, a, t, attack, defence, details, rolls)
            return
        reduce = self._parried(state, dice, chain, kind, defence, details, rolls)
        value = max(0, R.surplus(attack, defence) - reduce)
        hit_tier = self.hit_tier(state, value)
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
            self._risk_shield(state, dice, t)
        self._harm(state, dice, a, t, mode, value, hit_tier)

    def _note_defence(
        self, state: GameState, t: Figure, kind: str | None, defence: int, details: list[str]
    ) -> None:
        """Keep the answer's defence (a block's total, the answers spent) and say which roll
        the defence is."""
        if kind == "block":
            self.writing(state).blocks[t.id] = defence
        elif kind is not None:
            self.writing(state).spent.setdefault(t.id, []).append(kind)
        if kind is not None and not self.parry_reduces(state, kind):
            details.append(
                f"{t.name}'s defence {defence}: the {kind} roll, never below the passive "
                f"{self.passive(state, t)} (D-2)"
            )

    @staticmethod
    def _missed(
        state: GameState,
        a: Figure,
        t: Figure,
        attack: int,
        defence: int,
        details: list[str],
        rolls: list[Json],
    ) -> None:
        """The miss, logged with its rolls."""
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

    def _parried(
        self,
        state: GameState,
        dice: Dice,
        chain: Chain,
        kind: str | None,
        defence: int,
        details: list[str],
        rolls: list[Json],
    ) -> int:
        """How much a parry that reduces the surplus takes off it (0 without one)."""
        reduce = 0
        parry = chain.stages[1].rollable if self.parry_reduces(state, kind) else None
        if isinstance(parry, Amount):
            parried = parry.roll(dice)
            rolls.append(parried.roll.to_json())
            reduce = max(0, parried.total - defence)
            details += [parried.explain(), f"It reduces the surplus by {reduce} (I-4)"]
        return reduce

    def _risk_shield(self, state: GameState, dice: Dice, t: Figure) -> None:
        """A hard blow on a block may tear the shield away or break it."""
        risk = self.shield_risk().roll(dice)
        word = "torn away" if risk.outcome_id == "torn" else "broken"
        t.statuses["shield_lost"] = Status("shield_lost", note=word)
        state.emit(
            Event(
                "status",
                f"{t.name}'s shield is {word} ({risk.total} on d10, D-3)",
                t.id,
                rule="D-3",
                details=(risk.explain(),),
                rolls=(risk.roll.to_json(),),
            )
        )

    def _harm(
        self, state: GameState, dice: Dice, a: Figure, t: Figure, mode: str, value: int, tier: int
    ) -> None:
        """A hit's effect: a brawl's, or damage and then, from the first tier, a tactical
        result."""
        if mode == "brawl":
            self._brawl(state, dice, a, t, value)
            return
        amount = self.damage_amount(state, a, t, mode, tier)
        assert amount is not None  # a melee weapon or a missile has damage dice (D-4)
        hurt = amount.roll(dice)
        self._hurt(state, a, t, hurt.total, hurt.explain(), hurt.roll.to_json(), tier)
        if tier >= 1 and not self.is_out(state, t):
            self._tactical(state, dice, a, t, tier)

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
        if bp.current <= 0 and state.options.get("ta.down_at_zero_bp", True) and knock_down(t):
            self.writing(state).stopped[t.id] = a.id
            state.emit(
                Event(
                    "status",
                    f"{t.name} is down at {bp.current} body points (TA-12, R-5)",
                    t.id,
                    rule="TA-12",
                )
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
        stopped = self.writing(state).stopped
        if effect == "stagger" or lasting:
            t.statuses["staggered"] = Status("staggered")
        lose_blow = state.options.get("ta.dropped_weapon_blow") == "lost"
        if effect in ("lose_actions", "incapacitated") or (effect == "drop_weapon" and lose_blow):
            stopped[t.id] = a.id
        if effect == "lose_actions":
            self.writing(state).spent[t.id] = list(R.DEFENCES)
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
        ac = int_or(self.armour(state, t).get("ac"), 0)
        if style == "pummel":
            base, div = (
                int_or(state.options.get("ta.pummel_base"), 1),
                int_or(state.options.get("ta.pummel_divisor"), 2),
            )
            damage = R.pummel_damage(value, ac, base, div)
            self._hurt(state, a, t, damage, f"{base} + {value} // {div} - AC {ac} (D-13)", None, 0)
            return
        bar = int_or(state.options.get("ta.brawl_bar"), 5)
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
        target = R.brawl_save_target(int_or(t.stats.get(attribute), 10), value, bar)
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
        closed = self.writing(state).closed
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
