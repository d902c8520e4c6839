"""A ``two-action-2d10`` blow landing, after its defence prompt was answered: the hit roll
against the defence, a parry's reduction, the shield's risk, then damage and the tactical
result, or a brawl's (TA-9..TA-13, TA-21), each rolling :mod:`.resolve`'s rollables."""

from __future__ import annotations

from typing import Any

from hexcombat.checks import (
    Amount,
    AmountResult,
    Chain,
    Check,
)
from hexcombat.dice import Dice, Roll
from hexcombat.events import Event
from hexcombat.figures import Figure, Status
from hexcombat.rulesets.common import int_or, knock_down
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.resolve import (
    SHIELD,
    SHORT,
    TIERS,
    Resolve,
    surplus_of,
    tier_of,
)
from hexcombat.state import GameState
from hexcombat.validation import Json


class Hits(Resolve):
    """A rolled attack resolved against its defence and its results applied at once."""

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
        self._note_defence(state, (a, t), kind, defence, details)
        if not result.success:
            self._missed(state, a, t, attack, defence, details, rolls)
            return
        reduce, reached = self._parried(state, dice, chain, kind, defence, details, rolls)
        value = max(0, R.surplus(attack, defence) - reduce)
        branch = reached or result.outcome_id  # the branch the preview showed
        hit_tier = tier_of(branch) if branch.removesuffix(SHIELD) in TIERS else 0
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
        if branch.endswith(SHIELD):  # a Block beaten by 5 or more (D-3)
            self._risk_shield(state, dice, t)
        self._harm(state, dice, (a, t), mode, value, branch)

    def _note_defence(
        self,
        state: GameState,
        pair: tuple[Figure, Figure],
        kind: str | None,
        defence: int,
        details: list[str],
    ) -> None:
        """Keep the answer's defence (a block's total, the answers spent) and say which roll
        the defence is."""
        a, t = pair
        if kind is not None and not self.parry_reduces(state, kind):
            standing, label = self.standing_defence(state, t, a)
            details.append(
                f"{t.name}'s defence {defence}: the {kind} roll, never below "
                f"{label.split(' (')[0].lower()} {standing} (D-2)"
            )
        if kind == "block":
            self.writing(state).blocks[t.id] = defence
        elif kind is not None:
            self.writing(state).spent.setdefault(t.id, []).append(kind)

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
    ) -> tuple[int, str]:
        """How much a parry that reduces the surplus takes off it (0 without one), and the
        outcome it reached (the threshold the surplus left reaches; '' without one)."""
        parry = chain.stages[1].rollable if self.parry_reduces(state, kind) else None
        if not isinstance(parry, Amount):
            return 0, ""
        parried = parry.roll(dice)
        rolls.append(parried.roll.to_json())
        reduce = max(0, parried.total - defence)
        details += [parried.explain(), f"It reduces the surplus by {reduce} (I-4)"]
        return reduce, parried.outcome_id

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
        self,
        state: GameState,
        dice: Dice,
        pair: tuple[Figure, Figure],
        mode: str,
        value: int,
        branch: str,
    ) -> None:
        """A hit's effect by the outcome ``branch`` it reached: a brawl's, or damage and
        then, from the first tier, a tactical result."""
        a, t = pair
        if mode == "brawl":
            self._brawl(state, dice, pair, value, branch.removesuffix(SHIELD))
            return
        tier = tier_of(branch)
        amount = self.damage_amount(state, a, t, mode, tier)
        assert amount is not None  # a melee weapon or a missile has damage dice (D-4)
        hurt = amount.roll(dice)
        self._hurt(state, a, t, hurt.total, hurt.explain(), hurt.roll.to_json(), tier)
        if tier >= 1 and not self._out_after_all(state, t):
            self._tactical(state, dice, a, t, tier)

    def _out_after_all(self, state: GameState, t: Figure) -> bool:
        """Out of the fight, or to be once its own blow is struck (TA-12, D-10)."""
        waiting = self.round_of(state).pending.get(t.id, [])
        return self.is_out(state, t) or any(w["effect"] == "down" for w in waiting)

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
        if bp.current <= 0 and state.options.get("ta.down_at_zero_bp", True):
            self._apply(state, a, t, "down")

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
        later = self._apply(state, a, t, effect, lasting=hit_tier >= 2)
        after = f", once {t.name}'s own blow is struck (TA-16, D-10)" if later else ""
        state.emit(
            Event(
                "tactical",
                f"{t.name} is hit in the {row['label'].lower()}, fails the save: "
                f"{effect.replace('_', ' ')}{after}",
                t.id,
                rule="TA-11",
                details=lines,
                rolls=rolls,
                data={"effect": effect, "location": where.outcome_id},
            )
        )

    def _apply(
        self, state: GameState, a: Figure, t: Figure, effect: str, lasting: bool = False
    ) -> bool:
        """A result at once (TA-11, TA-13): a lost blow is lost now; unless ``t`` strikes
        together with ``a`` and has yet to strike, when it waits for that blow (TA-16, D-10).
        Whether it waits."""
        if self.strikes_together(state, a.id, t.id) and self.may_still_strike(state, t.id):
            entry: dict[str, Json] = {"by": a.id, "effect": effect, "lasting": lasting}
            self.writing(state).pending.setdefault(t.id, []).append(entry)
            return True
        self._apply_now(state, a, t, effect, lasting)
        return False

    def settle(self, state: GameState, fid: str) -> None:
        """The results waiting for ``fid``'s own blow apply, now it is struck or let go
        (TA-16, D-10)."""
        waiting = self.round_of(state).pending.get(fid)
        if not waiting:
            return
        del self.writing(state).pending[fid]
        t = state.figure(fid)
        for entry in waiting:
            by = state.figure(str(entry["by"]))
            self._apply_now(state, by, t, str(entry["effect"]), entry["lasting"] is True)

    def end_step(self, state: GameState, dice: Dice) -> None:
        """No result waits past the step (TA-16, D-10); then the round's end (TA-12)."""
        for fid in list(self.round_of(state).pending):
            self.settle(state, fid)
        super().end_step(state, dice)

    def _apply_now(
        self, state: GameState, a: Figure, t: Figure, effect: str, lasting: bool
    ) -> None:
        """A result applied: a stopped blow, a status (TA-11, TA-12, TA-13)."""
        stopped = self.writing(state).stopped
        if effect == "down":
            if knock_down(t):
                stopped[t.id] = a.id
                bp = t.pools["bp"].current
                state.emit(
                    Event(
                        "status",
                        f"{t.name} is down at {bp} body points (TA-12, R-5)",
                        t.id,
                        rule="TA-12",
                    )
                )
            return
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

    def _brawl(
        self, state: GameState, dice: Dice, pair: tuple[Figure, Figure], value: int, branch: str
    ) -> None:
        """Pummel damage from the surplus (TA-19, D-13), or a grapple, lock, throw or trip:
        short of the bar, or the save its outcome ``branch`` leaves (TA-21, D-14)."""
        a, t = pair
        style = self.brawl_style(state, a)
        ac = int_or(self.armour(state, t).get("ac"), 0)
        if style == "pummel":
            base, div = (
                int_or(state.options.get("ta.pummel_base"), 1),
                int_or(state.options.get("ta.pummel_divisor"), 2),
            )
            damage = R.pummel_damage(value, ac, base, div)
            self._hurt(
                state,
                a,
                t,
                damage,
                f"{base} + surplus {value} / {div} rounded down - AC {ac} (D-13)",
                None,
                0,
            )
            return
        bar = int_or(state.options.get("ta.brawl_bar"), 5)
        if branch == SHORT:
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
        self._brawl_save(state, dice, pair, style, surplus_of(branch))

    def _brawl_save(
        self, state: GameState, dice: Dice, pair: tuple[Figure, Figure], style: str, value: int
    ) -> None:
        """A grapple, lock, throw or trip that reached the bar: the target's save at the
        surplus ``value`` its outcome stands for, then the hold or the fall (TA-21, D-14)."""
        a, t = pair
        result = self.brawl_save(state, t, style, value).roll(dice)
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
