"""The play panel's action cards: one per offered action, the open one holding its form and
preview, the GM's tools apart; each card's head shows its chance once its parameters are
settled. Also the starting values of an action's parameters and its cost's unit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexcombat import Action, Encounter
from hexcombat.schema import FieldSpec, settle
from web.ui.html import Markup, el, joined
from web.ui.words import rule_tag, tagged


def cost_words(spec: dict[str, Any] | None) -> str:
    """The unit the ruleset gives an action's cost ("MP"), or ''."""
    return str(((spec or {}).get("words") or {}).get("cost_unit", ""))


def defaults(spec: dict[str, Any], keep: dict[str, Any]) -> dict[str, Any]:
    """Starting values of an action's parameters: kept picks, given defaults, single choices,
    each only when its list offers it (the engine's :func:`~hexcombat.schema.settle`)."""
    return settle([FieldSpec.from_json(p) for p in spec.get("params", [])], keep)


def offered_fields(enc: Encounter, spec: dict[str, Any]) -> Sequence[FieldSpec]:
    """The parameters of ``spec`` (an action offered in ``enc``'s state, as JSON): the
    engine's own, kept for the state, when it offers one action of that kind to that figure
    (a move's hundreds of hexes are then not read again), else read from the JSON."""
    same = [a for a in enc.legal_actions(spec.get("figure")) if a.kind == spec["kind"]]
    if len(same) == 1:
        return same[0].params
    return [FieldSpec.from_json(p) for p in spec.get("params", [])]


def cards_html(
    specs: list[dict[str, Any]], kind: str | None, params: dict[str, Any], enc: Encounter
) -> Markup:
    """The action cards, the open one (``kind``, filled in with ``params``) with its form and
    preview; the GM's tools apart."""
    cards: list[Markup] = []
    gm_cards: list[Markup] = []
    for spec in specs:
        open_ = spec["kind"] == kind
        inner = (
            joined(
                [
                    el(
                        "p",
                        Markup(tagged(spec.get("help", "")) + rule_tag(spec.get("rule", ""))),
                        class_="hint",
                    ),
                    el("div", id="action-form"),
                    el("div", id="preview", aria_live="polite"),
                ]
            )
            if open_
            else None
        )
        expanded = "true" if open_ else "false"
        head = el(
            "button",
            el("span", spec["label"]),
            chance_badge(enc, spec, params if open_ else {}),
            el("span", "▾" if open_ else "▸", class_="muted", aria_hidden="true"),
            type="button",
            class_="action-head",
            data_cmd="open-action",
            data_kind=spec["kind"],
            aria_expanded=expanded,
        )
        card = el(
            "section",
            head,
            inner,
            class_="action-card",
            data_action=spec["kind"],
            data_expanded=expanded,
        )
        (gm_cards if spec.get("group") == "gm" else cards).append(card)
    gm_open = any(s["kind"] == kind and s.get("group") == "gm" for s in specs)
    gm = (
        el(
            "details",
            el("summary", "GM tools"),
            el("div", joined(gm_cards), class_="actions"),
            class_="gm-tools",
            data_gm=True,
            open=gm_open,
        )
        if gm_cards
        else None
    )
    return joined([el("div", joined(cards), class_="actions"), gm])


def chance_badge(enc: Encounter, spec: dict[str, Any], params: dict[str, Any]) -> Markup | None:
    """The chance of an action whose parameters are already settled (with ``params`` kept),
    for its card's head."""
    settled = settle(offered_fields(enc, spec), params)
    if any(p.get("required", True) and p["name"] not in settled for p in spec["params"]):
        return None
    pv = enc.preview(Action(spec["kind"], spec["figure"], settled))
    heads = [h for r in pv.rollables if (h := r.headline())] if pv.allowed else []
    if not heads:
        return None
    return el("span", str(heads[0].to_json()["percent"]), class_="chance-badge")
