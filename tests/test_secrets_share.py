"""Share links carry no secret before its time: in every ruleset, over seeded random games
and their twins (one secret made otherwise), a link made at any entry while the secret is
kept is the same in both games; it carries the log up to the first entry that holds a
secret still kept, says how many actions it keeps back, and opens to what the table read."""

from __future__ import annotations

import pytest
from manifests import demo, every_id
from manifests import test_only_registered as registered
from playouts import LONG_MODE
from secret_games import Twin, at, random_game, twin_leaks

from hexcombat import Action
from hexcombat.secrets import told_entries
from hexcombat.share import encounter_from_fragment, kept_back, log_markdown, share_fragment

SEEDS = (1, 2, 3, 4, 5, 6) if LONG_MODE else (1, 2)
MOVES = 120 if LONG_MODE else 60
TWINS = 12 if LONG_MODE else 3


def first_leak(pair: Twin) -> str:
    """Where a link of the game and one of its twin first differ while the secret is kept."""
    stop = min(len(pair.game.log), pair.twin.cursor)
    for cursor in range(pair.index + 1, stop + 1):
        game, twin = at(pair.game, cursor), at(pair.twin, cursor)
        kept = game.ruleset.secret_kept
        if not (kept(game.state, pair.secret) and kept(twin.state, pair.secret)):
            return ""
        if share_fragment(game) != share_fragment(twin):
            return f"after entry {cursor - 1} ({game.log[cursor - 1].action.kind})"
    return ""


@pytest.mark.parametrize("ruleset_id", every_id())
def test_a_share_link_carries_no_secret_before_its_time(ruleset_id: str) -> None:
    with registered():
        leaks = twin_leaks(demo(ruleset_id), SEEDS, MOVES, TWINS, first_leak)
    assert not leaks, "\n".join(leaks)


@pytest.mark.parametrize("ruleset_id", every_id())
def test_a_share_link_opens_to_the_log_everyone_may_read_and_counts_the_rest(
    ruleset_id: str,
) -> None:
    with registered():
        game = random_game(demo(ruleset_id), 1, MOVES)
        for cursor in range(0, game.cursor + 1, 7):
            here = at(game, cursor)
            fragment = share_fragment(here)
            opened = encounter_from_fragment(fragment)
            assert opened is not None
            told = told_entries(here)
            assert opened.cursor == told
            assert [e.to_json() for e in opened.log[:told]] == [
                e.to_json() for e in here.log[:told]
            ]
            assert kept_back(fragment) == cursor - told
            if told == cursor:  # nothing kept back: the viewer reads what the table read
                assert log_markdown(opened) == log_markdown(here)


def test_scp_20_a_link_made_while_a_figure_is_knocked_out_keeps_the_knockout_back() -> None:
    from strike_chance_pulse_fixtures import duel, initiative, roll  # tests/rules, on the path

    game = duel()
    initiative(game, [10, 9])
    roll(game, [7, 1], "melee", "ann", weapon="Broadsword", special="knockout", target="bo")
    fragment = share_fragment(game)
    opened = encounter_from_fragment(fragment)
    assert opened is not None and opened.cursor == game.cursor - 1
    assert kept_back(fragment) == 1


def test_g19_a_link_made_while_moves_are_planned_keeps_them_back() -> None:
    from test_autopilot import fp_four

    game = fp_four()
    for fid in ("a1", "a2", "b1", "b2"):
        game.perform(Action("declare", fid, {"mode": "walk"}))
    game.perform(Action("next_step"))
    spec = next(s for s in game.legal_actions("b1") if s.kind == "plan_move")
    game.perform(Action("plan_move", "b1", {"to": spec.params[0].choices[-1].value}))
    fragment = share_fragment(game)
    opened = encounter_from_fragment(fragment)
    assert kept_back(fragment) == 1 and opened is not None
    assert [e.action.kind for e in opened.log][-1] == "next_step"
    game.perform(Action("next_step"))
    assert kept_back(share_fragment(game)) == 0


def test_g19_undone_entries_travel_only_as_far_as_no_secret_is_kept() -> None:
    """A link made with entries undone after the cursor carries them for the viewer only up
    to the last one after which no secret is kept (the demo's last step plans moves)."""
    with registered():
        full = demo("fig-percentile")
    end = at(full, len(full.log))
    while end.can_redo:
        end.redo()
    quiet = told_entries(end)
    assert 0 < quiet < len(full.log)
    here = next(c for c in range(1, quiet) if told_entries(at(end, c)) == c)
    opened = encounter_from_fragment(share_fragment(at(end, here)))
    assert opened is not None and opened.cursor == here
    assert [e.to_json() for e in opened.log] == [e.to_json() for e in full.log[:quiet]]
