"""One field spec for ruleset options, figure fields and action parameters, and its check.

A :class:`FieldSpec` describes one value a player or a document gives: its type,
default, bounds and choices. :meth:`FieldSpec.check` says in plain words what is
wrong with a value and what is allowed; :meth:`FieldSpec.to_json` is what forms
render. A :class:`Choice` may carry ``when``: the values other fields must have
for it to be offered, so one parameter's choices can depend on the ones before
it (weapon -> special attack -> a target in that attack's zone).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from hexcombat.validation import Json, describe

TYPES = ("int", "text", "bool", "choice", "hex", "figure", "facing", "path")
"""Every field type; ``hex``, ``figure`` and ``choice`` fields usually list their choices."""

HEX_TEXT = re.compile(r"^-?\d+,-?\d+$")
LISTED = 12  # at most this many choices are named in a message


@dataclass(frozen=True)
class Choice:
    """One allowed value of a field, offered only ``when`` other fields have the given values.

    >>> Choice("bo", "Bo Brute", when={"weapon": "spear"}).offered({"weapon": "sword"})
    False
    """

    value: Json
    label: str
    detail: str = ""
    when: Mapping[str, Json] = field(default_factory=dict, hash=False)

    def __init__(
        self, value: Json, label: str, detail: str = "", when: Mapping[str, Json] | None = None
    ) -> None:
        # The generated frozen __init__'s fields in one step, about 3x cheaper: offers make
        # choices by the thousand (every hex a figure reaches), and a replay checks each.
        self.__dict__.update(
            value=value, label=label, detail=detail, when={} if when is None else when
        )

    def offered(self, values: Mapping[str, Json]) -> bool:
        """True when every field named in ``when`` has the value given there."""
        when = self.when
        return not when or all(values.get(name) == value for name, value in when.items())

    def to_json(self) -> dict[str, Json]:
        """Plain JSON: ``value`` and ``label``, then ``detail`` and ``when`` when set."""
        data: dict[str, Json] = {"value": self.value, "label": self.label}
        if self.detail:
            data["detail"] = self.detail
        if self.when:
            data["when"] = dict(self.when)
        return data

    @classmethod
    def pairs(cls, *pairs: tuple[str | int, str]) -> tuple[Choice, ...]:
        """Choices from ``(value, label)`` pairs, as an option's or a field's list.

        >>> [c.label for c in Choice.pairs(("d6", "One die"), (2, "Two"))]
        ['One die', 'Two']
        """
        return tuple(cls(value, label) for value, label in pairs)

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Choice:
        """Read :meth:`to_json` data (as a form receives it)."""
        when = data.get("when")
        return cls(
            data.get("value"),
            str(data.get("label", data.get("value"))),
            str(data.get("detail") or ""),
            dict(when) if isinstance(when, Mapping) else {},
        )

    def _text(self) -> str:
        value = str(self.value)
        return value if self.label.startswith(value) else f"{self.label} ({value})"


@dataclass(frozen=True)
class FieldSpec:
    """A value described for a form and checked by the engine.

    ``type`` is one of :data:`TYPES`. ``choices`` (when given) list every
    allowed value; ``minimum``/``maximum`` bound an ``int``; ``required=False``
    lets an action leave the parameter out; ``rule`` names the rule (or gap)
    the value comes from and ``house_default`` marks a default the rule text
    does not give.

    >>> FieldSpec("move", "Move", "int", 4, minimum=0, maximum=20).check(21)
    'must be a whole number from 0 to 20, got 21'
    """

    name: str
    label: str
    type: str
    default: Json = None
    help: str = ""
    rule: str = ""
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    house_default: bool = False

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"{self.name}: unknown field type {self.type!r}; use one of {TYPES}")
        object.__setattr__(self, "choices", tuple(self.choices))

    def offered(self, values: Mapping[str, Json] | None = None) -> tuple[Choice, ...]:
        """The choices offered when the other fields have ``values`` (all without ``when``)."""
        if not self._conditional:
            return self.choices
        given = values or {}
        key = tuple(given.get(name) for name in self._conditions)
        try:
            return self._offers[key]
        except KeyError:
            found = self._offers[key] = tuple(c for c in self.choices if c.offered(given))
            return found
        except TypeError:  # a value that is no key (a list): worked out every time
            return tuple(c for c in self.choices if c.offered(given))

    @cached_property
    def _conditional(self) -> bool:
        """Whether a choice depends on other fields' values (worked out once: the autopilot
        and the forms ask for the offered choices by the thousand)."""
        return any(c.when for c in self.choices)

    @cached_property
    def _conditions(self) -> tuple[str, ...]:
        """The other fields some choice's ``when`` names."""
        return tuple(dict.fromkeys(name for c in self.choices for name in c.when))

    @cached_property
    def _offers(self) -> dict[tuple[Json, ...], tuple[Choice, ...]]:
        """The offered choices by the values of :attr:`_conditions`, as worked out."""
        return {}

    def check(self, value: Json, values: Mapping[str, Json] | None = None) -> str | None:
        """None when ``value`` is allowed (given the other fields' ``values``), else why not.

        The message names the refused value and what is allowed, e.g.
        ``must be one of Cal (cal), Dee (dee) with special 'sweep', got 'bo'``.
        """
        problem = self._type_problem(value)
        if problem is not None:
            return f"{problem}, got {describe(value)}"
        if not self.choices:
            return None
        offered = self.offered(values)
        if any(c.value == value and type(c.value) is type(value) for c in offered):
            return None
        context = self._context(values or {})
        if not offered:
            return f"nothing can be chosen{context}, got {describe(value)}"
        if len(offered) > LISTED:
            return f"must be one of the {len(offered)} offered{context}, got {describe(value)}"
        names = [c._text() for c in offered]
        listed = ("; " if any("," in n for n in names) else ", ").join(names)
        return f"must be one of {listed}{context}, got {describe(value)}"

    def valid_type(self, value: Json) -> bool:
        """True when ``value`` has this field's type (a choice may still refuse it)."""
        return self._type_problem(value) is None

    def _type_problem(self, value: Json) -> str | None:
        kind = self.type
        if kind in ("int", "facing"):
            low, high = (0, 5) if kind == "facing" else (self.minimum, self.maximum)
            whole = isinstance(value, int) and not isinstance(value, bool)
            if whole and (low is None or value >= low) and (high is None or value <= high):
                return None
            if low is not None and high is not None:
                return f"must be a whole number from {low} to {high}"
            if low is not None:
                return f"must be a whole number of at least {low}"
            if high is not None:
                return f"must be a whole number of at most {high}"
            return "must be a whole number"
        if kind == "bool":
            return None if isinstance(value, bool) else "must be true or false"
        if kind in ("text", "figure"):
            return None if isinstance(value, str) else "must be text"
        if kind == "hex":
            return None if _is_hex(value) else 'must be a hex "q,r", e.g. 3,-1'
        if kind == "path":
            ok = isinstance(value, list) and all(_is_hex(v) for v in value)
            return None if ok else 'must be a list of hexes "q,r"'
        return None

    def _context(self, values: Mapping[str, Json]) -> str:
        names = dict.fromkeys(name for c in self.choices for name in c.when)
        given = [
            f"{name} {describe(values[name])}" if name in values else f"no {name}" for name in names
        ]
        return f" with {', '.join(given)}" if given else ""

    def to_json(self) -> dict[str, Json]:
        """Plain JSON for forms; optional keys only when set."""
        data: dict[str, Json] = {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "required": self.required,
        }
        if self.default is not None:
            data["default"] = self.default
        if self.help:
            data["help"] = self.help
        if self.rule:
            data["rule"] = self.rule
        if self.choices:
            data["choices"] = [c.to_json() for c in self.choices]
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.house_default:
            data["house_default"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> FieldSpec:
        """Read :meth:`to_json` data (a form checks values with the engine's own rules)."""
        choices = data.get("choices")
        low, high = data.get("minimum"), data.get("maximum")
        return cls(
            str(data.get("name", "")),
            str(data.get("label") or data.get("name", "")),
            str(data.get("type", "text")),
            data.get("default"),
            str(data.get("help") or ""),
            str(data.get("rule") or ""),
            tuple(Choice.from_json(c) for c in choices or () if isinstance(c, Mapping)),
            low if isinstance(low, int) else None,
            high if isinstance(high, int) else None,
            data.get("required", True) is not False,
            data.get("house_default") is True,
        )


def _is_hex(value: Json) -> bool:
    return isinstance(value, str) and bool(HEX_TEXT.match(value))


def settle(fields: Sequence[FieldSpec], given: Mapping[str, Json]) -> dict[str, Json]:
    """The values a form of ``fields`` can submit, starting from ``given``: each field in
    order keeps its given value, else takes its default, else (when required) its only
    choice; a field with choices keeps a value only when it is offered with the values
    settled before it, so a value no list shows never reaches an action.

    >>> styles = (Choice("pummel", "Pummel", when={"first": "brawl"}),)
    >>> first = FieldSpec("first", "First", "choice", "attack", choices=(
    ...     Choice("attack", "Attack"), Choice("brawl", "Brawl")))
    >>> style = FieldSpec("style", "Brawl", "choice", "pummel", choices=styles, required=False)
    >>> settle((first, style), {})
    {'first': 'attack'}
    >>> settle((first, style), {"first": "brawl"})
    {'first': 'brawl', 'style': 'pummel'}
    """
    values: dict[str, Json] = {}
    for spec in fields:
        offered = spec.offered(values) if spec.choices else ()

        def fits(value: Json, offered: tuple[Choice, ...] = offered) -> bool:
            return any(c.value == value and type(c.value) is type(value) for c in offered)

        if not spec.choices:
            if spec.name in given:
                values[spec.name] = given[spec.name]
            elif spec.default is not None:
                values[spec.name] = spec.default
        elif spec.name in given and fits(given[spec.name]):
            values[spec.name] = given[spec.name]
        elif spec.default is not None and fits(spec.default):
            values[spec.name] = spec.default
        elif spec.required and len({repr(c.value) for c in offered}) == 1:
            values[spec.name] = offered[0].value
    return values
