"""A preview's rollables as the play panel shows them: the headline chance, every outcome,
a chain's rolls one by one, the breakdown with rule ids, the odds against each defence; and
the fields for typing the faces of real dice."""

from __future__ import annotations

from typing import Any

from web.ui.html import Markup, el, joined
from web.ui.words import rule_tag, tagged


def rollable_html(r: dict[str, Any]) -> Markup:
    """A rollable of any kind: label, headline chance, every outcome, breakdown, defences."""
    head = r["headline"]
    outcomes = joined(
        el(
            "li",
            el("span", o["label"]),
            " ",
            el("strong", o["percent"]),
            data_outcome=o["id"],
            data_chance=o["chance"],
        )
        for o in r["outcomes"]
    )
    lines = joined(
        el("li", Markup(tagged(line)), class_="total" if line.startswith("=") else None)
        for line in r["breakdown"]
    )
    return el(
        "div",
        el("div", r["label"], Markup(rule_tag(r["rule"])), class_="muted"),
        _headline_html(head) if head else None,
        el("ul", outcomes, class_="outcomes"),
        stages_html(r.get("stages") or []),
        el("ul", lines, class_="breakdown"),
        _variants_html(r["variants"]) if r["variants"] else None,
        class_="check",
        data_kind=r["kind"],
        data_chance=head["chance"] if head else "",
    )


def _headline_html(head: dict[str, Any]) -> Markup:
    """The headline chance: per cent, phrase, exact fraction and its meter."""
    return joined(
        [
            el(
                "div",
                el("span", head["percent"], class_="big", data_percent=True),
                el("span", head["phrase"], data_phrase=True),
                el("span", f"exactly {head['chance']}", class_="exact", title="exact probability"),
                class_="chance",
            ),
            el(
                "div",
                el("span", style=f"width:{_percent_width(head['chance'])}%"),
                class_="meter",
                aria_hidden="true",
            ),
        ]
    )


def _variants_html(variants: list[dict[str, Any]]) -> Markup:
    """The odds against each defence, one row a defence."""
    rows = joined(
        el(
            "tr",
            el("td", v["label"]),
            el("td", " · ".join(f"{o['label']} {o['percent']}" for o in v["outcomes"])),
            data_variant=v["label"],
        )
        for v in variants
    )
    return joined(
        [el("h3", "Against each defence"), el("table", el("tbody", rows), class_="defences")]
    )


def stages_html(stages: list[dict[str, Any]]) -> Markup:
    """A chain's rolls one by one: when each is rolled and how likely that is, then its own
    outcomes with their odds."""
    if not stages:
        return Markup()
    rows: list[Markup] = []
    for s in stages:
        reached = s.get("reached") or {}
        when = f"{s.get('when_text') or 'always'}, {reached.get('percent', '')}".strip(", ")
        odds = Markup(
            " · ".join(
                el("span", f"{o['label']} {o['percent']}", data_chance=o["chance"])
                for o in s["outcomes"]
            )
        )
        rows.append(
            el(
                "tr",
                el("td", s["label"], " ", el("span", f"({when})", class_="muted")),
                el("td", odds),
                data_stage=s.get("id", ""),
            )
        )
    return joined([el("h3", "Each roll"), el("table", el("tbody", joined(rows)), class_="stages")])


def die_name(face: dict[str, Any], when: bool = True) -> str:
    """``d6``, ``Alda's 3d10kh2`` or ``d6, if hit``: what a typed face is for."""
    name = f"{face['who']}'s {face['dice']}" if face["who"] else face["dice"]
    return f"{name}, {face['when']}" if when and face["when"] else name


def face_input(n: int, sides: int, expr: str, value: int | None) -> Markup:
    """Die ``n``'s field for a typed face (``sides`` 0: a die not known yet)."""
    span = f"1-{sides}" if sides else "next"
    return el(
        "label",
        f"Die {n} ({expr}, {span})",
        el(
            "input",
            type="number",
            inputmode="numeric",
            min="1",
            max=sides or None,
            step="1",
            data_face=n,
            value=value,
            aria_label=f"Die {n}, {expr}, {span}",
        ),
    )


def _percent_width(fraction: str) -> int:
    """The width of a chance's meter: ``"3/5"`` -> 60 (per cent, 0 to 100)."""
    num, _, den = fraction.partition("/")
    try:
        return max(0, min(100, int(num) * 100 // max(1, int(den or 1))))
    except ValueError:
        return 0
