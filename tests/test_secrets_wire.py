"""What a device at the table is sent goes through the one secrets model: in every ruleset,
over seeded random games hosted with a guest seated at each side and one watching, every
message a guest receives is the same whether a secret it may not see was one thing or
another, until the secret's time; and once nothing is kept from a guest its copy of the
fight is the host's, state for state."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest
from manifests import demo, every_id
from manifests import test_only_registered as registered
from playouts import LONG_MODE
from secret_games import Twin, at, random_game, twin_leaks

from hexcombat import Action, ActionSpec, Encounter
from hexcombat.autopilot.play import restarted
from hexcombat.sealing import canonical
from hexcombat.table import Device, Host, Outgoing
from hexcombat.table.wire import Audience, declarations_json, reading

SEEDS = (1, 2, 3, 4, 5, 6) if LONG_MODE else (1,)
MOVES = 120 if LONG_MODE else 60
TWINS = 12 if LONG_MODE else 2
WATCHER = "watcher"
"""A guest seated at no figure: it may see no side's secret."""


@dataclass
class Table:
    """A host of a fresh copy of a game's set-up, a guest seated at each side and a watcher,
    and every message each guest received after each entry."""

    host: Host
    guests: dict[str, Device]
    heard: dict[str, list[list[str]]] = field(default_factory=dict)

    def deliver(self, outgoing: list[Outgoing]) -> None:
        """Hand each message to its device; what a device answers goes back to the host."""
        while outgoing:
            message, *outgoing = outgoing
            device = self.guests.get(message.to)
            if device is None:
                continue
            self.heard.setdefault(message.to, [[]])[-1].append(message.text)
            for reply in device.receive(message.text):
                outgoing += self.host.receive(message.to, reply)

    def play(self, encounter: Encounter, cursor: int) -> None:
        """Perform ``encounter``'s entry ``cursor - 1`` on the host, as its own page does."""
        entry = encounter.log[cursor - 1]
        for messages in self.heard.values():
            messages.append([])
        self.host.encounter.perform(entry.action, entry.faces, entry.note)
        self.deliver(self.host.sync())


def hosted(game: Encounter) -> Table:
    """A table for ``game``'s set-up, before its first entry."""
    host = Host(restarted(game, game.setup.seed))
    host.table = "0" * 16
    sides = sorted({f.side for f in game.state.figures.values()})
    names = [*sides, WATCHER]
    guests = {n: Device(n, salt=lambda i=i: f"{i + 1:032x}") for i, n in enumerate(names)}
    table = Table(host, guests)
    for name, device in guests.items():
        table.deliver(host.receive(name, device.hello()))
    for side in sides:
        table.deliver(host.seat(side, sides=(side,)))
    for messages in table.heard.values():
        messages[:] = [[]]
    return table


def may_see(guest: str, pair: Twin) -> bool:
    return Audience(sides=frozenset({guest} - {WATCHER})).may_see(pair.secret)


def first_leak(pair: Twin) -> str:
    """Where a guest that may not see the twin's secret first hears otherwise while it is
    kept in both games ('' when never)."""
    stop = min(len(pair.game.log), pair.twin.cursor)
    one, two = hosted(pair.game), hosted(pair.twin)
    for cursor in range(1, stop + 1):
        one.play(pair.game, cursor)
        two.play(pair.twin, cursor)
        if cursor <= pair.index:
            continue
        game, twin = one.host.encounter, two.host.encounter
        kept = game.ruleset.secret_kept
        if not (kept(game.state, pair.secret) and kept(twin.state, pair.secret)):
            return ""
        for guest in one.guests:
            if may_see(guest, pair):
                continue
            if one.heard[guest][-1] != two.heard[guest][-1]:
                return f"after entry {cursor - 1} ({game.log[cursor - 1].action.kind}), {guest}"
    return ""


def replica_problems(game: Encounter) -> list[str]:
    """Where a guest reads its copy otherwise than the table reads the host's fight (at
    the same entry), or, with nothing kept back from it, its copy is not the host's."""
    table = hosted(game)
    problems = []
    for cursor in range(1, game.cursor + 1):
        table.play(game, cursor)
        truth = table.host.encounter
        for name, device in table.guests.items():
            copy = device.fight
            if reading(copy, 0) != reading(at(truth, copy.cursor), 0):
                problems.append(f"entry {cursor - 1}: {name} reads otherwise")
            same_log = [e.to_json() for e in copy.log[: copy.cursor]] == [
                e.to_json() for e in truth.log[: truth.cursor]
            ]
            if not device.kept_back and same_log and state_text(copy) != state_text(truth):
                problems.append(f"entry {cursor - 1}: {name}'s copy is not the host's state")
    return problems


def state_text(enc: Encounter) -> str:
    state = enc.state
    held = {
        "figures": [f.to_json() for f in state.figures.values()],
        "clock": [list(state.clock.counters), state.clock.step],
        "memory": state.memory,
        "declarations": declarations_json(state),
        "events": [e.to_json() for e in enc.events],
    }
    return canonical(held)


@pytest.mark.parametrize("ruleset_id", every_id())
def test_a_guest_hears_no_secret_before_its_time(ruleset_id: str) -> None:
    with registered():
        leaks = twin_leaks(demo(ruleset_id), SEEDS, MOVES, TWINS, first_leak)
    assert not leaks, "\n".join(leaks)


@pytest.mark.parametrize("ruleset_id", every_id())
def test_a_guest_reads_its_copy_as_the_table_reads_the_host(ruleset_id: str) -> None:
    """And once nothing is kept back from it, its copy is the host's, state for state."""
    with registered():
        template = demo(ruleset_id)
        for seed in SEEDS:
            problems = replica_problems(random_game(template, seed, MOVES))
            assert not problems, f"seed {seed}:\n" + "\n".join(problems[:5])


def test_scp_20_the_knockout_time_travels_at_its_highest_until_the_figure_wakes() -> None:
    from strike_chance_pulse_fixtures import duel, initiative, roll  # tests/rules, on the path

    game = duel()
    initiative(game, [10, 9])
    roll(game, [7, 1], "melee", "ann", weapon="Broadsword", special="knockout", target="bo")
    table = hosted(game)
    for cursor in range(1, game.cursor + 1):
        table.play(game, cursor)
    truth = table.host.encounter.log[-1]
    for name, device in table.guests.items():
        sent = device.fight.log[-1]
        heard = json.dumps(table.heard[name])
        assert sent.action == truth.action
        assert sent.faces[-1] == 10 != truth.faces[-1], name
        assert "rolled in secret" not in heard
        assert len(device.document()["log"]) == len(game.log) - 1  # never hosted from


def to_the_moves(game: Encounter, table: Table) -> ActionSpec:
    """Every figure of fig-percentile's four declares a walk and the table moves on to the
    plans: ``b1``'s plan_move offer, as the host (and each device) has it."""
    for fid in ("a1", "a2", "b1", "b2"):
        game.perform(Action("declare", fid, {"mode": "walk"}))
        table.play(game, game.cursor)
    game.perform(Action("next_step", None, {}))
    table.play(game, game.cursor)
    return next(s for s in game.legal_actions("b1") if s.kind == "plan_move")


def test_g19_a_planned_move_reaches_the_other_sides_once_the_moves_run() -> None:
    from test_autopilot import fp_four

    game = fp_four()
    table = hosted(game)
    plan = to_the_moves(game, table)
    to = plan.params[0].choices[-1].value
    game.perform(Action("plan_move", "b1", {"to": to}), note=f"The app plays B: to {to}")
    table.play(game, game.cursor)
    truth = game.log[-1]
    heard = {name: device.fight.log[-1] for name, device in table.guests.items()}
    assert heard["B"] == truth
    stay = Action("plan_move", "b1", {"to": str(game.state.figure("b1").position)})
    assert heard["A"].action == heard[WATCHER].action == stay != truth.action
    assert truth.note and not heard["A"].note
    game.perform(Action("next_step", None, {}))
    table.play(game, game.cursor)
    assert all(d.fight.log[-2] == truth for d in table.guests.values())


def test_c_7_a_later_phase_declared_n_is_kept_through_its_declare_step() -> None:
    """The app's note naming a declared N stays kept while the declarations are made, in
    every phase (the figure's book still says the last phase's N was shown)."""
    with registered():
        game = random_game(demo("combat-speed-phase"), 1, 60)
    notes = [
        (i, e.note)
        for i, e in enumerate(game.log)
        if e.action.kind == "declare_speed" and e.note and i < game.cursor
    ]
    later = [(i, n) for i, n in notes if at(game, i).state.clock.counters[0] > 1]
    assert later, "the game reaches no later phase's declarations"
    for index, note in later:
        made = at(game, index).state.clock
        step = range(index, game.cursor)
        within = [j for j in step if at(game, j + 1).state.clock == made]
        told = [e.text for j in [index, *within] for e in game.entry_events(j)]
        assert note not in told, f"entry {index}'s note is read in its own declare step"


def test_g19_planned_moves_travel_sealed_and_are_told_once_the_moves_run() -> None:
    """At the table a planned move is sealed (the host holds a digest only) until every
    figure has planned; the other side's device then has stand-ins until the moves run."""
    from table_net import Net
    from test_autopilot import fp_four

    net = Net(fp_four(), 2)
    net.seat_by_side()
    for fid, device in (("a1", "d1"), ("a2", "d1"), ("b1", "d2"), ("b2", "d2")):
        net.send(device, net.devices[device].send(Action("declare", fid, {"mode": "walk"})))
    net.send("host", net.devices["host"].act(Action("next_step")))
    host = net.host
    plans = {}
    for fid, device in (("a1", "d1"), ("a2", "d1"), ("b1", "d2"), ("b2", "d2")):
        spec = next(s for s in host.encounter.legal_actions(fid) if s.kind == "plan_move")
        plans[fid] = Action("plan_move", fid, {"to": spec.params[0].choices[0].value})
        request = net.devices[device].send(plans[fid])
        assert '"seal"' in request and "plan_move" not in request
        net.send(device, request)
        if fid != "b2":
            assert fid in host.seals and "plan_move" not in str(host.encounter.log[-1])
    assert not host.seals
    told = {d: net.devices[d].fight.log for d in ("d1", "d2")}
    assert [e.action for e in told["d1"][-2:]] != [plans["b1"], plans["b2"]]
    assert [e.action for e in told["d1"][-4:-2]] == [plans["a1"], plans["a2"]]
    net.send("host", net.devices["host"].act(Action("next_step")))
    moved = [e.action for e in net.devices["d1"].fight.log if e.action.kind == "plan_move"]
    assert moved == [plans[f] for f in ("a1", "a2", "b1", "b2")]


def test_a_choice_told_at_its_reveal_is_not_kept_again_as_the_step_goes_on() -> None:
    """fig-percentile's demo round at a table: once the act step's choices are revealed its
    prompts follow in the same step, and the guest is sent every entry (nothing kept back)."""
    from table_net import Net

    with registered():
        played = demo("fig-percentile")
    fresh = restarted(played, played.setup.seed)
    net = Net(restarted(played, played.setup.seed), 1)
    side = played.state.figures[next(e.action.figure for e in played.log if e.action.figure)]
    net.deliver(net.host.seat("d1", sides=(side.side,)))
    net.deliver(net.host.set_rolls("players"))
    for entry in played.log:
        if fresh.state.clock.counters[0] > 1:
            break
        mover = fresh.state.figures.get(entry.action.figure or "")
        device = "d1" if mover is not None and mover.side == side.side else "host"
        net.send(device, net.devices[device].send(entry.action, entry.faces or None))
        fresh.perform(entry.action, entry.faces or None)
        assert net.devices["d1"].kept_back == 0, f"after {entry.action.kind}"
    assert fresh.state.clock.counters[0] > 1 and net.host.encounter.cursor == fresh.cursor


def test_g19_a_guest_that_hosts_the_fight_again_hosts_no_stand_in() -> None:
    """A device whose copy ends in a stand-in (another side's planned move, not yet told)
    hosts the fight again, the host gone, from the entries before it: never the guess."""
    from test_autopilot import fp_four

    game = fp_four()
    table = hosted(game)
    plan = to_the_moves(game, table)
    game.perform(Action("plan_move", "b1", {"to": plan.params[0].choices[-1].value}))
    table.play(game, game.cursor)
    guest = table.guests["A"]
    assert guest.fight.log[-1] != game.log[-1]  # its copy ends in the stand-in
    truth = guest.truth()
    assert list(truth.log) == list(game.log[:-1]) and truth.cursor == game.cursor - 1
