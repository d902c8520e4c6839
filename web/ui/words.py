"""Words and small markup the panels share (pure: no page access, testable under CPython)."""

from __future__ import annotations

from typing import Any

FACING_NAMES = ("north", "north-east", "south-east", "south", "south-west", "north-west")
HOUSE_TAG = '<span class="house-default">house default</span>'


def esc(value: object) -> str:
    """Text made safe for HTML/SVG character data and double-quoted attributes."""
    text = str(value)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def tagged(text: str) -> str:
    """Escaped text with "house default" shown as a tag."""
    return esc(text).replace("house default", HOUSE_TAG)


def rule_tag(rule: str) -> str:
    """A rule id as a small tag (nothing when empty)."""
    return f' <span class="rule-id">{esc(rule)}</span>' if rule else ""


def shown(value: Any) -> str:
    """A value as the panel shows it."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None or value == "":
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def terrain_facts(t: dict[str, Any]) -> str:
    """A terrain's rules in a few words: movement cost and what it does to sight."""
    facts = ["impassable" if t.get("move_cost") is None else f"move cost {t['move_cost']}"]
    if t.get("blocks_sight"):
        facts.append("blocks sight")
    if t.get("soft_cover"):
        facts.append(f"soft cover {t['soft_cover']}")
    if t.get("obscures"):
        facts.append("obscures")
    if t.get("breaks_missile"):
        facts.append("breaks missiles")
    return ", ".join(facts)


def problems_text(exc: BaseException) -> str:
    """An engine error in plain words: its problems one per line, or its message."""
    problems = getattr(exc, "problems", None)
    if problems:
        return "; ".join(p.message if not p.path else f"{p.path}: {p.message}" for p in problems)
    return str(exc)
