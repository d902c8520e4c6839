"""Pointer, wheel and keyboard input on the live board (mixed into
:class:`web.board.view.BoardView`). Handlers only record numbers: one pointer drags (or
paints in the editor), two pointers pinch, the wheel zooms about the pointer, a long press
inspects, a double tap fits, and while the set-up's map picture tool is on one pointer drags
the map picture instead of the board; arrows move a hex cursor, N / Shift+N put it on the next /
previous figure, Enter taps it, Esc cancels, +/- zoom and F fits. What the player did goes to
the board's :class:`~web.board.view.Handlers`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from web.board.camera import MAX_ZOOM, MIN_ZOOM
from web.ui.dom import byid, listen, now_ms, present, proxy

TAP_SLOP_PX = 8.0
DOUBLE_TAP_MS = 320.0
WHEEL_IDLE_MS = 180
LONG_PRESS_MS = 550


class Gestures:
    """What a finger, a mouse, a wheel or a key does to the board."""

    svg: Any
    handlers: Any
    occupant: dict[str, str]
    cursor: str | None
    cursor_figure: str | None
    figure_at_cursor: Any
    paint_fill: str | None
    drag_picture: Callable[[float, float], None] | None
    """Told how far (board units) a one-pointer drag moved the map picture (None: such a
    drag pans the board)."""
    tapped_at: tuple[float, float]
    """The board point of the last tap (the map picture's two-tap alignment reads it)."""
    backdrop: Any
    k: float
    tx: float
    ty: float
    user_moved: bool
    _rect: Any
    _pointers: dict[int, tuple[float, float]]
    _down: dict[str, Any] | None
    _pinch: dict[str, float] | None
    _stroke: list[str] | None
    _last_tap: tuple[float, str, float, float]
    _hover_key: str | None
    _wheel_timer: Any
    _wheel_proxy: Any
    _press_timer: Any
    _press_proxy: Any

    if TYPE_CHECKING:  # the camera's and the board's, which this is mixed in beside

        def _screen(self) -> tuple[float, float]: ...
        def _schedule(self) -> None: ...
        def fit(self, *, whole: bool = False) -> None: ...
        def fit_again(self) -> None: ...
        def zoom_by(self, factor: float, at: tuple[float, float] | None = None) -> None: ...
        def set_moving(self, moving: bool) -> None: ...
        def board_point(self, client_x: float, client_y: float) -> tuple[float, float]: ...
        def hex_at(self, client_x: float, client_y: float) -> str | None: ...
        def hex_node(self, key: str) -> Any: ...
        def _update_hex(self, key: str) -> None: ...
        def set_cursor(self, key: str | None, figure_id: str | None = None) -> None: ...
        def next_figure(self, step: int) -> None: ...
        def move_cursor(self, dcol: int, drow: int) -> None: ...

    def forget_tap(self) -> None:
        """Something else was pressed: the next tap on the board starts afresh (two taps
        with a panel button between them are not a double tap)."""
        self._last_tap = (0.0, "", 0.0, 0.0)

    def _bind(self) -> None:
        svg = self.svg
        listen(svg, "pointerdown", self._on_down)
        listen(svg, "pointermove", self._on_move)
        listen(svg, "pointerup", self._on_up)
        listen(svg, "pointercancel", self._on_cancel)
        listen(svg, "pointerleave", self._on_leave)
        listen(svg, "wheel", self._on_wheel, passive=False)
        listen(svg, "contextmenu", lambda ev: ev.preventDefault())
        listen(svg, "keydown", self._on_key)
        observer = js.ResizeObserver.new(proxy(self._on_resize))
        observer.observe(byid("board-wrap"))

    def _on_resize(self, *_args: Any) -> None:
        self._screen()
        if not self.user_moved:
            self.fit()

    def _hit(self, ev: Any) -> tuple[str | None, str | None]:
        target = ev.target
        if not present(target) or not hasattr(target, "closest"):
            return None, None
        token = target.closest("[data-figure]")
        if present(token):
            return str(token.getAttribute("data-at")), str(token.getAttribute("data-figure"))
        node = target.closest("[data-hex]")
        if present(node):
            key = str(node.getAttribute("data-hex"))
            return key, self.occupant.get(key)
        at = self.hex_at(float(ev.clientX), float(ev.clientY))
        return at, (self.occupant.get(at) if at else None)

    def _on_down(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        x, y = float(ev.clientX), float(ev.clientY)
        self._pointers[pid] = (x, y)
        self.svg.setPointerCapture(pid)
        if self.cursor is not None:
            self.set_cursor(None)
        if len(self._pointers) == 1:
            self._screen()
            key, fid = self._hit(ev)
            button = int(ev.button)
            self._down = {
                "x": x,
                "y": y,
                "t": now_ms(),
                "key": key,
                "fid": fid,
                "tx": self.tx,
                "ty": self.ty,
                "moved": False,
                "pan": button != 0 or (self.paint_fill is None and self.drag_picture is None),
                "picture": button == 0 and self.drag_picture is not None,
            }
            if self.paint_fill is not None and button == 0:
                self._stroke = []
                self._paint_preview(self.hex_at(x, y))
            elif button == 0:
                self._press_timer = js.setTimeout(self._press_proxy, LONG_PRESS_MS)
        elif len(self._pointers) == 2:
            self._cancel_press()
            self._abort_stroke()
            (x1, y1), (x2, y2) = self._pointers.values()
            self._pinch = {
                "d": math.hypot(x2 - x1, y2 - y1) or 1.0,
                "mx": (x1 + x2) / 2,
                "my": (y1 + y2) / 2,
                "k": self.k,
                "tx": self.tx,
                "ty": self.ty,
            }
            if self._down is not None:
                self._down["moved"] = True
            self.set_moving(True)

    def _cancel_press(self) -> None:
        if self._press_timer is not None:
            js.clearTimeout(self._press_timer)
            self._press_timer = None

    def _long_press(self, *_args: Any) -> None:
        self._press_timer = None
        down = self._down
        if down is None or down["moved"] or down["key"] is None or len(self._pointers) != 1:
            return
        down["moved"] = True  # the release is then no tap
        self.handlers.inspect(down["key"], down["fid"])

    def _on_move(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        x, y = float(ev.clientX), float(ev.clientY)
        if pid not in self._pointers:
            if str(ev.pointerType) == "mouse":
                key = self.hex_at(x, y)
                if key != self._hover_key:
                    self._hover_key = key
                    self.handlers.hover(key)
            return
        self._pointers[pid] = (x, y)
        if self._pinch is not None and len(self._pointers) >= 2:
            (x1, y1), (x2, y2) = list(self._pointers.values())[:2]
            p = self._pinch
            k = max(MIN_ZOOM, min(MAX_ZOOM, p["k"] * math.hypot(x2 - x1, y2 - y1) / p["d"]))
            left, top = self._rect[0], self._rect[1]
            m0x, m0y = p["mx"] - left, p["my"] - top
            bx, by = (m0x - p["tx"]) / p["k"], (m0y - p["ty"]) / p["k"]
            mx, my = (x1 + x2) / 2 - left, (y1 + y2) / 2 - top
            self.k, self.tx, self.ty = k, mx - bx * k, my - by * k
            self.user_moved = True
            self._schedule()
            return
        down = self._down
        if down is None:
            return
        if not down["moved"] and math.hypot(x - down["x"], y - down["y"]) > TAP_SLOP_PX:
            down["moved"] = True
            self._cancel_press()
        if self._stroke is not None:
            self._paint_preview(self.hex_at(x, y))
        elif down["moved"] and down["picture"]:
            self.backdrop.shift((x - down["x"]) / self.k, (y - down["y"]) / self.k)
        elif down["moved"] and down["pan"]:
            self.set_moving(True)
            self.tx = down["tx"] + x - down["x"]
            self.ty = down["ty"] + y - down["y"]
            self.user_moved = True
            self._schedule()

    def _on_up(self, ev: Any) -> None:
        pid = int(ev.pointerId)
        self._pointers.pop(pid, None)
        self._cancel_press()
        if self.svg.hasPointerCapture(pid):
            self.svg.releasePointerCapture(pid)
        if self._pointers:
            return
        self.set_moving(False)
        self._pinch = None
        down, self._down = self._down, None
        stroke, self._stroke = self._stroke, None
        if stroke is not None:
            if stroke:
                self.handlers.stroke(stroke)
            return
        if down is not None and down["moved"] and down["picture"] and self.drag_picture:
            self.backdrop.shift(0.0, 0.0)  # the view places it anew (or as it was, if refused)
            self.drag_picture((ev.clientX - down["x"]) / self.k, (ev.clientY - down["y"]) / self.k)
            return
        if down is None or down["moved"] or down["key"] is None:
            return
        t = now_ms()
        last_t, last_key, lx, ly = self._last_tap
        if (
            t - last_t < DOUBLE_TAP_MS
            and last_key == down["key"]
            and math.hypot(down["x"] - lx, down["y"] - ly) < 24
        ):
            self._last_tap = (0.0, "", 0.0, 0.0)
            self.fit_again()
            return
        self._last_tap = (t, down["key"], down["x"], down["y"])
        self.tapped_at = self.board_point(down["x"], down["y"])
        self.handlers.tap(down["key"], down["fid"])

    def _on_cancel(self, ev: Any) -> None:
        self._pointers.pop(int(ev.pointerId), None)
        self._cancel_press()
        if not self._pointers:
            self._abort_stroke()
            if self._down is not None and self._down["picture"]:
                self.backdrop.shift(0.0, 0.0)
            self._down = None
            self._pinch = None
            self.set_moving(False)

    def _on_leave(self, ev: Any) -> None:
        if str(ev.pointerType) == "mouse" and self._hover_key is not None:
            self._hover_key = None
            self.handlers.hover(None)

    def _on_wheel(self, ev: Any) -> None:
        ev.preventDefault()
        self._screen()
        dy = float(ev.deltaY) * (16.0 if int(ev.deltaMode) == 1 else 1.0)
        at = (float(ev.clientX) - self._rect[0], float(ev.clientY) - self._rect[1])
        self.set_moving(True)
        if self._wheel_timer is not None:
            js.clearTimeout(self._wheel_timer)
        self._wheel_timer = js.setTimeout(self._wheel_proxy, WHEEL_IDLE_MS)
        self.zoom_by(math.exp(-dy * 0.0015), at)

    def _wheel_done(self, *_args: Any) -> None:
        self._wheel_timer = None
        if not self._pointers:
            self.set_moving(False)

    def _paint_preview(self, key: str | None) -> None:
        if key is None or self._stroke is None or key in self._stroke:
            return
        self._stroke.append(key)
        if self.paint_fill is not None:
            self.hex_node(key).setAttribute("fill", self.paint_fill)

    def _abort_stroke(self) -> None:
        if self._stroke:
            for key in self._stroke:
                self._update_hex(key)
        self._stroke = None

    def _on_key(self, ev: Any) -> None:
        key = str(ev.key)
        moves = {
            "ArrowUp": (0, -1),
            "ArrowDown": (0, 1),
            "ArrowLeft": (-1, 0),
            "ArrowRight": (1, 0),
        }
        if key in moves and not (ev.ctrlKey or ev.metaKey or ev.altKey):
            ev.preventDefault()
            self.move_cursor(*moves[key])
        elif key in ("Enter", " "):
            ev.preventDefault()
            if self.cursor is None:
                self.move_cursor(0, 0)
            else:
                self.handlers.confirm(self.cursor, self.figure_at_cursor())
        elif key in ("n", "N") and not (ev.ctrlKey or ev.metaKey or ev.altKey):
            ev.preventDefault()
            self.next_figure(-1 if ev.shiftKey else 1)
        elif key == "Escape":
            self.handlers.cancel()
        elif key in ("+", "="):
            self.zoom_by(1.25)
        elif key in ("-", "_"):
            self.zoom_by(0.8)
        elif key in ("f", "F") and not (ev.ctrlKey or ev.metaKey):
            self.fit_again()
