"""What a table needs to see at a glance, as markup built from the engine's views:
the turn line (round, step, who acts; always shown), the end of a fight with its summary,
the target of an open action, the choice between attacking and selecting a tapped figure,
the sticky bar with the open card's main button and chance, the GM's tools, an open
question (a prompt) and the result of the last action.

Pure: no page access, so it runs under CPython in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from web.ui.words import esc, rule_tag


def tracker_html(
    view: dict[str, Any],
    *,
    playing: bool,
    acts: Callable[[str], bool],
    selected: str | None,
    next_rolls: Callable[[], bool] = lambda: False,
) -> str:
    """The turn tracker: unit and step with the steps' dots; while ``playing`` also a chip per
    figure in the fight (in strike order; whether it ``acts`` now; the ``selected`` one
    marked) and the next-step button (``data-rolls`` when ending the step ``next_rolls``:
    then it opens the step's card)."""
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
    if playing:
        parts.append(
            f'<div class="who" role="group" aria-label="Who acts" '
            f'title="{esc(time["acting"]["text"])}">{_chips_html(view, acts, selected)}</div>'
        )
        nxt = next((a for a in view["table_actions"] if a["kind"] == "next_step"), None)
        if nxt is not None and not view.get("outcome"):  # a fight that has ended: no Next
            rolls = next_rolls()  # opens its card
            parts.append(
                f'<button type="button" class="next primary" data-cmd="next-step" '
                f'data-action="next_step" data-rolls="{"true" if rolls else "false"}" '
                f'title="{esc(nxt.get("help", ""))}">'
                f'<span class="label">{esc(nxt["label"])}</span><span class="short">Next'
                f"</span> ▸</button>"
            )
    return "".join(parts)


def _chips_html(view: dict[str, Any], acts: Callable[[str], bool], selected: str | None) -> str:
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
            f'<button type="button" class="{cls}" data-cmd="tracker-select" '
            f'data-pick="{esc(f["id"])}" style="--side:{esc(f["color"])}" '
            f'title="{esc(f["name"])}: {state}">'
            f'<span class="chip-token" aria-hidden="true">{esc(f["initials"])}</span>'
            f'<span class="sr-only">{esc(f["name"])}: {state}</span></button>'
        )
    return "".join(chips)


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


def turn_line_html(view: dict[str, Any], left: Sequence[str] = ()) -> str:
    """The turn line's markup: the whole words at every size (a long line wraps, never cut)."""
    text = turn_line(view, left)
    over = "true" if view.get("outcome") else "false"
    return f'<span class="turn-text" data-over="{over}" title="{esc(text)}">{esc(text)}</span>'


def outcome_html(outcome: dict[str, Any]) -> str:
    """The end of the fight: who won, the summary, and that undo still goes back."""
    summary = outcome.get("summary") or {}
    lines = "".join(f"<li>{esc(line)}</li>" for line in summary.get("lines", []))
    return (
        f'<section class="result outcome" data-outcome="{esc(outcome.get("winner") or "")}" '
        'role="status" tabindex="-1">'
        f"<h2>{esc(outcome['text'])}</h2>"
        f'<ul class="summary" data-summary>{lines}</ul>'
        '<p class="hint">No more actions are offered. Undo goes back into the fight; the '
        "log keeps every roll.</p></section>"
    )


def target_line(spec: dict[str, Any], params: dict[str, Any], view: dict[str, Any]) -> str:
    """The open action's chosen figure, unmistakable before anything is rolled."""
    names = {f["id"]: f for f in view.get("figures", [])}
    for p in spec.get("params", []):
        value = params.get(p["name"])
        if p["type"] == "figure" and value in names:
            f = names[value]
            return (
                f'<p class="target-line" data-target="{esc(value)}">'
                f'{esc(p["label"])}: <span class="chip-token" style="--side:{esc(f["color"])}">'
                f"{esc(f['initials'])}</span> <strong>{esc(f['name'])}</strong> "
                f'<span class="muted">({esc(f["side"])}, at {esc(f.get("where", ""))})</span></p>'
            )
    return ""


def target_name(spec: dict[str, Any], params: dict[str, Any], view: dict[str, Any]) -> str:
    """The name of the open action's chosen figure ('' when it has none)."""
    names = {f["id"]: f["name"] for f in view.get("figures", [])}
    for p in spec.get("params", []):
        value = params.get(p["name"])
        if p["type"] == "figure" and value in names:
            return str(names[value])
    return ""


def choice_html(figure: dict[str, Any], offers: Sequence[tuple[dict[str, Any], str]]) -> str:
    """A figure tapped while another is selected: act on it (one button per action that
    accepts it) or select it instead. Nothing happens until one is pressed."""
    name = esc(figure["name"])
    buttons = "".join(
        f'<button type="button" data-cmd="choose-target" data-kind="{esc(spec["kind"])}" '
        f'data-param="{esc(param)}" data-pick="{esc(figure["id"])}">'
        f"{esc(spec['label'])} {name}</button>"
        for spec, param in offers
    )
    return (
        f'<section class="result choice" data-choice="{esc(figure["id"])}" tabindex="-1">'
        f"<strong>{name} ({esc(figure['side'])})</strong>"
        f'<div class="row">{buttons}'
        f'<button type="button" data-cmd="pick" data-pick="{esc(figure["id"])}">'
        f"Select {name}</button></div></section>"
    )


def commit_bar(chance: str, buttons: str) -> str:
    """The open card's main button(s) with its chance, kept in view at the panel's bottom."""
    shown = f'<span class="bar-chance" data-bar-chance>{esc(chance)}</span>' if chance else ""
    return f'<div class="commit-bar" data-commit-bar>{shown}{buttons}</div>'


def refused_bar(label: str, reason: str) -> str:
    """The open card's main button when its action cannot be done as chosen: greyed, with
    the engine's reason beside it (a button that cannot act says why)."""
    return (
        '<div class="commit-bar" data-commit-bar>'
        f'<button type="button" class="primary" aria-disabled="true" disabled '
        f'aria-describedby="bar-problem">{esc(label)}</button>'
        '<button type="button" data-cmd="close-action">Cancel</button>'
        f'<p class="problem" id="bar-problem" data-bar-problem>{esc(reason)}</p></div>'
    )


def with_problem(bar: str, problem: str) -> str:
    """``bar`` (a :func:`commit_bar`) with ``problem`` under its buttons, where the button
    that was pressed is."""
    if not bar:
        return bar
    line = f'<p class="problem" role="alert" data-bar-problem>{esc(problem)}</p>'
    return bar.removesuffix("</div>") + line + "</div>"


def headline(rollables: Sequence[dict[str, Any]]) -> str:
    """The first rollable's headline chance in the engine's words ("60% to hit"), or ''."""
    for r in rollables:
        head = r.get("headline")
        if head:
            return f"{head['percent']} {head['phrase']}"
    return ""


def prompt_html(prompt: dict[str, Any]) -> str:
    """The open prompt: its question to the named figure and its answers."""
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


def worth_showing(events: Sequence[dict[str, Any]]) -> bool:
    """A result card is worth showing when something besides the clock happened."""
    return any(e.get("kind") != "clock" for e in events)


def result_html(events: Sequence[dict[str, Any]]) -> str:
    """The result card: what the last action did, the clock's last word at the end."""
    lines = "".join(f"<li>{esc(e['text'])}</li>" for e in events if e.get("kind") != "clock")
    clock = [e for e in events if e.get("kind") == "clock"]
    if clock:
        lines += f'<li class="muted">{esc(clock[-1]["text"])}</li>'
    return (
        '<div class="result" role="status" tabindex="-1"><div class="row">'
        '<strong class="grow">Result'
        '</strong><button type="button" data-cmd="close-result" aria-label="Close">✕</button>'
        f'</div><ul class="breakdown">{lines}</ul></div>'
    )
