"""Candidate actions for a side: each offered action with parameter values worth trying.

Only what the side may see is read: the offered :class:`ActionSpec` s and their
:class:`FieldSpec` choices (honouring ``Choice.when``), and where the figures stand.
Values are ordered by a player's first guess (the nearest enemy, the hex that closes in,
the facing towards the foe), so the first candidate of a spec is a sensible plain play.
"""

from __future__ import annotations

from collections.abc import Mapping

from hexcombat.actions import Action, ActionSpec
from hexcombat.autopilot.stream import Stream
from hexcombat.errors import HexcombatError
from hexcombat.figures import Figure, figure_distance
from hexcombat.geometry import Hex, distance, in_front_arc, neighbor
from hexcombat.schema import FieldSpec
from hexcombat.state import GameState
from hexcombat.validation import Json

PER_SPEC = 10
"""Candidates tried per offered action at most (the plain one, one-parameter variations,
then random combinations)."""
CHOICES = 8
"""Other values of a list parameter tried at most (drawn at random when it offers more)."""
HEXES = 4
"""Destination hexes kept per move: the two nearest the foe, where it stands, the farthest
and one at random."""


def enemies(state: GameState, side: str) -> list[Figure]:
    """The figures of other sides still in the fight."""
    return [f for f in state.living() if f.side != side]


def nearest_enemy(state: GameState, figure: Figure) -> Figure | None:
    """The foe closest to ``figure`` (ties: setup order), or None when none is left."""
    foes = enemies(state, figure.side)
    return min(foes, key=lambda f: figure_distance(figure, f)) if foes else None


def hex_of(value: Json) -> Hex | None:
    """A ``"q,r"`` parameter value as a hex (None when it is not one)."""
    if isinstance(value, str):
        q, sep, r = value.partition(",")
        if sep:
            try:
                return Hex(int(q), int(r))
            except ValueError:
                return None
    return None


def facing_towards(at: Hex, target: Hex) -> int:
    """The facing from ``at`` whose neighbour is nearest ``target``."""
    return min(range(6), key=lambda d: (distance(neighbor(at, d), target), d))


def _turn(facing: int, to: int) -> int:
    """Hexsides turned from ``facing`` to ``to``."""
    return min((to - facing) % 6, (facing - to) % 6)


def _gap(hex_value: Json, foe_hexes: tuple[Hex, ...]) -> int:
    h = hex_of(hex_value)
    if h is None or not foe_hexes:
        return 0
    return min(distance(h, f) for f in foe_hexes)


Ranked = tuple[list[Json], list[Json], str]
"""The values of a parameter worth trying before any random pick: the ones always tried,
the ones a pick is drawn from, and how (``one``: one more at random, ``some``: at most
:data:`CHOICES` of them at random, else all)."""
Known = dict[tuple[object, ...], Ranked]
"""The parameters' :data:`Ranked` values by parameter, offered choices and destination,
worked out once in one :func:`candidates` call (one state and spec): the same parameter is
asked about for every candidate."""


def values(
    state: GameState,
    spec: ActionSpec,
    param: FieldSpec,
    chosen: Mapping[str, Json],
    rng: Stream,
    known: Known | None = None,
) -> list[Json]:
    """The values worth trying for ``param`` given the earlier ``chosen`` ones, best guess
    first (never a value the spec does not offer); ``known`` keeps what one state and spec
    gave (the random picks are drawn every time, alike)."""
    offered = param.offered(chosen)
    to = chosen.get("to") if param.type == "facing" else None
    key = (param.name, offered, to if isinstance(to, str) else None)
    try:
        ranked = known.get(key) if known is not None else None
    except TypeError:  # a value that is no key (a list): worked out every time
        ranked, known = None, None
    if ranked is None:
        ranked = _ranked(state, spec, param, chosen, [c.value for c in offered])
        if known is not None:
            known[key] = ranked
    fixed, pool, draw = ranked
    if draw == "one":
        return list(dict.fromkeys([*fixed, rng.choice(pool)]))
    if draw == "some" and len(pool) > CHOICES:
        return fixed + rng.sample(pool, CHOICES)
    return fixed + pool


def _ranked(
    state: GameState,
    spec: ActionSpec,
    param: FieldSpec,
    chosen: Mapping[str, Json],
    offered: list[Json],
) -> Ranked:
    """:func:`values` before its random picks."""
    me = state.figures.get(spec.figure) if spec.figure else None
    if param.type == "facing":
        facings: list[Json] = list(_facings(state, me, chosen))
        if not param.choices:
            return facings, [], ""
        return (
            [d for d in facings if d in offered] + [d for d in offered if d not in facings],
            [],
            "",
        )
    if param.choices:
        if not offered:
            return [], [], ""
        if param.type == "hex":
            foe = nearest_enemy(state, me) if me else None
            foe_hexes = tuple(foe.hexes()) if foe else ()
            taken = {str(h) for f in state.living() if f is not me for h in f.hexes()}
            # a hex another figure stands in last: a move there is seldom more than a wish
            ranked = sorted(offered, key=lambda v: (v in taken, _gap(v, foe_hexes), str(v)))
            here = [str(me.position)] if me and str(me.position) in offered else []
            return ranked[: HEXES - 2] + here + ranked[-1:], offered, "one"
        if param.type == "figure" and me is not None:
            sides = {f.id: f.side for f in state.figures.values()}
            near = {f.id: figure_distance(me, f) for f in state.figures.values()}
            foes = [v for v in offered if isinstance(v, str) and sides.get(v) != me.side]
            own = [v for v in offered if v not in foes]
            foes.sort(key=lambda v: (near.get(str(v), 99), str(v)))
            return (foes + own)[:6], [], ""
        first = [param.default] if param.default in offered else []
        carried = {i.name for i in me.equipment} if me else set()
        # then its own gear (a weapon of its own before the same one another dropped)
        first += [v for v in offered if isinstance(v, str) and v in carried and v not in first]
        return first, [v for v in offered if v not in first], "some"
    if param.type == "bool":
        plain = param.default if isinstance(param.default, bool) else False
        return [plain, not plain], [], ""
    if param.default is not None:
        return [param.default], [], ""
    if param.type == "int" and param.minimum is not None:
        return [max(param.minimum, 0) if param.maximum is None else param.minimum], [], ""
    return [], [], ""


def _facings(state: GameState, me: Figure | None, chosen: Mapping[str, Json]) -> list[int]:
    """The facings worth trying at the hex ``chosen`` moves to (else where ``me`` stands):
    towards the foe nearest that hex (one sharing it is in no front), then the other facings
    with that foe in front, the shortest turn from now first, then a hexside's turn towards
    them (a move may allow no more), then the facing it has."""
    at = hex_of(chosen.get("to")) or (me.position if me else None)
    now = me.facing if me else 0
    if me is None or at is None:
        return [now]
    apart = [f for f in enemies(state, me.side) if at not in f.hexes()]
    foe = min(apart, key=lambda f: min(distance(at, h) for h in f.hexes()), default=None)
    if foe is None:
        return [now]
    toward = facing_towards(at, foe.position)
    arc = [d for d in range(6) if in_front_arc(at, d, foe.position)]
    arc.sort(key=lambda d: (_turn(now, d), d))
    gap = min(_turn(now, d) for d in arc)
    half = [d for d in ((now + 1) % 6, (now + 5) % 6) if min(_turn(d, a) for a in arc) < gap]
    return list(dict.fromkeys([toward, *arc, *half, now]))


def _complete(
    state: GameState,
    spec: ActionSpec,
    chosen: dict[str, Json],
    start: int,
    rng: Stream,
    pick_random: bool,
    known: Known | None = None,
) -> Action | None:
    params = dict(chosen)
    for param in spec.params[start:]:
        if param.name in params or (not pick_random and _left_out(param)):
            continue
        options = values(state, spec, param, params, rng, known)
        if not options:
            if param.required:
                return None
            continue
        params[param.name] = rng.choice(options) if pick_random else options[0]
    return Action(spec.kind, spec.figure, params)


def plain(state: GameState, spec: ActionSpec, rng: Stream) -> Action | None:
    """The plain candidate of ``spec`` alone (the first :func:`candidates` gives)."""
    return _complete(state, spec, {}, 0, rng, False)


def candidates(
    state: GameState, spec: ActionSpec, rng: Stream, limit: int = PER_SPEC
) -> list[Action]:
    """Up to ``limit`` distinct actions for ``spec``: the plain one (an optional list with no
    default left out), a turn where it stands towards a foe at grips that it does not face
    (:func:`_turns_in_place`), each parameter varied with the others plain (every parameter's first
    other value, then its second, ...), each yes/no parameter flipped together with another's
    other values (a flag often changes which values make sense), then random combinations
    (from ``rng``)."""
    found: dict[str, Action] = {}
    slots = _slots(spec)
    known: Known = {}

    def keep(action: Action | None) -> None:
        if action is not None and slots:
            action = _mended(state, spec, action, slots)
        if action is not None:
            action = _consistent(state, spec, action, rng, known)
        if action is not None and len(found) < limit:
            found.setdefault(repr(sorted(action.params.items())), action)

    keep(_complete(state, spec, {}, 0, rng, False, known))
    rows: list[list[Action | None]] = []
    prefix: dict[str, Json] = {}
    flags: list[tuple[int, dict[str, Json]]] = []
    for i, param in enumerate(spec.params):
        plain = values(state, spec, param, prefix, rng, known)
        left_out = _left_out(param)
        rows.append(
            [
                _complete(state, spec, {**prefix, param.name: v}, i + 1, rng, False, known)
                for v in (plain if left_out else plain[1:])
            ]
        )
        if param.type == "bool" and len(plain) > 1:
            flags.append((i, {**prefix, param.name: plain[1]}))
        if left_out:
            continue
        if not plain:
            break
        prefix[param.name] = plain[0]
    for row in _round_robin([_turns_in_place(state, spec, rng), *rows]):
        keep(row)
    for i, flipped in flags:
        pairs = [
            [
                _varied(state, spec, flipped, j, v, rng, known)
                for v in values(state, spec, p, flipped, rng, known)
            ]
            for j, p in enumerate(spec.params)
            if j < i
        ]
        for action in _round_robin(pairs):
            keep(action)
    for _ in range(limit):
        keep(_complete(state, spec, {}, 0, rng, True, known))
    return list(found.values())


def _turns_in_place(state: GameState, spec: ActionSpec, rng: Stream) -> list[Action | None]:
    """The figure staying in its hex and turning towards its nearest foe, when that foe is
    next to it and not in its front arc (a move's plain play steps towards the foe, and a
    foe at grips is best met by turning): one action per facing worth trying."""
    me = state.figures.get(spec.figure) if spec.figure else None
    foe = nearest_enemy(state, me) if me else None
    if me is None or foe is None or figure_distance(me, foe) > 1:
        return []
    if in_front_arc(me.position, me.facing, foe.position):
        return []
    where = next((p for p in spec.params if p.type == "hex"), None)
    turn = next((p for p in spec.params if p.type == "facing"), None)
    here = str(me.position)
    if where is None or turn is None or here not in [c.value for c in where.offered({})]:
        return []
    at = {where.name: here}
    return [
        _complete(state, spec, {**at, turn.name: v}, 0, rng, False)
        for v in values(state, spec, turn, at, rng)
        if v != me.facing
    ]


def _slots(spec: ActionSpec) -> list[FieldSpec]:
    """The spec's parameters that are slots of one list (several choice parameters offering
    the same values: a declaration of two actions, say); none when it has fewer than two."""
    lists: dict[tuple[Json, ...], list[FieldSpec]] = {}
    for param in spec.params:
        if param.type == "choice" and param.choices:
            lists.setdefault(tuple(c.value for c in param.choices), []).append(param)
    return [p for group in lists.values() if len(group) > 1 for p in group]


def _mended(
    state: GameState, spec: ActionSpec, action: Action, slots: list[FieldSpec]
) -> Action | None:
    """``action`` when the rules accept it as a choice; else the same with one slot
    (:func:`_slots`) left at its default changed to the first value they accept (the slot
    varied is what the candidate tries: a shot declared with nothing loaded becomes a shot
    and a load); None when no such change mends it."""
    if _accepted(state, action):
        return action
    plain = [p for p in slots if action.params.get(p.name) == p.default]
    for param in plain or slots:
        for choice in param.offered(action.params):
            if choice.value == action.params.get(param.name):
                continue
            mended = Action(action.kind, action.figure, {**action.params, param.name: choice.value})
            if _accepted(state, mended):
                return mended
    return None


def _consistent(
    state: GameState, spec: ActionSpec, action: Action, rng: Stream, known: Known | None = None
) -> Action | None:
    """``action`` with every parameter whose value the choices before it no longer offer (a
    slot mended to a dodge leaves no target) set to its plain value, or left out when
    optional; None when the spec still refuses it. What the table would refuse is never
    imagined (the rules' resolution does not check the form's parameters)."""
    params = dict(action.params)
    for param in spec.params:
        if param.name not in params or param.check(params[param.name], params) is None:
            continue
        options = values(state, spec, param, params, rng, known)
        if options:
            params[param.name] = options[0]
        elif param.required:
            return None
        else:
            del params[param.name]
    try:
        spec.check(params)
    except HexcombatError:
        return None
    return Action(action.kind, action.figure, params)


def _accepted(state: GameState, action: Action) -> bool:
    """Whether the rules accept ``action`` as a choice (:meth:`check_choice`)."""
    try:
        state.ruleset.check_choice(state, action)
    except (HexcombatError, ValueError):
        return False
    return True


def _left_out(param: FieldSpec) -> bool:
    """Whether the plain play leaves ``param`` out: an optional list of words with no default
    (the rules then choose, as a player who names only the hex to reach); never a target."""
    return (
        param.type == "choice"
        and bool(param.choices)
        and not param.required
        and (param.default is None)
    )


def _varied(
    state: GameState,
    spec: ActionSpec,
    chosen: dict[str, Json],
    at: int,
    value: Json,
    rng: Stream,
    known: Known | None = None,
) -> Action | None:
    """``chosen`` with the ``at``-th parameter set to ``value``, the rest plain."""
    name = spec.params[at].name
    if name not in chosen:
        return None
    return _complete(state, spec, {**chosen, name: value}, 0, rng, False, known)


def _round_robin(rows: list[list[Action | None]]) -> list[Action | None]:
    """The first of every row, then the second of every row, ..."""
    longest = max((len(r) for r in rows), default=0)
    return [r[k] for k in range(longest) for r in rows if k < len(r)]
