"""Forms built from the engine's own descriptions of fields, options and action parameters.

The engine describes every input it takes as a plain dict (``FieldSpec.to_json()``):
``name``, ``label``, ``type`` (``int``, ``text``, ``bool``, ``choice``, ``facing``,
``hex``, ``figure``, ``path``), optional ``default``, ``minimum``/``maximum``, ``choices``
(``[{"value", "label", "detail"?, "when"?}]``), ``help``, ``rule`` (a rule id such as
``G-1``, shown as a tag), ``house_default`` (shown as a "house default" tag:
a value the rule text does not give) and ``required`` (``false``: the field
may be left empty and is then left out of the values).

API (all a caller needs)::

    form = build_form(container, fields, values, on_change=None, path_prefix="")
    form.values()              # {name: typed value}; InvalidDocumentError (and shown) if unreadable
    form.read()                # (values, problems) without raising or showing
    form.set_value(name, v)    # e.g. a hex picked on the board
    form.show_problems(problems)   # engine Problems shown next to their field; returns the rest
    form.clear_problems()
    form.destroy()             # remove it and stop listening to it

``values`` are initial values by name (missing ones start at the field's
``default``). ``on_change(form, name)`` is called after each edit. Problem
paths are matched to fields through ``path_prefix``: a figure form built with
``path_prefix="stats."`` shows ``stats.fig`` and ``figures[2].stats.fig``
next to the ``fig`` field; the new-encounter options form uses
``"ruleset.options."``. Problems that match no field are listed at the top of
the form. Values come back typed: ints as ``int``, hexes as ``"q,r"``, paths
as lists of ``"q,r"``, facings as ``0``-``5``, choices as their JSON value.

Each field is a ``[data-field=<name>]`` element with a real ``<label>`` (or
``<fieldset>``/``<legend>``), help text and problems linked through
``aria-describedby``, and touch targets of at least 44 px (``static/library.css``).
The parsing and path matching are plain functions (:func:`parse_value`,
:func:`match_path`) tested under CPython; only the DOM part needs the browser.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from hexcombat.errors import InvalidDocumentError, Problem
from hexcombat.schema import FieldSpec
from web.ui.html import Markup, el, joined
from web.ui.nodes import present, pyodide_ffi

Json = Any
FieldDict = Mapping[str, Json]
OnChange = Callable[["Form", str], None]

FACING_LABELS: Final = ("N", "NE", "SE", "S", "SW", "NW")
ANY_FACING: Final = "Any"
"""The segment of an optional facing that leaves it empty."""
CHOICE_TYPES: Final = frozenset({"choice", "figure"})
HEX_TEXT = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
STYLESHEET = "./static/library.css"
CHOSEN_SHOWN = 30
"""A chosen list entry longer than this is also written out in full under its list."""


class Missing:
    """The value of an empty optional field: it is left out of the form's values."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = Missing()


def choices_of(field: FieldDict) -> list[dict[str, Json]]:
    """The choices a field offers: its own, or the six facings for a facing field."""
    given = field.get("choices")
    if isinstance(given, list) and given:
        return [c for c in given if isinstance(c, dict)]
    if field.get("type") == "facing":
        return [{"value": i, "label": label} for i, label in enumerate(FACING_LABELS)]
    return []


def is_offered(choice: Mapping[str, Json], values: Mapping[str, Json]) -> bool:
    """True when every field a choice's ``when`` names has the value given there (the
    engine's ``Choice.offered``): weapon -> special -> target lists follow earlier fields."""
    when = choice.get("when")
    if not isinstance(when, Mapping):
        return True
    return all(values.get(str(name)) == value for name, value in when.items())


def choice_key(value: Json) -> str:
    """A choice's value as a key that tells 1, True and "1" apart."""
    return json.dumps(value, sort_keys=True)


def offered_choices(
    field: FieldDict, values: Mapping[str, Json] | None
) -> list[tuple[int, dict[str, Json]]]:
    """Each value the field's list shows, once: (its first choice's index, that choice), in
    the engine's order; with ``values``, only those offered with them (a choice offered in
    several cases of its ``when`` is still one entry)."""
    seen: set[str] = set()
    shown = []
    for index, choice in enumerate(choices_of(field)):
        key = choice_key(choice.get("value"))
        if key in seen or (values is not None and not is_offered(choice, values)):
            continue
        seen.add(key)
        shown.append((index, choice))
    return shown


def is_house_value(field: FieldDict, value: Json) -> bool:
    """True when ``value`` is the field's house default (its "house default" tag applies).

    >>> is_house_value({"default": 10, "house_default": True}, 10)
    True
    >>> is_house_value({"default": 10, "house_default": True}, 12)
    False
    """
    return bool(field.get("house_default")) and value == field.get("default")


def uses_choices(field: FieldDict) -> bool:
    """True when the field is picked from a list (select or segmented buttons)."""
    return field.get("type") in CHOICE_TYPES or bool(choices_of(field))


def is_required(field: FieldDict) -> bool:
    """False only when the description says ``"required": false``."""
    return field.get("required", True) is not False


def parse_hex(text: str) -> str | None:
    """``"q,r"`` normalised ('3, -1' -> '3,-1'), or None when it is not a hex."""
    match = HEX_TEXT.match(text)
    return f"{int(match.group(1))},{int(match.group(2))}" if match else None


def parse_value(field: FieldDict, raw: str | bool | None) -> tuple[Json, str]:
    """Read one input: (typed value or MISSING, problem message or '').

    ``raw`` is the checkbox state for ``bool``, the chosen option index (as
    text, '' for none) for fields with choices, else the text typed.
    """
    kind = field.get("type")
    if kind == "bool":
        return bool(raw), ""
    text = "" if raw is None or isinstance(raw, bool) else str(raw)
    if uses_choices(field):
        options = choices_of(field)
        if text.strip() == "":
            return MISSING, "is required" if is_required(field) else ""
        try:
            return options[int(text)]["value"], ""
        except (ValueError, IndexError, KeyError):
            return MISSING, "must be one of the choices offered"
    if kind == "text":
        if text == "" and not is_required(field):
            return MISSING, ""
        return text, ""
    if text.strip() == "":
        return MISSING, "is required" if is_required(field) else ""
    if kind == "int":
        try:
            value = int(text.strip())
        except ValueError:
            return MISSING, f"must be a whole number, got {text.strip()!r}"
        problem = FieldSpec.from_json(field).check(value)
        return (MISSING, problem) if problem else (value, "")
    if kind == "hex":
        hex_text = parse_hex(text)
        return (hex_text, "") if hex_text else (MISSING, 'must be a hex "q,r", e.g. 3,-1')
    if kind == "path":
        steps = [parse_hex(part) for part in re.split(r"[;\s]+(?=-?\d)", text.strip())]
        if all(steps):
            return steps, ""
        return MISSING, 'must be hexes "q,r" separated by spaces, e.g. 1,0 2,0'
    return text, ""


def format_value(field: FieldDict, value: Json) -> str:
    """The text an input shows for ``value`` (index text for fields with choices)."""
    if value is None or value is MISSING:
        return ""
    if uses_choices(field):
        for i, choice in enumerate(choices_of(field)):
            if choice.get("value") == value and type(choice.get("value")) is type(value):
                return str(i)
        return ""
    if field.get("type") == "path" and isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def match_path(path: str, names: Sequence[str], prefix: str = "") -> str | None:
    """The field a problem path is about ('figures[1].stats.hp' -> 'hp' with 'stats.')."""
    best: tuple[int, str] | None = None
    for name in names:
        full = prefix + name
        hit = (
            path == full
            or path.endswith("." + full)
            or any(path.startswith(full + s) or ("." + full + s) in path for s in ".[")
        )
        if hit and (best is None or len(full) > best[0]):
            best = (len(full), name)
    return best[1] if best else None


def as_problems(problems: Iterable[Problem | tuple[str, str] | str]) -> list[Problem]:
    """Problems from Problem objects, (path, message) pairs or plain messages."""
    result = []
    for p in problems:
        if isinstance(p, Problem):
            result.append(p)
        elif isinstance(p, tuple):
            result.append(Problem(str(p[0]), str(p[1])))
        else:
            result.append(Problem("", str(p)))
    return result


_ids = itertools.count(1)


class Form:
    """A form built by :func:`build_form`: read typed values, show problems by path."""

    def __init__(
        self,
        element: Any,
        fields: Sequence[FieldDict],
        ids: Mapping[str, str],
        prefix: str,
        on_change: OnChange | None,
    ) -> None:
        self.element = element
        """The form's root element (``div.hc-form``) inside the container."""
        self.fields = {str(f["name"]): f for f in fields}
        self._ids = dict(ids)
        self._prefix = prefix
        self._on_change = on_change
        self._listener: Any = None
        self._wanted: dict[str, Json] = {}
        """The value last chosen in each list, brought back once its list offers it again."""

    # ---- values --------------------------------------------------------------
    def read(self) -> tuple[dict[str, Json], list[Problem]]:
        """(values that could be read, problems with the rest), without showing anything."""
        values: dict[str, Json] = {}
        problems: list[Problem] = []
        for name, field in self.fields.items():
            value, problem = parse_value(field, self._raw(name, field))
            if problem:
                problems.append(Problem(self._prefix + name, problem))
            elif value is not MISSING:
                values[name] = value
        return values, problems

    def values(self) -> dict[str, Json]:
        """Every field's typed value; InvalidDocumentError (also shown) when one is unreadable."""
        values, problems = self.read()
        if problems:
            self.clear_problems()
            self.show_problems(problems)
            first = self.element.querySelector("[aria-invalid=true]")
            if present(first):
                first.focus()
            raise InvalidDocumentError(problems, "some fields need attention")
        return values

    def set_value(self, name: str, value: Json) -> None:
        """Put ``value`` into the field ``name`` (for example a hex picked on the board)."""
        field = self.fields[name]
        control = self._control(name)
        if field.get("type") == "bool":
            control.checked = bool(value)
        elif field.get("type") == "facing":
            index = format_value(field, value)
            for radio in control.querySelectorAll("input[type=radio]"):
                radio.checked = radio.value == index
        elif uses_choices(field):
            self._wanted[name] = value
            control.value = format_value(field, value)
            self.filter_choices()
        else:
            control.value = format_value(field, value)
            self.show_chosen()

    def filter_choices(self) -> None:
        """List only the choices whose ``when`` fits the other fields' current values, each
        value once, in field order (so a chain weapon -> special -> target settles in one
        pass). A choice no longer offered gives way to the one last chosen there, when it
        is offered again, else to the first one offered. An optional field left with
        nothing to offer is put away until it has (a target for an action that takes none)."""
        for name, field in self.fields.items():
            choices = choices_of(field)
            if field.get("type") == "facing" or not any(c.get("when") for c in choices):
                continue
            values, _ = self.read()
            offered = offered_choices(field, values)
            index = {choice_key(c.get("value")): i for i, c in offered}
            wanted, now = self._wanted.get(name, MISSING), values.get(name, MISSING)
            pick = next(
                (index[choice_key(v)] for v in (wanted, now) if v is not MISSING
                 and choice_key(v) in index),
                offered[0][0] if offered and (is_required(field) or now is not MISSING) else None,
            )  # fmt: skip
            control = self._control(name)
            control.innerHTML = options_html(field, offered, pick)
            control.value = "" if pick is None else str(pick)
            wrapper = control.closest("[data-field]")
            if present(wrapper):
                wrapper.hidden = not offered and not is_required(field)
        self.show_chosen()

    def show_house_tags(self) -> None:
        """A "house default" tag shows only while its field holds that default: a value typed
        over it is the player's own."""
        values, _ = self.read()
        for name, field in self.fields.items():
            if not field.get("house_default"):
                continue
            tag = self.element.querySelector(f'[data-field="{name}"] .hc-house')
            if present(tag):
                tag.hidden = not is_house_value(field, values.get(name, MISSING))

    def show_chosen(self) -> None:
        """Under each list, the chosen entry's whole words when they are longer than a list
        shows on a narrow panel (a select never wraps its text)."""
        for line in self.element.querySelectorAll("[data-chosen]"):
            control = line.parentElement.querySelector("select")
            chosen: Any = control.querySelector("option:checked") if present(control) else None
            text = str(chosen.textContent) if present(chosen) and str(chosen.value) else ""
            line.textContent = text
            line.hidden = len(text) <= CHOSEN_SHOWN

    # ---- problems ------------------------------------------------------------
    def show_problems(self, problems: Iterable[Problem | tuple[str, str] | str]) -> list[Problem]:
        """Show each problem next to its field; the ones matching no field go on top (returned)."""
        names = list(self.fields)
        unmatched: list[Problem] = []
        grouped: dict[str, list[str]] = {}
        for problem in as_problems(problems):
            name = match_path(problem.path, names, self._prefix)
            if name is None:
                unmatched.append(problem)
            else:
                grouped.setdefault(name, []).append(problem.message)
        for name, messages in grouped.items():
            node = self.element.querySelector(f"#{self._ids[name]}-problem")
            node.textContent = "; ".join(messages)
            node.hidden = False
            self._control(name).setAttribute("aria-invalid", "true")
        if unmatched:
            box = self.element.querySelector(".hc-form-problems")
            box.innerHTML = joined(el("li", str(p)) for p in unmatched)
            box.hidden = False
        return unmatched

    def clear_problems(self) -> None:
        """Hide every problem message."""
        for node in self.element.querySelectorAll(".hc-problem"):
            node.textContent = ""
            node.hidden = True
        for node in self.element.querySelectorAll("[aria-invalid]"):
            node.removeAttribute("aria-invalid")
        box = self.element.querySelector(".hc-form-problems")
        box.innerHTML = ""
        box.hidden = True

    def destroy(self) -> None:
        """Remove the form from the page and stop listening to it."""
        if self._listener is not None:
            # Not destroyed: a change event queued by removing a focused field would then
            # call a destroyed proxy ("Object has already been destroyed").
            self.element.removeEventListener("input", self._listener)
            self.element.removeEventListener("change", self._listener)
            self._listener = None
        self.element.remove()

    # ---- internals -----------------------------------------------------------
    def _control(self, name: str) -> Any:
        return self.element.querySelector(f"#{self._ids[name]}")

    def _raw(self, name: str, field: FieldDict) -> str | bool | None:
        control = self._control(name)
        if field.get("type") == "bool":
            return bool(control.checked)
        if field.get("type") == "facing":
            checked = control.querySelector("input[type=radio]:checked")
            return str(checked.value) if present(checked) else None
        return str(control.value)

    def _changed(self, event: Any) -> None:
        """Typing reports on ``input``; selects, boxes and radios on ``change`` (once each)."""
        target = event.target
        if not present(target):
            return
        holder = target.closest("[data-field]")
        if not present(holder):
            return
        typed = str(target.type) in {"text", "number"}
        if typed == (str(event.type) == "input"):
            name = str(holder.dataset.field)
            field = self.fields.get(name)
            self.show_house_tags()
            if field is not None and uses_choices(field) and field.get("type") != "facing":
                self._wanted[name] = parse_value(field, self._raw(name, field))[0]
            self.filter_choices()
            if self._on_change is not None:
                self._on_change(self, name)


def field_markup(field: FieldDict, field_id: str, value: Json) -> Markup:
    """The HTML of one field (label, tags, input, help, problem slot)."""
    name, kind = str(field["name"]), str(field.get("type", "text"))
    label = str(field.get("label") or name)
    help_text = str(field.get("help") or "")
    tags = _tags_html(field)
    described = f"{field_id}-problem" + (f" {field_id}-help" if help_text else "")
    help_html = el("p", help_text, class_="hc-help", id=f"{field_id}-help") if help_text else None
    problem = el("p", class_="hc-problem", id=f"{field_id}-problem", role="alert", hidden=True)
    data = {"data_field": name, "data_type": kind}
    if kind == "bool":
        box = el(
            "input", type="checkbox", id=field_id, aria_describedby=described, checked=value is True
        )
        return el(
            "div",
            el("label", box, el("span", label), class_="hc-check", for_=field_id),
            tags,
            help_html,
            problem,
            class_="hc-field hc-bool",
            **data,
        )
    if kind == "facing":
        current = format_value(field, value)
        segments = [
            _segment(field_id, str(i), str(choice.get("label", i)), str(i) == current)
            for i, choice in enumerate(choices_of(field))
        ]
        if not is_required(field):  # an optional facing can be cleared again
            segments.append(_segment(field_id, "", ANY_FACING, not current))
        return el(
            "fieldset",
            el("legend", label, tags),
            el("div", joined(segments), class_="hc-segments"),
            help_html,
            problem,
            class_="hc-field hc-facing",
            **data,
            id=field_id,
            aria_describedby=described,
        )
    head = el("div", el("label", label, for_=field_id), tags, class_="hc-label-row")
    common = {"id": field_id, "name": name, "aria_describedby": described}
    control = _control_html(field, kind, common, value)
    return el("div", head, control, help_html, problem, class_="hc-field", **data)


def _segment(field_id: str, value: str, text: str, checked: bool) -> Markup:
    """One radio button of a facing's segments."""
    radio = el("input", type="radio", name=field_id, value=value, checked=checked)
    return el("label", radio, el("span", text), class_="hc-segment")


def _tags_html(field: FieldDict) -> Markup:
    """A field's tags: "house default" (a number the rule text does not give) and its rule."""
    house = el(
        "span",
        "house default",
        class_="hc-tag hc-house",
        title="Not given by the rule text: a placeholder default you may change",
    )
    rule = str(field.get("rule") or "")
    return joined(
        [
            house if field.get("house_default") else None,
            el("span", rule, class_="hc-tag hc-rule", title=f"Rule {rule}") if rule else None,
        ]
    )


def options_html(
    field: FieldDict, shown: Sequence[tuple[int, Mapping[str, Json]]], pick: int | None
) -> Markup:
    """A list's ``<option>``s: ``shown`` (index, choice) with ``pick`` selected, after
    "— none —" when the field is optional or nothing is picked."""
    none = el("option", "— none —", value="")
    options = [None if is_required(field) and pick is not None else none]
    for i, choice in shown:
        text = str(choice.get("label", choice.get("value")))
        if choice.get("detail"):
            text += f" — {choice['detail']}"
        options.append(el("option", text, value=i, selected=i == pick))
    return joined(options)


def _control_html(field: FieldDict, kind: str, common: Mapping[str, str], value: Json) -> Markup:
    """A field's input: a select of its choices, a whole number, or text (a hex, a path)."""
    if uses_choices(field):
        current = format_value(field, value)
        shown = offered_choices(field, None)
        pick = int(current) if current else None
        chosen = el("p", class_="hc-chosen", data_chosen=True, aria_hidden="true", hidden=True)
        return joined([el("select", options_html(field, shown, pick), **common), chosen])
    if kind == "int":
        low, high = field.get("minimum"), field.get("maximum")
        return el(
            "input",
            type="number",
            step="1",
            inputmode="numeric" if isinstance(low, int) and low >= 0 else "text",
            min=str(low) if isinstance(low, int) else None,
            max=str(high) if isinstance(high, int) else None,
            **common,
            value=format_value(field, value),
        )
    hint = {"hex": "q,r", "path": "q,r q,r …"}.get(kind)
    return el(
        "input",
        type="text",
        autocomplete="off",
        spellcheck="false",
        placeholder=hint,
        **common,
        value=format_value(field, value),
    )


def ensure_stylesheet(document: Any) -> None:
    """Link ``static/library.css`` (forms and library styles) once into the page's head."""
    if not present(document.querySelector(f'link[href="{STYLESHEET}"]')):
        link = document.createElement("link")
        link.rel = "stylesheet"
        link.href = STYLESHEET
        document.head.append(link)


def build_form(
    container: Any,
    fields: Sequence[FieldDict],
    values: Mapping[str, Json] | None = None,
    *,
    on_change: OnChange | None = None,
    path_prefix: str = "",
) -> Form:
    """Append a form for ``fields`` (engine JSON descriptions) to ``container`` and return it."""
    document = container.ownerDocument
    ensure_stylesheet(document)
    form_id = f"hcf{next(_ids)}"
    values = values or {}
    ids = {str(f["name"]): f"{form_id}-{i}" for i, f in enumerate(fields)}
    body = joined(
        field_markup(f, ids[str(f["name"])], values.get(str(f["name"]), f.get("default")))
        for f in fields
    )
    element = document.createElement("div")
    element.className = "hc-form"
    problems = el("ul", class_="hc-form-problems", role="alert", hidden=True)
    element.innerHTML = joined([problems, body])
    container.append(element)
    form = Form(element, fields, ids, path_prefix, on_change)
    form._wanted = {
        name: value
        for name, value in values.items()
        if name in form.fields and uses_choices(form.fields[name])
    }
    form.filter_choices()
    form.show_house_tags()
    form._listener = pyodide_ffi().create_proxy(form._changed)  # tags and lists follow edits
    element.addEventListener("input", form._listener)
    element.addEventListener("change", form._listener)
    return form
