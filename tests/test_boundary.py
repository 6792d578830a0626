"""kit.boundary: scenes built exactly on a ruleset's boundaries and just either side, and
every ruleset's named boundaries reached from its own generated scenes."""

from __future__ import annotations

import json
from fractions import Fraction
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier import registry
from verifier.kit.boundary import (
    SIDE_STEPS,
    Boundary,
    BoundaryTally,
    Path,
    SeededChoices,
    Side,
    boundaries_text,
    land,
    on_boundaries,
    readable,
    root,
    visit_of,
)
from verifier.kit.choices import HypothesisChoices
from verifier.kit.geometry import TOLERANCE, Contact, Pose, classify, rectangle, signed_gap
from verifier.ruleset import Capability

KEYS = ("armada", "armada2k", "civ", "scatter", "ypp")


def test_root_finds_a_crossing_within_the_tolerance_and_refuses_none():
    t = root(lambda t: t * t - 2, 0, 2)
    assert t is not None and abs(t * t - 2) <= TOLERANCE / 8
    assert root(lambda t: t * t + 1, -1, 1) is None
    assert root(lambda t: t - 3, 0, 10, integral=True) == 3
    assert root(lambda t: 2 * t - 3, 0, 10, integral=True) is None  # no whole t gives 0


@pytest.mark.parametrize("heading", [0.0, 22.5, 45.0, 301.0])
def test_signed_gap_is_the_distance_apart_and_the_depth_inside(heading):
    a = rectangle(Pose(0, 0, heading), 40, 70)
    far = rectangle(Pose(0, 0, heading).compose(Pose(45, 0, 0)), 40, 70)
    deep = rectangle(Pose(0, 0, heading).compose(Pose(37, 0, 0)), 40, 70)
    assert signed_gap(a, far) == pytest.approx(5.0)
    assert signed_gap(a, deep) == pytest.approx(-3.0)
    with pytest.raises(ValueError, match="convex"):
        signed_gap(a.union(far.buffer(30)).difference(rectangle(Pose(20, 0, 0), 5, 5)), a)


def _two_boxes() -> Boundary:
    """A box sliding east towards another: a toy boundary on bare geometry."""
    def quantity(before, actions):
        return signed_gap(rectangle(Pose(0, 0), 10, 10), rectangle(Pose(before, 0), 10, 10))

    def path(before, actions, choose):
        return Path(lambda t: (before - t, actions), -5.0, before)

    return Boundary("boxes-touch", ("toy.1",), "two boxes", quantity, path)


@pytest.mark.parametrize("side,contact", [(Side.ON, Contact.TOUCHING), (Side.BELOW, Contact.OVERLAPPING),
                                          (Side.ABOVE, Contact.APART)])
def test_a_scene_on_each_side_is_what_the_kits_one_tolerance_calls_it(side, contact):
    boundary = _two_boxes()
    (x, _), visit = land(boundary, 37.3, None, side, SeededChoices(Random(0)))
    assert visit.side is side and boundary.side_of(visit.value) is side
    assert classify(rectangle(Pose(0, 0), 10, 10), rectangle(Pose(x, 0), 10, 10)) is contact
    if side is not Side.ON:
        assert abs(abs(visit.value) - SIDE_STEPS * TOLERANCE) <= TOLERANCE / 2


def test_a_boundary_needs_one_way_onto_it_and_a_share_is_a_fraction():
    with pytest.raises(ValueError, match="exactly one"):
        Boundary("none", (), "", lambda b, a: 0.0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        on_boundaries(st.just((1.0, None)), [_two_boxes()], 1.5)


@pytest.mark.parametrize("share,expected", [(0.0, 0), (1.0, 40)])
def test_on_boundaries_moves_the_share_it_is_given(share, expected):
    tally = BoundaryTally()

    @settings(max_examples=40, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(on_boundaries(st.floats(20, 40).map(lambda x: (x, None)), [_two_boxes()], share, tagged=True))
    def draw(example):
        tally.count(example[2])

    draw()
    assert tally.scenes == 40 and tally.on_boundaries == expected
    data = tally.as_json(["boxes-touch"])
    assert data["boundaries"]["boxes-touch"]["on"] + data["boundaries"]["boxes-touch"]["below"] \
        + data["boundaries"]["boxes-touch"]["above"] == expected
    assert "| boxes-touch |" in boundaries_text(data)


@pytest.mark.parametrize("key", KEYS)
def test_each_ruleset_names_its_boundaries_by_its_own_clauses(key):
    ruleset = registry.get(key)
    assert ruleset.supports(Capability.BOUNDARIES)
    boundaries = ruleset.boundaries()
    assert boundaries and len({b.name for b in boundaries}) == len(boundaries)
    for boundary in boundaries:
        assert boundary.clauses and set(boundary.clauses) <= set(ruleset.clause_ids), boundary.name
        assert boundary.summary


@pytest.mark.parametrize("key", KEYS)
def test_every_boundary_is_reached_on_it_and_either_side_from_generated_scenes(key):
    """From the ruleset's own scenes, each boundary is landed on, and each side it has is
    reached; every scene built is one the case reader accepts and survives its case file."""
    ruleset = registry.get(key)
    accepts = readable(ruleset)
    reached: dict[tuple[str, Side], int] = {}

    @settings(max_examples=150, database=None, suppress_health_check=list(HealthCheck), deadline=None,
              derandomize=True)
    @given(ruleset.strategy(), st.sampled_from(list(Side)), st.data())
    def visit(scene, side, data):
        for boundary in ruleset.boundaries():
            landed = land(boundary, *scene, side, HypothesisChoices(data.draw))
            if landed is None:
                continue
            (before, actions), found = landed
            reached[(boundary.name, side)] = reached.get((boundary.name, side), 0) + 1
            assert found.side is side
            assert accepts(before, actions), f"{boundary.name} built a scene the reader refuses"
            ruleset.resolve(before, actions, ruleset.default_reading)

    visit()
    for boundary in ruleset.boundaries():
        assert (boundary.name, Side.ON) in reached, f"{boundary.name} was never landed on"


def test_an_armada_ship_set_on_the_touching_boundary_touches_and_is_not_moved_back():
    armada = registry.get("armada")
    boundary = next(b for b in armada.boundaries() if b.name == "ship-touches-ship")
    from verifier.rulesets.armada.boundaries import planned

    @settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(armada.strategy(), st.data())
    def check(scene, data):
        landed = land(boundary, *scene, Side.ON, HypothesisChoices(data.draw))
        if landed is None:
            return
        (before, actions), _ = landed
        mover, pose = planned(before, actions)
        base = mover.at(pose).base
        contacts = [classify(base, s.base) for s in before.ships if s.name != mover.name]
        assert Contact.TOUCHING in contacts and Contact.OVERLAPPING not in contacts
        # the scene's case file carries the exact position: read back, it still touches
        data_before, data_actions = armada.case_data(before, actions)
        again = json.loads(json.dumps(data_before))
        assert again == data_before

    check()


def test_a_scatter_tangency_is_exact_and_the_sides_a_thousandth_off():
    scatter = registry.get("scatter")
    from verifier.rulesets.scatter.boundaries import place_touching
    from verifier.rulesets.scatter.model import Roll, Shot

    shot = Shot(3, 30, Fraction(10), Fraction(2))
    for roll in (Roll(3, 1), Roll(4, 2), Roll(2, 4)):
        for side in Side:
            placed = place_touching(shot, roll, side, SeededChoices(Random(0)))
            assert placed is not None, (roll, side)
            landing = scatter.resolve(*placed, scatter.default_reading).after
            assert landing.touching is (side is Side.ON), (roll, side)
            assert landing.hit is (side is Side.BELOW), (roll, side)


def test_a_scene_not_built_on_a_boundary_is_recognised_when_it_lies_on_one():
    boundary = _two_boxes()
    assert visit_of([boundary], 10.0, None).side is Side.ON
    assert visit_of([boundary], 11.0, None) is None


def test_an_exhaustive_space_with_boundaries_holds_its_scenes_and_their_boundary_classes():
    from verifier.execute import Execution
    from verifier.shards import BOUNDARY_SUFFIX, exhaustive, spaces_of

    armada2k = registry.get("armada2k")
    assert "corner" + BOUNDARY_SUFFIX in spaces_of(armada2k)
    plain = exhaustive(armada2k, space="corner", execution=Execution(1), progress=False)
    widened = exhaustive(armada2k, space="corner" + BOUNDARY_SUFFIX, execution=Execution(1), progress=False)
    assert widened.scenes > plain.scenes
    assert set(plain.counts) < set(widened.counts)  # classes that only boundary scenes show
    again = exhaustive(armada2k, space="corner" + BOUNDARY_SUFFIX, execution=Execution(1), shards=5, progress=False)
    assert again.counts == widened.counts  # the same, however the space is cut


def test_the_boundaries_bench_suite_counts_scenes_built_and_the_first_finding_from_one():
    from verifier import bench
    from verifier.boundary_bench import building, first_finding, table

    assert "boundaries" in bench.suites()
    armada2k = registry.get("armada2k")
    built = building(armada2k, 0.5)
    assert built["scenes_built"] > 0 and built["per_second"] > 0
    assert set(built["boundaries"]) == {b.name for b in armada2k.boundaries()}
    found = first_finding(armada2k, 3.0)
    assert found["from_boundaries"] >= 1 and found["first_seconds"] is not None
    text = table({"armada2k": {"building": built, "search": found}})
    assert "armada2k boundary scenes built" in text and "armada2k first boundary finding" in text
