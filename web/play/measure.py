"""The measure tool: tap two hexes for the distance, line of sight with its reason, and the
range band where the ruleset has bands. Everything measured comes from the engine
(:func:`hexcombat.view.measure_view`); this module only keeps the two taps and shows them.

Reach it with the ruler button on the board's toolbar or the M key; Esc or the button again
puts it away.
"""

from __future__ import annotations

from typing import Any

from hexcombat.view import measure_view
from web.board.view import Marks, friendly, parse_key
from web.ui.dom import byid
from web.ui.html import el, joined


class Measure:
    """Two taps on the board, measured by the engine."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.active = False
        self.ends: list[str] = []
        self.result: dict[str, Any] | None = None

    def toggle(self) -> None:
        """Switch the tool on or off (its readout and the toolbar button follow)."""
        self.active = not self.active
        self.ends = []
        self.result = None
        self.render()

    def tap(self, key: str) -> None:
        """A tapped hex: the first end, the second (then measure), or a fresh start."""
        if len(self.ends) >= 2:
            self.ends = []
            self.result = None
        self.ends.append(key)
        if len(self.ends) == 2:
            a, b = (parse_key(k) for k in self.ends)
            self.result = measure_view(self.app.encounter, a, b, self.app.selected)
        self.render()
        self.app.render_panel()

    def marks(self, marks: Marks) -> None:
        """Add the tool's ends and its line of sight to the board's highlights."""
        if not self.active:
            return
        marks.measure = list(self.ends)
        if self.result is not None:
            marks.sight = self.result

    def render(self) -> None:
        """The readout over the board and the toolbar button's pressed state."""
        box = byid("measure-info")
        button = byid("measure-button")
        button.setAttribute("aria-pressed", "true" if self.active else "false")
        if not self.active:
            box.hidden = True
            box.innerHTML = ""
            return
        result = self.result
        if result is None:
            first = f" from {friendly(self.ends[0])}" if self.ends else ""
            which = "second" if self.ends else "first"
            text = f"Measure{first}: tap the {which} hex."
            readout = el("span", text, class_="grow", data_measure="waiting")
        else:
            band = result.get("band")
            readout = el(
                "div",
                el("strong", f"{result['from_label']} → {result['to_label']}: {result['head']}"),
                el("span", band, data_band=True) if band else None,
                el("div", "Tap another hex to measure again.", class_="muted"),
                class_="grow",
                data_measure="done",
                data_distance=result["distance"],
                data_clear="true" if result["clear"] else "false",
            )
        stop = el("button", "✕", type="button", data_cmd="measure", aria_label="Stop measuring")
        box.innerHTML = joined([readout, stop])
        box.hidden = False
