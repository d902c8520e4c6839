"""The panel as a bottom sheet in portrait (mixed into :class:`web.app.App`): peek, half or
full, dragged by its handle or stepped with the keyboard; the board is told which part of it
the sheet covers, so fitting keeps the board clear of it."""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from web.ui.dom import byid, proxy


class BottomSheet:
    """The sheet's height and the board's insets."""

    board: Any

    def _on_sheet_down(self, ev: Any) -> None:
        panel = byid("panel")
        start_y = float(ev.clientY)
        start_h = float(panel.getBoundingClientRect().height)
        handle = byid("sheet-handle")
        handle.setPointerCapture(ev.pointerId)
        moves: list[Any] = []

        def move(e: Any) -> None:
            panel.style.transition = "none"
            panel.style.height = f"{max(60.0, start_h + start_y - float(e.clientY))}px"

        def up(e: Any) -> None:
            handle.removeEventListener("pointermove", moves[0])
            handle.removeEventListener("pointerup", moves[1])
            panel.style.transition = ""
            panel.style.height = ""
            dy = start_y - float(e.clientY)
            total = float(byid("workspace").getBoundingClientRect().height) or 1.0
            if abs(dy) < 6:
                order = ["peek", "half", "full"]
                now = str(panel.dataset.sheet)
                self.set_sheet(order[(order.index(now) + 1) % 3] if now in order else "half")
                return
            share = (start_h + dy) / total
            self.set_sheet("peek" if share < 0.3 else "half" if share < 0.72 else "full")

        moves.extend([proxy(move), proxy(up)])
        handle.addEventListener("pointermove", moves[0])
        handle.addEventListener("pointerup", moves[1])

    def _on_sheet_key(self, ev: Any) -> None:
        order = ["peek", "half", "full"]
        now = str(byid("panel").dataset.sheet)
        i = order.index(now) if now in order else 1
        if str(ev.key) in ("ArrowUp", "Enter", " "):
            ev.preventDefault()
            self.set_sheet(order[min(2, i + 1)] if str(ev.key) == "ArrowUp" else order[(i + 1) % 3])
        elif str(ev.key) == "ArrowDown":
            ev.preventDefault()
            self.set_sheet(order[max(0, i - 1)])

    def set_sheet(self, height: str, *, refit: bool = True) -> None:
        """Bottom sheet height in portrait: peek, half or full (the board refits if untouched)."""
        byid("panel").dataset.sheet = height
        self.update_insets()
        if refit and not self.board.user_moved:
            self.board.fit()

    def sheet_open(self) -> None:
        """Make sure the bottom sheet shows its content, keeping the selected figure in view."""
        if str(byid("panel").dataset.sheet) == "peek":
            self.set_sheet("half", refit=False)
            key = self.board.selected_key()
            if key is not None:
                self.board.keep_visible(key)

    def update_insets(self) -> None:
        """Tell the board which part of it a bottom sheet covers (for fitting)."""
        panel = byid("panel")
        overlay = str(js.getComputedStyle(panel).position) == "absolute"
        if overlay:
            sheet = {"peek": 92.0, "half": 0.46, "full": 0.46}.get(str(panel.dataset.sheet), 0.46)
            height = float(byid("workspace").getBoundingClientRect().height)
            covered = sheet if sheet > 1 else height * sheet
        else:
            covered = 0.0
        # with a bottom sheet the zoom buttons sit at the top left: fit the board beside them
        tools = float(byid("board-tools").getBoundingClientRect().right) if overlay else 0.0
        left = tools - float(byid("board-wrap").getBoundingClientRect().left) + 4 if tools else 0.0
        self.board.insets = (0.0, 0.0, covered, max(0.0, left))
