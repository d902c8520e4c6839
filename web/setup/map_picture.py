"""Set-up's *Map picture* tool (mixed into :class:`web.setup.panel.Editor`): the GM's own map
under the board.

A PNG, JPEG or WebP file (or a tablet camera's photo of a printed map) goes into the page's
picture store (``web/library/pictures.py``; refused with the reason before anything is
written), is decoded by the browser, drawn smaller (at most :data:`FINDER_SIDE` px on its long
side) and handed to the engine's grid finder (``hexcombat.map_grid``) in the engine's worker
(``web/engine_client.py``; the page stays free while it looks), whose proposal (hex size,
orientation, offset, board size) aligns it. The GM corrects it by dragging the picture
with one finger (two still pan and zoom) or by tapping the centres of two printed hexes a known
distance apart (``MapPicture.two_taps``), and chooses how painted terrain shows over it. Every
change is one undoable set-up edit (``Encounter.with_setup(picture=...)``). The engine calls
of the map picture are all here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat.geometry import distance
from hexcombat.map_grid import GridProposal, NoGrid
from hexcombat.map_picture import MEDIA_TYPES, TERRAIN_SHOWN, MapPicture
from web.board.units import HEX, parse_key
from web.engine_boundary import find_grid_command, found_grid
from web.engine_client import engine
from web.library.pictures import PictureRefusedError, media_type
from web.ui import forms
from web.ui.dom import byid, listen, now_ms
from web.ui.html import el
from web.ui.shell import Shell

FINDER_SIDE = 1024
"""The long side, in pixels, of the smaller copy the grid finder reads."""
TERRAIN_WORDS = {"tint": "Tint", "outline": "Outline", "hidden": "Hidden"}
"""How painted terrain shows over the picture (``MapPicture.terrain``), as the panel says it."""


class MapPictureEdits:
    """The map picture tool: choose, find the grid, align by dragging or two taps."""

    app: Shell
    tool: str
    form: forms.Form | None
    render: Callable[[], None]

    def _init_map(self) -> None:
        self.app.commands.register(
            (
                "map-choose",
                "map-photo",
                "map-taps",
                "map-apply-taps",
                "map-terrain",
                "map-fit-board",
                "map-remove",
            ),
            self.map_command,
            scope="edit",
        )
        self.map_found = ""
        """What the grid finder said of the last picture taken (its proposal, or why none)."""
        self.map_board: tuple[int, int] | None = None
        """The board size in hexes the finder proposed for the last picture."""
        self.map_taps: list[tuple[float, float]] | None = None
        """Board points tapped while aligning by two taps (None: not aligning)."""
        self.map_tapped: list[str] = []
        """The hexes of those taps."""

    @property
    def picture(self) -> MapPicture | None:
        """The open encounter's map picture."""
        return self.app.encounter.setup.picture

    # ---- panel -------------------------------------------------------------------------
    def _map_html(self) -> str:
        picture = self.picture
        accept = ",".join(MEDIA_TYPES)
        parts = [
            "<h2>Map picture</h2>",
            '<p class="hint">Your own map under the hexes: a PNG, JPEG or WebP file, or a '
            "photo of a printed map laid flat. The app looks for its hex grid.</p>",
            '<div class="row wrap">'
            '<button type="button" class="primary" data-cmd="map-choose">Choose a picture…</button>'
            '<button type="button" data-cmd="map-photo">Take a photo…</button></div>',
            el("input", type="file", accept=accept, data_map_file=True, hidden=True),
            el(
                "input",
                type="file",
                accept=accept,
                capture="environment",
                data_map_photo=True,
                hidden=True,
            ),
        ]
        if self.map_found:
            parts.append(el("p", self.map_found, class_="hint", data_map_found=True))
        if picture is None:
            return "".join(parts)
        parts.append(self._alignment_html(picture))
        parts.append(self._taps_html())
        parts.append(self._terrain_html(picture))
        return "".join(parts)

    def _alignment_html(self, picture: MapPicture) -> str:
        """The picture's alignment in words, the board size it proposes, how to drag it."""
        parts: list[str] = []
        pointed = picture.orientation == "pointed"
        turn = "pointed tops (turned a quarter)" if pointed else "flat tops"
        parts.append(
            el(
                "p",
                f"{picture.width} by {picture.height} px, hexes of {picture.hex_size:.1f} px "
                f"with {turn}; the first hex's centre at {picture.offset[0]:.0f}, "
                f"{picture.offset[1]:.0f} px.",
                data_map_alignment=f"{picture.hex_size:.2f} {picture.offset[0]:.1f} "
                f"{picture.offset[1]:.1f} {picture.orientation}",
            )
        )
        if self.map_board is not None and self.map_board != self._board_size():
            cols, rows = self.map_board
            parts.append(
                el(
                    "div",
                    el(
                        "button",
                        f"Make the board {cols} by {rows} hexes, as the picture",
                        type="button",
                        data_cmd="map-fit-board",
                    ),
                    class_="row",
                )
            )
        parts.append(
            '<p class="hint">Drag the picture with one finger (or the mouse) to move it under '
            "the hexes; two fingers still pan and zoom.</p>"
        )
        return "".join(parts)

    def _taps_html(self) -> str:
        """Aligning by two taps: the button, which tap is next, or how far apart they are."""
        parts: list[str] = []
        if self.map_taps is None:
            parts.append(
                '<div class="row"><button type="button" data-cmd="map-taps">'
                "Align by two taps…</button></div>"
            )
        elif len(self.map_taps) < 2:
            which = "a printed hex" if not self.map_taps else "another, in a straight line"
            parts.append(
                el(
                    "p",
                    f"Tap the centre of {which}.",
                    class_="hint",
                    data_map_taps=len(self.map_taps),
                )
                + '<div class="row"><button type="button" data-cmd="map-taps">Cancel</button>'
                "</div>"
            )
        else:
            parts.append(
                '<p class="hint" data-map-taps="2">How many hexes apart are the two printed '
                'hexes?</p><div id="map-taps-form"></div><div class="row">'
                '<button type="button" class="primary" data-cmd="map-apply-taps">Align</button>'
                '<button type="button" data-cmd="map-taps">Cancel</button></div>'
            )
        return "".join(parts)

    def _terrain_html(self, picture: MapPicture) -> str:
        """How painted terrain shows over the picture, and removing it."""
        parts: list[str] = []
        parts.append(
            "<h3>Painted terrain over the picture</h3>"
            '<p class="hint">A see-through tint, its outline only, or not shown at all (the '
            "rules still use it).</p>"
        )
        parts.append('<div class="tools" role="group" aria-label="Painted terrain shows as">')
        parts.extend(
            el(
                "button",
                TERRAIN_WORDS[shown],
                type="button",
                data_cmd="map-terrain",
                data_shown=shown,
                aria_pressed="true" if picture.terrain == shown else "false",
            )
            for shown in TERRAIN_SHOWN
        )
        parts.append(
            '</div><div class="row"><button type="button" data-cmd="map-remove">'
            "Remove the picture</button></div>"
        )
        return "".join(parts)

    def _build_map_form(self, body: Any) -> None:
        if self.map_taps is None or len(self.map_taps) < 2:
            return
        a, b = (parse_key(k) for k in self.map_tapped)
        self.form = forms.build_form(
            body.querySelector("#map-taps-form"),
            [
                {
                    "name": "apart",
                    "label": "Hexes apart",
                    "type": "int",
                    "default": max(1, distance(a, b)),
                    "minimum": 1,
                    "maximum": 200,
                }
            ],
        )

    def _board_size(self) -> tuple[int, int]:
        board = self.app.encounter.setup.board
        return board.width, board.height

    # ---- commands ----------------------------------------------------------------------
    def map_command(self, cmd: str, element: Any, _event: Any) -> None:
        """A button of the map picture tool."""
        if cmd == "map-terrain":
            self._terrain_shown(str(element.dataset.shown))
        elif cmd in ("map-choose", "map-photo"):
            engine().warm()  # the grid finder runs there: start it while the GM chooses
            self._choose("[data-map-file]" if cmd == "map-choose" else "[data-map-photo]")
        elif cmd == "map-taps":
            self.map_taps = [] if self.map_taps is None else None
            self.map_tapped = []
            self.app.refresh()
        elif cmd == "map-apply-taps":
            self._apply_taps()
        elif cmd == "map-fit-board" and self.map_board is not None:
            cols, rows = self.map_board
            self.app.change(lambda e: e.resized(cols, rows), f"The board is {cols} by {rows}.")
        elif cmd == "map-remove":
            self.map_found = ""
            self.app.change(lambda e: e.with_setup(picture=None), "Map picture removed.")

    def _terrain_shown(self, shown: str) -> None:
        """Show painted terrain over the picture as ``shown`` (tint, outline or hidden)."""
        picture = self.picture
        if picture is None or shown not in TERRAIN_SHOWN:
            return
        turned = replace(picture, terrain=next(t for t in TERRAIN_SHOWN if t == shown))
        self.app.change(lambda e: e.with_setup(picture=turned))

    def _choose(self, selector: str) -> None:
        chooser = byid("panel-body").querySelector(selector)
        if chooser is None:
            return
        if chooser.hasAttribute("data-listening"):  # chosen again after a cancelled choice
            chooser.click()
            return
        chooser.setAttribute("data-listening", "")

        def chosen(ev: Any) -> None:
            files = ev.target.files
            if files and files.length:
                self.app.spawn(self.take_picture(files.item(0)))

        listen(chooser, "change", chosen)
        chooser.click()

    async def take_picture(self, file: Any) -> None:
        """Keep a chosen picture, find its grid and lay it under the board."""
        app = self.app
        name = str(file.name)
        data = bytes((await file.arrayBuffer()).to_bytes())
        kind = str(file.type) if str(file.type) in MEDIA_TYPES else (media_type(data) or "")
        try:
            digest = await (await app.pictures.store()).put(data, kind)
        except PictureRefusedError as exc:
            app.toast(f"{name}: not kept: {exc}.", bad=True)
            return
        if self.picture is not None and self.picture.digest == digest:
            app.board.backdrop.look_again()
            app.refresh()
            app.toast(f"{name} is this fight's map picture: it is drawn as it was aligned.")
            return
        try:
            bitmap = await js.createImageBitmap(file)
        except Exception:
            app.toast(f"{name}: this browser could not read the picture.", bad=True)
            return
        width, height = int(bitmap.width), int(bitmap.height)
        self.map_found = f"Looking for the hex grid in {name} ({width} by {height} px)…"
        self.render()
        started = now_ms()
        command, pixels = _reduced(bitmap, width, height)
        bitmap.close()
        app.timings["map_finder"] = now_ms() - started
        found = found_grid(await engine().asked(command, pixels))
        app.timings["map_proposal"] = now_ms() - started
        picture = MapPicture(digest, kind, width, height)
        if isinstance(found, NoGrid):
            self.map_found = (
                f"No grid found ({found.reason}): drag the picture or align it by two taps."
            )
            self.map_board = None
        else:
            picture = picture.aligned(found)
            self.map_found = _proposal_words(found)
            self.map_board = (found.columns, found.rows)
        self.map_taps = None
        app.change(
            lambda e: e.with_setup(picture=picture), f"Map picture “{name}” laid under the board."
        )

    # ---- the board ---------------------------------------------------------------------
    def map_tap(self, key: str) -> None:
        """A tap on the board with the map picture tool: one of the two alignment taps."""
        if self.map_taps is None or len(self.map_taps) >= 2:
            return
        board = self.app.board
        centre = board.layout.to_pixel(parse_key(key))
        tapped = board.tapped_at  # a pointer's own point; the keyboard's Enter: the hex centre
        near = math.hypot(tapped[0] - centre[0], tapped[1] - centre[1]) <= HEX
        self.map_taps.append(tapped if near else centre)
        self.map_tapped.append(key)
        self.render()

    def map_dragged(self, dx: float, dy: float) -> None:
        """The picture was dragged by ``dx``, ``dy`` board units: move it so."""
        picture = self.picture
        if picture is None:
            return
        k = picture.hex_size / HEX
        moved = replace(picture, offset=(picture.offset[0] - dx * k, picture.offset[1] - dy * k))
        self.app.change(lambda e: e.with_setup(picture=moved))

    def _apply_taps(self) -> None:
        picture = self.picture
        if picture is None or self.form is None or self.map_taps is None:
            return
        try:
            apart = int(self.form.values()["apart"])
        except Exception:
            return
        (a, b) = self.map_taps[0], self.map_taps[1]
        try:
            aligned = picture.two_taps((a, b), apart, self.app.board.layout.origin, HEX)
        except ValueError as exc:
            self.form.show_problems([("apart", str(exc))])
            return
        self.map_taps = None
        self.map_tapped = []
        self.app.change(lambda e: e.with_setup(picture=aligned), "Map picture aligned.")


def _reduced(bitmap: Any, width: int, height: int) -> tuple[str, Any]:
    """The grid finder's command for the picture drawn at most :data:`FINDER_SIDE` px on its
    long side, and its RGBA pixels (a JS Uint8ClampedArray, never copied into Python)."""
    scale = min(1.0, FINDER_SIDE / max(width, height))
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    canvas = js.OffscreenCanvas.new(w, h)
    context = canvas.getContext("2d", js.Object.fromEntries([["willReadFrequently", True]]))
    context.drawImage(bitmap, 0, 0, w, h)
    return find_grid_command(w, h, w / width), context.getImageData(0, 0, w, h).data


def _proposal_words(found: GridProposal) -> str:
    """The finder's proposal, as the panel says it."""
    turn = "pointed tops" if found.orientation == "pointed" else "flat tops"
    sure = "sure" if found.confidence >= 0.5 else "not sure: check it"
    return (
        f"Grid found ({sure}): hexes of {found.hex_size:.1f} px with {turn}, "
        f"{found.columns} by {found.rows} hexes, the print turned {found.tilt:+.1f}° (turned "
        "back under the board)."
    )
