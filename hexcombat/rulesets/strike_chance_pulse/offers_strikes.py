"""Multiple strikes offered (SCP-13...SCP-15): weapons, targets and two-weapon forms."""

from __future__ import annotations

from collections.abc import Mapping

from hexcombat.actions import ActionSpec
from hexcombat.figures import Figure, figure_distance
from hexcombat.rulesets.strike_chance_pulse import rules
from hexcombat.rulesets.strike_chance_pulse.offers import (
    ATTACK_WORDS,
    modifier_param,
    target_problem,
)
from hexcombat.rulesets.strike_chance_pulse.situation import (
    HORSEMANSHIP,
    Weapon,
    attack_weapons,
    hostile,
    is_out,
    prepared,
    rank,
    settings,
    weapon_of,
    weapon_rank,
)
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

# ---- SCP-13 ... SCP-15: multiple strikes -----------------------------------------------------

NO_TARGET = "none"
STRIKE_PARAMS = (
    "target",
    "second_target",
    "third_target",
    "fourth_target",
    "fifth_target",
    "sixth_target",
)
"""One target parameter per strike of a Multiple Strike (SCP-14: '3, 4, or more times')."""
STRIKE_WORDS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth")
# SCP-14: a two-weapon strike is of one type, Melee, Fire or Grapple; each form is the mode
# its strikes are made in (SCP-1) and the action kind each strike is planned as.
TWO_WEAPON_FORMS = {
    "two_weapon": "melee",
    "two_weapon_fire": "ranged",
    "two_weapon_grapple": "close",
    "punch_kick": "melee",  # SCP-46: a kick "in addition to hands"
}
FORM_MODES = {**TWO_WEAPON_FORMS, "multi_target": "melee"}
MODE_ACTIONS = {"melee": "melee", "ranged": "fire", "close": "grapple"}
FORM_WORDS = {
    "two_weapon": "Two weapons, Melee (SCP-14)",
    "two_weapon_fire": "Two weapons, Fire (SCP-14, R-15)",
    "two_weapon_grapple": "Two weapons, Grapple (SCP-14)",
    "punch_kick": "Punch and kick (Unarmed Rank 3+, SCP-46)",
}


def strike_weapons(state: GameState, figure: Figure) -> dict[str, list[Weapon]]:
    """SCP-13...SCP-15, SCP-46, SCP-49, I-11, I-12, R-15: the weapons of each strike form open
    to ``figure``: ``punch_kick`` at Unarmed Rank 3 with a hand free (the kick "in addition
    to hands"), a two-weapon form per type (``two_weapon`` Melee, ``two_weapon_fire``,
    ``two_weapon_grapple``: its two prepared weapons rated for that type, one per hand) and
    ``multi_target`` (each prepared Melee weapon at the high Rank or more)."""
    s = settings(state)
    lifted = s.rider_lift_rank > 0 and (rank(figure, HORSEMANSHIP) or 0) >= s.rider_lift_rank
    forms: dict[str, list[Weapon]] = {}
    unarmed = [w for w in attack_weapons(state, figure, "melee") if w.kind in ("hands", "kick")]
    if len(unarmed) == 2 and not (figure.mounted_on and not lifted):  # SCP-46, SCP-49
        forms["punch_kick"] = unarmed
    if not s.multiple_strikes:
        return forms
    held = [weapon_of(i) for i in prepared(figure)]
    two_handed = any(w.two_handed for w in held)
    for form, mode in TWO_WEAPON_FORMS.items():
        if form == "punch_kick":
            continue
        rated = {w.name for w in attack_weapons(state, figure, mode) if w.kind == "weapon"}
        usable = [w for w in held if w.name in rated]
        if mode == "ranged" and s.two_weapon_fire == "thrown":
            usable = [w for w in usable if "thrown" in w.categories]
        open_forms = rules.multiple_strike_forms(len(usable), two_handed, None, s.high_rank)
        if "two_weapon" in open_forms and not (figure.mounted_on and not lifted):  # SCP-49
            forms[form] = usable[: len(STRIKE_PARAMS)]  # a monster's natural weapons add strikes
    melee = {w.name for w in attack_weapons(state, figure, "melee") if w.kind == "weapon"}
    usable = [w for w in held if w.name in melee]
    best = max((weapon_rank(figure, w) or 0 for w in usable), default=None)
    if "multi_target" in rules.multiple_strike_forms(len(usable), two_handed, best, s.high_rank):
        forms["multi_target"] = [w for w in usable if (weapon_rank(figure, w) or 0) >= s.high_rank]
    return forms


def strike_targets(state: GameState, figure: Figure, weapon: Weapon, form: str) -> list[Figure]:
    """Who one strike of ``form`` may hit with ``weapon``: a legal target of its type
    (SCP-14: in the Melee Zone, in the Ranged Zone with a line of fire, or in the hex a
    Grapple is in or steps into), and for ``multi_target`` only in an adjacent hex (SCP-15)."""
    mode = FORM_MODES[form]
    found = []
    for t in state.figures.values():
        if target_problem(state, figure, t, weapon, mode):
            continue
        if form == "multi_target" and figure_distance(figure, t) != 1:
            continue
        found.append(t)
    return found


def weapons_value(weapons: list[Weapon]) -> str:
    """The form's value for a two-weapon strike's weapons: ``Dagger + Dart``."""
    return " + ".join(w.name for w in weapons)


def two_weapon_choices(
    state: GameState, figure: Figure, form: str, weapons: list[Weapon]
) -> list[list[Choice]] | None:
    """The targets of each strike of a two-weapon ``form`` (None when the first two have
    none; a third strike and on may be left out). A Grapple's strikes all go into one hex,
    the one it is in or steps into (SCP-5, R-1), so the later targets depend on the first."""
    found = [strike_targets(state, figure, w, form) for w in weapons]
    when: dict[str, Json] = {"form": form, "weapon": weapons_value(weapons)}
    if form != "two_weapon_grapple":
        if not found[0] or not found[1]:
            return None
        return [
            [Choice(t.id, t.name, f"with the {w.name}", when=when) for t in ts]
            for w, ts in zip(weapons, found, strict=True)
        ]
    choices: list[list[Choice]] = [[] for _ in weapons]
    for a in found[0]:
        mates = [[b for b in ts if b.position == a.position] for ts in found[1:]]
        if not mates[0]:
            continue
        choices[0].append(Choice(a.id, a.name, f"with the {weapons[0].name}", when=when))
        for i, ts in enumerate(mates, 1):
            choices[i] += [
                Choice(b.id, b.name, f"with the {weapons[i].name}", when={**when, "target": a.id})
                for b in ts
            ]
    return choices if choices[0] else None


def multiple_spec(state: GameState, figure: Figure) -> ActionSpec | None:
    """SCP-13...SCP-15: a Multiple Strike as one action: two weapons of one type (Melee,
    Fire or Grapple; a target for each, and a monster's natural weapons each strike too:
    '3, 4, or more times'), or one weapon at the high Rank against several adjacent targets,
    once each; each strike gets the multiple-strike modifier (A-15) and is its own Strike
    Check in declaration order (A-31)."""
    s = settings(state)
    forms = strike_weapons(state, figure)
    form_choices: list[Choice] = []
    weapons: list[Choice] = []
    targets: list[list[Choice]] = [[] for _ in STRIKE_PARAMS]
    for form, ws in forms.items():
        if form in TWO_WEAPON_FORMS:
            _two_weapon_form(state, figure, form, ws, (form_choices, weapons, targets))
            continue
        offered = _several_targets(state, figure, form, ws, (weapons, targets))
        if offered:
            form_choices.append(
                Choice(form, f"Several adjacent targets (Rank {s.high_rank}+, SCP-15)")
            )
    if not form_choices:
        return None
    target_params = tuple(
        FieldSpec(name, f"{word} target", "figure", choices=tuple(targets[i]))
        if i < 2
        else FieldSpec(
            name, f"{word} target", "choice", NO_TARGET, choices=tuple(targets[i]), required=False
        )
        for i, (name, word) in enumerate(zip(STRIKE_PARAMS, STRIKE_WORDS, strict=True))
        if i < 3 or any(c.value != NO_TARGET for c in targets[i])
    )
    return ActionSpec(
        "multiple_strike",
        "Multiple strike",
        figure.id,
        (
            FieldSpec("form", "Strike form", "choice", choices=tuple(form_choices), rule="SCP-13"),
            FieldSpec("weapon", "Weapon", "choice", choices=tuple(weapons), rule="SCP-14, SCP-15"),
            *target_params,
            modifier_param(),
        ),
        f"Each strike is its own Strike Check at {s.multiple_strike_modifier:+d} (A-15), "
        "rolled in order (A-31); two weapons strike with one type, Melee, Fire (each missile "
        "flies its own line) or Grapple (one step into the targets' hex, shields dropped "
        "once), and each natural weapon strikes too; from Unarmed Rank 3 a punch and a kick "
        "(SCP-46, R-18); several targets are each struck once (SCP-15).",
        "SCP-13, SCP-14, SCP-15, SCP-46, A-31",
    )


def _two_weapon_form(
    state: GameState,
    figure: Figure,
    form: str,
    ws: list[Weapon],
    offers: tuple[list[Choice], list[Choice], list[list[Choice]]],
) -> None:
    """Offer a two-weapon strike of ``form`` (a target for each weapon), when it has one:
    added to ``offers`` (the forms, the weapons, each strike's targets)."""
    form_choices, weapons, targets = offers
    found = two_weapon_choices(state, figure, form, ws)
    if found is None:
        return
    value = weapons_value(ws)
    when: dict[str, Json] = {"form": form, "weapon": value}
    weapons.append(Choice(value, value, "one strike each", when={"form": form}))
    for i, strike in enumerate(found):
        skip = [Choice(NO_TARGET, f"No {STRIKE_WORDS[i].lower()} strike", when=when)]
        targets[i] += strike if i < 2 else skip + strike
    for i in range(len(found), len(STRIKE_PARAMS)):
        if i >= 2:
            targets[i].append(Choice(NO_TARGET, "No more strikes", when=when))
    names = ", ".join(w.name for w in ws)
    form_choices.append(Choice(form, FORM_WORDS[form], names))


def _several_targets(
    state: GameState,
    figure: Figure,
    form: str,
    ws: list[Weapon],
    offers: tuple[list[Choice], list[list[Choice]]],
) -> bool:
    """Offer each weapon of ``form`` that reaches several adjacent targets, once each: added
    to ``offers`` (the weapons, each strike's targets); True when one was."""
    weapons, targets = offers
    offered = False
    for w in ws:
        ts = strike_targets(state, figure, w, form)
        if len(ts) < 2:
            continue
        when = {"form": form, "weapon": w.name}
        weapons.append(
            Choice(w.name, w.name, f"Rank {weapon_rank(figure, w)}", when={"form": form})
        )
        for i in range(len(STRIKE_PARAMS)):
            if i >= 2:
                targets[i].append(Choice(NO_TARGET, "No more targets", when=when))
            if i < len(ts):
                targets[i] += [Choice(t.id, t.name, when=when) for t in ts]
        offered = True
    return offered


# ---- SCP-51, SCP-52: the mounted Charge and its momentum ----------------------------------


def attack_refusal(state: GameState, figure: Figure, kind: str, params: Mapping[str, Json]) -> str:
    """Why ``figure`` may not make the attack ``kind`` (Melee, Fire, Grapple) at the target
    ``params`` name, or at anyone when it names none, in the rules' words ('' when it may,
    or ``kind`` is no attack)."""
    mode = next((m for m, (k, *_) in ATTACK_WORDS.items() if k == kind), None)
    if mode is None:
        return ""
    label = ATTACK_WORDS[mode][1]
    weapons = attack_weapons(state, figure, mode)
    named = [w for w in weapons if w.name == params.get("weapon")] or weapons
    if not named:
        return f"{figure.name} has no weapon ready for {label} now"
    wanted = state.figures.get(str(params.get("target", "")))
    foes = (
        [wanted]
        if wanted is not None
        else [t for t in state.figures.values() if hostile(figure, t) and not is_out(t)]
    )
    why = [
        next((p for p in (target_problem(state, figure, t, w, mode) for w in named) if p), "")
        for t in foes
    ]
    if not foes or not all(why):
        return ""
    return f"{figure.name} cannot {label.split(' (')[0]} now: {'; '.join(why)}"
