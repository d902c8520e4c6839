"""Work the page does after the task that changed something, each piece in a task of its
own, so that no single task holds the main thread long and a tap waiting meanwhile is
answered between them.

A piece is named: asking again for a piece that waits replaces its work and keeps its
place. The pieces run in the order first asked, one per message of a ``MessageChannel``
(a task at once, without the clamping of nested ``setTimeout`` calls). :meth:`LaterTasks.flush`
runs what waits at once, for whatever must see it done first (the page being hidden or
closed, a read of the library). :meth:`LaterTasks.after_paint` waits for the page's next
two paints before it asks for its task: what a tap changed at once (a lifted token) is
painted before the work that follows it.

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
        self._painting: dict[str, Callable[[], object]] = {}
        """Pieces asked for after the next paints, not yet in the queue."""
        self._channel = js.MessageChannel.new()
        self._channel.port1.onmessage = proxy(lambda _event: self._run_next())
        self._painted = proxy(lambda _time: self._queue_painting())
        self._next_frame = proxy(lambda _time: js.requestAnimationFrame(self._painted))

    def soon(self, name: str, work: Callable[[], object]) -> None:
        """Run ``work`` in a later task (in the place of ``name``'s waiting work, if any)."""
        self._painting.pop(name, None)
        if name not in self._waiting:
            self._channel.port2.postMessage(None)
        self._waiting[name] = work
        self._show()

    def after_paint(self, name: str, work: Callable[[], object]) -> None:
        """Run ``work`` in a task after the page's next paints (in the place of ``name``'s
        waiting work, if any): the frame that the task asking it drew is painted first, and
        the events that follow it in one more frame (a tap's click) are answered before."""
        if name in self._waiting:
            self._waiting[name] = work
            return
        if not self._painting:  # the frame after next: the input that follows a tap (its
            js.requestAnimationFrame(self._next_frame)  # click) is taken before the work
        self._painting[name] = work
        self._show()

    def _queue_painting(self) -> None:
        """The second frame is about to be painted: each piece waiting for it gets its task
        (a message posted now is taken after the paint)."""
        painting, self._painting = self._painting, {}
        for name, work in painting.items():
            self.soon(name, work)

    def waiting(self, name: str) -> bool:
        """True while ``name``'s work has not run."""
        return name in self._waiting or name in self._painting

    def flush(self, name: str | None = None) -> None:
        """Run ``name``'s waiting work now (every waiting piece when ``name`` is None); its
        task, when it comes, finds nothing to do."""
        names = [*self._waiting, *self._painting] if name is None else [name]
        for each in names:
            work = self._waiting.pop(each, None) or self._painting.pop(each, None)
            if work is not None:
                self._guard(work)
        self._show()

    def _run_next(self) -> None:
        if self._waiting:
            self.flush(next(iter(self._waiting)))

    def _show(self) -> None:
        js.document.documentElement.dataset.waiting = " ".join([*self._waiting, *self._painting])
