"""The play panel's action cards: one per offered action, the open one holding its form and
preview, the GM's tools apart; each card's head shows its chance once its parameters are
settled. Also the starting values of an action's parameters and its cost's unit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexcombat import Action, Encounter
from hexcombat.schema import FieldSpec, settle
from web.ui.words import esc, rule_tag, tagged


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
) -> str:
    """The action cards, the open one (``kind``, filled in with ``params``) with its form and
    preview; the GM's tools apart."""
    cards: list[str] = []
    gm_cards: list[str] = []
    for spec in specs:
        open_ = spec["kind"] == kind
        inner = ""
        if open_:
            help_text = tagged(spec.get("help", "")) + rule_tag(spec.get("rule", ""))
            inner = (
                f'<p class="hint">{help_text}</p><div id="action-form"></div>'
                '<div id="preview" aria-live="polite"></div>'
            )
        badge = chance_badge(enc, spec, params if open_ else {})
        (gm_cards if spec.get("group") == "gm" else cards).append(
            f'<section class="action-card" data-action="{esc(spec["kind"])}" '
            f'data-expanded="{"true" if open_ else "false"}">'
            f'<button type="button" class="action-head" data-cmd="open-action" '
            f'data-kind="{esc(spec["kind"])}" aria-expanded="{"true" if open_ else "false"}">'
            f"<span>{esc(spec['label'])}</span>{badge}"
            f'<span class="muted" aria-hidden="true">{"▾" if open_ else "▸"}</span></button>'
            f"{inner}</section>"
        )
    gm_open = any(s["kind"] == kind and s.get("group") == "gm" for s in specs)
    gm = (
        f'<details class="gm-tools" data-gm{" open" if gm_open else ""}>'
        f'<summary>GM tools</summary><div class="actions">{"".join(gm_cards)}</div></details>'
        if gm_cards
        else ""
    )
    return f'<div class="actions">{"".join(cards)}</div>{gm}'


def chance_badge(enc: Encounter, spec: dict[str, Any], params: dict[str, Any]) -> str:
    """The chance of an action whose parameters are already settled (with ``params`` kept),
    for its card's head."""
    settled = settle(offered_fields(enc, spec), params)
    if any(p.get("required", True) and p["name"] not in settled for p in spec["params"]):
        return ""
    pv = enc.preview(Action(spec["kind"], spec["figure"], settled))
    heads = [h for r in pv.rollables if (h := r.headline())] if pv.allowed else []
    if not heads:
        return ""
    return f'<span class="chance-badge">{esc(heads[0].to_json()["percent"])}</span>'
