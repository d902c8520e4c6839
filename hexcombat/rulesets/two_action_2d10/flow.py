"""Time in ``two-action-2d10``: the round's steps (TA-27), who acts and in what strike order
(TA-13..TA-19, D-10, D-11), and the end-of-round saves (TA-12, D-8, D-14)."""

from __future__ import annotations

from typing import Any

from hexcombat.checks import Check, Modifier, Rollable
from hexcombat.dice import Dice
from hexcombat.events import Event
from hexcombat.figures import Figure, Status
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.fields import BRAWL, HEALTH, MISSILE_SKILL, SKILL, STRENGTH
from hexcombat.rulesets.two_action_2d10.state import FigureBook, Readers, RoundBook
from hexcombat.state import GameState
from hexcombat.time import Acting


class Flow(Readers):
    """Steps, strike order and who acts now."""

    def start_step(self, state: GameState) -> None:
        """A new declare step starts the round: staggers and locks cost actions (TA-11); as
        combat begins, declared Recovers and Loads take effect (R-15)."""
        step = state.clock.step
        RoundBook(state).new_step(round_starts=step == "declare")
        if step == "combat" and state.options.get("ta.ready_actions_at") != "declaration":
            for f in state.living():
                if not self.lost_the_round(state, f.id):
                    self.take_ready_actions(state, f)
        if step == "declare":
            lost = self.writing(state).lost
            for f in state.figures.values():
                if f.has_status("locked"):
                    lost[f.id] = 2
                elif f.has_status("staggered"):
                    lost[f.id] = 1
                    del f.statuses["staggered"]

    def take_ready_actions(self, state: GameState, f: Figure) -> None:
        """A declared Load readies the missile, unless it is shot this round (TA-22; with a
        missile loaded at declaration the Load follows the shot of step 2); a Recover rises
        and picks up the weapon (TA-11, R-3)."""
        acts = self.actions_of(state, f.id)
        done = []
        book = FigureBook(f)
        shot_first = "shoot" not in acts or self.loaded_at_declaration(state, f.id)
        if "load" in acts and shot_first and not book.loaded:
            book.loaded = True
            done.append(f"readies the {self.missile(state, f)[0].replace('_', ' ')}")
        if "recover" in acts:
            for status, words in (("prone", "rises"), ("dropped_weapon", "picks up the weapon")):
                if f.statuses.pop(status, None) is not None:
                    done.append(words)
        if done:
            text = f"{f.name} {' and '.join(done)} (TA-11, TA-22, R-15)"
            state.emit(Event("status", text, f.id, rule="TA-22" if "load" in acts else "TA-11"))

    def step_is_empty(self, state: GameState, step: Any) -> bool:
        """No prepared shots: skip step 2; no counter-strikes: skip the Riposte (TA-27)."""
        if step.id == "missiles":
            return not self.prepared_shooters(state)
        if step.id == "riposte":
            return not self.counter_strikers(state)
        return False

    def prepared_shooters(self, state: GameState) -> list[str]:
        """Figures shooting a missile loaded in an earlier round: step 2 (TA-22, TA-27)."""
        return [
            f.id
            for f in state.living()
            if "shoot" in self.actions_of(state, f.id) and self.loaded_at_declaration(state, f.id)
        ]

    def shoots_in_combat(self, state: GameState, fid: str) -> bool:
        """Loads and shoots this round: the shot comes at rank 0 of combat (TA-22, D-10)."""
        acts = set(self.actions_of(state, fid))
        return {"load", "shoot"} <= acts and not self.loaded_at_declaration(state, fid)

    def counter_strikers(self, state: GameState) -> list[str]:
        """Figures with a counter-strike to strike in the Riposte step, less those that have
        lost their remaining actions since (TA-13, TA-17)."""
        living = {f.id for f in state.living()}
        return [
            f
            for f in self.round_of(state).ripostes
            if f in living and not self.lost_the_round(state, f)
        ]

    def strikers(self, state: GameState, *, drop_waits: bool = True) -> list[R.Striker]:
        """Everyone with a blow to strike in the combat step (TA-14..TA-19), less pairs that
        wait for each other (TA-18, D-11) when ``drop_waits``."""
        targets: dict[str, str] = {}
        for f in state.living():
            plan = self.plan(state, f.id)
            acts = self.actions_of(state, f.id)
            if any(a in acts for a in R.STRIKES) or self.shoots_in_combat(state, f.id):
                targets[f.id] = str(plan.get("target") or "")
        out = []
        for fid, target in targets.items():
            f = state.figure(fid)
            acts = self.actions_of(state, fid)
            opponents = tuple(dict.fromkeys([target, *(o for o, t in targets.items() if t == fid)]))
            if self.shoots_in_combat(state, fid):
                weapon, rank, skill = "missile", 0, MISSILE_SKILL(f)
            elif "attack" in acts and not f.has_status("dropped_weapon"):
                weapon, row = self.weapon(state, f)
                rank, skill = int_or(row.get("strike_rank"), 7), SKILL(f)
            else:
                weapon, row = "natural", self._table(state, "weapons")["natural"]
                rank, skill = int_or(row.get("strike_rank"), 8), BRAWL(f)
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
        order, notes = R.strike_order(strikers, *self.order_options(state))
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
        """A blow is lost once a result stopped it (TA-13); a result of a blow struck
        together with it waits until it is struck (TA-16, D-10)."""
        return fid not in self.round_of(state).done and not self.lost_the_round(state, fid)

    def strikes_together(self, state: GameState, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` hold the same place in the combat step's order, so both
        blows are struck before either's result applies (TA-16, D-10, R-4)."""
        if state.clock.step != "combat" or state.options.get("ta.simultaneous") != "both_strike":
            return False
        strikers = {s.id: s for s in self.strikers(state)}
        sa, sb = strikers.get(a), strikers.get(b)
        return (
            sa is not None
            and sb is not None
            and R.simultaneous(sa, sb, strikers, *self.order_options(state))
        )

    @staticmethod
    def order_options(state: GameState) -> tuple[str, str, str]:
        """The strike-order options: a closed pair's order (D-10, R-9), ceding against fists
        (R-11)."""
        options = state.options
        return (
            str(options.get("ta.closed_order")),
            str(options.get("ta.closed_fists", "first")),
            str(options.get("ta.ceding_and_fists", "after_fists")),
        )

    def acting(self, state: GameState) -> Acting:
        """Declare in secret; shots and strikes one figure at a time in order; everyone moves."""
        step = state.clock.step
        living = tuple(f.id for f in state.living())
        if step == "declare":
            hidden = state.options.get("core.hidden_declarations", True) is not False
            waiting = tuple(f for f in living if f not in self.round_of(state).plans)
            return Acting("all", living, hidden=hidden, waiting=waiting)
        if step == "movement":  # each figure moves (or stays) once (D-12)
            moved = self.round_of(state).moved
            left = tuple(f for f in living if f not in moved)
            return Acting("all", left, waiting=left)
        if step == "missiles":
            order = tuple(self.prepared_shooters(state))
            done = self.round_of(state).done
            waiting = tuple(
                f for f in order if f not in done and f not in self.round_of(state).stopped
            )
            return Acting(
                "figure", order, waiting=waiting, order_notes=("loaded last round (TA-22)",)
            )
        if step == "riposte":
            order = tuple(self.counter_strikers(state))
            done = self.round_of(state).done
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

    def round_end_checks(self, state: GameState) -> list[tuple[Figure, Check]]:
        """What the end of a round rolls, in roll order (the step's preview rolls the same):
        a death save at 0 body points or less (TA-12, D-8), then an attempt to break a lock
        (TA-21, D-14), per figure not dead."""
        if self.next_clock(state).step != "declare":
            return []
        checks: list[tuple[Figure, Check]] = []
        for f in state.figures.values():
            if f.has_status("dead"):
                continue
            bp = f.pools["bp"].current if "bp" in f.pools else 1
            if bp <= 0 and state.options.get("ta.death_saves", True):
                save = Check(
                    f"{f.name}'s death save",
                    "2d10",
                    "le",
                    HEALTH(f),
                    "Health",
                    (Modifier("Body points", bp, "D-8"),),
                    rule="TA-12",
                    success_text="lives",
                    success_phrase="to live",
                    failure_text="dies",
                )
                checks.append((f, save))
            if f.has_status("locked"):
                lock = Check(
                    f"{f.name} breaks the lock",
                    "2d10",
                    "le",
                    STRENGTH(f),
                    "Strength",
                    rule="TA-21",
                    success_text="breaks free",
                    success_phrase="to break free",
                    failure_text="stays locked",
                )
                checks.append((f, lock))
        return checks

    def step_rollables(self, state: GameState) -> tuple[Rollable, ...]:
        """What finishing this step rolls: the round's end saves, if it ends the round."""
        return tuple(check for _f, check in self.round_end_checks(state))

    def end_step(self, state: GameState, dice: Dice) -> None:
        """At the end of a round: death saves at 0 body points or less (TA-12, D-8), and a
        locked protagonist tries to break the lock (D-14)."""
        for f, check in self.round_end_checks(state):
            result = check.roll(dice)
            if check.rule == "TA-12":
                if not result.success:
                    f.statuses["dead"] = Status("dead")
                text = f"{f.name} {'lives' if result.success else 'dies'} (TA-12, D-8)"
            else:
                if result.success:
                    del f.statuses["locked"]
                text = f"{f.name} {'breaks' if result.success else 'stays in'} the lock (D-14)"
            state.emit(
                Event(
                    "save",
                    text,
                    f.id,
                    rule=check.rule,
                    details=(result.explain(),),
                    rolls=tuple(r.to_json() for r in result.rolls),
                )
            )
