"""Properties of the YPP reference resolver that must hold for every scene."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.ruleset import Cause
from verifier.rulesets.ypp import RULESET
from verifier.rulesets.ypp.model import Board, Heading, Scene, Ship, Token, Turn
from verifier.rulesets.ypp.resolver import resolve_turn
from verifier.rulesets.ypp.strategies import scenes_and_turns
from verifier.testing import PlainResolutions, assert_same_table

DEFAULT = RULESET.default_reading
READINGS = RULESET.all_readings()


def state(outcome):
    return {s.name: (s.at, s.heading) for s in outcome.after.ships}


def events(outcome):
    return Counter((e.round, e.phase, e.kind, e.pieces if e.kind in ("bump", "push") else tuple(sorted(e.pieces)))
                   for e in outcome.events)


@settings(max_examples=300, deadline=None)
@given(scenes_and_turns(), st.sampled_from(READINGS), st.randoms(use_true_random=False))
def test_outcome_does_not_depend_on_ship_names_or_listing(scene_turn, reading, rnd):
    """Renaming ships (which reorders every dict and list inside the resolver) renames the outcome."""
    scene, turn = scene_turn
    names = [s.name for s in scene.ships]
    shuffled = names[:]
    rnd.shuffle(shuffled)
    rename = dict(zip(names, (f"z{n}" for n in shuffled)))
    back = {v: k for k, v in rename.items()}
    renamed_scene = Scene(scene.board, tuple(sorted((Ship(rename[s.name], s.type, s.at, s.heading)
                                                     for s in scene.ships), key=lambda s: s.name)))
    renamed_turn = Turn(tuple(tuple(sorted((rename[n], t) for n, t in r)) for r in turn.rounds))
    one = resolve_turn(scene, turn, reading)
    two = resolve_turn(renamed_scene, renamed_turn, reading)
    if any(kind == "two ships on one tile" for kind, _, _ in RULESET.invariant_breaches(scene, turn, one)):
        # Only push_blocked=literal stacks ships. Once two share a tile, at any moment of the
        # turn, which of them "occupies" it is a naming tie-break, and so is all that follows.
        assert reading["push_blocked"] == "literal"
        return
    assert state(one) == {back[n]: v for n, v in state(two).items()}
    renamed_events = Counter()
    for (r, phase, kind, pieces), count in events(two).items():
        pieces = tuple(back[p] for p in pieces)
        renamed_events[(r, phase, kind, pieces if kind in ("bump", "push") else tuple(sorted(pieces)))] += count
    assert events(one) == renamed_events


def rotate_scene(scene: Scene) -> Scene:
    """Rotate a quarter turn clockwise: (x, y) -> (h-1-y, x)."""
    board = scene.board
    h = board.height

    def rot(t):
        return (h - 1 - t[1], t[0])

    whirl = tuple(sorted((h - 2 - y, x) for x, y in board.whirlpools))
    new_board = Board(h, board.width, frozenset(rot(t) for t in board.rocks),
                      tuple(sorted((rot(t), d.clockwise()) for t, d in board.wind)), whirl)
    return Scene(new_board, tuple(Ship(s.name, s.type, rot(s.at), s.heading.clockwise()) for s in scene.ships))


@settings(max_examples=300, deadline=None)
@given(scenes_and_turns(), st.sampled_from(READINGS))
def test_rotating_the_scene_rotates_the_outcome(scene_turn, reading):
    scene, turn = scene_turn
    one = resolve_turn(rotate_scene(scene), turn, reading)
    two = rotate_scene(resolve_turn(scene, turn, reading).after)
    assert state(one) == {s.name: (s.at, s.heading) for s in two.ships}
    assert events(one) == events(resolve_turn(scene, turn, reading))


@settings(max_examples=400, deadline=None)
@given(scenes_and_turns(max_ships=6))
def test_default_reading_keeps_the_board_legal(scene_turn):
    scene, turn = scene_turn
    outcome = resolve_turn(scene, turn, DEFAULT)
    ships = outcome.after.ships
    assert len(ships) == len(scene.ships)
    tiles = [s.at for s in ships]
    assert len(set(tiles)) == len(tiles), "two ships share a tile"
    for s in ships:
        assert scene.board.on_board(s.at)
        assert s.at not in scene.board.rocks


@settings(max_examples=200, deadline=None)
@given(scenes_and_turns())
def test_ships_move_at_most_two_tiles_per_phase(scene_turn):
    scene, turn = scene_turn
    outcome = resolve_turn(scene, turn, DEFAULT)
    for before, after in zip(outcome.frames, outcome.frames[1:]):
        for (n1, p1, _), (n2, p2, _) in zip(before.state, after.state):
            assert n1 == n2
            assert abs(p1[0] - p2[0]) + abs(p1[1] - p2[1]) <= 2


def test_turning_ship_faces_new_way_even_when_stopped():
    board = Board(3, 3, frozenset({(1, 0)}))
    scene = Scene(board, (Ship("A", "sloop", (1, 1), Heading.N),))
    outcome = resolve_turn(scene, Turn(((("A", Token.LEFT),),)), DEFAULT)
    ship = outcome.after.ships[0]
    assert ship.at == (1, 1) and ship.heading is Heading.W
    assert [e.kind for e in outcome.events] == ["rock"]
    assert outcome.provenance["A"] == (Cause.applied("token.turn", 1), Cause.applied("rock.1", 1),
                                       Cause.applied("move.note", 1))
    assert [str(c) for c in outcome.provenance["A"]] == ["r1 token.turn", "r1 rock.1", "r1 move.note"]


def test_unmoved_whirlpool_ship_returns_after_four_rounds():
    board = Board(4, 4, whirlpools=((1, 1),))
    scene = Scene(board, (Ship("A", "sloop", (1, 1), Heading.N),))
    outcome = resolve_turn(scene, Turn(((),) * 4), DEFAULT)
    positions = [dict((n, (p, h)) for n, p, h in frame.state)["A"] for frame in outcome.frames
                 if frame.phase == "wind" and frame.step == 0]
    # Each round carries it to the opposite corner and turns it a quarter clockwise.
    assert positions == [((2, 2), Heading.E), ((1, 1), Heading.S), ((2, 2), Heading.W), ((1, 1), Heading.N)]
    assert outcome.after.ships[0].at == (1, 1) and outcome.after.ships[0].heading is Heading.N


@settings(max_examples=150, deadline=None)
@given(scenes_and_turns(), st.sampled_from(READINGS))
def test_every_collision_and_bump_carries_ram_damage_and_the_totals_add_up(scene_turn, reading):
    from verifier.rulesets.ypp.model import RAM_VALUES, SHOT_SIZES
    scene, turn = scene_turn
    outcome = resolve_turn(scene, turn, reading)
    column = SHOT_SIZES.index(reading["ram_unit"])
    types = {s.name: s.type for s in scene.ships}
    expected: Counter = Counter()
    for event in outcome.events:
        if event.kind in ("collision", "bump"):
            a, b = event.pieces
            taken = dict(event.damage)
            assert set(taken) == {a, b}
            for ship, other in ((a, b), (b, a)):
                source = other if reading["ram_value"] == "other" else ship
                assert taken[ship] == RAM_VALUES[types[source]][column]
                expected[ship] += taken[ship]
        else:
            assert event.damage == ()
    assert dict(outcome.damage_totals()) == {n: round(d, 6) for n, d in expected.items() if d}


def test_a_knock_back_goes_away_from_the_mover_or_astern_by_reading():
    scene = Scene(Board(5, 6), (Ship("A", "sloop", (2, 4), Heading.N), Ship("B", "sloop", (2, 3), Heading.E)))
    turn = Turn(((("A", Token.FORWARD),),))
    away = resolve_turn(scene, turn, DEFAULT)
    astern = resolve_turn(scene, turn, {**DEFAULT, "knock_direction": "astern"})
    assert away.after.by_name["B"].at == (2, 2) and astern.after.by_name["B"].at == (1, 3)
    decisions = [d for d in away.decisions if d.point == "knock_direction"]
    assert len(decisions) == 1 and decisions[0].situation.endswith("faces across the mover's way")
    # Facing the mover, both meanings of "back" agree and the point is not consulted.
    facing = Scene(scene.board, (scene.ships[0], Ship("B", "sloop", (2, 3), Heading.S)))
    assert "knock_direction" not in resolve_turn(facing, turn, DEFAULT).consulted


def test_situation_shapes_name_no_ship_and_survive_renaming():
    scene = Scene(Board(7, 7), (Ship("A", "war frigate", (3, 4), Heading.N), Ship("B", "sloop", (3, 3), Heading.E)))
    turn = Turn(((("A", Token.FORWARD),),))
    renamed = Scene(scene.board, (Ship("Q", "sloop", (3, 3), Heading.E), Ship("Z", "war frigate", (3, 4), Heading.N)))
    one = resolve_turn(scene, turn, DEFAULT)
    two = resolve_turn(renamed, Turn(((("Z", Token.FORWARD),),)), DEFAULT)
    shapes = sorted(d.situation for d in one.decisions)
    assert shapes == sorted(d.situation for d in two.decisions)
    assert shapes and all(s and "A" not in s.split() and "B" not in s.split() for s in shapes)


def test_the_outcome_sentence_says_how_far_each_ship_moved_in_tiles_and_where_it_faces():
    from verifier.case import load_case
    case = load_case("cases/ypp/turn-four-rounds.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    sentence = case.ruleset.summarise(case.before, outcome)
    assert sentence.startswith("Haughty Sawfish moves 4 tiles north and 3 tiles east, still facing north;")
    exact = case.ruleset.describe(case.before, case.actions, outcome)  # the page's hover text
    assert "[1, 5] N -> [4, 1] N" in exact


class _Looked(dict):
    """A reading that lists the points in the order they are first looked up."""

    def __init__(self, options):
        super().__init__(options)
        self.order = []

    def __getitem__(self, point):
        if point not in self.order:
            self.order.append(point)
        return super().__getitem__(point)


def test_a_scene_resolved_again_under_other_readings_takes_up_where_they_agree_and_ends_as_if_afresh():
    """RULESET.resolve takes a scene up from the last round whose looked-up options the reading
    shares with an earlier resolution of it; every outcome, and the order the reading's points are
    first looked up in (the reference decision tree branches by it), is that of resolving afresh."""
    from random import Random

    from verifier.kit.choices import RandomChoices
    from verifier.rulesets.ypp.strategies import scene

    # Under push_blocked=literal a wind bump in round 1 leaves two ships on one tile, and
    # they part again in round 2: what is taken up from round 1 must know they share it.
    stacked = (Scene(Board(6, 7, frozenset({(2, 5)}), (((0, 4), Heading.S),), ((3, 1),)),
                     (Ship("A", "sloop", (0, 4), Heading.W), Ship("B", "war brig", (0, 6), Heading.W),
                      Ship("C", "sloop", (0, 5), Heading.W))),
               Turn(((("A", Token.RIGHT), ("B", Token.RIGHT), ("C", Token.LEFT)),
                     (("A", Token.LEFT), ("B", Token.LEFT), ("C", Token.FORWARD)),
                     (("A", Token.FORWARD), ("B", Token.RIGHT)))))
    rnd = Random(30)
    readings = list(READINGS)
    taken_up = 0
    for index in range(41):
        before, actions = scene(RandomChoices(Random(index)), max_ships=4, max_rounds=4) if index else stacked
        rnd.shuffle(readings)
        for reading in readings[:120] if index else READINGS:
            again, afresh = _Looked(reading), _Looked(reading)
            got = RULESET.resolve(before, actions, again)
            assert got == resolve_turn(before, actions, afresh)
            assert again.order == afresh.order
            taken_up += len(actions.rounds) > 1 and bool(got.events)
    assert taken_up > 100  # enough scenes of several rounds with something to rule on


def test_an_equal_scene_parsed_afresh_is_taken_up_from_the_first_ones_resolutions():
    """The memo of resolutions is keyed by the scene's value, not its identity: the in-process
    adapter parses each request into new objects, and those resolve from what fuzz's decision
    tree already worked out for the same scene."""
    import copy

    from verifier.rulesets.ypp import resolver

    before = Scene(Board(5, 5), (Ship("A", "sloop", (1, 3), Heading.N), Ship("B", "war brig", (1, 1), Heading.S)))
    actions = Turn(((("A", Token.FORWARD), ("B", Token.FORWARD)), (("A", Token.LEFT),)))
    reading = RULESET.default_reading
    first = RULESET.resolve(before, actions, reading)
    again = RULESET.resolve(copy.deepcopy(before), copy.deepcopy(actions), dict(reading))
    assert first.events and again == first == resolve_turn(before, actions, reading)
    assert again.events is first.events  # found in the memo, not worked out again
    assert (before, actions) in resolver._MEMO


def test_the_reading_table_walked_along_the_tree_of_rounds_is_the_table_of_plain_resolves():
    """YPP hands fuzz's reading table resolutions taken up where the changed point was first
    looked up, with the keys of the ram damage's variants taken from one: the same leaves,
    keys and outcomes (the reading they were resolved under, and the board object, too) as
    resolving every leaf."""
    from random import Random

    from verifier.fuzz import reading_table
    from verifier.kit.choices import RandomChoices
    from verifier.rulesets.ypp import resolver
    from verifier.rulesets.ypp.strategies import scene

    branched = rams = 0
    for index in range(150):
        before, actions = scene(RandomChoices(Random(index)), max_ships=5, max_rounds=4)
        resolver._MEMO.clear()  # the tree built by the table alone, then by plain resolves alone
        walked = reading_table(RULESET, before, actions)
        resolver._MEMO.clear()
        plain = reading_table(PlainResolutions(RULESET), before, actions)
        assert_same_table(walked, plain)
        assert all(outcome.after.board is before.board for outcome in walked.outcomes.values())
        branched += len(walked.keys) > 1
        rams += "ram_unit" in walked.points
    assert branched > 50 and rams > 20
