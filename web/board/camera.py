"""Pan and zoom of the live board (mixed into :class:`web.board.view.BoardView`): one
``transform`` attribute, written at most once per animation frame; fit to the free part of
the screen (to finger-sized tokens on a touch screen), keep a hex in view, zoom about a
point, plain colours while the view is far out.

While a finger, mouse or wheel gesture moves the view, the board as drawn when it began is
moved and scaled whole by a CSS transform on the ``<svg>`` (the compositor's work: no hex and
no map picture is painted again per frame); the gesture's end draws the board with the camera
it reached, so the camera afterwards is the one the gesture made, frame by frame or not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from web.board.units import APOTHEM, HEX, TOKEN_R, TOUCH_FIT_PX, TOUCH_TOKEN_PX, parse_key

MIN_ZOOM, MAX_ZOOM = 0.08, 6.0
FAR_PX = 12.0
"""Below this hex size on screen, patterns, costs and coordinates are too small to read."""


def coarse_pointer() -> bool:
    """True on a touch screen (the primary pointer is a finger)."""
    return bool(js.matchMedia("(pointer: coarse)").matches)


def centred(start: float, free: float, size: float, focus: float) -> float:
    """Offset that centres a board of screen ``size`` in ``free`` pixels from ``start``; a
    board larger than that is centred on ``focus`` but never leaves a gap at either edge."""
    if size <= free:
        return start + (free - size) / 2
    offset = start + free / 2 - focus
    return min(start, max(start + free - size, offset))


class Camera:
    """The board's view transform: screen = board * k + t."""

    svg: Any
    view_g: Any
    layout: Any
    size: tuple[float, float]
    insets: tuple[float, float, float, float]
    k: float
    tx: float
    ty: float
    user_moved: bool
    finger_fit: bool
    fitted_insets: tuple[float, float, float, float]
    index: dict[str, int]
    tokens: dict[str, list[Any]]
    handlers: Any
    _rect: Any
    _frame_pending: bool
    _frame_proxy: Any
    _held: tuple[float, float, float] | None
    """The camera (k, tx, ty) the board is drawn with while a gesture moves it as a whole
    (None: no gesture)."""
    _drawn: tuple[float, float, float]
    """The camera (k, tx, ty) the view's ``transform`` attribute was last written with."""
    _far: bool

    if TYPE_CHECKING:  # the board's, which this is mixed into

        def selected_key(self) -> str | None: ...

    def keep_visible(self, key: str) -> None:
        """Pan just enough that hex ``key`` is on screen, clear of the panels."""
        rect = self._screen()
        x, y = self.layout.to_pixel(parse_key(key))
        sx, sy = x * self.k + self.tx, y * self.k + self.ty
        pad = HEX * self.k * 1.5
        top, right, bottom, left = self.insets
        dx = dy = 0.0
        if sx < left + pad:
            dx = left + pad - sx
        elif sx > rect[0] - right - pad:
            dx = rect[0] - right - pad - sx
        if sy < top + pad:
            dy = top + pad - sy
        elif sy > rect[1] - bottom - pad:
            dy = rect[1] - bottom - pad - sy
        if dx or dy:
            self.tx += dx
            self.ty += dy
            self._schedule()

    def _screen(self) -> tuple[float, float]:
        """The board's size on the page (and its place, in ``_rect``); during a gesture, as it
        was when the gesture began (the moved ``<svg>`` measures where it is shown)."""
        if self._held is None or self._rect is None:
            rect = self.svg.getBoundingClientRect()
            self._rect = (float(rect.left), float(rect.top), float(rect.width), float(rect.height))
        return (self._rect[2], self._rect[3])

    def fit(self, *, whole: bool = False, screen: tuple[float, float] | None = None) -> None:
        """Zoom and centre so the whole board shows in the free part of the screen (``screen``:
        its size as measured before the board was written, so fitting forces no layout of
        the new board). On a touch screen a board with figures too big for fingers is fitted
        to finger-sized tokens instead, centred on the figures, unless ``whole``."""
        w, h = screen or self._screen()
        top, right, bottom, left = self.insets
        free_w, free_h = max(w - left - right, 50.0), max(h - top - bottom, 50.0)
        bw, bh = self.size
        if bw <= 0 or bh <= 0:
            return
        k = min(free_w / bw, free_h / bh)
        small = 2 * TOKEN_R * k < TOUCH_FIT_PX
        self.finger_fit = coarse_pointer() and small and bool(self.tokens) and not whole
        if self.finger_fit:  # too small for fingers
            k = TOUCH_TOKEN_PX / (2 * TOKEN_R)
        self.k = max(MIN_ZOOM, min(MAX_ZOOM, k))
        cx, cy = self._focus_point(free_w / self.k, free_h / self.k)
        self.tx = centred(left, free_w, bw * self.k, cx * self.k)
        self.ty = centred(top, free_h, bh * self.k, cy * self.k)
        self.user_moved = False
        self.fitted_insets = self.insets
        self._apply()

    def fit_again(self) -> None:
        """The Fit button, F and a double tap: fit; pressed again on a board fitted for fingers
        and untouched since, show the whole board (Fit never does nothing). A whole board the
        sheet has grown over since is fitted whole again above it (its lower figures were
        under the sheet)."""
        untouched = not self.user_moved
        covered = self.insets != self.fitted_insets and not self.finger_fit
        self.fit(whole=(self.finger_fit and untouched) or (covered and untouched))

    def _focus_point(self, span_w: float, span_h: float) -> tuple[float, float]:
        """Board point to centre when the board is larger than the screen (``span_w`` x
        ``span_h`` board units show): the selected figure, else the middle of all figures when
        they fit together, else the first figure, else the middle of the board."""
        key = self.selected_key()
        keys = [key] if key else [str(t[3][1]) for t in self.tokens.values() if t[3]]
        if not keys:
            return (self.size[0] / 2, self.size[1] / 2)
        xs, ys = zip(*(self.layout.to_pixel(parse_key(k)) for k in keys), strict=True)
        pad = 4 * HEX
        if max(xs) - min(xs) + pad <= span_w and max(ys) - min(ys) + pad <= span_h:
            return ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        return (xs[0], ys[0])

    def zoom_by(self, factor: float, at: tuple[float, float] | None = None) -> None:
        """Zoom by ``factor`` about a screen point (default: the centre of the board area)."""
        if at is None:
            w, h = self._screen()
            at = (w / 2, h / 2)
        k = max(MIN_ZOOM, min(MAX_ZOOM, self.k * factor))
        bx, by = (at[0] - self.tx) / self.k, (at[1] - self.ty) / self.k
        self.k = k
        self.tx, self.ty = at[0] - bx * k, at[1] - by * k
        self.user_moved = True
        self._schedule()

    def _schedule(self) -> None:
        if not self._frame_pending:
            self._frame_pending = True
            js.requestAnimationFrame(self._frame_proxy)

    def _frame(self, _time: Any = None) -> None:
        self._frame_pending = False
        self._apply()

    def _apply(self) -> None:
        held = self._held
        if held is not None:  # screen = (screen as drawn) * s + (dx, dy)
            s = self.k / held[0]
            self.svg.style.transform = (
                f"translate({self.tx - held[1] * s:.2f}px, {self.ty - held[2] * s:.2f}px) "
                f"scale({s:.5f})"
            )
            self.handlers.viewed()
            return
        camera = (self.k, self.tx, self.ty)
        if camera != self._drawn:
            self._drawn = camera
            self.view_g.setAttribute(
                "transform", f"translate({self.tx:.1f} {self.ty:.1f}) scale({self.k:.4f})"
            )
        far = self.k * HEX < FAR_PX
        if far != self._far:
            self._far = far
            self.svg.classList.toggle("far", far)
            self.svg.classList.toggle("plain", far)
        self.handlers.viewed()

    def set_moving(self, moving: bool) -> None:
        """A gesture begins (the board as drawn now is moved whole until it ends) or ends (the
        board is drawn with the camera the gesture reached, in the frame the CSS transform
        goes)."""
        if moving == (self._held is not None):
            return
        style = self.svg.style
        # a focus ring drawn around the moved board repaints the whole board every frame
        self.svg.classList.toggle("moving", moving)
        if moving:
            self._screen()
            self._held = self._drawn
            style.transformOrigin = "0 0"
            style.willChange = "transform"
            return
        self._held = None
        for name in ("transform", "transform-origin", "will-change"):
            style.removeProperty(name)
        self._apply()

    def hex_box(self, key: str) -> tuple[float, float, float, float]:
        """Where hex ``key`` is on the page (top, bottom, left, right) once the view's pending
        pan or zoom is drawn: what a token standing there covers, even while it glides."""
        self._screen()
        x, y = self.layout.to_pixel(parse_key(key))
        cx, cy = self._rect[0] + self.tx + x * self.k, self._rect[1] + self.ty + y * self.k
        return (cy - APOTHEM * self.k, cy + APOTHEM * self.k, cx - HEX * self.k, cx + HEX * self.k)

    def board_point(self, client_x: float, client_y: float) -> tuple[float, float]:
        """The board point (in the board's units) under a screen point."""
        if self._rect is None:
            self._screen()
        left, top = self._rect[0], self._rect[1]
        return (client_x - left - self.tx) / self.k, (client_y - top - self.ty) / self.k

    def hex_at(self, client_x: float, client_y: float) -> str | None:
        """The hex under a screen point (None when off the board)."""
        bx, by = self.board_point(client_x, client_y)
        key = str(self.layout.from_pixel(bx, by))
        return key if key in self.index else None
