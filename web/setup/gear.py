"""Skills and equipment in the set-up panel (the editing mixed into
:class:`web.setup.panel.Editor`): the figure's skills with their values, its items with their
state (and whether loaded), adding and removing them; every change goes through the figure's
form (``apply_figure``), so the engine checks it with the rest."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from hexcombat import HexcombatError, Problem
from hexcombat.editing import catalogue, new_item
from hexcombat.figures import EQUIPMENT_STATES, Figure
from web.ui.dom import byid, present
from web.ui.html import Markup, el, joined
from web.ui.shell import Shell

NEW_SKILL_VALUE = 50
"""A new skill's value until one is typed (the skill field's starting value)."""


def gear_html(fig: Figure, items: list[dict[str, Any]], added: int | None = None) -> str:
    """Figure ``fig``'s skills and equipment with the ``items`` it may be given (the
    ruleset's tables), when there are tables or the figure has some; the item ``added`` (its
    index) is where the focus goes (:mod:`web.ui.focus`)."""
    if not (items or fig.skills or fig.equipment):
        return ""
    skills = joined(
        el(
            "li",
            el("span", name, class_="grow"),
            _skill_field(value, f"{name} skill", step="1", data_skill=name),
            el(
                "button",
                "✕",
                type="button",
                data_cmd="remove-skill",
                data_skill=name,
                aria_label=f"Remove the {name} skill",
            ),
        )
        for name, value in fig.skills.items()
    )
    gear = joined(_item_row(fig, i, i == added) for i in range(len(fig.equipment)))
    options = joined(el("option", item_words(e), value=e["name"]) for e in items)
    add_item = (
        Markup('<div class="row">')
        + el("select", options, id="new-item", class_="field-select grow", aria_label="Item to add")
        + '<button type="button" data-cmd="add-item">Add item</button></div>'
        if items
        else ""
    )
    return (
        "<h3>Skills</h3>"
        + el("ul", skills, class_="kv-list")
        + '<div class="row"><input id="new-skill-name" class="field-select grow" type="text" '
        'autocomplete="off" placeholder="Skill, e.g. Sword" aria-label="New skill name">'
        + _skill_field(NEW_SKILL_VALUE, "New skill value", id="new-skill-value")
        + '<button type="button" data-cmd="add-skill">Add skill</button></div>'
        "<h3>Equipment</h3>"
        + el("ul", gear, class_="kv-list")
        + add_item
        + '<ul id="gear-problems" class="problem" role="alert" hidden></ul>'
    )


def _item_row(fig: Figure, i: int, focused: bool) -> Markup:
    """Item ``i`` of ``fig``'s equipment: name, kind, state, loaded and Remove."""
    item = fig.equipment[i]
    states = joined(el("option", s, value=s, selected=s == item.state) for s in EQUIPMENT_STATES)
    loaded = (
        None
        if item.loaded is None
        else el(
            "label",
            el("input", type="checkbox", data_item_loaded=i, checked=item.loaded),
            " loaded",
            class_="check-label",
        )
    )
    return el(
        "li",
        el(
            "span",
            el("strong", item.name),
            " ",
            el("span", item.kind, class_="muted"),
            class_="grow",
        ),
        el(
            "select",
            states,
            class_="field-select",
            data_item_state=i,
            data_focus_here=focused,
            aria_label=f"{item.name}: state",
        ),
        loaded,
        el(
            "button",
            "✕",
            type="button",
            data_cmd="remove-item",
            data_index=i,
            aria_label=f"Remove {item.name}",
        ),
    )


def _skill_field(value: int, label: str, **attrs: str) -> Markup:
    """A skill value's number field (0 to 1000)."""
    return el(
        "input",
        type="number",
        class_="field-select small",
        min="0",
        max="1000",
        **attrs,
        value=value,
        aria_label=label,
    )


def item_words(entry: dict[str, Any]) -> str:
    """A catalogue item as its list shows it before it is added: name, kind, the skill it is
    used with and its numbers ("Beaked axe (weapon, Pole Arm skill) — damage d8 · ...")."""
    kind = str(entry["kind"]) + (f", {entry['skill']} skill" if entry.get("skill") else "")
    facts = f" — {entry['facts']}" if entry.get("facts") else ""
    return f"{entry['name']} ({kind}){facts}"


class GearEdits:
    """Reading and changing the selected figure's skills and equipment."""

    app: Shell
    added_item: int | None = None
    """The index of the item Add item just gave the figure (drawn once with the focus on it)."""

    if TYPE_CHECKING:  # the editor's, which this is mixed into

        def apply_figure(self, change: Callable[[Figure], str] | None = None) -> bool: ...

    def _read_gear(self, fig: Figure) -> None:
        """Skill values, item states and loaded flags as shown in the panel."""
        for field in js.document.querySelectorAll("#panel-body [data-skill]"):
            if str(field.tagName) != "INPUT":
                continue
            name = str(field.dataset.skill)
            text = str(field.value).strip()
            try:
                fig.skills[name] = int(text)
            except ValueError:
                raise HexcombatError(
                    f"the {name} skill must be a whole number, got {text!r}"
                ) from None
        for field in js.document.querySelectorAll("#panel-body [data-item-state]"):
            fig.equipment[int(field.dataset.itemState)].state = str(field.value)
        for field in js.document.querySelectorAll("#panel-body [data-item-loaded]"):
            fig.equipment[int(field.dataset.itemLoaded)].loaded = bool(field.checked)

    def _show_gear_problems(self, problems: list[Problem]) -> None:
        box = js.document.querySelector("#gear-problems")
        if not present(box):
            self.app.toast("; ".join(str(p) for p in problems), bad=True)
            return
        box.innerHTML = joined(el("li", str(p)) for p in problems)
        box.hidden = not problems

    def add_skill(self) -> None:
        """Give the selected figure a new skill (name and value from the panel)."""
        name = str(byid("new-skill-name").value).strip()
        text = str(byid("new-skill-value").value).strip()
        if not name:
            self._show_gear_problems([Problem("skills", "type the skill's name first")])
            return

        def change(fig: Figure) -> str:
            try:
                fig.skills[name] = int(text)
            except ValueError:
                raise HexcombatError(
                    f"the {name} skill must be a whole number, got {text!r}"
                ) from None
            return f"{fig.name} has {name} {text}."

        self.apply_figure(change)

    def remove_skill(self, name: str) -> None:
        """Take a skill away from the selected figure."""

        def change(fig: Figure) -> str:
            fig.skills.pop(name, None)
            return f"{fig.name} no longer has {name}."

        self.apply_figure(change)

    def add_item(self) -> None:
        """Give the selected figure an item from the ruleset's data tables."""
        name = str(byid("new-item").value)
        enc = self.app.encounter
        entry = next((e for e in catalogue(enc.state.data) if e["name"] == name), {})
        skill = str(entry.get("skill") or "")

        def change(fig: Figure) -> str:
            fig.equipment.append(new_item(enc.ruleset, enc.state.data, name))
            self.added_item = len(fig.equipment) - 1
            if not skill or skill in fig.skills:
                return f"{fig.name} now carries the {name}."
            value = str(byid("new-skill-value").value).strip() or str(NEW_SKILL_VALUE)
            fig.skills[skill] = int(value) if value.isdigit() else NEW_SKILL_VALUE
            return (
                f"{fig.name} now carries the {name}, with the {skill} skill it is used with "
                f"at {fig.skills[skill]} (change it under Skills)."
            )

        try:
            self.apply_figure(change)
        finally:
            self.added_item = None

    def remove_item(self, index: int) -> None:
        """Take an item away from the selected figure."""

        def change(fig: Figure) -> str:
            item = fig.equipment.pop(index)
            return f"{fig.name} no longer carries the {item.name}."

        self.apply_figure(change)
