"""What happens in a round: declarations take effect, moves run together, attacks land.

Each function changes the state it is given and emits events whose text a GM
can read and whose ``details`` and ``data`` carry every number and rule id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hexcombat.checks import AmountResult, signed
from hexcombat.errors import IllegalActionError
from hexcombat.events import Event
from hexcombat.figures import Equipment, Figure, figure_distance, is_standing, place
from hexcombat.geometry import Hex
from hexcombat.kept_searches import KeptSearches
from hexcombat.layout import hex_label
from hexcombat.movement import Pose, Reach, Room, Step, body_steps, lockstep, search
from hexcombat.rulesets.common import knock_down, lose_points
from hexcombat.rulesets.common.moves import WalkedMove
from hexcombat.rulesets.fig_percentile.equipment import find, in_hand
from hexcombat.rulesets.fig_percentile.moves import (
    FACING_NAMES,
    TURNED,
    describe_step,
    step_function,
    tick_poses,
)
from hexcombat.rulesets.fig_percentile.options import CAST_ROUNDS, FIG, MAX_ACTIONS
from hexcombat.rulesets.fig_percentile.situation import (
    counted,
    motion,
    pair_band,
    settings,
    speed_note,
    stopped,
    turns_freely,
)
from hexcombat.rulesets.fig_percentile.speed import (
    NO_SPEED,
    RUNNING,
    allowance,
    combined_speed,
    top_speed,
)
from hexcombat.rulesets.fig_percentile.state import FigureBook, RoundBook
from hexcombat.state import GameState
from hexcombat.validation import Json

# ---- start of round ------------------------------------------------------------


def new_round(state: GameState) -> None:
    """Forget last round's choices; a figure still casting or reloading has no actions."""
    RoundBook(state).moved = False
    for f in state.living():
        book = FigureBook(f)
        book.new_round()
        busy = book.casting or book.reloading
        if busy is not None:
            book.actions_used = MAX_ACTIONS(f)
            what = "casting" if book.casting else "reloading"
            state.emit(
                Event(
                    "busy",
                    f"{f.name} is still {what} {busy[0]}: no actions this round",
                    f.id,
                    rule="FP-26" if book.casting else "G-5",
                )
            )


_MODE_WORDS = {
    "stationary": "stays put",
    "walk": "walks (up to 1 hex)",
    "accelerate": "starts running",
    "top": "runs at top speed",
}


def apply_declaration(state: GameState, figure: Figure, choice: Mapping[str, Json]) -> None:
    """A start-of-round declaration takes effect: move mode, readying, dropping (G-19)."""
    s = settings(state)
    book = FigureBook(figure)
    mode = str(choice["mode"])
    book.mode = mode
    book.declared = True
    ready = str(choice.get("ready") or "")
    drop = choice.get("drop") is True
    hand = in_hand(figure)
    words = [_MODE_WORDS[mode]]
    if mode in RUNNING:
        n = allowance(mode, FIG(figure), s.rounding)
        words[0] += f" ({counted(n, 'hex', 'hexes')} this round)"
    details = speed_note(state, figure)
    if hand is not None and (drop or ready):
        hand.state = "dropped" if drop else "carried"
        words.append(f"{'drops' if drop else 'puts away'} the {hand.name}")
        if drop:
            details.append(f"Dropping the {hand.name} is free (G-5)")
        reloading = book.reloading
        if reloading is not None and reloading[0] == hand.name:
            book.reloading = None
            details.append(f"Reloading the {hand.name} is abandoned")
    if ready:
        lose_ready_spell(state, figure, f"was not released before readying the {ready} (G-26)")
        weapon = find(figure, ready, "weapon")
        weapon.state = "ready"
        book.readied = True
        words.append(f"draws the {weapon.name}")
        cost = "it uses one action (option)" if s.ready_costs_action else "it uses no action (G-5)"
        details.append(
            f"Readying the {weapon.name} takes half a round: every later roll this round is "
            f"at half skill (FP-23); {cost}"
        )
        if s.ready_costs_action:
            book.actions_used += 1
    text = f"{figure.name} " + ", ".join(words[:-1]) + (" and " if len(words) > 1 else "")
    state.emit(
        Event(
            "declare",
            text + words[-1],
            figure.id,
            rule="G-19",
            details=tuple(details),
            data={"mode": mode, "ready": ready, "drop": drop},
        )
    )


# ---- movement ---------------------------------------------------------------------


REACHES: KeptSearches[Reach] = KeptSearches()
"""Round searches kept by what they read (:func:`reach_of`)."""


def reach_of(state: GameState, figure: Figure) -> Reach:
    """Every pose ``figure`` can reach this round from where it stands (FP-1...FP-13). Kept
    by everything the search reads: a plan is searched when offered, checked, carried out
    and imagined by the autopilot on equal states."""
    s = settings(state)
    free = turns_freely(state, figure)
    mode = FigureBook(figure).mode or "stationary"
    bodies = tuple((f.id, f.mounted_on, is_standing(f), f.hexes()) for f in state.figures.values())
    rules = (s.stacking, s.terrain_entry, s.min_one_hex_move, s.rounding, s.turn_policy)
    start = Pose(figure.position, figure.facing)
    key = (figure.id, start, figure.footprint, FIG(figure), mode, free, rules, bodies)
    return REACHES.get(state.board, key, lambda: _search_reach(state, figure, start, mode, free))


def _search_reach(state: GameState, figure: Figure, start: Pose, mode: str, free: bool) -> Reach:
    """:func:`reach_of` worked out: the search itself."""
    s = settings(state)
    fig = FIG(figure)
    room = Room.around(state.board, state.figures.values(), figure, s.stacking)
    steps = step_function(
        state.board,
        [h for h, n in room.crowd.items() if n >= room.limit],
        free_turns=free,
        turn_once=s.turn_policy == "per_round",
        terrain_entry=s.terrain_entry,
        min_one_hex=s.min_one_hex_move,
        top=top_speed(fig, s.rounding),
    )
    body = body_steps(steps, figure.footprint, room)
    reach = search(start, body, allowance(mode, fig, s.rounding))
    # G-12: a turn belongs to the step it precedes; a figure that is not Slow ends no move on one
    return reach if free else reach.ending_only(TURNED)


def planned_path(state: GameState, figure: Figure, to: Hex, facing: int | None) -> list[Step]:
    """The cheapest way to ``to`` (and to ``facing``, when given) within this round's allowance."""
    reach = reach_of(state, figure)
    poses = [
        (cost, p)
        for p, cost in reach.poses().items()
        if p.hex == to and (facing is None or p.facing == facing)
    ]
    if not poses and facing is None:
        raise IllegalActionError(f"{figure.name} cannot reach {hex_label(to)} this round")
    if not poses and facing is not None:
        able = sorted({FACING_NAMES[p.facing] for p in reach.poses() if p.hex == to})
        raise IllegalActionError(
            f"{figure.name} cannot end at {hex_label(to)} facing {FACING_NAMES[facing]} "
            "this round; "
            f"facings possible there: {', '.join(able) or 'none'} (FP-9)"
        )
    cheapest = min(cost for cost, _ in poses)
    paths = [reach.path_to(p) for cost, p in sorted(poses) if cost == cheapest]
    return min(paths, key=len)


def execute_moves(state: GameState) -> None:
    """Carry out every planned move together, tick by tick, stopping at collisions."""
    plans = RoundBook(state).plans
    ticks: dict[str, list[Pose]] = {}
    paths: dict[str, list[Step]] = {}
    for f in state.figures.values():
        plan = plans.get(f.id)
        path: list[Step] = []
        if isinstance(plan, dict) and not state.ruleset.is_out(state, f):
            facing = plan.get("facing")
            path = planned_path(state, f, Hex.parse(str(plan["to"])), facing)
        paths[f.id] = path
        ticks[f.id] = tick_poses(Pose(f.position, f.facing), path)
    RoundBook(state).moved = True  # from here on a figure that enters no hex has stopped (G-11)
    paths_by_tick = {fid: [p.hex for p in poses] for fid, poses in ticks.items()}
    limit = settings(state).stacking
    walked = lockstep(paths_by_tick) if limit == 1 else _shared(paths_by_tick, limit)
    for f in list(state.living()):
        _moved(state, f, paths[f.id], ticks[f.id], walked[f.id])
    report_pairs(state)


def _shared(paths: Mapping[str, list[Hex]], limit: int) -> dict[str, list[Hex]]:
    """Moves when figures may share hexes (G-21): nobody blocks a path, but a mover whose
    final hex would hold more than ``limit`` figures stops one tick earlier, until all fit."""
    walked = {fid: list(path) for fid, path in paths.items()}
    while True:
        counts: dict[Hex, int] = {}
        for path in walked.values():
            counts[path[-1]] = counts.get(path[-1], 0) + 1
        crowded = [path for path in walked.values() if counts[path[-1]] > limit and len(path) > 1]
        if not crowded:
            return walked
        for path in crowded:
            path.pop()


def _moved(
    state: GameState, figure: Figure, path: Sequence[Step], poses: Sequence[Pose], walked: list[Hex]
) -> None:
    s = settings(state)
    book = FigureBook(figure)
    start = figure.position
    move = WalkedMove(start, poses, walked)
    done, cut, final, n = move.ticks, move.cut, move.end, move.entered
    book.hexes_moved = n
    turned = final.facing != figure.facing
    place(state.figures.values(), figure, final.hex, final.facing)
    mode = book.mode or "stationary"
    limit = allowance(mode, FIG(figure), s.rounding)
    executed, extra = _walked(path, done)
    book.terrain_extra = extra
    if n:
        verb = "walks" if mode == "walk" else "runs" if mode in RUNNING else "moves"
        way = f"{hex_label(start)} → {hex_label(final.hex)}"
        text = f"{figure.name} {verb} {counted(n, 'hex', 'hexes')}: {way}"
        text += f" ({done} of {limit} MP)"
    elif mode == "stationary" and not turned:
        return
    elif mode != "stationary" and not stopped(state, figure):  # G-11 option: 0-hex acceleration
        text = f"{figure.name} accelerates but covers no hex this round; top speed next round"
    elif mode != "stationary":
        text = f"{figure.name} enters no hex this round and has stopped (G-11)"
        if turned:
            text += f"; it turns to face {FACING_NAMES[final.facing]}"
    else:
        text = f"{figure.name} turns to face {FACING_NAMES[final.facing]} at {hex_label(start)}"
    if cut:
        text += ": stopped, another figure is in the way"
    details = _move_details(state, figure, executed, (n, extra, done, limit), cut)
    state.emit(
        Event(
            "move",
            text,
            figure.id,
            rule="FP-1, FP-2" if mode in RUNNING and n else "G-11",
            details=tuple(details),
            data=move.data(
                mp=done,
                allowance=limit,
                mode=mode,
                speed=float(motion(state, figure).speed),
                blocked=cut,
            ),
        )
    )


def _walked(path: Sequence[Step], done: int) -> tuple[list[str], int]:
    """The steps of ``path`` carried out within ``done`` movement points, in words, and the
    points they spent beyond one a hex."""
    executed: list[str] = []
    spent = extra = 0
    for step in path:
        if spent + step.cost > done and step.cost > 0:
            break
        spent += step.cost
        if step.kind == "move":
            extra += step.cost - 1  # G-13: points spent beyond 1 per hex, as actually spent
        executed.append(describe_step(step))
    return executed, extra


def _move_details(
    state: GameState,
    figure: Figure,
    executed: list[str],
    counts: tuple[int, int, int, int],
    cut: bool,
) -> list[str]:
    """A move's details: the speed, the steps, and what entering no hex, costly terrain or
    points left unused mean (``counts``: hexes entered, extra points, points spent, the
    allowance)."""
    s = settings(state)
    n, extra, done, limit = counts
    details = [*speed_note(state, figure), *executed]
    if n == 0 and stopped(state, figure):
        details.append(
            "Entering no hex stops a figure whatever its mode: speed 0, it may dodge as a "
            "stationary figure (FP-10) and must accelerate again to run (G-11, FP-4)"
        )
    if s.terrain_reduces_speed and extra and n:
        details.append(
            f"Terrain: {counted(extra, 'extra movement point')} spent, speed lowered by "
            f"{10 * extra}, not below 0 (G-13 option)"
        )
    if limit > done and n and not cut:
        details.append(f"{limit - done} MP left unused (FP-13)")
    return details


def report_pairs(state: GameState) -> None:
    """After movement: each pair of opponents' distance and combined speed band (FP-6, FP-7)."""
    s = settings(state)
    living = list(state.living())
    for i, a in enumerate(living):
        for b in living[i + 1 :]:
            if a.side == b.side:
                continue
            d = figure_distance(a, b)
            band, how = pair_band(state, a, b)
            total = combined_speed(motion(state, a), motion(state, b), s.combined_speed_unit)
            if band is NO_SPEED:
                effect = "no speed modifier (G-10)"
            else:
                effect = f"{band.name}, {signed(band.modifier)} to hit for both (FP-6, FP-7)"
            gap = max(0, d - 1)
            state.emit(
                Event(
                    "speeds",
                    f"{a.name} and {b.name} are {counted(d, 'hex', 'hexes')} apart "
                    f"({gap} between them); combined speed {how}: {effect}",
                    a.id,
                    b.id,
                    rule="FP-6, FP-7",
                    data={
                        "distance": d,
                        "gap": max(0, d - 1),
                        "combined": float(total),
                        "band": band.name,
                        "modifier": band.modifier,
                    },
                )
            )


# ---- post-move declarations ----------------------------------------------------


def apply_post(state: GameState, figure: Figure, choice: Mapping[str, Json]) -> None:
    """FP-27 stop or continue and G-6 spell beginnings take effect."""
    book = FigureBook(figure)
    book.post_declared = True
    stop = choice.get("choice")
    if stop == "stop":
        book.stop = True
        state.emit(
            Event(
                "stop",
                f"{figure.name} declares a stop: it takes effect at the end of this round",
                figure.id,
                rule="FP-27, FP-4",
                details=("The next run starts again with an acceleration round (FP-4)",),
            )
        )
    elif stop == "continue":
        state.emit(
            Event(
                "continue",
                f"{figure.name} keeps running: top speed again next round",
                figure.id,
                rule="FP-27, FP-3",
            )
        )
    spell = choice.get("spell")
    if isinstance(spell, str) and spell:
        lose_ready_spell(state, figure, f"was not released before beginning {spell} (G-26)")
        item = find(figure, spell, "spell")
        rounds = max(1, CAST_ROUNDS(item))
        book.casting = (item.name, rounds)
        book.actions_used = MAX_ACTIONS(figure)
        release = state.clock.counters[0] + rounds
        state.emit(
            Event(
                "cast",
                f"{figure.name} begins casting {item.name}: it can be released in round {release}",
                figure.id,
                rule="FP-26, G-6",
                details=(
                    f"Casting takes {counted(rounds, 'full round')}; no other actions this round "
                    "(FP-26)",
                ),
                data={"spell": item.name, "release_round": release},
            )
        )


def lose_ready_spell(state: GameState, figure: Figure, why: str) -> None:
    """G-26: the figure's finished spell is lost (``why`` says how, with its gap id)."""
    book = FigureBook(figure)
    ready = book.spell_ready
    if not ready:
        return
    book.spell_ready = None
    state.emit(
        Event(
            "fizzle",
            f"{figure.name}'s {ready} is lost: it {why}",
            figure.id,
            rule="G-26",
            details=(
                "A finished spell stays ready until released; it is lost when the caster "
                "readies a weapon or begins another spell, or after one action step with the "
                "option 'lost after the next step' (G-26)",
            ),
        )
    )


# ---- attacks (rolled in the action step, see action_step.py) ----------------------------


def land_hit(
    state: GameState, attacker: Figure, target: Figure, item: Equipment, damage: AmountResult | None
) -> None:
    """A hit takes effect: counted, and with the hit-point option the ``damage`` rolled with
    it (the last stage of the roll its preview showed, G-2) is taken off the hit points."""
    book = FigureBook(target)
    book.hits_taken += 1
    pool = target.pools.get("hp")
    if damage is None or pool is None:
        state.emit(
            Event(
                "hit",
                f"{target.name} is hit by {attacker.name}'s {item.name} "
                f"(hits taken: {book.hits_taken})",
                target.id,
                attacker.id,
                rule="G-2",
                details=("The text has no damage rules: the hit is recorded (G-2)",),
                data={"hits_taken": book.hits_taken},
            )
        )
        return
    lose_points(pool, damage.total)
    text = (
        f"{target.name} takes {damage.total} damage from the {item.name} "
        f"({pool.current}/{pool.maximum} hit points left)"
    )
    state.emit(
        Event(
            "hit",
            text,
            target.id,
            attacker.id,
            rule="G-2",
            details=(f"Damage {damage.roll.expr} (placeholder): {damage.total}",),
            rolls=(damage.roll.to_json(),),
            data={"damage": damage.total, "hp": pool.current, "hits_taken": book.hits_taken},
        )
    )
    if pool.current == 0 and settings(state).round_order == "sequential":
        knock_out(state, target)


def knock_out(state: GameState, figure: Figure) -> None:
    """The figure is out of the fight (0 hit points)."""
    knock_down(figure, replace=True)
    current = state.prompt  # its rolls not yet made are lost (G-19, one by one)
    state.prompts[:] = [p for p in state.prompts if p is current or p.figure != figure.id]
    state.emit(Event("status", f"{figure.name} is down and out of the fight", figure.id))


# ---- end of round ------------------------------------------------------------------


def end_of_round(state: GameState) -> None:
    """Results apply (G-19), stops take effect (FP-4), casting and reloading count down."""
    for f in list(state.living()):
        pool = f.pools.get("hp")
        if pool is not None and pool.current == 0:
            knock_out(state, f)
    for f in state.living():
        book = FigureBook(f)
        ready = book.spell_ready
        if ready and settings(state).unreleased_spell == "lost_after_next_step":
            lose_ready_spell(
                state, f, "was not released in the action step after its casting (G-26 option)"
            )
        casting = book.casting
        if casting is not None:
            name, left = casting[0], casting[1] - 1
            book.casting = None if left <= 0 else (name, left)
            if left <= 0:
                book.spell_ready = name
                book.ready_from = state.clock.counters[0] + 1
                state.emit(
                    Event(
                        "spell_ready",
                        f"{f.name} finishes casting {name}: it can be released in next "
                        "round's action step",
                        f.id,
                        rule="FP-26",
                    )
                )
        reloading = book.reloading
        if reloading is not None:
            name, left = reloading[0], reloading[1] - 1
            book.reloading = None if left <= 0 else (name, left)
            hand = in_hand(f)
            if left <= 0 and hand is not None and hand.name == name:
                hand.loaded = True
                state.emit(Event("loaded", f"{f.name}'s {name} is loaded again", f.id, rule="G-5"))
        mode = book.mode or "stationary"
        halted = stopped(state, f)
        book.running = mode in RUNNING and not book.stop and not halted
        if mode in RUNNING and halted:
            state.emit(
                Event(
                    "stopped",
                    f"{f.name} entered no hex this round and has stopped: the next run starts "
                    "with an acceleration round",
                    f.id,
                    rule="G-11, FP-4",
                )
            )
        elif mode in RUNNING and book.stop:
            state.emit(
                Event(
                    "stopped",
                    f"{f.name}'s stop takes effect: the next run starts with an acceleration round",
                    f.id,
                    rule="FP-4",
                )
            )
