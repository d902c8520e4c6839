"""The combat log drawer: one ``#log`` item per event of the applied actions, newest last.

A tap costs the same at 5,000 actions as at 50: the drawer draws the last
:data:`WINDOW` log entries when an encounter opens ("Show earlier" adds the window before
them), appends what an action or redo adds, and removes from the end what an undo takes
back. Only a jump below the drawn window draws a window again, newest first: the last
:data:`SLICE` entries at once, the earlier ones a slice per later task (no task holds the
page long). The filter hides the items of other figures; new items are filtered as they
come.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Encounter
from web.ui.dom import byid, present, proxy
from web.ui.html import Markup, el, joined
from web.ui.words import tagged

WINDOW = 400
"""Log entries drawn when an encounter opens, and added by each "Show earlier"."""
SLICE = 50
"""Log entries of a window drawn in one task."""


class LogDrawer:
    """Keeps ``#log`` in step with an encounter's cursor, drawing only what changed."""

    def __init__(self, units: Any, soon: Callable[[str, Callable[[], object]], None]) -> None:
        self.units = units
        """A callable giving the ruleset's time units (for the "R2P1" stamps)."""
        self._soon = soon
        """Runs named work in a later task (:meth:`web.ui.later_tasks.LaterTasks.soon`)."""
        self.enc: Encounter | None = None
        self.first = 0
        """The first log entry drawn (earlier ones wait behind "Show earlier")."""
        self._window_first = 0
        """The first entry of the window drawn last (slices down to it wait for later tasks)."""
        self.entries = 0
        """Log entries drawn up to (exclusive): the cursor when last drawn."""
        self.events = 0
        """Events of the applied actions, drawn or not (the count on the Log button)."""
        self._scroll: Any = None

    def reset(self) -> None:
        """Forget the drawn encounter: the next :meth:`render` draws a fresh window."""
        self.enc = None

    def render(self, enc: Encounter) -> None:
        """Bring ``#log`` up to ``enc``'s cursor."""
        log = byid("log")
        cursor = enc.cursor
        if enc is not self.enc or cursor < self.first:
            self._window(enc, cursor)
        elif cursor < self.entries:
            self._remove_from(log, cursor)
        elif cursor > self.entries:
            self.events += self._append(log, enc, self.entries, cursor)
            self._announce(enc, self.entries, cursor)
            self._scroll_to_end()
        self.entries = cursor
        byid("log-count").textContent = str(self.events)

    def earlier(self) -> None:
        """Draw the window of entries before the first one drawn ("Show earlier")."""
        if self.enc is None or self.first == 0:
            return
        self._window_first = start = max(0, self.first - WINDOW)
        self._before(start)
        self.first = start
        self._earlier_button()

    def _before(self, start: int) -> None:
        """Draw entries ``start``..:attr:`first` before the items drawn (filtered)."""
        assert self.enc is not None
        log = byid("log")
        before = log.childElementCount
        log.insertAdjacentHTML("afterbegin", self._html(self.enc, start, self.first))
        who = str(byid("log-filter").value)
        if who:
            item = log.firstElementChild
            for _ in range(int(log.childElementCount) - int(before)):
                self._filter_one(item, who)
                item = item.nextElementSibling

    def filter(self) -> None:
        """Show only the events of the figure chosen in the log's filter."""
        for item in js.document.querySelectorAll("#log > li"):
            self._filter_one(item)

    # ---- internals ---------------------------------------------------------------------------
    def _window(self, enc: Encounter, cursor: int) -> None:
        self.enc = enc
        self._window_first = max(0, cursor - WINDOW)
        self.first = max(self._window_first, cursor - SLICE)
        self.events = sum(len(enc.entry_events(i)) for i in range(self.first))
        log = byid("log")
        log.innerHTML = ""
        self.events += self._append(log, enc, self.first, cursor)
        if cursor > self.first:
            self._scroll_to_end()
        self._earlier_button()
        self._slice_soon()

    def _slice_soon(self) -> None:
        if self.first > self._window_first:
            self._soon("log-window", self._slice)

    def _slice(self) -> None:
        """Draw the next slice of the window before the items drawn (their events are
        counted already)."""
        if self.enc is None or self.first <= self._window_first:
            return
        start = max(self._window_first, self.first - SLICE)
        self._before(start)
        self.first = start
        self._earlier_button()
        self._slice_soon()

    def _scroll_to_end(self) -> None:
        """Show the newest item, in the next frame: reading the log's height lays out the
        page, which the frame does anyway (now it would be a second layout in this task)."""
        if self._scroll is None:
            self._scroll = proxy(lambda _time: _scroll_log_to_end())
        js.requestAnimationFrame(self._scroll)

    def _append(self, log: Any, enc: Encounter, start: int, stop: int) -> int:
        """Draw entries ``start``..``stop`` at the end; how many events they have."""
        before = log.childElementCount
        log.insertAdjacentHTML("beforeend", self._html(enc, start, stop))
        added = int(log.childElementCount) - int(before)
        who = str(byid("log-filter").value)
        if who:
            item = log.lastElementChild
            for _ in range(added):
                self._filter_one(item, who)
                item = item.previousElementSibling
        return added

    def _announce(self, enc: Encounter, start: int, stop: int) -> None:
        """What just happened, for a screen reader (``#log-announce`` is a polite live region;
        an opened encounter's whole log is never read out)."""
        said = [event.text for i in range(start, stop) for event in enc.entry_events(i)]
        byid("log-announce").textContent = " ".join(said)

    def _remove_from(self, log: Any, cursor: int) -> None:
        """Remove the items of entries ``cursor`` and later (an undo or a jump back)."""
        item = log.lastElementChild
        while present(item) and int(item.dataset.entry) >= cursor:
            before = item.previousElementSibling
            item.remove()
            self.events -= 1
            item = before

    def _html(self, enc: Encounter, start: int, stop: int) -> str:
        return "".join(
            self._event_html(event.to_json(), i)
            for i in range(start, stop)
            for event in enc.entry_events(i)
        )

    def _earlier_button(self) -> None:
        button = byid("log-earlier")
        button.hidden = self.first == 0
        n = min(WINDOW, self.first)
        button.textContent = f"Show {n} earlier action{'s' if n != 1 else ''}"

    def _filter_one(self, item: Any, who: str | None = None) -> None:
        if who is None:
            who = str(byid("log-filter").value)
        item.hidden = bool(who) and who not in (str(item.dataset.actor), str(item.dataset.target))

    def _event_html(self, e: dict[str, Any], entry: int) -> Markup:
        data = e.get("data") or {}
        when = ""
        if "time" in data:
            units = self.units()
            when = "".join(f"{u[:1].upper()}{n}" for u, n in zip(units, data["time"], strict=False))
        more: list[Markup] = []
        if e.get("rule"):
            more.append(el("div", "Rule ", el("span", e["rule"], class_="rule-id")))
        if e.get("details"):
            more.append(el("ul", joined(el("li", Markup(tagged(d))) for d in e["details"])))
        for roll in e.get("rolls", []):
            faces = ", ".join(str(x) for x in roll.get("faces", []))
            more.append(el("div", f"Rolled {roll.get('expr', '')}: {faces}"))
        body = joined(more) or el("div", "No further details.", class_="muted")
        summary = el(
            "summary", el("span", when, class_="when"), el("span", e["text"], class_="text")
        )
        return el(
            "li",
            el("details", summary, el("div", body, class_="more")),
            class_=f"kind-{e['kind']}",
            data_kind=e["kind"],
            data_actor=e.get("figure") or "",
            data_target=e.get("target") or "",
            data_entry=entry,
        )


def _scroll_log_to_end() -> None:
    log = byid("log")
    log.scrollTop = log.scrollHeight
