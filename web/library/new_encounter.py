"""The library panel's new-encounter form (mixed into
:class:`web.library.panel.LibraryPanel`): name, rules, board size, then the chosen ruleset's
options with their gap ids (the ruleset's module is imported when the form shows it); the
engine's problems are shown beside their fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexcombat.document import MAX_BOARD
from hexcombat.encounter import Encounter
from hexcombat.errors import InvalidDocumentError
from hexcombat.rulesets import get_ruleset
from hexcombat.view import ruleset_view
from web.library.storage import Library, LibraryError
from web.ui.forms import Form, build_form
from web.ui.nodes import present

DEFAULT_SIZE = (12, 10)
"""A new board's width and height in hexes."""


class NewEncounterForm:
    """New encounter: the form, Create and Cancel."""

    library: Library
    rulesets: list[dict[str, Any]]
    root: Any
    current_id: str | None
    on_open: Callable[[str, Encounter], None]
    _base_form: Form | None
    _options_form: Form | None

    if TYPE_CHECKING:  # the panel's, which this is mixed into

        def _slot(self, name: str) -> Any: ...
        def refresh(self) -> None: ...
        def toast(
            self, text: str, action: str = "", on_action: Callable[[], None] | None = None
        ) -> None: ...

    def _cmd_new(self, _: str) -> None:
        slot = self._slot("new")
        if not slot.hidden:
            slot.querySelector("input").focus()
            return
        slot.innerHTML = (
            '<h3 id="hc-lib-new-title">New encounter</h3><div data-slot="new-base"></div>'
            # closed: the defaults stand, and Create is a few Tabs from the board's size
            '<details class="hc-lib-options" data-options><summary>Rule options '
            '<span class="muted" data-options-count></span></summary>'
            '<div data-slot="new-options"></div></details>'
            '<p class="hint problem" data-ending role="status" hidden></p>'
            '<div class="hc-lib-buttons">'
            '<button type="button" class="primary" data-lib="create">Create</button>'
            '<button type="button" class="hc-secondary" data-lib="cancel">Cancel</button></div>'
        )
        choices = [{"value": r["id"], "label": r["name"]} for r in self.rulesets]
        width, height = DEFAULT_SIZE
        fields = [
            {"name": "name", "label": "Name", "type": "text", "default": "New encounter"},
            {
                "name": "ruleset",
                "label": "Rules",
                "type": "choice",
                "choices": choices,
                "default": choices[0]["value"],
                "help": str(self.rulesets[0]["summary"]),
            },
            {
                "name": "width",
                "label": "Board width (hexes)",
                "type": "int",
                "minimum": 1,
                "maximum": MAX_BOARD,
                "default": width,
            },
            {
                "name": "height",
                "label": "Board height (hexes)",
                "type": "int",
                "minimum": 1,
                "maximum": MAX_BOARD,
                "default": height,
            },
        ]
        self._base_form = build_form(
            slot.querySelector('[data-slot="new-base"]'), fields, on_change=self._new_changed
        )
        self._show_options(str(choices[0]["value"]))
        slot.hidden = False
        slot.querySelector("input").focus()
        slot.querySelector("input").select()

    def _show_options(self, ruleset_id: str) -> None:
        """The chosen ruleset's summary under its field, and a form of its options."""
        if self._options_form is not None:
            self._options_form.destroy()
        view = ruleset_view(get_ruleset(ruleset_id))
        summary = self._slot("new").querySelector('[data-field="ruleset"] .hc-help')
        if present(summary):
            summary.textContent = str(view["summary"])
        holder = self._slot("new").querySelector('[data-slot="new-options"]')
        self._options_form = build_form(
            holder,
            view["options"],
            path_prefix="ruleset.options.",
            on_change=lambda form, _name: self._say_ending(ruleset_id, form),
        )
        self._say_ending(ruleset_id, self._options_form)
        box = holder.closest("details")
        box.hidden = not view["options"]
        count = box.querySelector("[data-options-count]")
        count.textContent = f"({len(view['options'])}: the defaults unless changed)"

    def _say_ending(self, ruleset_id: str, form: Form) -> None:
        """Say before Create when a fight under the chosen options cannot end, and why."""
        ruleset = get_ruleset(ruleset_id)
        note = ruleset.ending_note({**ruleset.default_options(), **form.read()[0]})
        line = self._slot("new").querySelector("[data-ending]")
        if present(line):
            line.textContent = note
            line.hidden = not note

    def _new_changed(self, form: Form, name: str) -> None:
        if name == "ruleset":
            values, _ = form.read()
            if "ruleset" in values:
                self._show_options(str(values["ruleset"]))

    def _cmd_cancel(self, _: str) -> None:
        for form in (self._base_form, self._options_form):
            if form is not None:
                form.destroy()
        self._base_form = self._options_form = None
        slot = self._slot("new")
        slot.hidden = True
        slot.innerHTML = ""
        self.root.querySelector('[data-lib="new"]').focus()

    def _cmd_create(self, _: str) -> None:
        base, options = self._base_form, self._options_form
        if base is None or options is None:
            return
        base.clear_problems()
        options.clear_problems()
        try:
            values = base.values()
            if options.read()[1]:  # an option's problem in view
                options.element.closest("details").open = True
            chosen = options.values()
        except InvalidDocumentError:
            return
        try:
            entry, encounter = self.library.create(
                str(values["ruleset"]),
                int(values["width"]),
                int(values["height"]),
                name=str(values["name"]).strip(),
                options=chosen,
            )
        except InvalidDocumentError as exc:
            prefix = "ruleset.options."
            for_options = [p for p in exc.problems if p.path.startswith(prefix)]
            rest = options.show_problems(for_options)
            if for_options:  # the options' problems in view
                options.element.closest("details").open = True
            base.show_problems([p for p in exc.problems if p not in for_options] + rest)
            return
        except (LibraryError, ValueError) as exc:
            base.show_problems([str(exc)])
            return
        self._cmd_cancel("")
        self.library.remember(entry.id)
        self.current_id = entry.id
        self.refresh()
        self.toast(f"Created “{entry.name}”.")
        self.on_open(entry.id, encounter)
