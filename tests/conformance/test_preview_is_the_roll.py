"""The preview is the roll: an action's log entry names each rollable it rolled, and the
preview's rollables, performed face by face, are what the action rolls (faces.py), here for
the rules where a preview and its action once parted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "rules"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import faces  # noqa: E402
import strike_chance_pulse_fixtures as scp  # noqa: E402

from hexcombat import Action, Encounter  # noqa: E402
from hexcombat.checks import Chain  # noqa: E402
from hexcombat.document import from_document, to_document  # noqa: E402


def face_by_face(enc: Encounter, action: Action) -> tuple[list[str], faces.Figures]:
    """Every face combination of ``action`` against its preview."""
    figures = faces.Figures()
    problems = faces.face_problems(enc, action, enc.preview(action), 5_000, 200, figures)
    return problems, figures


def scp_start(enc: Encounter) -> Encounter:
    """Initiative in set-up order."""
    scp.initiative(enc, list(range(10, 10 - len(enc.state.figures), -1)))
    return enc


def test_a_log_entry_names_each_rollable_rolled_with_its_rolls_and_outcome() -> None:
    enc = scp_start(scp.duel())
    action = Action("melee", "ann", {"weapon": "Broadsword", "special": "none", "target": "bo"})
    preview = enc.preview(action)
    enc.perform(action, faces=[5, 4])  # a hit, then the damage die
    entry = enc.log[-1]
    strike, damage = entry.rolled
    chain = preview.rollables[0]
    assert isinstance(chain, Chain)
    assert (strike.rollable, strike.outcome, strike.faces) == (
        chain.stages[0].rollable.id,
        "success",
        (5,),
    )
    assert damage.rollable == preview.rollables[1].id and damage.faces == (4,)
    named = preview.to_json()["rollables"]
    assert isinstance(named, list)
    stages = [s for r in named if isinstance(r, dict) for s in r["stages"]]  # type: ignore[union-attr]
    assert {r["rollable"] for r in [*named, *stages]} >= {strike.rollable, damage.rollable}  # type: ignore[index]
    doc = to_document(enc)
    assert doc["log"][-1]["rolled"][0] == {  # type: ignore[index]
        "rollable": strike.rollable,
        "outcome": "success",
        "rolls": 1,
    }
    older = {
        **doc,
        "version": 2,
        "log": [{k: v for k, v in e.items() if k != "rolled"} for e in doc["log"]],
    }  # type: ignore[union-attr]
    assert to_document(from_document(older)) == doc  # the replay records it again


@pytest.mark.parametrize(
    ("weapon", "item"), [("Bare hands", None), ("Teeth", "Teeth")], ids=["hands", "teeth"]
)
@pytest.mark.parametrize("skips_pulse", [False, True], ids=["plain", "pulse-option"])
def test_scp_31_an_unarmed_or_natural_strike_prices_no_fumble_check_on_99_or_100(
    weapon: str, item: str | None, skips_pulse: bool
) -> None:
    enc = scp.arena(options={"scp.natural_fumble_skips_pulse": skips_pulse})
    if item is None:
        enc = scp.make(enc, "ann", "Ann", "Blue", scp.ANN_AT, 1, ranks={"Unarmed Combat": 0})
    else:
        enc = scp.make(enc, "ann", "Wolf", "Blue", scp.ANN_AT, 1, items=[item], humanoid=False)
    enc = scp_start(scp.make(enc, "bo", "Bo", "Red", scp.BO_AT, 4))
    action = Action("melee", "ann", {"weapon": weapon, "special": "none", "target": "bo"})
    problems, figures = face_by_face(enc, action)
    assert problems == []
    chain = enc.preview(action).rollables[0]
    assert isinstance(chain, Chain) and [s.id for s in chain.stages] == ["strike"]
    assert figures.combinations >= 100  # every D100 face, and the damage dice after a hit
    strike = {o.id: o.chance for o in chain.outcomes()}
    assert ("strike.fumble_hit" in strike) is skips_pulse  # the GM's lost Pulse
