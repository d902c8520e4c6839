"""The page's end of the engine's worker: one worker (``web/engine-worker.mjs``), made when
the page first asks it something and kept, and the commands the page sends it
(:mod:`web.engine_boundary`), each answered through a callback once the worker has
answered; the page's main thread never waits for it.

``<html data-engine-worker>`` says ``starting``, ``ready`` (it has answered) or ``failed``;
``window.hexcombatEngine`` counts the commands asked and answered (for tests).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from web.engine_boundary import Answer, read_answer, refused
from web.ui.dom import proxy

WORKER_URL = "./engine-worker.mjs"


class EngineWorker:
    """The engine's worker and the commands waiting for its answer."""

    def __init__(self) -> None:
        self._worker: Any = None
        self._waiting: dict[int, Callable[[Answer], None]] = {}
        self._next = 0
        self._counts = js.Object.new()
        self._counts.asked = 0
        self._counts.answered = 0
        js.window.hexcombatEngine = self._counts

    def ask(self, command: str, answered: Callable[[Answer], None], data: Any = None) -> None:
        """Send ``command`` (serialised by :mod:`web.engine_boundary`) with ``data`` (a JS
        Uint8Array the command names, handed over to the worker: the page's copy is emptied),
        ``answered`` gets the answer (a refusal saying why when the worker cannot start or
        failed)."""
        worker = self._started()
        if worker is None:
            answered(refused("the engine's worker could not start in this browser"))
            return
        self._next += 1
        self._waiting[self._next] = answered
        self._counts.asked += 1
        if data is None:
            worker.postMessage(to_js([self._next, command]))
        else:
            worker.postMessage(to_js([self._next, command, data]), to_js([data.buffer]))

    async def asked(self, command: str, data: Any = None) -> Answer:
        """:meth:`ask`, awaited."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.ask(command, future.set_result, data)
        return await future

    def warm(self) -> None:
        """Start the worker now, before it is asked something (its start takes seconds)."""
        self._started()

    def _started(self) -> Any:
        """The worker, made on first use (None when the browser refuses to make one)."""
        if self._worker is None:
            options = to_js({"type": "module"}, dict_converter=js.Object.fromEntries)
            try:
                self._worker = js.Worker.new(WORKER_URL, options)
            except Exception:  # a browser (or policy) without module workers
                _state("failed")
                return None
            self._worker.onmessage = proxy(self._on_message)
            self._worker.onerror = proxy(self._on_error)
            _state("starting")
        return self._worker

    def _on_message(self, event: Any) -> None:
        data = event.data
        answered = self._waiting.pop(int(data[0]), None)
        text = data[1]
        if text is None:
            _state("failed")
            answer: Answer = refused(f"the engine's worker failed: {data[2]}")
        else:
            _state("ready")
            answer = read_answer(str(text))
        self._counts.answered += 1
        if answered is not None:
            answered(answer)

    def _on_error(self, event: Any) -> None:
        """The worker's script did not load or start: every waiting command is refused."""
        event.preventDefault()
        _state("failed")
        self._worker = None
        waiting, self._waiting = self._waiting, {}
        message = str(getattr(event, "message", "") or "its script did not load")
        for answered in waiting.values():
            answered(refused(f"the engine's worker failed: {message}"))


def _state(state: str) -> None:
    js.document.documentElement.dataset.engineWorker = state


_ENGINE: list[EngineWorker] = []


def engine() -> EngineWorker:
    """The page's one engine worker (its messages' handlers made on first use)."""
    if not _ENGINE:
        _ENGINE.append(EngineWorker())
    return _ENGINE[0]
