"""The boundary between the page and the engine's worker: commands in, typed answers out.

The page (:mod:`web.engine_client`) sends a command as one JSON text and gets one JSON
text back; both carry :data:`VERSION`, so a page and a worker of different builds refuse
each other's messages instead of misreading them. The worker (``web/engine-worker.mjs``)
calls :func:`serve`, which runs the engine: the app's decisions and the map picture's grid
finder, which would hold the page's main thread for hundreds of milliseconds on a slow
tablet. The finder's pixels travel beside the command as bytes, not inside its JSON. Pure
Python: it never imports ``js``, so it runs the same in the worker and under CPython (tests).
"""

from __future__ import annotations

import json
from typing import Literal, TypedDict, TypeGuard

from hexcombat import Encounter, HexcombatError
from hexcombat.document import read_json, to_document
from hexcombat.map_grid import GridProposal, NoGrid, Picture, find_grid
from hexcombat.validation import Json

VERSION = 1
"""The boundary's message format; a message of another version is refused."""


class AppMoveCommand(TypedDict):
    """Ask for the app's next move for the sides it plays in ``document``."""

    version: int
    kind: Literal["app-move"]
    document: Json


class SuggestCommand(TypedDict):
    """Ask what the app would do with ``figure`` in ``document``, without doing it."""

    version: int
    kind: Literal["suggest"]
    document: Json
    figure: str


class FindGridCommand(TypedDict):
    """Find the hex grid in a picture of ``width`` x ``height`` RGBA pixels (sent beside the
    command as bytes), drawn at ``scale`` of the original's size."""

    version: int
    kind: Literal["find-grid"]
    width: int
    height: int
    scale: float


Command = AppMoveCommand | SuggestCommand | FindGridCommand


class AppMoveAnswer(TypedDict):
    """The app's ``decision`` (``action``, ``side``, ``note``), or None with the figures of
    its sides it leaves as they are (``left``)."""

    version: int
    kind: Literal["app-move"]
    decision: dict[str, Json] | None
    left: list[str]


class SuggestAnswer(TypedDict):
    """A suggestion: ``action`` (None when nothing), ``reason`` and its numbers."""

    version: int
    kind: Literal["suggest"]
    suggestion: dict[str, Json]


class Proposal(TypedDict):
    """A :class:`~hexcombat.map_grid.GridProposal` as JSON."""

    orientation: Literal["flat", "pointed"]
    hex_size: float
    offset: list[float]
    columns: int
    rows: int
    tilt: float
    confidence: float


class FindGridAnswer(TypedDict):
    """The grid finder's ``proposal``, or None with the ``reason`` none was found."""

    version: int
    kind: Literal["find-grid"]
    proposal: Proposal | None
    reason: str


class RefusedAnswer(TypedDict):
    """The engine refused the command (an illegal position, a bad message): why."""

    version: int
    kind: Literal["refused"]
    message: str


Answer = AppMoveAnswer | SuggestAnswer | FindGridAnswer | RefusedAnswer


# ---- the page's side ----------------------------------------------------------------------
def app_move_command(enc: Encounter) -> str:
    """The command asking for the app's next move in ``enc``, serialised."""
    command: AppMoveCommand = {"version": VERSION, "kind": "app-move", "document": _doc(enc)}
    return json.dumps(command, separators=(",", ":"))


def suggest_command(enc: Encounter, figure: str) -> str:
    """The command asking for a suggestion for ``figure`` in ``enc``, serialised."""
    command: SuggestCommand = {
        "version": VERSION,
        "kind": "suggest",
        "document": _doc(enc),
        "figure": figure,
    }
    return json.dumps(command, separators=(",", ":"))


def find_grid_command(width: int, height: int, scale: float) -> str:
    """The command asking for the grid in ``width`` x ``height`` RGBA pixels drawn at
    ``scale`` (the pixels go beside it), serialised."""
    command: FindGridCommand = {
        "version": VERSION,
        "kind": "find-grid",
        "width": width,
        "height": height,
        "scale": scale,
    }
    return json.dumps(command, separators=(",", ":"))


def found_grid(answer: Answer) -> GridProposal | NoGrid:
    """The grid finder's answer as the engine's proposal (a refusal: no grid, and why)."""
    if answer["kind"] == "refused":
        return NoGrid(answer["message"])
    if answer["kind"] != "find-grid":
        return NoGrid(f"the engine's worker answered {answer['kind']!r} to the grid finder")
    found = answer["proposal"]
    if found is None:
        return NoGrid(answer["reason"])
    x, y = found["offset"]
    return GridProposal(
        found["orientation"],
        found["hex_size"],
        (x, y),
        found["columns"],
        found["rows"],
        found["tilt"],
        found["confidence"],
    )


def _doc(enc: Encounter) -> Json:
    """The encounter as its worker opens it (no rolled details: the replay records them)."""
    return to_document(enc, rolled=False)


def read_answer(text: str) -> Answer:
    """The worker's answer, checked: a wrong version or shape becomes a refusal saying so."""
    try:
        data = read_json(text)
    except HexcombatError as exc:
        return refused(f"the engine's answer could not be read: {exc}")
    if not isinstance(data, dict) or data.get("version") != VERSION:
        version = data.get("version") if isinstance(data, dict) else None
        return refused(f"the engine's worker speaks version {version}, the page {VERSION}")
    kind = data.get("kind")
    if kind == "app-move" and isinstance(data.get("left"), list):
        move = data.get("decision")
        return {
            "version": VERSION,
            "kind": "app-move",
            "decision": move if isinstance(move, dict) else None,
            "left": [str(f) for f in data["left"]],
        }
    if kind == "suggest" and isinstance(data.get("suggestion"), dict):
        return {"version": VERSION, "kind": "suggest", "suggestion": data["suggestion"]}
    if kind == "find-grid" and ("proposal" in data or "reason" in data):
        return _grid_answer(data.get("proposal"), str(data.get("reason") or ""))
    if kind == "refused":
        return refused(str(data.get("message") or "the engine refused"))
    return refused(f"the engine's worker answered an unknown {kind!r}")


def _grid_answer(found: Json, reason: str) -> FindGridAnswer | RefusedAnswer:
    """A find-grid answer with ``found`` checked to be a proposal's shape."""
    if found is None:
        return {"version": VERSION, "kind": "find-grid", "proposal": None, "reason": reason}
    numbers = ("hex_size", "tilt", "confidence")
    counts = ("columns", "rows")
    offset = found.get("offset") if isinstance(found, dict) else None
    if (
        not isinstance(found, dict)
        or found.get("orientation") not in ("flat", "pointed")
        or not (isinstance(offset, list) and len(offset) == 2)
        or not all(_is_number(v) for v in [*offset, *(found.get(k) for k in numbers)])
        or not all(isinstance(found.get(k), int) for k in counts)
    ):
        return refused("the engine's worker answered a grid that is not a proposal's shape")
    proposal: Proposal = {
        "orientation": "pointed" if found["orientation"] == "pointed" else "flat",
        "hex_size": float(found["hex_size"]),
        "offset": [float(v) for v in offset],
        "columns": int(found["columns"]),
        "rows": int(found["rows"]),
        "tilt": float(found["tilt"]),
        "confidence": float(found["confidence"]),
    }
    return {"version": VERSION, "kind": "find-grid", "proposal": proposal, "reason": ""}


def _is_number(value: Json) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def refused(message: str) -> RefusedAnswer:
    """A refusal with ``message``."""
    return {"version": VERSION, "kind": "refused", "message": message}


# ---- the worker's side --------------------------------------------------------------------
class Opened:
    """The encounter the worker opened last, kept while the page's document stays the same
    but for actions added at its end (the usual case: the page asks after each move)."""

    def __init__(self) -> None:
        self.document: Json = None
        self.encounter: Encounter | None = None

    def open(self, document: Json) -> Encounter:
        """The encounter of ``document`` (from the kept one when only actions were added)."""
        from hexcombat import Action
        from hexcombat.document import from_document

        kept, enc = self.document, self.encounter
        self.document, self.encounter = None, None
        if enc is not None and not _extends(kept, document):
            enc = None
        if enc is not None:
            try:  # as a device of the table replays the host's entries: with their faces
                for entry in document["log"][len(kept["log"]) :]:
                    rolls = entry.get("rolls") or []
                    faces = [int(f) for r in rolls for f in r.get("faces") or []]
                    note = str(entry.get("note") or "")
                    enc.perform(Action.from_json(entry["action"]), faces or None, note)
            except (HexcombatError, KeyError, TypeError, ValueError, AttributeError):
                enc = None
        if enc is None:
            enc = from_document(document)
        self.document, self.encounter = document, enc
        return enc


def _extends(kept: Json, document: Json) -> bool:
    """Whether ``document`` is ``kept`` with actions added at the end of its log (both with
    their cursor at the end)."""
    if not isinstance(kept, dict) or not isinstance(document, dict):
        return False
    old, new = kept.get("log"), document.get("log")
    if not isinstance(old, list) or not isinstance(new, list) or len(new) < len(old):
        return False
    same = all(kept.get(k) == v for k, v in document.items() if k not in ("log", "cursor"))
    at_ends = kept.get("cursor") == len(old) and document.get("cursor") == len(new)
    return same and at_ends and len(kept) == len(document) and new[: len(old)] == old


OPENED = Opened()


def serve(text: str, pixels: bytes | None = None) -> str:
    """Answer one command (the worker's whole job), with the bytes sent beside it, serialised;
    never raises."""
    return json.dumps(answer(text, pixels), separators=(",", ":"))


def answer(text: str, pixels: bytes | None = None) -> Answer:
    """The answer to one serialised command (``pixels``: the bytes sent beside it)."""
    try:
        data = read_json(text)
    except HexcombatError as exc:
        return refused(f"the command could not be read: {exc}")
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return refused(f"the engine's worker speaks version {VERSION}")
    try:
        if data.get("kind") == "find-grid":
            return _find_grid(data, pixels)
        return _answer(data)
    except HexcombatError as exc:
        return refused(str(exc))


def _find_grid(data: dict[str, Json], pixels: bytes | None) -> Answer:
    """The grid finder on the RGBA ``pixels`` the command describes."""
    width, height, scale = data.get("width"), data.get("height"), data.get("scale")
    if not isinstance(width, int) or not isinstance(height, int):
        return refused("the grid finder needs the picture's width and height in pixels")
    if not _is_number(scale):
        return refused("the grid finder needs the scale the picture was drawn at")
    if pixels is None:
        return refused("the grid finder was sent no pixels")
    try:
        found = find_grid(Picture.from_rgba(width, height, pixels), float(scale))
    except ValueError as exc:
        return refused(f"the grid finder cannot read the picture: {exc}")
    if isinstance(found, NoGrid):
        return _grid_answer(None, found.reason)
    proposal: Proposal = {
        "orientation": found.orientation,
        "hex_size": found.hex_size,
        "offset": list(found.offset),
        "columns": found.columns,
        "rows": found.rows,
        "tilt": found.tilt,
        "confidence": found.confidence,
    }
    return {"version": VERSION, "kind": "find-grid", "proposal": proposal, "reason": ""}


def _answer(data: dict[str, Json]) -> Answer:
    from hexcombat.autopilot.view import app_move, left_by_app, suggest_view

    kind = data.get("kind")
    enc = OPENED.open(data.get("document"))
    if kind == "app-move":
        move = app_move(enc)
        left = left_by_app(enc) if move is None else []
        return {"version": VERSION, "kind": "app-move", "decision": move, "left": left}
    if kind == "suggest":
        found = suggest_view(enc, str(data.get("figure")))
        return {"version": VERSION, "kind": "suggest", "suggestion": found}
    return refused(f"the engine's worker knows no command {kind!r}")
