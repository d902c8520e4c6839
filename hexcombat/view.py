"""Plain-data views of rulesets and encounters, for the browser front end, the CLI and the SVG.

The front end renders exactly these dictionaries; it never computes a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from hexcombat.actions import ActionSpec
from hexcombat.encounter import Encounter
from hexcombat.figures import Figure
from hexcombat.geometry import Hex, distance
from hexcombat.layout import hex_label
from hexcombat.map_picture import placement
from hexcombat.render import Token
from hexcombat.rulesets import Ruleset, all_rulesets, get_ruleset, ruleset_entries
from hexcombat.rulesets.gm_tools import GM_ACTIONS
from hexcombat.secrets import visible_state
from hexcombat.setup_checks import ending_note
from hexcombat.state import GameState
from hexcombat.summary import fight_summary
from hexcombat.time import Acting, unit_label
from hexcombat.validation import Json
from hexcombat.words import FACING_NAMES, figure_label

Offers = Callable[[str], Sequence[ActionSpec]]
"""A figure's offered actions in the state being viewed."""

SIDE_COLORS = ("#2f6fd6", "#c8402a", "#2e9b57", "#b07d10", "#8e44ad", "#13939a")
COLOR_NAMES = {"blue": 0, "red": 1, "green": 2, "gold": 3, "yellow": 3, "purple": 4, "teal": 5}
"""A side named after a colour of :data:`SIDE_COLORS` is drawn in it (its index there)."""


def side_colors(figures: Iterable[Figure]) -> dict[str, str]:
    """A colour per side: a side named after a colour gets it ("Red" is red whoever was placed
    first); every other side the next colour no side has, in order of first appearance.

    >>> from hexcombat.figures import Figure
    >>> from hexcombat.geometry import Hex
    >>> side_colors([Figure("a", "A", "Red", Hex(0, 0)), Figure("b", "B", "Orcs", Hex(1, 0)),
    ...              Figure("c", "C", "Blue", Hex(2, 0))])
    {'Red': '#c8402a', 'Orcs': '#2e9b57', 'Blue': '#2f6fd6'}
    """
    sides = list(dict.fromkeys(f.side for f in figures))
    named = {s: COLOR_NAMES[s.strip().lower()] for s in sides if s.strip().lower() in COLOR_NAMES}
    free = [i for i in range(len(SIDE_COLORS)) if i not in named.values()]
    colors: dict[str, str] = {}
    for side in sides:
        if side in named:
            colors[side] = SIDE_COLORS[named[side]]
        else:
            colors[side] = SIDE_COLORS[free.pop(0) if free else len(colors) % len(SIDE_COLORS)]
    return colors


def ruleset_view(ruleset: Ruleset) -> dict[str, Json]:
    """What the editor needs to know about a ruleset: options, figure fields, terrain, steps."""
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "summary": ruleset.summary,
        "units": list(ruleset.time.units),
        "default_die": ruleset.default_die,
        "options": [o.to_json() for o in ruleset.options],
        "figure_fields": [f.to_json() for f in ruleset.figure_fields],
        "terrain": ruleset.terrain.to_json(),
        "steps": [s.to_json() for s in ruleset.time.steps],
        "data": ruleset.default_data(),
        "carries_equipment": ruleset.carries_equipment,
    }


def rulesets_view() -> list[dict[str, Json]]:
    """Every registered ruleset's view."""
    return [ruleset_view(r) for r in all_rulesets()]


def starter_ruleset() -> Ruleset:
    """The ruleset a new, empty encounter uses when nobody chose one."""
    entries = ruleset_entries()  # only the starter's module is imported
    return get_ruleset(next((e for e in entries if e.starter), entries[0]).id)


def empty_encounter(width: int = 12, height: int = 10, name: str = "New encounter") -> Encounter:
    """An empty board of the starter ruleset (the app's fallback when no demo can be read)."""
    return Encounter.new(starter_ruleset().id, width, height, name=name)


def figure_view(state: GameState, figure: Figure, colors: dict[str, str]) -> dict[str, Json]:
    """A figure as the board and the figure panel show it.

    Beyond the stored figure: its side colour, whether it is out, its badges with their
    colours, the ruleset's extra numbers (``extra``), the ruleset's words for every key the
    panel shows (``labels``: extra numbers, stats, pools and statuses) and, when it has
    nothing to do for a ruleset reason, that reason (``idle``).
    """
    ruleset = state.ruleset
    badges = ruleset.badges(state, figure)
    extra = ruleset.figure_view(state, figure)
    keys = [*extra, *figure.stats, *figure.pools, *figure.statuses]
    return {
        **figure.to_json(),
        "hexes": [str(h) for h in figure.hexes()],
        "initials": figure.initials,
        "color": colors.get(figure.side, SIDE_COLORS[0]),
        "out": ruleset.is_out(state, figure),
        "badges": badges,
        "badge_colors": {b: ruleset.badge_color(b) for b in badges},
        "extra": extra,
        "labels": {k: ruleset.view_label(k) for k in keys},
        "idle": ruleset.idle_text(state, figure),
        "where": hex_label(figure.position),
        "facing_name": FACING_NAMES[figure.facing % 6],
        "label": figure_label(state, figure),
    }


def time_view(state: GameState, offers: Offers | None = None) -> dict[str, Json]:
    """The turn tracker: units and their numbers, the step, the steps, who acts, what is next
    (``offers``: see :func:`acting_offered`)."""
    ruleset = state.ruleset
    time, clock = ruleset.time, state.clock
    names = {f.id: f.name for f in state.figures.values()}
    now = time.index(clock.step)
    steps: list[Json] = []
    for i, s in enumerate(time.steps):
        if i < now:
            shown = "done"
        elif i == now:
            shown = "current"
        else:
            shown = "skipped" if ruleset.step_is_empty(state, s) else "next"
        steps.append({"id": s.id, "label": s.label, "state": shown})
    step = state.step
    return {
        "units": [
            {"unit": u, "number": n, "label": unit_label(u, n)} for u, n in time.numbers(clock)
        ],
        "label": time.label(clock),
        "step": step.to_json(),
        "steps": steps,
        "acting": acting_offered(state, offers).to_json(names),
        "next": {"label": f"Finish: {step.label}", "blocked": ruleset.next_step_blocked(state)},
    }


def acting_offered(state: GameState, offers: Offers | None = None) -> Acting:
    """Who acts now, as the turn line says it: the ruleset's order, with ``waiting`` exactly
    the figures the panel offers an action (the ruleset's order first, then set-up order).
    ``offers`` gives a figure's offered actions in ``state`` (an encounter's
    :meth:`~hexcombat.encounter.Encounter.legal_actions`, worked out once per state and
    figure); by default the ruleset is asked again."""
    ruleset = state.ruleset
    acting = ruleset.who_acts(state)
    rank = {fid: i for i, fid in enumerate(acting.figures)}
    offered = offers or (lambda fid: ruleset.legal_actions(state, fid))
    ready = [fid for fid in state.figures if offered(fid)]
    ready.sort(key=lambda fid: rank.get(fid, len(rank)))
    return acting.offering(ready)


def prompt_view(state: GameState) -> dict[str, Json] | None:
    """The open prompt, with its figure's name, or None."""
    prompt = state.prompt
    return None if prompt is None else prompt.to_json(state.figure(prompt.figure).name)


def action_view(ruleset: Ruleset, spec: ActionSpec) -> dict[str, Json]:
    """An offered action as a form description, with the ruleset's words for it (``words``:
    ``cost_unit`` after its cost, ``confirm`` on its button once its hex is chosen)."""
    words: dict[str, Json] = dict(ruleset.action_words(spec))
    group = "gm" if spec.kind in GM_ACTIONS or spec.kind.startswith("gm_") else ""
    return {**spec.to_json(), "words": words, "group": group}


def encounter_view(encounter: Encounter) -> dict[str, Json]:
    """The whole encounter as the app draws it: board, figures, time, prompt, undo, actions."""
    state = encounter.state
    seen = visible_state(state)  # the figures as the whole table may know them
    colors = side_colors(state.figures.values())
    return {
        "name": encounter.setup.name,
        "notes": encounter.setup.notes,
        "ruleset": {"id": encounter.ruleset.id, "name": encounter.ruleset.name},
        "options": dict(state.options),
        "time": time_view(state, encounter.legal_actions),
        "prompt": prompt_view(state),
        "board": state.board.to_json(),
        "figures": [figure_view(seen, f, colors) for f in seen.figures.values()],
        "sides": colors,
        "can_undo": encounter.can_undo,
        "can_redo": encounter.can_redo,
        "cursor": encounter.cursor,
        "log_length": len(encounter.log),
        "table_actions": [action_view(encounter.ruleset, a) for a in encounter.legal_actions(None)],
        "gm_actions": [action_view(encounter.ruleset, a) for a in encounter.gm_actions()],
        "started": encounter.cursor > 0,
        "ending": ending_note(encounter.ruleset, state.options, state.figures.values()),
        "outcome": outcome_view(encounter),
        "picture": picture_view(encounter),
    }


def picture_view(encounter: Encounter) -> dict[str, Json] | None:
    """The map picture under the board, if the board names one: its digest (the page finds
    its bytes under it), size, how terrain shows over it, the SVG ``placement`` under a board
    whose hex (0, 0) is centred at 0,0 with hexes of size 1 (the page scales and moves it
    with its own board), and the words for when the picture is not at hand."""
    picture = encounter.setup.picture
    if picture is None:
        return None
    return {
        **picture.to_json(),
        "placement": placement(picture, (0.0, 0.0), 1.0),
        "missing_words": PICTURE_MISSING,
        "share_words": PICTURE_LEFT_OUT,
    }


PICTURE_MISSING = (
    "The map picture of this fight is not on this device, so the board is shown plain."
)
PICTURE_LEFT_OUT = (
    "A share link carries no map picture (too large for a link): the board is shown plain "
    "unless this device holds the picture."
)


def outcome_view(encounter: Encounter) -> dict[str, Json] | None:
    """How the fight ended (None while it goes on): who won, in words, and its summary."""
    outcome = encounter.ruleset.fight_outcome(encounter.state)
    if outcome is None:
        return None
    return {**outcome.to_json(), "summary": fight_summary(encounter)}


def hex_view(encounter: Encounter, key: Hex) -> dict[str, Json]:
    """A hex as a person reads it: its friendly label and axial key."""
    return {"hex": str(key), "label": hex_label(key)}


def measure_view(
    encounter: Encounter, a: Hex, b: Hex, figure_id: str | None = None
) -> dict[str, Json]:
    """The measure tool: distance from ``a`` to ``b``, line of sight with its reason, and the
    range band when the ruleset has bands: for ``figure_id`` (the selected figure), else for
    the figure standing in ``a`` (measuring from a figure gives its weapon's band)."""
    state = encounter.state
    ruleset = encounter.ruleset
    line = ruleset.sight(state, a, b)
    d = distance(a, b)
    figure = state.figures.get(figure_id) if figure_id else None
    if figure is None:
        figure = next(iter(state.occupants(a)), None)
    band = ruleset.range_band(state, figure, d)
    return {
        "from": str(a),
        "to": str(b),
        "from_label": hex_label(a),
        "to_label": hex_label(b),
        "distance": d,
        "clear": line.clear,
        "reason": line.reason,
        "band": band,
        "line": [[str(h) for h in step.hexes] for step in line.steps],
        "blocking": [str(h) for h in line.blocking],
        "soft": [str(h) for h in line.soft],
        "head": measure_text(d, line.clear, line.reason, ""),  # the readout's line above the band
        "text": measure_text(d, line.clear, line.reason, band),
    }


def measure_text(d: int, clear: bool, reason: str, band: str) -> str:
    """One sentence for a measurement: "4 hexes; line of sight clear; Medium range"."""
    sight = "line of sight clear" if clear else f"no line of sight ({reason})"
    if clear and reason and reason != "clear":
        sight = f"line of sight {reason}"
    words = [f"{d} {'hex' if d == 1 else 'hexes'}", sight]
    if band:
        words.append(band)
    return "; ".join(words)


def actions_view(encounter: Encounter, figure_id: str | None) -> list[dict[str, Json]]:
    """The actions a figure (or the table) may take now, as form descriptions."""
    return [action_view(encounter.ruleset, a) for a in encounter.legal_actions(figure_id)]


def reach_view(encounter: Encounter, figure_id: str) -> dict[str, int]:
    """Hexes the figure can reach in this step with their cheapest cost ("q,r" -> points)."""
    state = encounter.state
    reach = encounter.ruleset.reach(state, state.figure(figure_id))
    if reach is None:
        return {}
    return {str(h): cost for h, cost in reach.hex_costs().items()}


def sight_view(encounter: Encounter, figure_id: str, target: Hex) -> dict[str, Json]:
    """Line of sight from a figure to a hex: the line, what blocks it and why, and the distance.

    A figure covering several hexes looks from its covered hex nearest ``target``.
    """
    state = encounter.state
    origin = min(state.figure(figure_id).hexes(), key=lambda h: distance(h, target))
    line = encounter.ruleset.sight(state, origin, target)
    return {
        "from": str(origin),
        "to": str(target),
        "distance": distance(origin, target),
        "clear": line.clear,
        "reason": line.reason,
        "line": [[str(h) for h in step.hexes] for step in line.steps],
        "blocking": [str(h) for h in line.blocking],
        "soft": [str(h) for h in line.soft],
    }


def tokens(state: GameState) -> list[Token]:
    """The figures of a state as tokens for :func:`hexcombat.render.render_svg`, as the whole
    table may know them."""
    state = visible_state(state)
    colors = side_colors(state.figures.values())
    return [
        Token(
            f.id,
            f.name,
            f.side,
            f.position,
            f.facing,
            colors[f.side],
            tuple(state.ruleset.badges(state, f)),
            f.hexes()[1:],
            out=state.ruleset.is_out(state, f),
        )
        for f in state.figures.values()
    ]
