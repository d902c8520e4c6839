"""What every policy shares: the :class:`Decision` it gives, the :class:`Turn` it is asked
about, the side's figures offered an action and a last-resort :meth:`Policy.fallback`."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from hexcombat.actions import Action
from hexcombat.autopilot.candidates import candidates, enemies
from hexcombat.autopilot.scoring import imagine, visible_state
from hexcombat.autopilot.stream import Stream
from hexcombat.encounter import Encounter
from hexcombat.state import GameState


@dataclass(frozen=True)
class Decision:
    """What a policy does for its side: one offered action, why, and its numbers."""

    action: Action
    reason: str
    numbers: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """Plain JSON for the page."""
        return {"action": self.action.to_json(), "reason": self.reason, "numbers": self.numbers}


@dataclass(frozen=True)
class Turn:
    """What a policy is asked: the side's move in ``enc``, whether it must act (a prompt, a
    step that waits for it) and which of its figures it plays (None: all)."""

    enc: Encounter
    side: str
    must_act: bool = False
    figures: Collection[str] | None = None

    def actors(self) -> list[str]:
        """The figures it plays that are offered an action now."""
        return actors(self.enc, self.side, self.figures)

    def seen(self) -> GameState:
        """The state as the side sees it."""
        return visible_state(self.enc.state, self.side)

    def rng(self, name: str) -> Stream:
        """The policy's own stream for this view."""
        return Stream(view_text(self.enc, self.side, name))


def actors(enc: Encounter, side: str, figures: Collection[str] | None = None) -> list[str]:
    """The side's figures (or the chosen ones among them) offered an action now."""
    return [
        fid
        for fid, f in enc.state.figures.items()
        if f.side == side and (figures is None or fid in figures) and enc.legal_actions(fid)
    ]


def view_text(enc: Encounter, side: str, name: str) -> str:
    """What the side sees, as text to seed the policy's own streams: the clock, the figures
    and its own hidden choices (never the dice, nor whether or what others chose in secret)."""
    seen = visible_state(enc.state, side)
    own = sorted(repr(a.to_json()) for a in seen.declarations.choices.values())
    figures = [repr(f.to_json()) for f in seen.figures.values()]
    asked = seen.prompt.id if seen.prompt else ""
    return f"{name}:{enc.setup.ruleset}:{side}:{seen.clock}:{asked}:{own}:{figures}"


def aims_at_foe(state: GameState, action: Action, side: str) -> bool:
    """Whether a parameter of ``action`` names a figure of another side still in the fight."""
    foes = {f.id for f in enemies(state, side)}
    return any(isinstance(v, str) and v in foes for v in action.params.values())


class Policy:
    """Plays one side: :meth:`decide` gives an action, or None to let the step end."""

    name = ""

    def decide(
        self,
        enc: Encounter,
        side: str,
        must_act: bool = False,
        figures: Collection[str] | None = None,
    ) -> Decision | None:
        """The side's next action; None to pass (never None with ``must_act`` while the
        side is offered anything)."""
        return self.choose(Turn(enc, side, must_act, figures))

    def choose(self, turn: Turn) -> Decision | None:
        """:meth:`decide` for one :class:`Turn` (what each policy defines)."""
        raise NotImplementedError

    def fallback(self, turn: Turn) -> Decision | None:
        """Any offered action the rules accept, searched widely: what a side that must act
        does when its own picks were all refused."""
        rng = turn.rng("fallback")
        seen = turn.seen()
        for fid in turn.actors():
            for spec in turn.enc.legal_actions(fid):
                for action in candidates(seen, spec, rng, 60):
                    if imagine(seen, action, turn.side, rng) is not None:
                        return Decision(action, f"{spec.label}: the only move found")
        return None
