"""What a table needs to see at a glance, as markup built from the engine's views:
the turn line (round, step, who acts; always shown), the figures left to act, the end of
a fight with its summary, the target of an open action, the choice between attacking and
selecting a tapped figure, the sticky bar with the open card's main button and chance, the
GM's tools, an open question (a prompt) and the result of the last action.

Pure: no page access, so it runs under CPython in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from web.ui.html import Markup, el, joined
from web.ui.words import rule_tag


def tracker_html(
    view: dict[str, Any],
    *,
    playing: bool,
    acts: Callable[[str], bool],
    selected: str | None,
    next_rolls: Callable[[], bool] = lambda: False,
) -> Markup:
    """The turn tracker: unit and step with the steps' dots; while ``playing`` also a chip per
    figure in the fight (in strike order; whether it ``acts`` now; the ``selected`` one
    marked) and the next-step button (``data-rolls`` when ending the step ``next_rolls``:
    then it opens the step's card)."""
    time = view["time"]
    shown = {"current": "now", "done": "done"}
    steps = joined(
        el("span", class_=shown.get(s["state"], ""), title=s["label"]) for s in time["steps"]
    )
    step = time["step"]
    secret = " · secret" if time["acting"]["hidden"] else ""
    units = " · ".join(u["label"] for u in time["units"])
    parts = [
        el(
            "div",
            el("span", units, class_="unit"),
            el("span", step["label"], secret, class_="step-name"),
            el("div", steps, class_="steps", aria_hidden="true"),
            class_="clock",
            title=step.get("help", ""),
        )
    ]
    if playing:
        parts.append(
            el(
                "div",
                _chips_html(view, acts, selected),
                class_="who",
                role="group",
                aria_label="Who acts",
                title=time["acting"]["text"],
            )
        )
        nxt = next((a for a in view["table_actions"] if a["kind"] == "next_step"), None)
        if nxt is not None and not view.get("outcome"):  # a fight that has ended: no Next
            rolls = next_rolls()  # opens its card
            parts.append(
                el(
                    "button",
                    el("span", nxt["label"], class_="label"),
                    el("span", "Next", class_="short"),
                    " ▸",
                    type="button",
                    class_="next primary",
                    data_cmd="next-step",
                    data_action="next_step",
                    data_rolls="true" if rolls else "false",
                    title=nxt.get("help", ""),
                )
            )
    return joined(parts)


def _chips_html(view: dict[str, Any], acts: Callable[[str], bool], selected: str | None) -> Markup:
    """A chip per figure in the fight, in strike order: whether it ``acts`` now, the
    ``selected`` one marked."""
    chips = []
    order = view["time"]["acting"]["figures"]  # a strike order is the order itself
    rank = {fid: i for i, fid in enumerate(order)}
    for f in sorted(view["figures"], key=lambda f: rank.get(f["id"], len(order))):
        if f.get("out"):
            continue
        acting = acts(f["id"])
        state = "to act" if acting else "waiting"
        cls = "" if acting else "waiting"
        if f["id"] == selected:
            cls += " current"
        chips.append(
            el(
                "button",
                el("span", f["initials"], class_="chip-token", aria_hidden="true"),
                el("span", f"{f['name']}: {state}", class_="sr-only"),
                type="button",
                class_=cls,
                data_cmd="tracker-select",
                data_pick=f["id"],
                style=f"--side:{f['color']}",
                title=f"{f['name']}: {state}",
            )
        )
    return joined(chips)


def to_act_html(figures: Sequence[dict[str, Any]]) -> Markup:
    """A list item per figure with something left to do, its button selecting it."""
    return joined(
        el(
            "li",
            el(
                "button",
                el("span", f["initials"], class_="chip-token", style=f"--side:{f['color']}"),
                el(
                    "span",
                    f["name"],
                    el("br"),
                    el("small", f["side"], class_="muted"),
                    class_="grow",
                ),
                type="button",
                data_cmd="pick",
                data_pick=f["id"],
            ),
        )
        for f in figures
    )


def turn_line(view: dict[str, Any], left: Sequence[str] = ()) -> str:
    """One line: round and step, then who must act now (or who won, or who must answer);
    ``left``: the figures the app plays and leaves as they are in this step."""
    outcome = view.get("outcome")
    time = view["time"]
    if outcome:
        return f"{time['label']} · Fight over: {outcome['text']}"
    prompt = view.get("prompt")
    if prompt:
        name, question = prompt["figure_name"], str(prompt["question"])
        question = question.removeprefix(f"{name}: ")  # the name is said once
        return f"{time['label']} · {name} must answer: {question}"
    acting = time["acting"]
    waiting = [
        n
        for fid, n in zip(acting["figures"], acting["names"], strict=False)
        if fid in acting.get("waiting", [])
    ]
    if acting.get("hidden"):
        who = f"Secret choices from {_names(waiting)}" if waiting else "Everyone has chosen"
    elif not acting["figures"]:  # the table acts (an upkeep step), nobody else
        who = "Nobody acts: end the step"
    elif waiting:
        who = f"{len(waiting)} to act: {_names(waiting)}"
        names = dict(zip(acting["figures"], acting["names"], strict=False))
        passed = [names[fid] for fid in acting.get("waiting", []) if fid in left and fid in names]
        if passed and len(passed) == len(waiting):
            who = f"The app is done with {_names(passed)}: Next goes on"
        elif passed:
            who += f" (the app is done with {_names(passed)})"
    else:
        who = "Everyone is done: end the step"
    return f"{time['label']} · {who}"


def _names(names: Sequence[str], shown: int = 3) -> str:
    names = list(names)
    if len(names) <= shown:
        return ", ".join(names)
    return ", ".join(names[:shown]) + f" and {len(names) - shown} more"


def turn_line_html(view: dict[str, Any], left: Sequence[str] = ()) -> Markup:
    """The turn line's markup: the whole words at every size (a long line wraps, never cut)."""
    text = turn_line(view, left)
    over = "true" if view.get("outcome") else "false"
    return el("span", text, class_="turn-text", data_over=over, title=text)


def outcome_html(outcome: dict[str, Any]) -> Markup:
    """The end of the fight: who won, the summary, and that undo still goes back."""
    summary = outcome.get("summary") or {}
    lines = joined(el("li", line) for line in summary.get("lines", []))
    return el(
        "section",
        el("h2", outcome["text"]),
        el("ul", lines, class_="summary", data_summary=True),
        el(
            "p",
            "No more actions are offered. Undo goes back into the fight; the log keeps every roll.",
            class_="hint",
        ),
        class_="result outcome",
        data_outcome=outcome.get("winner") or "",
        role="status",
        tabindex="-1",
    )


def target_line(spec: dict[str, Any], params: dict[str, Any], view: dict[str, Any]) -> Markup:
    """The open action's chosen figure, unmistakable before anything is rolled."""
    names = {f["id"]: f for f in view.get("figures", [])}
    for p in spec.get("params", []):
        value = params.get(p["name"])
        if p["type"] == "figure" and value in names:
            f = names[value]
            return el(
                "p",
                f"{p['label']}: ",
                el("span", f["initials"], class_="chip-token", style=f"--side:{f['color']}"),
                " ",
                el("strong", f["name"]),
                " ",
                el("span", f"({f['side']}, at {f.get('where', '')})", class_="muted"),
                class_="target-line",
                data_target=value,
            )
    return Markup("")


def target_name(spec: dict[str, Any], params: dict[str, Any], view: dict[str, Any]) -> str:
    """The name of the open action's chosen figure ('' when it has none)."""
    names = {f["id"]: f["name"] for f in view.get("figures", [])}
    for p in spec.get("params", []):
        value = params.get(p["name"])
        if p["type"] == "figure" and value in names:
            return str(names[value])
    return ""


def choice_html(figure: dict[str, Any], offers: Sequence[tuple[dict[str, Any], str]]) -> Markup:
    """A figure tapped while another is selected: act on it (one button per action that
    accepts it) or select it instead. Nothing happens until one is pressed."""
    name, fid = figure["name"], figure["id"]
    buttons = joined(
        el(
            "button",
            f"{spec['label']} {name}",
            type="button",
            data_cmd="choose-target",
            data_kind=spec["kind"],
            data_param=param,
            data_pick=fid,
        )
        for spec, param in offers
    )
    select = el("button", f"Select {name}", type="button", data_cmd="pick", data_pick=fid)
    return el(
        "section",
        el("strong", f"{name} ({figure['side']})"),
        el("div", buttons, select, class_="row"),
        class_="result choice",
        data_choice=fid,
        tabindex="-1",
    )


def commit_bar(chance: str, buttons: Markup) -> Markup:
    """The open card's main button(s) with its chance, kept in view at the panel's bottom."""
    shown = el("span", chance, class_="bar-chance", data_bar_chance=True) if chance else None
    return el("div", shown, buttons, class_="commit-bar", data_commit_bar=True)


def refused_bar(label: str, reason: str) -> Markup:
    """The open card's main button when its action cannot be done as chosen: greyed, with
    the engine's reason beside it (a button that cannot act says why)."""
    return el(
        "div",
        el(
            "button",
            label,
            type="button",
            class_="primary",
            aria_disabled="true",
            disabled=True,
            aria_describedby="bar-problem",
        ),
        el("button", "Cancel", type="button", data_cmd="close-action"),
        el("p", reason, class_="problem", id="bar-problem", data_bar_problem=True),
        class_="commit-bar",
        data_commit_bar=True,
    )


def with_problem(bar: str, problem: str) -> str:
    """``bar`` (a :func:`commit_bar`) with ``problem`` under its buttons, where the button
    that was pressed is."""
    if not bar:
        return bar
    line = el("p", problem, class_="problem", role="alert", data_bar_problem=True)
    return bar.removesuffix("</div>") + line + "</div>"


def headline(rollables: Sequence[dict[str, Any]]) -> str:
    """The first rollable's headline chance in the engine's words ("60% to hit"), or ''."""
    for r in rollables:
        head = r.get("headline")
        if head:
            return f"{head['percent']} {head['phrase']}"
    return ""


def prompt_html(prompt: dict[str, Any]) -> Markup:
    """The open prompt: its question to the named figure and its answers."""
    answers = joined(
        el(
            "button",
            a["label"],
            type="button",
            data_cmd="answer",
            data_kind=a["kind"],
            data_answer=a["kind"],
        )
        for a in prompt["answers"]
    )
    only = f"Only {prompt['figure_name']} can act until this is answered."
    return el(
        "section",
        el("strong", prompt["question"]),
        Markup(rule_tag(prompt.get("rule", ""))),
        el("p", only, class_="hint"),
        el("div", answers, class_="row"),
        class_="result prompt",
        role="alert",
        data_prompt=prompt["id"],
    )


def worth_showing(events: Sequence[dict[str, Any]]) -> bool:
    """A result card is worth showing when something besides the clock happened."""
    return any(e.get("kind") != "clock" for e in events)


def result_html(events: Sequence[dict[str, Any]]) -> Markup:
    """The result card: what the last action did, the clock's last word at the end."""
    lines = [el("li", e["text"]) for e in events if e.get("kind") != "clock"]
    clock = [e for e in events if e.get("kind") == "clock"]
    if clock:
        lines.append(el("li", clock[-1]["text"], class_="muted"))
    close = el("button", "✕", type="button", data_cmd="close-result", aria_label="Close")
    return el(
        "div",
        el("div", el("strong", "Result", class_="grow"), close, class_="row"),
        el("ul", joined(lines), class_="breakdown"),
        class_="result",
        role="status",
        tabindex="-1",
    )
