"""The app plays a side: who plays each side, "Suggest" for the figure in hand, and the
app's moves, one step at a time with a pause so players can follow (all from the engine's
``hexcombat.autopilot.view``; nothing here knows a ruleset). The decisions are made in the
engine's worker (:mod:`web.engine_client`): the page asks, stays free for taps, and plays
the answer if the fight is still where it was when it asked."""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Action, Encounter, HexcombatError
from hexcombat.autopilot.view import autopilot_view, played_by
from web.engine_boundary import Answer, app_move_command, suggest_command
from web.engine_client import engine
from web.play.table import turn_line_html
from web.ui import focus
from web.ui.dom import byid, now_ms, proxy
from web.ui.html import el, joined
from web.ui.shell import Shell

COMMANDS = ("autopilot-side", "suggest", "close-suggestion", "autopilot-resume")
PAUSE_MS = 900
"""The pause before each of the app's moves, so that players can follow (a page whose
``window.hexcombatAppPause`` holds a number of milliseconds waits that long instead: a
test that watches the app play a whole fight)."""


def pause_ms() -> int:
    """How long the app waits before each of its moves (:data:`PAUSE_MS` unless the page
    says otherwise)."""
    given = getattr(js.window, "hexcombatAppPause", None)
    return int(given) if isinstance(given, int | float) and given >= 0 else PAUSE_MS


class AppPlayer:
    """The sides the app plays, its suggestions and its moves."""

    def __init__(self, app: Shell, open_action: Any) -> None:
        self.app = app
        self.open_action = open_action
        """Open an action's card with given parameters (the play panel's), for Suggest."""
        app.commands.register(COMMANDS, self.on_command, scope="play")
        self.suggestion: dict[str, Any] | None = None
        self.paused = False
        """True after Undo or Redo: the app waits (else it would play the undone move again)
        until a person acts or presses Resume."""
        self._timer: Any = None
        self.left: list[str] = []
        """The app's figures it has no move for in this step though they may act (the turn
        line names them, so nobody waits for the app)."""
        self._asked: tuple[int, ...] | None = None
        """The position (:func:`position`) whose move the worker was last asked for."""
        self._asked_at = 0.0
        self._move: dict[str, Any] | None = None
        """The worker's move for the position asked, waiting for the pause to end."""
        self._step = proxy(lambda *_: self.step())

    # ---- what the panel shows -----------------------------------------------------------
    def sides_html(self) -> str:
        """One button per side: played by people, or by the app with a temperament."""
        view = autopilot_view(self.app.encounter)
        words = {t["id"]: f"the app ({t['label'].lower()})" for t in view["temperaments"]}
        rows = joined(
            el(
                "li",
                el(
                    "button",
                    el("span", str(s["side"]), class_="grow"),
                    el("small", f"played by {words.get(s['played_by'], 'people')}", class_="muted"),
                    type="button",
                    data_cmd="autopilot-side",
                    data_side=str(s["side"]),
                    data_played_by=str(s["played_by"]),
                    title="Tap to change who plays it",
                ),
            )
            for s in view["sides"]
        )
        resume = (
            el(
                "p",
                "The app waits after Undo. ",
                el("button", "Resume the app", type="button", data_cmd="autopilot-resume"),
                class_="hint",
            )
            if self.paused and any(s["played_by"] for s in view["sides"])
            else None
        )
        return joined(
            [el("h3", "Played by"), el("ul", rows, class_="fig-list", id="autopilot-sides"), resume]
        )

    def suggest_html(self, fid: str) -> str:
        """The Suggest button for the figure in hand, and the suggestion when asked for."""
        shown = None
        suggestion = self.suggestion
        if (
            suggestion is not None
            and suggestion.get("figure") == fid
            and suggestion.get("step") == self._step_now()
        ):  # a suggestion of an earlier step is not shown in this one
            shown = el(
                "div",
                el("p", el("strong", "Suggestion:"), " ", str(suggestion["reason"])),
                el("button", "Close", type="button", data_cmd="close-suggestion"),
                class_="result",
                id="suggestion",
                tabindex="-1",
                role="status",
            )
        button = el("button", "Suggest a move", type="button", data_cmd="suggest", data_figure=fid)
        return joined([el("div", button, class_="row"), shown])

    def _step_now(self) -> str:
        """The current unit and step in words ("Turn 2 · Actions")."""
        time = self.app.view["time"]
        return f"{time['label']} · {time['step']['label']}"

    # ---- commands -----------------------------------------------------------------------
    def on_command(self, cmd: str, element: Any, event: Any) -> None:
        app = self.app
        if cmd == "autopilot-side":
            side = str(element.dataset.side)
            order = ["", "aggressive", "careful"]
            now = str(element.dataset.playedBy or "")
            nxt = order[(order.index(now) + 1) % len(order)] if now in order else ""
            who = f"the app ({nxt})" if nxt else "people"
            self.paused = False
            app.change(lambda e: played_by(e, side, nxt), f"{side} is played by {who}")
        elif cmd == "autopilot-resume":
            self.paused = False
            app.refresh()
        elif cmd == "suggest":
            fid = str(element.dataset.figure)
            element.setAttribute("aria-busy", "true")  # pressed at once; the worker thinks
            asked = position(app.encounter)
            engine().ask(
                suggest_command(app.encounter, fid),
                lambda answer: self._suggested(fid, asked, answer),
            )
        elif cmd == "close-suggestion":
            self.suggestion = None
            app.refresh()

    def _suggested(self, fid: str, asked: tuple[int, ...], answer: Answer) -> None:
        """The worker's suggestion: shown if the fight is still where it was when asked."""
        app = self.app
        if position(app.session.enc) != asked or app.mode != "play":
            return
        if answer["kind"] == "refused":
            app.refuse(HexcombatError(answer["message"]), "No suggestion")
            return
        if answer["kind"] != "suggest":
            return
        found = answer["suggestion"]
        self.suggestion = {**found, "figure": fid, "step": self._step_now()}
        action = found.get("action")
        if isinstance(action, dict):  # the card opens filled in: nothing is done yet
            self.open_action(str(action["kind"]), dict(action.get("params") or {}))
        else:
            app.refresh()

    # ---- the app's moves ----------------------------------------------------------------
    def schedule(self) -> None:
        """After each redraw: if a side is played by the app, ask the worker for its move at
        once and play it once the pause has passed (a redraw of the same position, such as
        a tap that selects a figure, keeps the question asked)."""
        enc = self.app.session.enc
        if enc is None or self.app.mode != "play" or not enc.setup.autopilot or self.paused:
            self._forget()
            return
        now = position(enc)
        if now == self._asked:
            if self.left:
                byid("turn-line").innerHTML = turn_line_html(self.app.view, self.left)
            return
        self._forget()
        self._asked, self._asked_at = now, now_ms()
        engine().ask(app_move_command(enc), lambda answer: self._answered(now, answer))

    def _forget(self) -> None:
        """Drop the question asked and any move waiting for its pause."""
        if self._timer is not None:
            js.clearTimeout(self._timer)
            self._timer = None
        self._asked, self._move, self.left = None, None, []

    def _answered(self, asked: tuple[int, ...], answer: Answer) -> None:
        """The worker's answer: kept for the pause if the fight is still where it was."""
        if asked != self._asked:
            return
        if answer["kind"] == "refused":
            self.paused = True  # until Resume: the same question would be refused again
            self._asked = None
            self.app.refuse(HexcombatError(answer["message"]), "The app could not decide")
            return
        if answer["kind"] != "app-move":
            return
        if answer["decision"] is None:
            self.left = list(answer["left"])
            if self.left:
                byid("turn-line").innerHTML = turn_line_html(self.app.view, self.left)
            return
        self._move = answer["decision"]
        waited = now_ms() - self._asked_at
        self._timer = js.setTimeout(self._step, max(0.0, pause_ms() - waited))

    def step(self) -> None:
        """Play the app's move the worker found (one), logged with its reason."""
        self._timer = None
        move, self._move = self._move, None
        enc = self.app.session.enc
        if move is None or position(enc) != self._asked or self.app.mode != "play":
            return
        if self.paused:
            return
        data = move["action"]
        assert isinstance(data, dict)
        action = Action.from_json(data)
        self.suggestion = None
        try:  # the keyboard stays where it was, else on what the move produced
            focus.kept(lambda: self.app.perform(action, None, str(move.get("note") or "")))
        except HexcombatError as exc:
            self.app.refuse(exc, "The app could not play its move")


def position(enc: Encounter | None) -> tuple[int, ...]:
    """What a decision was asked for: this encounter object, its set-up and where its log
    stands (an answer for another is dropped)."""
    if enc is None:
        return ()
    return (id(enc), id(enc.setup), enc.cursor, len(enc.log))
