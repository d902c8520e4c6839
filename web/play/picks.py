"""Board taps and highlights for the play panel (mixed into :class:`web.play.panel.Play`).

A tap selects a figure, fills an open action's hex or figure parameter, offers "Attack X"
beside "Select X", or shows a hex's details; the mouse's hover draws the path to a reachable
hex; :meth:`BoardPicks.mark` draws reach, path, targets, line of sight and range bands. The
methods read and change the panel's open action (``kind``, ``params``, ``preview``) and use
the panel's ``spec``, ``action``, ``commit``, ``reset_pending`` and ``render``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexcombat import Action, IllegalActionError
from hexcombat.view import reach_view, sight_view
from web.board.view import Marks, friendly, parse_key
from web.play.cards import cost_words, defaults
from web.ui.shell import Shell
from web.ui.words import plain_error


class BoardPicks:
    """What a tap, a hover or Enter on the board does while playing."""

    app: Shell
    kind: str | None
    params: dict[str, Any]
    preview: dict[str, Any] | None
    info_hex: str | None
    hover_path: list[str]
    hover_key: str | None
    choice: str | None
    extra_faces: list[int]
    error: str
    _specs: list[dict[str, Any]]

    if TYPE_CHECKING:  # the panel's, which this is mixed into

        def spec(self, kind: str | None) -> dict[str, Any] | None: ...
        def action(self) -> Action | None: ...
        def commit(self, action: Action, faces: list[int] | None) -> None: ...
        def reset_pending(self) -> None: ...
        def render(self) -> None: ...

    def _offers(self, kind: str, value: str) -> list[tuple[dict[str, Any], str]]:
        """(action, parameter name) pairs of the selected figure that accept a tapped hex or
        figure (the GM's tools are chosen in their own forms, never by a tap)."""
        found = []
        for spec in self._specs:
            if spec.get("group") == "gm":
                continue
            for p in spec["params"]:
                values = {str(c["value"]) for c in p.get("choices", [])}
                if p["type"] == kind and value in values:
                    found.append((spec, str(p["name"])))
                    break
        return found

    def on_tap(self, key: str, figure_id: str | None) -> None:
        """A tap on the board: select, pick a target or destination, or show the hex."""
        app = self.app
        sel = app.selected
        self.info_hex = None
        if sel is None:
            if figure_id is not None:
                app.select(figure_id, pressed_first=True)
                app.sheet_open()
            else:
                self.info_hex = key
                self.render()
            return
        if figure_id == sel:  # a second tap keeps the selection (the panel's ✕ clears it)
            # or, in an open action that asks for a hex and takes its own, picks that hex
            picked = self._asks_for_hex(key) and self._pick("hex", key)
            if not picked and not self._pick("figure", figure_id):
                app.sheet_open()
            return
        if figure_id is not None:
            # a figure becomes a target only inside an open action that accepts it, or by an
            # explicit choice ("Attack X" beside "Select X"); otherwise the tap selects it
            spec = self.spec(self.kind)
            if spec is not None and any(s is spec for s, _ in self._offers("figure", figure_id)):
                self._pick("figure", figure_id)
            elif self._offers("figure", figure_id):
                self.reset_pending()
                self.choice = figure_id
                self.render()
                app.sheet_open()
            else:
                app.select(figure_id, pressed_first=True)
            return
        if not self._pick("hex", key):
            self._refuse_hex(key)

    def _asks_for_hex(self, key: str) -> bool:
        """True when the open action has a hex field that offers ``key``."""
        spec = self.spec(self.kind)
        return spec is not None and any(
            p["type"] == "hex" and key in {str(c["value"]) for c in p.get("choices", [])}
            for p in spec["params"]
        )

    def confirm(self, key: str, figure_id: str | None) -> None:
        """Enter: on the hex the open action already chose, and with no dice, carry it out."""
        spec = self.spec(self.kind)
        action = self.action()
        chosen = spec is not None and any(
            p["type"] == "hex" and self.params.get(p["name"]) == key for p in spec["params"]
        )
        pv = self.preview
        if chosen and action is not None and pv and pv["allowed"] and not pv["rollables"]:
            self.commit(action, None)
            return
        self.on_tap(key, figure_id)

    def _pick(self, kind: str, value: str) -> bool:
        """Use a tapped hex or figure as a parameter of an action that accepts it."""
        candidates = self._offers(kind, value)
        if not candidates:
            return False
        spec, param = next(((s, p) for s, p in candidates if s["kind"] == self.kind), candidates[0])
        if spec["kind"] != self.kind:
            self.reset_pending()
            self.kind = spec["kind"]
            self.params = defaults(spec, {})
        self.params[param] = value
        self.extra_faces = []
        self.error = ""
        self.hover_path = []
        self.render()
        self.app.sheet_open()
        return True

    def _refuse_hex(self, key: str) -> None:
        """A tapped hex no action accepts: describe it, say why not, show the line of sight."""
        self.reset_pending()
        self.inspect(key, None)

    def inspect(self, key: str, figure_id: str | None) -> None:
        """Details of a hex (and who stands there) without changing the selection."""
        self.info_hex = key
        self.render()
        self.app.sheet_open()

    def _why_not(self, key: str) -> str:
        """The engine's reason why the selected figure's hex actions refuse ``key``."""
        for spec in self._specs:
            for p in spec["params"]:
                if p["type"] == "hex":
                    action = Action(spec["kind"], spec["figure"], {p["name"]: key})
                    pv = self.app.encounter.preview(action)
                    if not pv.allowed:  # in a player's words: out of reach, or the reason
                        if "must be one of" in pv.reason:
                            return f"{spec['label']}: {friendly(key)} is out of reach now."
                        return plain_error(IllegalActionError(pv.reason))[0] or (
                            f"{spec['label']}: not allowed here"
                        )
        return ""

    def _sight(self, key: str) -> dict[str, Any] | None:
        """Line of sight from the selected figure to ``key`` (None without a selection)."""
        sel = self.app.selected
        if sel is None or self.app.board.selected_key() == key:
            return None
        return sight_view(self.app.encounter, sel, parse_key(key))

    def on_hover(self, key: str | None) -> None:
        """With the mouse: draw the path to a reachable hex before it is chosen."""
        if self.app.selected is None or key == self.hover_key:
            return
        self.hover_key = key
        path: list[str] = []
        if key is not None and (self.kind is None or not self._has_value("hex")):
            for spec in self._specs:
                for p in spec["params"]:
                    if p["type"] == "hex" and key in {
                        str(c["value"]) for c in p.get("choices", [])
                    }:
                        pv = self.app.encounter.preview(
                            Action(spec["kind"], spec["figure"], {p["name"]: key})
                        )
                        path = [str(h) for h in pv.path]
                        break
                if path:
                    break
        if path != self.hover_path:
            self.hover_path = path
            self.mark()

    def _has_value(self, kind: str) -> bool:
        spec = self.spec(self.kind)
        return spec is not None and any(
            p["type"] == kind and p["name"] in self.params for p in spec["params"]
        )

    def mark(self) -> None:
        """Reach, path, targets, line of sight and range bands for the selection and action."""
        app = self.app
        sel = app.selected
        marks = Marks()
        if self.info_hex is not None:
            marks.focus = self.info_hex
            marks.sight = self._sight(self.info_hex)
            marks.focus_bad = bool(sel and self._why_not(self.info_hex))
        if sel is None:
            app.mark(marks)
            return
        enc = app.encounter
        if any(p["type"] == "hex" for s in self._specs for p in s["params"]):
            marks.reach = reach_view(enc, sel)
        spec = self.spec(self.kind)
        pv = self.preview
        if spec is not None:
            for p in spec["params"]:
                value = self.params.get(p["name"])
                if value is None:
                    continue
                if p["type"] == "hex":
                    marks.focus = str(value)
                elif p["type"] == "figure" and spec.get("group") != "gm":
                    target = app.board.tokens.get(str(value))
                    if target is not None and target[3]:
                        where = str(target[3][1])
                        marks.targets = [*marks.targets, where]
                        marks.sight = sight_view(enc, sel, parse_key(where))
        if pv is not None:
            if pv["allowed"]:
                marks.path = pv["path"]
                if pv.get("cost") is not None and marks.focus:
                    unit = cost_words(spec)
                    marks.label = f"{pv['cost']} {unit}" if unit else ""
                bands = {k: v for k, v in pv.get("highlights", {}).items() if k != "target"}
                marks.bands = bands
                marks.targets = [*marks.targets, *pv.get("highlights", {}).get("target", [])]
            elif marks.focus:
                marks.focus_bad = True
                marks.label = "not allowed"
        if not marks.path and self.hover_path:
            marks.path = self.hover_path
        app.mark(marks)
