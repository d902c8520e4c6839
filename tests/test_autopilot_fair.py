"""The autopilot is fair by construction: it decides from the state as its side may know it
(hexcombat.secrets.visible_state, the page's own model), so in every ruleset, at sampled
positions of seeded random games, its decision is the same whatever another side's secret
(a hidden choice made otherwise or in another order, a speed or plan in memory, a secret
roll), whatever the dice seed and whatever the undo history holds past the cursor."""

from __future__ import annotations

import pytest
from manifests import demo, every_id
from manifests import test_only_registered as registered
from playouts import LONG_MODE
from secret_games import Twin, at, random_game, swapped, twins

from hexcombat import Encounter
from hexcombat.autopilot.pilot import Autopilot
from hexcombat.autopilot.policy import actors

SEEDS = (1, 4, 7, 9) if LONG_MODE else (1, 4)
"""Seeds of two-against-two games (with fig-percentile's seed 1 and combat-speed-phase's
seed 4, a look-ahead that played out the foes' real plan or speed decided otherwise)."""
TWINS = 6 if LONG_MODE else 3
"""Twins per game, each another secret of one entry."""
POSITIONS = 4 if LONG_MODE else 2
"""Positions looked at per twin, while its secret is kept."""
SPOTS = 8 if LONG_MODE else 2
"""Positions of a game at which the dice seed and the undone future are changed."""


def decisions(enc: Encounter, besides: str) -> dict[str, str]:
    """The autopilot's decision (action and reason) for every side but ``besides`` that has
    a figure offered an action."""
    sides = dict.fromkeys(f.side for f in enc.state.figures.values() if f.side != besides)
    found = {}
    for side in sides:
        if actors(enc, side):
            decision = Autopilot("aggressive").decide(enc, side, must_act=True)
            found[side] = repr(decision and (decision.action, decision.reason))
    return found


def kept_positions(pair: Twin) -> list[int]:
    """Cursors after the secret's entry where it is still kept in both games."""
    stop = min(len(pair.game.log), pair.twin.cursor)
    found = []
    for cursor in range(pair.index + 1, stop + 1):
        game, twin = at(pair.game, cursor), at(pair.twin, cursor)
        kept = [g.ruleset.secret_kept(g.state, pair.secret) for g in (game, twin)]
        if not all(kept) or len(found) == POSITIONS:
            break
        found.append(cursor)
    return found


@pytest.mark.parametrize("ruleset_id", every_id())
def test_another_sides_secrets_never_change_the_decision(ruleset_id: str) -> None:
    with registered():
        template = demo(ruleset_id)
        unfair = []
        pairs = compared = 0
        for seed in SEEDS:
            game = random_game(template, seed, close=True)
            mine: dict[tuple[int, str], dict[str, str]] = {}  # the game's own, asked once
            for pair in [*twins(game, seed, most=TWINS), *swapped(game, most=1)]:
                pairs += 1
                for cursor in kept_positions(pair):
                    compared += 1
                    side = pair.secret.side
                    if (cursor, side) not in mine:
                        mine[cursor, side] = decisions(at(game, cursor), side)
                    theirs = decisions(at(pair.twin, cursor), side)
                    if mine[cursor, side] != theirs:
                        what = pair.game.log[pair.index].action.kind
                        unfair.append(f"seed {seed}: {what} (entry {pair.index}) at {cursor}")
        if not pairs:
            pytest.skip(f"{ruleset_id} keeps no secret in these games: nothing to hide from")
        assert compared, f"{pairs} twins, but no position where their secret was still kept"
        assert not unfair, "\n".join(unfair)


@pytest.mark.parametrize("ruleset_id", every_id())
def test_neither_the_dice_seed_nor_the_undone_future_changes_the_decision(
    ruleset_id: str,
) -> None:
    with registered():
        game = random_game(demo(ruleset_id), 3, close=True)
        changed = []
        for cursor in range(5, game.cursor, max(1, game.cursor // SPOTS)):
            here = at(game, cursor)  # the undo history holds the rest of the game
            bare = Encounter(game.setup, game.log[:cursor])  # nothing past the cursor
            reseeded = Encounter(game.setup, game.log[:cursor]).with_setup(seed=game.setup.seed + 7)
            seen = [decisions(e, "") for e in (here, bare, reseeded)]
            if not seen[0] == seen[1] == seen[2]:
                changed.append(f"at {cursor}: {seen}")
        assert not changed, "\n".join(changed)
