"""Work the page does after the task that changed something, each piece in a task of its
own, so that no single task holds the main thread long and a tap waiting meanwhile is
answered between them.

A piece is named: asking again for a piece that waits replaces its work and keeps its
place. The pieces run in the order first asked, one per message of a ``MessageChannel``
(a task at once, without the clamping of nested ``setTimeout`` calls). :meth:`LaterTasks.flush`
runs what waits at once, for whatever must see it done first (the page being hidden or
closed, a read of the library).

``<html data-waiting>`` names the pieces waiting, space-separated (empty when none): a test
waits for it to be empty before it reads what they write (the log, the library).
"""

from __future__ import annotations

from collections.abc import Callable

import js  # type: ignore[import-not-found]

from web.ui.dom import proxy


class LaterTasks:
    """Named pieces of work, each run in a later task of its own (``guard`` runs each: an
    error is shown rather than stopping the rest)."""

    def __init__(self, guard: Callable[[Callable[[], object]], None]) -> None:
        self._guard = guard
        self._waiting: dict[str, Callable[[], object]] = {}
        self._channel = js.MessageChannel.new()
        self._channel.port1.onmessage = proxy(lambda _event: self._run_next())

    def soon(self, name: str, work: Callable[[], object]) -> None:
        """Run ``work`` in a later task (in the place of ``name``'s waiting work, if any)."""
        if name not in self._waiting:
            self._channel.port2.postMessage(None)
        self._waiting[name] = work
        self._show()

    def waiting(self, name: str) -> bool:
        """True while ``name``'s work has not run."""
        return name in self._waiting

    def flush(self, name: str | None = None) -> None:
        """Run ``name``'s waiting work now (every waiting piece when ``name`` is None); its
        task, when it comes, finds nothing to do."""
        names = list(self._waiting) if name is None else [name]
        for each in names:
            work = self._waiting.pop(each, None)
            if work is not None:
                self._guard(work)
        self._show()

    def _run_next(self) -> None:
        if self._waiting:
            self.flush(next(iter(self._waiting)))

    def _show(self) -> None:
        js.document.documentElement.dataset.waiting = " ".join(self._waiting)
