"""Play mode: turn tracker, figure panel, actions with exact odds, dice, and the combat log.

Everything shown comes from the engine: the figure's actions
(:func:`~hexcombat.view.actions_view`) become cards whose parameters are
forms (:mod:`web.ui.forms`); hex and figure parameters can also be picked on the
board. Once an action is complete, :meth:`~hexcombat.Encounter.preview`
gives its cost, path, exact chance (shown as a percentage and as the exact
fraction), every modifier with its rule id and, for opposed rolls, the chance
against each defence. Nothing is done by a tap on the board alone: the panel
always asks for one clear confirmation ("Move here", "Roll", "Use these dice").

Dice: "Roll" uses the encounter's seeded dice; typed faces (physical dice)
are checked by the engine against the dice expression, and when an action
needs more dice than were typed (a hit asks for damage) another field opens.

Its parts: :mod:`web.play.cards` (the action cards), :mod:`web.play.rollables` (a preview's
odds and the dice fields), :mod:`web.play.figure_sheet` (a figure's and a hex's details),
:mod:`web.play.table` (turn tracker, turn line, prompt, result), :mod:`web.play.picks` (taps,
hover and highlights on the board) and :mod:`web.play.log` (the combat log).
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Action, HexcombatError, IllegalActionError, MoreDiceNeededError
from hexcombat.view import actions_view
from web.board.view import friendly
from web.play import table
from web.play.autopilot import AppPlayer
from web.play.cards import cards_html, cost_words, defaults
from web.play.figure_sheet import figure_html, hex_info_html, idle_html
from web.play.log import LogDrawer
from web.play.picks import BoardPicks
from web.play.rollables import die_name, face_input, rollable_html
from web.ui import forms
from web.ui.dom import byid, present
from web.ui.html import Markup, el, joined
from web.ui.shell import Shell
from web.ui.words import counted, details_html, plain_error, rule_tag, tagged

PICKABLE = ("hex", "figure")
COMMANDS = (
    "pick",
    "deselect",
    "open-action",
    "close-action",
    "commit",
    "roll",
    "use-faces",
    "next-step",
    "close-result",
    "answer",
    "close-info",
    "choose-target",
)
"""The play panel's buttons (``data-cmd``), registered in the "play" scope."""


class Play(BoardPicks):
    """The play panel, the turn tracker and the combat log."""

    def __init__(self, app: Shell) -> None:
        self.app = app
        app.commands.register(COMMANDS, self.on_command, scope="play")
        self.kind: str | None = None
        """The action whose card is open (its parameters are being chosen)."""
        self.params: dict[str, Any] = {}
        self.form: forms.Form | None = None
        self.preview: dict[str, Any] | None = None
        self.extra_faces: list[int] = []
        self.typed: list[int] = []
        """Faces typed so far (kept when more dice are asked for)."""
        self.error = ""
        self.error_details = ""
        self.info_hex: str | None = None
        self.hover_path: list[str] = []
        self.hover_key: str | None = None
        self.log = LogDrawer(lambda: self.app.rs["units"], app.later.soon)
        self._specs: list[dict[str, Any]] = []
        self.choice: str | None = None
        """A figure tapped while another is selected: attack it or select it."""
        self.bar = ""
        """The open card's main button and chance, drawn in the panel's footer."""
        self.pilot = AppPlayer(app, self.open_with)
        """The sides the app plays, Suggest and the app's moves."""
        self._roster: Any = None
        self._tracker = ""
        """The turn tracker's HTML as last written."""

    # ---- state ------------------------------------------------------------------------
    @property
    def roster(self) -> Any:
        """At the fight's end, what it changed of the roster's characters
        (web.play.roster_prompt, imported when a fight first ends)."""
        if self._roster is None:
            from web.play.roster_prompt import RosterPrompt

            self._roster = RosterPrompt(self.app)
        return self._roster

    @property
    def result(self) -> list[dict[str, Any]]:
        """The events of the last action performed or redone (the session keeps them)."""
        return self.app.session.result

    @result.setter
    def result(self, events: list[dict[str, Any]]) -> None:
        self.app.session.result = events

    def reset(self) -> None:
        """Forget everything about the previous encounter."""
        self.reset_pending()
        self.result = []
        self.log.reset()

    def reset_pending(self) -> None:
        """Close the open action (selection changes, undo, redo)."""
        self.kind = None
        self.params = {}
        self.preview = None
        self.extra_faces = []
        self.typed = []
        self.error = ""
        self.error_details = ""
        self.info_hex = None
        self.hover_path = []
        self.choice = None

    def spec(self, kind: str | None) -> dict[str, Any] | None:
        """The open action's description."""
        return next((s for s in self._specs if s["kind"] == kind), None)

    # ---- turn tracker ---------------------------------------------------------------------
    def render_tracker(self) -> None:
        """Round / Pulse / phase, the step, who acts and the next-step button."""
        app = self.app
        offered = set(app.view["time"]["acting"]["waiting"])  # exactly those offered an action
        tracker = table.tracker_html(
            app.view,
            playing=app.mode == "play",
            acts=offered.__contains__,
            selected=app.selected,
            next_rolls=lambda: bool(app.encounter.preview(Action("next_step")).rollables),
        )
        if tracker != self._tracker:  # (nothing else writes it: unchanged, it is left as it is)
            byid("turn-tracker").innerHTML = self._tracker = tracker
        byid("turn-line").innerHTML = table.turn_line_html(app.view)

    def next_step(self) -> None:
        """End the current step (the table's ``next_step`` action); when ending it rolls dice
        (its preview has rollables), open its card instead, with the odds and typed dice."""
        action = Action("next_step")
        if not self.app.encounter.preview(action).rollables:
            self.commit(action, None)
            return
        if self.app.selected is not None:
            self.app.select(None)  # the table's card is in the overview
        self.reset_pending()
        self.result = []
        self.kind = "next_step"
        self.render()
        self.app.sheet_open()
        card = js.document.querySelector('#panel-body [data-action="next_step"]')
        if present(card):  # the dice fields under the step's words, in view on a phone too
            card.scrollIntoView(js.JSON.parse('{"block": "nearest"}'))

    # ---- panel ----------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the play panel and the board highlights."""
        app = self.app
        if self.form is not None:
            self.form.destroy()
            self.form = None
        sel = app.selected
        self._specs = (
            (actions_view(app.encounter, sel) if app.seated(sel) else [])
            if sel is not None
            else [
                a
                for a in app.view["table_actions"]
                if a["kind"] != "next_step" or self.kind == "next_step"  # opened: it rolls
            ]
        ) + list(app.view.get("gm_actions", []))
        if self.kind is not None and self.spec(self.kind) is None:
            self.reset_pending()
        parts: list[str] = [table.prompt_html(app.view["prompt"])] if app.view["prompt"] else []
        if app.view.get("outcome"):
            parts.append(table.outcome_html(app.view["outcome"]))
            parts.append(self.roster.html())
        if self.choice is not None:
            parts.append(self._choice_html(self.choice))
        if self.info_hex is not None:
            parts.append(self._hex_info_html(self.info_hex))
        # one current thing at a time: a result shows until an action is opened, and a mere
        # change of step is no result (the log and the turn line say it)
        if (
            self.result
            and self.kind is None
            and self.choice is None
            and table.worth_showing(self.result)
        ):
            parts.append(table.result_html(self.result))
        if sel is None:
            parts.append(self._overview_html())
        else:
            parts.append(self._figure_html(sel))
        body = byid("panel-body")
        body.innerHTML = "".join(parts)
        holder = body.querySelector("#action-form")
        spec = self.spec(self.kind)
        if spec is not None:  # only what the form can submit: what its lists offer
            self.params = defaults(spec, self.params)
        if present(holder) and spec is not None and spec["params"]:
            self.form = forms.build_form(
                holder, spec["params"], self.params, on_change=self._form_changed
            )
        self._draw_preview()
        self.mark()
        self.pilot.schedule()

    def open_with(self, kind: str, params: dict[str, Any]) -> None:
        """Open ``kind``'s card filled in with ``params`` (a suggestion; nothing is done)."""
        self.reset_pending()
        self.result = []
        self.kind = kind
        self.params = defaults(self.spec(kind) or {}, params)
        self.render()

    def _choice_html(self, fid: str) -> str:
        """Act on a tapped figure with one of the selected figure's actions, or select it."""
        figure = next((f for f in self.app.view["figures"] if f["id"] == fid), None)
        if figure is None:
            return ""
        return table.choice_html(figure, self._offers("figure", fid))

    def focus_actions(self) -> None:
        """The key to the action panel: the open card's main button, else the first action,
        else the panel itself."""
        self.app.sheet_open()
        for selector in (
            "#panel-footer .primary",
            "#panel-body .action-head",
            "#panel-body button",
        ):
            target = js.document.querySelector(selector)
            if present(target):
                target.focus()
                return

    def _overview_html(self) -> Markup:
        view = self.app.view
        step = view["time"]["step"]
        enc = self.app.encounter
        ready = [f for f in view["figures"] if not f.get("out") and enc.legal_actions(f["id"])]
        rows = table.to_act_html(ready)
        secret = (
            el(
                "p",
                "Choices in this step are secret: each figure declares in turn and nothing is "
                "shown until everyone has.",
                class_="hint",
            )
            if view["time"]["acting"]["hidden"]
            else None
        )
        who = (
            joined([el("h3", f"To act ({len(ready)})"), el("ul", rows, class_="fig-list")])
            if rows
            else el("p", "Nobody has anything left to do in this step.", class_="hint")
        )
        nxt = next((a for a in view["table_actions"] if a["kind"] == "next_step"), None)
        button = (
            el(
                "div",
                el("button", nxt["label"], type="button", class_="primary", data_cmd="next-step"),
                class_="row",
            )
            if nxt and not view.get("outcome") and self.kind != "next_step"
            else None
        )
        actions = Markup(self._actions_html(None)) if self._specs else None
        return joined(
            [
                el("h2", view["time"]["label"]),
                el(
                    "p",
                    step.get("help", ""),
                    Markup(rule_tag(step.get("rule", ""))),
                    class_="hint",
                ),
                secret,
                who,
                actions,
                button,
                Markup(self.pilot.sides_html()),
                el("p", "Tap a figure to see its numbers and actions.", class_="hint"),
            ]
        )

    def _figure_html(self, fid: str) -> str:
        f = next((x for x in self.app.view["figures"] if x["id"] == fid), None)
        if f is None:
            return ""
        acts = not f.get("out") and any(s.get("group") != "gm" for s in self._specs)
        suggest = self.pilot.suggest_html(fid) if acts else ""
        return figure_html(f, self.app.rs["figure_fields"], suggest, self._actions_html(fid))

    def _hex_info_html(self, key: str) -> str:
        board = self.app.board
        t = next((x for x in self.app.rs["terrain"] if x["id"] == board.terrain_at(key)), None)
        if t is None:
            return ""
        who = board.occupant.get(key)
        figures = self.app.view["figures"] if who else []
        figure = next((x for x in figures if x["id"] == who), None)
        return hex_info_html(
            friendly(key),
            t,
            figure,
            self._why_not(key) if self.app.selected else "",
            self._sight(key),
            board.figure_names.get(self.app.selected or "", ""),
        )

    def _actions_html(self, fid: str | None) -> str:
        own = [s for s in self._specs if s.get("group") != "gm"]
        idle = "" if own else idle_html(self.app.view, fid)
        return idle + cards_html(self._specs, self.kind, self.params, self.app.encounter)

    # ---- the open action: parameters, preview, commit --------------------------------------
    def action(self) -> Action | None:
        """The open action when every required parameter has a value."""
        spec = self.spec(self.kind)
        if spec is None:
            return None
        for p in spec["params"]:
            if p.get("required", True) and p["name"] not in self.params:
                return None
        return Action(spec["kind"], spec["figure"], dict(self.params))

    def _form_changed(self, form: forms.Form, name: str) -> None:
        values, _problems = form.read()
        spec = self.spec(self.kind)
        if spec is None:
            return
        self.params = {p["name"]: values[p["name"]] for p in spec["params"] if p["name"] in values}
        self.extra_faces = []
        self.error = ""
        self._draw_preview()
        self.mark()

    def _draw_preview(self) -> None:
        holder = js.document.querySelector("#preview")
        if not present(holder):
            self.bar = ""
            self._draw_bar()
            return
        action = self.action()
        spec = self.spec(self.kind)
        self.bar = ""
        if action is None or spec is None:
            self.preview = None
            self._draw_bar()
            missing = [
                p["label"]
                for p in (spec or {}).get("params", [])
                if p.get("required", True) and p["name"] not in self.params
            ]
            pick = ""
            if any(p["type"] in PICKABLE for p in (spec or {}).get("params", [])):
                pick = " Tap the board to choose, or use the list above."
            holder.innerHTML = (
                el("p", f"Still to choose: {'; '.join(missing)}.{pick}", class_="hint")
                if missing
                else ""
            )
            return
        self.preview = self.app.encounter.preview(action).to_json()
        holder.innerHTML = table.target_line(spec, self.params, self.app.view) + self._preview_html(
            self.preview, spec
        )
        self._draw_bar()

    def _draw_bar(self) -> None:
        """The open card's main button and chance in the panel's footer, always in view."""
        footer = js.document.querySelector("#panel-footer")
        if present(footer):
            footer.innerHTML = self.bar
            footer.hidden = not self.bar

    def _preview_html(self, pv: dict[str, Any], spec: dict[str, Any]) -> Markup:
        if not pv["allowed"]:
            reason = str(pv["reason"] or "Not allowed now.")
            self.bar = table.refused_bar(spec["label"], reason)
            return el("p", reason, class_="problem", role="alert")
        parts: list[Markup] = []
        if pv.get("cost") is not None:
            unit = counted(int(pv["cost"]), cost_words(spec))
            parts.append(el("p", el("strong", f"Cost: {pv['cost']}"), f" {unit}" if unit else None))
        parts.extend(rollable_html(r) for r in pv["rollables"])
        if pv["notes"]:
            notes = joined(el("li", Markup(tagged(n))) for n in pv["notes"])
            parts.append(el("ul", notes, class_="notes"))
        parts.append(self._commit_html(pv, spec))
        if self.error:
            parts.append(el("p", self.error, class_="problem", role="alert", id="action-error"))
            parts.append(Markup(details_html(self.error_details)))
            self.bar = table.with_problem(self.bar, self.error)
        return joined(parts)

    def _commit_html(self, pv: dict[str, Any], spec: dict[str, Any]) -> Markup:
        label = spec["label"]
        confirm = (spec.get("words") or {}).get("confirm")
        if confirm and any(p["type"] == "hex" for p in spec["params"]):
            label = confirm
        faces = [f for r in pv["rollables"] for f in r["faces"]]
        view = self.app.view
        hidden = view["time"]["acting"]["hidden"] and view["prompt"] is None
        cancel = el("button", "Cancel", type="button", data_cmd="close-action")
        chance = table.headline(pv["rollables"])
        if not faces or hidden:  # a hidden choice rolls nothing when it is made
            commit = el(
                "button",
                label,
                type="button",
                class_="primary",
                data_cmd="commit",
                data_commit=spec["kind"],
            )
            self.bar = table.commit_bar("" if hidden else chance, joined([commit, cancel]))
            return (
                el(
                    "p",
                    "Your choice stays hidden until everyone has chosen; the dice are rolled "
                    "after that.",
                    class_="hint hidden-choice",
                )
                if faces
                else Markup()
            )
        target = table.target_name(spec, self.params, self.app.view)
        label = str(spec["label"])
        words = label if label.lower().startswith("roll") else f"Roll — {label}"
        roll = el(
            "button",
            words,
            f" {target}" if target else None,
            type="button",
            class_="primary",
            data_cmd="roll",
        )
        self.bar = table.commit_bar(chance, joined([roll, cancel]))
        return self._typed_dice_html(faces)

    def _typed_dice_html(self, faces: list[dict[str, Any]]) -> Markup:
        """The fields for typing real dice's faces, and the dice asked for later."""
        dice = [(f["sides"], die_name(f)) for f in faces if not f["when"]]
        later = [f for f in faces if f["when"]]  # asked for once the roll before comes out so
        for i, sides in enumerate(self.extra_faces):
            named = later[i] if i < len(later) and later[i]["sides"] == sides else None
            plain = f"d{sides}" if sides else "next die"
            dice.append((sides, die_name(named) if named else plain))
        fields = [
            face_input(n, s, expr, self.typed[n - 1] if n <= len(self.typed) else None)
            for n, (s, expr) in enumerate(dice, start=1)
        ]
        then = joined(
            el("li", f"{f['when'][:1].upper() + f['when'][1:]}: {die_name(f, False)}")
            for f in later[len(self.extra_faces) :]
        )
        use = el("button", "Use these dice", type="button", data_cmd="use-faces")
        return joined(
            [
                el("p", "Or roll real dice and type the faces:", class_="hint"),
                el("div", joined(fields), use, class_="dice-row"),
                el("ul", then, class_="hint later-dice") if then else None,
            ]
        )

    def commit(self, action: Action, faces: list[int] | None) -> None:
        """Carry out ``action``; show the result, or the engine's reason and nothing changes."""
        self.typed = list(faces or [])
        self.pilot.paused = False  # a person acts: the app plays its sides again
        try:
            events = self.app.perform(action, faces)
        except MoreDiceNeededError as exc:
            self.extra_faces.append(exc.sides)
            self.error = f"{exc}. Roll it and add the face below."
            self._draw_preview()
            self._focus_last_face()
            return
        except (IllegalActionError, HexcombatError, ValueError) as exc:
            self.error, self.error_details = plain_error(exc)
            if action.kind == "next_step" or not present(js.document.querySelector("#preview")):
                self.app.refuse(exc)
            else:
                self._draw_preview()
            return
        self.result = [e.to_json() for e in events]
        self.reset_pending()
        self.render()  # first: the sheet may grow and the board pan, then the toast finds room
        if events:
            text = events[0].text
            if self.app.set_aside:
                text += (
                    f". The rest of the worked example ({self.app.set_aside} more actions) is"
                    " set aside: Undo brings it back."
                )
            self.app.toast(text, undo=True)
        card = js.document.querySelector("#panel-body .result")
        if present(card):  # the panel may be scrolled down to the dice: show the result
            card.scrollIntoView(js.JSON.parse('{"block": "nearest"}'))
            card.focus()  # keyboard and screen-reader users land on what happened

    def _say_missing(self) -> None:
        """A main button pressed before its action is complete: say what is still to choose
        beside it, and put the focus on the first of those fields."""
        spec = self.spec(self.kind) or {}
        missing = [
            p
            for p in spec.get("params", [])
            if p.get("required", True) and p["name"] not in self.params
        ]
        words = "; ".join(str(p["label"]) for p in missing) or "nothing"
        self.bar = table.with_problem(self.bar, f"Still to choose: {words}.")
        self._draw_bar()
        if missing and self.form is not None:
            field = self.form.element.querySelector(
                f'[data-field="{missing[0]["name"]}"] select, '
                f'[data-field="{missing[0]["name"]}"] input'
            )
            if present(field):
                field.focus()

    def _focus_last_face(self) -> None:
        inputs = js.document.querySelectorAll("#preview .dice-row input")
        if inputs.length:
            inputs.item(inputs.length - 1).focus()

    def typed_faces(self) -> list[int] | None:
        """The faces typed in the dice fields (None, with a message, when one is not a number)."""
        faces = []
        for field in js.document.querySelectorAll("#preview .dice-row input"):
            text = str(field.value).strip()
            if not text:
                continue
            try:
                faces.append(int(text))
            except ValueError:
                self.error = f"{text!r} is not a die face; type whole numbers."
                return None
        if not faces:
            self.error = "Type the faces of the dice you rolled first."
            return None
        return faces

    # ---- events from the page -----------------------------------------------------------
    def on_command(self, cmd: str, element: Any, event: Any) -> None:
        """A button in the play panel."""
        app = self.app
        if cmd == "pick":
            app.select(str(element.dataset.pick))
            app.sheet_open()
        elif cmd == "choose-target":
            self._choose_target(element)
        elif cmd == "deselect":
            app.select(None)
        elif cmd == "open-action":
            self._open_action(str(element.dataset.kind))
        elif cmd == "answer":
            prompt = app.view["prompt"]
            if prompt is not None:
                if app.selected != prompt["figure"]:
                    app.select(prompt["figure"])
                self.kind = str(element.dataset.kind)
                self.params = defaults(self.spec(self.kind) or {}, {})
                self.render()
        elif cmd == "close-action":
            self.reset_pending()
            self.render()
        elif cmd == "commit" or cmd == "roll":
            action = self.action()
            if action is not None:
                self.commit(action, None)
            else:
                self._say_missing()
        elif cmd == "use-faces":
            action = self.action()
            faces = self.typed_faces()
            if action is not None and faces is not None:
                self.commit(action, faces)
            elif faces is None:
                self._draw_preview()
        elif cmd == "next-step":
            self.next_step()
        elif cmd == "close-result":
            self.result = []
            self.render()
        elif cmd == "close-info":
            self.info_hex = None
            self.render()

    def _choose_target(self, element: Any) -> None:
        """The "Attack X" button beside "Select X": that action, aimed at the tapped figure."""
        fid = str(element.dataset.pick)
        self.choice = None
        self.result = []
        spec = self.spec(str(element.dataset.kind)) or {}
        self.reset_pending()
        self.kind = spec.get("kind")
        self.params = defaults(spec, {str(element.dataset.param): fid})
        self.render()
        self.app.sheet_open()

    def _open_action(self, kind: str) -> None:
        """Open ``kind``'s card (close it when it is open); a GM tool about a figure starts
        with the selected one."""
        app = self.app
        if kind == self.kind:
            self.reset_pending()
        else:
            keep = self.params if self.kind is None else {}
            self.reset_pending()
            self.result = []  # one current thing: the card replaces the last result
            self.kind = kind
            spec = self.spec(kind) or {}
            self.params = defaults(spec, keep)
            takes = any(p["type"] == "figure" for p in spec.get("params", []))
            if spec.get("group") == "gm" and takes and app.selected is not None:
                name = next(p["name"] for p in spec["params"] if p["type"] == "figure")
                self.params.setdefault(name, app.selected)  # about the selected figure
        self.render()

    def cancel(self) -> bool:
        """Esc: close the open action or the hex details; True when something was closed."""
        if self.kind is not None or self.info_hex is not None:
            self.reset_pending()
            self.render()
            return True
        return False

    # ---- combat log ----------------------------------------------------------------------------
    def render_log(self) -> None:
        """Bring ``#log`` up to date: one item per event of the applied actions, newest last."""
        self.log.render(self.app.encounter)
        self._update_filter_options()

    def _update_filter_options(self) -> None:
        select = byid("log-filter")
        figures = [(f["id"], f["name"]) for f in self.app.view["figures"]]
        signature = repr(figures)
        if select.getAttribute("data-signature") == signature:
            return
        current = str(select.value)
        select.innerHTML = joined(
            [el("option", "Everyone", value=""), *(el("option", n, value=f) for f, n in figures)]
        )
        select.value = current if any(fid == current for fid, _ in figures) else ""
        select.setAttribute("data-signature", signature)

    def filter_log(self) -> None:
        """Show only the events of the figure chosen in the log's filter."""
        self.log.filter()
