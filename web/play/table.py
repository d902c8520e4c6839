"""What a table needs to see at a glance (issue 16), as markup built from the engine's views:
the turn line (round, step, who acts; always shown), the end of a fight with its summary,
the target of an open action, the choice between attacking and selecting a tapped figure,
the sticky bar with the open card's main button and chance, and the GM's tools.

Pure: no page access, so it runs under CPython in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from web.ui.words import esc


def turn_line(view: dict[str, Any]) -> str:
    """One line: round and step, then who must act now (or who won, or who must answer)."""
    outcome = view.get("outcome")
    time = view["time"]
    if outcome:
        return f"{time['label']} · Fight over: {outcome['text']}"
    prompt = view.get("prompt")
    if prompt:
        return f"{time['label']} · {prompt['figure_name']} must answer: {prompt['question']}"
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
    else:
        who = "Everyone is done: end the step"
    return f"{time['label']} · {who}"


def _names(names: Sequence[str], shown: int = 3) -> str:
    names = list(names)
    if len(names) <= shown:
        return ", ".join(names)
    return ", ".join(names[:shown]) + f" and {len(names) - shown} more"


def turn_line_html(view: dict[str, Any]) -> str:
    """The turn line's markup: the whole words at every size (a long line wraps, never cut)."""
    text = turn_line(view)
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


def headline(rollables: Sequence[dict[str, Any]]) -> str:
    """The first rollable's headline chance in the engine's words ("60% to hit"), or ''."""
    for r in rollables:
        head = r.get("headline")
        if head:
            return f"{head['percent']} {head['phrase']}"
    return ""
