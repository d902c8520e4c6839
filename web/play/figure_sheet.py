"""What the play panel says about one figure (its pools, statuses, numbers, skills and
equipment around its actions, or why it has nothing to do) and about one hex (its terrain,
who stands there, why an action refuses it, the line of sight to it), as markup built from
the engine's views.

Pure: no page access, so it runs under CPython in the tests.
"""

from __future__ import annotations

from typing import Any

from hexcombat.terrain import terrain_facts
from web.ui.forms import choices_of, is_house_value
from web.ui.html import Markup, el, joined
from web.ui.words import FACING_NAMES, HOUSE_TAG, shown


def figure_html(
    f: dict[str, Any], figure_fields: list[dict[str, Any]], suggest: str, actions: str
) -> Markup:
    """Figure ``f`` of the view: its head, pools and statuses, the app's ``suggest`` button,
    its ``actions`` (cards), then what it is now, its numbers, skills and equipment."""
    fields = {x["name"]: x for x in figure_fields}
    labels = f.get("labels") or {}

    out = " — out of the fight" if f.get("out") else ""
    where = f"At {f.get('where') or f['position']}, facing {FACING_NAMES[int(f['facing'])]}{out}."
    head = joined(
        [
            el(
                "div",
                el("span", f["initials"], class_="chip-token", style=f"--side:{f['color']}"),
                el("h2", f"{f['name']} ", el("small", f["side"], class_="muted"), class_="grow"),
                el("button", "✕", type="button", data_cmd="deselect", aria_label="Close"),
                class_="row",
            ),
            el("p", where, class_="hint"),
        ]
    )
    statuses = joined(
        el(
            "span",
            labels.get(s["id"], s["id"]),
            f" · {s['remaining']} left" if s.get("remaining") is not None else None,
            class_="pill",
            title=s.get("note", ""),
        )
        for s in f.get("statuses", [])
    )
    return joined(
        [
            head,
            _pools_html(f, fields, labels),
            el("div", statuses, class_="row") if statuses else None,
            Markup(suggest),  # above the cards: in view on a phone
            el("h3", "Actions"),
            Markup(actions),
            _numbers_html(f, fields, labels),
        ]
    )


def _pools_html(
    f: dict[str, Any], fields: dict[str, dict[str, Any]], labels: dict[str, str]
) -> Markup:
    """Figure ``f``'s pools, each with its bar (marked low at a third or less)."""
    return joined(
        el(
            "div",
            el("span", _label(name, fields, labels)),
            el(
                "span",
                el(
                    "span",
                    class_="low" if p["current"] * 3 <= p["maximum"] else "",
                    style=f"width:{100 * p['current'] // max(1, p['maximum'])}%",
                ),
                class_="bar",
                role="img",
                aria_label=f"{p['current']} of {p['maximum']}",
            ),
            el("strong", f"{p['current']}/{p['maximum']}"),
            class_="pool",
        )
        for name, p in (f.get("pools") or {}).items()
    )


def _numbers_html(
    f: dict[str, Any], fields: dict[str, dict[str, Any]], labels: dict[str, str]
) -> Markup:
    """What figure ``f`` is now, its numbers (a number still at its house default tagged),
    skills and equipment."""

    stats = joined(
        joined(
            [
                el(
                    "dt",
                    _label(k, fields, labels),
                    Markup(" " + HOUSE_TAG) if is_house_value(fields.get(k, {}), v) else None,
                ),
                el("dd", stat_words(fields.get(k, {}), v)),
            ]
        )
        for k, v in (f.get("stats") or {}).items()
    )
    extra = joined(
        joined([el("dt", labels.get(k, k)), el("dd", shown(v))])
        for k, v in (f.get("extra") or {}).items()
    )
    skills = joined(joined([el("dt", k), el("dd", v)]) for k, v in (f.get("skills") or {}).items())
    gear = joined(
        el("li", i["name"], " ", el("span", f"({i.get('kind', '')}, {_state(i)})", class_="muted"))
        for i in f.get("equipment", [])
    )
    sections = (
        ("Now", "dl", "stats", extra),
        ("Numbers", "dl", "stats", stats),
        ("Skills", "dl", "stats", skills),
        ("Equipment", "ul", "gear", gear),
    )
    return joined(
        joined([el("h3", title), el(tag, items, class_=kind)])
        for title, tag, kind, items in sections
        if items
    )


def _state(item: dict[str, Any]) -> str:
    """An item's state, and whether it is loaded where that applies."""
    loaded = item.get("loaded")
    tail = "" if loaded is None else (", loaded" if loaded else ", not loaded")
    return f"{item.get('state', '')}{tail}"


def stat_words(field: dict[str, Any], value: Any) -> str:
    """A stat as the sheet shows it: a choice by its label (the player's word, "Langasaex"
    for ``langasaex``), anything else as it is.

    >>> stat_words({"choices": [{"value": "none", "label": "None"}]}, "none")
    'None'
    >>> stat_words({}, 12)
    '12'
    """
    for choice in choices_of(field):
        if choice.get("value") == value:
            return str(choice.get("label", value))
    return shown(value)


def _label(key: str, fields: dict[str, dict[str, Any]], labels: dict[str, str]) -> str:
    """A stat's or pool's name: the figure field's label, else the ruleset's word for it."""
    return str(fields.get(key, {}).get("label", labels.get(key, key)))


def idle_html(view: dict[str, Any], fid: str | None) -> Markup:
    """Why a figure (or the table) has nothing to do now."""
    if fid is None:  # the overview says it in its own words
        return Markup()
    if view.get("outcome"):
        return el("p", "The fight is over: no more actions.", class_="hint")
    f = next((x for x in view["figures"] if x["id"] == fid), None)
    if f is not None and f.get("out"):
        return el("p", "Out of the fight: no actions.", class_="hint")
    acting = view["time"]["acting"]
    step = view["time"]["step"]["label"]
    done = fid in acting["figures"] and fid not in acting["waiting"]
    if done and acting["hidden"]:  # chosen already; the step's choices stay secret
        return el(
            "p",
            f"Chosen in this step ({step}): the choice stays hidden until everyone has chosen.",
            class_="hint declared",
        )
    idle = (f or {}).get("idle")
    if idle:
        return el("p", idle, class_="hint")
    if done:
        return el("p", f"Done in this step ({step}).", class_="hint declared")
    return el("p", "Nothing to do in this step. End the step when ready.", class_="hint")


def hex_info_html(
    key_words: str,
    terrain: dict[str, Any],
    figure: dict[str, Any] | None,
    why_not: str,
    sight: dict[str, Any] | None,
    seer: str,
) -> Markup:
    """A hex's card: its terrain (``key_words`` names the hex), the ``figure`` standing there,
    why the selected figure's actions refuse it, and the line of sight from ``seer``."""
    t = terrain
    lines = [el("div", terrain_facts(t), class_="muted")]
    if t.get("help"):
        lines.append(el("div", t["help"]))
    if figure is not None:
        f = figure
        labels = f.get("labels") or {}
        pools = ", ".join(
            f"{labels.get(k, k)} {p['current']}/{p['maximum']}"
            for k, p in (f.get("pools") or {}).items()
        )
        states = ", ".join(labels.get(s["id"], s["id"]) for s in f.get("statuses", []))
        extra = "; ".join(x for x in (pools, states) if x)
        lines.append(
            el(
                "div",
                el("strong", f["name"]),
                f" ({f['side']}) stands here",
                f": {extra}" if extra else None,
                ".",
            )
        )
    if why_not:
        lines.append(el("div", why_not, class_="problem", role="alert"))
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
            el(
                "div",
                f"Line of sight from {seer}: {verdict}, {sight['distance']} hexes away.",
                class_="sight",
                data_clear=str(bool(sight["clear"])).lower(),
            )
        )
    heading = el("strong", f"Hex {key_words}: {t['name']}", class_="grow")
    close = el("button", "✕", type="button", data_cmd="close-info", aria_label="Close")
    return el("div", el("div", heading, close, class_="row"), *lines, class_="result info")
