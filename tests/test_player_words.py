"""Words a player reads: every ruleset's demo, replayed and played on
through the public Encounter API, names hexes by their friendly labels ("C4"), never by axial
coordinates ("5,-2"), in event texts, offered actions, previews and refusals. Axial keys stay
where a program reads them: choice values, action parameters, paths and highlights. Chances
read as the ruleset words them ("60% to hit", "45% that Bo wins"), never "chance of dodged".
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playouts import LONG_MODE, random_action

from hexcombat import Action, Encounter, Hex, HexcombatError, IllegalActionError
from hexcombat.actions import ActionSpec
from hexcombat.document import from_document
from hexcombat.rulesets import get_ruleset
from hexcombat.view import encounter_view

DEMO_DIR = Path(__file__).parent.parent / "static" / "demos"
DEMOS = sorted(p for p in DEMO_DIR.glob("*.json") if p.stem != "index")

AXIAL = re.compile(r"(?<![\w.])-?\d+,-?\d+(?![\w.])")
"""An axial key as the engine writes it ("5,-2"); a friendly label is a letter and a number."""

MACHINE_KEYS = {"action", "path", "highlights", "value", "when", "chance", "faces", "dice", "id"}
"""Preview JSON keys a program reads (axial keys and fractions are right there)."""


def spec_texts(spec: ActionSpec) -> Iterator[str]:
    """What a player reads of an offered action: its label, help, fields and choices."""
    yield spec.label
    yield spec.help
    for p in spec.params:
        yield p.label
        yield p.help
        for c in p.choices:
            yield c.label
            yield c.detail


def shown_strings(data: Any) -> Iterator[str]:
    """Every string of a preview's JSON that the page shows (reasons, notes, odds, breakdowns)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in MACHINE_KEYS:
                yield from shown_strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from shown_strings(value)


NOTATION = {
    "dice expression": re.compile(r"\d*d\d+\s*[+-]\s*\d+\s+min\b|\d*d\d+k[hl]\d|\bk[hl]\d\b"),
    "raw field name": re.compile(r"\b(?:gm|sc): [a-z]|\bChoose [a-z_]+:"),
    "option id": re.compile(r"\b(?:core|fp|scp|csp|ta|sk)\.[a-z_]+\b"),
    "gap id as a word": re.compile(r"\b[A-Z]-\d+ placeholder\b|^[A-Z]{1,3}-\d+: "),
    "empty breakdown": re.compile(r"\(\d+: \)"),
    "integer division": re.compile(r"//"),
    "raw fraction": re.compile(r"= \d+/\d+\b|\b\d+/\d+(?::| =| rounded)"),
    "spec function": re.compile(r"\b(?:max|min|ceil|floor)\("),
    "spec symbol": re.compile(r"\bM = |\bN x CS\b|\b[A-Z]'s [A-Z]{1,2} hex\b"),
    "mode id": re.compile(r"\d+ MP \((?:stationary|walk|accelerate|top)\)"),
    "parameter id": re.compile(r"\w \([a-z_]+\) (?:must|nothing|needs)"),
    "stutter": re.compile(r"\b(\w+) — \1\b"),
}
"""Engine notation a player should never have to read. Rule and gap ids in parentheses stay:
they are where a rule comes from, shown in the breakdown's details; a pool reads
current/maximum ("EN 14/15")."""
DICE_LANGUAGE = {"roll_dice"}
"""The GM's free dice roll: its help shows the dice language the GM types."""


class Reader:
    """Collects what a player would read, with where it was seen."""

    def __init__(self) -> None:
        self.notation: list[str] = []
        self.axial: list[str] = []
        self.phrases: dict[str, str] = {}  # headline phrase -> the rollable it heads
        self.kinds: dict[str, ActionSpec] = {}  # every action kind offered, first spec seen

    def read(self, where: str, text: str) -> None:
        if text and AXIAL.search(text):
            self.axial.append(f"{where}: {text}")
        if text and not any(kind in where for kind in DICE_LANGUAGE):
            for name, pattern in NOTATION.items():
                if pattern.search(text):
                    self.notation.append(f"{name}, {where}: {text}")

    def headlines(self, preview: dict[str, Any]) -> None:
        for r in preview["rollables"]:
            for one in (r, *r["variants"]):
                if one["headline"]:
                    self.phrases.setdefault(one["headline"]["phrase"], one["label"])

    def offers(self, enc: Encounter) -> None:
        specs = [*enc.legal_actions(None), *enc.gm_actions()]
        for fid in enc.state.figures:
            specs += enc.legal_actions(fid)
        for spec in specs:
            self.kinds.setdefault(spec.kind, spec)
            for text in spec_texts(spec):
                self.read(f"offer {spec.kind}", text)


PLAYED = [
    pytest.param(p, id=p.stem, marks=pytest.mark.xdist_group(f"played:{p.stem}")) for p in DEMOS
]
"""The demos, each one pytest-xdist group: the tests reading one demo's ``played`` share
one play of it on one worker."""


def demo(path: Path) -> Encounter:
    enc = from_document(json.loads(path.read_text(encoding="utf-8")))
    while enc.can_redo:  # the whole logged fight, not only up to the saved cursor
        enc.redo()
    return enc


@functools.cache
def played(path: Path) -> Reader:
    """What a player reads of a demo: its logged fight, then seeded random play from there."""
    reader = Reader()
    for event in demo(path).events:
        reader.read(f"logged {event.kind}", event.text)
    for seed in range(10 if LONG_MODE else 2):
        enc = demo(path)
        rng = random.Random(seed)
        for _ in range(100):
            reader.offers(enc)
            action = random_action(enc, rng.randrange)
            if action is None:
                break
            try:
                preview = enc.preview(action).to_json()
                reader.headlines(preview)
                for text in shown_strings(preview):
                    reader.read(f"preview {action.kind}", text)
                events = enc.perform(action)
            except HexcombatError as exc:
                reader.read(f"refused {action.kind}", str(exc))
                continue
            for event in events:
                reader.read(event.kind, event.text)
                for line in event.details:
                    reader.read(f"{event.kind} details", line)
            for figure in encounter_view(enc)["figures"]:
                reader.read("figure panel", str(figure["idle"]))
    return reader


@pytest.mark.parametrize("path", PLAYED)
def test_demos_name_hexes_by_friendly_labels_in_everything_a_player_reads(path: Path) -> None:
    axial = played(path).axial
    assert axial == [], "\n".join(dict.fromkeys(axial))


@pytest.mark.parametrize("path", PLAYED)
def test_demos_show_no_engine_notation_in_everything_a_player_reads(path: Path) -> None:
    """No "d10+2 min 0", "3d10kh2", option ids, "gm: outcome" or
    "A-15 placeholder" in views, previews, events and refusals; dice read "best two of 3d10"."""
    notation = played(path).notation
    assert notation == [], "\n".join(dict.fromkeys(notation))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Roll d10+2 min 0", "dice expression"),
        ("19 (3d10kh2: 3, 9, 6; +4)", "dice expression"),
        ("Choose gm: outcome.", "raw field name"),
        ("see ta.closed_order", "option id"),
        ("SCP-7: attack-condition modifier (A-15 placeholder).", "gap id as a word"),
    ],
)
def test_the_notation_patterns_find_the_field_and_option_ids_players_met(
    text: str, kind: str
) -> None:
    assert NOTATION[kind].search(text)
    assert not any(
        p.search("Roll best two of 3d10 + 4, never below 0 (TA-5, D-2)") for p in NOTATION.values()
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Attack: 3d10kh2 (9, 8, 1)", "dice expression"),
        ("rolled 16 (16: ) ≥ 12: hit", "empty breakdown"),
        ("A: D10 2 + AG 12 // 5 = 4", "integer division"),
        ("15% of 51 = 153/20", "raw fraction"),
        ("If 99/100: hit, fumble check or 99/100: miss, fumble check", "raw fraction"),
        ("Half-phase 1: 12/2 rounded up = 6", "raw fraction"),
        ("24 Base 2 x AG 12 + max(0, PS 14 - 15) (SCP-43)", "spec function"),
        ("the D's F hex", "spec symbol"),
        ("M = N x CS = 4 x 3 = 12", "spec symbol"),
        ("Up to 3 MP (accelerate). You step", "mode id"),
        ("what the target drops (drop) nothing can be chosen", "parameter id"),
        ("Roll — Roll: fires the Crossbow", "stutter"),
    ],
)
def test_the_notation_patterns_find_the_dice_and_spec_notation_players_met(
    text: str, kind: str
) -> None:
    assert NOTATION[kind].search(text)
    plain = "Bo takes 1 Endurance damage (EN 14/15); Up to 3 MP (walking); a fifth of AG 12 (2)"
    assert not any(p.search(plain) for p in NOTATION.values())


def test_scp_3_a11_a_fire_not_offered_says_why() -> None:
    """A Fire refused names the rule it breaks, never only what is allowed now."""
    import manifests  # noqa: F401  (puts tests/rules, where the fixtures are, on the path)
    from strike_chance_pulse_fixtures import ANN_AT, BO_AT, arena, initiative, make

    said = []
    for at in (BO_AT, Hex(3, 7)):
        enc = make(arena(width=12, height=10), "ann", "Ann", "Blue", ANN_AT, 1,
                   items=["Short Bow"], ranks={"Short Bow": 2})  # fmt: skip
        enc = make(enc, "bo", "Bo", "Red", at, 4)
        initiative(enc, [10, 9])
        with pytest.raises(IllegalActionError) as refused:
            enc.perform(Action("fire", "ann", {"weapon": "Short Bow", "target": "bo"}))
        said.append(str(refused.value))
    assert said == [
        "Ann cannot Fire now: Bo is adjacent: no Fire (SCP-3)",
        "Ann cannot Fire now: Bo is not in Ann's Ranged Zone (SCP-3, A-11)",
    ]


@pytest.mark.parametrize("path", PLAYED)
def test_every_headline_chance_is_worded_by_its_ruleset(path: Path) -> None:
    """The page shows "<percent> <phrase>": each ruleset words its own outcomes ("to hit",
    "to dodge", "to keep its footing", "that Bo wins"), so none falls back to the label."""
    phrases = played(path).phrases
    worded = [p for p in phrases if p.startswith(("to ", "that ", "of "))]
    assert worded == list(phrases), phrases


@pytest.mark.xdist_group("played:fig-percentile")
def test_fig_percentile_moves_read_move_and_move_here() -> None:
    """Item 10: "Plan your move: here" was engine wording; the card says Move, its button
    Move here (the help says that every move runs together when the step ends)."""
    reader = played(DEMO_DIR / "fig-percentile.json")
    spec = reader.kinds["plan_move"]
    assert spec.label == "Move" and "together when the step ends" in spec.help
    rs = get_ruleset("fig-percentile")
    assert rs.action_words(spec) == {"cost_unit": "MP", "confirm": "Move here"}


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
def test_ending_the_step_previews_in_plain_words(path: Path) -> None:
    """The table's "Finish: ..." previewed as every ruleset's preview of a figure's action did:
    "there is no figure None"."""
    enc = from_document(json.loads(path.read_text(encoding="utf-8")))  # as the app opens it
    while not any(s.kind == "next_step" for s in enc.legal_actions(None)):
        enc.redo()  # past hidden choices, which block the step's end until all are in
    preview = enc.preview(Action("next_step"))
    assert preview.allowed and not any("None" in note for note in preview.notes)


def test_the_pattern_finds_axial_keys_and_passes_labels() -> None:
    assert AXIAL.search("Bo moves 4,2 → 5,-2")
    assert not AXIAL.search("Bo moves E3 → F1 (2 of TMR 4 MP); 3/5 = 60%; 1.5 hexes")
