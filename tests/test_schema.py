"""One field spec: type and bound checks in plain words, dependent choices enforced by the engine.

The dependent-choice tests play a tiny ruleset that lives only here (registered for the test,
never in the app): a weapon offers special attacks, and each special attack its own targets.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hexcombat import Action, Encounter, Hex, IllegalActionError
from hexcombat.actions import ActionSpec
from hexcombat.dice import Dice
from hexcombat.events import Event
from hexcombat.figures import Figure
from hexcombat.geometry import direction_to, distance
from hexcombat.rulesets import registry
from hexcombat.rulesets.skirmish import Skirmish
from hexcombat.schema import Choice, FieldSpec
from hexcombat.state import GameState

pytestmark = pytest.mark.pyodide

SPECIALS = {"sword": ("sweep", "thrust"), "spear": ("lunge",)}


class Specials(Skirmish):
    """Skirmish with one attack: weapon -> special attack -> a target in that attack's zone."""

    id = "test-specials"
    name = "Special attacks (test only)"

    def in_zone(self, figure: Figure, target: Figure, special: str) -> bool:
        """Sweep: any adjacent enemy; thrust: the one straight ahead; lunge: two hexes away."""
        d = distance(figure.position, target.position)
        if special == "lunge":
            return d == 2
        ahead = direction_to(figure.position, target.position) == figure.facing
        return d == 1 and (special == "sweep" or ahead)

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """In the attack step, the dependent attack; otherwise skirmish's movement."""
        if state.step.id != "attack":
            return super().figure_actions(state, figure)
        enemies = [t for t in state.living() if t.side != figure.side]
        weapon = FieldSpec(
            "weapon", "Weapon", "choice", choices=tuple(Choice(w, w.title()) for w in SPECIALS)
        )
        special = FieldSpec(
            "special",
            "Special attack",
            "choice",
            choices=tuple(
                Choice(s, s.title(), when={"weapon": w}) for w, ss in SPECIALS.items() for s in ss
            ),
        )
        target = FieldSpec(
            "target",
            "Target",
            "figure",
            choices=tuple(
                Choice(t.id, t.name, when={"special": s})
                for ss in SPECIALS.values()
                for s in ss
                for t in enemies
                if self.in_zone(figure, t, s)
            ),
        )
        bonus = FieldSpec("bonus", "Bonus", "int", 0, minimum=-2, maximum=2, required=False)
        return [ActionSpec("attack", "Attack", figure.id, (weapon, special, target, bonus))]

    def do_attack(self, state: GameState, action: Action, dice: Dice) -> None:
        """Only say what was chosen: the test is about the choosing."""
        text = f"{action.text('weapon')} {action.text('special')} at {action.text('target')}"
        state.emit(Event("attack", text, action.figure))


@pytest.fixture
def enc(monkeypatch: pytest.MonkeyPatch) -> Iterator[Encounter]:
    """Ann faces north at 3,2 with Bo ahead, Cy beside her and Dee two hexes away."""
    monkeypatch.setitem(registry._REGISTRY, Specials.id, Specials())
    enc = Encounter.new(Specials.id, 8, 8, name="Specials")
    rs = enc.ruleset
    for figure in (
        rs.new_figure("ann", "Ann", "Blue", Hex(3, 2), facing=0),
        rs.new_figure("bo", "Bo", "Red", Hex(3, 1)),
        rs.new_figure("cy", "Cy", "Red", Hex(4, 2)),
        rs.new_figure("dee", "Dee", "Red", Hex(3, 4)),
    ):
        enc = enc.with_figure(figure)
    enc.perform(Action("next_step"))  # to the attack step
    yield enc


def offered(enc: Encounter, name: str, **values: str) -> list[str]:
    (spec,) = enc.legal_actions("ann")
    return [str(c.value) for c in spec.param(name).offered(values)]


def attack(enc: Encounter, **params: object) -> list[Event]:
    return enc.perform(Action("attack", "ann", params))


def test_each_list_depends_on_the_one_before(enc: Encounter) -> None:
    assert offered(enc, "weapon") == ["sword", "spear"]
    assert offered(enc, "special", weapon="sword") == ["sweep", "thrust"]
    assert offered(enc, "special", weapon="spear") == ["lunge"]
    assert offered(enc, "target", weapon="sword", special="sweep") == ["bo", "cy"]
    assert offered(enc, "target", weapon="sword", special="thrust") == ["bo"]
    assert offered(enc, "target", weapon="spear", special="lunge") == ["dee"]
    events = attack(enc, weapon="sword", special="thrust", target="bo")
    assert events[0].text == "sword thrust at bo"


def test_refused_values_are_named_with_what_is_allowed(enc: Encounter) -> None:
    with pytest.raises(IllegalActionError) as refused:
        attack(enc, weapon="sword", special="lunge", target="dee")
    assert str(refused.value) == (
        "Attack, Special attack: must be one of Sweep, Thrust with Weapon: Sword, got 'lunge'"
    )
    with pytest.raises(IllegalActionError) as refused:
        attack(enc, weapon="sword", special="thrust", target="cy")
    assert (
        str(refused.value)
        == "Attack, Target: must be one of Bo with Special attack: Thrust, got 'cy'"
    )
    with pytest.raises(IllegalActionError) as refused:
        attack(enc, weapon="axe", special="sweep", target="bo")
    assert str(refused.value) == ("Attack, Weapon: must be one of Sword, Spear, got 'axe'")
    assert enc.cursor == 1  # nothing was done


def test_integer_bounds_and_types_are_enforced_by_the_engine(enc: Encounter) -> None:
    choice = {"weapon": "spear", "special": "lunge", "target": "dee"}
    with pytest.raises(
        IllegalActionError, match=r"Bonus: must be a whole number from -2 to 2, got 5"
    ):
        attack(enc, **choice, bonus=5)
    with pytest.raises(
        IllegalActionError, match=r"Bonus: must be a whole number from -2 to 2, got '1'"
    ):
        attack(enc, **choice, bonus="1")
    assert enc.preview(Action("attack", "ann", {**choice, "bonus": -3})).reason == (
        "Attack, Bonus: must be a whole number from -2 to 2, got -3"
    )
    assert attack(enc, **choice, bonus=-2)[0].text == "spear lunge at dee"


def test_dependent_choices_are_data_for_the_forms(enc: Encounter) -> None:
    (spec,) = enc.legal_actions("ann")
    data = spec.to_json()["params"]
    assert data[1]["choices"][0] == {
        "value": "sweep",
        "label": "Sweep",
        "when": {"weapon": "sword"},
    }
    assert data[3] == {
        "name": "bonus",
        "label": "Bonus",
        "type": "int",
        "required": False,
        "default": 0,
        "minimum": -2,
        "maximum": 2,
    }
    assert [FieldSpec.from_json(p) for p in data] == list(spec.params)


# --------------------------------------------------------------------------- one check


@pytest.mark.parametrize(
    ("spec", "value", "problem"),
    [
        (FieldSpec("n", "N", "int", minimum=1), 0, "must be a whole number of at least 1, got 0"),
        (FieldSpec("n", "N", "int", maximum=9), 10, "must be a whole number of at most 9, got 10"),
        (FieldSpec("n", "N", "int"), True, "must be a whole number, got true"),
        (FieldSpec("n", "N", "int", minimum=0, maximum=4), 4, None),
        (FieldSpec("b", "B", "bool"), "yes", "must be true or false, got 'yes'"),
        (FieldSpec("t", "T", "text"), 3, "must be text, got 3"),
        (FieldSpec("h", "H", "hex"), "3, 1", "must be a hex \"q,r\", e.g. 3,-1, got '3, 1'"),
        (FieldSpec("h", "H", "hex"), "3,-1", None),
        (FieldSpec("p", "P", "path"), ["1,0", "x"], 'must be a list of hexes "q,r", got a list'),
        (FieldSpec("f", "F", "facing"), 6, "must be a whole number from 0 to 5, got 6"),
        (
            FieldSpec("h", "H", "hex", choices=(Choice("1,0", "1,0 (2 MP)"), Choice("2,0", "2,0"))),
            "3,0",
            "must be one of 1,0; 2,0, got '3,0'",
        ),
        (
            FieldSpec("c", "C", "choice", choices=(Choice(1, "One"),)),
            "1",
            "must be one of One (1), got '1'",  # the type counts: 1 is not '1'
        ),
    ],
)
def test_check_names_the_value_and_what_is_allowed(
    spec: FieldSpec, value: object, problem: str | None
) -> None:
    assert spec.check(value) == problem


def test_long_choice_lists_are_shortened() -> None:
    spec = FieldSpec("c", "C", "choice", choices=tuple(Choice(i, str(i)) for i in range(20)))
    assert spec.check(99) == "must be one of the 20 offered, got 99"


def test_an_unknown_type_is_refused_when_the_spec_is_written() -> None:
    with pytest.raises(ValueError, match="unknown field type 'number'"):
        FieldSpec("n", "N", "number")


def test_offered_choices_kept_by_the_values_they_depend_on() -> None:
    """A field's offered choices are worked out once per value of the fields its choices
    name (the autopilot asks by the thousand), the same list every time, and a value that
    cannot be a key (a list) is still answered."""
    special = FieldSpec(
        "special",
        "Special",
        "choice",
        choices=(Choice("sweep", "Sweep", when={"weapon": "sword"}), Choice("lunge", "Lunge")),
    )
    sword = special.offered({"weapon": "sword", "bonus": 1})
    assert [c.value for c in sword] == ["sweep", "lunge"]
    assert special.offered({"weapon": "sword", "bonus": 2}) is sword
    assert [c.value for c in special.offered({"weapon": "spear"})] == ["lunge"]
    assert [c.value for c in special.offered({"weapon": ["sword"]})] == ["lunge"]
    assert [c.value for c in special.offered()] == ["lunge"]
