"""Secrets have one model (hexcombat.secrets): in every ruleset, at every state of seeded
random games, what the table may read (the page's views, every event, the Markdown and SVG
exports, the share viewer's log) is the same whether a secret was one thing or another,
until its time."""

from __future__ import annotations

import json

import pytest
from manifests import demo, every_id
from manifests import test_only_registered as registered
from secret_games import Twin, at, random_game, secrets_of, twins

from hexcombat import Action, Encounter
from hexcombat.secrets import GM
from hexcombat.share import board_svg, log_markdown
from hexcombat.view import actions_view, encounter_view, reach_view

SEEDS = (1, 2, 3)


def readings(enc: Encounter, owner_side: str) -> dict[str, str]:
    """Everything the table may read at ``enc``'s cursor, beyond what the secret's own side
    is offered (its own forms may show its own secret)."""
    others = [f.id for f in enc.state.figures.values() if f.side != owner_side]
    view = encounter_view(enc)
    for future in ("log_length", "can_redo"):  # the twins' undone futures differ
        view.pop(future)
    return {
        "view": json.dumps(view, sort_keys=True),
        "events": json.dumps([e.to_json() for e in enc.events], sort_keys=True),
        "markdown": log_markdown(enc),
        "svg": board_svg(enc),
        "offers": json.dumps({f: actions_view(enc, f) for f in others}, sort_keys=True),
        "reach": json.dumps({f: reach_view(enc, f) for f in others}, sort_keys=True),
    }


def secret_kept(enc: Encounter, pair: Twin) -> bool:
    return enc.ruleset.secret_kept(enc.state, pair.secret)


def first_leak(pair: Twin) -> str:
    """Where the twin's readings first differ while the secret is kept ('' when never)."""
    stop = min(len(pair.game.log), pair.twin.cursor)
    for cursor in range(pair.index + 1, stop + 1):
        game, twin = at(pair.game, cursor), at(pair.twin, cursor)
        if not (secret_kept(game, pair) and secret_kept(twin, pair)):
            return ""
        mine, theirs = readings(game, pair.secret.side), readings(twin, pair.secret.side)
        for key, text in mine.items():
            if text != theirs[key]:
                return f"after entry {cursor - 1} ({game.log[cursor - 1].action.kind}), {key}"
    return ""


@pytest.mark.parametrize("ruleset_id", every_id())
def test_no_secret_is_read_before_its_time(ruleset_id: str) -> None:
    with registered():
        template = demo(ruleset_id)
        leaks, looked, made = [], 0, 0
        for seed in SEEDS:
            game = random_game(template, seed)
            made += sum(bool(secrets_of(game, i)) for i in range(game.cursor))
            for pair in twins(game, seed):
                looked += 1
                where = first_leak(pair)
                if where:
                    what = pair.game.log[pair.index].action.kind
                    leaks.append(f"seed {seed}: {what} (entry {pair.index}) shows {where}")
        assert not leaks, "\n".join(leaks)
        assert looked or not made, f"{made} secrets made, none with a twin to compare"


def test_scp_20_a_knockout_time_reads_the_same_with_other_faces_until_it_wakes() -> None:
    from strike_chance_pulse_fixtures import duel, initiative, roll  # tests/rules, on the path

    game = duel()
    initiative(game, [10, 9])
    roll(game, [7, 1], "melee", "ann", weapon="Broadsword", special="knockout", target="bo")
    pairs = list(twins(game, 1))
    assert [p.secret.until for p in pairs] == ["status"]
    assert first_leak(pairs[0]) == ""
    assert pairs[0].twin.log[pairs[0].index].faces != game.log[pairs[0].index].faces


def test_a_secret_reaches_the_table_with_the_entry_that_brings_its_time() -> None:
    """The app's note of a hidden choice: not in its own entry, told with the reveal (marked),
    gone again once that entry is undone; the GM reads it in its own entry, marked."""
    from test_autopilot import fp_four

    enc = fp_four()
    enc.perform(Action("declare", "b1", {"mode": "walk"}), note="The app plays B: walk")
    assert [e.kind for e in enc.entry_events(0)] == ["hidden"]
    assert [e.kind for e in enc.entry_events(0, GM)] == ["note", "hidden"]
    assert enc.entry_events(0, GM)[0].to_json()["secret"]["until"] == "reveal"
    for fid in ("a1", "a2", "b2"):
        enc.perform(Action("declare", fid, {"mode": "walk"}))
    told = [e for e in enc.entry_events(3) if e.kind == "note"]
    assert [(e.text, e.data["revealed"], e.secret) for e in told] == [
        ("The app plays B: walk", True, None)
    ]
    enc.undo()
    assert not any(e.kind == "note" for e in enc.events)
    assert "walk" not in log_markdown(enc)
