"""What each ``two-action-2d10`` action does: declarations (TA-1..TA-5), movement
(TA-23..TA-25), blows answered by a defence prompt and results applied at once (TA-7..TA-13),
tactical effects and brawling (TA-11, TA-21), each rolling :mod:`.resolve`'s rollables; the
blow's landing is :mod:`.perform_hits`."""

from __future__ import annotations

from hexcombat.actions import Action, ActionSpec
from hexcombat.dice import Dice, Roll, dice_words
from hexcombat.events import Event
from hexcombat.figures import Figure, figure_distance
from hexcombat.layout import hex_label
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.perform_hits import Hits
from hexcombat.rulesets.two_action_2d10.resolve import MISTAKE
from hexcombat.rulesets.two_action_2d10.state import FigureBook
from hexcombat.rulesets.two_action_2d10.words import ANSWERS, DEFENCE_WORDS
from hexcombat.state import GameState
from hexcombat.validation import Json


class Perform(Hits):
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
            "loaded": FigureBook(f).loaded,
        }
        self.writing(state).plans[f.id] = plan
        acts = {first, second}
        if combine:  # the dice only for what rolls them: a blow (TA-5) or a move (TA-25)
            rolled = " (best two of 3d10, TA-5)" if first in ("attack", "brawl", "shoot") else ""
            words = f"{first} with both actions" + (
                " (two dice, TA-25)" if first == "move" else rolled
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
        if state.options.get("ta.ready_actions_at") == "declaration":
            self.take_ready_actions(state, f)

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
        """The blow is not struck; results waiting for it apply (TA-16, D-10)."""
        f = state.figure(action.figure)
        self.writing(state).done.append(f.id)
        state.emit(Event("hold", f"{f.name} holds", f.id, rule="TA-13"))
        self.settle(state, f.id)

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """Strike in turn (TA-13, TA-14); a shot in step 2 or at rank 0 (TA-22, D-10)."""
        a = state.figure(action.figure)
        t, mode = self._target_of(state, a, "strike")
        self.writing(state).done.append(a.id)
        if mode == "shot":
            FigureBook(a).loaded = False
            if state.clock.step == "missiles" and state.options.get("ta.ready_actions_at") == (
                "declaration"
            ):  # shoot + load: the Load follows the prepared shot (TA-22, R-15)
                self.take_ready_actions(state, a)
        kind = "attack" if mode == "melee" else "brawl"
        combined = mode != "shot" and self.combined(state, a.id, kind)
        self._blow(state, dice, a, t, mode, combined)

    def do_riposte(self, state: GameState, action: Action, dice: Dice) -> None:
        """The counter-strike of the protagonist striking second (or who ceded, R-8), after a
        spectacular mistake (TA-17, I-3); at once, it spends the unused defence."""
        a = state.figure(action.figure)
        t, mode = self._target_of(state, a, "riposte")  # as its preview (fists: R-10)
        if state.prompt is None:
            self.writing(state).done.append(a.id)
        else:
            self._transfer(state, a)
        self._blow(state, dice, a, t, mode, False)

    def do_counter(self, state: GameState, action: Action, dice: Dice) -> None:
        """Transfer the unused defence to a counter-strike in the Riposte step (TA-17, I-3)."""
        t = state.figure(action.figure)
        a = state.figure(self._transfer(state, t))
        self.writing(state).ripostes[t.id] = a.id
        state.emit(
            Event(
                "riposte",
                f"{t.name} gives up the defence to counter-strike {a.name} in the Riposte step "
                "(TA-17, I-3)",
                t.id,
                a.id,
                "TA-17",
            )
        )

    def do_keep_defence(self, state: GameState, action: Action, dice: Dice) -> None:
        """Keep the defensive action after a spectacular mistake (TA-17: 'may choose')."""
        t = state.figure(action.figure)
        state.emit(Event("hold", f"{t.name} keeps the defence (TA-17)", t.id, rule="TA-17"))

    def _transfer(self, state: GameState, t: Figure) -> str:
        """Spend the defensive actions the open counter-strike prompt names; the figure
        counter-struck."""
        prompt = state.prompt
        assert prompt is not None and isinstance(prompt.context, dict)
        unused = prompt.context.get("transfer")
        assert isinstance(unused, list)
        self.writing(state).spent.setdefault(t.id, []).extend(str(k) for k in unused)
        return str(prompt.context["target"])

    def _blow(
        self, state: GameState, dice: Dice, a: Figure, t: Figure, mode: str, combined: bool
    ) -> None:
        side = self.attack_side(state, a, mode, combined)
        # the strike preview's hit stage, rolled: its dice are the attack's (TA-8, TA-9)
        hit = self.hit_check(state, a, t, mode, combined, None).roll(dice)
        (roll,) = hit.rolls
        total = roll.total + side.bonus
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
        if hit.outcome_id == MISTAKE:
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
            self.settle(state, a.id)
            return
        kinds, may_take = self.answers_to(state, t, a, mode)
        if kinds:
            words = " or ".join(DEFENCE_WORDS[k] for k in kinds)
            question = f"{words} this attack ({total} to hit)?"
            if not may_take:
                question = f"the Block is rolled against this first blow ({total} to hit)."
            state.ask(
                t.id,
                f"{t.name}: {question}",
                _defence_answers(t, kinds, may_take),
                rule="TA-7",
                context=context,
                text=text,
            )
            return
        self._land(state, dice, a, t, mode, combined, roll, None)
        self.settle(state, a.id)

    def _offer_counter(self, state: GameState, t: Figure, a: Figure) -> None:
        """After a spectacular mistake against the protagonist striking second (or who ceded,
        R-8), it is asked whether its unused defensive action becomes a counter-strike, in
        the Riposte step or at once (I-3), or stays (TA-17: 'may choose to transfer it');
        not once it has lost its remaining actions (TA-13)."""
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
        if not second or not unused or self.lost_the_round(state, t.id):
            return  # a defensive action not yet committed, and actions left (TA-13, TA-17)
        keep = ActionSpec(
            "keep_defence",
            "Keep the defence",
            t.id,
            (),
            "Keep the defensive action (TA-17).",
            "TA-17",
        )
        now = state.options.get("ta.counter_strike_step") == "immediate"
        if now and figure_distance(a, t) == 1:
            counter = ActionSpec(
                "riposte", "Counter-strike now", t.id, (), "Strike back now (TA-17).", "TA-17"
            )
            when = "now"
        else:
            counter = ActionSpec(
                "counter",
                "Counter-strike in the Riposte step",
                t.id,
                (),
                "Give up the defence for a counter-strike in the Riposte step (TA-17, I-3).",
                "TA-17",
            )
            when = "in the Riposte step"
        words = " or ".join(DEFENCE_WORDS[k].lower() for k in unused)
        state.ask(
            t.id,
            f"{t.name}: {a.name} made a spectacular mistake. Counter-strike {when}, giving up "
            f"the {words}, or keep it?",
            (counter, keep),
            rule="TA-17",
            context={"attacker": t.id, "target": a.id, "transfer": list(unused)},
        )

    def _answer(self, state: GameState, dice: Dice, kind: str | None) -> None:
        prompt = state.prompt
        assert prompt is not None and isinstance(prompt.context, dict)
        c = prompt.context
        a, t = state.figure(str(c["attacker"])), state.figure(str(c["target"]))
        roll = Roll.from_json(c["roll"])
        mode, combined = str(c["mode"]), bool(c["combined"])
        self._land(state, dice, a, t, mode, combined, roll, kind)
        self.settle(state, a.id)  # the results waiting for this blow (TA-16, D-10)

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


def _defence_answers(t: Figure, kinds: list[str], may_take: bool) -> tuple[ActionSpec, ...]:
    """The target's answers to a blow: commit one of its declared defences (TA-7), or, when
    ``may_take``, take it on the standing defence (TA-6, R-13)."""
    commit = tuple(
        ActionSpec(
            ANSWERS[k], DEFENCE_WORDS[k], t.id, (), f"Commit the declared {k} (TA-7).", "TA-7"
        )
        for k in kinds
    )
    take = ActionSpec(
        "take",
        "No defensive roll",
        t.id,
        (),
        "Keep it; meet the blow with the passive defence (TA-6).",
        "TA-6",
    )
    return (*commit, take) if may_take else commit
