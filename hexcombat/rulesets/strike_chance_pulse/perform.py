"""What ``strike-chance-pulse`` actions do: the ``do_<kind>`` handlers, which roll the
rollables their previews show (:mod:`.resolve`) and emit the events."""

from __future__ import annotations

from hexcombat.actions import Action
from hexcombat.checks import Check
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Figure, Status, place
from hexcombat.geometry import direction_to, distance
from hexcombat.layout import hex_label
from hexcombat.rulesets.base import Ruleset
from hexcombat.rulesets.strike_chance_pulse import (
    aftermath,
    flow,
    ground,
    offers,
    offers_mounted,
    resolve,
    resolve_multiple,
    resolve_parry,
    rules,
)
from hexcombat.rulesets.strike_chance_pulse.fields import AG, TMR
from hexcombat.rulesets.strike_chance_pulse.situation import HORSEMANSHIP, is_out, rank, settings
from hexcombat.rulesets.strike_chance_pulse.state import FigureBook
from hexcombat.state import GameState


class Perform(Ruleset):
    """The handlers of every figure and table action (the class the ruleset builds on)."""

    # ---- handlers ---------------------------------------------------------------------
    def do_move(self, state: GameState, action: Action, dice: Dice) -> None:
        """A-14: move up to TMR hexes and face any way."""
        figure = state.figure(action.figure)
        to = action.hex("to")
        cost = offers.reach(state, figure).get(to)
        if cost is None:
            raise IllegalActionError(f"{figure.name} cannot reach {hex_label(to)} this Pulse")
        facing = action.integer("facing", figure.facing)
        start = figure.position
        place(state.figures.values(), figure, to, facing)
        FigureBook(figure).moved_pulse = offers.pulse(state)
        flow.acted(state, figure)
        state.emit(
            Event(
                "move",
                f"{figure.name} moves {hex_label(start)} → {hex_label(to)} "
                f"({cost} of TMR {TMR(figure)} MP)",
                figure.id,
                rule="A-14, SCP-47",
                data={"from": str(start), "to": str(to), "mp": cost, "facing": facing},
            )
        )
        foes = [
            f
            for f in state.figures.values()
            if f.side != figure.side and not is_out(f) and to in f.hexes() and not f.mounted_on
        ]
        if foes:  # moving into a hostile's hex is entering Close combat (SCP-41)
            both = settings(state).close_drops_shields == "both"
            for f in [figure, *foes] if both else [figure]:
                resolve.drop_shield_for_close(state, f)

    def do_charge(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-8: move next to the target, face it and make a Melee attack."""
        figure = state.figure(action.figure)
        target = state.figure(action.text("target"))
        to = action.hex("to")
        cost = offers.reach(state, figure).get(to)
        if cost is None or distance(to, target.position) != 1:
            raise IllegalActionError(
                f"{figure.name} cannot charge {target.name} from {hex_label(to)}"
            )
        facing = direction_to(to, target.position)
        assert facing is not None
        start = figure.position
        place(state.figures.values(), figure, to, facing)
        FigureBook(figure).moved_pulse = offers.pulse(state)
        state.emit(
            Event(
                "move",
                f"{figure.name} charges {hex_label(start)} → {hex_label(to)} at {target.name}",
                figure.id,
                target.id,
                rule="SCP-8",
                data={"from": str(start), "to": str(to), "mp": cost},
            )
        )
        melee = Action("melee", figure.id, {**action.params, "charge": True})
        resolve.attack(state, figure, melee, dice)

    def do_multiple_strike(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-13...SCP-15, A-31: several Strike Checks in one Melee action."""
        resolve_multiple.multiple_strike(state, state.figure(action.figure), action, dice)

    def do_mounted_charge(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-51: the mount runs straight ahead, facing unchanged; the rider strikes as in a
        Charge (SCP-8); the mount's action is spent and it has momentum next Pulse (SCP-52)."""
        pair = offers_mounted.pair_of(state, state.figure(action.figure))
        if pair is None:
            raise IllegalActionError("a mounted Charge needs a rider and its mount (SCP-51)")
        rider, mount = pair
        target = state.figure(action.text("target"))
        to = action.hex("to")
        if to not in offers_mounted.charge_ends(state, rider, mount, target):
            raise IllegalActionError(
                f"{mount.name} cannot carry {rider.name} straight to {hex_label(to)} to strike "
                f"{target.name} (SCP-51)"
            )
        start = mount.position
        place(state.figures.values(), mount, to, mount.facing)
        p = offers.pulse(state)
        FigureBook(mount).moved_pulse = p
        FigureBook(mount).momentum_pulse = p + 1
        if settings(state).charge_spends_mount:
            flow.acted(state, mount)
        state.emit(
            Event(
                "move",
                f"{rider.name} charges on {mount.name} {hex_label(start)} → {hex_label(to)} "
                "straight ahead at "
                f"{target.name} ({distance(start, to)} hexes, SCP-51)",
                rider.id,
                target.id,
                rule="SCP-51",
                data={"from": str(start), "to": str(to), "mount": mount.id},
            )
        )
        params = {**action.params, "special": "none", "charge": True}
        params.pop("to", None)
        resolve.attack(state, rider, Action("melee", rider.id, params), dice)

    def do_mount(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-48: climb onto an adjacent mount that is not moving."""
        figure = state.figure(action.figure)
        mount = state.figure(action.text("mount"))
        if not any(s.kind == "mount" for s in offers_mounted.mount_specs(state, figure)) or not (
            offers_mounted.rideable(state, figure, mount)
            and offers_mounted.mount_still(state, mount)
        ):
            raise IllegalActionError(f"{figure.name} cannot mount {mount.name} now (SCP-48)")
        flow.acted(state, figure)
        figure.mounted_on = mount.id
        figure.position, figure.facing = mount.position, mount.facing
        state.emit(
            Event("mount", f"{figure.name} mounts {mount.name}", figure.id, mount.id, rule="SCP-48")
        )

    def do_dismount(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-48: step down into a free neighbour hex while the mount is not moving."""
        figure = state.figure(action.figure)
        mount = state.figure(figure.mounted_on)
        flow.acted(state, figure)
        figure.mounted_on = ""
        figure.position = action.hex("to")
        state.emit(
            Event(
                "mount",
                f"{figure.name} dismounts from {mount.name} to {hex_label(figure.position)}",
                figure.id,
                mount.id,
                rule="SCP-48",
            )
        )

    def do_carry_on(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-52, A-28: the mount carries on for its full TMR, then the rider's Horsemanship
        Check: at or under it the mount turns or stops; above it, it keeps going next Pulse."""
        mount = state.figure(action.figure)
        checks = carry_on_rollables(state, mount)  # what the carry-on previews
        full = rules.momentum_hexes(TMR(mount))
        run = offers_mounted.straight_run(state, mount, full)
        blocked = len(run) < full
        start = mount.position
        if run:
            place(state.figures.values(), mount, run[-1], mount.facing)
        p = offers.pulse(state)
        FigureBook(mount).moved_pulse = p
        flow.acted(state, mount)
        state.emit(
            Event(
                "move",
                f"{mount.name} carries on {hex_label(start)} → {hex_label(mount.position)} "
                f"({len(run)} hexes, "
                "momentum, SCP-52)"
                + (
                    f"; stopped by what is in the way after {len(run)} of {full}" if blocked else ""
                ),
                mount.id,
                rule="SCP-52, R-13" if blocked else "SCP-52",
                data={
                    "from": str(start),
                    "to": str(mount.position),
                    "hexes": len(run),
                    "blocked": blocked,
                },
            )
        )
        rider = next((f for f in state.figures.values() if f.mounted_on == mount.id), None)
        if rider is None or not checks:  # no rider, or halted by what blocks it
            FigureBook(mount).momentum_pulse = None
            return
        (check,) = checks
        rolled = check.roll(dice)
        roll, threshold, ok = rolled.roll, check.target, rolled.success
        if ok:
            FigureBook(mount).momentum_pulse = None
        else:
            FigureBook(mount).momentum_pulse = p + 1
        state.emit(
            Event(
                "horsemanship",
                f"{rider.name}'s Horsemanship Check: rolled {roll.total} "
                + (
                    f"≤ {threshold}: {mount.name} turns or stops"
                    if ok
                    else f"> {threshold}: {mount.name} keeps going next Pulse"
                ),
                rider.id,
                rule="SCP-52, A-28",
                rolls=(roll.to_json(),),
                data={"roll": roll.total, "threshold": threshold, "stopped": ok},
            )
        )

    def do_melee(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-4, SCP-24...SCP-34: a Melee attack."""
        resolve.attack(state, state.figure(action.figure), action, dice)

    def do_fire(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-3, SCP-9...SCP-12: Fire along a line, checking every figure on it."""
        resolve.attack(state, state.figure(action.figure), action, dice)

    def do_grapple(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-5, SCP-19, SCP-41: Close combat in one hex."""
        resolve.attack(state, state.figure(action.figure), action, dice)

    def do_parry(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-33, SCP-34: the defender's D10 parry roll."""
        resolve_parry.parry(state, state.figure(action.figure), dice)

    def do_decline_parry(self, state: GameState, action: Action, dice: Dice) -> None:
        """A-6: no parry; the miss stands."""
        figure = state.figure(action.figure)
        state.emit(Event("parry", f"{figure.name} does not parry", figure.id, rule="A-6"))

    def do_riposte(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-35: an immediate Melee attack that cannot be parried."""
        resolve.riposte(state, state.figure(action.figure), action.text("weapon"), dice)

    def do_decline_riposte(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-35: the defender lets the Riposte go."""
        figure = state.figure(action.figure)
        state.emit(Event("riposte", f"{figure.name} makes no riposte", figure.id, rule="SCP-35"))

    def do_evade(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-29, A-10: Evading until the next Pulse."""
        figure = state.figure(action.figure)
        flow.acted(state, figure)
        until = (
            "until the next Pulse (A-10, R-6)"
            if settings(state).evading_lasts == "next_initiative"
            else "until its next action (A-10, R-6)"
        )
        figure.statuses["evading"] = Status("evading", note=until)
        state.emit(
            Event("evade", f"{figure.name} evades this Pulse", figure.id, rule="SCP-29, A-10")
        )

    def do_pass(self, state: GameState, action: Action, dice: Dice) -> None:
        """A Pass; two in a row free an entangled figure (SCP-18, A-18)."""
        flow.do_pass(state, state.figure(action.figure))

    def do_prepare(self, state: GameState, action: Action, dice: Dice) -> None:
        """Prepare a carried item or pick up a dropped one (SCP-31)."""
        figure = state.figure(action.figure)
        value = action.text("item")
        carried = [i for i in figure.equipment if i.name == value and i.state == "carried"]
        if carried:  # of two items of one name (two Daggers), one not yet in hand
            item = carried[0]
            item.state = "ready"
            text = f"{figure.name} readies the {item.name}"
        else:
            what = ground.pick_up(state, figure, value)
            text = f"{figure.name} picks up {what}"
        flow.acted(state, figure)
        state.emit(Event("ready", text, figure.id, rule="SCP-31, A-14, R-16"))

    def do_rise(self, state: GameState, action: Action, dice: Dice) -> None:
        """Stand up from prone (not while entangled, SCP-18)."""
        figure = state.figure(action.figure)
        if figure.has_status("entangled"):
            raise IllegalActionError(f"{figure.name} must disentangle first (SCP-18)")
        figure.statuses.pop("prone", None)
        flow.acted(state, figure)
        state.emit(Event("rise", f"{figure.name} stands up", figure.id, rule="A-14"))

    def do_end_combat(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-53...SCP-55: infection checks for the wounded."""
        aftermath.infection_checks(state, dice)

    def do_gm_end_fight(self, state: GameState, action: Action, dice: Dice) -> None:
        """The GM ends the fight: no figure acts any more (SCP-53)."""
        aftermath.end_fight(state)

    def do_morning(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-56, SCP-58: a day passes for the infected and poisoned."""
        aftermath.morning(state, dice)

    def do_outside_cure(self, state: GameState, action: Action, dice: Dice) -> None:
        """SCP-57: a Healer, a Hospitaler, a potion or a spell ends an infection or a poison."""
        aftermath.outside_cure(state, action)


def horsemanship_check(rider: Figure) -> Check:
    """SCP-52, A-28: the rider's Horsemanship Check once its mount has carried on: a D100
    at or under it turns or stops the mount."""
    threshold = rules.horsemanship_threshold(AG(rider), rank(rider, HORSEMANSHIP))
    return Check(
        f"{rider.name}'s Horsemanship Check",
        "d100",
        "le",
        threshold,
        "Horsemanship (SCP-52, A-28)",
        rule="SCP-52, A-28",
        success_text="turns or stops",
        success_phrase="to turn or stop",
        failure_text="keeps going next Pulse",
    )


def carry_on_rollables(state: GameState, mount: Figure) -> tuple[Check, ...]:
    """What a mount's carrying on rolls: its rider's Horsemanship Check, unless it has no
    rider or halts against what blocks it (SCP-52, R-13)."""
    full = rules.momentum_hexes(TMR(mount))
    blocked = len(offers_mounted.straight_run(state, mount, full)) < full
    rider = next((f for f in state.figures.values() if f.mounted_on == mount.id), None)
    if rider is None or (blocked and settings(state).momentum_blocked == "halt"):
        return ()
    return (horsemanship_check(rider),)
