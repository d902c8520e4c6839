"""Actions: what a player asks for, and how a ruleset describes what may be asked now.

A ruleset answers "what can this figure do now" with :class:`ActionSpec`
objects whose parameters (:class:`~hexcombat.schema.FieldSpec`) are enough to
build a form and to check a choice. The player's choice comes back as an
:class:`Action`, plain JSON all the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hexcombat.errors import IllegalActionError
from hexcombat.geometry import Hex
from hexcombat.schema import LISTED, FieldSpec
from hexcombat.validation import Json, Reader, describe

TIED_TO = ("", "fight_over")
"""Times a rule may tie an action to: none, or once the fight is over (end of combat, the
next morning); the engine offers a tied action only then."""


@dataclass(frozen=True)
class ActionSpec:
    """An action a figure (or the table, when ``figure`` is None) may take now.

    ``tied_to`` names the time its rule ties it to (:data:`TIED_TO`): ``fight_over`` for
    an action of the end of combat or the next morning.
    """

    kind: str
    label: str
    figure: str | None = None
    params: tuple[FieldSpec, ...] = ()
    help: str = ""
    rule: str = ""
    tied_to: str = ""

    def __post_init__(self) -> None:
        if self.tied_to not in TIED_TO:
            raise ValueError(f"tied_to must be one of {TIED_TO}, got {self.tied_to!r}")

    def param(self, name: str) -> FieldSpec:
        """The parameter called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def check(self, params: Mapping[str, Json]) -> None:
        """Refuse unknown, missing or disallowed parameters, naming the value and what is allowed.

        Types, integer bounds and choices (with their ``when``) are checked in order, so a
        choice that depends on an earlier parameter is judged with the values given.
        """
        unknown = sorted(set(params) - {p.name for p in self.params})
        if unknown:
            known = ", ".join(p.name for p in self.params) or "none"
            raise IllegalActionError(
                f"{self.kind} has no parameter {', '.join(unknown)} (parameters: {known})"
            )
        for p in self.params:
            if p.name not in params:
                if p.required:
                    raise IllegalActionError(f"{self.label} needs {p.label}")
                continue
            problem = p.check(params[p.name], params)
            if problem is not None:
                words = (
                    self._refused(p, params)
                    if p.choices and p.valid_type(params[p.name])
                    else problem
                )
                raise IllegalActionError(f"{self.label}, {p.label}: {words}", p.name)

    def _refused(self, p: FieldSpec, params: Mapping[str, Json]) -> str:
        """Why a choice is refused, in the form's words: what may be chosen given the choices
        before it ('nothing can be chosen with Special attack: None, got 'Broadsword'')."""
        before = dict.fromkeys(name for c in p.choices for name in c.when)
        given = [self._chosen(name, params) for name in before]
        context = f" with {', '.join(given)}" if given else ""
        offered = [c.label for c in p.offered(params)]
        got = describe(params[p.name])
        if not offered:
            return f"nothing can be chosen{context}, got {got}"
        if len(offered) > LISTED:
            return f"must be one of the {len(offered)} offered{context}, got {got}"
        listed = ("; " if any("," in o for o in offered) else ", ").join(offered)
        return f"must be one of {listed}{context}, got {got}"

    def _chosen(self, name: str, params: Mapping[str, Json]) -> str:
        """'Special attack: None' for the parameter ``name`` as given (or 'no special attack')."""
        field = next((p for p in self.params if p.name == name), None)
        label = field.label if field else name
        if name not in params:
            return f"no {label.lower()}"
        value = params[name]
        choice = next((c.label for c in field.choices if c.value == value), None) if field else None
        return f"{label}: {choice if choice is not None else describe(value)}"

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form for the front end."""
        data: dict[str, Json] = {
            "kind": self.kind,
            "label": self.label,
            "figure": self.figure,
            "params": [p.to_json() for p in self.params],
        }
        if self.help:
            data["help"] = self.help
        if self.rule:
            data["rule"] = self.rule
        if self.tied_to:
            data["tied_to"] = self.tied_to
        return data


@dataclass(frozen=True)
class Action:
    """A request to do something: its kind, the acting figure (or None) and plain-JSON params."""

    kind: str
    figure: str | None = None
    params: Mapping[str, Json] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form, as stored in the action log."""
        data: dict[str, Json] = {"kind": self.kind}
        if self.figure is not None:
            data["figure"] = self.figure
        if self.params:
            data["params"] = dict(self.params)
        return data

    @classmethod
    def from_json(cls, data: Json) -> Action:
        """Read an action; raises :class:`~hexcombat.errors.InvalidDocumentError` when malformed."""
        reader = Reader()
        action = read_action(data, "action", reader)
        reader.raise_if_any("invalid action")
        assert action is not None
        return action

    def hex(self, name: str) -> Hex:
        """The parameter ``name`` read as a hex (IllegalActionError if missing or malformed)."""
        value = self.params.get(name)
        if isinstance(value, str):
            q, sep, r = value.partition(",")
            if sep:
                try:
                    return Hex(int(q), int(r))
                except ValueError:
                    pass
        raise IllegalActionError(f'{self.kind}: {name} must be a hex "q,r", got {describe(value)}')

    def text(self, name: str, default: str | None = None) -> str:
        """The parameter ``name`` as a string (IllegalActionError if missing and no default)."""
        value = self.params.get(name, default)
        if isinstance(value, str):
            return value
        raise IllegalActionError(f"{self.kind}: {name} must be text, got {describe(value)}")

    def integer(self, name: str, default: int | None = None) -> int:
        """The parameter ``name`` as an integer (IllegalActionError if missing and no default)."""
        value = self.params.get(name, default)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise IllegalActionError(
            f"{self.kind}: {name} must be a whole number, got {describe(value)}"
        )

    def flag(self, name: str, default: bool = False) -> bool:
        """The parameter ``name`` as a boolean."""
        value = self.params.get(name, default)
        if isinstance(value, bool):
            return value
        raise IllegalActionError(
            f"{self.kind}: {name} must be true or false, got {describe(value)}"
        )

    def hexes(self, name: str) -> list[Hex]:
        """The parameter ``name`` read as a list of hexes (a path)."""
        value = self.params.get(name)
        if not isinstance(value, list):
            raise IllegalActionError(
                f"{self.kind}: {name} must be a list of hexes, got {describe(value)}"
            )
        return [Action(self.kind, None, {"h": v}).hex("h") for v in value]


def read_action(data: Json, path: str, reader: Reader) -> Action | None:
    """Read an action at ``path``, recording problems in ``reader``; None when malformed."""
    obj = reader.object(data, path)
    if obj is None:
        return None
    kind = reader.string(obj, "kind", path)
    figure = obj.get("figure")
    if figure is not None and not isinstance(figure, str):
        reader.problem(f"{path}.figure", f"must be a figure id or absent, got {describe(figure)}")
        return None
    params = obj.get("params", {})
    if not isinstance(params, dict):
        reader.problem(f"{path}.params", f"must be an object, got {describe(params)}")
        return None
    return Action(kind, figure, params) if kind else None
