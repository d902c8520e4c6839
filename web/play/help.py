"""The help panel's words: gestures, keys and what the colours on the board mean.

Nothing here names a ruleset: units, badges and their colours come from the ruleset and
are explained where they show (the figure panel, the terrain legend).
"""

from __future__ import annotations

from web.ui.html import Markup, el, joined

GESTURES = (
    ("Tap a figure", "select it: its numbers, its actions and where it can go."),
    (
        "Tap a tinted hex",
        "choose it as the destination; nothing moves until you press the "
        "button in the panel (e.g. Move here).",
    ),
    (
        "Tap an enemy",
        "with an action open, make it the target; otherwise choose between "
        "Attack and Select in the panel.",
    ),
    ("Long-press (or hover)", "a hex or figure: its terrain, costs and who stands there."),
    (
        "Ruler button or M",
        "measure: tap two hexes for the distance, line of sight with the "
        "reason, and the range band.",
    ),
    ("Drag, pinch, wheel", "pan and zoom; double-tap or the fit button shows the whole board."),
    (
        "Sheet handle",
        "on a phone or portrait tablet, drag the panel's handle between peek, "
        "half and full height.",
    ),
)
KEYS = (
    ("Arrow keys", "move the hex cursor on the board"),
    ("N / Shift+N", "put the cursor on the next / previous figure, named as it is reached"),
    ("Enter", "select or confirm the hex under the cursor; in a figure's form, apply it"),
    ("Esc", "close what is open, then clear the selection"),
    ("A", "jump to the action panel (the open card's main button)"),
    ("M", "measure tool on or off"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    ("R / Shift+R", "turn the selected figure in set-up"),
    ("+ / - / F", "zoom in, zoom out, fit the board"),
    ("?", "this help"),
)
COLOURS = (
    ("Coloured ring", "a figure's side; the wedge points where it faces"),
    ("Lifted token", "the selected figure"),
    ("Tinted hex with a number", "where the selected figure can go, and what it costs"),
    ("Line through hexes", "the path a move takes"),
    ("Red ring", "the target of the open action"),
    ("Green line / red line with ✕", "line of sight: clear, or blocked at the marked hex"),
    ("Soft rings", "range bands of the open action"),
    ("Small dots on a token", "statuses (hover or long-press a figure for their names)"),
    ("Grey cross on a token", "out of the fight"),
)


def _list(title: str, pairs: tuple[tuple[str, str], ...]) -> Markup:
    """A heading and its terms with their meanings."""
    rows = joined(joined([el("dt", a), el("dd", b)]) for a, b in pairs)
    return joined([el("h3", title), el("dl", rows, class_="help-list")])


def help_html() -> Markup:
    """The help panel's markup."""
    return el(
        "div",
        el(
            "p",
            "Pick a figure, pick what it does, check the exact chance, then press the one "
            "button that carries it out. Undo takes anything back.",
        ),
        _list("Gestures", GESTURES),
        _list("Keys", KEYS),
        _list("Colours", COLOURS),
        el(
            "p",
            "The GM's tools (set hit points or other pools, a status for some rounds, a note, "
            "free dice) are under “GM tools” in the panel; everything they do goes in the log "
            "and can be undone.",
        ),
        class_="help",
        data_help=True,
    )
