"""Figures covering several hexes, riders on mounts, and several figures in one hex."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import LONG_MODE

from hexcombat import Action, Encounter, Hex, dumps, loads
from hexcombat.document import to_document
from hexcombat.errors import IllegalActionError, InvalidDocumentError
from hexcombat.figures import Figure, cover, figure_distance, nearest_hexes
from hexcombat.geometry import DIRECTIONS, neighbor
from hexcombat.layout import from_offset
from hexcombat.movement import Pose, Room, Step, body_steps, search, validate_path
from hexcombat.render import render_svg
from hexcombat.rulesets.fig_percentile.situation import sight_between
from hexcombat.view import encounter_view, tokens

pytestmark = pytest.mark.pyodide

BEHIND = (Hex(0, 1),)
"""A two-hex body: the anchor (head) and one hex behind it."""


def stable(options: dict[str, int] | None = None) -> Encounter:
    """A 7x6 skirmish board with a wall at 3,0, a two-hex horse and a foot figure."""
    enc = Encounter.new("skirmish", 7, 6, name="Stable", options=options or {})
    enc = enc.painted([Hex(3, 0)], "wall")
    rs = enc.ruleset
    horse = replace(rs.new_figure("horse", "Grey Horse", "Blue", Hex(1, 2), 0), footprint=BEHIND)
    foot = rs.new_figure("foot", "Red Foot", "Red", Hex(5, 2), 5)
    return enc.with_figure(horse).with_figure(foot)


def test_a_footprint_turns_with_the_facing() -> None:
    """The hex behind the anchor is behind it at every facing: the body turns as one."""
    for facing in range(6):
        anchor, tail = cover(Hex(3, 3), facing, BEHIND)
        assert anchor == Hex(3, 3)
        assert tail == neighbor(anchor, facing + 3)


def test_a_two_hex_figure_moves_with_its_body_behind_it() -> None:
    enc = stable()
    assert enc.state.figure("horse").hexes() == (Hex(1, 2), Hex(1, 3))
    enc.perform(Action("move", "horse", {"to": "3,2"}))
    horse = enc.state.figure("horse")
    assert horse.position == Hex(3, 2)
    assert horse.hexes()[1] == neighbor(horse.position, horse.facing + 3)
    assert all(enc.state.board.contains(h) for h in horse.hexes())
    assert enc.state.ruleset.invariant_problems(enc.state) == []


def test_a_turn_that_would_put_the_body_off_the_board_is_refused() -> None:
    """On the top row facing north the body lies south; facing south it would lie off the board."""
    enc = Encounter.new("skirmish", 5, 5, name="Edge")
    top = from_offset(2, 0)
    rs = enc.ruleset
    horse = replace(rs.new_figure("horse", "Grey Horse", "Blue", top, 0), footprint=BEHIND)
    enc = enc.with_figure(horse)
    (face,) = [a for a in enc.legal_actions("horse") if a.kind == "face"]
    allowed = {c.value for c in face.params[0].choices}
    assert 0 in allowed and 3 not in allowed
    with pytest.raises(
        IllegalActionError,
        match=r"Facing: must be one of N, NE, NW, got 3",
    ):
        enc.perform(Action("face", "horse", {"facing": 3}))
    assert enc.state.figure("horse").facing == 0


def test_body_steps_refuse_a_turn_whose_sweep_hits_a_wall() -> None:
    """Turning two hexsides passes the facing in between; a wall there blocks the turn."""
    enc = Encounter.new("skirmish", 6, 6, name="Sweep")
    board = enc.setup.board.painted([Hex(3, 3) + DIRECTIONS[2]], "wall")
    room = Room(board, {}, 1)

    def turns(pose: Pose, spent: int, allowance: int) -> list[Step]:
        return [Step("turn", Pose(pose.hex, f), 0) for f in range(6) if f != pose.facing]

    # facing 5 puts the body south-east of the anchor: on the wall
    start = Pose(Hex(3, 3), 0)
    steps = body_steps(turns, BEHIND, room)
    landed = {s.pose.facing for s in steps(start, 0, 0)}
    assert landed == {1, 2, 3}  # 5 is the wall; turning to 4 the short way sweeps through 5
    with pytest.raises(ValueError, match="not a step allowed"):
        validate_path(start, steps, 0, [Pose(Hex(3, 3), 4)])
    # the long way round, one step at a time, gets there
    plan = [Pose(Hex(3, 3), f) for f in (2, 4)]
    assert [s.pose.facing for s in validate_path(start, steps, 0, plan)] == [2, 4]


def test_the_search_keeps_a_long_body_clear_of_walls() -> None:
    """No reachable pose of a two-hex body covers the wall, though its anchor skirts it."""
    enc = stable()
    reach = enc.ruleset.reach(enc.state, enc.state.figure("horse"))
    assert reach is not None
    wall = Hex(3, 0)
    for pose in reach.poses():
        assert wall not in cover(pose.hex, pose.facing, BEHIND)
    unbound = search(Pose(Hex(1, 2), 0), lambda p, s, a: [], 0)
    assert list(unbound.poses()) == [Pose(Hex(1, 2), 0)]


def test_a_two_hex_figure_is_targetable_through_either_hex() -> None:
    """An enemy next to the horse's tail only is within one hex of it: it may attack."""
    enc = stable()
    rs = enc.ruleset
    far = Hex(1, 4)  # next to the tail 1,3, two hexes from the head 1,2
    foe = rs.new_figure("foe", "Tail Biter", "Red", far, 0)
    enc = enc.with_figure(foe)
    horse, biter = enc.state.figure("horse"), enc.state.figure("foe")
    assert figure_distance(biter, horse) == 1
    assert nearest_hexes(biter, horse) == (far, Hex(1, 3))
    enc.perform(Action("next_step"))
    (attack,) = enc.legal_actions("foe")
    assert [c.value for c in attack.params[0].choices] == ["horse"]
    preview = enc.preview(Action("attack", "foe", {"target": "horse"}))
    assert preview.allowed
    assert "From the rear" in " ".join(preview.rollables[0].breakdown())


def test_documents_round_trip_footprints_and_riders() -> None:
    enc = stable()
    rider = replace(
        enc.ruleset.new_figure("rider", "Sir Brie", "Blue", Hex(1, 2), 0), mounted_on="horse"
    )
    enc = enc.with_figure(rider)
    doc = to_document(enc)
    assert doc["figures"][0]["footprint"] == ["0,1"]
    assert doc["figures"][2]["mounted_on"] == "horse"
    again = loads(dumps(enc))
    assert again.setup.figures == enc.setup.figures
    assert "footprint" not in doc["figures"][1]  # one-hex figures write what they always did


def test_document_problems_in_footprints_and_mounts_are_located_by_path() -> None:
    doc = json.loads(dumps(stable()))
    doc["figures"][0]["footprint"] = ["0,0", "0,3", "x"]
    doc["figures"][1]["mounted_on"] = "pegasus"
    with pytest.raises(InvalidDocumentError) as caught:
        loads(json.dumps(doc))
    paths = {p.path: p.message for p in caught.value.problems}
    assert "anchor" in paths["figures[0].footprint[0]"]
    assert "hex" in paths["figures[0].footprint[2]"]
    assert "not joined" in paths["figures[0].footprint"]
    doc["figures"][0]["footprint"] = ["0,1"]
    with pytest.raises(InvalidDocumentError) as caught:
        loads(json.dumps(doc))
    assert [p.path for p in caught.value.problems] == ["figures[1].mounted_on"]


def test_a_body_off_the_board_or_on_a_wall_is_a_placement_problem() -> None:
    enc = stable()
    horse = enc.setup_figure("horse")
    with pytest.raises(InvalidDocumentError, match=r"D2 \(3,0\) is Wall"):
        enc.with_figure(replace(horse, position=Hex(3, 1), facing=3))
    with pytest.raises(InvalidDocumentError, match="off the"):
        enc.with_figure(replace(horse, position=Hex(0, 5)))


def test_stacking_allowed_or_refused_by_the_ruleset_option() -> None:
    enc = stable({"skirmish.stacking": 2})
    rs = enc.ruleset
    enc = enc.with_figure(rs.new_figure("pal", "Pal", "Red", Hex(5, 2), 1))
    assert [f.id for f in enc.state.occupants(Hex(5, 2))] == ["foot", "pal"]
    view = encounter_view(enc)
    assert [f["hexes"] for f in view["figures"]] == [["1,2", "1,3"], ["5,2"], ["5,2"]]
    with pytest.raises(InvalidDocumentError, match="at most 1 per hex"):
        enc.with_options({"skirmish.stacking": 1})
    third = rs.new_figure("third", "Third", "Red", Hex(5, 2), 1)
    with pytest.raises(InvalidDocumentError, match="at most 2 per hex"):
        enc.with_figure(third)


def test_a_full_hex_cannot_be_entered_by_any_hex_of_a_body() -> None:
    """With one figure per hex the horse never ends with its tail on the foot figure."""
    enc = stable()
    reach = enc.ruleset.reach(enc.state, enc.state.figure("horse"))
    assert reach is not None
    for pose in reach.poses():
        assert Hex(5, 2) not in cover(pose.hex, pose.facing, BEHIND)
    enc2 = stable({"skirmish.stacking": 2})
    reach2 = enc2.ruleset.reach(enc2.state, enc2.state.figure("horse"))
    assert reach2 is not None
    assert any(Hex(5, 2) in cover(p.hex, p.facing, BEHIND) for p in reach2.poses())


def test_figures_sharing_a_hex_may_fight_there() -> None:
    enc = stable({"skirmish.stacking": 2})
    enc.perform(Action("move", "foot", {"to": "2,2"}))
    enc.perform(Action("move", "horse", {"to": "2,2"}))
    assert {f.id for f in enc.state.occupants(Hex(2, 2))} == {"foot", "horse"}
    enc.perform(Action("next_step"))
    (attack,) = enc.legal_actions("foot")
    assert [c.value for c in attack.params[0].choices] == ["horse"]


def test_a_rider_moves_with_its_mount_and_does_not_crowd_it() -> None:
    enc = stable()
    rider = replace(
        enc.ruleset.new_figure("rider", "Sir Brie", "Blue", Hex(1, 2), 0), mounted_on="horse"
    )
    enc = enc.with_figure(rider)  # one figure per hex, yet rider and mount share two
    assert enc.legal_actions("rider") == []  # the rider does not move on its own (SCP-47)
    enc.perform(Action("move", "horse", {"to": "2,3"}))
    horse, rider_now = enc.state.figure("horse"), enc.state.figure("rider")
    assert (rider_now.position, rider_now.facing) == (horse.position, horse.facing)
    assert {f.id for f in enc.state.occupants(horse.position)} == {"horse", "rider"}
    assert enc.state.ruleset.invariant_problems(enc.state) == []
    with pytest.raises(InvalidDocumentError, match="rides 'horse'"):
        enc.with_figure(replace(enc.setup_figure("rider"), position=Hex(0, 0)))
    # in set-up, placing or turning the mount carries the rider along
    moved = enc.with_figure(replace(enc.setup_figure("horse"), position=Hex(4, 2), facing=1))
    assert (moved.setup_figure("rider").position, moved.setup_figure("rider").facing) == (
        Hex(4, 2),
        1,
    )


def test_the_static_svg_draws_a_body_over_every_hex() -> None:
    enc = stable()
    (horse, _) = tokens(enc.state)
    assert horse.body == (Hex(1, 3),)
    svg = render_svg(enc.state.board, tokens(enc.state))
    assert 'class="body"' in svg
    assert "at 1,2 and 1,3" in svg


@st.composite
def plays(draw: st.DrawFn) -> tuple[Encounter, list[int]]:
    stacking = draw(st.integers(1, 3))
    enc = stable({"skirmish.stacking": stacking})
    rs = enc.ruleset
    if draw(st.booleans()):
        pony = replace(rs.new_figure("pony", "Pony", "Red", Hex(4, 2), 1), footprint=BEHIND)
        enc = enc.with_figure(pony)
    return enc, draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=25))


@settings(max_examples=200 if LONG_MODE else 20, deadline=None)
@given(plays())
def test_random_moves_keep_bodies_on_the_board_and_within_the_stacking_limit(
    play: tuple[Encounter, list[int]],
) -> None:
    enc, picks = play
    for pick in picks:
        state = enc.state
        offers = [
            (fid, spec)
            for fid in [None, *state.figures]
            for spec in enc.legal_actions(fid)
            if spec.kind != "attack"
        ]
        fid, spec = offers[pick % len(offers)]
        params = {}
        for p in spec.params:
            params[p.name] = p.choices[(pick // 7) % len(p.choices)].value
        enc.perform(Action(spec.kind, fid, params))
        state = enc.state
        assert state.ruleset.invariant_problems(state) == []
        for f in state.figures.values():
            assert all(state.board.contains(h) for h in f.hexes())


def test_one_hex_figures_are_unchanged() -> None:
    """Defaults: no footprint, no mount, the figure covers its position only."""
    f = Figure("a", "A", "S", Hex(2, 2), 3)
    assert f.hexes() == (Hex(2, 2),)
    assert "footprint" not in f.to_json() and "mounted_on" not in f.to_json()


def test_sight_reaches_a_long_figure_through_any_of_its_hexes() -> None:
    """Fig-percentile: a hill hides the horse's head from the archer but not its tail."""
    enc = Encounter.new("fig-percentile", 10, 8, name="Hill").painted([Hex(3, 1)], "hill")
    rs = enc.ruleset
    archer = rs.new_figure("archer", "Archer", "Blue", Hex(0, 2), 1)
    horse = replace(rs.new_figure("horse", "Horse", "Red", Hex(6, 0), 0), footprint=BEHIND)
    enc = enc.with_figure(archer).with_figure(horse)
    board = enc.state.board
    assert not board.line_of_sight(Hex(0, 2), Hex(6, 0)).clear
    seen = sight_between(enc.state, enc.state.figure("archer"), enc.state.figure("horse"))
    assert seen.clear
    assert figure_distance(enc.state.figure("archer"), enc.state.figure("horse")) == 6
