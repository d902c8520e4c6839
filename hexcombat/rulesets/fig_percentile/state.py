"""``fig-percentile`` bookkeeping, typed: each figure's (:class:`FigureBook`, in
``Figure.memory``) and the round's (:class:`RoundBook`, in ``GameState.memory``).

The memory stays plain JSON so that states copy and replay exactly; these classes are the
only code that names its keys (spec §2.1: move mode, moved last round, stop declared,
readied this round, actions used, casting; the round's plans, moves and dodges).
"""

from __future__ import annotations

from hexcombat.rulesets.common.memory import FigureMemory, StateMemory
from hexcombat.validation import Json


class FigureBook(FigureMemory):
    """A figure's bookkeeping: carried from round to round, then this round's."""

    def _timer(self, key: str) -> tuple[str, int] | None:
        value = self._get(key)
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            left = value.get("rounds_left")
            return value["name"], left if isinstance(left, int) else 0
        return None

    # ---- carried from round to round -----------------------------------
    @property
    def running(self) -> bool:
        """Moved last round without a stop: this round must be a top-speed round (FP-3, FP-27)."""
        return self._flag("running")

    @running.setter
    def running(self, value: bool) -> None:
        self._set("running", value)

    @property
    def casting(self) -> tuple[str, int] | None:
        """The spell being cast and the rounds of casting left (FP-26), or None."""
        return self._timer("casting")

    @casting.setter
    def casting(self, value: tuple[str, int] | None) -> None:
        self._set("casting", _timer_json(value))

    @property
    def spell_ready(self) -> str | None:
        """A spell whose casting is finished: released in this round's action step (FP-26)."""
        return self._text("spell_ready")

    @spell_ready.setter
    def spell_ready(self, value: str | None) -> None:
        self._set("spell_ready", value)

    @property
    def ready_from(self) -> int:
        """The round in which the ready spell could first be released (FP-26); later rounds
        hold it by G-26."""
        return self._int("ready_from")

    @ready_from.setter
    def ready_from(self, value: int) -> None:
        self._set("ready_from", value)

    @property
    def reloading(self) -> tuple[str, int] | None:
        """The weapon being reloaded and the rounds left (G-5), or None."""
        return self._timer("reloading")

    @reloading.setter
    def reloading(self, value: tuple[str, int] | None) -> None:
        self._set("reloading", _timer_json(value))

    @property
    def hits_taken(self) -> int:
        """Hits this figure has taken so far (recorded even without a damage model, G-2)."""
        return self._int("hits_taken")

    @hits_taken.setter
    def hits_taken(self, value: int) -> None:
        self._set("hits_taken", value)

    # ---- this round ----------------------------------------------------
    def new_round(self) -> None:
        """Forget last round's choices; keep momentum, casting, reloading and hits."""
        for key in (
            "declared",
            "mode",
            "hexes_moved",
            "terrain_extra",
            "post_declared",
            "stop",
            "readied",
            "actions_used",
        ):
            self._drop(key)

    @property
    def declared(self) -> bool:
        """The figure has made its start-of-round declaration (G-19 step 1)."""
        return self._flag("declared")

    @declared.setter
    def declared(self, value: bool) -> None:
        self._set("declared", value)

    @property
    def mode(self) -> str | None:
        """The move mode this round once declarations are revealed (None before)."""
        return self._text("mode")

    @mode.setter
    def mode(self, value: str) -> None:
        self._set("mode", value)

    @property
    def hexes_moved(self) -> int:
        """Hexes entered in this round's movement."""
        return self._int("hexes_moved")

    @hexes_moved.setter
    def hexes_moved(self, value: int) -> None:
        self._set("hexes_moved", value)

    @property
    def terrain_extra(self) -> int:
        """Movement points spent this round on terrain beyond 1 per hex entered, summed
        (``fp.terrain_reduces_speed``, G-13)."""
        return self._int("terrain_extra")

    @terrain_extra.setter
    def terrain_extra(self, value: int) -> None:
        self._set("terrain_extra", value)

    @property
    def post_declared(self) -> bool:
        """The figure has made its post-move declaration (FP-27, G-6)."""
        return self._flag("post_declared")

    @post_declared.setter
    def post_declared(self, value: bool) -> None:
        self._set("post_declared", value)

    @property
    def stop(self) -> bool:
        """A stop declared this round; it takes effect at the end of the round (FP-4)."""
        return self._flag("stop")

    @stop.setter
    def stop(self, value: bool) -> None:
        self._set("stop", value)

    @property
    def readied(self) -> bool:
        """A weapon was readied this round: later actions use half skill (FP-23)."""
        return self._flag("readied")

    @readied.setter
    def readied(self, value: bool) -> None:
        self._set("readied", value)

    @property
    def actions_used(self) -> int:
        """Actions used this round, against ``max_actions`` (FP-24)."""
        return self._int("actions_used")

    @actions_used.setter
    def actions_used(self, value: int) -> None:
        self._set("actions_used", value)


class RoundBook(StateMemory):
    """The round's bookkeeping: planned moves, whether they have run, and the dodges picked."""

    @property
    def moved(self) -> bool:
        """True once this round's moves have been carried out (until the next round)."""
        return self._flag("moved")

    @moved.setter
    def moved(self, value: bool) -> None:
        self._set("moved", value)

    def clear_plans(self) -> None:
        """The move step begins: no move planned yet."""
        self._set("plans", {})

    @property
    def plans(self) -> dict[str, Json]:
        """Each figure's planned move (``{"to", "facing"}``) this round; never writes."""
        plans = self._get("plans")
        return plans if isinstance(plans, dict) else {}

    def plan(self, figure_id: str, to: str, facing: int | None) -> None:
        """Record a figure's planned move."""
        self._table("plans")[figure_id] = {"to": to, "facing": facing}

    def unplan(self, figure_id: str) -> None:
        """Take a figure's planned move out (of a copy another side may know)."""
        self._set("plans", {k: v for k, v in self.plans.items() if k != figure_id})

    def start_dodging(self, dodging: dict[str, Json]) -> None:
        """G-3: the figures that may dodge, each with the attacker it picked ('' until then)."""
        self._set("dodging", dodging)

    def pick_dodge(self, figure_id: str, attacker_id: str) -> None:
        """G-3: the figure dodges ``attacker_id``'s attack."""
        self._table("dodging")[figure_id] = attacker_id

    def dodges(self, figure_id: str, attacker_id: str) -> bool:
        """Whether the figure picked ``attacker_id``'s attack to dodge (G-3); never writes."""
        dodging = self._get("dodging")
        return isinstance(dodging, dict) and dodging.get(figure_id) == attacker_id

    def end_dodging(self) -> None:
        """The step's rolls are made: the picks are forgotten."""
        self._drop("dodging")


def _timer_json(value: tuple[str, int] | None) -> Json:
    return None if value is None else {"name": value[0], "rounds_left": value[1]}
