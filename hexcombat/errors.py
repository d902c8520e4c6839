"""The engine's errors: one base class, split by cause.

Every message says what was wrong and what is allowed, so the app can show it
as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class HexcombatError(ValueError):
    """Base class of every error the engine raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, at a JSON-like path such as ``figures[2].facing``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InvalidDocumentError(HexcombatError):
    """Malformed input: an encounter document, a figure or a setting that cannot be used.

    ``problems`` lists every problem found, not only the first.
    """

    def __init__(self, problems: Iterable[Problem], summary: str = "invalid encounter") -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{summary}:\n{lines}" if lines else summary)


class UnsupportedVersionError(InvalidDocumentError):
    """A document written by a newer hexcombat than this one."""


class InvalidValueError(HexcombatError):
    """Malformed input that is one value rather than a document: a hex's text, a board size,
    a hex off the board, a terrain id or an item name that does not exist."""


class IllegalActionError(HexcombatError):
    """A well-formed action that the rules do not allow now; ``param`` names the parameter
    refused, when one is (a document's problem then points at it)."""

    def __init__(self, message: str, param: str = "") -> None:
        super().__init__(message)
        self.param = param


class UnknownRulesetError(HexcombatError):
    """A ruleset id that is not registered."""
