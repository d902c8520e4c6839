"""A preview's rollables as the play panel shows them: the headline chance, every outcome,
a chain's rolls one by one, the breakdown with rule ids, the odds against each defence; and
the fields for typing the faces of real dice."""

from __future__ import annotations

from typing import Any

from web.ui.words import esc, rule_tag, tagged


def rollable_html(r: dict[str, Any]) -> str:
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
        f'<ul class="outcomes">{outcomes}</ul>{stages_html(r.get("stages") or [])}'
        f'<ul class="breakdown">{lines}</ul>{variants}</div>'
    )


def stages_html(stages: list[dict[str, Any]]) -> str:
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


def die_name(face: dict[str, Any], when: bool = True) -> str:
    """``d6``, ``Alda's 3d10kh2`` or ``d6, if hit``: what a typed face is for."""
    name = f"{face['who']}'s {face['dice']}" if face["who"] else face["dice"]
    return f"{name}, {face['when']}" if when and face["when"] else name


def face_input(n: int, sides: int, expr: str, value: int | None) -> str:
    """Die ``n``'s field for a typed face (``sides`` 0: a die not known yet)."""
    limit = f' max="{sides}"' if sides else ""
    span = f"1-{sides}" if sides else "next"
    shown = f' value="{value}"' if value is not None else ""
    return (
        f"<label>Die {n} ({esc(expr)}, {span})"
        f'<input type="number" inputmode="numeric" min="1"{limit} step="1" data-face="{n}"{shown} '
        f'aria-label="Die {n}, {esc(expr)}, {span}"></label>'
    )


def _percent_width(fraction: str) -> int:
    """The width of a chance's meter: ``"3/5"`` -> 60 (per cent, 0 to 100)."""
    num, _, den = fraction.partition("/")
    try:
        return max(0, min(100, int(num) * 100 // max(1, int(den or 1))))
    except ValueError:
        return 0
