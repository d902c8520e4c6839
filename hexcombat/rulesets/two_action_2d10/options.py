"""Options, time and the declared actions of ``two-action-2d10`` (figure fields: :mod:`.fields`).

The rule text gives almost no numbers: every option is the spec's labelled
placeholder (section 6, gap ids D-n and inconsistencies I-n) or one of our own
readings where spec and text are both silent (R-n). All are stored with the
encounter and a GM may change them.
"""

from __future__ import annotations

from hexcombat.schema import Choice, FieldSpec
from hexcombat.time import StepDef, Time


def _int_field(
    name: str, label: str, default: int, help: str, rule: str, low: int, high: int
) -> FieldSpec:
    return FieldSpec(name, label, "int", default, help, rule, minimum=low, maximum=high)


DOC_NOTES = (
    "`ta.parry_needs` defaults to `\"weapon_or_shield\"`: the text's Parry counters 'with "
    "weapon or shield', so bare hands or a dropped weapon without a shield give no parry "
    "(Dodge remains); the spec is silent.",
    '`ta.block_timing` defaults to `"first_blow"`: a Block \'interposes a shield between '
    "the protagonist and any incoming blow', and TA-17 makes 'need not commit their defensive "
    "option' the benefit of a spectacular mistake only; a defender who saw the first roll "
    "and kept the Block for a later blow would have that benefit every time.",
    "`ta.prone_movement` defaults to `\"free\"`: TA-23 lets 'a protagonist' move without an "
    "action and names no exception; `\"none\"` reads D-7's 'prone until an action is spent "
    "to rise' as no movement.",
    "`ta.ready_actions_at` defaults to `\"combat\"`: declarations are 'intended actions' and "
    "results are 'implemented as soon as they occur in the round' (TA-13, TA-27), so a "
    "Recover or Load happens in the round (as combat begins, before the blows) and is lost "
    "with the protagonist's actions; at declaration it would raise a prone figure before the "
    "missiles fly.",
    '`ta.ceding_and_fists` defaults to `"after_fists"`: ceding the initiative is the '
    "protagonist's choice to strike second, fists included; `\"fists_last\"` reads TA-19's "
    "'come last in the round' as the stronger rule.",
    "After a spectacular mistake (TA-17) the one striking second is asked whether to turn its "
    "unused defensive action into a counter-strike or keep it: 'need not commit ... and may "
    "choose to transfer it'.",
)
"""Notes for docs/rules/two-action-2d10.md on the defaults chosen (tests/rules/coverage.py)."""

OPTIONS: tuple[FieldSpec, ...] = (
    _int_field(
        "ta.passive_active",
        "Passive defence: active",
        12,
        "Situational base of an active protagonist (TA-6).",
        "D-1",
        0,
        30,
    ),
    _int_field(
        "ta.passive_prone",
        "Passive defence: prone",
        8,
        "Base of a prone protagonist (TA-6).",
        "D-1",
        0,
        30,
    ),
    _int_field(
        "ta.passive_comatose",
        "Passive defence: comatose",
        0,
        "Base of a comatose protagonist: every attack hits (TA-6).",
        "D-1",
        0,
        30,
    ),
    _int_field(
        "ta.passive_shield",
        "Passive defence: shield",
        1,
        "Added while a shield is carried ready (TA-6).",
        "D-1",
        0,
        10,
    ),
    FieldSpec(
        "ta.defence_mode",
        "Defensive roll",
        "choice",
        "max",
        "How a Parry, Block or Dodge roll meets the passive defence (TA-7, I-4): the higher of "
        "the two, or (Parry only) the blow is tested against the passive defence and the parry "
        "reduces the surplus.",
        "D-2, I-4",
        (
            Choice("max", "Higher of passive and roll"),
            Choice("parry_reduces_surplus", "Parry reduces the surplus"),
        ),
    ),
    FieldSpec(
        "ta.block_scope",
        "Block covers",
        "choice",
        "all",
        "A Block covers every blow in the round ('any incoming blow'), or one attacker (TA-7).",
        "D-2, D-18",
        (Choice("all", "Every blow this round"), Choice("one_attacker", "One declared attacker")),
    ),
    FieldSpec(
        "ta.guard_scope",
        "Parry and Dodge cover",
        "choice",
        "one_attacker",
        "A Parry or Dodge counts against the one attacker named when it is declared, or every "
        "attacker (TA-7).",
        "D-2, D-18",
        (Choice("one_attacker", "One declared attacker"), Choice("all", "Every attacker")),
    ),
    _int_field(
        "ta.block_adj",
        "Block adjustment",
        2,
        "Added to a Block roll; a Block needs a shield in hand (TA-7).",
        "D-2",
        -10,
        10,
    ),
    _int_field(
        "ta.parry_adj", "Parry adjustment", 0, "Added to a Parry roll (TA-7).", "D-2", -10, 10
    ),
    _int_field(
        "ta.dodge_unarmoured",
        "Dodge adjustment: unarmoured",
        2,
        "Dodge is especially effective unarmoured (TA-7).",
        "D-2",
        -10,
        10,
    ),
    _int_field(
        "ta.dodge_light",
        "Dodge adjustment: light armour",
        0,
        "Dodge in light armour (TA-7).",
        "D-2",
        -10,
        10,
    ),
    _int_field(
        "ta.dodge_heavy",
        "Dodge adjustment: heavy armour",
        -2,
        "Dodge in heavy armour (TA-7).",
        "D-2",
        -10,
        10,
    ),
    FieldSpec(
        "ta.block_shield_risk",
        "Blocks risk the shield",
        "bool",
        False,
        "When a Block is beaten by a surplus of 5 or more, d10: 1-5 the shield is torn away, "
        "6-10 broken (TA-7).",
        "D-3",
    ),
    _int_field(
        "ta.threshold_1",
        "Threshold 1",
        5,
        "Surplus for +1 damage die, a location and a save (TA-11).",
        "D-5",
        1,
        40,
    ),
    _int_field(
        "ta.threshold_2",
        "Threshold 2",
        10,
        "Surplus for +2 dice, save -2, effect into the next round (TA-11).",
        "D-5",
        1,
        40,
    ),
    _int_field(
        "ta.threshold_3",
        "Threshold 3",
        15,
        "Surplus for +3 dice, save -4, incapacitated on a failure (TA-11).",
        "D-5, D-7",
        1,
        40,
    ),
    _int_field(
        "ta.save_penalty_2",
        "Save penalty at threshold 2",
        -2,
        "Added to the attribute for the save (TA-11).",
        "D-5",
        -10,
        0,
    ),
    _int_field(
        "ta.save_penalty_3",
        "Save penalty at threshold 3",
        -4,
        "Added to the attribute for the save (TA-11).",
        "D-5",
        -10,
        0,
    ),
    _int_field(
        "ta.hp_base",
        "Hit points base",
        10,
        "HP = this + Health; BP = Health (TA-12).",
        "D-8",
        0,
        50,
    ),
    FieldSpec(
        "ta.death_saves",
        "Death saves",
        "bool",
        True,
        "At BP 0 or less, each round 2d10 <= Health + BP or die (TA-12).",
        "D-8",
    ),
    FieldSpec(
        "ta.fumble_rule",
        "Spectacular mistake",
        "choice",
        "double_one",
        "What a spectacular mistake in attack is (TA-17).",
        "D-9",
        (
            Choice("double_one", "Both kept dice show 1"),
            Choice("miss_by_10", "Attack at or below defence - 10"),
        ),
    ),
    FieldSpec(
        "ta.closed_order",
        "Strike order when closed",
        "choice",
        "reverse",
        "A closed pair strikes shortest weapon first, or in the normal order (TA-15, TA-19).",
        "D-10",
        (Choice("reverse", "Reversed: fists first"), Choice("normal", "Normal order")),
    ),
    FieldSpec(
        "ta.mutual_wait",
        "Both cede",
        "choice",
        "explicit_wait_only",
        "Two opponents that both cede: the normal order unless both declared Wait (no attacks "
        "between them), or any mutual cession stops their attacks (TA-18).",
        "D-11",
        (
            Choice("explicit_wait_only", "Only two Waits stop attacks"),
            Choice("no_attacks", "Any mutual cession"),
        ),
    ),
    FieldSpec(
        "ta.move_extra",
        "Movement die",
        "choice",
        "additive",
        "The movement die adds to the 3 free hexes, or replaces them (TA-24).",
        "D-12",
        (Choice("additive", "Added to the free 3"), Choice("total", "Replaces the free 3")),
    ),
    _int_field(
        "ta.pummel_base",
        "Pummel damage base",
        1,
        "Pummel damage = base + surplus // divisor - AC (TA-19).",
        "D-13",
        0,
        10,
    ),
    _int_field(
        "ta.pummel_divisor",
        "Pummel surplus divisor",
        2,
        "See the pummel base (TA-19).",
        "D-13",
        1,
        10,
    ),
    _int_field(
        "ta.brawl_bar",
        "Tactical brawling bar",
        5,
        "Surplus a lock, throw, trip or grapple needs (TA-21).",
        "D-14",
        0,
        20,
    ),
    FieldSpec(
        "ta.missile_parry",
        "Parry against missiles",
        "bool",
        False,
        "Whether a Parry counts against a missile (only Dodge and Block do by default) (TA-22).",
        "D-15",
    ),
    FieldSpec(
        "ta.free_turn_before_moving",
        "Turn freely before moving",
        "bool",
        False,
        "Whether a figure may turn before its free movement, so that 'forward' may be any "
        "three adjacent directions (TA-23). Off: forward is reckoned from the facing held "
        "when the movement step begins, so '1 back' keeps its meaning; turning is free at the "
        "end of the move.",
        "D-12, R-7",
    ),
    FieldSpec(
        "ta.break_closed",
        "Breaking away",
        "bool",
        True,
        "A closed pair has no free movement; a movement action tries to break away: 2d10 + "
        "Agility meets or beats 2d10 + the opponent's Agility (TA-15).",
        "D-17",
    ),
    FieldSpec(
        "ta.counter_strike_step",
        "Counter-strikes",
        "choice",
        "riposte",
        "A counter-strike after a spectacular mistake is resolved in the Riposte step, or at "
        "once (TA-17).",
        "I-3",
        (Choice("riposte", "In the Riposte step"), Choice("immediate", "At once")),
    ),
    FieldSpec(
        "ta.counter_strike_by",
        "Who may counter-strike",
        "choice",
        "second_striker",
        "After a spectacular mistake, who may turn an unused defensive action into a "
        "counter-strike: the protagonist striking second, i.e. not yet struck this step, as "
        "TA-17 words it; or only one that ceded the initiative (TA-17, TA-18).",
        "R-8",
        (
            Choice("second_striker", "The one striking second (TA-17)"),
            Choice("ceded", "Only one that ceded"),
        ),
    ),
    FieldSpec(
        "ta.closed_fists",
        "Fists when closed, normal order",
        "choice",
        "first",
        "With 'Strike order when closed: normal order', where a closed pair's fists strike: "
        "not last, as TA-19 says ('come last unless closed'): before the weapons; or last "
        "whatever (TA-19, D-10).",
        "R-9",
        (Choice("first", "Before the weapons (TA-19)"), Choice("last", "Last")),
    ),
    FieldSpec(
        "ta.dropped_weapon_blow",
        "A failed arm save",
        "choice",
        "fists",
        "A failed weapon-arm save drops the weapon (D-7): a blow still to come is struck with "
        "fists, last in the order (the text names only 'drop weapon'); or the blow is lost "
        "as well (TA-11, TA-13, D-7).",
        "R-10",
        (Choice("fists", "Weapon dropped, fists remain"), Choice("lost", "Blow lost as well")),
    ),
    _int_field(
        "ta.obstacle_actions",
        "Actions to vault an obstacle",
        1,
        "A move through an obstacle hex needs this many Other actions (TA-26; spec section 2.2).",
        "R-1",
        0,
        2,
    ),
    FieldSpec(
        "ta.combinable",
        "Actions that may be combined",
        "text",
        "attack,parry,block,dodge,move,brawl",
        "Which actions may take both of a round's actions (3d10 keep two, or two movement "
        "dice) (TA-5, I-2).",
        "R-2",
    ),
    _int_field(
        "ta.recover_actions",
        "Actions to recover",
        1,
        "Rising from a stumble or picking up a dropped weapon takes this many Recover actions "
        "(TA-11).",
        "R-3",
        1,
        2,
    ),
    FieldSpec(
        "ta.simultaneous",
        "Identical weapon and skill",
        "choice",
        "both_strike",
        "Same weapon and skill strike together: both blows are struck, then both results "
        "apply, so neither is downed, disarmed or stopped before its own blow (TA-16, D-10); "
        "or in set-up order, each result at once (TA-13).",
        "D-10, R-4",
        (
            Choice("both_strike", "Both blows land"),
            Choice("setup_order", "Set-up order, results at once"),
        ),
    ),
    FieldSpec(
        "ta.ceding_and_fists",
        "Ceding against fists",
        "choice",
        "after_fists",
        "Where a protagonist that cedes the initiative strikes against fists that come last "
        "(TA-17, TA-19): after everyone, the fists too; or fists come last in the round "
        "whatever, so the one who cedes strikes after the weapons but before the fists.",
        "R-11",
        (
            Choice("after_fists", "Who cedes strikes after the fists"),
            Choice("fists_last", "Fists come last whatever"),
        ),
    ),
    FieldSpec(
        "ta.parry_needs",
        "A parry needs",
        "choice",
        "weapon_or_shield",
        "A Parry counters 'with weapon or shield' (TA-7): a protagonist with neither in hand "
        "(bare hands, or its weapon dropped, and no shield) cannot parry; or anyone may parry.",
        "R-12",
        (
            Choice("weapon_or_shield", "A weapon or a shield in hand (TA-7)"),
            Choice("anything", "Anyone may parry"),
        ),
    ),
    FieldSpec(
        "ta.block_timing",
        "When a Block is rolled",
        "choice",
        "first_blow",
        "A Block interposes the shield between the protagonist and any incoming blow (TA-7): "
        "it is rolled against the first blow it covers and stands against the later ones; or "
        "the defender sees each attack roll and may keep the Block for a later blow.",
        "R-13",
        (
            Choice("first_blow", "Against the first blow (TA-7)"),
            Choice("at_choice", "When the defender chooses"),
        ),
    ),
    FieldSpec(
        "ta.prone_movement",
        "Moving while prone",
        "choice",
        "free",
        "A protagonist may move 3 forward or 1 back without an action (TA-23), prone or "
        "not; or a prone protagonist does not move until it has risen (Recover, D-7).",
        "R-14",
        (
            Choice("free", "Prone figures move too (TA-23)"),
            Choice("none", "Not until risen"),
        ),
    ),
    FieldSpec(
        "ta.ready_actions_at",
        "Recover and Load take effect",
        "choice",
        "combat",
        "When a Recover (rising, picking up the weapon) or a Load takes effect: in the round, "
        "as combat begins after missiles and movement, and not at all once the protagonist "
        "has lost its actions (TA-13, TA-27); or at once when declarations are revealed.",
        "R-15",
        (
            Choice("combat", "As combat begins (TA-13, TA-27)"),
            Choice("declaration", "When declared"),
        ),
    ),
    FieldSpec(
        "ta.down_at_zero_bp",
        "Down at 0 body points",
        "bool",
        True,
        "A protagonist at 0 body points or less takes no further part (TA-12).",
        "R-5",
    ),
    FieldSpec(
        "core.hidden_declarations",
        "Hidden declarations",
        "bool",
        True,
        "Declarations are revealed together once everyone has declared (TA-27).",
        "R-6",
    ),
)

TIME = Time(
    ("round",),
    (
        StepDef(
            "declare",
            "Declare",
            "declare",
            "Everyone declares two actions in secret, revealed together (TA-1, TA-27).",
            "TA-27",
        ),
        StepDef(
            "missiles",
            "Prepared magic and missiles",
            "act",
            "Missiles loaded in an earlier round are shot (TA-22, TA-27).",
            "TA-27",
        ),
        StepDef(
            "movement",
            "Movement",
            "move",
            "3 hexes forward or 1 back free; movement actions roll a die (TA-23..TA-25).",
            "TA-27",
        ),
        StepDef(
            "combat",
            "Combat",
            "act",
            "Attacks in strike order; each result applies at once (TA-13, TA-14).",
            "TA-27",
        ),
        StepDef(
            "riposte",
            "Riposte",
            "act",
            "Counter-strikes after a spectacular mistake (TA-17, I-3).",
            "TA-27",
        ),
    ),
)

ACTIONS = (
    Choice("attack", "Attack", "2d10 + skill + weapon against defence (TA-8)"),
    Choice("parry", "Parry", "Counter with weapon or shield, against one attacker (TA-7)"),
    Choice("block", "Block", "Shield against every blow this round (TA-7)"),
    Choice("dodge", "Dodge", "Harder to hit; cedes the initiative (TA-7, TA-18)"),
    Choice("move", "Move", "Roll the armour die for extra hexes (TA-24)"),
    Choice("load", "Load / prepare", "Load a bow or sling, prepare a spear or franca (TA-22)"),
    Choice("shoot", "Shoot / throw", "Sight and shoot a loaded missile (TA-22)"),
    Choice("brawl", "Brawl", "Pummel, grapple, lock, throw or trip (TA-19, TA-21)"),
    Choice("wait", "Wait", "Cede the initiative explicitly (TA-17, TA-18)"),
    Choice("recover", "Recover", "Rise after a stumble or pick up a dropped weapon (TA-11)"),
    Choice("other", "Other", "Vault an obstacle, open a door, magic (TA-26)"),
    Choice("none", "Nothing", "Lost or unused action (TA-11)"),
)
STYLES = (
    Choice("pummel", "Pummel", "Damage from the surplus (TA-19)"),
    Choice("grapple", "Grapple", "From an adjacent hex: closes the pair (TA-21)"),
    Choice("lock", "Lock", "Closed only: the target loses its actions (TA-21)"),
    Choice("throw", "Throw", "Closed only: prone, 1 action lost next round (TA-21)"),
    Choice("trip", "Trip", "Closed only: prone (TA-21)"),
)
