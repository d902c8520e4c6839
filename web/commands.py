"""The one registry of page commands: every ``data-cmd`` button is dispatched through it.

The app registers the commands of the top bar, the menu, the board tools and messages
(no scope); each mode panel registers its own under its mode's scope ("play", "edit"), so
panels never call each other. A click inside the panel looks in the mode's scope first,
then in the app's; a click elsewhere only in the app's. Pure: no page access.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Handler = Callable[[str, Any, Any], None]
"""Called with the command's name, the element carrying ``data-cmd`` and the page event."""


def plain(action: Callable[[], object]) -> Handler:
    """A handler that runs ``action`` alone (a command that needs neither element nor event)."""

    def handler(_name: str, _element: Any, _event: Any) -> None:
        action()

    return handler


class Commands:
    """Command name (in a scope, or app-wide) -> handler."""

    def __init__(self) -> None:
        self._handlers: dict[tuple[str | None, str], Handler] = {}

    def register(
        self,
        names: str | Iterable[str],
        handler: Handler,
        *,
        scope: str | None = None,
        replace: bool = False,
    ) -> None:
        """Register ``handler`` for each name (ValueError when one is taken in that scope,
        unless ``replace``: a stand-in that imports a panel when first used gives way)."""
        for name in [names] if isinstance(names, str) else list(names):
            key = (scope, name)
            if key in self._handlers and not replace:
                where = f"scope {scope!r}" if scope else "the app"
                raise ValueError(f"command {name!r} is already registered in {where}")
            self._handlers[key] = handler

    def find(self, name: str, scope: str | None = None) -> Handler | None:
        """The handler for ``name``: the scope's own, else the app-wide one."""
        if scope is not None and (scope, name) in self._handlers:
            return self._handlers[(scope, name)]
        return self._handlers.get((None, name))

    def run(
        self, name: str, element: Any = None, event: Any = None, *, scope: str | None = None
    ) -> bool:
        """Run command ``name``; False when nothing handles it."""
        handler = self.find(name, scope)
        if handler is None:
            return False
        handler(name, element, event)
        return True

    def names(self, scope: str | None = None) -> list[str]:
        """The names registered in ``scope`` (None: app-wide), sorted."""
        return sorted(n for s, n in self._handlers if s == scope)
