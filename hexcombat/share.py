"""Sharing an encounter: links with the document in the URL fragment, what a received
link adds to one's own copy (play by post), and static exports (board SVG, log as Markdown).

A share link is the page's address with ``#e=<share code>`` (:func:`hexcombat.document.
to_share_code`: compact JSON, zlib, URL-safe base64), its log cut before any secret still
kept (``&k=`` then says how many actions are kept back). The fragment never reaches a
server. The Markdown and SVG exports read the log as the table does
(:func:`~hexcombat.secrets.shown_events`, :func:`~hexcombat.view.tokens`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from hexcombat.document import from_share_code, to_share_code
from hexcombat.encounter import Encounter
from hexcombat.events import Event
from hexcombat.map_picture import data_url, digest_of
from hexcombat.render import Token, render_svg
from hexcombat.secrets import Followed, told_entries
from hexcombat.state import GameState
from hexcombat.validation import Json
from hexcombat.view import tokens

__all__ = [
    "LINK_LIMIT",
    "QR_LIMIT",
    "Received",
    "board_svg",
    "code_from_fragment",
    "encounter_from_fragment",
    "fingerprint",
    "kept_back",
    "log_markdown",
    "new_events",
    "received",
    "setup_fingerprint",
    "share_fragment",
    "when_words",
]

FRAGMENT_KEY = "e"
KEPT_KEY = "k"
"""The fragment's count of actions kept back (a link made while a secret is pending)."""
LINK_LIMIT = 16_000
"""Longest link offered for sharing (characters). Browsers open far longer ones, but chat
apps, mail and wiki editors cut or refuse them; beyond this the page offers the file."""
QR_LIMIT = 2_900
"""Longest link drawn as a QR code: up to version 40 at the lowest error correction (2,953
bytes); dense, but a phone held close to a tablet's screen reads it, and a fight of a few
dozen actions (the fig-percentile demo: 1,800 characters) still fits."""


def share_fragment(encounter: Encounter) -> str:
    """The URL fragment (with ``#``) that carries the encounter as everyone may read it: its
    log up to the first entry that holds a secret still kept (:func:`~hexcombat.secrets.
    told_entries`), then ``&k=`` with how many applied entries are kept back; with nothing
    kept back, the entries undone after the cursor as far as one ends with no secret kept
    (for the viewer to step through)."""
    told = told_entries(encounter)
    if told < encounter.cursor:
        shown = Encounter(encounter.setup, encounter.log[:told])
        kept = encounter.cursor - told
        return f"#{FRAGMENT_KEY}={to_share_code(shown)}&{KEPT_KEY}={kept}"
    carried = _undone_told(encounter)
    if carried < len(encounter.log):
        encounter = Encounter(encounter.setup, encounter.log[:carried], encounter.cursor)
    return f"#{FRAGMENT_KEY}={to_share_code(encounter)}"


def _undone_told(encounter: Encounter) -> int:
    """How far the log may travel past the cursor: to the last undone entry after which no
    secret is kept (the cursor itself when there is none)."""
    if encounter.cursor == len(encounter.log):
        return encounter.cursor
    ahead = encounter.copy()
    while ahead.can_redo:
        ahead.redo()
    followed = Followed().follow(ahead)
    quiet = [i + 1 for i in range(encounter.cursor, len(followed)) if not followed[i][1]]
    return max([encounter.cursor, *quiet])


def code_from_fragment(fragment: str) -> str | None:
    """The share code in a URL fragment (``#e=...``, other ``&``-separated keys ignored)."""
    return _fragment_value(fragment, FRAGMENT_KEY)


def kept_back(fragment: str) -> int:
    """How many actions the link's fight keeps back until a secret's time (0: none)."""
    value = _fragment_value(fragment, KEPT_KEY) or ""
    return int(value) if value.isdigit() and len(value) < 7 else 0


def _fragment_value(fragment: str, wanted: str) -> str | None:
    for part in fragment.lstrip("#").split("&"):
        key, eq, value = part.partition("=")
        if key == wanted and eq and value:
            return value
    return None


def encounter_from_fragment(fragment: str) -> Encounter | None:
    """The encounter in a URL fragment, None when it has none (InvalidDocumentError if damaged)."""
    code = code_from_fragment(fragment)
    return None if code is None else from_share_code(code)


def _digest(data: Json) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def fingerprint(document: Mapping[str, Json]) -> str:
    """Same document (set-up, log and cursor, whatever the JSON spacing) -> same fingerprint."""
    return _digest(dict(document))


def setup_fingerprint(document: Mapping[str, Json]) -> str:
    """The fight's set-up alone (ruleset, board, figures, data, seed; not name, notes or log):
    the copies a link goes back and forth between share it."""
    keys = ("ruleset", "board", "data", "figures", "dice")
    return _digest({k: document.get(k) for k in keys})


@dataclass(frozen=True)
class Received:
    """How a received encounter relates to a copy one already has (play by post)."""

    relation: str
    """``same``: nothing new; ``ahead``: the received log extends the copy's; ``behind``:
    the copy is further on; ``diverged``: both went their own way after ``common`` entries."""
    common: int
    """Log entries (applied ones) the two share from the start."""
    new: int
    """Entries of the received log beyond the copy's (``ahead``/``diverged``)."""


def received(mine: Mapping[str, Json], theirs: Mapping[str, Json]) -> Received | None:
    """Compare a received document with one's own copy; None when they are different fights."""
    if setup_fingerprint(mine) != setup_fingerprint(theirs):
        return None
    a, b = _applied(mine), _applied(theirs)
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    if common == len(a) == len(b):
        return Received("same", common, 0)
    if common == len(a):
        return Received("ahead", common, len(b) - common)
    if common == len(b):
        return Received("behind", common, 0)
    return Received("diverged", common, len(b) - common)


def _applied(document: Mapping[str, Json]) -> list[Json]:
    log = document.get("log")
    entries = list(log) if isinstance(log, list) else []
    cursor = document.get("cursor")
    stop = cursor if isinstance(cursor, int) and 0 <= cursor <= len(entries) else len(entries)
    return entries[:stop]


def new_events(encounter: Encounter, since: int) -> list[Event]:
    """The events of the applied log entries from index ``since`` on."""
    return [e for i in range(since, encounter.cursor) for e in encounter.entry_events(i)]


def board_svg(
    encounter: Encounter,
    *,
    show_coords: bool = False,
    picture: bytes | None = None,
    portraits: Mapping[str, bytes] | None = None,
) -> str:
    """The board at the encounter's cursor: the picture ``hexcombat render`` draws.

    ``picture``: the bytes of the map picture the board names, drawn under it (refused with
    a ValueError when they are not that picture, or the board names none). ``portraits``:
    the bytes of the figures' portraits this device holds, by digest, drawn on their tokens
    (a figure whose portrait is not there, or whose bytes are not it, keeps its initials).
    """
    named = encounter.setup.picture
    if picture is not None and named is None:
        raise ValueError("this encounter's board names no map picture")
    return render_svg(
        encounter.state.board,
        _with_portraits(encounter.state, tokens(encounter.state), portraits or {}),
        show_coords=show_coords,
        title=encounter.setup.name,
        backdrop=(named, picture) if named is not None and picture is not None else None,
    )


def _with_portraits(
    state: GameState, drawn: Sequence[Token], portraits: Mapping[str, bytes]
) -> list[Token]:
    """``drawn`` with the portrait of each figure whose bytes are in ``portraits`` (checked
    against the digest the figure names)."""
    out = []
    for token in drawn:
        figure = state.figures.get(token.id)
        named = figure.portrait if figure is not None else None
        data = portraits.get(named.digest) if named is not None else None
        if named is not None and data is not None and digest_of(data) == named.digest:
            token = replace(token, portrait=data_url(named, data, "portrait"))
        out.append(token)
    return out


_MD_SPECIAL = "\\`*_[]<>#|"


def _md(text: str) -> str:
    """Text with Markdown's special characters escaped (one line)."""
    out = "".join("\\" + c if c in _MD_SPECIAL else c for c in text)
    return " ".join(out.split())


def when_words(encounter: Encounter, event: Event) -> str:
    """ "Round 2 · Pulse 1" for an event stamped with its clock's counters."""
    counters = event.data.get("time")
    if not isinstance(counters, list):
        return ""
    units = encounter.ruleset.time.units
    return " · ".join(f"{u.capitalize()} {n}" for u, n in zip(units, counters, strict=False))


def log_markdown(encounter: Encounter, *, details: bool = True) -> str:
    """The combat log up to the cursor as Markdown: one list item per event (its rule ids
    once), a heading per unit of time and per step, and each event's breakdown (modifiers
    with rule ids, rolls) as nested items."""
    setup = encounter.setup
    lines = [f"# {_md(setup.name) or 'Encounter'}", "", f"*{_md(encounter.ruleset.name)}*", ""]
    if setup.notes.strip():
        lines += [_md(setup.notes), ""]
    heading = None
    events = encounter.events
    for event in events:
        when = when_words(encounter, event)
        if when and when != heading:
            lines += ["", f"## {_md(when)}", ""]
            heading = when
        if event.kind == "clock":  # a new step: a heading, not one more line of the log
            lines += ["", f"### {_md(event.text)}", ""]
            continue
        shown = f"({event.rule})"
        rule = f" {_md(shown)}" if event.rule and shown not in event.text else ""
        lines.append(f"- {_md(event.text)}{rule}")
        if details:
            lines += [f"  - {_md(line)}" for line in event.details]
            for roll in event.rolls:
                faces = roll.get("faces")
                shown = ", ".join(map(str, faces)) if isinstance(faces, list) else str(faces)
                lines.append(f"  - rolled {_md(str(roll.get('expr', '')))}: {_md(shown)}")
    if not events:
        lines.append("No actions yet.")
    state = encounter.state
    lines += ["", f"Now: {_md(encounter.ruleset.time.label(state.clock))}"]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"
