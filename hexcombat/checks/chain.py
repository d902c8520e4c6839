"""A :class:`Chain`: stages rolled in order, each only on given outcomes of the one before
(hit -> damage -> location -> save)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from hexcombat.checks.parts import CheckError, Face, Outcome, Rollable, RollResult, Variant
from hexcombat.dice import Dice, Roll


@dataclass(frozen=True)
class Stage:
    """One step of a :class:`Chain`, rolled only ``when`` the step before came out so.

    ``when`` holds outcome ids of the previous stage; empty means "whenever the
    previous stage was rolled". ``after`` names the earlier stage it follows instead of the
    one just before: stages after the same one on outcomes apart are branches (the damage
    dice of each threshold a hit reaches), each rolled only on its own outcomes.
    """

    id: str
    rollable: Rollable
    when: tuple[str, ...] = ()
    after: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "when", tuple(self.when))


@dataclass(frozen=True)
class Chain(Rollable):
    """Rolls in order, each only on given outcomes of the one before (hit -> damage -> save).

    Outcomes are where the chain stops: ``"hit.failure"`` (a miss ends it), or an
    outcome of the last stage rolled (``"damage.4"``); their chances sum to 1.
    """

    kind: ClassVar[str] = "chain"
    label: str
    stages: tuple[Stage, ...]
    rule: str = ""
    variants: tuple[Variant, ...] = ()
    headline_stage: str = ""
    """The stage whose headline, times the chance it is reached, heads the chain (default:
    the first stage's): a missile checked against a bystander first heads with its target."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", tuple(self.stages))
        object.__setattr__(self, "variants", tuple(self.variants))
        if not self.stages:
            raise CheckError(f"{self.label!r}: a chain needs at least one stage")
        if self.headline_stage and self.headline_stage not in [s.id for s in self.stages]:
            raise CheckError(f"{self.label!r}: no stage {self.headline_stage!r} to head it")
        if self.stages[0].when:
            raise CheckError(f"{self.label!r}: the first stage is always rolled (no 'when')")
        ids = [s.id for s in self.stages]
        if len(set(ids)) != len(ids):
            raise CheckError(f"{self.label!r}: stage ids must differ, got {ids}")
        for i, stage in enumerate(self.stages[1:], start=1):
            if stage.after and stage.after not in ids[:i]:
                raise CheckError(f"{self.label!r}: stage {stage.id!r} follows no earlier stage")
            before = self.stages[self.before(i)]
            known = [o.id for o in before.rollable.outcomes()]
            unknown = [w for w in stage.when if w not in known]
            if unknown:
                raise CheckError(
                    f"{self.label!r}: stage {stage.id!r} follows outcome(s) {unknown} that "
                    f"{before.id!r} does not have (its outcomes: {', '.join(known)})"
                )

    def before(self, index: int) -> int:
        """The index of the stage that stage ``index`` follows."""
        after = self.stages[index].after
        return [s.id for s in self.stages].index(after) if after else index - 1

    def _next(self, index: int, outcome_id: str) -> int | None:
        """The stage rolled after stage ``index`` came out ``outcome_id`` (None: it stops)."""
        return next(
            (
                j
                for j in range(index + 1, len(self.stages))
                if self.before(j) == index and _goes_on(self.stages[j], outcome_id)
            ),
            None,
        )

    def reached(self) -> list[Fraction]:
        """The exact chance that each stage is rolled at all."""
        chances = [Fraction(1)]
        for i in range(1, len(self.stages)):
            before = self.before(i)
            go = sum(
                (
                    o.chance
                    for o in self.stages[before].rollable.outcomes()
                    if self._next(before, o.id) == i
                ),
                Fraction(0),
            )
            chances.append(chances[before] * go)
        return chances

    def _when_text(self, index: int) -> str:
        """``if hit`` for a stage rolled only after given outcomes ('' when always rolled)."""
        i = index
        while i > 0:
            stage, before = self.stages[i], self.stages[self.before(i)]
            if stage.when:
                labels = {o.id: o.label for o in before.rollable.outcomes()}
                return "if " + " or ".join(labels[w] for w in stage.when)
            i = self.before(i)
        return ""

    def outcomes(self) -> tuple[Outcome, ...]:
        """Where the chain stops, stage by stage, each with its exact chance."""
        result = []
        reached = self.reached()
        for i, stage in enumerate(self.stages):
            for o in stage.rollable.outcomes():
                if self._next(i, o.id) is None:
                    label = f"{stage.rollable.label}: {o.label}"
                    result.append(Outcome(f"{stage.id}.{o.id}", label, reached[i] * o.chance))
        return tuple(result)

    def headline(self) -> Outcome | None:
        """The first stage's headline (the chance to hit), or ``headline_stage``'s times the
        chance that it is rolled at all."""
        if not self.headline_stage:
            return self.stages[0].rollable.headline()
        index = [s.id for s in self.stages].index(self.headline_stage)
        head = self.stages[index].rollable.headline()
        if head is None:
            return None
        return Outcome(head.id, head.label, self.reached()[index] * head.chance, head.phrase)

    def breakdown(self) -> list[str]:
        """The first stage's breakdown, then each later stage under its condition."""
        lines = list(self.stages[0].rollable.breakdown())
        for i, stage in enumerate(self.stages[1:], start=1):
            when = self._when_text(i) if stage.when else "then"
            lines.append(f"{when[0].upper()}{when[1:]}: {stage.rollable.label}")
            lines += [f"  {line}" for line in stage.rollable.breakdown()]
        return lines

    def roll_order(self) -> list[str]:
        """Every stage's dice, in order."""
        return [d for stage in self.stages for d in stage.rollable.roll_order()]

    def faces(self) -> tuple[Face, ...]:
        """Every stage's dice in order; later ones say when they are rolled (``if hit``)."""
        return tuple(
            Face(f.sides, f.dice, f.who, f.when or self._when_text(i))
            for i, stage in enumerate(self.stages)
            for f in stage.rollable.faces()
        )

    def roll(self, dice: Dice) -> ChainResult:
        """Roll the stages in order, stopping when an outcome does not lead on."""
        results: list[RollResult] = []
        rolled: list[str] = []
        index: int | None = 0
        while index is not None:
            results.append(self.stages[index].rollable.roll(dice))
            rolled.append(self.stages[index].id)
            index = self._next(index, results[-1].outcome_id)
        return ChainResult(self, tuple(results), tuple(rolled))

    def to_json(self) -> dict[str, Any]:
        """The common shape, with ``stages``: each stage's JSON, ``when`` and its chance."""
        data = super().to_json()
        reached = self.reached()
        data["stages"] = [
            {
                **stage.rollable.to_json(),
                "id": stage.id,
                "after": self.stages[self.before(i)].id if i else "",
                "when": list(stage.when),
                "when_text": self._when_text(i),
                "reached": Outcome("reached", "rolled", reached[i]).to_json(),
            }
            for i, stage in enumerate(self.stages)
        ]
        return data


def _goes_on(stage: Stage, outcome_id: str) -> bool:
    return not stage.when or outcome_id in stage.when


@dataclass(frozen=True)
class ChainResult(RollResult):
    """A rolled chain: the result of each stage rolled, in order."""

    chain: Chain
    results: tuple[RollResult, ...]
    stage_ids: tuple[str, ...]
    """The id of each stage rolled, in order (a branch not taken is not among them)."""

    @property
    def outcome_id(self) -> str:
        """Where the chain stopped: ``"<stage id>.<outcome id>"``."""
        return f"{self.stage_ids[-1]}.{self.results[-1].outcome_id}"

    def result(self, stage_id: str) -> RollResult | None:
        """The result of the stage ``stage_id`` (None when it was not rolled)."""
        for rolled, result in zip(self.stage_ids, self.results, strict=True):
            if rolled == stage_id:
                return result
        return None

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll of every stage, in order."""
        return tuple(r for result in self.results for r in result.rolls)

    def lines(self) -> list[str]:
        """One line per stage rolled."""
        return [r.explain() for r in self.results]

    def explain(self) -> str:
        """The stages' lines joined: ``To hit: ... hit; Damage: rolled 4``."""
        return "; ".join(self.lines())
