"""``strike-chance-pulse`` bookkeeping, typed: the Pulse's and the fight's (:class:`RoundBook`,
in ``GameState.memory``) and each figure's (:class:`FigureBook`, in ``Figure.memory``).

The memory stays plain JSON so that states copy and replay exactly; these classes are the
only code that names its keys. Reading never writes.
"""

from __future__ import annotations

from hexcombat.rulesets.common import int_or
from hexcombat.rulesets.common.memory import FigureMemory, StateMemory
from hexcombat.validation import Json


def _ids(value: Json) -> list[str]:
    return [str(i) for i in value] if isinstance(value, list) else []


class RoundBook(StateMemory):
    """The Pulse's initiative, order and who has acted (A-12...A-14); the fight's end."""

    @property
    def acted(self) -> list[str]:
        """Figures that have taken their one action this Pulse (A-14)."""
        return _ids(self._get("acted"))

    @acted.setter
    def acted(self, value: list[str]) -> None:
        self._set("acted", value)

    @property
    def order(self) -> list[str]:
        """This Pulse's initiative order (A-13)."""
        return _ids(self._get("order"))

    @order.setter
    def order(self, value: list[str]) -> None:
        self._set("order", value)

    @property
    def initiative(self) -> dict[str, Json]:
        """Each figure's initiative total this Pulse (A-13)."""
        value = self._get("initiative")
        return value if isinstance(value, dict) else {}

    @initiative.setter
    def initiative(self, value: dict[str, Json]) -> None:
        self._set("initiative", value)

    @property
    def engaged(self) -> list[str]:
        """Figures engaged at the Pulse's start, in initiative order (A-12, SCP-6)."""
        return _ids(self._get("engaged"))

    @engaged.setter
    def engaged(self, value: list[str]) -> None:
        self._set("engaged", value)

    def hold_parry(self, context: dict[str, Json]) -> None:
        """A parry rolled at once (no prompt, A-6): its context until the roll reads it."""
        self._set("parry_context", context)

    def take_parry(self) -> Json:
        """The held parry context, forgotten as it is read (None when there is none)."""
        return self._raw.pop("parry_context", None)

    @property
    def fight_ended_by_gm(self) -> bool:
        """The GM ended an undecided fight (SCP-53)."""
        return self._flag("fight_ended_by_gm")

    def end_fight_by_gm(self) -> None:
        """The GM ends the fight."""
        self._set("fight_ended_by_gm", True)

    @property
    def combat_over(self) -> bool:
        """The end of combat, with its infection checks, has come (SCP-53)."""
        return self._flag("combat_over")

    def end_combat(self) -> None:
        """The end of combat comes."""
        self._set("combat_over", True)

    @property
    def mornings(self) -> int:
        """Mornings after the combat so far (SCP-56)."""
        return int_or(self._get("mornings"), 0)

    @mornings.setter
    def mornings(self, value: int) -> None:
        self._set("mornings", value)


class FigureBook(FigureMemory):
    """A figure's Pulses (moved, momentum, Passes, penalties), restraints and wounds."""

    def _pulse(self, key: str) -> int | None:
        value = self._get(key)
        return value if isinstance(value, int) else None

    @property
    def moved_pulse(self) -> int | None:
        """The Pulse in which the figure last moved (R-14, SCP-48)."""
        return self._pulse("moved_pulse")

    @moved_pulse.setter
    def moved_pulse(self, value: int) -> None:
        self._set("moved_pulse", value)

    @property
    def momentum_pulse(self) -> int | None:
        """The Pulse in which a charging mount must carry on (SCP-52)."""
        return self._pulse("momentum_pulse")

    @momentum_pulse.setter
    def momentum_pulse(self, value: int | None) -> None:
        if value is None:
            self._drop("momentum_pulse")
        else:
            self._set("momentum_pulse", value)

    @property
    def pass_streak(self) -> int:
        """Passes in consecutive Pulses so far (SCP-18, A-18)."""
        return int_or(self._get("pass_streak"), 0)

    @pass_streak.setter
    def pass_streak(self, value: int) -> None:
        self._set("pass_streak", value)

    @property
    def last_pass(self) -> int | None:
        """The Pulse of the figure's last Pass (SCP-18)."""
        return self._pulse("last_pass")

    @last_pass.setter
    def last_pass(self, value: int) -> None:
        self._set("last_pass", value)

    @property
    def skip_attack_pulse(self) -> int | None:
        """The Pulse a fumble takes the figure's attack from (SCP-31, A-5)."""
        return self._pulse("skip_attack_pulse")

    @skip_attack_pulse.setter
    def skip_attack_pulse(self, value: int) -> None:
        self._set("skip_attack_pulse", value)

    @property
    def must_pass_pulse(self) -> int | None:
        """The Pulse in which a parry fumble makes the figure pass (SCP-33)."""
        return self._pulse("must_pass_pulse")

    @must_pass_pulse.setter
    def must_pass_pulse(self, value: int) -> None:
        self._set("must_pass_pulse", value)

    @property
    def restrained_by(self) -> list[str]:
        """The figures restraining this one (A-22)."""
        value = self._get("restrained_by")
        return [i for i in value if isinstance(i, str)] if isinstance(value, list) else []

    @restrained_by.setter
    def restrained_by(self, value: list[str]) -> None:
        self._set("restrained_by", list(value))

    @property
    def en_damage(self) -> int:
        """Endurance damage taken in the fight (SCP-53, A-26)."""
        return int_or(self._get("en_damage"), 0)

    @property
    def wounded(self) -> bool:
        """The figure has taken damage in the fight (SCP-53)."""
        return self._flag("wounded")

    @property
    def bitten(self) -> bool:
        """Wounded by a bite, claw or talon (SCP-53)."""
        return self._flag("bitten")

    def wound(self, en_damage: int, *, bitten: bool = False) -> None:
        """Damage taken: wounded; ``en_damage`` more to Endurance; ``bitten`` by such a weapon."""
        self._set("wounded", True)
        if bitten:
            self._set("bitten", True)
        if en_damage:
            self._set("en_damage", self.en_damage + en_damage)

    def hurt(self, en_damage: int) -> None:
        """Damage straight to Endurance (Disarm, infection): more Endurance damage, wounded."""
        self._set("en_damage", self.en_damage + en_damage)
        self._set("wounded", True)

    @property
    def infection_checked(self) -> bool:
        """The figure has made its infection check at the end of combat (SCP-53)."""
        return self._flag("infection_checked")

    def check_infection(self) -> None:
        """The infection check is made."""
        self._set("infection_checked", True)
