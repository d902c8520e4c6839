"""Strikes of ``combat-speed-phase``: reach and arc are the text's (CSP-17, C-13), the
outcome the GM's or a borrowed roll (C-1), damage and statuses landing at once or at the
end of the combat step (R-3, R-7)."""

from __future__ import annotations

from hexcombat.actions import Action, ActionSpec
from hexcombat.checks import AmountResult, CheckResult
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, Status
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.combat_speed_phase.combat import (
    STATUSES,
    borrowed_chain,
    gm_lines,
    separation,
    strike_check,
    weapon_reach,
    within_reach,
)
from hexcombat.rulesets.combat_speed_phase.situation import opt_text, tracks_hp
from hexcombat.rulesets.combat_speed_phase.state import FigureBook
from hexcombat.rulesets.common import int_or, knock_down, lose_points
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState


class Strikes(Ruleset):
    """Who may strike whom, and what a strike does (none by default: C-1)."""

    # ---- combat -----------------------------------------------------------------------
    def _strike_options(self, state: GameState, figure: Figure) -> list[tuple[Equipment, Figure]]:
        """(weapon, target) pairs the figure may strike with now (CSP-17, C-13, C-2, R-1)."""
        if state.step.id != "combat" or opt_text(state, "csp.combat_resolver") == "none":
            return []
        limit = int_or(state.options.get("csp.strikes_per_phase"), 1)
        if FigureBook(figure).strikes >= limit or self.is_out(state, figure):
            return []
        return [
            (item, target)
            for item, target in within_reach(state, figure)
            if strike_check(state, figure, target, item).allowed  # and impairment (CSP-3, C-2)
        ]

    def _strike_spec(self, state: GameState, figure: Figure) -> ActionSpec | None:
        pairs = self._strike_options(state, figure)
        if not pairs:
            return None
        names = list(dict.fromkeys(item.name for item, _ in pairs))
        weapon = FieldSpec(
            "weapon",
            "Weapon",
            "choice",
            rule="CSP-17",
            choices=tuple(Choice(n, f"{n} (reach {weapon_reach(figure.item(n))})") for n in names),
        )
        target = FieldSpec(
            "target",
            "Target",
            "figure",
            help="Within the weapon's reach and the front arc (the text's, CSP-17, C-13).",
            rule="CSP-17, C-13",
            choices=tuple(Choice(t.id, t.name, when={"weapon": i.name}) for i, t in pairs),
        )
        params: tuple[FieldSpec, ...] = (weapon, target)
        resolver = opt_text(state, "csp.combat_resolver")
        if resolver == "gm":
            params += _gm_ruling_fields(state)
            label, help_text = (
                "Strike (GM rules the outcome)",
                "Reach, arc and impairment are the text's (CSP-17, C-13, CSP-3); whether the "
                "strike lands, its damage and any status are the GM's to enter (C-1).",
            )
        else:
            label, help_text = (
                "Strike (borrowed d20 roll)",
                "Reach, arc and impairment are the text's (CSP-17, C-13, CSP-3); the to-hit and "
                "damage roll is borrowed from the skirmish ruleset (C-1 option), with "
                "placeholder impaired and shield modifiers (C-2).",
            )
        return ActionSpec("strike", label, figure.id, params, help_text, "CSP-17, C-1, C-13")

    def _strike_parts(
        self, state: GameState, action: Action
    ) -> tuple[Figure, Figure, Equipment, list[str]]:
        attacker = state.figure(action.figure)
        target = state.figure(action.text("target"))
        try:
            item = attacker.item(action.text("weapon"))
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from exc
        check = strike_check(state, attacker, target, item)
        if not check.allowed:
            raise IllegalActionError(check.reason)
        return attacker, target, item, list(check.lines)

    def do_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """A strike: the text's checks, then the GM's ruling or the borrowed roll."""
        attacker, target, item, lines = self._strike_parts(state, action)
        FigureBook(attacker).strikes += 1
        if opt_text(state, "csp.combat_resolver") == "skirmish":
            self._borrowed(state, attacker, target, item, lines, dice)
            return
        outcome = action.text("outcome")
        damage = action.integer("damage", 0)
        status = action.text("status", "none")
        if outcome == "miss" and (damage or status != "none"):
            raise IllegalActionError("a miss does no damage and gives no status (C-1)")
        hp = target.pools.get("hp")
        later = self._later(state)
        words = "hits" if outcome == "hit" else "misses"
        text = f"{attacker.name} {words} {target.name} with the {item.name}"
        rule = "CSP-17, C-1"
        if outcome == "hit":
            hurt = self._hurt(state, target, 0 if hp is None else damage, status)
            if hurt:
                text += f": {hurt}"
            rule += ", R-7" if later else ""
        text += " (GM's ruling, C-1)"
        state.emit(
            Event(
                "strike",
                text,
                attacker.id,
                target.id,
                rule=rule,
                details=(*lines, *gm_lines(outcome, None if hp is None else damage, status)),
                data={
                    "source": "gm",
                    "weapon": item.name,
                    "outcome": outcome,
                    "damage": damage if outcome == "hit" else 0,
                    "status": status,
                    "hp": None if hp is None else hp.current,
                    "separation": separation(state, attacker, target),
                    "lands": "end_of_combat" if later else "at_once",
                },
            )
        )
        if not later:
            self._maybe_down(state, target)

    def _borrowed(
        self,
        state: GameState,
        attacker: Figure,
        target: Figure,
        item: Equipment,
        lines: list[str],
        dice: Dice,
    ) -> None:
        chain = borrowed_chain(state, attacker, target, item)
        result = chain.roll(dice)
        hit = result.results[0]
        assert isinstance(hit, CheckResult)
        damage = result.result("damage")
        hp = target.pools["hp"]
        amount = damage.total if isinstance(damage, AmountResult) else 0
        later = self._later(state)
        text = f"{attacker.name} strikes {target.name} with the {item.name}: "
        text += f"hit, {self._hurt(state, target, amount, 'none')}" if damage else "miss"
        text += " (roll borrowed from skirmish, C-1)"
        state.emit(
            Event(
                "strike",
                text,
                attacker.id,
                target.id,
                rule="CSP-17, C-1, C-2" + (", R-7" if later and damage else ""),
                details=(*lines, *chain.stages[0].rollable.breakdown(), *result.lines()),
                rolls=tuple(r.to_json() for r in result.rolls),
                data={
                    "source": "skirmish",
                    "weapon": item.name,
                    "outcome": "hit" if damage else "miss",
                    "damage": amount,
                    "hp": hp.current,
                    "lands": "end_of_combat" if later else "at_once",
                },
            )
        )
        if not later:
            self._maybe_down(state, target)

    def _later(self, state: GameState) -> bool:
        """R-7 'end_of_combat': a phase's strikes land together when the combat step ends."""
        return opt_text(state, "csp.strike_effects") == "end_of_combat"

    def _hurt(self, state: GameState, target: Figure, damage: int, status: str) -> str:
        """A hit's damage (with hit points, R-3) and status: taken now, or kept for the end of
        the combat step (R-7). Returns the words for the strike's log line."""
        hp = target.pools.get("hp")
        parts = []
        if self._later(state):
            pending = FigureBook(target).pending
            pending["damage"] = int_or(pending.get("damage"), 0) + damage
            statuses = pending.get("statuses")
            pending["statuses"] = [
                *(statuses if isinstance(statuses, list) else []),
                *([status] if status != "none" else []),
            ]
            FigureBook(target).pending = pending
            if hp is not None:
                parts.append(f"{damage} damage")
        elif hp is not None:
            lose_points(hp, damage)
            parts.append(f"{damage} damage ({hp.current}/{hp.maximum} hp left)")
        if status != "none":
            if not self._later(state):
                target.statuses[status] = Status(status, note="GM's ruling (R-3)")
            parts.append(dict(STATUSES)[status].split(" (")[0].lower())
        if parts and self._later(state):
            parts.append("at the end of the combat step")
        return ", ".join(parts)

    def _land(self, state: GameState) -> None:
        """R-7 'end_of_combat': the phase's strikes land together, figure by figure in the
        set-up's order (damage adds up, statuses in the table's order: entry order is lost)."""
        for f in state.figures.values():
            book = FigureBook(f)
            pending = book.pending
            book.clear_pending()
            if not pending:
                continue
            damage = int_or(pending.get("damage"), 0)
            given = pending.get("statuses")
            statuses = [s for s, _ in STATUSES if isinstance(given, list) and s in given]
            hp = f.pools.get("hp")
            parts = []
            if hp is not None:
                lose_points(hp, damage)
                parts.append(f"{damage} damage ({hp.current}/{hp.maximum} hp left)")
            for status in statuses:
                f.statuses[status] = Status(status, note="GM's ruling (R-3)")
                parts.append(dict(STATUSES)[status].split(" (")[0].lower())
            if not parts:
                continue
            state.emit(
                Event(
                    "status",
                    f"{f.name}: {', '.join(parts)}, as the phase's strikes land together (R-7)",
                    f.id,
                    rule="R-7",
                    data={
                        "hp_lost": damage,
                        "hp": None if hp is None else hp.current,
                        "statuses": list(statuses),
                    },
                )
            )
            self._maybe_down(state, f)

    def _maybe_down(self, state: GameState, target: Figure) -> None:
        hp = target.pools.get("hp")
        if hp is not None and hp.current == 0:
            knock_down(target)
        if target.has_status("down"):
            state.emit(Event("status", f"{target.name} is down", target.id, rule="R-3"))


def _gm_ruling_fields(state: GameState) -> tuple[FieldSpec, ...]:
    """What the GM enters for a strike when the GM rules its outcome: hit or miss, the damage
    (when the encounter tracks hit points) and a status."""
    fields: tuple[FieldSpec, ...] = ()
    fields += (
        FieldSpec(
            "outcome",
            "The GM's ruling",
            "choice",
            help="The GM's ruling: the text has no to-hit rule (C-1).",
            rule="C-1",
            choices=(Choice("hit", "Hit"), Choice("miss", "Miss")),
        ),
    )
    if tracks_hp(state):
        fields += (
            FieldSpec(
                "damage",
                "GM: damage",
                "int",
                0,
                "Hit points the target loses (0 on a miss). The text has no damage (C-1, R-3).",
                "R-3",
                minimum=0,
                maximum=99,
                required=False,
            ),
        )
    fields += (
        FieldSpec(
            "status",
            "GM: status",
            "choice",
            "none",
            "A status the hit gives, if any (R-3).",
            "R-3",
            tuple(
                Choice(v, label, when={} if v == "none" else {"outcome": "hit"})
                for v, label in STATUSES
            ),
            required=False,
        ),
    )
    return fields
