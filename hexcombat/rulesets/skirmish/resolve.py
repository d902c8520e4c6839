"""``skirmish`` attacks: the hit -> damage chain a preview shows and the attack rolls."""

from __future__ import annotations

from hexcombat.checks import Amount, AmountResult, Chain, Check, CheckResult, Modifier, Stage
from hexcombat.dice import Dice
from hexcombat.events import Event
from hexcombat.figures import Figure, figure_distance, nearest_hexes
from hexcombat.geometry import rear_hexes
from hexcombat.rulesets.common import int_or, knock_down, lose_points
from hexcombat.rulesets.skirmish.options import ATTACK, DAMAGE, DEFENCE
from hexcombat.state import GameState


def enemies_in_reach(state: GameState, figure: Figure) -> list[Figure]:
    """Living enemies within one hex (sharing its hex when stacking allows)."""
    return [t for t in state.living() if t.side != figure.side and figure_distance(figure, t) <= 1]


def attack_chain(state: GameState, attacker: Figure, target: Figure, die: int) -> Chain:
    """To hit (d20 + Attack, + rear bonus, against Defence), then damage on a hit."""
    bonus = [Modifier("Attack", ATTACK(attacker))]
    near, far = nearest_hexes(attacker, target)
    if near in rear_hexes(far, target.facing):
        bonus.append(Modifier("From the rear", int_or(state.option("skirmish.rear_bonus"), 0)))
    hit = Check(
        "To hit",
        "d20",
        "ge",
        DEFENCE(target),
        f"{target.name}'s Defence",
        (),
        tuple(bonus),
        success_text="hit",
        success_phrase="to hit",
        failure_text="miss",
    )
    damage = Amount("Damage", DAMAGE(attacker), (), die, unit="damage")
    return Chain(
        f"{attacker.name} attacks {target.name}",
        (Stage("hit", hit), Stage("damage", damage, ("success",))),
    )


def attack(state: GameState, attacker: Figure, target: Figure, chain: Chain, dice: Dice) -> None:
    """Roll the chain: to hit, then damage on a hit; at 0 hit points the target is down."""
    result = chain.roll(dice)
    hit = result.results[0]
    assert isinstance(hit, CheckResult)
    details = (*chain.stages[0].rollable.breakdown(), hit.outcome(), *result.lines()[1:])
    rolls = tuple(r.to_json() for r in result.rolls)
    damage = result.result("damage")
    if damage is None:
        text = f"{attacker.name} misses {target.name}"
        state.emit(Event("attack", text, attacker.id, target.id, details=details, rolls=rolls))
        return
    assert isinstance(damage, AmountResult)
    amount = damage.total
    hp = target.pools["hp"]
    lose_points(hp, amount)
    left = f"{hp.current}/{hp.maximum} hp left"
    text = f"{attacker.name} hits {target.name} for {amount} ({left})"
    state.emit(
        Event(
            "attack",
            text,
            attacker.id,
            target.id,
            details=details,
            rolls=rolls,
            data={"damage": amount, "hp": hp.current},
        )
    )
    if hp.current == 0:
        knock_down(target, replace=True)
        state.emit(Event("status", f"{target.name} is down", target.id))
