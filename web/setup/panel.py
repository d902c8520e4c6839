"""Set-up mode: paint terrain, add, edit, duplicate, delete, place and rotate figures.

Every edit is an engine call on the encounter's setup (``painted``,
``with_figure``, ``without_figure``, ``renamed``, ``resized``,
``with_options``), so the editor cannot make an encounter the engine would
refuse: a refused edit changes nothing and its problems are shown next to
the fields they are about. Every edit goes through :meth:`App.change`, so it
is saved and can be undone.

Tools: *Select* (tap a figure to edit it; with a figure selected, tap an
empty hex to move it there), *Paint* (tap or drag over hexes with the chosen
terrain) and *Add figure* (tap a hex to place a new figure with the ruleset's
default numbers). R and Shift+R turn the selected figure.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter, HexcombatError, InvalidDocumentError, Problem
from hexcombat.editing import catalogue, new_item
from hexcombat.figures import EQUIPMENT_STATES, Figure
from hexcombat.geometry import neighbors
from hexcombat.layout import hex_label
from web.board.view import Marks, friendly, parse_key
from web.ui import forms
from web.ui.dom import byid, esc, present
from web.ui.shell import Shell
from web.ui.words import FACING_NAMES

COMMANDS = (
    "tool",
    "terrain",
    "fill",
    "clear",
    "pick",
    "deselect",
    "edit-figure",
    "rotate",
    "apply-figure",
    "add-skill",
    "remove-skill",
    "add-item",
    "remove-item",
    "duplicate",
    "delete",
    "new-side",
    "add-side",
    "settings",
    "close-settings",
    "apply-settings",
)
"""The set-up panel's buttons (``data-cmd``), registered in the "edit" scope."""
DEFAULT_SIDES = ("Blue", "Red")
SIZE_LIMIT = 200
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def figure_fields(rs: dict[str, Any]) -> list[dict[str, Any]]:
    """Name, side, then the ruleset's figure fields (as ``stats.<name>``), for one form."""
    fields: list[dict[str, Any]] = [
        {"name": "name", "label": "Name", "type": "text", "default": ""},
        {"name": "side", "label": "Side", "type": "text", "default": ""},
    ]
    for f in rs["figure_fields"]:
        fields.append({**f, "name": f"stats.{f['name']}"})
    return fields


class Editor:
    """The set-up panel and the board taps of set-up mode."""

    def __init__(self, app: Shell) -> None:
        self.app = app
        app.commands.register(COMMANDS, self.on_command, scope="edit")
        self.tool = "select"
        self.terrain = ""
        self.form: forms.Form | None = None
        self.settings_form: forms.Form | None = None
        self.showing_settings = False
        self.new_side = ""

    def reset(self) -> None:
        """Back to the select tool (after opening an encounter or switching modes)."""
        self.tool = "select"
        self.showing_settings = False
        if not self.terrain or self.terrain not in {t["id"] for t in self.app.rs["terrain"]}:
            table = self.app.rs["terrain"]
            self.terrain = table[1]["id"] if len(table) > 1 else table[0]["id"]

    def paint_fill(self) -> str | None:
        """The fill a paint stroke previews, or None when not painting."""
        return self.app.board.terrain_fill(self.terrain) if self.tool == "paint" else None

    # ---- panel ---------------------------------------------------------------------
    def render(self) -> None:
        """Draw the set-up panel for the current tool and selection."""
        app = self.app
        self._drop_forms()
        parts = [
            '<div class="tools" role="group" aria-label="Set-up tool">',
            *(
                f'<button type="button" data-cmd="tool" data-tool="{t}" '
                f'aria-pressed="{"true" if self.tool == t else "false"}">{label}</button>'
                for t, label in (("select", "Select"), ("paint", "Paint"), ("add", "Add figure"))
            ),
            "</div>",
        ]
        if self.showing_settings:
            parts.append(self._settings_html())
        elif self.tool == "paint":
            parts.append(self._paint_html())
        elif self.tool == "add":
            parts.append(self._add_html())
        elif app.selected is not None:
            parts.append(self._figure_html(app.selected))
        else:
            parts.append(self._overview_html())
        if app.view.get("started"):
            parts.insert(
                1,
                '<p class="hint started">The fight has started: set-up changes apply to the '
                "starting positions and numbers, and the actions so far are replayed on them "
                "(the engine refuses a change they no longer fit).</p>",
            )
        body = byid("panel-body")
        body.innerHTML = "".join(parts)
        if self.showing_settings:
            self._build_settings_forms(body)
        elif self.tool == "select" and app.selected is not None:
            self._build_figure_form(body, app.selected)
        app.mark(Marks())

    def _drop_forms(self) -> None:
        for form in (self.form, self.settings_form):
            if form is not None:
                form.destroy()
        self.form = None
        self.settings_form = None

    def _overview_html(self) -> str:
        figures = self.app.view["figures"]
        rows = "".join(
            f'<li><button type="button" data-cmd="pick" data-pick="{esc(f["id"])}">'
            f'<span class="chip-token" style="--side:{esc(f["color"])}">{esc(f["initials"])}</span>'
            f'<span class="grow">{esc(f["name"])}<br><small class="muted">{esc(f["side"])} · '
            f"at {esc(f.get('where') or f['position'])}</small></span></button></li>"
            for f in figures
        )
        board = self.app.view["board"]
        return (
            f"<h2>Set up</h2>"
            f'<p class="hint">{board["width"]} by {board["height"]} hexes. Tap a figure to edit '
            "it, or choose Paint to draw terrain and Add figure to place new figures.</p>"
            f"<h3>Figures ({len(figures)})</h3>"
            + (
                f'<ul class="fig-list">{rows}</ul>'
                if rows
                else '<p class="hint">No figures yet: choose “Add figure”, then tap a hex.</p>'
            )
            + '<div class="row"><button type="button" data-cmd="settings">'
            "Encounter settings…</button></div>"
        )

    def _paint_html(self) -> str:
        swatches = []
        defs = byid("board-defs").innerHTML
        for t in self.app.rs["terrain"]:
            pressed = "true" if t["id"] == self.terrain else "false"
            cost = "impassable" if t.get("move_cost") is None else f"cost {t['move_cost']}"
            fill = self.app.board.terrain_fill(t["id"])
            swatches.append(
                f'<button type="button" data-cmd="terrain" data-terrain-id="{esc(t["id"])}" '
                f'aria-pressed="{pressed}" title="{esc(t.get("help", ""))}">'
                f'<svg width="64" height="30" viewBox="0 0 64 30" aria-hidden="true">'
                f"<defs>{defs}</defs>"
                f'<rect width="64" height="30" rx="5" fill="{fill}" '
                f'stroke="rgba(0,0,0,.3)"/></svg>'
                f'<span>{esc(t["name"])}</span><span class="cost">{cost}</span></button>'
            )
        name = next(t["name"] for t in self.app.rs["terrain"] if t["id"] == self.terrain)
        default = self.app.rs["terrain"][0]["name"]
        return (
            "<h2>Paint terrain</h2>"
            '<p class="hint">Tap or drag across hexes. Two fingers (or the right mouse button) '
            "still pan and zoom.</p>"
            f'<div class="palette" role="group" aria-label="Terrain">{"".join(swatches)}</div>'
            '<div class="row">'
            f'<button type="button" data-cmd="fill">Fill all with {esc(name)}</button>'
            f'<button type="button" data-cmd="clear">Clear to {esc(default)}</button>'
            "</div>"
        )

    def sides(self) -> list[str]:
        """The sides in the encounter, in order of first appearance (two defaults when none)."""
        found = list(self.app.view.get("sides", {}))
        for side in DEFAULT_SIDES:
            if len(found) >= 2:
                break
            if side not in found:
                found.append(side)
        return found

    def _add_html(self) -> str:
        sides = self.sides()
        if self.new_side not in sides:
            self.new_side = sides[0]
        colors = self.app.view.get("sides", {})
        buttons = "".join(
            f'<button type="button" data-cmd="new-side" data-side="{esc(s)}" '
            f'aria-pressed="{"true" if s == self.new_side else "false"}" '
            f'style="border-color:{esc(colors.get(s, "var(--border)"))}">{esc(s)}</button>'
            for s in sides
        )
        return (
            "<h2>Add figures</h2>"
            '<p class="hint">Pick a side, then tap an empty hex to place a figure there with '
            "the ruleset's default numbers. Tap the new figure to edit it.</p>"
            f'<div class="row" role="group" aria-label="Side">{buttons}</div>'
            '<div class="row"><label class="grow">New side '
            '<input id="new-side-name" class="field-select" type="text" autocomplete="off" '
            'placeholder="e.g. Bandits"></label>'
            '<button type="button" data-cmd="add-side">Use</button></div>' + self._last_added_html()
        )

    def _last_added_html(self) -> str:
        f = self._view_figure(self.app.selected) if self.app.selected else None
        if f is None:
            return ""
        return (
            f'<h3>Just placed</h3><div class="row"><span class="chip-token" '
            f'style="--side:{esc(f["color"])}">{esc(f["initials"])}</span>'
            f'<span class="grow">{esc(f["name"])} at {esc(f.get("where") or f["position"])}</span>'
            '<button type="button" data-cmd="edit-figure">Edit</button></div>'
            + self._facing_html(int(f["facing"]))
        )

    def _facing_html(self, facing: int) -> str:
        return (
            '<div class="facing-row">'
            '<button type="button" data-cmd="rotate" data-by="-1" aria-label="Turn left" '
            'title="Turn left (Shift+R)">⟲</button>'
            f'<span class="grow" id="facing-now">Facing {FACING_NAMES[facing]}</span>'
            '<button type="button" data-cmd="rotate" data-by="1" aria-label="Turn right" '
            'title="Turn right (R)">⟳</button></div>'
        )

    def _figure_html(self, fid: str) -> str:
        f = self._view_figure(fid)
        if f is None:
            return self._overview_html()
        facing = int(f["facing"])
        return (
            f'<div class="row"><span class="chip-token" style="--side:{esc(f["color"])}">'
            f'{esc(f["initials"])}</span><h2 class="grow">{esc(f["name"])}</h2>'
            '<button type="button" data-cmd="deselect" aria-label="Close">✕</button></div>'
            f'<p class="hint">At {esc(f.get("where") or f["position"])}. '
            "Tap an empty hex to move it there.</p>"
            + self._facing_html(facing)
            + '<div id="figure-form"></div>'
            + self._gear_html(fid)
            + '<div class="row">'
            '<button type="button" class="primary" data-cmd="apply-figure">Apply changes</button>'
            '<button type="button" data-cmd="duplicate">Duplicate</button>'
            '<button type="button" class="danger" data-cmd="delete">Delete</button>'
            "</div>"
        )

    def _gear_html(self, fid: str) -> str:
        """Skills and equipment, when the ruleset has item tables or the figure has some."""
        fig = self.app.encounter.setup_figure(fid)
        items = catalogue(self.app.encounter.state.data)
        if not (items or fig.skills or fig.equipment):
            return ""
        skills = "".join(
            f'<li><span class="grow">{esc(name)}</span>'
            f'<input type="number" class="field-select small" min="0" max="1000" step="1" '
            f'data-skill="{esc(name)}" value="{value}" aria-label="{esc(name)} skill">'
            f'<button type="button" data-cmd="remove-skill" data-skill="{esc(name)}" '
            f'aria-label="Remove the {esc(name)} skill">✕</button></li>'
            for name, value in fig.skills.items()
        )
        gear = []
        for i, item in enumerate(fig.equipment):
            states = "".join(
                f'<option value="{s}"{" selected" if s == item.state else ""}>{s}</option>'
                for s in EQUIPMENT_STATES
            )
            loaded = (
                ""
                if item.loaded is None
                else f'<label class="check-label"><input type="checkbox" data-item-loaded="{i}"'
                f"{' checked' if item.loaded else ''}> loaded</label>"
            )
            gear.append(
                f'<li><span class="grow"><strong>{esc(item.name)}</strong> '
                f'<span class="muted">{esc(item.kind)}</span></span>'
                f'<select class="field-select" data-item-state="{i}" '
                f'aria-label="{esc(item.name)}: state">{states}</select>{loaded}'
                f'<button type="button" data-cmd="remove-item" data-index="{i}" '
                f'aria-label="Remove {esc(item.name)}">✕</button></li>'
            )
        options = "".join(
            f'<option value="{esc(e["name"])}">{esc(e["name"])} ({esc(e["kind"])})</option>'
            for e in items
        )
        add_item = (
            '<div class="row"><select id="new-item" class="field-select grow" '
            f'aria-label="Item to add">{options}</select>'
            '<button type="button" data-cmd="add-item">Add item</button></div>'
            if items
            else ""
        )
        return (
            f'<h3>Skills</h3><ul class="kv-list">{skills}</ul>'
            '<div class="row"><input id="new-skill-name" class="field-select grow" type="text" '
            'autocomplete="off" placeholder="Skill, e.g. Sword" aria-label="New skill name">'
            '<input id="new-skill-value" class="field-select small" type="number" min="0" '
            'max="1000" value="50" aria-label="New skill value">'
            '<button type="button" data-cmd="add-skill">Add skill</button></div>'
            f'<h3>Equipment</h3><ul class="kv-list">{"".join(gear)}</ul>{add_item}'
            '<ul id="gear-problems" class="problem" role="alert" hidden></ul>'
        )

    def _build_figure_form(self, body: Any, fid: str) -> None:
        holder = body.querySelector("#figure-form")
        if not present(holder):
            return
        fig = self.app.encounter.setup_figure(fid)
        values: dict[str, Any] = {"name": fig.name, "side": fig.side}
        values.update({f"stats.{k}": v for k, v in fig.stats.items()})
        self.form = forms.build_form(holder, figure_fields(self.app.rs))

        for name, value in values.items():
            if name in self.form.fields:
                self.form.set_value(name, value)

    def _settings_html(self) -> str:
        return (
            '<div class="row"><h2 class="grow">Encounter settings</h2>'
            '<button type="button" data-cmd="close-settings" aria-label="Close">✕</button></div>'
            '<div id="settings-form"></div>'
            '<h3>Rule options</h3><div id="options-form"></div>'
            '<div class="row"><button type="button" class="primary" data-cmd="apply-settings">'
            "Apply</button></div>"
        )

    def _build_settings_forms(self, body: Any) -> None:
        enc = self.app.encounter
        board = enc.setup.board
        fields = [
            {"name": "name", "label": "Name", "type": "text", "default": enc.setup.name},
            {
                "name": "width",
                "label": "Width (columns)",
                "type": "int",
                "default": board.width,
                "minimum": 1,
                "maximum": SIZE_LIMIT,
            },
            {
                "name": "height",
                "label": "Height (rows)",
                "type": "int",
                "default": board.height,
                "minimum": 1,
                "maximum": SIZE_LIMIT,
            },
        ]
        self.form = forms.build_form(body.querySelector("#settings-form"), fields)
        options = {**{o["name"]: o["default"] for o in self.app.rs["options"]}, **enc.setup.options}
        self.settings_form = forms.build_form(
            body.querySelector("#options-form"),
            self.app.rs["options"],
            options,
            path_prefix="ruleset.options.",
        )

    def show_settings(self) -> None:
        """Open the encounter settings (name, size, rule options)."""
        self.showing_settings = True
        self.app.sheet_open()
        self.render()

    # ---- commands --------------------------------------------------------------------
    def on_command(self, cmd: str, element: Any, event: Any) -> None:
        """A button in the set-up panel."""
        app = self.app
        if cmd == "tool":
            if not self.flush():
                return
            self.tool = str(element.dataset.tool)
            self.showing_settings = False
            if self.tool != "select":
                app.selected = None
                app.board.select(None)
            app.refresh()
        elif cmd == "terrain":
            self.terrain = str(element.dataset.terrainId)
            app.refresh()
        elif cmd == "fill":
            self._paint_all(self.terrain)
        elif cmd == "clear":
            self._paint_all(app.rs["terrain"][0]["id"])
        elif cmd == "pick":
            if self.flush():
                app.select(str(element.dataset.pick))
        elif cmd == "deselect":
            if self.flush():
                app.select(None)
        elif cmd == "edit-figure":
            self.tool = "select"
            app.refresh()
        elif cmd == "rotate":
            self.rotate(int(element.dataset.by))
        elif cmd == "apply-figure":
            self.apply_figure()
        elif cmd == "add-skill":
            self.add_skill()
        elif cmd == "remove-skill":
            self.remove_skill(str(element.dataset.skill))
        elif cmd == "add-item":
            self.add_item()
        elif cmd == "remove-item":
            self.remove_item(int(element.dataset.index))
        elif cmd == "duplicate":
            self.duplicate()
        elif cmd == "delete":
            self.delete()
        elif cmd == "new-side":
            self.new_side = str(element.dataset.side)
            self.render()
        elif cmd == "add-side":
            name = str(byid("new-side-name").value).strip()
            if name:
                self.new_side = name
                self.render()
        elif cmd == "settings":
            self.show_settings()
        elif cmd == "close-settings":
            self.showing_settings = False
            self.render()
        elif cmd == "apply-settings":
            self.apply_settings()

    def on_tap(self, key: str, figure_id: str | None) -> None:
        """A tap on the board in set-up mode (typed figure edits are applied first)."""
        app = self.app
        if not self.flush():
            return
        if self.tool == "paint":
            self.on_stroke([key])
        elif self.tool == "add":
            if figure_id is not None:
                app.select(figure_id)
                self.tool = "select"
                app.refresh()
            else:
                self.add_figure(key)
        elif figure_id is not None:
            self.showing_settings = False
            if figure_id != app.selected:  # a second tap keeps the selection
                app.select(figure_id)
            app.sheet_open()
        elif app.selected is not None:
            self.place(app.selected, key)

    def on_hover(self, key: str | None) -> None:
        """Nothing follows the mouse while setting up."""

    def inspect(self, key: str, figure_id: str | None) -> None:
        """A long press: the hex's terrain and who stands there."""
        self.app.toast(self.app.board.hex_words(key))

    def cancel(self) -> bool:
        """Esc: leave a tool or the settings; True when something was closed."""
        if self.showing_settings or self.tool != "select":
            self.showing_settings = False
            self.tool = "select"
            self.app.refresh()
            return True
        return False

    def on_stroke(self, keys: list[str]) -> None:
        """A paint stroke over ``keys`` ended: paint them in one undoable edit."""
        hexes = [parse_key(k) for k in keys]
        if not self.app.change(lambda enc: enc.painted(hexes, self.terrain)):
            for key in keys:
                self.app.board.revert(key)

    def _paint_all(self, terrain_id: str) -> None:
        name = next(t["name"] for t in self.app.rs["terrain"] if t["id"] == terrain_id)
        self.app.change(
            lambda enc: enc.painted(enc.setup.board.hexes(), terrain_id),
            f"Every hex is now {name}.",
        )

    # ---- figures ---------------------------------------------------------------------
    def _view_figure(self, fid: str) -> dict[str, Any] | None:
        return next((f for f in self.app.view["figures"] if f["id"] == fid), None)

    def add_figure(self, key: str) -> None:
        """Place a new figure of the chosen side on ``key``."""
        app = self.app
        side = self.new_side or self.sides()[0]
        taken = {f["name"] for f in app.view["figures"]}
        name = next(
            (f"{side} {letter}" for letter in LETTERS if f"{side} {letter}" not in taken),
            _next_name(side, taken),
        )

        def make(enc: Encounter) -> Encounter:
            fid = enc.new_figure_id(name)
            facing = 3 if side == self.sides()[0] else 0
            return enc.with_figure(enc.ruleset.new_figure(fid, name, side, parse_key(key), facing))

        if app.change(make, f"Added {name} at {friendly(key)}."):
            added = [f for f in app.encounter.setup.figures if f.name == name]
            if added:
                app.select(added[-1].id)

    def place(self, fid: str, key: str) -> None:
        """Move figure ``fid`` to ``key`` in the setup."""
        fig = self.app.encounter.setup_figure(fid)
        if str(fig.position) == key:
            return
        fig.position = parse_key(key)
        self.app.change(lambda enc: enc.with_figure(fig), f"Moved {fig.name} to {friendly(key)}.")

    def rotate(self, by: int) -> None:
        """Turn the selected figure one hexside clockwise (1) or anticlockwise (-1); what is
        typed in its form is applied with the turn, never thrown away."""
        fid = self.app.selected
        if fid is None:
            return
        if self.form is not None:

            def turn(fig: Figure) -> str:
                fig.facing = (fig.facing + by) % 6
                return ""

            self.apply_figure(turn)
            return
        fig = self.app.encounter.setup_figure(fid)
        fig.facing = (fig.facing + by) % 6
        self.app.change(lambda enc: enc.with_figure(fig))

    def flush(self) -> bool:
        """Apply what is typed in the open figure form before something else happens (another
        figure, a hex, Play, Enter): True when nothing is pending or it was applied; False
        when the engine refused it (the problems are shown and the typing stays)."""
        fid = self.app.selected
        if fid is None or self.form is None or self.tool != "select":
            return True
        values, unreadable = self.form.read()
        if unreadable:
            self.apply_figure()
            return False
        fig = self.app.encounter.setup_figure(fid)
        before = fig.to_json()
        self._typed_into(fig, values)
        try:
            self._read_gear(fig)
        except HexcombatError:
            return self.apply_figure()
        if fig.to_json() == before:
            return True
        return self.apply_figure()

    @staticmethod
    def _typed_into(fig: Figure, values: dict[str, Any]) -> None:
        """The form's name, side and numbers written into ``fig``."""
        fig.name = str(values.get("name", fig.name)).strip() or fig.name
        fig.side = str(values.get("side", fig.side)).strip() or fig.side
        stats = dict(fig.stats)
        for name, value in values.items():
            if name.startswith("stats."):
                stats[name.removeprefix("stats.")] = value
        fig.stats = stats

    def apply_figure(self, change: Callable[[Figure], str] | None = None) -> bool:
        """Write the figure form, skills and equipment back through the engine.

        ``change`` edits the figure further (add a skill, remove an item...) and
        says what it did. Problems are shown next to their field, or under the
        equipment.
        """
        fid = self.app.selected
        if fid is None or self.form is None:
            return True
        # fields that cannot be read keep their old value, so the engine still checks the
        # rest: every problem shows at once, not one per Apply
        values, unreadable = self.form.read()
        fig = self.app.encounter.setup_figure(fid)
        self._typed_into(fig, values)
        engine: list[Problem] = []
        try:
            self._read_gear(fig)
            done = change(fig) if change is not None else f"Saved {fig.name}."
            new = self.app.encounter.with_figure(fig)
        except (InvalidDocumentError, HexcombatError) as exc:
            engine = list(getattr(exc, "problems", ()) or (Problem("", str(exc)),))
        problems = unreadable + engine
        if problems:
            self.form.clear_problems()
            rest = self.form.show_problems(
                [p for p in problems if not re.search(r"(^|\.)(equipment|skills)", p.path)]
            )
            gear = [p for p in problems if re.search(r"(^|\.)(equipment|skills)", p.path)]
            self._show_gear_problems(gear + rest)
            first = self.form.element.querySelector("[aria-invalid=true]")
            if present(first):
                first.focus()
            return False
        return self.app.change(lambda enc: new, done)

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
        box.innerHTML = "".join(f"<li>{esc(p)}</li>" for p in problems)
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

        def change(fig: Figure) -> str:
            fig.equipment.append(new_item(enc.ruleset, enc.state.data, name))
            return f"{fig.name} now carries the {name}."

        self.apply_figure(change)

    def remove_item(self, index: int) -> None:
        """Take an item away from the selected figure."""

        def change(fig: Figure) -> str:
            item = fig.equipment.pop(index)
            return f"{fig.name} no longer carries the {item.name}."

        self.apply_figure(change)

    def duplicate(self) -> None:
        """Copy the selected figure onto the first free neighbouring hex the engine accepts."""
        fid = self.app.selected
        if fid is None:
            return
        enc = self.app.encounter
        original = enc.setup_figure(fid)
        name = _next_name(original.name, {f.name for f in enc.setup.figures})
        for spot in neighbors(original.position):
            fig = copy.deepcopy(original)
            fig.id = enc.new_figure_id(name)
            fig.name = name
            fig.position = spot
            try:
                new = enc.with_figure(fig)
            except InvalidDocumentError:
                continue
            self.app.change(lambda _e, new=new: new, f"Duplicated as {name} at {hex_label(spot)}.")
            self.app.select(fig.id)
            return
        self.app.toast(f"There is no free hex next to {original.name} for a copy.", bad=True)

    def delete(self) -> None:
        """Remove the selected figure (undoable)."""
        fid = self.app.selected
        if fid is None:
            return
        name = self.app.encounter.setup_figure(fid).name
        if self.app.change(lambda enc: enc.without_figure(fid), f"Deleted {name}."):
            self.app.select(None)

    def apply_settings(self) -> None:
        """Rename, resize and set rule options in one undoable edit."""
        if self.form is None or self.settings_form is None:
            return
        try:
            basics = self.form.values()
            options = self.settings_form.values()
        except InvalidDocumentError:
            return
        enc = self.app.encounter
        try:
            new = (
                enc.renamed(str(basics.get("name", enc.setup.name)))
                .resized(int(basics["width"]), int(basics["height"]))
                .with_options(options)
            )
        except InvalidDocumentError as exc:
            self.form.clear_problems()
            self.settings_form.clear_problems()
            rest = self.settings_form.show_problems(
                [p for p in exc.problems if p.path.startswith("ruleset.options")]
            )
            rest += self.form.show_problems(
                [p for p in exc.problems if not p.path.startswith("ruleset.options")]
            )
            return
        except ValueError as exc:
            self.form.show_problems([("", str(exc))])
            return
        self.showing_settings = False
        self.app.change(lambda _e: new, "Settings saved.")


def _next_name(name: str, taken: set[str]) -> str:
    """'Brie' -> 'Brie 2', 'Brie 2' -> 'Brie 3', 'Red A' -> 'Red B' (the first not taken)."""
    words = name.rsplit(" ", 1)
    if len(words) == 2 and len(words[1]) == 1 and words[1] in LETTERS:
        for letter in LETTERS[LETTERS.index(words[1]) + 1 :]:
            if f"{words[0]} {letter}" not in taken:
                return f"{words[0]} {letter}"
    base, n = (words[0], int(words[1])) if len(words) == 2 and words[1].isdigit() else (name, 1)
    while True:
        n += 1
        candidate = f"{base} {n}"
        if candidate not in taken:
            return candidate


__all__ = ["Editor", "figure_fields"]
