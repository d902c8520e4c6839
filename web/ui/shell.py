"""What a mode panel may ask of the app (``web/app.py`` provides it; panels never import it).

Panels read and change the open encounter, the selection and the mode through the
session (:mod:`web.session`, here as ``encounter``, ``selected``, ``mode``...), and
register their buttons in the command registry (:mod:`web.commands`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from hexcombat import Action, Encounter
from hexcombat.events import Event
from web.commands import Commands
from web.session import Session

if TYPE_CHECKING:
    from web.library.roster import Rosters
    from web.ui.later_tasks import LaterTasks


class Shell(Protocol):
    """The page services and state a panel uses."""

    session: Session
    commands: Commands
    board: Any
    pictures: Any
    """The page's picture store (``web.library.pictures.PagePictures``)."""
    timings: dict[str, float]
    later: LaterTasks
    """What a change leaves for later tasks (``web.ui.later_tasks``)."""
    view: dict[str, Any]
    rs: dict[str, Any]
    selected: str | None

    @property
    def encounter(self) -> Encounter: ...

    @property
    def rosters(self) -> Rosters: ...

    @property
    def mode(self) -> str: ...

    @property
    def set_aside(self) -> int: ...

    def change(self, make: Callable[[Encounter], Encounter], done: str = "") -> bool: ...

    def perform(
        self, action: Action, faces: list[int] | None = None, note: str = ""
    ) -> list[Event]: ...

    def select(self, figure_id: str | None, *, pressed_first: bool = False) -> None: ...

    def seated(self, figure_id: str | None) -> bool: ...

    def refresh(self) -> None: ...

    def spawn(self, work: Any) -> None: ...

    def mark(self, marks: Any) -> None: ...

    def sheet_open(self) -> None: ...

    def toast(
        self, message: str, *, bad: bool = False, undo: bool = False, details: str = ""
    ) -> None: ...

    def refuse(self, exc: BaseException, before: str = "") -> None: ...


def becomes(new: Encounter) -> Callable[[Encounter], Encounter]:
    """A set-up edit whose result the panel has made (and the engine checked) already."""
    return lambda _enc: new
