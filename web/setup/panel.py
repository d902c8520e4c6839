"""Set-up mode: paint terrain, add, edit, duplicate, delete, place and rotate figures.

Every edit is an engine call on the encounter's setup (``painted``,
``with_figure``, ``without_figure``, ``renamed``, ``resized``,
``with_options``), so the editor cannot make an encounter the engine would
refuse: a refused edit changes nothing and its problems are shown next to
the fields they are about. Every edit goes through :meth:`App.change`, so it
is saved and can be undone.

Tools: *Select* (tap a figure to edit it; with a figure selected, tap an
empty hex to move it there), *Paint* (tap or drag over hexes with the chosen
terrain), *Add figure* (tap a hex to place a new figure with the ruleset's
default numbers) and *Map picture* (``web/setup/map_picture.py``). A figure's editor takes
its portrait (``web/setup/portraits.py``). R and Shift+R turn the selected figure.
"""

from __future__ import annotations

from typing import Any

from hexcombat.editing import catalogue
from web.board.view import Marks, parse_key
from web.setup.figures import FigureEdits
from web.setup.gear import GearEdits, gear_html
from web.setup.map_picture import MapPictureEdits
from web.setup.portraits import COMMANDS as PORTRAIT_COMMANDS
from web.setup.portraits import PortraitEdits
from web.setup.roster import COMMANDS as ROSTER_COMMANDS
from web.setup.roster import RosterEdits
from web.setup.settings import SettingsForm
from web.ui import forms
from web.ui.dom import bring_into_view, byid, present
from web.ui.html import Markup, el, joined, leaf
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


def figure_fields(rs: dict[str, Any]) -> list[dict[str, Any]]:
    """Name, side, then the ruleset's figure fields (as ``stats.<name>``), for one form."""
    fields: list[dict[str, Any]] = [
        {"name": "name", "label": "Name", "type": "text", "default": ""},
        {"name": "side", "label": "Side", "type": "text", "default": ""},
    ]
    for f in rs["figure_fields"]:
        fields.append({**f, "name": f"stats.{f['name']}"})
    return fields


class Editor(FigureEdits, GearEdits, SettingsForm, MapPictureEdits, RosterEdits, PortraitEdits):
    """The set-up panel and the board taps of set-up mode."""

    def __init__(self, app: Shell) -> None:
        self.app = app
        app.commands.register(COMMANDS, self.on_command, scope="edit")
        app.commands.register(ROSTER_COMMANDS, self.on_roster_command, scope="edit")
        app.commands.register(PORTRAIT_COMMANDS, self.on_portrait_command, scope="edit")
        self.tool = "select"
        self.terrain = ""
        self.form: forms.Form | None = None
        self.settings_form: forms.Form | None = None
        self.showing_settings = False
        self.new_side = ""
        self._drawn: tuple[str, str | None, bool] | None = None
        """What the panel showed when last drawn (tool, selected figure, settings)."""
        self._sides_of: str | None = None
        """The encounter ``new_side`` was chosen in (a new encounter starts at its first side)."""
        self._init_map()

    def reset(self) -> None:
        """Back to the select tool (after opening an encounter or switching modes)."""
        self.tool = "select"
        self.showing_settings = False
        self._drawn = None
        if not self.terrain or self.terrain not in {t["id"] for t in self.app.rs["terrain"]}:
            table = self.app.rs["terrain"]
            self.terrain = table[1]["id"] if len(table) > 1 else table[0]["id"]

    def paint_fill(self) -> str | None:
        """The fill a paint stroke previews, or None when not painting."""
        return self.app.board.terrain_fill(self.terrain) if self.tool == "paint" else None

    def drag_picture(self) -> Any:
        """What a one-pointer drag on the board tells (None: it pans the board)."""
        return self.map_dragged if self.tool == "map" and self.picture is not None else None

    # ---- panel ---------------------------------------------------------------------
    def render(self) -> None:
        """Draw the set-up panel for the current tool and selection."""
        app = self.app
        body = byid("panel-body")
        drawn = (self.tool, app.selected, self.showing_settings)
        top = body.scrollTop  # before the old forms go (the sheet shrinks without them)
        self._drop_forms()
        tools = joined(
            el(
                "button",
                label,
                type="button",
                data_cmd="tool",
                data_tool=t,
                aria_pressed="true" if self.tool == t else "false",
            )
            for t, label in (
                ("select", "Select"),
                ("paint", "Paint"),
                ("add", "Add figure"),
                ("map", "Map picture"),
            )
        )
        # one part: the started fight's hint goes after the whole group, not inside it
        parts: list[str] = [
            el("div", tools, class_="tools", role="group", aria_label="Set-up tool")
        ]
        if self.showing_settings:
            parts.append(self._settings_html())
        elif self.tool == "paint":
            parts.append(self._paint_html())
        elif self.tool == "add":
            parts.append(self._add_html())
        elif self.tool == "map":
            parts.append(self._map_html())
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
        body.innerHTML = "".join(parts)
        if self.showing_settings:
            self._build_settings_forms(body)
        elif self.tool == "select" and app.selected is not None:
            self._build_figure_form(body, app.selected)
        elif self.tool == "map":
            self._build_map_form(body)
        if drawn == self._drawn:  # the same sheet drawn again after an edit stays where it was
            body.scrollTop = top
        self._drawn = drawn
        marked = body.querySelector("[data-focus-here]")
        if present(marked):
            bring_into_view(marked)
        app.mark(Marks())

    def _drop_forms(self) -> None:
        for form in (self.form, self.settings_form):
            if form is not None:
                form.destroy()
        self.form = None
        self.settings_form = None

    def _overview_html(self) -> str:
        figures = self.app.view["figures"]
        rows = joined(
            el(
                "li",
                el(
                    "button",
                    Markup(self.chip_html(f)),
                    el(
                        "span",
                        f["name"],
                        el("br"),
                        el("small", f"{f['side']} · at {_where(f)}", class_="muted"),
                        class_="grow",
                    ),
                    type="button",
                    data_cmd="pick",
                    data_pick=f["id"],
                ),
            )
            for f in figures
        )
        board = self.app.view["board"]
        ending = self.app.view.get("ending") or ""
        return (
            "<h2>Set up</h2>"
            + (el("p", ending, class_="hint problem", data_ending=True) if ending else "")
            + el(
                "p",
                f"{board['width']} by {board['height']} hexes. Tap a figure to edit it, or "
                "choose Paint to draw terrain and Add figure to place new figures.",
                class_="hint",
            )
            + el("h3", f"Figures ({len(figures)})")
            + (
                el("ul", rows, class_="fig-list")
                if rows
                else '<p class="hint">No figures yet: choose “Add figure”, then tap a hex.</p>'
            )
            + '<div class="row"><button type="button" data-cmd="settings">'
            "Encounter settings…</button></div>" + self.roster_html()
        )

    def _paint_html(self) -> str:
        swatches = []
        defs = Markup(byid("board-defs").innerHTML)  # the page's own pattern definitions
        for t in self.app.rs["terrain"]:
            pressed = "true" if t["id"] == self.terrain else "false"
            cost = "impassable" if t.get("move_cost") is None else f"cost {t['move_cost']}"
            fill = self.app.board.terrain_fill(t["id"])
            swatch = el(
                "svg",
                el("defs", defs),
                leaf("rect", width=64, height=30, rx=5, fill=fill, stroke="rgba(0,0,0,.3)"),
                width=64,
                height=30,
                viewBox="0 0 64 30",
                aria_hidden="true",
            )
            swatches.append(
                el(
                    "button",
                    swatch,
                    el("span", t["name"]),
                    el("span", cost, class_="cost"),
                    type="button",
                    data_cmd="terrain",
                    data_terrain_id=t["id"],
                    aria_pressed=pressed,
                    title=t.get("help", ""),
                )
            )
        name = next(t["name"] for t in self.app.rs["terrain"] if t["id"] == self.terrain)
        default = self.app.rs["terrain"][0]["name"]
        return (
            "<h2>Paint terrain</h2>"
            '<p class="hint">Tap or drag across hexes. Two fingers (or the right mouse button) '
            "still pan and zoom.</p>"
            + el("div", joined(swatches), class_="palette", role="group", aria_label="Terrain")
            + el(
                "div",
                el("button", f"Fill all with {name}", type="button", data_cmd="fill"),
                el("button", f"Clear to {default}", type="button", data_cmd="clear"),
                class_="row",
            )
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
        opened = self.app.session.entry_id or self.app.encounter.setup.name
        if self.new_side not in sides or self._sides_of != opened:
            self.new_side = sides[0]
            self._sides_of = opened
        colors = self.app.view.get("sides", {})
        buttons = joined(
            el(
                "button",
                s,
                type="button",
                data_cmd="new-side",
                data_side=s,
                aria_pressed="true" if s == self.new_side else "false",
                style=f"border-color:{colors.get(s, 'var(--border)')}",
            )
            for s in sides
        )
        return (
            "<h2>Add figures</h2>"
            '<p class="hint">Pick a side, then tap an empty hex to place a figure there with '
            "the ruleset's default numbers. Tap the new figure to edit it.</p>"
            + el("div", buttons, class_="row", role="group", aria_label="Side")
            + '<div class="row"><label class="grow">New side '
            '<input id="new-side-name" class="field-select" type="text" autocomplete="off" '
            'placeholder="e.g. Bandits"></label>'
            '<button type="button" data-cmd="add-side">Use</button></div>' + self._last_added_html()
        )

    def _last_added_html(self) -> str:
        f = self._view_figure(self.app.selected) if self.app.selected else None
        if f is None:
            return ""
        return (
            '<h3>Just placed</h3><div class="row">'
            + self.chip_html(f)
            + el("span", f"{f['name']} at {_where(f)}", class_="grow")
            + '<button type="button" data-cmd="edit-figure">Edit</button></div>'
            + self._facing_html(int(f["facing"]))
        )

    def _facing_html(self, facing: int) -> str:
        return (
            '<div class="facing-row">'
            '<button type="button" data-cmd="rotate" data-by="-1" aria-label="Turn left" '
            'title="Turn left (Shift+R)">⟲</button>'
            + el("span", f"Facing {FACING_NAMES[facing]}", class_="grow", id="facing-now")
            + '<button type="button" data-cmd="rotate" data-by="1" aria-label="Turn right" '
            'title="Turn right (R)">⟳</button></div>'
        )

    def _figure_html(self, fid: str) -> str:
        f = self._view_figure(fid)
        if f is None:
            return self._overview_html()
        facing = int(f["facing"])
        figure = self.app.encounter.setup_figure(fid)
        return (
            '<div class="row">'
            + self.chip_html(f)
            + el("h2", f["name"], class_="grow")
            + '<button type="button" data-cmd="deselect" aria-label="Close">✕</button></div>'
            + el("p", f"At {_where(f)}. Tap an empty hex to move it there.", class_="hint")
            + self._facing_html(facing)
            + '<div id="figure-form"></div>'
            + self.portrait_html(figure)
            + gear_html(
                figure,
                catalogue(self.app.encounter.state.data)
                if self.app.rs["carries_equipment"]
                else [],
                self.added_item,
            )
            + '<div class="row">'
            '<button type="button" class="primary" data-cmd="apply-figure">Apply changes</button>'
            '<button type="button" data-cmd="duplicate">Duplicate</button>'
            '<button type="button" class="danger" data-cmd="delete">Delete</button>'
            "</div>"
            '<div class="row"><button type="button" data-cmd="roster-save">'
            "Save to roster</button></div>"
        )

    def _build_figure_form(self, body: Any, fid: str) -> None:
        holder = body.querySelector("#figure-form")
        if not present(holder):
            return
        fig = self.app.encounter.setup_figure(fid)
        values: dict[str, Any] = {"name": fig.name, "side": fig.side}
        values.update({f"stats.{k}": v for k, v in fig.stats.items()})
        self.form = forms.build_form(holder, figure_fields(self.app.rs))
        self.bind_portrait(body, fid)

        for name, value in values.items():
            if name in self.form.fields:
                self.form.set_value(name, value)

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
        elif self.tool == "map":
            self.map_tap(key)
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
            self.map_taps = None
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


__all__ = ["Editor", "figure_fields"]


def _where(f: dict[str, Any]) -> str:
    """Where a view figure stands, in the player's words."""
    return str(f.get("where") or f["position"])
