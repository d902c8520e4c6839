"""Events: what happened, as structured data and as a line of the combat log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexcombat.validation import Json

if TYPE_CHECKING:
    from hexcombat.secrets import Secret


@dataclass(frozen=True)
class Event:
    """One thing that happened, with the rule behind it and its full breakdown.

    ``text`` is the one-line summary for the log; ``details`` hold the
    breakdown (every modifier, the roll), ``rolls`` the dice as recorded and
    ``data`` the numbers a test or the board may want (gap, target, cost, ...);
    ``secret`` who may see the event and until when (None: everyone, now).
    """

    kind: str
    text: str
    figure: str | None = None
    target: str | None = None
    rule: str = ""
    details: tuple[str, ...] = ()
    rolls: tuple[Mapping[str, Json], ...] = ()
    data: Mapping[str, Json] = field(default_factory=dict)
    secret: Secret | None = None

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form for the front end and the CLI."""
        out: dict[str, Json] = {"kind": self.kind, "text": self.text}
        if self.figure is not None:
            out["figure"] = self.figure
        if self.target is not None:
            out["target"] = self.target
        if self.rule:
            out["rule"] = self.rule
        if self.details:
            out["details"] = list(self.details)
        if self.rolls:
            out["rolls"] = [dict(r) for r in self.rolls]
        if self.data:
            out["data"] = dict(self.data)
        if self.secret is not None:
            out["secret"] = self.secret.to_json()
        return out
