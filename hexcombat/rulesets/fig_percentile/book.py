"""A figure's round-by-round bookkeeping (kept in ``Figure.memory``) and its equipment.

``Figure.memory`` is plain JSON so that states copy and replay exactly; this
module gives it typed names (spec §2.1: move mode, moved last round, stop
declared, readied this round, actions used, casting).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import IllegalActionError
from ...figures import Equipment, Figure
from ...validation import Json


class Book:
    """Typed access to one figure's bookkeeping in ``Figure.memory``."""

    def __init__(self, figure: Figure) -> None:
        self.figure = figure
        self.memory = figure.memory

    def _int(self, key: str) -> int:
        value = self.memory.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def _flag(self, key: str) -> bool:
        return self.memory.get(key) is True

    def _text(self, key: str) -> str | None:
        value = self.memory.get(key)
        return value if isinstance(value, str) else None

    def _timer(self, key: str) -> tuple[str, int] | None:
        value = self.memory.get(key)
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
        self.memory["running"] = value

    @property
    def casting(self) -> tuple[str, int] | None:
        """The spell being cast and the rounds of casting left (FP-26), or None."""
        return self._timer("casting")

    @casting.setter
    def casting(self, value: tuple[str, int] | None) -> None:
        self.memory["casting"] = _timer_json(value)

    @property
    def spell_ready(self) -> str | None:
        """A spell whose casting is finished: released in this round's action step (FP-26)."""
        return self._text("spell_ready")

    @spell_ready.setter
    def spell_ready(self, value: str | None) -> None:
        self.memory["spell_ready"] = value

    @property
    def ready_from(self) -> int:
        """The round in which the ready spell could first be released (FP-26); later rounds
        hold it by G-26."""
        return self._int("ready_from")

    @ready_from.setter
    def ready_from(self, value: int) -> None:
        self.memory["ready_from"] = value

    @property
    def reloading(self) -> tuple[str, int] | None:
        """The weapon being reloaded and the rounds left (G-5), or None."""
        return self._timer("reloading")

    @reloading.setter
    def reloading(self, value: tuple[str, int] | None) -> None:
        self.memory["reloading"] = _timer_json(value)

    @property
    def hits_taken(self) -> int:
        """Hits this figure has taken so far (recorded even without a damage model, G-2)."""
        return self._int("hits_taken")

    @hits_taken.setter
    def hits_taken(self, value: int) -> None:
        self.memory["hits_taken"] = value

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
            self.memory.pop(key, None)

    @property
    def declared(self) -> bool:
        """The figure has made its start-of-round declaration (G-19 step 1)."""
        return self._flag("declared")

    @declared.setter
    def declared(self, value: bool) -> None:
        self.memory["declared"] = value

    @property
    def mode(self) -> str | None:
        """The move mode this round once declarations are revealed (None before)."""
        return self._text("mode")

    @mode.setter
    def mode(self, value: str) -> None:
        self.memory["mode"] = value

    @property
    def hexes_moved(self) -> int:
        """Hexes entered in this round's movement."""
        return self._int("hexes_moved")

    @hexes_moved.setter
    def hexes_moved(self, value: int) -> None:
        self.memory["hexes_moved"] = value

    @property
    def terrain_extra(self) -> int:
        """Movement points spent this round on terrain beyond 1 per hex entered, summed
        (``fp.terrain_reduces_speed``, G-13)."""
        return self._int("terrain_extra")

    @terrain_extra.setter
    def terrain_extra(self, value: int) -> None:
        self.memory["terrain_extra"] = value

    @property
    def post_declared(self) -> bool:
        """The figure has made its post-move declaration (FP-27, G-6)."""
        return self._flag("post_declared")

    @post_declared.setter
    def post_declared(self, value: bool) -> None:
        self.memory["post_declared"] = value

    @property
    def stop(self) -> bool:
        """A stop declared this round; it takes effect at the end of the round (FP-4)."""
        return self._flag("stop")

    @stop.setter
    def stop(self, value: bool) -> None:
        self.memory["stop"] = value

    @property
    def readied(self) -> bool:
        """A weapon was readied this round: later actions use half skill (FP-23)."""
        return self._flag("readied")

    @readied.setter
    def readied(self, value: bool) -> None:
        self.memory["readied"] = value

    @property
    def actions_used(self) -> int:
        """Actions used this round, against ``max_actions`` (FP-24)."""
        return self._int("actions_used")

    @actions_used.setter
    def actions_used(self, value: int) -> None:
        self.memory["actions_used"] = value


def _timer_json(value: tuple[str, int] | None) -> Json:
    return None if value is None else {"name": value[0], "rounds_left": value[1]}


# ---- equipment ---------------------------------------------------------------


def in_hand(figure: Figure) -> Equipment | None:
    """The weapon in the figure's hand (state ``ready``), or None."""
    for item in figure.equipment:
        if item.kind == "weapon" and item.is_ready:
            return item
    return None


def weapons(figure: Figure) -> list[Equipment]:
    """The figure's weapons that are not dropped."""
    return [i for i in figure.equipment if i.kind == "weapon" and i.state != "dropped"]


def spells(figure: Figure) -> list[Equipment]:
    """The spells the figure knows."""
    return [i for i in figure.equipment if i.kind == "spell"]


def find(figure: Figure, name: str, kind: str) -> Equipment:
    """The figure's item ``name`` of ``kind`` (IllegalActionError when it has none)."""
    for item in figure.equipment:
        if item.name == name and item.kind == kind:
            return item
    raise IllegalActionError(f"{figure.name} has no {kind} called {name!r}")


def stat_int(item: Equipment, key: str, default: int = 0) -> int:
    """A whole-number stat of an item (``default`` when missing)."""
    value = item.stats.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def stat_text(item: Equipment, key: str, default: str = "") -> str:
    """A text stat of an item (``default`` when missing)."""
    value = item.stats.get(key, default)
    return value if isinstance(value, str) else default


def is_ranged(item: Equipment) -> bool:
    """A ranged weapon or a spell: both have a maximum range."""
    return item.kind == "spell" or stat_text(item, "attack") == "ranged"


def needs_los(item: Equipment) -> bool:
    """The item's ``requires_los`` flag, True unless set to false (FP-15)."""
    return item.stats.get("requires_los", True) is not False


def catalogue_item(
    data: Mapping[str, Json], name: str, *, state: str = "carried", loaded: bool | None = None
) -> Equipment:
    """An item built from the ruleset's data tables (``weapons`` or ``spells``), stats copied."""
    for table, kind in (("weapons", "weapon"), ("spells", "spell")):
        entries: Any = data.get(table, {})
        if isinstance(entries, dict) and name in entries and isinstance(entries[name], dict):
            stats = dict(entries[name])
            if kind == "spell":
                return Equipment(name, "spell", "carried", None, stats)
            if stats.get("attack") == "ranged" and loaded is None:
                loaded = True
            return Equipment(name, kind, state, loaded, stats)
    known = [n for t in ("weapons", "spells") for n in (data.get(t) or {})]
    raise ValueError(f"no weapon or spell called {name!r}; known: {', '.join(known)}")
