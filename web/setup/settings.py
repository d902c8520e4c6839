"""The encounter's settings in the set-up panel (mixed into :class:`web.setup.panel.Editor`):
name, board size and the ruleset's options with their gap ids, applied in one undoable edit;
the engine's problems are shown beside their fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexcombat import InvalidDocumentError
from web.ui import forms
from web.ui.shell import Shell

SIZE_LIMIT = 200
"""The largest board side the settings offer."""


class SettingsForm:
    """The settings forms (basics and rule options)."""

    app: Shell
    form: forms.Form | None
    settings_form: forms.Form | None
    showing_settings: bool

    if TYPE_CHECKING:  # the editor's, which this is mixed into

        def render(self) -> None: ...

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
        fields: list[dict[str, Any]] = [
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
