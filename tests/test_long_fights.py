"""Long fights: reading the log copies nothing, and the fight summary folds at most one
checkpoint's worth of entries per view, whatever the log's length."""

from __future__ import annotations

import random

import pytest
from factories import skirmish_duel
from playouts import random_action

from hexcombat import Encounter, HexcombatError
from hexcombat.encounter import CHECKPOINT_EVERY
from hexcombat.summary import Totals, fight_summary, totals

pytestmark = pytest.mark.pyodide


def play(enc: Encounter, actions: int, seed: int) -> Encounter:
    """``actions`` random legal actions more (refusals skipped)."""
    rng = random.Random(seed)
    goal = len(enc.log) + actions
    while len(enc.log) < goal and (action := random_action(enc, rng.randrange)) is not None:
        try:
            enc.perform(action)
        except HexcombatError:
            continue
    return enc


def folded(enc: Encounter) -> Totals:
    """The totals folded over every entry up to the cursor, with nothing kept."""
    running = Totals()
    for i in range(enc.cursor):
        running.add(enc, i)
    return running


def test_the_log_is_read_without_a_copy_and_never_changes_under_its_reader() -> None:
    enc = play(skirmish_duel(), 30, seed=1)
    assert enc.log is enc.log and len(enc.log) == 30
    held = enc.log
    enc.undo()
    enc.undo()
    play(enc, 1, seed=2)  # a new branch replaces the two undone entries
    assert len(held) == 30 and held[-1] is not enc.log[-1]
    assert enc.log[:28] == held[:28]


def test_the_kept_summary_equals_a_fold_after_undo_jumps_and_a_new_branch() -> None:
    enc = play(skirmish_duel(), 4 * CHECKPOINT_EVERY + 7, seed=3)
    rng = random.Random(5)
    for _ in range(12):
        target = rng.randrange(len(enc.log) + 1)
        while enc.cursor > target:
            enc.undo()
        while enc.cursor < target:
            enc.redo()
        if rng.random() < 0.4:  # a new branch: the kept totals after the cursor are stale
            play(enc, rng.randrange(1, 2 * CHECKPOINT_EVERY), seed=rng.randrange(99))
        assert totals(enc) == folded(enc)
        assert fight_summary(enc)["dice"] == folded(enc).dice


def test_a_summary_after_an_undo_folds_at_most_one_checkpoint_of_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    enc = play(skirmish_duel(), 6 * CHECKPOINT_EVERY, seed=4)
    fight_summary(enc)  # the first view of a fight folds it once
    calls = []
    tally = enc.ruleset.tally
    monkeypatch.setattr(enc.ruleset, "tally", lambda events: calls.append(1) or tally(events))
    for _ in range(CHECKPOINT_EVERY + 3):
        enc.undo()
        calls.clear()
        fight_summary(enc)
        assert len(calls) < CHECKPOINT_EVERY
