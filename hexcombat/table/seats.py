"""Seats: which device plays which figure, what a device is offered, and the turn line by
device. Figures nobody is seated at are the GM's; the GM may act for every figure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hexcombat.actions import Action, ActionSpec
from hexcombat.encounter import Encounter
from hexcombat.errors import IllegalActionError
from hexcombat.validation import Json
from hexcombat.view import acting_offered


@dataclass
class Seats:
    """The devices at the table (id to name), the GM's device, and figure id to device id."""

    gm: str
    names: dict[str, str] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)

    def device_of(self, figure_id: str) -> str:
        """The device that plays ``figure_id`` (the GM's when nobody is seated at it)."""
        return self.figures.get(figure_id, self.gm)

    def may_act(self, device: str, figure_id: str | None) -> bool:
        """True when ``device`` may ask for an action of ``figure_id`` (None: the table's)."""
        if device == self.gm:
            return True
        return figure_id is not None and self.figures.get(figure_id) == device

    def check(self, device: str, figure_id: str | None, encounter: Encounter) -> None:
        """Refuse (IllegalActionError) an action ``device`` may not ask for."""
        if self.may_act(device, figure_id):
            return
        if figure_id is None:
            raise IllegalActionError(
                "only the GM's device acts for the table (ends a step, GM tools)"
            )
        name = encounter.state.figure(figure_id).name
        owner = self.names.get(self.device_of(figure_id), "another device")
        raise IllegalActionError(f"{name} is played on {owner}'s device, not this one")

    def offered(self, device: str, encounter: Encounter, figure_id: str | None) -> list[ActionSpec]:
        """What ``device`` is offered for ``figure_id``: nothing outside its seat."""
        if not self.may_act(device, figure_id):
            return []
        found = encounter.legal_actions(figure_id)
        return found + encounter.gm_actions() if figure_id is None else found

    def seat(self, device: str, figure_ids: list[str], encounter: Encounter) -> None:
        """Seat ``device`` at ``figure_ids`` (taking them from any other device)."""
        if device not in self.names:
            raise IllegalActionError(f"there is no device {device!r} at the table")
        unknown = [f for f in figure_ids if f not in encounter.state.figures]
        if unknown:
            raise IllegalActionError(f"there is no figure {', '.join(unknown)} in this fight")
        for fid in figure_ids:
            if device == self.gm:
                self.figures.pop(fid, None)
            else:
                self.figures[fid] = device

    def side_figures(self, side: str, encounter: Encounter) -> list[str]:
        """The figures of ``side`` (IllegalActionError when no figure is on it)."""
        found = [f.id for f in encounter.state.figures.values() if f.side == side]
        if not found:
            raise IllegalActionError(f"no figure is on side {side!r}")
        return found

    def to_json(self) -> dict[str, Json]:
        """Plain JSON for a ``seats`` message."""
        return {"gm": self.gm, "names": dict(self.names), "figures": dict(self.figures)}

    @classmethod
    def from_json(cls, gm: str, names: Mapping[str, Json], figures: Mapping[str, Json]) -> Seats:
        """Seats from a ``seats`` message's fields (strings only)."""
        return cls(
            gm,
            {k: v for k, v in names.items() if isinstance(v, str)},
            {k: v for k, v in figures.items() if isinstance(v, str)},
        )


def is_hidden_choice(encounter: Encounter, action: Action) -> bool:
    """True when ``action`` is a choice kept secret as it is made (so it must travel sealed):
    a figure's action in a hidden step, or a choice the step waits for that stays its side's
    secret until its time (:meth:`~hexcombat.rulesets.base.Ruleset.choice_secret`, such as
    fig-percentile's planned moves), with no prompt open."""
    state = encounter.state
    if state.prompt is not None or action.figure is None:
        return False
    acting = encounter.ruleset.who_acts(state)
    if acting.hidden:
        return action.figure in (*acting.figures, *acting.waiting)
    return action.figure in acting.waiting and bool(encounter.ruleset.choice_secret(state, action))


def sealing_figures(encounter: Encounter) -> list[str]:
    """The figures the step waits for that are offered a choice travelling sealed: the
    reveal is called once each has sealed (or been voided)."""
    state = encounter.state
    if state.prompt is not None:
        return []
    waiting = encounter.ruleset.who_acts(state).waiting
    offered = {fid: encounter.legal_actions(fid) for fid in waiting}
    return [
        fid
        for fid in waiting
        if any(is_hidden_choice(encounter, Action(s.kind, fid)) for s in offered[fid])
    ]


def turn_view(encounter: Encounter, seats: Seats, sealed: tuple[str, ...]) -> dict[str, Json]:
    """Who must act on which device: one row per figure the turn line waits for, and a line
    such as ``Ann on Kim's phone · Orc on GM``. Sealed figures have chosen and wait."""
    state = encounter.state
    offered = acting_offered(state, encounter.legal_actions)
    waiting = [f for f in offered.waiting if f not in sealed]
    rows: list[Json] = []
    by_device: dict[str, list[str]] = {}
    for fid in waiting:
        device = seats.device_of(fid)
        name = state.figure(fid).name
        rows.append(
            {
                "figure": fid,
                "name": name,
                "device": device,
                "device_name": seats.names.get(device, device),
            }
        )
        by_device.setdefault(device, []).append(name)
    parts = [f"{' and '.join(names)} on {seats.names.get(d, d)}" for d, names in by_device.items()]
    if sealed:
        parts.append(f"{len(sealed)} sealed choice{'s' if len(sealed) > 1 else ''} in")
    return {"acting": rows, "sealed": list(sealed), "text": " · ".join(parts)}
