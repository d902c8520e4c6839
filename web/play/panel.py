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
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat import Action, HexcombatError, IllegalActionError, MoreDiceNeededError
from hexcombat.view import actions_view, reach_view, sight_view
from web.board.view import Marks, friendly, parse_key
from web.play import table
from web.play.autopilot import AppPlayer
from web.play.log import LogDrawer
from web.ui import forms
from web.ui.dom import byid, esc, present
from web.ui.shell import Shell
from web.ui.words import (
    FACING_NAMES,
    HOUSE_TAG,
    details_html,
    plain_error,
    rule_tag,
    shown,
    tagged,
    terrain_facts,
)

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


def cost_words(spec: dict[str, Any] | None) -> str:
    """The unit the ruleset gives an action's cost ("MP"), or ''."""
    return str(((spec or {}).get("words") or {}).get("cost_unit", ""))


class Play:
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
        self.log = LogDrawer(lambda: self.app.rs["units"])
        self._specs: list[dict[str, Any]] = []
        self.choice: str | None = None
        """A figure tapped while another is selected: attack it or select it (issue 16)."""
        self.bar = ""
        """The open card's main button and chance, drawn in the panel's footer."""
        self.pilot = AppPlayer(app, self.open_with)
        """The sides the app plays, Suggest and the app's moves."""

    # ---- state ------------------------------------------------------------------------
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
        view = self.app.view
        time = view["time"]
        shown = {"current": "now", "done": "done"}
        steps = "".join(
            f'<span class="{shown.get(s["state"], "")}" title="{esc(s["label"])}"></span>'
            for s in time["steps"]
        )
        step = time["step"]
        secret = " · secret" if time["acting"]["hidden"] else ""
        units = " · ".join(u["label"] for u in time["units"])
        parts = [
            f'<div class="clock" title="{esc(step.get("help", ""))}">'
            f'<span class="unit">{esc(units)}</span>'
            f'<span class="step-name">{esc(step["label"])}{secret}</span>'
            f'<div class="steps" aria-hidden="true">{steps}</div></div>'
        ]
        if self.app.mode == "play":
            enc = self.app.encounter
            chips = []
            order = time["acting"]["figures"]  # a strike order is the order itself
            rank = {fid: i for i, fid in enumerate(order)}
            for f in sorted(view["figures"], key=lambda f: rank.get(f["id"], len(order))):
                if f.get("out"):
                    continue
                acting = bool(enc.legal_actions(f["id"]))
                state = "to act" if acting else "waiting"
                cls = "" if acting else "waiting"
                if f["id"] == self.app.selected:
                    cls += " current"
                chips.append(
                    f'<button type="button" class="{cls}" data-cmd="tracker-select" '
                    f'data-pick="{esc(f["id"])}" style="--side:{esc(f["color"])}" '
                    f'title="{esc(f["name"])}: {state}">'
                    f'<span class="chip-token" aria-hidden="true">{esc(f["initials"])}</span>'
                    f'<span class="sr-only">{esc(f["name"])}: {state}</span></button>'
                )
            parts.append(
                f'<div class="who" role="group" aria-label="Who acts" '
                f'title="{esc(time["acting"]["text"])}">{"".join(chips)}</div>'
            )
            nxt = next((a for a in view["table_actions"] if a["kind"] == "next_step"), None)
            if nxt is not None and not view.get("outcome"):  # a fight that has ended: no Next
                rolls = bool(enc.preview(Action("next_step")).rollables)  # opens its card
                parts.append(
                    f'<button type="button" class="next primary" data-cmd="next-step" '
                    f'data-action="next_step" data-rolls="{"true" if rolls else "false"}" '
                    f'title="{esc(nxt.get("help", ""))}">'
                    f'<span class="label">{esc(nxt["label"])}</span><span class="short">Next'
                    f"</span> ▸</button>"
                )
        byid("turn-tracker").innerHTML = "".join(parts)
        byid("turn-line").innerHTML = table.turn_line_html(view)

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
        parts = [self._prompt_html()] if app.view["prompt"] else []
        if app.view.get("outcome"):
            parts.append(table.outcome_html(app.view["outcome"]))
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
            and _worth_showing(self.result)
        ):
            parts.append(self._result_html())
        if sel is None:
            parts.append(self._overview_html())
        else:
            parts.append(self._figure_html(sel))
        body = byid("panel-body")
        body.innerHTML = "".join(parts)
        holder = body.querySelector("#action-form")
        spec = self.spec(self.kind)
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
        self.params = {**_defaults(self.spec(kind) or {}, {}), **params}
        self.render()

    def _choice_html(self, fid: str) -> str:
        """Act on a tapped figure with one of the selected figure's actions, or select it."""
        figure = next((f for f in self.app.view["figures"] if f["id"] == fid), None)
        if figure is None:
            return ""
        return table.choice_html(figure, self._offers("figure", fid))

    def _offers(self, kind: str, value: str) -> list[tuple[dict[str, Any], str]]:
        """(action, parameter) pairs of the selected figure that accept a tapped hex or figure
        (the GM's tools are chosen in their own forms, never by a tap)."""
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

    def _prompt_html(self) -> str:
        """The open prompt: its question to the named figure and its answers."""
        prompt = self.app.view["prompt"]
        answers = "".join(
            f'<button type="button" data-cmd="answer" data-kind="{esc(a["kind"])}" '
            f'data-answer="{esc(a["kind"])}">{esc(a["label"])}</button>'
            for a in prompt["answers"]
        )
        return (
            f'<section class="result prompt" role="alert" data-prompt="{esc(prompt["id"])}">'
            f"<strong>{esc(prompt['question'])}</strong>{rule_tag(prompt.get('rule', ''))}"
            f'<p class="hint">Only {esc(prompt["figure_name"])} can act until this is '
            f'answered.</p><div class="row">{answers}</div></section>'
        )

    def _overview_html(self) -> str:
        view = self.app.view
        step = view["time"]["step"]
        enc = self.app.encounter
        ready = [f for f in view["figures"] if not f.get("out") and enc.legal_actions(f["id"])]
        rows = "".join(
            f'<li><button type="button" data-cmd="pick" data-pick="{esc(f["id"])}">'
            f'<span class="chip-token" style="--side:{esc(f["color"])}">{esc(f["initials"])}</span>'
            f'<span class="grow">{esc(f["name"])}<br><small class="muted">{esc(f["side"])}'
            f"</small></span></button></li>"
            for f in ready
        )
        secret = (
            '<p class="hint">Choices in this step are secret: each figure declares in turn and '
            "nothing is shown until everyone has.</p>"
            if view["time"]["acting"]["hidden"]
            else ""
        )
        who = (
            f'<h3>To act ({len(ready)})</h3><ul class="fig-list">{rows}</ul>'
            if rows
            else '<p class="hint">Nobody has anything left to do in this step.</p>'
        )
        nxt = next((a for a in view["table_actions"] if a["kind"] == "next_step"), None)
        button = (
            f'<div class="row"><button type="button" class="primary" data-cmd="next-step">'
            f"{esc(nxt['label'])}</button></div>"
            if nxt and not view.get("outcome") and self.kind != "next_step"
            else ""
        )
        table = self._actions_html(None) if self._specs else ""
        return (
            f"<h2>{esc(view['time']['label'])}</h2>"
            f'<p class="hint">{esc(step.get("help", ""))}'
            f"{rule_tag(step.get('rule', ''))}</p>"
            f"{secret}{who}{table}{button}{self.pilot.sides_html()}"
            '<p class="hint">Tap a figure to see its numbers and actions.</p>'
        )

    def _figure_html(self, fid: str) -> str:
        f = next((x for x in self.app.view["figures"] if x["id"] == fid), None)
        if f is None:
            return ""
        fields = {x["name"]: x for x in self.app.rs["figure_fields"]}
        labels = f.get("labels") or {}

        def label(key: str) -> str:
            return str(fields.get(key, {}).get("label", labels.get(key, key)))

        head = (
            f'<div class="row"><span class="chip-token" style="--side:{esc(f["color"])}">'
            f'{esc(f["initials"])}</span><h2 class="grow">{esc(f["name"])} '
            f'<small class="muted">{esc(f["side"])}</small></h2>'
            '<button type="button" data-cmd="deselect" aria-label="Close">✕</button></div>'
            f'<p class="hint">At {esc(f.get("where") or f["position"])}, '
            f"facing {FACING_NAMES[int(f['facing'])]}"
            f"{' — out of the fight' if f.get('out') else ''}.</p>"
        )
        pools = "".join(
            f'<div class="pool"><span>{esc(label(name))}'
            f"</span>"
            f'<span class="bar" role="img" aria-label="{p["current"]} of {p["maximum"]}">'
            f'<span class="{"low" if p["current"] * 3 <= p["maximum"] else ""}" '
            f'style="width:{100 * p["current"] // max(1, p["maximum"])}%"></span></span>'
            f"<strong>{p['current']}/{p['maximum']}</strong></div>"
            for name, p in (f.get("pools") or {}).items()
        )
        statuses = "".join(
            f'<span class="pill" title="{esc(s.get("note", ""))}">'
            f"{esc(labels.get(s['id'], s['id']))}"
            + (f" · {s['remaining']} left" if s.get("remaining") is not None else "")
            + "</span>"
            for s in f.get("statuses", [])
        )
        body = [head, pools]
        if statuses:
            body.append(f'<div class="row">{statuses}</div>')
        if not f.get("out") and any(s.get("group") != "gm" for s in self._specs):
            body.append(self.pilot.suggest_html(fid))  # above the cards: in view on a phone
        body.append(f"<h3>Actions</h3>{self._actions_html(fid)}")
        stats = "".join(
            f"<dt>{esc(label(k))}"
            f"{' ' + HOUSE_TAG if fields.get(k, {}).get('house_default') else ''}"
            f"</dt><dd>{esc(shown(v))}</dd>"
            for k, v in (f.get("stats") or {}).items()
        )
        extra = "".join(
            f"<dt>{esc(labels.get(k, k))}</dt><dd>{esc(shown(v))}</dd>"
            for k, v in (f.get("extra") or {}).items()
        )
        skills = "".join(
            f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in (f.get("skills") or {}).items()
        )
        gear = "".join(
            f'<li>{esc(i["name"])} <span class="muted">({esc(i.get("kind", ""))}, '
            f"{esc(i.get('state', ''))}"
            + (
                ""
                if i.get("loaded") is None
                else (", loaded" if i.get("loaded") else ", not loaded")
            )
            + ")</span></li>"
            for i in f.get("equipment", [])
        )
        body.append(f'<h3>Now</h3><dl class="stats">{extra}</dl>' if extra else "")
        body.append(f'<h3>Numbers</h3><dl class="stats">{stats}</dl>' if stats else "")
        body.append(f'<h3>Skills</h3><dl class="stats">{skills}</dl>' if skills else "")
        body.append(f'<h3>Equipment</h3><ul class="gear">{gear}</ul>' if gear else "")
        return "".join(body)

    def _actions_html(self, fid: str | None) -> str:
        own = [s for s in self._specs if s.get("group") != "gm"]
        idle = "" if own else self._idle_html(fid)
        return idle + self._cards_html()

    def _idle_html(self, fid: str | None) -> str:
        """Why a figure (or the table) has nothing to do now."""
        if fid is None:  # the overview says it in its own words
            return ""
        if self.app.view.get("outcome"):
            return '<p class="hint">The fight is over: no more actions.</p>'
        figure = self.app.view["figures"]
        f = next((x for x in figure if x["id"] == fid), None)
        if f is not None and f.get("out"):
            return '<p class="hint">Out of the fight: no actions.</p>'
        acting = self.app.view["time"]["acting"]
        step = esc(self.app.view["time"]["step"]["label"].lower())
        done = fid in acting["figures"] and fid not in acting["waiting"]
        if done and acting["hidden"]:  # chosen already; the step's choices stay secret
            return (
                f'<p class="hint declared">Done for {step}: the '
                "choice stays hidden until everyone has chosen.</p>"
            )
        if (f or {}).get("idle"):
            return f'<p class="hint">{esc(f["idle"])}</p>'
        if done:
            return f'<p class="hint declared">Done for {step}.</p>'
        return '<p class="hint">Nothing to do in this step. End the step when ready.</p>'

    def _cards_html(self) -> str:
        """The action cards, the open one with its form and preview; the GM's tools apart."""
        cards = []
        gm_cards = []
        for spec in self._specs:
            open_ = spec["kind"] == self.kind
            inner = ""
            if open_:
                help_text = tagged(spec.get("help", "")) + rule_tag(spec.get("rule", ""))
                inner = (
                    f'<p class="hint">{help_text}</p><div id="action-form"></div>'
                    '<div id="preview" aria-live="polite"></div>'
                )
            (gm_cards if spec.get("group") == "gm" else cards).append(
                f'<section class="action-card" data-action="{esc(spec["kind"])}" '
                f'data-expanded="{"true" if open_ else "false"}">'
                f'<button type="button" class="action-head" data-cmd="open-action" '
                f'data-kind="{esc(spec["kind"])}" aria-expanded="{"true" if open_ else "false"}">'
                f"<span>{esc(spec['label'])}</span>{self._chance_badge(spec, open_)}"
                f'<span class="muted" aria-hidden="true">{"▾" if open_ else "▸"}</span></button>'
                f"{inner}</section>"
            )
        gm_open = any(s["kind"] == self.kind and s.get("group") == "gm" for s in self._specs)
        gm = (
            f'<details class="gm-tools" data-gm{" open" if gm_open else ""}>'
            f'<summary>GM tools</summary><div class="actions">{"".join(gm_cards)}</div></details>'
            if gm_cards
            else ""
        )
        return f'<div class="actions">{"".join(cards)}</div>{gm}'

    def _chance_badge(self, spec: dict[str, Any], open_: bool) -> str:
        """The chance of an action whose parameters are already settled, for its card's head."""
        params = _defaults(spec, self.params if open_ else {})
        if any(p.get("required", True) and p["name"] not in params for p in spec["params"]):
            return ""
        pv = self.app.encounter.preview(Action(spec["kind"], spec["figure"], params))
        heads = [h for r in pv.rollables if (h := r.headline())] if pv.allowed else []
        if not heads:
            return ""
        return f'<span class="chance-badge">{esc(heads[0].to_json()["percent"])}</span>'

    def _hex_info_html(self, key: str) -> str:
        board = self.app.board
        tid = board.terrain_at(key)
        t = next((x for x in self.app.rs["terrain"] if x["id"] == tid), None)
        if t is None:
            return ""
        who = board.occupant.get(key)
        lines = [f'<div class="muted">{esc(terrain_facts(t))}</div>']
        if t.get("help"):
            lines.append(f"<div>{esc(t['help'])}</div>")
        if who:
            f = next((x for x in self.app.view["figures"] if x["id"] == who), None)
            if f is not None:
                labels = f.get("labels") or {}
                pools = ", ".join(
                    f"{labels.get(k, k)} {p['current']}/{p['maximum']}"
                    for k, p in (f.get("pools") or {}).items()
                )
                states = ", ".join(labels.get(s["id"], s["id"]) for s in f.get("statuses", []))
                extra = "; ".join(x for x in (pools, states) if x)
                lines.append(
                    f"<div><strong>{esc(f['name'])}</strong> ({esc(f['side'])}) stands here"
                    f"{': ' + esc(extra) if extra else ''}.</div>"
                )
        why = self._why_not(key) if self.app.selected else ""
        if why:
            lines.append(f'<div class="problem" role="alert">{esc(why)}</div>')
        sight = self._sight(key)
        if sight is not None:
            reason = str(sight["reason"])
            verdict = (
                "clear"
                if sight["clear"]
                else reason
                if reason.startswith("blocked")
                else f"blocked ({reason})"
            )
            lines.append(
                f'<div class="sight" data-clear="{str(bool(sight["clear"])).lower()}">'
                f"Line of sight from {esc(board.figure_names.get(self.app.selected or '', ''))}"
                f": {esc(verdict)}, {sight['distance']} hexes away.</div>"
            )
        return (
            '<div class="result info"><div class="row"><strong class="grow">'
            f"Hex {esc(friendly(key))}: {esc(t['name'])}</strong>"
            '<button type="button" data-cmd="close-info" aria-label="Close">✕</button></div>'
            + "".join(lines)
            + "</div>"
        )

    def _result_html(self) -> str:
        lines = "".join(
            f"<li>{esc(e['text'])}</li>" for e in self.result if e.get("kind") != "clock"
        )
        clock = [e for e in self.result if e.get("kind") == "clock"]
        if clock:
            lines += f'<li class="muted">{esc(clock[-1]["text"])}</li>'
        return (
            '<div class="result" role="status" tabindex="-1"><div class="row">'
            '<strong class="grow">Result'
            '</strong><button type="button" data-cmd="close-result" aria-label="Close">✕</button>'
            f'</div><ul class="breakdown">{lines}</ul></div>'
        )

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
                f'<p class="hint">Still to choose: {esc("; ".join(missing))}.{pick}</p>'
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

    def _preview_html(self, pv: dict[str, Any], spec: dict[str, Any]) -> str:
        if not pv["allowed"]:
            return f'<p class="problem" role="alert">{esc(pv["reason"] or "Not allowed now.")}</p>'
        parts = []
        if pv.get("cost") is not None:
            parts.append(
                f"<p><strong>Cost: {pv['cost']}</strong>"
                f"{' ' + cost_words(spec) if cost_words(spec) else ''}</p>"
            )
        parts.extend(_rollable_html(r) for r in pv["rollables"])
        if pv["notes"]:
            parts.append(
                '<ul class="notes">'
                + "".join(f"<li>{tagged(n)}</li>" for n in pv["notes"])
                + "</ul>"
            )
        parts.append(self._commit_html(pv, spec))
        if self.error:
            parts.append(
                f'<p class="problem" role="alert" id="action-error">{esc(self.error)}</p>'
                + details_html(self.error_details)
            )
        return "".join(parts)

    def _commit_html(self, pv: dict[str, Any], spec: dict[str, Any]) -> str:
        label = spec["label"]
        confirm = (spec.get("words") or {}).get("confirm")
        if confirm and any(p["type"] == "hex" for p in spec["params"]):
            label = confirm
        faces = [f for r in pv["rollables"] for f in r["faces"]]
        view = self.app.view
        hidden = view["time"]["acting"]["hidden"] and view["prompt"] is None
        cancel = '<button type="button" data-cmd="close-action">Cancel</button>'
        chance = table.headline(pv["rollables"])
        if not faces or hidden:  # a hidden choice rolls nothing when it is made
            self.bar = table.commit_bar(
                "" if hidden else chance,
                '<button type="button" class="primary" data-cmd="commit" '
                f'data-commit="{esc(spec["kind"])}">{esc(label)}</button>{cancel}',
            )
            return (
                '<p class="hint hidden-choice">Your choice stays hidden until everyone has '
                "chosen; the dice are rolled after that.</p>"
                if faces
                else ""
            )
        dice = [(f["sides"], _die_name(f)) for f in faces if not f["when"]]
        later = [f for f in faces if f["when"]]  # asked for once the roll before comes out so
        for i, sides in enumerate(self.extra_faces):
            named = later[i] if i < len(later) and later[i]["sides"] == sides else None
            plain = f"d{sides}" if sides else "next die"
            dice.append((sides, _die_name(named) if named else plain))
        fields = [
            _face_input(n, s, expr, self.typed[n - 1] if n <= len(self.typed) else None)
            for n, (s, expr) in enumerate(dice, start=1)
        ]
        then = "".join(
            f"<li>{esc(f['when'][:1].upper() + f['when'][1:])}: {esc(_die_name(f, False))}</li>"
            for f in later[len(self.extra_faces) :]
        )
        target = table.target_name(spec, self.params, self.app.view)
        self.bar = table.commit_bar(
            chance,
            '<button type="button" class="primary" data-cmd="roll">'
            f"Roll — {esc(spec['label'])}{' ' + esc(target) if target else ''}</button>{cancel}",
        )
        return (
            '<p class="hint">Or roll real dice and type the faces:</p>'
            f'<div class="dice-row">{"".join(fields)}'
            '<button type="button" data-cmd="use-faces">Use these dice</button></div>'
            + (f'<ul class="hint later-dice">{then}</ul>' if then else "")
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
        if events:
            text = events[0].text
            if self.app.set_aside:
                text += (
                    f". The rest of the worked example ({self.app.set_aside} more actions) is"
                    " set aside: Undo brings it back."
                )
            self.app.toast(text, undo=True)
        self.render()
        card = js.document.querySelector("#panel-body .result")
        if present(card):  # the panel may be scrolled down to the dice: show the result
            card.scrollIntoView(js.JSON.parse('{"block": "nearest"}'))
            card.focus()  # keyboard and screen-reader users land on what happened

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
            fid = str(element.dataset.pick)
            self.choice = None
            self.result = []
            spec = self.spec(str(element.dataset.kind)) or {}
            self.reset_pending()
            self.kind = spec.get("kind")
            self.params = {**_defaults(spec, {}), str(element.dataset.param): fid}
            self.render()
            app.sheet_open()
        elif cmd == "deselect":
            app.select(None)
        elif cmd == "open-action":
            kind = str(element.dataset.kind)
            if kind == self.kind:
                self.reset_pending()
            else:
                keep = self.params if self.kind is None else {}
                self.reset_pending()
                self.result = []  # one current thing: the card replaces the last result
                self.kind = kind
                spec = self.spec(kind) or {}
                self.params = _defaults(spec, keep)
                takes = any(p["type"] == "figure" for p in spec.get("params", []))
                if spec.get("group") == "gm" and takes and app.selected is not None:
                    name = next(p["name"] for p in spec["params"] if p["type"] == "figure")
                    self.params.setdefault(name, app.selected)  # about the selected figure
            self.render()
        elif cmd == "answer":
            prompt = app.view["prompt"]
            if prompt is not None:
                if app.selected != prompt["figure"]:
                    app.select(prompt["figure"])
                self.kind = str(element.dataset.kind)
                self.params = _defaults(self.spec(self.kind) or {}, {})
                self.render()
        elif cmd == "close-action":
            self.reset_pending()
            self.render()
        elif cmd == "commit" or cmd == "roll":
            action = self.action()
            if action is not None:
                self.commit(action, None)
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

    def on_tap(self, key: str, figure_id: str | None) -> None:
        """A tap on the board: select, pick a target or destination, or show the hex."""
        app = self.app
        sel = app.selected
        self.info_hex = None
        if sel is None:
            if figure_id is not None:
                app.select(figure_id)
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
                app.select(figure_id)
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
        candidates = []
        for spec in self._specs:
            if spec.get("group") == "gm":
                continue
            for p in spec["params"]:
                values = {str(c["value"]) for c in p.get("choices", [])}
                if p["type"] == kind and value in values:
                    candidates.append((spec, p))
        if not candidates:
            return False
        spec, param = next(((s, p) for s, p in candidates if s["kind"] == self.kind), candidates[0])
        if spec["kind"] != self.kind:
            self.reset_pending()
            self.kind = spec["kind"]
            self.params = _defaults(spec, {})
        self.params[param["name"]] = value
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

    def cancel(self) -> bool:
        """Esc: close the open action or the hex details; True when something was closed."""
        if self.kind is not None or self.info_hex is not None:
            self.reset_pending()
            self.render()
            return True
        return False

    # ---- board highlights ------------------------------------------------------------------
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
        select.innerHTML = '<option value="">Everyone</option>' + "".join(
            f'<option value="{esc(fid)}">{esc(name)}</option>' for fid, name in figures
        )
        select.value = current if any(fid == current for fid, _ in figures) else ""
        select.setAttribute("data-signature", signature)

    def filter_log(self) -> None:
        """Show only the events of the figure chosen in the log's filter."""
        self.log.filter()


def _worth_showing(events: list[dict[str, Any]]) -> bool:
    """A result card is worth showing when something besides the clock happened."""
    return any(e.get("kind") != "clock" for e in events)


def _defaults(spec: dict[str, Any], keep: dict[str, Any]) -> dict[str, Any]:
    """Starting values of an action's parameters: given defaults, single choices, kept picks.

    Choices count only when offered with the values before them (their ``when``)."""
    params: dict[str, Any] = {}
    for p in spec.get("params", []):
        name = p["name"]
        choices = [c for c in p.get("choices", []) if forms.is_offered(c, params)]
        values = [c["value"] for c in choices]
        if name in keep and (not choices or keep[name] in values):
            params[name] = keep[name]
        elif p.get("default") is not None:
            params[name] = p["default"]
        elif len(choices) == 1 and p.get("required", True):
            params[name] = choices[0]["value"]
    return params


def _rollable_html(r: dict[str, Any]) -> str:
    """A rollable of any kind: label, headline chance, every outcome, breakdown, defences."""
    head = r["headline"]
    chance = ""
    if head:
        chance = (
            f'<div class="chance"><span class="big" data-percent>{esc(head["percent"])}</span>'
            f"<span data-phrase>{esc(head['phrase'])}</span>"
            '<span class="exact" title="exact probability">'
            f"exactly {esc(head['chance'])}</span></div>"
            '<div class="meter" aria-hidden="true">'
            f'<span style="width:{_percent_width(head["chance"])}%"></span></div>'
        )
    outcomes = "".join(
        f'<li data-outcome="{esc(o["id"])}" data-chance="{esc(o["chance"])}">'
        f"<span>{esc(o['label'])}</span> <strong>{esc(o['percent'])}</strong></li>"
        for o in r["outcomes"]
    )
    lines = "".join(
        ('<li class="total">' if line.startswith("=") else "<li>") + f"{tagged(line)}</li>"
        for line in r["breakdown"]
    )
    variants = ""
    if r["variants"]:
        rows = "".join(
            f'<tr data-variant="{esc(v["label"])}"><td>{esc(v["label"])}</td><td>'
            + " · ".join(f"{esc(o['label'])} {esc(o['percent'])}" for o in v["outcomes"])
            + "</td></tr>"
            for v in r["variants"]
        )
        variants = (
            f'<h3>Against each defence</h3><table class="defences"><tbody>{rows}</tbody></table>'
        )
    return (
        f'<div class="check" data-kind="{esc(r["kind"])}"'
        f' data-chance="{esc(head["chance"] if head else "")}">'
        f'<div class="muted">{esc(r["label"])}{rule_tag(r["rule"])}</div>{chance}'
        f'<ul class="outcomes">{outcomes}</ul>{_stages_html(r.get("stages") or [])}'
        f'<ul class="breakdown">{lines}</ul>{variants}</div>'
    )


def _stages_html(stages: list[dict[str, Any]]) -> str:
    """A chain's rolls one by one: when each is rolled and how likely that is, then its own
    outcomes with their odds."""
    if not stages:
        return ""
    rows = ""
    for s in stages:
        reached = s.get("reached") or {}
        when = f"{s.get('when_text') or 'always'}, {reached.get('percent', '')}".strip(", ")
        odds = " · ".join(
            f'<span data-chance="{esc(o["chance"])}">{esc(o["label"])} {esc(o["percent"])}</span>'
            for o in s["outcomes"]
        )
        rows += (
            f'<tr data-stage="{esc(s.get("id", ""))}"><td>{esc(s["label"])} '
            f'<span class="muted">({esc(when)})</span></td><td>{odds}</td></tr>'
        )
    return f'<h3>Each roll</h3><table class="stages"><tbody>{rows}</tbody></table>'


def _die_name(face: dict[str, Any], when: bool = True) -> str:
    """``d6``, ``Alda's 3d10kh2`` or ``d6, if hit``: what a typed face is for."""
    name = f"{face['who']}'s {face['dice']}" if face["who"] else face["dice"]
    return f"{name}, {face['when']}" if when and face["when"] else name


def _face_input(n: int, sides: int, expr: str, value: int | None) -> str:
    limit = f' max="{sides}"' if sides else ""
    span = f"1-{sides}" if sides else "next"
    shown = f' value="{value}"' if value is not None else ""
    return (
        f"<label>Die {n} ({esc(expr)}, {span})"
        f'<input type="number" inputmode="numeric" min="1"{limit} step="1" data-face="{n}"{shown} '
        f'aria-label="Die {n}, {esc(expr)}, {span}"></label>'
    )


def _percent_width(fraction: str) -> int:
    num, _, den = fraction.partition("/")
    try:
        return max(0, min(100, int(num) * 100 // max(1, int(den or 1))))
    except ValueError:
        return 0
