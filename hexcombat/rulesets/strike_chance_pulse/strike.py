"""The Strike Check as a rollable: every outcome of one D100 with its exact chance.

One D100 against the Modified Strike Chance (SCP-28) can come out five ways
that matter to the rules: a hit, a miss, a miss that lets the defender parry
(SCP-32: 30 or more above the MSC, or any miss against an Evading figure), and
a 99 or 100 that hits or misses as usual and also calls for the fumble check
(SCP-30, A-4); for bare hands, teeth and claws, which no fumble check can break or
drop, a 99 or 100 costs the next Pulse's attack with the GM's option and nothing
otherwise (SCP-31, A-5). A Knockout (SCP-20) succeeds only at or under 15% of the MSC;
rolls above that and at or under the MSC do nothing (A-21). The MSC itself,
with every number named by its rule, is an ordinary :class:`~hexcombat.checks.Check`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from hexcombat.checks import Check, Face, Outcome, Rollable, RollResult, Variant
from hexcombat.dice import Dice, Roll
from hexcombat.rulesets.strike_chance_pulse.rules import fumble_face, knockout_limit

LABELS = {
    "success": "hit",
    "no_effect": "hit above 15%: no effect",
    "failure": "miss",
    "parry": "miss: the defender may parry",
    "fumble_hit": "99 or 100: a hit, and a fumble check",
    "fumble_miss": "99 or 100: a miss, and a fumble check",
    "break_hit": "99: a hit, and a fumble check: the weapon may break",
    "break_miss": "99: a miss, and a fumble check: the weapon may break",
    "drop_hit": "100: a hit, and a fumble check: the weapon may be dropped",
    "drop_miss": "100: a miss, and a fumble check: the weapon may be dropped",
}
FUMBLES = ("check", "pulse", "")
"""What a 99 or 100 calls for: the fumble check (SCP-30), a natural weapon's lost Pulse
(SCP-31, A-5), or nothing (a natural weapon without that option)."""
FUMBLE_HITS = ("fumble_hit", "break_hit", "drop_hit")
FUMBLE_MISSES = ("fumble_miss", "break_miss", "drop_miss")
"""The outcomes of a 99 or 100 that hit or miss: a lost Pulse's (``fumble_``), or the
fumble check's, by what a failed one costs: 99 breaks the weapon, 100 drops it (A-4)."""
PULSE_LABELS = {
    "fumble_hit": "99/100: hit, no attack next Pulse",
    "fumble_miss": "99/100: miss, no attack next Pulse",
}


@dataclass(frozen=True)
class StrikeCheck(Rollable):
    """D100 against ``check.target`` (the MSC), split into the outcomes the rules use."""

    kind: ClassVar[str] = "check"
    check: Check
    parry_margin: bool = False
    evading_parry: bool = False
    auto_miss: bool = False
    knockout: bool = False
    variants: tuple[Variant, ...] = ()
    fumble: str = "check"
    """What a 99 or 100 calls for (:data:`FUMBLES`)."""

    @property
    def label(self) -> str:  # type: ignore[override]
        """The check's label."""
        return self.check.label

    @property
    def rule(self) -> str:  # type: ignore[override]
        """The check's rule ids."""
        return self.check.rule

    @property
    def msc(self) -> int:
        """The Modified Strike Chance (SCP-27)."""
        return self.check.target

    def hits(self, face: int) -> bool:
        """SCP-28 (and SCP-20 for a Knockout): does ``face`` succeed?"""
        return self._hits(face, self.msc)

    def classify(self, face: int) -> str:
        """The outcome id of a D100 face."""
        return self._classify(face, self.msc)

    def _hits(self, face: int, msc: int) -> bool:
        """:meth:`hits` under the Modified Strike Chance ``msc`` (worked out once for all
        100 faces)."""
        if face >= 99 and self.auto_miss:
            return False
        if self.knockout:
            return 100 * face <= 15 * msc
        return face <= msc

    def _classify(self, face: int, msc: int) -> str:
        """:meth:`classify` under the Modified Strike Chance ``msc``."""
        hit = self._hits(face, msc)
        if face >= 99 and self.fumble:
            what = fumble_face(face) if self.fumble == "check" else "fumble"
            return f"{what}_hit" if hit else f"{what}_miss"
        if hit:
            return "success"
        if face <= msc:
            return "no_effect"
        if self.evading_parry or (self.parry_margin and face >= msc + 30):
            return "parry"
        return "failure"

    def outcomes(self) -> tuple[Outcome, ...]:
        """Each outcome that can happen, with its exact chance (in hundredths)."""
        counts: dict[str, int] = {}
        msc = self.msc
        for face in range(1, 101):
            key = self._classify(face, msc)
            counts[key] = counts.get(key, 0) + 1
        possible = {"success", "failure", *counts}
        if self.fumble == "check":
            possible |= {"break_hit", "break_miss", "drop_hit", "drop_miss"}
        elif self.fumble:
            possible |= {"fumble_hit", "fumble_miss"}
        if self.parry_margin or self.evading_parry:
            possible.add("parry")
        if self.knockout:
            possible.add("no_effect")
        order = [k for k in LABELS if k in possible]
        return tuple(Outcome(k, self._label(k), Fraction(counts.get(k, 0), 100)) for k in order)

    def misses(self) -> tuple[str, ...]:
        """The ids of the outcomes that take no effect on the target."""
        return tuple(o.id for o in self.outcomes() if o.id != "success" and o.id not in FUMBLE_HITS)

    def fumbles(self) -> tuple[str, ...]:
        """The ids of the outcomes of a 99 or 100."""
        return tuple(o.id for o in self.outcomes() if o.id in FUMBLE_HITS + FUMBLE_MISSES)

    def _label(self, key: str) -> str:
        if key == "success" and self.knockout:
            return "knocked out"
        if self.fumble == "pulse":
            return PULSE_LABELS.get(key, LABELS[key])
        return LABELS[key]

    def chance(self) -> Fraction:
        """The exact chance of success (a hit, 99/100 hits included)."""
        msc = self.msc
        return Fraction(sum(1 for f in range(1, 101) if self._hits(f, msc)), 100)

    def headline(self) -> Outcome:
        """The chance to hit (or knock out)."""
        phrase = "to knock out" if self.knockout else "to hit"
        return Outcome("success", self._label("success"), self.chance(), phrase)

    def breakdown(self) -> list[str]:
        """The MSC's numbers, then what the roll needs and what 99/100 do."""
        lines = self.check.breakdown()
        if self.knockout:
            limit = knockout_limit(self.msc)
            lines.append(
                f"Knockout: roll at or under 15% of {self.msc} = {Fraction(15 * self.msc, 100)}"
                f" (1-{limit}) (SCP-20)"
                if limit
                else f"Knockout: 15% of {self.msc} is below 1: cannot succeed (SCP-20)"
            )
        if self.evading_parry:
            lines.append("The target is Evading: any miss may be parried (SCP-32)")
        elif self.parry_margin:
            lines.append(f"A roll of {self.msc + 30} or more may be parried (SCP-32)")
        misses = "; it always misses (A-4)" if self.auto_miss else ""
        if self.fumble == "check":
            lines.append(f"99 or 100: a fumble check follows (SCP-30){misses}")
        elif self.fumble == "pulse":
            lines.append(f"99 or 100: no attack next Pulse (SCP-31, A-5){misses}")
        elif misses:
            lines.append("99 or 100 always misses (A-4)")
        return lines

    def roll_order(self) -> list[str]:
        """One D100."""
        return ["d100"]

    def faces(self) -> tuple[Face, ...]:
        """One D100."""
        return (Face(100, "d100"),)

    def roll(self, dice: Dice) -> StrikeResult:
        """Roll the D100 and classify it."""
        roll = dice.roll("d100")
        return StrikeResult(self, roll, self.classify(roll.total))


@dataclass(frozen=True)
class StrikeResult(RollResult):
    """A rolled Strike Check."""

    strike: StrikeCheck
    roll: Roll
    outcome: str

    @property
    def outcome_id(self) -> str:
        """One of the strike's outcome ids."""
        return self.outcome

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The D100."""
        return (self.roll,)

    @property
    def face(self) -> int:
        """The D100 face."""
        return self.roll.total

    @property
    def hit(self) -> bool:
        """A hit (or a Knockout) takes effect."""
        return self.outcome == "success" or self.outcome in FUMBLE_HITS

    @property
    def fumbled(self) -> bool:
        """A 99 or 100: what it calls for follows (SCP-30, SCP-31)."""
        return self.outcome in FUMBLE_HITS + FUMBLE_MISSES

    def explain(self) -> str:
        """``Ann's Broadsword at Bo: MSC 51; rolled 81: miss: the defender may parry``."""
        return (
            f"{self.strike.label}: MSC {self.strike.msc}; rolled {self.face}: "
            f"{self.strike._label(self.outcome)}"
        )
