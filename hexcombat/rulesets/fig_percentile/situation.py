"""Everything the rules ask about a state: options, speeds, targets and to-hit checks.

These functions read a :class:`~hexcombat.state.GameState` and change nothing;
the ruleset's action handlers use them, and so do its previews, so a preview
always shows the numbers the roll will use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from hexcombat.checks import Amount, Chain, Check, Modifier, Stage
from hexcombat.figures import Equipment, Figure, figure_distance, hex_pairs
from hexcombat.rulesets.common.settings import SettingsCache, option_values
from hexcombat.rulesets.fig_percentile.equipment import find, in_hand, is_ranged, needs_los
from hexcombat.rulesets.fig_percentile.options import (
    DAMAGE,
    DODGE_SKILL,
    FIG,
    MAX_ACTIONS,
    MAX_RANGE_YARDS,
    SKILL,
)
from hexcombat.rulesets.fig_percentile.ranges import Sight, max_range_hexes, range_band, sight
from hexcombat.rulesets.fig_percentile.speed import (
    NO_SPEED,
    RUNNING,
    SLOW,
    Band,
    Motion,
    accel_speed,
    allowance,
    can_dodge,
    combined_band,
    combined_speed,
    half_skill,
    is_slow,
    show,
    speed_value,
    top_speed,
)
from hexcombat.rulesets.fig_percentile.state import FigureBook, RoundBook
from hexcombat.state import GameState
from hexcombat.validation import Json


@dataclass(frozen=True)
class Settings:
    """The encounter's options, typed (names as in the spec: ``fp.hit_comparison`` ...)."""

    hit_comparison: str
    rounding: str
    damage_model: str
    dodge: bool
    ready_costs_action: bool
    cast_requires_stationary: str
    melee_reach: int
    stationary_band: str
    walk_speed: int | str
    turn_policy: str
    terrain_reduces_speed: bool
    tree_cover_modifier: int
    terrain_entry: str
    min_one_hex_move: bool
    round_order: str
    figures_block_los: bool
    turn_speed_basis: str
    range_band_distance: str
    spells_as_ranged: bool
    combined_speed_unit: str
    stacking: int
    los_tie_policy: str
    hidden_declarations: bool
    unreleased_spell: str
    empty_acceleration: str

    @classmethod
    def of(cls, options: Mapping[str, Json]) -> Settings:
        """Read the options of a state (every option has a value there)."""
        core = ("stacking", "los_tie_policy", "hidden_declarations")
        return cls(**option_values(cls.__dataclass_fields__, options, "fp", core))


def counted(n: int, one: str, many: str = "") -> str:
    """``1 hex``, ``3 hexes``, ``1 round``: a number with its noun in the right form."""
    return f"{n} {one if n == 1 else many or one + 's'}"


settings = SettingsCache(Settings.of)
"""``settings(state)``: the typed options of ``state``, made once per options table."""


def actions_left(figure: Figure) -> int:
    """Actions the figure may still take this round (FP-24)."""
    return max(0, MAX_ACTIONS(figure) - FigureBook(figure).actions_used)


def mode_of(figure: Figure) -> str:
    """This round's move mode (stationary until declarations are revealed)."""
    return FigureBook(figure).mode or "stationary"


def motion(state: GameState, figure: Figure) -> Motion:
    """How ``figure`` moves this round: mode, S and hexes (FP-5, G-11, G-13).

    Before the moves are carried out a walker is assumed to walk its hex. After
    them, a figure that entered no hex has stopped (G-11): S 0, whatever its mode.
    """
    s = settings(state)
    book = FigureBook(figure)
    mode = mode_of(figure)
    fig = FIG(figure)
    hexes = book.hexes_moved
    if mode == "walk" and not has_moved(state):
        hexes = 1
    speed = speed_value(mode, fig, hexes, s.walk_speed)
    if stopped(state, figure):
        speed = Fraction(0)
    elif s.terrain_reduces_speed and book.terrain_extra > 0:
        speed = max(Fraction(0), speed - 10 * book.terrain_extra)
    if mode in RUNNING:
        hexes = allowance(mode, fig, s.rounding)
    elif mode == "stationary":
        hexes = 0
    return Motion(mode, fig, speed, hexes)


def has_moved(state: GameState) -> bool:
    """True once this round's moves have been carried out (until the next round begins)."""
    return RoundBook(state).moved


def stopped(state: GameState, figure: Figure) -> bool:
    """G-11: a figure that entered no hex this round has stopped, whatever its mode: S 0,
    stationary for FP-10, and its next run starts with an acceleration round (FP-4). With
    the option, an acceleration round whose allowance is 0 hexes (FIG 5-9) is no stop."""
    mode = mode_of(figure)
    if not has_moved(state) or mode == "stationary" or FigureBook(figure).hexes_moved:
        return False
    s = settings(state)
    empty = mode == "accelerate" and allowance(mode, FIG(figure), s.rounding) == 0
    return not (empty and s.empty_acceleration == "counts")


def enemies(state: GameState, figure: Figure) -> list[Figure]:
    """Living figures of other sides."""
    return [f for f in state.living() if f.side != figure.side]


def pair_band(state: GameState, a: Figure, b: Figure) -> tuple[Band, str]:
    """FP-6/FP-7 for a pair: the band and how it was worked out (``14.5 + 26 = 40.5``)."""
    s = settings(state)
    ma, mb = motion(state, a), motion(state, b)
    band = combined_band(ma, mb, s.combined_speed_unit, s.walk_speed, s.stationary_band)
    if s.combined_speed_unit == "hexes":
        total = combined_speed(ma, mb, "hexes")
        how = f"{ma.hexes} + {mb.hexes} = {show(total)} hexes"
    else:
        total = combined_speed(ma, mb)
        how = f"{show(ma.speed)} + {show(mb.speed)} = {show(total)}"
    return band, how


def turns_freely(state: GameState, figure: Figure) -> bool:
    """FP-8/G-23: Slow (own speed below 15, or Slow with every opponent), or no turning limits."""
    s = settings(state)
    if s.turn_policy == "free":
        return True
    if s.turn_speed_basis == "combined":
        others = enemies(state, figure)
        if others:
            return all(pair_band(state, figure, o)[0] in (NO_SPEED, SLOW) for o in others)
    return is_slow(motion(state, figure).speed)


def dodge_speed(state: GameState, figure: Figure) -> tuple[bool, str]:
    """FP-10 alone: (True, why) when the figure is too fast to dodge, else (False, why not)."""
    m = motion(state, figure)
    half = Fraction(m.fig, 2)
    if not can_dodge(m.speed, m.fig):
        return True, (
            f"{figure.name} is moving faster than half top speed: speed {show(m.speed)} "
            f"> {show(half)}, half of FIG {m.fig} (FP-10)"
        )
    return False, f"speed {show(m.speed)} ≤ {show(half)}, half of FIG {m.fig} (FP-10)"


def may_dodge(state: GameState, figure: Figure) -> tuple[bool, str]:
    """FP-10 and G-3: whether the figure may choose to dodge in this action step, and why
    (not): dodging on, a dodge skill, S at most FIG/2 and an action left."""
    s = settings(state)
    if not s.dodge:
        return False, "dodging is switched off (G-3)"
    skill = DODGE_SKILL(figure)
    if skill <= 0:
        return False, f"{figure.name} has no dodge skill (G-3)"
    fast, why = dodge_speed(state, figure)
    if fast:
        return False, why
    if actions_left(figure) < 1:
        return False, f"{figure.name} has no action left to dodge with (G-3, FP-24)"
    return True, why


def speed_note(state: GameState, figure: Figure) -> list[str]:
    """How the figure's hexes and speed this round follow from FIG (for event details)."""
    s = settings(state)
    m = motion(state, figure)
    fig = m.fig
    if m.mode == "accelerate":
        hexes = accel_speed(fig, s.rounding)
        lines = [
            f"Acceleration round: FIG {fig} / 20 = {show(Fraction(fig, 20))} → "
            f"{counted(hexes, 'hex', 'hexes')} "
            "(FP-2)",
            f"Speed {fig} / 2 = {show(m.speed)} (FP-5)",
        ]
    elif m.mode == "top":
        hexes = top_speed(fig, s.rounding)
        lines = [
            f"Top speed: FIG {fig} / 10 = {show(Fraction(fig, 10))} → "
            f"{counted(hexes, 'hex', 'hexes')} (FP-1, "
            "FP-3)",
            f"Speed = FIG = {show(m.speed)} (FP-5)",
        ]
    elif m.mode == "walk":
        per = (
            "the pair is Slow when one walks and neither runs"
            if s.walk_speed == "slow_band"
            else f"speed {s.walk_speed} per hex walked, at most FIG/2"
        )
        lines = [f"Walking: at most 1 hex; {per} (G-11)"]
    else:
        lines = ["Stationary: speed 0 (FP-5)"]
    if stopped(state, figure):
        lines = [f"Declared {m.mode} but entered no hex: stopped, speed 0 (G-11)"]
    ok, why = may_dodge(state, figure)
    if s.dodge and DODGE_SKILL(figure) > 0:
        lines.append(("May dodge: " if ok else "No dodge: ") + why)
    return lines


# ---- attacks -----------------------------------------------------------------


def attack_item(figure: Figure, spell: bool) -> Equipment | None:
    """The weapon in hand, or the spell ready to release (FP-26)."""
    if spell:
        ready = FigureBook(figure).spell_ready
        return find(figure, ready, "spell") if ready else None
    return in_hand(figure)


def item_max_hexes(item: Equipment) -> Fraction:
    """FP-14: the item's maximum range in hexes."""
    return max_range_hexes(MAX_RANGE_YARDS(item))


def sight_between(state: GameState, a: Figure, b: Figure) -> Sight:
    """Line of sight from ``a`` to ``b`` under the options (FP-15, FP-19, FP-20, G-15, G-22).

    Between figures covering several hexes: the first clear line between any of
    their hexes, nearest pair first, else the nearest pair's blocked line.
    """
    s = settings(state)
    blockers = (
        [h for f in state.figures.values() if f.id not in (a.id, b.id) for h in f.hexes()]
        if s.figures_block_los
        else []
    )
    # a figure covering several hexes sees, and is seen, through any of them: nearest first
    first = None
    for here, there in hex_pairs(a, b):
        seen = sight(state.board, here, there, tie_policy=s.los_tie_policy, figures=blockers)
        if seen.clear:
            return seen
        first = first or seen
    assert first is not None
    return first


def range_of(state: GameState, attacker: Figure, target: Figure, item: Equipment) -> Band | None:
    """FP-16...FP-18 (G-24, G-25): the range band of a ranged attack, None out of range."""
    return band_at(state, item, figure_distance(attacker, target))


def band_at(state: GameState, item: Equipment, distance: int) -> Band | None:
    """FP-16...FP-18 (G-24, G-25): the band ``item`` shoots in at hex ``distance``, None
    beyond its maximum range (FP-14)."""
    s = settings(state)
    point_blank = item.kind != "spell" or s.spells_as_ranged
    return range_band(
        distance, item_max_hexes(item), point_blank=point_blank, measure=s.range_band_distance
    )


def ranged_item(figure: Figure) -> Equipment | None:
    """The weapon or spell whose range bands the measure tool shows for ``figure``: the
    weapon in hand when it is ranged, else a spell ready to release, else the first ranged
    weapon it carries, else the first spell it knows (None: nothing with a range)."""
    hand = in_hand(figure)
    if hand is not None and is_ranged(hand):
        return hand
    ready = FigureBook(figure).spell_ready
    if ready:
        return find(figure, ready, "spell")
    carried = [i for i in figure.equipment if is_ranged(i) and i.state != "dropped"]
    carried.sort(key=lambda i: i.kind == "spell")  # weapons first, then spells
    return carried[0] if carried else None


def los_needed(state: GameState, item: Equipment) -> bool:
    """FP-15/G-25: ranged weapons need sight unless flagged; spells too if they count as ranged."""
    if item.kind == "spell" and not settings(state).spells_as_ranged:
        return False
    return is_ranged(item) and needs_los(item)


def target_problem(state: GameState, attacker: Figure, target: Figure, item: Equipment) -> str:
    """Why ``attacker`` cannot attack ``target`` with ``item`` now ('' when it can)."""
    s = settings(state)
    if target.id == attacker.id or target.side == attacker.side:
        return f"{target.name} is on {attacker.name}'s side"
    if state.ruleset.is_out(state, target):
        return f"{target.name} is out of the fight"
    d = figure_distance(attacker, target)
    if not is_ranged(item):
        if d > s.melee_reach:
            return (
                f"{target.name} is {d} hexes away; the {item.name} reaches {s.melee_reach} "
                "(G-8, FP-25)"
            )
        return ""
    if item.kind == "weapon" and item.loaded is False:
        return f"the {item.name} is not loaded"
    if range_of(state, attacker, target, item) is None:
        return (
            f"{target.name} is out of range: {d} hexes, the {item.name} reaches "
            f"{show(item_max_hexes(item))} (FP-14, FP-18)"
        )
    if los_needed(state, item):
        seen = sight_between(state, attacker, target)
        if not seen.clear:
            return f"no line of sight to {target.name}: {seen.reason} ({seen.rule})"
    return ""


def skill_base(state: GameState, figure: Figure, skill_name: str) -> tuple[int, str]:
    """The skill a roll starts from: halved (half up) after readying a weapon (FP-23)."""
    skill = figure.skills.get(skill_name, 0)
    if FigureBook(figure).readied:
        halved = half_skill(skill, settings(state).rounding)
        return halved, f"{skill_name} {skill} halved for readying a weapon this round (FP-23)"
    return skill, f"{skill_name} skill"


def attack_check(
    state: GameState, attacker: Figure, target: Figure, item: Equipment, extra: int = 0
) -> Check:
    """FP-21/FP-22: D100 against skill (FP-23) + speed band (FP-7) + range band + others."""
    s = settings(state)
    base, base_label = skill_base(state, attacker, SKILL(item))
    band, how = pair_band(state, attacker, target)
    if band is NO_SPEED:
        speed = Modifier(f"Both stationary ({how}): no speed modifier", 0, "G-10")
    else:
        speed = Modifier(f"{band.name} combined speed ({how})", band.modifier, "FP-6, FP-7")
    modifiers = [speed]
    if is_ranged(item):
        rng = range_of(state, attacker, target, item)
        if rng is not None:
            d = figure_distance(attacker, target)
            reach = show(item_max_hexes(item))
            modifiers.append(Modifier(f"{rng.name} ({d} hexes of {reach})", rng.modifier, rng.rule))
        if s.tree_cover_modifier and sight_between(state, attacker, target).trees == 1:
            modifiers.append(
                Modifier("One heavy-tree hex in between", s.tree_cover_modifier, "G-16", True)
            )
    if extra:
        modifiers.append(Modifier("Other situational modifier", extra, "G-7"))
    return Check(
        f"{attacker.name}'s {item.name} against {target.name}",
        "d100",
        s.hit_comparison,
        base,
        base_label,
        tuple(modifiers),
        rule="FP-21, FP-22, G-1",
        success_text="hit",
        success_phrase="to hit",
        failure_text="miss",
    )


def dodge_check(state: GameState, figure: Figure) -> Check:
    """G-3: D100 against the dodge skill (halved after readying, FP-23) cancels a hit."""
    s = settings(state)
    skill = DODGE_SKILL(figure)
    base, label = skill, "Dodge skill"
    if FigureBook(figure).readied:
        base = half_skill(skill, s.rounding)
        label = f"Dodge {skill} halved for readying a weapon this round (FP-23)"
    return Check(
        f"{figure.name}'s dodge",
        "d100",
        s.hit_comparison,
        base,
        label,
        rule="G-3",
        success_text="dodged",
        success_phrase="to dodge",
        failure_text="not dodged",
    )


def damage_roll(state: GameState, target: Figure, item: Equipment) -> Amount | None:
    """G-2 option: the item's placeholder damage dice against the target's hit points (None
    when hits are only recorded, the item has no damage dice or the target no hit points)."""
    damage = DAMAGE(item)
    if settings(state).damage_model != "hp" or not damage or "hp" not in target.pools:
        return None
    return Amount(f"{item.name} damage (placeholder)", damage, rule="G-2", unit="damage")


def hit_roll(state: GameState, target: Figure, item: Equipment, hit: Check) -> Check | Chain:
    """The roll to hit as it is rolled: with the hit-point option, damage on a hit (G-2)."""
    damage = damage_roll(state, target, item)
    if damage is None:
        return hit
    return Chain(hit.label, (Stage("hit", hit), Stage("damage", damage, ("success",))))


def dodged_roll(
    state: GameState, target: Figure, item: Equipment, hit: Check, dodge: Check
) -> Chain:
    """A hit its target dodges (G-3): to hit, then the dodge, then (hit-point option, G-2)
    damage when the dodge fails."""
    stages = [Stage("hit", hit), Stage("dodge", dodge, ("success",))]
    damage = damage_roll(state, target, item)
    if damage is not None:
        stages.append(Stage("damage", damage, ("failure",)))
    return Chain(hit.label, tuple(stages))


def dodge_roll(state: GameState, dodger: Figure, item: Equipment) -> Check | Chain:
    """The dodge roll as it is rolled (G-3): with the hit-point option (G-2), the damage of
    the hit (by ``item``) when the dodge fails."""
    check = dodge_check(state, dodger)
    damage = damage_roll(state, dodger, item)
    if damage is None:
        return check
    return Chain(check.label, (Stage("dodge", check), Stage("damage", damage, ("failure",))))


def needs_text(check: Check) -> str:
    """What the roll needs in plain words: ``needs 59 or lower``, ``cannot succeed (target 0)``."""
    target = check.target
    limit = target if check.comparison == "le" else target - 1
    if limit < 1:
        return f"cannot succeed (target {target}; G-1)"
    if check.comparison == "le":
        return f"needs {target} or lower"
    return f"needs under {target}"
