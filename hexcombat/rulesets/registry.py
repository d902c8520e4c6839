"""The ruleset registry: every ruleset the engine knows, by id.

A ruleset module registers its class with :func:`register` when it is imported; the
package ``hexcombat.rulesets`` imports every built-in ruleset, so importing it is
enough to find them all. Ruleset modules import this module, never the package, so
there is no import cycle between the registry and the rulesets.
"""

from __future__ import annotations

from ..errors import UnknownRulesetError
from .base import Ruleset

_REGISTRY: dict[str, Ruleset] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make a ruleset available by its id."""
    if cls.id in _REGISTRY:
        raise ValueError(f"a ruleset with id {cls.id!r} is already registered")
    _REGISTRY[cls.id] = cls()
    return cls


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id`` (UnknownRulesetError listing the known ids)."""
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r}; known rulesets: {known}"
        ) from None


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, in registration order."""
    return list(_REGISTRY.values())
