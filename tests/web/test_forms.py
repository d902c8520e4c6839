"""The browser-free parts of web/ui/forms.py: typed values, problem paths, field markup."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from hexcombat.errors import Problem
from hexcombat.view import rulesets_view
from web.ui.forms import (
    MISSING,
    as_problems,
    field_markup,
    format_value,
    is_offered,
    match_path,
    offered_choices,
    options_html,
    parse_value,
)

pytestmark = pytest.mark.pyodide

INT = {"name": "move", "label": "Move", "type": "int", "minimum": 0, "maximum": 20}
CHOICE = {
    "name": "mode",
    "label": "Mode",
    "type": "choice",
    "choices": [{"value": "le", "label": "At or under"}, {"value": 3, "label": "Three"}],
}


@pytest.mark.parametrize(
    ("field", "raw", "value", "problem"),
    [
        (INT, "7", 7, ""),
        (INT, " -0 ", 0, ""),
        (INT, "21", MISSING, "must be a whole number from 0 to 20, got 21"),
        (INT, "-1", MISSING, "must be a whole number from 0 to 20, got -1"),
        (INT, "2.5", MISSING, "must be a whole number, got '2.5'"),
        (INT, "", MISSING, "is required"),
        ({**INT, "required": False}, "", MISSING, ""),
        ({"name": "b", "type": "bool"}, True, True, ""),
        ({"name": "b", "type": "bool"}, False, False, ""),
        ({"name": "t", "type": "text"}, "", "", ""),
        ({"name": "t", "type": "text", "required": False}, "", MISSING, ""),
        ({"name": "t", "type": "text"}, "d6+1", "d6+1", ""),
        (CHOICE, "0", "le", ""),
        (CHOICE, "1", 3, ""),
        (CHOICE, "", MISSING, "is required"),
        (CHOICE, "9", MISSING, "must be one of the choices offered"),
        ({"name": "f", "type": "facing"}, "4", 4, ""),
        ({"name": "f", "type": "facing"}, None, MISSING, "is required"),
        ({"name": "h", "type": "hex"}, " 3, -1", "3,-1", ""),
        ({"name": "h", "type": "hex"}, "3;1", MISSING, 'must be a hex "q,r", e.g. 3,-1'),
        ({"name": "p", "type": "path"}, "1,0 2,-1;3,-1", ["1,0", "2,-1", "3,-1"], ""),
        ({"name": "p", "type": "path"}, "1,0 x", MISSING, "must be hexes"),
        (
            {"name": "g", "type": "figure", "choices": [{"value": "bo", "label": "Bo"}]},
            "0",
            "bo",
            "",
        ),
    ],
)
def test_parse_value_types_every_kind(
    field: dict[str, Any], raw: str | bool | None, value: Any, problem: str
) -> None:
    got_value, got_problem = parse_value(field, raw)
    assert got_value == value
    assert got_problem.startswith(problem) and bool(got_problem) == bool(problem)


@pytest.mark.parametrize(
    ("field", "value", "text"),
    [
        (INT, 4, "4"),
        (CHOICE, 3, "1"),
        (CHOICE, "3", ""),
        ({"name": "f", "type": "facing"}, 5, "5"),
        ({"name": "p", "type": "path"}, ["1,0", "2,0"], "1,0 2,0"),
        (INT, None, ""),
    ],
)
def test_format_value_is_what_parse_reads_back(
    field: dict[str, Any], value: Any, text: str
) -> None:
    assert format_value(field, value) == text
    if text:
        assert parse_value(field, text)[0] == value


@pytest.mark.parametrize(
    ("path", "prefix", "expected"),
    [
        ("stats.fig", "stats.", "fig"),
        ("figures[2].stats.fig", "stats.", "fig"),
        ("stats.fig_bonus", "stats.", "fig_bonus"),
        ("stats.figs", "stats.", None),
        ("ruleset.options.skirmish.stacking", "ruleset.options.", "skirmish.stacking"),
        ("name", "", "name"),
        ("figures[0].name", "", "name"),
        ("equipment[1].range", "", "equipment"),
        ("cursor", "", None),
    ],
)
def test_match_path_finds_the_field_a_problem_is_about(
    path: str, prefix: str, expected: str | None
) -> None:
    names = ["fig", "fig_bonus", "name", "equipment", "skirmish.stacking"]
    assert match_path(path, names, prefix) == expected


def test_as_problems_accepts_objects_pairs_and_text() -> None:
    assert as_problems([Problem("a", "b"), ("c", "d"), "e"]) == [
        Problem("a", "b"),
        Problem("c", "d"),
        Problem("", "e"),
    ]


class Tags(HTMLParser):
    """Collects start tags and their attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def parsed(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """The start tags of ``html``."""
    tags = Tags()
    tags.feed(html)
    return tags.tags


def every_engine_field() -> list[dict[str, Any]]:
    """Every option and figure field of every registered ruleset, plus an action parameter."""
    fields: list[dict[str, Any]] = []
    for view in rulesets_view():
        fields += view["options"] + view["figure_fields"]
    fields.append({"name": "facing", "label": "Facing", "type": "facing", "required": True})
    fields.append({"name": "to", "label": "Destination", "type": "hex", "required": False})
    return fields


@pytest.mark.parametrize("field", every_engine_field(), ids=lambda f: f["name"])
def test_every_engine_field_gets_a_labelled_described_control(field: dict[str, Any]) -> None:
    html = field_markup(field, "f1", field.get("default"))
    tags = parsed(html)
    ids = {a.get("id") for _, a in tags}
    holder = tags[0][1]
    assert holder["data-field"] == field["name"]
    if field["type"] == "facing":
        assert tags[0][0] == "fieldset"
        assert sum(1 for t, a in tags if t == "input" and a.get("type") == "radio") == 6
    else:
        labels = [a for t, a in tags if t == "label"]
        assert any(a.get("for") == "f1" for a in labels), "a real label for the control"
        assert any(t in {"input", "select"} and a.get("id") == "f1" for t, a in tags)
    described = next(a["aria-describedby"] for _, a in tags if a.get("aria-describedby"))
    assert described is not None and all(part in ids for part in described.split())
    assert ("house default" in html) == bool(field.get("house_default"))
    if field.get("rule"):
        assert f">{field['rule']}</span>" in html


def test_markup_escapes_labels_and_values() -> None:
    field = {"name": "n", "label": "<b>Name</b>", "type": "text", "help": 'say "hi"'}
    html = field_markup(field, "f2", '"><script>')
    assert "<b>" not in html and "<script>" not in html
    assert "&lt;b&gt;Name" in html and "&quot;&gt;&lt;script&gt;" in html


def test_select_of_required_choice_with_value_has_no_empty_option() -> None:
    html = field_markup(CHOICE, "f3", 3)
    options = [a for t, a in parsed(html) if t == "option"]
    assert [o.get("value") for o in options] == ["0", "1"]
    assert "selected" in options[1]
    optional = field_markup({**CHOICE, "required": False}, "f4", None)
    assert [a.get("value") for t, a in parsed(optional) if t == "option"] == ["", "0", "1"]


def test_a_choice_is_offered_only_when_the_fields_it_names_have_its_values() -> None:
    stab = {"value": "stab", "label": "Stab", "when": {"weapon": "dagger"}}
    assert is_offered(stab, {"weapon": "dagger", "target": "cy"})
    assert not is_offered(stab, {"weapon": "sword"})
    assert not is_offered(stab, {})
    assert is_offered({"value": "cut", "label": "Cut"}, {})


def test_a_choice_offered_in_several_cases_of_its_when_is_listed_once() -> None:
    target = {
        "name": "target",
        "label": "Target",
        "type": "figure",
        "required": False,
        "choices": [
            {"value": fid, "label": fid, "when": when}
            for fid in ("bo", "cy")
            for when in ({"first": "attack"}, {"first": "parry", "second": "attack"})
        ],
    }
    assert [c["value"] for _, c in offered_choices(target, None)] == ["bo", "cy"]
    assert offered_choices(target, {"first": "parry", "second": "attack"}) == [
        (1, target["choices"][1]),
        (3, target["choices"][3]),
    ]
    assert offered_choices(target, {"first": "move"}) == []
    markup = field_markup(target, "t", None)
    assert markup.count("<option") == 3  # "— none —", bo and cy: each foe once


def test_a_list_tells_one_true_and_the_text_one_apart() -> None:
    values = (1, True, "1")
    choices = [{"value": v, "label": str(v)} for v in values]
    field = {"name": "x", "label": "X", "type": "choice", "choices": choices}
    assert len(offered_choices(field, {})) == 3


def test_a_control_drawn_again_is_found_by_what_it_is_about_not_its_state() -> None:
    from web.ui.focus import selector_of

    pressed = {"data-cmd": "autopilot-side", "data-side": 'Red "A"', "data-played-by": ""}
    assert selector_of(pressed, "BUTTON") == (
        'button[data-cmd="autopilot-side"][data-side="Red \\"A\\""]'
    )
    assert selector_of({"class": "x"}, "DIV") == ""


def test_an_optional_facing_can_be_left_empty_again() -> None:
    facing = {"name": "facing", "label": "Facing at the end", "type": "facing", "required": False}
    markup = field_markup(facing, "f", 0)
    assert markup.count('type="radio"') == 7 and 'value=""><span>Any' in markup
    assert parse_value(facing, "") == (MISSING, "")
    required = field_markup({**facing, "required": True}, "g", None)
    assert required.count('type="radio"') == 6


def test_a_figures_name_in_a_target_list_stays_text() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    dax = {"value": "dax", "label": f"Dax {hostile}", "detail": hostile}
    target = {"name": "target", "label": "Target", "type": "figure", "choices": [dax]}
    for html in (
        field_markup(target, "t", "dax"),
        options_html(target, [(0, dax)], 0),
    ):
        assert "<img" not in html
        assert "Dax &lt;img src=x onerror=alert(1)&gt; — &lt;img" in html
