"""The ruleset interface: what every ruleset declares and the hooks the engine calls.

A ruleset is a small class registered by id (see :mod:`hexcombat.rulesets`).
It declares its options, figure fields, terrain table, data tables and time
(units and steps), and answers questions about a state: who acts now
(:meth:`Ruleset.acting`), what may be done (:meth:`Ruleset.figure_actions`),
what would it take and what are the odds (:meth:`Ruleset.preview`), and what
happens given the dice (``do_<kind>`` handlers). The engine side of time and
prompts lives here too: :meth:`Ruleset.legal_actions` offers actions only to
figures that act now (only a prompt's answers while one is open), and
:meth:`Ruleset.resolve` keeps hidden choices secret until all are in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from hexcombat.actions import Action, ActionSpec
from hexcombat.board import SightLine
from hexcombat.checks import Rollable
from hexcombat.dice import Dice
from hexcombat.errors import IllegalActionError, Problem
from hexcombat.events import Event
from hexcombat.figures import Figure, Status, is_standing
from hexcombat.geometry import Hex
from hexcombat.movement import Reach
from hexcombat.rulesets.gm_tools import GmTools
from hexcombat.rulesets.manifest import Manifest
from hexcombat.schema import FieldSpec
from hexcombat.secrets import Secret
from hexcombat.state import GameState
from hexcombat.terrain import TerrainTable
from hexcombat.time import Acting, Clock, Declarations, StepDef, Time
from hexcombat.validation import Json

BADGE_COLORS: Mapping[str, str] = {
    "wounded": "#c0392b",
    "down": "#555",
    "prone": "#7d5a2b",
    "stunned": "#8e44ad",
}
"""Badge colours for common status words; any other badge is drawn in ``BADGE_COLOR``."""
BADGE_COLOR = "#34495e"


def humanize(key: str) -> str:
    """A data key in words: 'top_speed_hexes' -> 'Top speed hexes'."""
    words = key.replace("_", " ").replace(".", " ").strip()
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class Preview:
    """What an action would do before anything is rolled: legality, cost, exact odds, breakdown.

    ``rollables`` are what the action rolls, in order (checks, opposed rolls, chains),
    each with exact odds for every outcome and its per-defence variants.
    """

    action: Action
    allowed: bool
    reason: str = ""
    rollables: tuple[Rollable, ...] = ()
    notes: tuple[str, ...] = ()
    cost: int | None = None
    path: tuple[Hex, ...] = ()
    highlights: Mapping[str, tuple[Hex, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form; each rollable in the shape of :meth:`Rollable.to_json`."""
        return {
            "action": self.action.to_json(),
            "allowed": self.allowed,
            "reason": self.reason,
            "rollables": [r.to_json() for r in self.rollables],
            "notes": list(self.notes),
            "cost": self.cost,
            "path": [str(h) for h in self.path],
            "highlights": {k: [str(h) for h in v] for k, v in self.highlights.items()},
        }


@dataclass(frozen=True)
class Outcome:
    """How a fight ended: the winning side (None: nobody is left), the sides that fought,
    and the words for it."""

    winner: str | None
    sides: tuple[str, ...]
    text: str

    def to_json(self) -> dict[str, Json]:
        """Plain JSON form."""
        return {"winner": self.winner, "sides": list(self.sides), "text": self.text}


@dataclass(frozen=True)
class StartingItem:
    """A catalogue item a figure new in the set-up editor carries, with the ``level`` of the
    ``skill`` it is used with ('' when the ruleset rates no skill for it), in the equipment
    ``state`` given ('' leaves the catalogue's own, e.g. ``carried``)."""

    item: str
    skill: str = ""
    level: int = 0
    state: str = ""


Handler = Callable[[GameState, Action, Dice], None]


class Ruleset(GmTools):
    """Base class of rulesets. Subclasses set the class attributes and override the hooks.

    Actions are dispatched to methods named ``do_<kind>`` that change the state
    and emit events; the engine has already checked that the action's kind is
    offered now, that its figure acts now and that its hex, figure and choice
    parameters are among the offered values. The ``next_step`` action (end the
    current step) is common to all rulesets; override :meth:`blocks_next_step`,
    :meth:`end_step`, :meth:`start_step`, :meth:`step_is_empty` and
    :meth:`next_clock` to give steps their effects and order.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    default_die: ClassVar[int | None] = None
    options: ClassVar[tuple[FieldSpec, ...]] = ()
    figure_fields: ClassVar[tuple[FieldSpec, ...]] = ()
    time: ClassVar[Time]
    tables: ClassVar[Mapping[str, Any]] = {}
    """The ruleset's data file as loaded (``load("<pkg>")``, step 4 of adding a ruleset): its
    ``"terrain"`` rows give ``terrain`` and its ``"rules"`` table ``rules`` (see
    :meth:`__init_subclass__`)."""
    terrain: ClassVar[TerrainTable]
    rules: ClassVar[Mapping[str, str]] = {}
    """Rule id -> title: the spec's headings; empty for a ruleset without a rules spec."""
    doc_notes: ClassVar[tuple[str, ...]] = ()
    """Why the defaults are what they are, a sentence each, for the coverage table."""
    stacking_option: ClassVar[str] = ""
    out_statuses: ClassVar[tuple[str, ...]] = ("down",)
    """The statuses that take a figure out of the fight (``common.knock_down`` sets
    ``down``; dead, fled, unconscious...)."""
    starter: ClassVar[bool] = False
    """True for the ruleset a new, empty encounter uses when nobody chose one."""
    carries_equipment: ClassVar[bool] = True
    """True when figures carry items of the data tables in their equipment (the set-up
    editor offers them to add); False when a figure's gear is chosen in its figure fields
    (a Weapon and an Armour choice) and the tables only give those choices' numbers."""
    manifest: ClassVar[Manifest | None] = None
    """Where its spec, code, data, tests and demo live (:mod:`.manifest`); every ruleset has one."""
    starting_gear: ClassVar[tuple[StartingItem, ...]] = ()
    """What a figure new in the set-up editor carries, so that a fight built from scratch can
    be fought to its end (see :func:`hexcombat.editing.new_figure`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that declares ``tables`` gets its ``terrain`` and ``rules`` from them,
        unless it declares those itself."""
        super().__init_subclass__(**kwargs)
        declared = vars(cls)
        if "tables" in declared:
            if "terrain" not in declared:
                cls.terrain = TerrainTable.from_json(cls.tables["terrain"])
            if "rules" not in declared and "rules" in cls.tables:
                cls.rules = dict(cls.tables["rules"])

    # ---- set-up -------------------------------------------------------
    def default_options(self) -> dict[str, Json]:
        """Every option with its default."""
        return {o.name: o.default for o in self.options}

    def option_problems(self, values: Mapping[str, Json]) -> list[Problem]:
        """Unknown options and values that are not allowed."""
        specs = {o.name: o for o in self.options}
        problems = []
        for name, value in values.items():
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(specs) or "none"
                problems.append(Problem(name, f"is not an option of {self.id} (options: {known})"))
            elif (why := spec.check(value)) is not None:
                problems.append(Problem(name, why))
        return problems

    def default_data(self) -> dict[str, Json]:
        """The ruleset's data tables (weapons, spells, ...); encounters may override entries."""
        return {}

    def stacking(self, options: Mapping[str, Json]) -> int:
        """How many figures may share a hex."""
        value = options.get(self.stacking_option, 1) if self.stacking_option else 1
        return value if isinstance(value, int) else 1

    def new_figure(
        self, figure_id: str, name: str, side: str, position: Hex, facing: int = 0
    ) -> Figure:
        """A figure with every field at its default, ready for the editor."""
        stats = {f.name: f.default for f in self.figure_fields}
        return Figure(figure_id, name, side, position, facing, stats=stats)

    def figure_problems(self, figure: Figure, data: Mapping[str, Json]) -> list[Problem]:
        """What is wrong with a figure's numbers for this ruleset (paths relative to the figure)."""
        problems = []
        specs = {f.name: f for f in self.figure_fields}
        for spec in self.figure_fields:
            if spec.name not in figure.stats:
                problems.append(Problem(f"stats.{spec.name}", "is required"))
            elif (why := spec.check(figure.stats[spec.name])) is not None:
                problems.append(Problem(f"stats.{spec.name}", why))
        for name in figure.stats:
            if name not in specs:
                problems.append(Problem(f"stats.{name}", f"is not a field of {self.id}"))
        return problems

    def roster_memory(self, figure: Figure) -> dict[str, Json]:
        """The figure's memory its roster character keeps after a fight (override): the
        fight's own bookkeeping is not (default: nothing)."""
        return {}

    def roster_statuses(self, figure: Figure, gather_dropped: bool) -> dict[str, Status]:
        """The figure's statuses its roster character keeps after a fight (override to leave
        out those that last only part of the fight, and with ``roster.gather_dropped`` those
        of gear picked up; default: every one)."""
        return dict(figure.statuses)

    def start(self, state: GameState) -> None:
        """Prepare a fresh state before the first action (memory, pools, the first step)."""
        self.start_step(state)

    # ---- time --------------------------------------------------------------
    def acting(self, state: GameState) -> Acting:
        """Who acts now (override). Default from the step's kind: everyone living at once,
        with hidden choices in a ``declare`` step; nobody but the table in an ``upkeep`` step."""
        kind = state.step.kind
        if kind == "upkeep":
            return Acting("table")
        living = tuple(f.id for f in state.living())
        return Acting("all", living, hidden=kind == "declare", waiting=living)

    def who_acts(self, state: GameState) -> Acting:
        """:meth:`acting`, with ``waiting`` taken from the choices made when the step is hidden."""
        acting = self.acting(state)
        if not acting.hidden:
            return acting
        return replace(acting, waiting=tuple(state.declarations.waiting_for(acting.figures)))

    def step_def(self, state: GameState, step_id: str) -> StepDef:
        """The step ``step_id`` as this encounter shows it (a ruleset may word its help by
        the options chosen)."""
        return self.time.step(step_id)

    def step_is_empty(self, state: GameState, step: StepDef) -> bool:
        """True when ``step`` would have nothing to do in this state (the clock skips it)."""
        return False

    def next_clock(self, state: GameState) -> Clock:
        """The clock after the current step (override for units that nest in other ways).

        Default: the next declared step that is not empty, rolling the innermost unit over.
        """
        candidates = self.time.following(state.clock)
        for clock in candidates:
            if not self.step_is_empty(state, self.time.step(clock.step)):
                return clock
        return candidates[0]

    # ---- questions about a state ---------------------------------------
    def is_out(self, state: GameState, figure: Figure) -> bool:
        """True when the figure no longer takes part: it has one of :attr:`out_statuses`."""
        return any(figure.has_status(s) for s in self.out_statuses)

    def sides_in_fight(self, state: GameState) -> list[str]:
        """The sides that still have a figure in the fight (not :meth:`is_out`), in setup order."""
        return list(dict.fromkeys(f.side for f in state.living()))

    def fight_outcome(self, state: GameState) -> Outcome | None:
        """None while the fight goes on; the :class:`Outcome` once it has ended (override).

        Default: a fight between two or more sides ends when at most one side has a figure
        left in it (:meth:`sides_in_fight`, from :meth:`is_out`); that side wins, and
        when none is left nobody does. Once it has ended no figure is offered an action
        (the table may still end the step, so a ruleset's upkeep such as a death save runs,
        and the GM's tools stay); undo goes back into the fight.
        """
        sides = list(dict.fromkeys(f.side for f in state.figures.values()))
        if len(sides) < 2:
            return None
        left = self.sides_in_fight(state)
        if len(left) > 1:
            return None
        winner = left[0] if left else None
        text = f"Victory for {winner}" if winner else "Nobody is left standing: no side wins"
        return Outcome(winner, tuple(sides), text)

    def tally(self, events: list[Event]) -> dict[str, int]:
        """Summary numbers of one logged action's events (override): ``hits`` and ``damage``.

        Default: an event whose data says ``"hit": true`` is a hit; when no event of the
        action says so, an event with ``"damage"`` above 0 is one. Damage adds up every
        event's ``"damage"``.
        """
        flagged = sum(1 for e in events if e.data.get("hit") is True)
        damage = [d for e in events if isinstance(d := e.data.get("damage"), int) and d > 0]
        return {"hits": flagged or len(damage), "damage": sum(damage)}

    def range_band(self, state: GameState, figure: Figure | None, distance: int) -> str:
        """The range band a distance falls in for ``figure`` (or anyone), e.g. "Medium
        range (-10)"; '' when the ruleset has no bands (the default)."""
        return ""

    def figure_actions(self, state: GameState, figure: Figure) -> list[ActionSpec]:
        """The actions ``figure`` may take now (override)."""
        return []

    def figure_offers(self, state: GameState, figure: Figure, kind: str) -> list[ActionSpec]:
        """The actions of ``kind`` among :meth:`figure_actions` (override to make only those,
        more cheaply: a replay checks each logged action against them; they must be equal)."""
        return [s for s in self.figure_actions(state, figure) if s.kind == kind]

    def table_actions(self, state: GameState) -> list[ActionSpec]:
        """Actions of the table rather than of one figure (besides ``next_step``)."""
        return []

    def blocks_next_step(self, state: GameState) -> str:
        """Why the current step cannot end yet ('' when it can). Default: hidden choices
        still to make."""
        acting = self.who_acts(state)
        waiting = acting.waiting if acting.hidden else ()
        if not waiting:
            return ""
        names = ", ".join(state.figure(f).name for f in waiting)
        return f"Waiting for hidden choices from {names}"

    def step_rollables(self, state: GameState) -> tuple[Rollable, ...]:
        """What finishing the current step rolls, in roll order, for the ``next_step``
        preview (exact odds, breakdown, dice to type): override when :meth:`end_step` rolls
        dice, building the same rollables it rolls (default: nothing)."""
        return ()

    def next_step_blocked(self, state: GameState) -> str:
        """Why the step cannot end now: an open prompt, or :meth:`blocks_next_step`."""
        prompt = state.prompt
        if prompt is not None:
            return f"Waiting for {state.figure(prompt.figure).name} to decide: {prompt.question}"
        return self.blocks_next_step(state)

    def legal_actions(
        self, state: GameState, figure_id: str | None = None, kind: str | None = None
    ) -> list[ActionSpec]:
        """The actions available now: a figure's own, or the table's when ``figure_id`` is None
        (with ``kind``, only those of that kind; a figure's made by :meth:`figure_offers`).

        While a prompt is open, only its answers, and only to its figure; otherwise a
        figure is offered actions only when it acts now (:meth:`who_acts`).
        """
        prompt = state.prompt
        if prompt is not None:
            answers = list(prompt.answers) if figure_id == prompt.figure else []
            return [a for a in answers if kind in (None, a.kind)]
        over = self.fight_outcome(state) is not None
        if figure_id is not None:
            figure = state.figure(figure_id)
            if over or self.is_out(state, figure) or not self.who_acts(state).may_act(figure_id):
                return []
            if kind is not None:
                return self.figure_offers(state, figure, kind)
            return self.figure_actions(state, figure)
        # once the fight is over the table may still end the step (the ruleset's upkeep, a
        # death save, runs); figures are offered nothing; a tied action waits for its time
        specs = [s for s in self.table_actions(state) if over or s.tied_to != "fight_over"]
        if not self.blocks_next_step(state):
            step = state.step
            specs.append(
                ActionSpec("next_step", f"Finish: {step.label}", None, (), step.help, step.rule)
            )
        return [s for s in specs if kind in (None, s.kind)]

    def sight(self, state: GameState, a: Hex, b: Hex) -> SightLine:
        """Line of sight from ``a`` to ``b`` under this ruleset's terrain rules and options."""
        policy = state.options.get("core.los_tie_policy", "both_must_block")
        return state.board.line_of_sight(a, b, tie_policy=str(policy))

    def reach(self, state: GameState, figure: Figure) -> Reach | None:
        """Where ``figure`` could move in this step, for the board's highlight (None: nowhere)."""
        return None

    def preview(self, state: GameState, action: Action) -> Preview:
        """What ``action`` would need and its exact odds, without changing anything: the
        ruleset's :meth:`preview_or_raise`, a refusal on the way a preview not allowed."""
        try:
            return self.preview_or_raise(state, action)
        except IllegalActionError as exc:
            return Preview(action, False, str(exc))

    def preview_or_raise(self, state: GameState, action: Action) -> Preview:
        """The preview of ``action``; IllegalActionError says why it cannot be done (override
        this, or :meth:`preview` itself where nothing on the way refuses)."""
        return Preview(action, True)

    def badges(self, state: GameState, figure: Figure) -> list[str]:
        """Short words for the token: its statuses, and 'wounded' below a pool's maximum."""
        words = list(figure.statuses)
        if any(p.current < p.maximum for p in figure.pools.values()) and "wounded" not in words:
            words.append("wounded")
        return words

    def autopilot_hints(self, state: GameState, figure: Figure) -> Mapping[str, float]:
        """Optional hints for the autopilot (override): ``worth`` (what the figure is worth,
        default 1), ``health`` (0-1, default its share of its pools) and ``unready`` (0-1:
        how far it is from striking at its best, default 1 when it carries a weapon but
        holds none ready, else 0), ``pace`` (hexes it may cover in its next move as it
        moves now, default 1: a gap to a foe counts in such moves), ``facing`` (1 when
        the figure strikes only foes in front of it, so that turning to a foe may let it
        strike, the default; 0 where facing decides no blow) and ``dearest`` (the most
        movement points a hex's terrain may cost for the figure ever to enter it: the way
        to a foe goes round dearer hexes; default no limit). None required."""
        return {}

    def figure_view(self, state: GameState, figure: Figure) -> dict[str, Json]:
        """Numbers a figure panel shows beyond the stored ones (speed now, actions left...)."""
        return {}

    # ---- secrets (hexcombat.secrets) -----------------------------------------------
    def choice_secret(self, state: GameState, action: Action) -> str:
        """Until when a figure's ``action``, made now, is its side's secret (one of
        :data:`~hexcombat.secrets.UNTIL`; '' when it is no secret). Default: a hidden step's
        choice, until the reveal."""
        if action.figure is None or state.prompt is not None:
            return ""
        return "reveal" if self.who_acts(state).hidden else ""

    def secret_kept(self, state: GameState, secret: Secret) -> bool:
        """True while ``secret``'s time has not come in ``state`` (override for ``phase``,
        whose moment is the ruleset's own; by default the end of the step)."""
        if secret.until == "never":
            return True
        if secret.until == "status":
            figure = state.figures.get(secret.figure)
            return figure is not None and figure.has_status(secret.detail)
        if secret.until == "reveal" and state.declarations.revealed:
            return False
        return secret.made_now(state.clock)

    def stand_in(self, state: GameState, action: Action) -> Action | None:
        """What a device that may not see ``action`` (a choice still secret) is sent in its
        place until its time (:mod:`hexcombat.table.wire`): the ruleset's plainest guess, as
        :meth:`conceal` guesses it; None (the default) keeps the entry back instead."""
        return None

    def conceal(self, state: GameState, figure: Figure) -> None:
        """Take out of ``state`` (a copy) what ``figure``'s side keeps secret from the others
        now, leaving in its place only what they may know (override; the engine itself takes
        out unrevealed hidden choices)."""

    # ---- words and looks the page shows (the page itself names no ruleset) ------------
    def action_words(self, spec: ActionSpec) -> dict[str, str]:
        """Page words for an offered action: ``cost_unit`` after its cost (e.g. "MP") and
        ``confirm``, the button that carries it out once its hex is chosen ("Move here").
        Default: none (the cost stands alone and the button shows the action's label)."""
        return {}

    def ending_note(self, options: Mapping[str, Json]) -> str:
        """'' when a fight under ``options`` can end (one side out of it); else why it cannot,
        naming the options that let it end, for the set-up to say before anyone plays
        (override)."""
        return ""

    def unarmed(self, figure: Figure) -> bool:
        """True when ``figure`` carries nothing it could strike a foe with (a fight in which
        nobody can strike cannot end; the set-up says so). Default: every figure can strike."""
        return False

    def idle_text(self, state: GameState, figure: Figure) -> str:
        """Why a figure has nothing offered now, in one sentence for its panel ('' lets the
        page say its generic words: nothing to do in this step)."""
        return ""

    def badge_color(self, badge: str) -> str:
        """The colour of a token badge (see :meth:`badges`)."""
        return BADGE_COLORS.get(badge, BADGE_COLOR)

    def view_label(self, key: str) -> str:
        """What the page calls a key of :meth:`figure_view`, a status, pool or stat (default:
        the label of the figure field of that name, else the key in words)."""
        for spec in self.figure_fields:
            if spec.name == key:
                return spec.label
        return humanize(key)

    def invariant_problems(self, state: GameState) -> list[str]:
        """Broken invariants in a state (used by property tests): positions, stacking, pools."""
        problems = []
        limit = self.stacking(state.options)
        counts: dict[Hex, int] = {}
        for f in state.figures.values():
            for h in f.hexes():
                if not state.board.contains(h):
                    problems.append(f"{f.id} is off the board at {h}")
                elif state.board.terrain_at(h).impassable:
                    problems.append(f"{f.id} stands in impassable terrain at {h}")
                if is_standing(f):
                    counts[h] = counts.get(h, 0) + 1
            mount = state.figures.get(f.mounted_on)
            if f.mounted_on and (mount is None or mount.hexes()[0] != f.position):
                problems.append(f"{f.id} rides {f.mounted_on!r} but is not on it")
            for name, pool in f.pools.items():
                if pool.current > pool.maximum:
                    problems.append(
                        f"{f.id}.{name} is {pool.current}, above its maximum {pool.maximum}"
                    )
        problems += [
            f"{n} figures share {h} (limit {limit})" for h, n in counts.items() if n > limit
        ]
        return problems

    # ---- what happens --------------------------------------------------
    def resolve(self, state: GameState, action: Action, dice: Dice) -> None:
        """Carry out an offered action on ``state`` (a copy), emitting events; raise to refuse it.

        The answer to an open prompt closes it once its handler has run (which
        reads the prompt as ``state.prompt``). In a hidden step a figure's
        action is kept secret; the last choice in reveals them all (:meth:`reveal`).
        """
        prompt = state.prompt
        if prompt is not None:
            self.dispatch(state, action, dice)
            state.prompts.remove(prompt)
            return
        if action.figure is not None and self.who_acts(state).hidden:
            figure = state.figure(action.figure)
            self.check_choice(state, action)
            state.declarations.declare(action)
            state.emit(
                Event(
                    "hidden",
                    f"{figure.name} has declared (hidden until everyone has)",
                    figure.id,
                    rule=state.step.rule,
                )
            )
            if not self.who_acts(state).waiting:
                self._reveal(state, dice)
            return
        self.dispatch(state, action, dice)

    def refusal(self, state: GameState, action: Action) -> str:
        """Why ``action``, whose parameters the offered spec refuses, is not allowed, in the
        ruleset's own words ('' to keep the generic text; override). The generic check
        still refuses it: this only explains."""
        return ""

    def unoffered(self, state: GameState, action: Action) -> str:
        """Why ``action``, of a kind not offered now, is not allowed, in the ruleset's own
        words ('' to keep the generic text, which names what is offered; override)."""
        return ""

    def check_choice(self, state: GameState, action: Action) -> None:
        """Refuse a hidden choice when it is made rather than at the reveal (raise
        IllegalActionError; override). Offered values are checked already."""

    def dispatch(self, state: GameState, action: Action, dice: Dice) -> None:
        """Run the handler ``do_<kind>`` of an action."""
        handler: Any = getattr(self, "do_" + action.kind, None)
        if handler is None:
            raise IllegalActionError(f"{self.name} has no action {action.kind!r}")
        handler(state, action, dice)

    def reveal(self, state: GameState, choices: list[Action], dice: Dice) -> None:
        """Resolve a hidden step's choices together (override). They come in the order of
        :meth:`acting`'s figures, never in the order they were entered; default: each handler
        in turn."""
        for action in choices:
            self.dispatch(state, action, dice)

    def _reveal(self, state: GameState, dice: Dice) -> None:
        state.declarations.revealed = True
        self.reveal(state, state.declarations.in_order(self.acting(state).figures), dice)

    def do_next_step(self, state: GameState, action: Action, dice: Dice) -> None:
        """End the current step (revealing any hidden choices made) and begin the next one."""
        reason = self.next_step_blocked(state)
        if reason:
            raise IllegalActionError(reason)
        if state.declarations.choices and not state.declarations.revealed:
            self._reveal(state, dice)
        self.end_step(state, dice)
        before = state.clock.counters[:1]
        state.clock = self.next_clock(state)
        if state.clock.counters[:1] != before:
            self._tick_gm_statuses(state)
        state.declarations = Declarations()
        self.start_step(state)
        state.emit(Event("clock", self.time.label(state.clock)))

    def end_step(self, state: GameState, dice: Dice) -> None:
        """Effects at the end of the current step (override)."""

    def start_step(self, state: GameState) -> None:
        """Effects at the start of the current step (override)."""
