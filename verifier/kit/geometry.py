"""Plane geometry on Shapely, shared by every continuous-plane ruleset.

Conventions, the same for every ruleset that uses this kit:

- x grows east, y grows north. Which way is up on the page is the drawing kit's
  business, not this module's.
- A heading is in degrees, measured clockwise from north, like a compass:
  0 faces +y, 90 faces +x. Headings are kept in [0, 360).
- A pose's local frame has local +y forward (along the heading) and local +x to
  the right (starboard).
- Units are whatever the ruleset measures in (millimetres, inches); nothing here
  assumes one.

Contact between two shapes has one meaning everywhere (see ``classify``):
``apart``, ``touching`` or ``overlapping``, decided with the one tolerance
``TOLERANCE``. Touching is an answer of its own, so that "does touching count?"
becomes a named reading of a ruleset rather than an accident of floating point.
"""

from __future__ import annotations

import functools
import itertools
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, overload

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from ..kept import KeptFor

XY = tuple[float, float]

# The one tolerance, in world units. Rotations and translations leave round-off of
# about 1e-13 of the coordinates' size, so shapes built to share an edge end up a
# hair apart or a hair inside each other. 1e-6 swallows that at table sizes (up to
# ~1e5 units) and is far below anything a player measures, in mm or in inches.
TOLERANCE = 1e-6

# Segments in a full circle; arcs get their share of it.
ARC_SEGMENTS = 64


def _norm(degrees: float) -> float:
    d = degrees % 360.0
    return 0.0 if d >= 360.0 else d  # (-1e-17) % 360 == 360.0


_EXACT_COS_SIN = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}


def _cos_sin(degrees: float) -> XY:
    """Cosine and sine, exact at multiples of 90 so square layouts stay square."""
    d = _norm(degrees)
    exact = _EXACT_COS_SIN.get(d)
    if exact is not None:
        return exact
    r = math.radians(d)
    return math.cos(r), math.sin(r)


def _bearing(centre: XY, heading: float, radius: float) -> XY:
    """The point ``radius`` away from ``centre`` along compass ``heading``."""
    c, s = _cos_sin(heading)
    return centre[0] + radius * s, centre[1] + radius * c


@dataclass(frozen=True, slots=True)
class Rigid:
    """A rigid motion: turn clockwise by ``rotation`` degrees about the origin,
    then shift by (``dx``, ``dy``). ``Rigid()`` is the identity."""

    rotation: float = 0.0
    dx: float = 0.0
    dy: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rotation", _norm(self.rotation))

    @overload
    def apply_to(self, item: XY) -> XY: ...
    @overload
    def apply_to(self, item: BaseGeometry) -> BaseGeometry: ...
    def apply_to(self, item: XY | BaseGeometry) -> XY | BaseGeometry:
        c, s = _cos_sin(self.rotation)
        if isinstance(item, tuple):
            x, y = item
            return x * c + y * s + self.dx, -x * s + y * c + self.dy
        return affinity.affine_transform(item, [c, s, -s, c, self.dx, self.dy])

    def apply_all(self, points: Sequence[XY]) -> list[XY]:
        """``apply_to`` of each point, the cosine and sine worked out once."""
        c, s = _cos_sin(self.rotation)
        dx, dy = self.dx, self.dy
        return [(x * c + y * s + dx, -x * s + y * c + dy) for x, y in points]

    def then(self, other: Rigid) -> Rigid:
        """This motion followed by ``other``."""
        dx, dy = other.apply_to((self.dx, self.dy))
        return Rigid(self.rotation + other.rotation, dx, dy)

    def inverse(self) -> Rigid:
        back = Rigid(-self.rotation)
        dx, dy = back.apply_to((-self.dx, -self.dy))
        return Rigid(-self.rotation, dx, dy)


@dataclass(frozen=True, slots=True)
class Pose:
    """A position and a compass heading (degrees clockwise from north)."""

    x: float
    y: float
    heading: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "heading", _norm(self.heading))

    @property
    def transform(self) -> Rigid:
        """The rigid motion that maps this pose's local frame to the world."""
        return Rigid(self.heading, self.x, self.y)

    def forward(self, distance: float) -> Pose:
        x, y = _bearing((self.x, self.y), self.heading, distance)
        return Pose(x, y, self.heading)

    def turned(self, degrees: float) -> Pose:
        """Turned clockwise by ``degrees`` (negative turns anticlockwise)."""
        return Pose(self.x, self.y, self.heading + degrees)

    def moved(self, dx: float, dy: float) -> Pose:
        """Shifted by a world offset, heading unchanged."""
        return Pose(self.x + dx, self.y + dy, self.heading)

    def apply(self, local_point: XY) -> XY:
        """A point of the local frame (+x right, +y forward) in world coordinates."""
        return self.transform.apply_to(local_point)

    def local(self, world_point: XY) -> XY:
        """A world point in this pose's local frame; the inverse of ``apply``."""
        return self.transform.inverse().apply_to(world_point)

    def compose(self, other: Pose) -> Pose:
        """``other``, given in this pose's local frame, as a world pose."""
        x, y = self.apply((other.x, other.y))
        return Pose(x, y, self.heading + other.heading)


# --- shapes ----------------------------------------------------------------------


def polygon(points: Sequence[XY]) -> Polygon:
    return Polygon(points)


def _polygon_maker() -> Callable[[Sequence[XY]], Polygon]:
    """``shapely.polygons`` of a list of corners, made straight by shapely's compiled core where it
    takes the arguments this shapely's public function hands it (half the cost: outlines are
    made by the thousand); else the public function. Either way the same polygon, corner for
    corner (checked here on one)."""
    try:
        from shapely import lib
        allow_nan, no_holes = np.intc(0), np.empty((0,), dtype=object)

        def made(points: Sequence[XY]) -> Polygon:
            shape: Polygon = lib.polygons(lib.linearrings(np.asarray(points, dtype=float), allow_nan), no_holes)
            return shape

        from shapely.io import DecodingErrorOptions
        raise_invalid = np.uint8(DecodingErrorOptions.get_value("raise"))

        def read(points: Sequence[XY]) -> Polygon:
            """``made(points)``, read by GEOS from the polygon's well-known binary (a third less
            time than made from an array) where the corners are pairs of numbers, enough for a
            ring: closed as ``made`` closes it, where the last corner is not the first."""
            flat = [value for point in points for value in point]
            n = len(flat) // 2
            if len(flat) == 2 * len(points) and n >= 3:
                if flat[0] != flat[-2] or flat[1] != flat[-1]:
                    flat += flat[:2]
                    n += 1
                if n >= 4:
                    try:
                        binary = struct.pack(f"<BIII{2 * n}d", 1, 3, 1, n, *flat)
                    except struct.error:  # not numbers struct takes: as made takes them
                        return made(points)
                    # (an array of objects: bytes alone would be taken for a string, its trailing zeros cut)
                    shape: Polygon = lib.from_wkb(np.asarray(binary, dtype=object), raise_invalid)
                    return shape
            return made(points)

        def same(made_by: Callable[[Sequence[XY]], Polygon], probe: Sequence[XY]) -> bool:
            fast, slow = made_by(probe), shapely.polygons(probe)
            return isinstance(fast, Polygon) and shapely.get_coordinates(fast).tolist() == shapely.get_coordinates(
                slow).tolist() and fast.equals_exact(slow, 0) and shapely.to_wkb(fast) == shapely.to_wkb(slow)

        probes = ([(0.0, 0.0), (1.5, 0.25), (0.5, 2.0)], [(0.0, 0.0), (1.5, 0.25), (0.5, 2.0), (0.0, 0.0)],
                  [(-0.1, 1e-300), (1.5, 0.25), (0.5, 2.0), (-3.0, 7.0)])
        if all(same(made, probe) for probe in probes):
            return read if all(same(read, probe) for probe in probes) else made
    except Exception:  # another shapely: its compiled core is called otherwise
        pass

    def public(points: Sequence[XY]) -> Polygon:
        shape: Polygon = shapely.polygons(points)
        return shape

    return public


outline = _polygon_maker()


def rectangle(
    pose: Pose,
    width: float,
    length: float,
    anchor: Literal["centre", "front", "back"] = "centre",
) -> Polygon:
    """A rectangle ``width`` across and ``length`` along the pose's heading.

    ``anchor`` says where the pose stands: the centre, the middle of the front
    edge, or the middle of the back edge.
    """
    return _rectangle(pose, width, length, anchor)


# Pieces are outlined at the same poses again and again (each reading of a scene, each check
# of a piece against the others); shapely's shapes are immutable, so one may be shared.
@functools.lru_cache(maxsize=2048)
def _rectangle(pose: Pose, width: float, length: float, anchor: str) -> Polygon:
    back = {"centre": -length / 2, "front": -length, "back": 0.0}[anchor]
    w = width / 2
    corners = [(-w, back), (w, back), (w, back + length), (-w, back + length)]
    return outline(pose.transform.apply_all(corners))


def triangle(pose: Pose, base: float, length: float) -> Polygon:
    """An isosceles triangle: the pose at the middle of the base, apex ``length`` ahead."""
    return Polygon([pose.apply(p) for p in [(-base / 2, 0.0), (0.0, length), (base / 2, 0.0)]])


def _arc(centre: XY, radius: float, heading: float, half_angle: float) -> list[XY]:
    """Points on an arc, clockwise from ``heading - half_angle`` to ``heading + half_angle``."""
    n = max(1, math.ceil(ARC_SEGMENTS * 2 * half_angle / 360))
    return [_bearing(centre, heading - half_angle + 2 * half_angle * i / n, radius) for i in range(n + 1)]


def circle(centre: XY, radius: float, resolution: int = ARC_SEGMENTS) -> Polygon:
    """A regular ``resolution``-gon inscribed in the circle (a vertex due north)."""
    return Polygon([_bearing(centre, 360 * i / resolution, radius) for i in range(resolution)])


def sector(centre: XY, radius: float, heading: float, half_angle: float) -> Polygon:
    """A wedge: every point within ``radius`` of ``centre`` and within ``half_angle``
    degrees (> 0) either side of ``heading``. A half angle of 180 or more is the whole disc."""
    if half_angle >= 180:
        return circle(centre, radius)
    return Polygon([centre, *_arc(centre, radius, heading, half_angle)])


def arc_band(centre: XY, inner: float, outer: float, heading: float, half_angle: float) -> Polygon:
    """The part of a sector between radii ``inner`` and ``outer``."""
    if inner <= 0:
        return sector(centre, outer, heading, half_angle)
    if half_angle >= 180:
        return Polygon(circle(centre, outer).exterior, [circle(centre, inner).exterior])
    outside = _arc(centre, outer, heading, half_angle)
    inside = _arc(centre, inner, heading, half_angle)
    return Polygon(outside + inside[::-1])


# --- contact -----------------------------------------------------------------------


class Contact(StrEnum):
    APART = "apart"
    TOUCHING = "touching"
    OVERLAPPING = "overlapping"


def distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """The shortest distance between two shapes; 0 when they meet."""
    return float(a.distance(b))


def classify(a: BaseGeometry, b: BaseGeometry, tolerance: float = TOLERANCE) -> Contact:
    """Apart, touching or overlapping, with one rule for every ruleset.

    - overlapping: the common part of ``a`` and ``b`` holds a whole disc of radius
      ``tolerance``; equivalently, the two shapes still meet after each is shrunk
      by ``tolerance`` (negative buffer). This is symmetric, unchanged by rigid
      motions, and needs no area threshold with units of its own. Points and
      lines have no inside, so they never overlap.
    - touching: not overlapping, and no more than ``tolerance`` apart. Shapes
      built to share an edge or a corner touch, whatever the round-off.
    - apart: more than ``tolerance`` apart.

    Two convex polygons found to meet deep inside each other (``deep_overlap``) are
    overlapping without being shrunk: shrinking a new shape costs more than the test.
    """
    gap = distance(a, b)
    if gap == 0 and _deep(a, b, tolerance):
        return Contact.OVERLAPPING
    return _classified(a, b, gap, tolerance)


def overlapping(a: BaseGeometry, b: BaseGeometry, tolerance: float = TOLERANCE) -> bool:
    """``classify(a, b, tolerance) is Contact.OVERLAPPING``."""
    return classify(a, b, tolerance) is Contact.OVERLAPPING


def _deep(a: BaseGeometry, b: BaseGeometry, tolerance: float) -> bool:
    """Whether both shapes are convex polygons that meet deep inside each other (``deep_overlap``)."""
    corners_a = _corners_of(a)
    if corners_a is None:
        return False
    corners_b = _corners_of(b)
    return corners_b is not None and deep_overlap(corners_a, corners_b, tolerance)


_CORNERS: KeptFor[list[XY] | None] = KeptFor(4096)  # convex_corners by shape


def _corners_of(shape: BaseGeometry) -> list[XY] | None:
    return _CORNERS.get(shape, lambda: convex_corners(shape))


def contact_at(a: BaseGeometry, b: BaseGeometry, gap: float, tolerance: float = TOLERANCE) -> Contact:
    """``classify(a, b, tolerance)`` once the distance ``gap`` from ``a`` to ``b`` is known."""
    return _classified(a, b, gap, tolerance)


def _classified(a: BaseGeometry, b: BaseGeometry, gap: float, tolerance: float) -> Contact:
    """``classify`` once the distance ``gap`` from ``a`` to ``b`` is known."""
    if gap > 0:
        return Contact.TOUCHING if gap <= tolerance else Contact.APART
    if shrunk(a, tolerance).intersects(shrunk(b, tolerance)):
        return Contact.OVERLAPPING
    return Contact.TOUCHING


_SHRUNK: KeptFor[BaseGeometry] = KeptFor(2048)  # shapes shrunk before, by shape


def shrunk(shape: BaseGeometry, tolerance: float = TOLERANCE) -> BaseGeometry:
    """``shape.buffer(-tolerance)``, made once per shape object: callers that share their
    shapes (cached outlines, a spatial index's members) ask for the same one many times."""
    return _SHRUNK.get(shape, lambda: shape.buffer(-tolerance), tolerance)


def convex_corners(shape: BaseGeometry) -> list[XY] | None:
    """The corners of a convex polygon without holes (each once, in order), else None."""
    if not isinstance(shape, Polygon) or shapely.get_num_interior_rings(shape):
        return None
    points = shapely.get_coordinates(shape).tolist()[:-1]
    if not 3 <= len(points) <= 16:
        return None
    corners: list[XY] = [(x, y) for x, y in points]
    return corners if _is_convex(corners) else None


def _is_convex(points: Sequence[XY]) -> bool:
    """Whether the corners go once round a convex polygon: every turn the same way (or none)
    and the turns add up to one full turn."""
    n, sign, total = len(points), 0, 0.0
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = points[i - 1], points[i], points[(i + 1) % n]
        ax, ay, bx, by = x1 - x0, y1 - y0, x2 - x1, y2 - y1
        turn = math.atan2(ax * by - ay * bx, ax * bx + ay * by)
        if turn:
            if sign and (turn > 0) != (sign > 0):
                return False
            sign = 1 if turn > 0 else -1
        total += turn
    return bool(sign) and abs(abs(total) - 2 * math.pi) < 1e-6


def _counter_clockwise(points: Sequence[XY]) -> Sequence[XY]:
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]]))
    return points if area > 0 else points[::-1]


def deep_overlap(a: Sequence[XY], b: Sequence[XY], tolerance: float = TOLERANCE) -> bool:
    """Whether two convex polygons (their corners, either way round) hold a point more than
    ``tolerance`` (and a tenth more, for the round-off of shapely's shrinking) inside both, so
    that both shrunk shapes hold it: where shapely measures them 0 apart, ``classify`` calls
    them overlapping. (Not where it measures them a hair apart: it may, for shapes that
    overlap along a shared line.) False says nothing. The point tried is the mean of the
    corners of their common part."""
    a, b = _counter_clockwise(a), _counter_clockwise(b)
    part = _common_part(a, b)
    if len(part) < 3:
        return False
    cx = sum(x for x, _ in part) / len(part)
    cy = sum(y for _, y in part) / len(part)
    depth = 1.1 * tolerance
    for corners in (a, b):
        for (px, py), (qx, qy) in zip(corners, [*corners[1:], corners[0]]):
            ex, ey = qx - px, qy - py
            length = math.hypot(ex, ey)
            if length == 0 or (ex * (cy - py) - ey * (cx - px)) / length <= depth:
                return False
    return True


SMALL_INDEX = 32  # shapes an index tests one by one (by their envelopes) rather than through its tree


class ShapeIndex:
    """Named shapes in an R-tree (``shapely.STRtree``), so a question about one
    shape costs a tree lookup plus a few exact tests, not one test per shape."""

    def __init__(self, items: Mapping[str, BaseGeometry]) -> None:
        self._names = tuple(items)
        self._shapes = np.array([items[n] for n in self._names], dtype=object)
        self._tree = shapely.STRtree(self._shapes) if len(self._names) > SMALL_INDEX else None
        self._bounds = shapely.bounds(self._shapes).reshape(-1, 4)
        self._boxes: list[tuple[float, float, float, float]] = [tuple(b) for b in self._bounds.tolist()]
        self._corners: list[list[XY] | None] | None = None

    def __len__(self) -> int:
        return len(self._names)

    def _convex_corners(self) -> list[list[XY] | None]:
        """Each shape's corners where it is a convex polygon, else None (worked out once)."""
        if self._corners is None:
            self._corners = [convex_corners(shape) for shape in self._shapes]
        return self._corners

    def _near(self, shape: BaseGeometry, tolerance: float, skip: frozenset[str] = frozenset(),
              corners: Sequence[XY] | None = None,
              deep_for: frozenset[str] | None = None) -> tuple[list[int], list[float], set[int]]:
        """The indices of the shapes within ``tolerance`` of ``shape`` (by name), less those
        named in ``skip``, and their distances from ``shape``. ``corners``: ``shape``'s, where
        it is a convex polygon: a convex shape at distance 0 found deep inside it (``deep_overlap``)
        is overlapping without being shrunk: the third part, the indices of those, looked for
        among the names in ``deep_for`` only (None: all)."""
        if not self._names or (corners is None and shape.is_empty):
            return [], [], set()
        if corners is not None:  # the envelope of the corners: the shape's bounds, without asking shapely
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        else:
            x0, y0, x1, y1 = shape.bounds
        lo_x, lo_y, hi_x, hi_y = x0 - tolerance, y0 - tolerance, x1 + tolerance, y1 + tolerance
        if self._tree is not None:
            found = self._tree.query(shapely.box(lo_x, lo_y, hi_x, hi_y))  # envelopes only: may over-report
            candidates: list[int] = found.tolist()
        else:  # the tree's own test, envelope against envelope, on a handful of shapes
            candidates = self._boxed(lo_x, lo_y, hi_x, hi_y)
        names = self._names
        # Plain lists from here: a handful of items, where numpy's per-item cost would dominate.
        if skip:
            candidates = [i for i in candidates if names[i] not in skip]
        if not candidates:
            return [], [], set()
        # shapely.distance of each, by the method: shapely 2.2's method takes a scalar's path (a
        # tenth of the array function's overhead, for the handful of shapes found here)
        shapes = self._shapes
        gaps = [float(shapes[i].distance(shape)) for i in candidates]
        near = sorted((names[i], i, g) for i, g in zip(candidates, gaps) if g <= tolerance)
        deep: set[int] = set()
        if corners is not None:  # (shapely's distance need not be 0 where shapes overlap: it decides first)
            members = self._convex_corners()
            deep = {i for name, i, g in near
                    if g == 0 and (deep_for is None or name in deep_for) and (other := members[i]) is not None
                    and deep_overlap(corners, other, tolerance)}
        return [i for _, i, _ in near], [g for _, _, g in near], deep

    def _boxed(self, lo_x: float, lo_y: float, hi_x: float, hi_y: float) -> list[int]:
        """The indices of the shapes whose envelopes meet the box (edges included), in order."""
        return [i for i, (x0, y0, x1, y1) in enumerate(self._boxes)
                if not (lo_x > x1 or hi_x < x0 or lo_y > y1 or hi_y < y0)]

    def clear_of(self, points: Sequence[XY], tolerance: float = TOLERANCE,
                 skip: frozenset[str] = frozenset()) -> bool:
        """Whether no shape (less those in ``skip``) can come within ``tolerance`` of the
        polygon with these corners, by the envelopes alone: where this is True, ``near`` and
        ``contacts`` of that polygon find nothing, and the polygon need not be made."""
        if self._tree is not None:
            return False  # the tree's own lookup decides; no shortcut
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        found = self._boxed(min(xs) - tolerance, min(ys) - tolerance, max(xs) + tolerance, max(ys) + tolerance)
        names = self._names
        return all(names[i] in skip for i in found)

    def near(self, shape: BaseGeometry, tolerance: float = TOLERANCE) -> list[str]:
        """Names of the shapes within ``tolerance`` of ``shape`` (touching or overlapping), sorted."""
        return [self._names[i] for i in self._near(shape, tolerance)[0]]

    def contacts(self, shape: BaseGeometry, tolerance: float = TOLERANCE,
                 skip: frozenset[str] = frozenset(), corners: Sequence[XY] | None = None) -> dict[str, Contact]:
        """Every shape that touches or overlaps ``shape``, by name (sorted), with its contact;
        ``skip``: names left out (not even tested); ``corners``: ``shape``'s, where the caller
        knows it is a convex polygon with these corners (the answer is the same; it may come
        sooner)."""
        found, gaps, deep = self._near(shape, tolerance, skip, corners)
        return {self._names[i]: Contact.OVERLAPPING if i in deep else
                _classified(self._shapes[i], shape, gap, tolerance) for i, gap in zip(found, gaps)}

    def gaps(self, shape: BaseGeometry, tolerance: float = TOLERANCE, skip: frozenset[str] = frozenset(),
             corners: Sequence[XY] | None = None,
             deep_for: frozenset[str] | None = None) -> list[tuple[str, BaseGeometry, float, bool]]:
        """(name, shape, distance, deep) of every shape within ``tolerance`` of ``shape``, by name,
        less those in ``skip``: what ``contacts`` classifies, for a caller that classifies only
        some (``contact_at`` classifies one as ``contacts`` would; deep: found overlapping already,
        looked for among ``deep_for`` only, where given: the shapes the caller classifies so)."""
        found, gaps, deep = self._near(shape, tolerance, skip, corners, deep_for)
        return [(self._names[i], self._shapes[i], gap, i in deep) for i, gap in zip(found, gaps)]


def _convex_parts(shape: BaseGeometry) -> list[Polygon]:
    parts = list(getattr(shape, "geoms", [shape]))
    if not all(isinstance(p, Polygon) and not p.interiors and p.convex_hull.area - p.area <= 1e-9 * max(1.0, p.area)
               for p in parts):
        raise ValueError("signed_gap needs convex polygons; pass a shape made of convex parts part by part")
    return parts


def _penetration(a: Polygon, b: Polygon) -> float:
    """How far two convex polygons reach into each other: the least overlap of their
    projections over every edge normal of either (separating axes); 0 or less when apart."""
    depth = math.inf
    points_a = np.asarray(a.exterior.coords[:-1])
    points_b = np.asarray(b.exterior.coords[:-1])
    for points in (points_a, points_b):
        edges = np.roll(points, -1, axis=0) - points
        lengths = np.hypot(edges[:, 0], edges[:, 1])
        for (ex, ey), length in zip(edges, lengths):
            if length <= 0:
                continue
            normal = np.array((-ey / length, ex / length))
            on_a, on_b = points_a @ normal, points_b @ normal
            depth = min(depth, min(on_a.max(), on_b.max()) - max(on_a.min(), on_b.min()))
    return float(depth)


def signed_gap(a: BaseGeometry, b: BaseGeometry) -> float:
    """The gap between two outlines, signed: the distance between them when apart,
    minus how deep they reach into each other when they overlap, 0 exactly touching.
    Each shape is a convex polygon or a collection of convex polygons (the gap of a
    collection is the least over its parts). Continuous through contact, so a piece
    slid towards another can be put on the touching boundary by bisection;
    ``classify`` calls a signed gap within ``TOLERANCE`` of 0 touching."""
    best = math.inf
    for part_a in _convex_parts(a):
        for part_b in _convex_parts(b):
            gap = float(part_a.distance(part_b))
            best = min(best, gap if gap > 0 else -max(0.0, _penetration(part_a, part_b)))
    return best


# --- convex solids ------------------------------------------------------------------

XYZ = tuple[float, float, float]


# Every figure below is worked out element by element, x*x + y*y + z*z and the like summed in
# that order: no fused or reordered sums (as a matrix product may do), so each is the float the
# plain scalar formula gives, however the work is laid out.

@functools.lru_cache(maxsize=16)
def _combinations(n: int) -> tuple[np.ndarray, ...]:
    """The pairs (i < j) and triples (i < j < k) of n corners, as columns of indices."""
    pairs = np.asarray(list(itertools.combinations(range(n), 2)), dtype=int).reshape(-1, 2)
    triples = np.asarray(list(itertools.combinations(range(n), 3)), dtype=int).reshape(-1, 3)
    return pairs[:, 0], pairs[:, 1], triples[:, 0], triples[:, 1], triples[:, 2]


def _cross(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    (a0, a1, a2), (b0, b1, b2) = a, b
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


def _units(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The vectors (x, y, z) scaled to length 1, and which were long enough (1e-12) to keep."""
    length = np.sqrt(x * x + y * y + z * z)
    keep = length >= 1e-12
    length = length[keep]
    return x[keep] / length, y[keep] / length, z[keep] / length, keep


@dataclass(frozen=True)
class _Solid:
    """A convex solid's corners (as columns), the unit normals of its faces (every plane through
    three corners with all corners on one side), and the directions between two corners."""

    xyz: tuple[np.ndarray, np.ndarray, np.ndarray]
    normals: tuple[np.ndarray, np.ndarray, np.ndarray]
    directions: tuple[np.ndarray, np.ndarray, np.ndarray]


@functools.lru_cache(maxsize=4096)
def _solid(points: tuple[XYZ, ...]) -> _Solid:
    corners = np.asarray(points, dtype=float).reshape(-1, 3)
    x, y, z = corners[:, 0], corners[:, 1], corners[:, 2]
    pi, pj, ti, tj, tk = _combinations(len(points))
    nx, ny, nz, keep = _units(*_cross((x[tj] - x[ti], y[tj] - y[ti], z[tj] - z[ti]),
                                      (x[tk] - x[ti], y[tk] - y[ti], z[tk] - z[ti])))
    i = ti[keep]
    offsets = (nx[:, None] * (x[None, :] - x[i][:, None]) + ny[:, None] * (y[None, :] - y[i][:, None])) + (
        nz[:, None] * (z[None, :] - z[i][:, None]))
    faces = (offsets.min(axis=1) >= -TOLERANCE) | (offsets.max(axis=1) <= TOLERANCE)
    return _Solid((x, y, z), (nx[faces], ny[faces], nz[faces]), (x[pj] - x[pi], y[pj] - y[pi], z[pj] - z[pi]))


def _gaps(axes: tuple[np.ndarray, np.ndarray, np.ndarray], a: _Solid, b: _Solid) -> np.ndarray:
    """For each axis (unit), the gap between the two solids' extents along it."""
    ux, uy, uz = (v[:, None] for v in axes)
    (ax, ay, az), (bx, by, bz) = a.xyz, b.xyz
    on_a = (ux * ax[None, :] + uy * ay[None, :]) + uz * az[None, :]
    on_b = (ux * bx[None, :] + uy * by[None, :]) + uz * bz[None, :]
    gaps: np.ndarray = np.maximum(on_b.min(axis=1) - on_a.max(axis=1), on_a.min(axis=1) - on_b.max(axis=1))
    return gaps


def _crossed_axes(a: _Solid, b: _Solid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every cross product of a direction of ``a`` with one of ``b``, scaled to length 1."""
    da = tuple(v[:, None] for v in a.directions)
    db = tuple(v[None, :] for v in b.directions)
    x, y, z = (v.ravel() for v in _cross(da, db))
    ux, uy, uz, _ = _units(x, y, z)
    return ux, uy, uz


def solid_separation(a: Sequence[XYZ], b: Sequence[XYZ]) -> float:
    """How far apart two convex solids (each the hull of its corners) are along the axis
    that separates them best: positive when a gap lies between them, about zero when they
    touch, and minus the least push that would part them when they overlap. The axes tried
    are the separating-axis theorem's: every face normal of either solid and every cross
    product of a direction between two corners of one with one of the other (a superset of
    their edges, which can only find the same answer)."""
    sa, sb = _solid(tuple(a)), _solid(tuple(b))
    return float(_gaps(_every_axis(sa, sb), sa, sb).max())


def _every_axis(a: _Solid, b: _Solid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face normals of ``a``, then those of ``b``, then ``_crossed_axes``: in one array, so
    that their gaps are worked out at once (each the same float as alone: element by element)."""
    crossed = _crossed_axes(a, b)
    x, y, z = (np.concatenate((na, nb, c)) for na, nb, c in zip(a.normals, b.normals, crossed))
    return x, y, z


def classify_solids(a: Sequence[XYZ], b: Sequence[XYZ], tolerance: float = TOLERANCE) -> Contact:
    """Apart, touching or overlapping for two convex solids given by their corners, with the
    same tolerance as ``classify``: overlapping when they could be parted only by a push of
    more than ``tolerance``, apart when more than ``tolerance`` lies between them. (The
    ``solid_separation`` above.)"""
    gap = solid_separation(a, b)
    if gap > tolerance:
        return Contact.APART
    return Contact.TOUCHING if gap >= -tolerance else Contact.OVERLAPPING


# A face plane of a convex solid: its unit normal (x, y, z), pointing into the solid, and its
# offset: the solid lies where normal . point >= offset.
Plane = tuple[float, float, float, float]


def solid_planes(points: Sequence[XYZ]) -> tuple[Plane, ...]:
    """The face planes of the convex solid with these corners (each once): every plane through
    three corners with all the corners on one side of it."""
    planes: list[Plane] = []
    for (x0, y0, z0), (x1, y1, z1), (x2, y2, z2) in itertools.combinations(points, 3):
        ax, ay, az, bx, by, bz = x1 - x0, y1 - y0, z1 - z0, x2 - x0, y2 - y0, z2 - z0
        nx, ny, nz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        length = math.sqrt(nx * nx + ny * ny + nz * nz)
        if length < 1e-12:
            continue
        nx, ny, nz = nx / length, ny / length, nz / length
        offset = nx * x0 + ny * y0 + nz * z0
        heights = [nx * x + ny * y + nz * z - offset for x, y, z in points]
        if min(heights) >= -1e-9:
            plane = (nx, ny, nz, offset)
        elif max(heights) <= 1e-9:
            plane = (-nx, -ny, -nz, -offset)
        else:
            continue
        if all(sum(abs(p - q) for p, q in zip(plane, known)) > 1e-9 for known in planes):
            planes.append(plane)
    return tuple(planes)


def _common_part(a: Sequence[XY], b: Sequence[XY]) -> list[XY]:
    """The corners of the common part of two convex polygons, both counter-clockwise
    (Sutherland-Hodgman: ``a`` clipped by each edge of ``b``); fewer than 3 where they share no area."""
    part: Sequence[XY] = a
    for (px, py), (qx, qy) in zip(b, [*b[1:], b[0]]):
        ex, ey = qx - px, qy - py
        kept: list[XY] = []
        n = len(part)
        for i in range(n):
            (sx, sy), (tx, ty) = part[i - 1], part[i]
            s_in, t_in = ex * (sy - py) - ey * (sx - px), ex * (ty - py) - ey * (tx - px)
            if t_in >= 0:
                if s_in < 0:
                    k = s_in / (s_in - t_in)
                    kept.append((sx + k * (tx - sx), sy + k * (ty - sy)))
                kept.append((tx, ty))
            elif s_in >= 0:
                k = s_in / (s_in - t_in)
                kept.append((sx + k * (tx - sx), sy + k * (ty - sy)))
        part = kept
        if len(part) < 3:
            return []
    return list(part)


def _deep_above(planes: Sequence[Plane], x: float, y: float, depth: float) -> bool:
    """Whether some point straight above or below (x, y) lies more than ``depth`` inside every plane:
    the middle of the height the planes leave there is tried."""
    low, high = -math.inf, math.inf
    for nx, ny, nz, offset in planes:
        rest = offset - nx * x - ny * y
        if nz > 1e-9:
            low = max(low, rest / nz)
        elif nz < -1e-9:
            high = min(high, rest / nz)
        elif rest > -depth:
            return False
    if not low < high:
        return False
    z = (low + high) / 2
    return min(nx * x + ny * y + nz * z - offset for nx, ny, nz, offset in planes) > depth


def sure_solids_contact(a: Sequence[XYZ], planes_a: Sequence[Plane], b: Sequence[XYZ], planes_b: Sequence[Plane],
                        shadows: Sequence[tuple[Sequence[XY], Sequence[XY]]],
                        tolerance: float = TOLERANCE) -> Contact | None:
    """``classify_solids(a, b, tolerance)`` where the face planes (``solid_planes``) settle it
    beyond round-off, else None. Overlapping: a point lies more than 1.1 ``tolerance`` inside
    every face of both, so along every axis the solids' extents overlap by more than twice
    that. The points tried are above the middle of the common part of each pair of
    ``shadows`` (convex polygons in the plane, counter-clockwise, each under its solid: the
    faces they stand on, their outlines seen from above). Apart: along the normal of a face
    of either (an axis ``classify_solids`` tries) more than ``tolerance`` lies between them."""
    planes = [*planes_a, *planes_b]
    depth = 1.1 * tolerance
    for under_a, under_b in shadows:
        part = _common_part(under_a, under_b)
        if part and _deep_above(planes, sum(x for x, _ in part) / len(part), sum(y for _, y in part) / len(part),
                                depth):
            return Contact.OVERLAPPING
    clear = tolerance + 1e-9  # beyond the round-off of normals found another way
    for nx, ny, nz, _ in planes:
        on_a = [nx * x + ny * y + nz * z for x, y, z in a]
        on_b = [nx * x + ny * y + nz * z for x, y, z in b]
        if min(on_b) - max(on_a) > clear or min(on_a) - max(on_b) > clear:
            return Contact.APART
    return None


def clear_caches() -> None:
    """Forget every shape made once and kept (for benchmarks that time work done afresh)."""
    _SHRUNK.clear()
    _CORNERS.clear()
    _rectangle.cache_clear()
    _solid.cache_clear()
