"""The rollables of ``two-action-2d10``: attack and defence sides, the hit, damage, location
and saves, built once and shown by the previews; :mod:`.perform` rolls these very rollables
(the preview is the roll)."""

from __future__ import annotations

from dataclasses import replace

from hexcombat.actions import Action
from hexcombat.checks import (
    Amount,
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
from hexcombat.checks.amount import OPEN_TOP
from hexcombat.dice import distribution
from hexcombat.figures import Figure
from hexcombat.rulesets.base import Preview
from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.stats import IntStat
from hexcombat.rulesets.two_action_2d10 import rules as R
from hexcombat.rulesets.two_action_2d10.fields import (
    AGILITY,
    BRAWL,
    DEFENCE_SKILLS,
    MISSILE_SKILL,
    SKILL,
    STRENGTH,
    WHOLE_NUMBERS,
)
from hexcombat.rulesets.two_action_2d10.offers import Offers
from hexcombat.rulesets.two_action_2d10.words import ADJUST_WORDS, ANSWERS, DEFENCE_WORDS
from hexcombat.state import GameState

TIERS = ("hit", "hit1", "hit2", "hit3")
"""The outcome id of a hit by the threshold its surplus reaches (TA-11): the damage dice,
location and save that follow are those of its branch."""
SHIELD = "-shield"
"""Added to a hit's outcome id when it beats a Block by a surplus of 5 or more with
``ta.block_shield_risk`` on: the shield's d10 follows (TA-7, D-3)."""
SHIELD_SURPLUS = 5
"""The surplus over a Block that puts the shield at risk (D-3)."""
SHORT, SURPLUS = "short", "surplus"
"""A tactical brawl's hit by its surplus (TA-21): short of the bar, or ``surplus7``: the
surplus that sets the target's save."""
MISTAKE = "mistake"
"""The outcome id of a spectacular mistake in attack: a miss (TA-17, D-9)."""


def surplus_of(outcome_id: str) -> int:
    """The surplus a tactical brawl's outcome stands for (``surplus7``: 7, TA-21)."""
    return int(outcome_id.removesuffix(SHIELD).removeprefix(SURPLUS))


def tier_of(outcome_id: str) -> int:
    """The threshold a hit's outcome reached (TA-11): 0 for a plain hit."""
    return TIERS.index(outcome_id.removesuffix(SHIELD))


class Resolve(Offers):
    """Rollables and previews."""

    def attack_side(self, state: GameState, f: Figure, mode: str, combined: bool) -> OpposedSide:
        """2d10 (or 3d10 keep two) + skill + weapon (TA-4, TA-5, TA-8)."""
        mods = []
        if mode == "shot":
            mods.append(Modifier("Missile skill", MISSILE_SKILL(f), "TA-8"))
        elif mode == "brawl":
            mods.append(Modifier("Brawling", BRAWL(f), "TA-19"))
        else:
            weapon, row = self.weapon(state, f)
            mods.append(Modifier("Skill", SKILL(f), "TA-8"))
            adj = int_or(row.get("attack_adj"), 0)
            if adj:
                mods.append(
                    Modifier(f"{weapon.capitalize()} (TA-20)", adj, "D-16", house_default=True)
                )
        return OpposedSide(f.name, R.action_dice(combined), tuple(mods))

    def defence_side(self, state: GameState, t: Figure, kind: str, attacker: Figure) -> OpposedSide:
        """A Parry, Block or Dodge roll, never below the standing defence: the passive one, or
        a Block already rolled this round, which stays between the protagonist and any blow
        (TA-7, D-2)."""
        skill = DEFENCE_SKILLS[kind](t)
        adj = R.defence_adjustment(kind, str(self.armour(state, t).get("class")), state.options)
        mods = [Modifier(f"{DEFENCE_WORDS[kind]} skill", skill, "TA-7")]
        if adj:
            mods.append(
                Modifier(f"{DEFENCE_WORDS[kind]} adjustment", adj, "D-2", house_default=True)
            )
        dice = R.action_dice(self.combined(state, t.id, kind))
        floor = self.standing_defence(state, t, attacker)[0] - skill - adj
        if not self.parry_reduces(state, kind) and floor > 2:
            dice = f"{dice} min {floor}"
        return OpposedSide(f"{t.name} ({DEFENCE_WORDS[kind].lower()})", dice, tuple(mods))

    def standing_defence(self, state: GameState, t: Figure, attacker: Figure) -> tuple[int, str]:
        """The defence with no roll now: passive, or a Block already rolled this round
        (it covers every blow, D-2)."""
        passive = self.passive(state, t)
        block = self.round_of(state).blocks.get(t.id)
        covers = self.shield_ready(t) and self._covers(state, t, attacker, "block")
        if isinstance(block, int) and covers:  # a shield dropped or lost covers nothing
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
        if t.id in self.round_of(state).stopped:
            return []
        acts = self.actions_of(state, t.id)
        spent = self.round_of(state).spent.get(t.id, [])
        out = []
        for kind in R.DEFENCES:
            if kind not in acts or kind in spent:
                continue
            if kind == "block" and (
                not self.shield_ready(t) or t.id in self.round_of(state).blocks
            ):
                continue
            if kind == "parry" and (
                not self.parry_ready(state, t)
                or (mode == "shot" and not state.options.get("ta.missile_parry"))
            ):
                continue
            if self._covers(state, t, attacker, kind):
                out.append(kind)
        return out

    def answers_to(
        self, state: GameState, t: Figure, attacker: Figure, mode: str
    ) -> tuple[list[str], bool]:
        """The defences ``t`` may commit against this blow and whether it may take the blow
        on its standing defence instead: a Block not yet rolled is rolled against the first
        blow it covers under ``ta.block_timing`` ``first_blow`` (TA-7, R-13)."""
        kinds = self.defences(state, t, attacker, mode)
        if "block" in kinds and state.options.get("ta.block_timing") != "at_choice":
            return ["block"], False
        return kinds, True

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
                naturals=self.mistakes(state, t, side),
                margins=self.hit_bands(state, (a, t), mode, kind),
            )
        defence = self.defence_side(state, t, kind, a)
        return OpposedCheck(
            "To hit",
            side,
            defence,
            ties="attacker",
            rule="TA-9",
            naturals=self.mistakes(state, t, side),
            margins=self.hit_bands(state, (a, t), mode, kind),
        )

    def mistakes(self, state: GameState, t: Figure, side: OpposedSide) -> tuple[Band, ...]:
        """The attack dice that make a spectacular mistake, a miss whatever the defence
        (TA-17, D-9): both kept dice 1, or with the option an attack at or below the
        passive defence - 10."""
        rule, passive = str(state.options.get("ta.fumble_rule")), self.passive(state, t)
        totals = [  # two kept dice both show 1 exactly when they total 2
            d
            for d in distribution(side.dice)
            if R.is_spectacular_mistake((1, 1) if d == 2 else (d,), d + side.bonus, passive, rule)
        ]
        if not totals:
            return ()
        return (Band(min(totals), max(totals), MISTAKE, "spectacular mistake: a miss"),)

    def hit_bands(
        self, state: GameState, pair: tuple[Figure, Figure], mode: str, kind: str | None
    ) -> tuple[Band, ...]:
        """A hit's outcomes by its surplus: the threshold it reaches (TA-11), or for a
        grapple, lock, throw or trip the save it leaves the target (TA-21); none under a
        Parry that reduces the surplus (I-4)."""
        if self.parry_reduces(state, kind):
            return ()
        a, t = pair
        shield = self.shield_at_risk(state, kind)
        style = self.brawl_style(state, a) if mode == "brawl" else "pummel"
        if style == "pummel":
            return self.tier_bands(state, shield)
        return self.brawl_bands(state, t, style, shield)

    def brawl_style(self, state: GameState, a: Figure) -> str:
        """The brawl declared: pummel, grapple, lock, throw or trip (TA-19, TA-21)."""
        return str(self.plan(state, a.id).get("style") or "pummel")

    def brawl_bands(
        self, state: GameState, t: Figure, style: str, shield: bool
    ) -> tuple[Band, ...]:
        """A grapple, lock, throw or trip by its surplus: short of the bar, or each surplus
        with the save it leaves, one band once no save is left (TA-21, D-14)."""
        bar = int_or(state.options.get("ta.brawl_bar"), 5)
        cap = bar + max(0, self.brawl_stat(style)(t) - 1)  # the save's 2d10 cannot pass
        top = max(cap, SHIELD_SURPLUS if shield else 0)

        def key(margin: int) -> tuple[str, bool]:
            name = SHORT if margin < bar else f"{SURPLUS}{min(margin, cap)}"
            return name, shield and margin >= SHIELD_SURPLUS

        bands, low = [], 0
        for margin in range(top + 1):
            if margin == top or key(margin + 1) != key(margin):
                name, risk = key(margin)
                high = OPEN_TOP if margin == top else margin
                words = (
                    f"hit, surplus under {bar}: the {style} falls short"
                    if name == SHORT
                    else f"hit, surplus {low}{'' if high == margin else ' or more'}: "
                    f"{t.name} saves at {self.brawl_save(state, t, style, low).target}"
                )
                risked = ", and the shield at risk" if risk else ""
                bands.append(Band(low, high, name + (SHIELD if risk else ""), words + risked))
                low = margin + 1
        return tuple(bands)

    @staticmethod
    def brawl_stat(style: str) -> IntStat:
        """The attribute that saves against the brawl: Strength a lock, Agility the rest."""
        return STRENGTH if style == "lock" else AGILITY

    def brawl_save(self, state: GameState, t: Figure, style: str, value: int) -> Check:
        """The target's save against a grapple, lock, throw or trip of surplus ``value``:
        2d10 at or under the attribute - (surplus - bar) (TA-21, D-14)."""
        bar = int_or(state.options.get("ta.brawl_bar"), 5)
        stat = self.brawl_stat(style)
        return Check(
            f"{stat.spec.label} save",
            "2d10",
            "le",
            R.brawl_save_target(stat(t), value, bar),
            f"{stat.spec.label} - (surplus - {bar})",
            rule="TA-21",
            success_text="saved",
            success_phrase="to save",
            failure_text="failed",
        )

    def tier_bands(self, state: GameState, shield: bool = False) -> tuple[Band, ...]:
        """A hit's surplus by the threshold it reaches (TA-11, D-5), as margins of the hit;
        with ``shield`` (a Block at risk, D-3) a surplus of 5 or more is an outcome apart."""
        thresholds = [int_or(state.options.get(f"ta.threshold_{n}"), 0) for n in (1, 2, 3)]
        top = max(0, *thresholds, SHIELD_SURPLUS if shield else 0)
        bands, low = [], 0
        for margin in range(top + 1):
            tier, risk = R.tier(margin, thresholds), shield and margin >= SHIELD_SURPLUS
            follows = (R.tier(margin + 1, thresholds), shield and margin + 1 >= SHIELD_SURPLUS)
            if margin == top or follows != (tier, risk):
                high = OPEN_TOP if margin == top else margin
                oid = TIERS[tier] + (SHIELD if risk else "")
                bands.append(Band(low, high, oid, self._tier_label(tier, low, risk)))
                low = margin + 1
        return tuple(bands)

    def shield_at_risk(self, state: GameState, kind: str | None) -> bool:
        """Whether a hard blow on this defence risks the shield (a Block, TA-7, D-3)."""
        return kind == "block" and bool(state.options.get("ta.block_shield_risk"))

    @staticmethod
    def _tier_label(tier: int, low: int, shield: bool = False) -> str:
        risk = ", and the shield at risk" if shield else ""
        if not tier:
            return f"hit, surplus {low} or more{risk}" if shield else "hit"
        dice = "1 more damage die" if tier == 1 else f"{tier} more damage dice"
        return f"hit, surplus {low} or more: {dice}, a location and a save{risk}"

    def attack_chain(
        self, state: GameState, a: Figure, t: Figure, mode: str, combined: bool, kind: str | None
    ) -> Chain:
        """Before the attack is rolled: hit, then damage minus armour class (TA-9, TA-10);
        more dice, a location and a save follow a surplus at a threshold (TA-11)."""
        hit = self.hit_check(state, a, t, mode, combined, kind)
        stages = [Stage("hit", hit), *self.harm_stages(state, a, t, mode, hit, "hit")]
        return Chain(f"{a.name} at {t.name}", tuple(stages), rule="TA-9")

    def harm_stages(
        self, state: GameState, a: Figure, t: Figure, mode: str, by: Rollable, after: str
    ) -> list[Stage]:
        """What a hit rolls on each threshold its surplus may reach, from the outcomes of
        ``by`` (the hit's or a parry's, stage ``after``): its damage dice (TA-10, TA-11),
        then, from the first threshold and while the target stands, the location and the
        save by location (TA-11, D-6, D-7)."""
        stages: list[Stage] = []
        for outcome in by.outcomes():
            base = outcome.id.removesuffix(SHIELD)
            if not outcome.chance or not (base in TIERS or base.startswith((SHORT, SURPLUS))):
                continue
            key = outcome.id.removeprefix(TIERS[0])  # '', '1', '-shield', '1-shield'
            when: tuple[str, ...] = (outcome.id,)
            follows = after
            if outcome.id.endswith(SHIELD):  # the shield's d10 first (D-3)
                risk = f"shield{key.removesuffix(SHIELD)}"
                stages.append(Stage(risk, self.shield_risk(), when, after))
                when, follows = (), risk
            if base.startswith(SURPLUS):  # the target's save (TA-21)
                save = self.brawl_save(state, t, self.brawl_style(state, a), surplus_of(base))
                stages.append(Stage(f"brawl-{base}", save, when, follows))
            if base not in TIERS:
                continue
            tier = tier_of(outcome.id)
            damage = self.damage_amount(state, a, t, mode, tier)
            if damage is None:
                continue
            name = f"damage{key}"
            stages.append(Stage(name, damage, when, follows))
            standing = tuple(o.id for o in damage.outcomes() if self._stands(state, t, o.id))
            if tier and standing and not self.is_out(state, t):
                stages.append(Stage(f"location{key}", self.location_table(state), standing, name))
                stages += self._save_stages(state, t, tier, key)
        return stages

    def _save_stages(self, state: GameState, t: Figure, tier: int, key: str) -> list[Stage]:
        """A save for each attribute a location asks for (TA-11, D-7)."""
        rows = self._table(state, "locations")
        by_attribute: dict[str, list[str]] = {}
        for row in rows:
            by_attribute.setdefault(str(row["attribute"]), []).append(str(row["id"]))
        return [
            Stage(
                f"save{key}-{attribute}",
                self.save_check(state, t, attribute, tier),
                tuple(ids),
                f"location{key}",
            )
            for attribute, ids in by_attribute.items()
        ]

    @staticmethod
    def _stands(state: GameState, t: Figure, damage: str) -> bool:
        """Whether ``t`` still stands after ``damage`` (TA-12: down at 0 body points)."""
        _, bp = R.take_damage(t.pools["hp"].current, t.pools["bp"].current, int(damage))
        return bp > 0 or not state.options.get("ta.down_at_zero_bp", True)

    def parry_reduces(self, state: GameState, kind: str | None) -> bool:
        """Whether this defence reduces the surplus instead of raising the defence (I-4)."""
        return kind == "parry" and state.options.get("ta.defence_mode") != "max"

    def answered_hit(
        self,
        state: GameState,
        pair: tuple[Figure, Figure],
        mode: str,
        kind: str | None,
        attack: int,
    ) -> Check:
        """After the attack is rolled: the hit over the dice still to roll (TA-9). Against
        the standing defence (or a Parry that only reduces the surplus, I-4) nothing is left
        to roll; else the defensive roll, never below the passive defence, must not beat the
        attack (D-2). A hit's outcome is the threshold its surplus reaches (TA-11)."""
        a, t = pair
        mods: tuple[Modifier, ...] = ()
        if kind is None or self.parry_reduces(state, kind):
            base, label = self.standing_defence(state, t, a)
            dice, comparison, base_label = str(attack), "ge", f"{t.name}'s {label}"
        else:
            side = self.defence_side(state, t, kind, a)
            dice, comparison, base = side.dice, "le", attack
            base_label, mods = f"{a.name}'s attack, rolled (TA-8)", side.modifiers
        return Check(
            "To hit",
            dice,
            comparison,
            base,
            base_label,
            roll_modifiers=mods,
            rule="TA-9",
            success_text="hit",
            success_phrase="to hit",
            failure_text="miss",
            margins=self.hit_bands(state, pair, mode, kind),
        )

    def parry_amount(
        self,
        state: GameState,
        pair: tuple[Figure, Figure],
        mode: str,
        surplus: int,
        defence: int,
    ) -> Amount:
        """A Parry that reduces the surplus by its margin over the defence (I-4), by the
        threshold the surplus left reaches (TA-11), or for a grapple, lock, throw or trip
        the save it leaves (TA-21)."""
        attacker, t = pair
        side = self.defence_side(state, t, "parry", attacker)
        bonus = sum(m.value for m in side.modifiers)
        totals = sorted(total + bonus for total in distribution(side.dice))
        thresholds = [int_or(state.options.get(f"ta.threshold_{n}"), 0) for n in (1, 2, 3)]
        style = self.brawl_style(state, attacker) if mode == "brawl" else "pummel"
        brawl = () if style == "pummel" else self.brawl_bands(state, t, style, False)
        bands: list[Band] = []
        for total in totals:
            left = max(0, surplus - max(0, total - defence))
            tier = R.tier(left, thresholds)
            label = "the blow lands" if not tier else f"the blow lands past threshold {tier}"
            oid = TIERS[tier]
            if brawl:
                oid, label = next((b.id, b.label) for b in brawl if b.low <= left <= b.high)
            if bands and bands[-1].id == oid:
                bands[-1] = Band(bands[-1].low, total, bands[-1].id, bands[-1].label)
            else:
                bands.append(Band(total, total, oid, label))
        return Amount(
            f"{t.name}'s parry", side.dice, side.modifiers, rule="I-4", bands=tuple(bands)
        )

    def damage_amount(
        self, state: GameState, a: Figure, t: Figure, mode: str, hit_tier: int
    ) -> Amount | None:
        """Weapon dice and a die per threshold reached, minus AC (TA-10, TA-11); None for
        a brawl, whose damage follows the surplus (TA-19)."""
        die = self._damage_die(state, a, mode)
        if not die:
            return None
        ac = int_or(self.armour(state, t).get("ac"), 0)
        return Amount("Damage", self._damage_expr(die, hit_tier, ac), rule="TA-10", unit="damage")

    def answer_chain(
        self, state: GameState, a: Figure, t: Figure, mode: str, kind: str | None, attack: int
    ) -> Chain:
        """What an answer to the attack prompt rolls, the attack ``attack`` already rolled:
        the hit over the dice left, a reducing Parry (I-4), then on each threshold the surplus
        may reach its damage dice, location and save (TA-9..TA-11)."""
        hit = self.answered_hit(state, (a, t), mode, kind, attack)
        stages = [Stage("hit", hit)]
        if self.parry_reduces(state, kind):
            parry = self.parry_amount(state, (a, t), mode, attack - hit.target, hit.target)
            stages.append(Stage("parry", parry, ("success",)))
            stages += self.harm_stages(state, a, t, mode, parry, "parry")
        else:
            stages += self.harm_stages(state, a, t, mode, hit, "hit")
        return Chain(f"{a.name} at {t.name}", tuple(stages), rule="TA-9")

    def _damage_die(self, state: GameState, a: Figure, mode: str) -> str:
        if mode == "shot":
            return str(self.missile(state, a)[1].get("damage") or "")
        if mode == "brawl":
            return ""
        return str(self.weapon(state, a)[1].get("damage") or "")

    @staticmethod
    def _damage_expr(die: str, hit_tier: int, ac: int) -> str:
        """Weapon dice + a die per threshold, minus AC, at least 0 (TA-10, TA-11)."""
        return f"{R.damage_dice(die, hit_tier)}{f'-{ac}' if ac else ''} min 0"

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
            answers, may_take = self.answers_to(state, t, a, mode)
            chains = [
                (
                    f"{t.name} commits a {DEFENCE_WORDS[d]}",
                    self.attack_chain(state, a, t, mode, combined, d),
                )
                for d in answers
            ]
            if may_take:
                chains.insert(
                    0, ("No defensive roll", self.attack_chain(state, a, t, mode, combined, None))
                )
            plain = chains[0][1]
            variants = tuple(Variant(label, c) for label, c in chains)
            chain = Chain(
                plain.label, plain.stages, plain.rule, variants if len(variants) > 1 else ()
            )
            return Preview(
                action,
                True,
                rollables=(chain,),
                highlights={"target": t.hexes()},
                notes=self._strike_notes(state, t, a, bool(answers)),
            )
        if kind in (*ANSWERS.values(), "take") and state.prompt is not None:
            c = state.prompt.context
            assert isinstance(c, dict)
            a, t = state.figure(str(c["attacker"])), state.figure(str(c["target"]))
            d = next((k for k, v in ANSWERS.items() if v == kind), None)
            chain = self.answer_chain(state, a, t, str(c["mode"]), d, int_or(c["total"], 0))
            rolled = f"{a.name} rolled {c['total']} to hit: the odds are those of the dice left."
            return Preview(
                action,
                True,
                rollables=(chain,),
                notes=(rolled, *self._strike_notes(state, t, a, False)),
            )
        if kind == "sprint":
            return self._sprint_preview(state, action)
        return Preview(action, True)

    def _sprint_preview(self, state: GameState, action: Action) -> Preview:
        """Breaking away (D-17), or the movement die (TA-24), or combined the better of two
        dice adjusted at choice (TA-25, D-12)."""
        f = state.figure(action.figure)
        other = self.closed_with(state, f.id)
        if other:
            check = self.break_check(state, f, state.figure(other))
            return Preview(action, True, rollables=(check,))
        if not self.combined(state, f.id, "move"):
            return Preview(action, True, rollables=(self.sprint_amount(state, f, 0),))
        # TA-25, D-12: the better of two dice, then +1 or -1 hex at choice (never below
        # 0; a die shows at least 1): the chosen adjustment's odds, the others as variants
        chosen = action.integer("adjust", 1)
        others = tuple(
            Variant(ADJUST_WORDS[a], self.sprint_amount(state, f, a))
            for a in (1, 0, -1)
            if a != chosen
        )
        amount = replace(self.sprint_amount(state, f, chosen), variants=others)
        die = R.movement_die(str(self.armour(state, f).get("class")))
        low, high = 0, int(die[1:]) + 1
        note = (
            f"Better of two {die}, then ±1 at choice: {low} to {high} extra hexes "
            f"(TA-25, D-12); {ADJUST_WORDS[chosen].lower()} shown."
        )
        return Preview(action, True, rollables=(amount,), notes=(note,))

    def sprint_amount(self, state: GameState, f: Figure, adjust: int) -> Amount:
        """Extra hexes for a movement action: the armour's die (TA-24), or with both actions
        the better of two, +1 or -1 hex at choice (TA-25, D-12)."""
        die = R.movement_die(str(self.armour(state, f).get("class")))
        if not self.combined(state, f.id, "move"):
            return Amount("Extra hexes", die, rule="TA-24", unit="hexes")
        words = {1: "+1 hex at choice", -1: "-1 hex at choice"}
        mods = (Modifier(words[adjust], adjust, "TA-25"),) if adjust else ()
        return Amount("Extra hexes", f"2{die}kh1", mods, rule="TA-25, D-12", unit="hexes")

    def _declare_preview(self, state: GameState, action: Action) -> Preview:
        f = state.figure(action.figure)
        first, second = str(action.params.get("first", "")), str(action.params.get("second", ""))
        combine = R.is_combined(first, second, action.params.get("combine") is True)
        t = state.figures.get(str(action.params.get("target") or ""))
        rollables: list[Rollable] = []
        for act, mode, title in (("attack", "melee", "Attack"), ("shoot", "shot", "Shot")):
            if act in (first, second) and t is not None:  # a shot is never combined (TA-22)
                side = self.attack_side(state, f, mode, combine and mode != "shot")
                base, label = self.passive(state, t), f"{t.name}'s passive defence (TA-6)"
                rollables.append(
                    Check(
                        title,
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

    def _strike_notes(
        self, state: GameState, t: Figure, a: Figure, defended: bool
    ) -> tuple[str, ...]:
        """What the odds assume: thresholds (TA-11) and the defence never below the standing
        one (D-2)."""
        first = int_or(state.options.get("ta.threshold_1"), 5)
        notes = [
            f"A surplus of {first} or more adds damage dice, a hit location and a save (TA-11)."
        ]
        if defended:
            standing, label = self.standing_defence(state, t, a)
            notes.append(
                f"A defensive roll never lowers {t.name}'s defence below {standing} "
                f"({label.split(' (')[0].lower()}; 'min' in its dice, D-2); {t.name} is asked "
                "after the attack is rolled (TA-17)."
            )
        return tuple(notes)

    def _target_of(self, state: GameState, a: Figure, kind: str) -> tuple[Figure, str]:
        if kind == "riposte":  # with fists once the weapon is dropped or if no other
            fists = a.has_status("dropped_weapon") or self.fists_only(state, a)
            mode = "brawl" if fists else "melee"
            c = state.prompt.context if state.prompt is not None else None
            if isinstance(c, dict) and c.get("attacker") == a.id:  # at once (I-3)
                return state.figure(str(c["target"])), mode
            return state.figure(str(self.round_of(state).ripostes.get(a.id))), mode
        return state.figure(str(self.plan(state, a.id).get("target"))), self.strike_mode(state, a)

    @staticmethod
    def shield_risk() -> Amount:
        """A Block beaten by a surplus of 5 or more: d10, 1-5 the shield is torn away,
        6-10 broken (TA-7, D-3)."""
        bands = (Band(1, 5, "torn", "Torn away"), Band(6, 10, "broken", "Broken"))
        return Amount("Shield", "d10", rule="D-3", bands=bands)

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
            WHOLE_NUMBERS[attribute](t, 10) if attribute in WHOLE_NUMBERS else 10,
            attribute.capitalize(),
            mods,
            rule="TA-11",
            success_text="saved",
            success_phrase="to save",
            failure_text="failed",
        )

    def break_check(self, state: GameState, f: Figure, other: Figure) -> OpposedCheck:
        """Breaking away: 2d10 + Agility meets or beats 2d10 + the opponent's Agility (D-17)."""
        return OpposedCheck(
            "Break away",
            OpposedSide(f.name, "2d10", (Modifier("Agility", AGILITY(f, 0), "D-17"),)),
            OpposedSide(
                other.name,
                "2d10",
                (Modifier("Agility", AGILITY(other, 0), "D-17"),),
            ),
            ties="attacker",
            rule="D-17",
        )
