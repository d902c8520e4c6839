"""A guided first fight: three steps pointed out on the board, for a first visit.

1. a figure that can act now is ringed: tap it;
2. a hex it can reach is ringed: tap it, then press the panel's button (or open an action);
3. end the step with Next, then tap an enemy and attack it.

The guide reads where it is from the session and the engine's views (a selection, an action
logged since it began, an event with a target since it began); it never acts itself.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat.view import reach_view
from web.board.view import Marks
from web.ui.dom import byid, present
from web.ui.html import el, joined

STEPS = (
    "Tap the ringed figure: it can act now. Its numbers and actions open in the panel.",
    "Tap a ringed hex it can reach, then press the button in the panel to carry it out "
    "(nothing moves before that).",
    "Press {next} (top bar) when everyone is done; then select a figure, tap an enemy, choose "
    "Attack and Roll. The chance is shown before you roll.",
)
TOAST_GAP = 8
"""Pixels between the guide's box and a message shown below it (messages never cover it)."""


class Guide:
    """The guide's state: on or off, and the log length when it began."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.active = False
        self.start_cursor = 0
        self.shown_step = 0
        """The step last drawn: a new step pans its ringed hex into view once."""

    def start(self) -> None:
        """Begin at step 1 from the encounter as it is now."""
        self.active = True
        self.shown_step = 0
        self.start_cursor = self.app.encounter.cursor
        self.app.select(None)

    def stop(self) -> None:
        """Put the guide away."""
        self.active = False
        self.render()

    def step(self) -> int:
        """The step the player is at (1-3), or 4 when the guided turn is done."""
        enc = self.app.encounter
        if enc.cursor > self.start_cursor:
            for i in range(self.start_cursor, enc.cursor):
                if any(e.target is not None for e in enc.entry_events(i)):
                    return 4
            return 3
        return 2 if self.app.selected is not None else 1

    def hexes(self) -> list[str]:
        """The hexes the current step points at."""
        app = self.app
        view = app.view
        figures = [f for f in view.get("figures", []) if not f.get("out")]
        step = self.step()
        if step == 1:
            enc = app.encounter
            ready = [f for f in figures if enc.legal_actions(f["id"])]
            return [str(ready[0]["position"])] if ready else []
        if step == 2 and app.selected is not None:
            reach = reach_view(app.encounter, app.selected)
            if not reach:
                return []
            far = max(reach.items(), key=lambda kv: (kv[1], kv[0]))
            return [far[0]]
        if step == 3:
            mine = next((f for f in figures if f["id"] == app.selected), None)
            side = mine["side"] if mine else (figures[0]["side"] if figures else "")
            return [str(f["position"]) for f in figures if f["side"] != side]
        return []

    def marks(self, marks: Marks) -> None:
        """Add the guide's rings to the board's highlights."""
        if self.active and self.app.mode == "play":
            marks.guide = self.hexes()

    def render(self) -> None:
        """The guide's box over the board: the step, its words, and Close."""
        box = byid("guide")
        wrap = byid("board-wrap")
        if not self.active or self.app.mode != "play":
            box.hidden = True
            wrap.removeAttribute("data-guided")
            return
        step = self.step()
        if step > len(STEPS):
            words = "That is a whole turn. Play on, undo anything, or open How to play in the menu."
            head = "Well done"
        else:
            words = STEPS[step - 1].format(next=self.next_words())
            head = f"Step {step} of {len(STEPS)}"
        box.dataset.guideStep = str(step)
        if step != self.shown_step:
            self.shown_step = step
            ringed = self.hexes()
            if ringed:
                self.app.board.keep_visible(ringed[0])
        close = el(
            "button", "✕", type="button", data_cmd="guide-close", aria_label="Close the guide"
        )
        box.innerHTML = joined(
            [el("div", el("strong", head), " ", el("span", words), class_="grow"), close]
        )
        box.hidden = False
        # messages (an action's "Undo", "Opened ...") go below the box, never over its words
        wrap.dataset.guided = ""
        below = int(box.offsetTop) + int(box.offsetHeight) + TOAST_GAP
        wrap.style.setProperty("--guide-bottom", f"{below}px")

    @staticmethod
    def next_words() -> str:
        """The step button's words as the player sees them at this size ("Finish: Movement"
        on a wide screen, "Next" on a phone)."""
        button = js.document.querySelector('#turn-tracker [data-action="next_step"]')
        text = str(button.innerText).replace("▸", "").strip() if present(button) else ""
        return f"“{text}”" if text else "the step's button"
