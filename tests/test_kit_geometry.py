"""The plane-geometry kit: poses, rigid motions, shapes, contact and the spatial index."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, box

from verifier.kit.geometry import (
    TOLERANCE,
    Contact,
    Pose,
    Rigid,
    ShapeIndex,
    arc_band,
    circle,
    classify,
    classify_solids,
    convex_corners,
    deep_overlap,
    distance,
    outline,
    overlapping,
    polygon,
    rectangle,
    sector,
    solid_planes,
    solid_separation,
    sure_solids_contact,
    triangle,
)

coord = st.floats(-1000, 1000, allow_nan=False)
angle = st.floats(-720, 720, allow_nan=False)
size = st.floats(0.1, 100, allow_nan=False)
poses = st.builds(Pose, coord, coord, angle)
rigids = st.builds(Rigid, angle, coord, coord)
anchors = st.sampled_from(["centre", "front", "back"])
rectangles = st.builds(rectangle, poses, size, size, anchors)


@st.composite
def neighbours(draw: st.DrawFn):
    """Two rectangles near enough to each other to be in any of the three contacts."""
    here = draw(poses)
    near = here.compose(Pose(draw(st.floats(-20, 20)), draw(st.floats(-20, 20)), draw(angle)))
    small = st.floats(0.1, 20)
    return (
        rectangle(here, draw(small), draw(small), draw(anchors)),
        rectangle(near, draw(small), draw(small), draw(anchors)),
    )


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-9) -> bool:
    return math.dist(p, q) <= tol


def same_heading(a: float, b: float) -> bool:
    return abs((a - b + 180) % 360 - 180) <= 1e-9


def corners(shape) -> set[tuple[float, float]]:
    return {(round(x, 9) + 0.0, round(y, 9) + 0.0) for x, y in shape.exterior.coords}


# --- poses and rigid motions ---------------------------------------------------------


def test_compass_convention() -> None:
    assert Pose(0, 0, 0).forward(2) == Pose(0, 2, 0)
    assert Pose(0, 0, 90).forward(2) == Pose(2, 0, 90)
    assert Pose(0, 0, 90).apply((1, 0)) == (0, -1)  # facing east, the right hand points south
    assert Pose(0, 0, 0).turned(-90).heading == 270
    assert Pose(0, 0, -360.0).heading == 0
    assert Pose(1, 2, 30).moved(3, -1) == Pose(4, 1, 30)


@given(poses, st.tuples(coord, coord))
def test_apply_and_local_are_inverse(pose: Pose, point: tuple[float, float]) -> None:
    assert close(pose.local(pose.apply(point)), point, 1e-9)
    assert close(pose.apply(pose.local(point)), point, 1e-9)


@given(poses, poses, poses)
def test_compose_is_associative(a: Pose, b: Pose, c: Pose) -> None:
    left, right = a.compose(b).compose(c), a.compose(b.compose(c))
    assert close((left.x, left.y), (right.x, right.y), 1e-8)
    assert same_heading(left.heading, right.heading)


@given(poses, st.floats(-100, 100))
def test_forward_is_compose_with_a_step_ahead(pose: Pose, step: float) -> None:
    ahead, composed = pose.forward(step), pose.compose(Pose(0, step, 0))
    assert close((ahead.x, ahead.y), (composed.x, composed.y))


@given(rigids, rigids, st.tuples(coord, coord))
def test_rigid_then_and_inverse(r: Rigid, s: Rigid, point: tuple[float, float]) -> None:
    assert close(r.then(s).apply_to(point), s.apply_to(r.apply_to(point)), 1e-8)
    assert close(r.inverse().apply_to(r.apply_to(point)), point, 1e-8)
    assert close(r.then(r.inverse()).apply_to(point), point, 1e-8)


@given(rigids, rectangles)
def test_rigid_moves_shapes_like_points(r: Rigid, shape) -> None:
    moved = r.apply_to(shape)
    for p, q in zip(shape.exterior.coords, moved.exterior.coords):
        assert close(r.apply_to(p), q, 1e-8)
    assert moved.area == pytest.approx(shape.area)


# --- shapes --------------------------------------------------------------------------


def test_rectangle_heading_90_swaps_axes() -> None:
    assert rectangle(Pose(0, 0, 0), 2, 4).bounds == (-1, -2, 1, 2)
    assert rectangle(Pose(0, 0, 90), 2, 4).bounds == (-2, -1, 2, 1)
    assert corners(rectangle(Pose(10, 5, 90), 2, 4)) == {(8, 4), (8, 6), (12, 4), (12, 6)}


def test_rectangle_anchor() -> None:
    assert rectangle(Pose(0, 0, 0), 2, 4, "front").bounds == (-1, -4, 1, 0)
    assert rectangle(Pose(0, 0, 0), 2, 4, "back").bounds == (-1, 0, 1, 4)
    assert rectangle(Pose(0, 0, 90), 2, 4, "back").bounds == (0, -1, 4, 1)


def test_rectangle_at_an_angle_keeps_its_size() -> None:
    shape = rectangle(Pose(3, -7, 33), 2, 5)
    assert shape.area == pytest.approx(10)
    assert shape.centroid.distance(Point(3, -7)) < 1e-9


def test_triangle_apex_is_ahead() -> None:
    assert corners(triangle(Pose(1, 1, 90), 2, 3)) == {(1, 2), (1, 0), (4, 1)}
    assert triangle(Pose(0, 0, 0), 2, 3).area == pytest.approx(3)


def test_circle_and_polygon() -> None:
    disc = circle((1, 2), 3)
    assert disc.area == pytest.approx(math.pi * 9, rel=2e-3)
    assert disc.area < math.pi * 9  # inscribed
    assert polygon([(0, 0), (1, 0), (1, 1)]).area == pytest.approx(0.5)


def test_sector_contains_ahead_not_behind() -> None:
    wedge = sector((0, 0), 10, 90, 45)  # facing east
    assert wedge.contains(Point(5, 0))
    assert wedge.contains(Point(5, 4))
    assert not wedge.contains(Point(-5, 0))
    assert not wedge.contains(Point(5, 6))  # outside the 45 degree half angle
    assert not wedge.contains(Point(11, 0))  # beyond the radius
    assert sector((0, 0), 10, 0, 180).contains(Point(0, -5))
    wide = sector((0, 0), 10, 0, 135)
    assert wide.is_valid and wide.contains(Point(5, -1)) and not wide.contains(Point(0.5, -5))


def test_arc_band() -> None:
    band = arc_band((0, 0), 2, 5, 0, 30)
    assert band.contains(Point(0, 3))
    assert not band.contains(Point(0, 1))
    assert not band.contains(Point(0, 6))
    assert not band.contains(Point(0, -3))
    ring = arc_band((0, 0), 2, 5, 0, 180)
    assert ring.contains(Point(0, -3)) and not ring.contains(Point(0, 0))
    assert arc_band((0, 0), 0, 5, 0, 30).equals(sector((0, 0), 5, 0, 30))


# --- contact -------------------------------------------------------------------------


def unit(x: float, y: float):
    return box(x, y, x + 1, y + 1)


def test_classify_unit_squares() -> None:
    assert classify(unit(0, 0), unit(1, 0)) is Contact.TOUCHING  # shared edge
    assert classify(unit(0, 0), unit(1.5, 0)) is Contact.APART
    assert classify(unit(0, 0), unit(0.9, 0)) is Contact.OVERLAPPING
    assert classify(unit(0, 0), unit(1, 1)) is Contact.TOUCHING  # one corner
    assert classify(unit(0, 0), unit(0.5, 0.5)) is Contact.OVERLAPPING
    assert distance(unit(0, 0), unit(1.5, 0)) == pytest.approx(0.5)


def test_the_tolerance_decides_hairlines() -> None:
    assert classify(unit(0, 0), unit(1 + TOLERANCE / 10, 0)) is Contact.TOUCHING
    assert classify(unit(0, 0), unit(1 - TOLERANCE / 10, 0)) is Contact.TOUCHING
    assert classify(unit(0, 0), unit(1 + TOLERANCE * 10, 0)) is Contact.APART
    assert classify(unit(0, 0), unit(1 - TOLERANCE * 10, 0)) is Contact.OVERLAPPING


@given(rigids)
def test_shared_edge_still_touches_after_any_rigid_motion(r: Rigid) -> None:
    a, b = r.apply_to(unit(0, 0)), r.apply_to(unit(1, 0.3))
    assert classify(a, b) is Contact.TOUCHING
    a, b = r.apply_to(rectangle(Pose(0, 0, 17), 2, 3)), r.apply_to(rectangle(Pose(0, 0, 17).forward(3), 2, 3))
    assert classify(a, b) is Contact.TOUCHING


def test_points_and_lines_never_overlap() -> None:
    assert classify(Point(0.5, 0.5), unit(0, 0)) is Contact.TOUCHING
    assert classify(LineString([(-1, 0.5), (2, 0.5)]), unit(0, 0)) is Contact.TOUCHING
    assert classify(Point(3, 3), unit(0, 0)) is Contact.APART


def test_contact_is_a_str_enum() -> None:
    assert [c.value for c in Contact] == ["apart", "touching", "overlapping"]
    assert Contact.TOUCHING == "touching"


@given(neighbours())
def test_classify_is_symmetric(pair) -> None:
    a, b = pair
    assert classify(a, b) is classify(b, a)


@given(neighbours(), rigids)
@settings(max_examples=200)
def test_classify_is_unchanged_by_rigid_motion(pair, r: Rigid) -> None:
    a, b = pair
    # Away from the borderline: the answer must not hinge on the tolerance itself.
    found = classify(a, b)
    assume(classify(a, b, TOLERANCE / 10) is found is classify(a, b, TOLERANCE * 10))
    assume(not 0 < distance(a, b) <= 10 * TOLERANCE)
    assert classify(r.apply_to(a), r.apply_to(b)) is found


# --- spatial index -------------------------------------------------------------------


def scattered(seed: int, count: int) -> dict[str, object]:
    rng = random.Random(seed)
    shapes = {
        f"r{i:03}": rectangle(
            Pose(rng.uniform(0, 200), rng.uniform(0, 200), rng.uniform(0, 360)),
            rng.uniform(1, 15),
            rng.uniform(1, 15),
        )
        for i in range(count)
    }
    # A few exact contacts, so the index meets touching shapes too.
    for i in range(10):
        pose = Pose(rng.uniform(0, 200), rng.uniform(0, 200), rng.uniform(0, 360))
        shapes[f"t{i}a"] = rectangle(pose, 4, 6, "front")
        shapes[f"t{i}b"] = rectangle(pose, 4, 6, "back")
    return shapes


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_index_agrees_with_brute_force(seed: int) -> None:
    shapes = scattered(seed, 200)
    index = ShapeIndex(shapes)
    assert len(index) == len(shapes)
    touching_seen = False
    for name, shape in shapes.items():
        brute = {n: classify(other, shape) for n, other in shapes.items()}
        expected = {n: c for n, c in sorted(brute.items()) if c is not Contact.APART}
        assert index.near(shape) == sorted(expected)
        assert index.contacts(shape) == expected
        touching_seen |= Contact.TOUCHING in expected.values()
        assert expected[name] is Contact.OVERLAPPING  # every shape overlaps itself
    assert touching_seen


def test_index_near_with_a_wider_tolerance() -> None:
    index = ShapeIndex({"a": unit(0, 0), "b": unit(3, 0), "c": Point(0.5, 2)})
    assert index.near(unit(1.5, 0)) == []
    assert index.near(unit(1.5, 0), tolerance=0.5) == ["a", "b"]
    assert index.contacts(unit(0, 1)) == {"a": Contact.TOUCHING, "c": Contact.TOUCHING}


def test_empty_index() -> None:
    assert ShapeIndex({}).near(unit(0, 0)) == []
    assert ShapeIndex({"a": unit(0, 0)}).near(Point()) == []


# --- shortcuts that must give classify's answer ------------------------------------------


def _hairline_pairs(seed: int, count: int) -> list[tuple[object, object]]:
    """Rectangles side by side, a hair apart, touching, or overlapping by a hair or more
    (shapely measures some of those overlaps a hair apart: the shortcuts must not care)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        pose = Pose(rng.uniform(0, 50), rng.uniform(0, 50), rng.choice([0.0, 30.0, 45.5, rng.uniform(0, 360)]))
        width = rng.uniform(1, 3)
        shift = width + rng.choice([0.0, 1e-7, -1e-7, -2e-6, -2.2e-6, -3e-6, 2e-6, -0.5])
        pairs.append((rectangle(pose, width, 2), rectangle(pose.compose(Pose(shift, rng.choice([0.0, 0.5]), 0)),
                                                         width, 2)))
    return pairs


@pytest.mark.parametrize("seed", [1, 2])
def test_overlapping_and_corners_agree_with_classify(seed: int) -> None:
    seen = set()
    for a, b in _hairline_pairs(seed, 400) + list(zip(scattered(seed, 60).values(), scattered(seed + 9, 60).values())):
        contact = classify(a, b)
        seen.add(contact)
        assert overlapping(a, b) is (contact is Contact.OVERLAPPING)
        index = ShapeIndex({"b": b})
        assert index.contacts(a, corners=convex_corners(a)) == index.contacts(a)
        found = index.gaps(a, corners=convex_corners(a))
        assert [(name, gap) for name, _, gap, _ in found] == [("b", distance(a, b))] * (contact is not Contact.APART)
        if deep_overlap(convex_corners(a), convex_corners(b)) and distance(a, b) == 0:
            assert contact is Contact.OVERLAPPING
    assert seen == set(Contact)


def test_deep_overlap_needs_a_point_deeper_than_the_tolerance() -> None:
    square = convex_corners(unit(0, 0))
    assert square is not None
    assert deep_overlap(square, convex_corners(unit(0.5, 0.5)))
    assert not deep_overlap(square, convex_corners(unit(1 - 2 * TOLERANCE, 0)))  # a strip narrower than 2 tolerances
    assert not deep_overlap(square, convex_corners(unit(1, 0)))
    assert convex_corners(polygon([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)])) is None  # a notch
    assert convex_corners(Point(0, 0).buffer(1)) is None  # too many corners to be worth it


def test_clear_of_finds_nothing_only_where_near_finds_nothing() -> None:
    shapes = scattered(4, 12)  # 32 shapes at most: a larger index leaves it to the tree (and says False)
    index = ShapeIndex(shapes)
    assert not ShapeIndex(scattered(4, 40)).clear_of([(-500.0, -500.0), (-499.0, -500.0), (-499.0, -499.0)])
    rng = random.Random(4)
    answers = set()
    for _ in range(300):
        shape = rectangle(Pose(rng.uniform(0, 200), rng.uniform(0, 200), rng.uniform(0, 360)), 3, 5)
        points = list(shape.exterior.coords)[:-1]
        clear = index.clear_of(points)
        answers.add(clear)
        if clear:
            assert index.near(shape) == [] and index.contacts(shape) == {}
        assert index.clear_of(points, skip=frozenset(shapes))  # nothing left to meet
    assert answers == {True, False}


def _pyramid(x: float, y: float, heading: float) -> list[tuple[float, float, float]]:
    pose = Pose(x, y, heading)
    base = [(-0.5, 0.0, 0.0), (0.5, 0.0, 0.0), (0.0, 2.0, 0.0), (-0.5, 0.4, 0.9), (0.5, 0.4, 0.9)]
    return [(*pose.apply((px, py)), pz) for px, py, pz in base]


def test_classify_solids_agrees_with_the_separation() -> None:
    rng = random.Random(7)
    for _ in range(200):
        a = _pyramid(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0, 360))
        b = _pyramid(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0, 360))
        gap = solid_separation(a, b)
        expected = Contact.APART if gap > TOLERANCE else Contact.TOUCHING if gap >= -TOLERANCE else Contact.OVERLAPPING
        assert classify_solids(a, b) is expected
        assert solid_separation(b, a) == pytest.approx(gap, abs=1e-12)


def test_the_planes_of_a_box_are_its_six_faces_pointing_in() -> None:
    corners = [(x, y, z) for x in (0.0, 2.0) for y in (0.0, 1.0) for z in (0.0, 3.0)]
    planes = solid_planes(corners)
    assert len(planes) == 6
    assert all(nx * 1.0 + ny * 0.5 + nz * 1.5 - offset > 0.4 for nx, ny, nz, offset in planes)  # the centre
    assert (0.0, 0.0, 1.0, 0.0) in [tuple(v + 0.0 for v in plane) for plane in planes]  # the floor


def test_sure_solids_contact_agrees_with_classify_solids_and_settles_most() -> None:
    rng = random.Random(11)
    settled = 0
    for k in range(400):
        spread = 1.0 if k % 2 else 0.5
        a = _pyramid(rng.uniform(-spread, spread), rng.uniform(-spread, spread), rng.choice([0, 30, 90, 135, 200]))
        b = _pyramid(rng.uniform(-spread, spread), rng.uniform(-spread, spread), rng.uniform(0, 360))
        # the face each lies on, and its outline, counter-clockwise (see _pyramid's corners)
        shadows = (([p[:2] for p in a[:3]], [p[:2] for p in b[:3]]),
                   ([a[i][:2] for i in (0, 1, 4, 2, 3)], [b[i][:2] for i in (0, 1, 4, 2, 3)]))
        sure = sure_solids_contact(a, solid_planes(a), b, solid_planes(b), shadows)
        if sure is not None:
            settled += 1
            assert sure is classify_solids(a, b)
    assert settled > 300


def test_outline_is_shapelys_polygon_corner_for_corner() -> None:
    import shapely
    rng = random.Random(3)
    for count in (3, 4, 5, 9):
        points = [(rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3)) for _ in range(count)]
        made, expected = outline(points), shapely.polygons(points)
        assert type(made) is type(expected)
        assert shapely.get_coordinates(made).tolist() == shapely.get_coordinates(expected).tolist()
