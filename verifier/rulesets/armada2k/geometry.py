"""Where a step may go and what a cannon reaches: the geometry of Armada 2K.

A step puts a new piece with its stern centre on the old bow, at any heading. The
headings a step may take are found exactly: between two headings where some
footprint corner meets some obstacle edge, or some obstacle corner meets a
footprint edge (the critical headings), the contact of every pair stays the same,
so testing one heading inside each gap, and the critical headings themselves,
gives the allowed set as intervals with their ends.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from verifier.kept import KeptFor
from verifier.kit.geometry import (
    SMALL_INDEX,
    TOLERANCE,
    Contact,
    Pose,
    ShapeIndex,
    _cos_sin,
    classify,
    contact_at,
    convex_corners,
    deep_overlap,
    outline,
)
from verifier.kit.memo import Recent
from verifier.ruleset import NotedReading

from .model import (
    ANGLE_TOLERANCE,
    SOLID_READINGS,
    TEMPLATES,
    XY,
    Interval,
    Scene,
    Ship,
    area_shape,
    bow,
    flag_shape,
    footprint,
    footprint_corners,
    obstacle_shape,
    resting,
    solids_contact,
)

Key = TypeVar("Key")
Made = TypeVar("Made")

CONTACT = "contact"  # the reading point that says whether touching blocks a step
SOLID_SAMPLE = 0.25  # degrees: where pieces meet as solids, a fan tests headings this far apart, then bisects


@dataclass(frozen=True, slots=True)
class StepCheck:
    """What placing the new piece at one heading meets."""

    heading: float
    old: Contact  # with the piece being moved
    overlapping: tuple[str, ...]
    touching: tuple[str, ...]
    edge: Contact  # apart: clear of the edge; touching it; overlapping: reaching past it
    met: tuple[str, ...] = ()  # every piece the outline meets (within the tolerance), as solids or not

    def allowed(self, reading: Mapping[str, str], passable: frozenset[str] = frozenset()) -> bool:
        """Whether the step may be taken: of the reading, only ``CONTACT`` is asked."""
        if self.old is Contact.OVERLAPPING or (self.old is Contact.TOUCHING and reading[CONTACT] == "touch"):
            return False
        if self.edge is Contact.OVERLAPPING or (self.edge is Contact.TOUCHING and reading[CONTACT] == "touch"):
            return False
        if set(self.overlapping) - passable:
            return False
        return not (set(self.touching) - passable and reading[CONTACT] == "touch")


def _bearing(dx: float, dy: float) -> float:
    return math.degrees(math.atan2(dx, dy))


def _rel(angle: float) -> float:
    """An angle in (-180, 180]."""
    a = (angle + 180.0) % 360.0 - 180.0
    return 180.0 if a == -180.0 else a


class World:
    """The pieces a moving ship may meet: other ships, obstacles and flags, indexed."""

    def __init__(self, scene: Scene, ships: Mapping[str, Ship], footprint_reading: str) -> None:
        self.scene = scene
        self.area = scene.area
        self.reading = footprint_reading
        shapes: dict[str, BaseGeometry] = {}
        self.ships = {name: ships[name] for name in sorted(ships) if not ships[name].sunk}
        for name, ship in self.ships.items():
            shapes[name] = footprint(ship, footprint_reading)
        for obstacle in sorted(scene.obstacles, key=lambda o: o.name):
            shapes[obstacle.name] = obstacle_shape(obstacle)
        for flag in sorted(scene.flags, key=lambda f: f.player):
            shapes[flag.name] = flag_shape(flag)
        self.shapes = shapes
        self.obstacles = frozenset(o.name for o in scene.obstacles)
        self.flags = {flag.name: flag for flag in scene.flags}
        self.index = ShapeIndex(shapes)
        # Each piece as the index holds it (name, shape, envelope), in its order: in a world too
        # small for the index's tree, a step's check finds what its piece meets by going through
        # these as the index would, without its per-call overheads.
        self._members = _members(shapes) if len(shapes) <= SMALL_INDEX else None
        self._convex: dict[str, list[XY] | None] = {}  # a piece's corners where it is convex, by name
        # Under a reading of solids: the same pieces by the faces they rest on, at table level.
        self.table = world_of(scene, ships, resting(footprint_reading)) if footprint_reading in SOLID_READINGS else None
        self.area_polygon = None if self.area.is_circle else area_shape(self.area)
        # What was worked out in this world before, for every reading that shares it: a
        # step's check by (ship, heading, excluded names), the critical headings by (ship, names).
        self.steps: dict[tuple[Ship, float, frozenset[str]], StepCheck] = {}
        self.critical: dict[tuple[Ship, tuple[str, ...]], list[float]] = {}
        self.airs: dict[tuple[Ship, frozenset[str], float], bool] = {}  # in_the_air by (ship, excluded, turn)
        self.looks: dict[tuple[object, ...], object] = {}  # the resolver's looks along a side (resolver._look)
        self.cuts: dict[tuple[Ship, frozenset[str]], tuple[tuple[float, ...], bool]] = {}  # _cuts by (ship, excluded)
        # fan and has_step by (ship, excluded, passable), each with the options of the reading it looked up
        self.fans: dict[tuple[Ship, frozenset[str], frozenset[str]], list[tuple[Pins, Fan]]] = {}
        self.has_steps: dict[tuple[Ship, frozenset[str], frozenset[str]], list[tuple[Pins, bool]]] = {}
        self._bows: dict[Ship, XY] = {}

    def bow(self, ship: Ship) -> XY:
        """The ship's bow under this world's footprint: where its next step's stern goes."""
        known = self._bows.get(ship)
        if known is None:
            known = self._bows[ship] = bow(ship, self.reading)
        return known

    def edge_contact(self, shape: Polygon) -> Contact:
        """How a piece meets the edge of the playing area."""
        if self.area.is_circle:
            return self.round_edge_contact(shapely.get_coordinates(shape).tolist())
        assert self.area_polygon is not None
        if not _grown(self.area_polygon).contains(shape):
            return Contact.OVERLAPPING
        return _gap_contact(shape.distance(self.area_polygon.exterior))

    def round_edge_contact(self, corners: list[XY]) -> Contact:
        """How a polygon with these corners meets the edge of a round playing area."""
        (cx, cy), radius = self.area.centre, self.area.radius
        if radius > 2 * TOLERANCE and max((x - cx) * (x - cx) + (y - cy) * (y - cy) for x, y in corners) < (
                radius - 2 * TOLERANCE) ** 2:
            return Contact.APART  # well inside: no round-off brings a corner within the tolerance
        return _gap_contact(radius - max(math.hypot(x - cx, y - cy) for x, y in corners))

    def boxed(self, corners: list[XY], skip: frozenset[str]) -> list[Member] | None:
        """The pieces (less those in ``skip``) whose envelopes come within the tolerance of the
        envelope of these corners, in the index's order, as ``ShapeIndex`` finds them (empty: its
        ``clear_of`` holds); None in a world of many pieces, where the index's tree looks."""
        if self._members is None:
            return None
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        lo_x, lo_y, hi_x, hi_y = min(xs) - TOLERANCE, min(ys) - TOLERANCE, max(xs) + TOLERANCE, max(ys) + TOLERANCE
        return [member for member in self._members
                if not (lo_x > member[2][2] or hi_x < member[2][0] or lo_y > member[2][3] or hi_y < member[2][1])
                and member[0] not in skip]

    def _gaps(self, shape: Polygon, corners: list[XY], candidates: list[Member],
              deep_for: frozenset[str] | None) -> list[tuple[str, BaseGeometry, float, bool]]:
        """``ShapeIndex.gaps`` of a convex shape with these corners among the ``boxed`` candidates:
        (name, shape, distance, deep) of each within the tolerance, by name."""
        near = []
        for name, other, _ in candidates:
            gap = float(other.distance(shape))  # shapely.distance(other, shape), by the method: a scalar's path
            if gap <= TOLERANCE:
                other_corners = self.convex(name) if gap == 0 and (deep_for is None or name in deep_for) else None
                deep = other_corners is not None and deep_overlap(corners, other_corners, TOLERANCE)
                near.append((name, other, gap, deep))
        return sorted(near, key=lambda found: found[0])

    def convex(self, name: str) -> list[XY] | None:
        """``convex_corners`` of the named piece's shape, worked out once."""
        if name not in self._convex:
            self._convex[name] = convex_corners(self.shapes[name])
        return self._convex[name]

    def contacts(self, shape: Polygon, exclude: frozenset[str], piece: tuple[str, Pose] | None = None,
                 corners: list[XY] | None = None,
                 candidates: list[Member] | None = None) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """(overlapping, touching, met in outline) names, sorted. ``piece`` (size, pose) is the solid whose
        outline ``shape`` is: under a reading of solids, ships it meets in outline are
        tested again as solids (obstacles stand up from the table and flags lie flat on it,
        so the outline decides for them: see ``resting`` for the flags). ``corners``: the
        outline's, where the caller has them (the answer is the same); ``candidates``: what
        ``boxed`` found for them and ``exclude``, where the caller has that too."""
        if corners is not None and candidates is None:
            candidates = self.boxed(corners, exclude)
        if piece is not None and self.reading in SOLID_READINGS:
            # Ships and flags met in outline are classified again (as solids, by the resting
            # face), so their outlines need only be found.
            flags = self.flags
            found = {}
            met = self.index.gaps(shape, skip=exclude, corners=corners, deep_for=self.obstacles) if (
                candidates is None or corners is None) else self._gaps(shape, corners, candidates, self.obstacles)
            for name, other_shape, gap, deep in met:
                if name in self.ships:
                    other = self.ships[name]
                    found[name] = solids_contact(piece, (other.size, other.pose))
                elif name in flags:
                    table = footprint(Ship("", "", piece[0], (0.0, 0.0), 0.0), resting(self.reading), piece[1])
                    found[name] = classify(table, flag_shape(flags[name]))
                else:
                    found[name] = Contact.OVERLAPPING if deep else contact_at(other_shape, shape, gap)
        elif candidates is None or corners is None:
            found = self.index.contacts(shape, skip=exclude, corners=corners)
        else:
            found = {name: Contact.OVERLAPPING if deep else contact_at(other_shape, shape, gap)
                     for name, other_shape, gap, deep in self._gaps(shape, corners, candidates, None)}
        return (tuple(n for n, c in found.items() if c is Contact.OVERLAPPING),
                tuple(n for n, c in found.items() if c is Contact.TOUCHING), tuple(found))


Member = tuple[str, BaseGeometry, tuple[float, ...]]  # a piece's name, shape and envelope


def _members(shapes: Mapping[str, BaseGeometry]) -> list[Member]:
    """The shapes with their envelopes (``shapely.bounds``, as ``ShapeIndex`` finds them), in order."""
    if not shapes:
        return []
    boxes = shapely.bounds(list(shapes.values())).tolist()
    return [(name, shape, tuple(box)) for (name, shape), box in zip(shapes.items(), boxes)]


def _gap_contact(gap: float) -> Contact:
    return Contact.APART if gap > TOLERANCE else Contact.TOUCHING if gap >= -TOLERANCE else Contact.OVERLAPPING


_WORLDS: Recent[World] = Recent(16)


def world_of(scene: Scene, ships: Mapping[str, Ship], footprint_reading: str) -> World:
    """The World of these pieces under this footprint reading, made once: the resolutions of
    one scene under its other readings (the explorer's, fuzz's) meet the same worlds again,
    and what a World works out depends on nothing but its pieces and the footprint. The
    pieces are keyed in the order the World takes them in (by name), not as the case lists
    them: a scene listed the other way round meets the same World."""
    key = (scene.area, tuple(sorted(scene.obstacles, key=lambda o: o.name)),
           tuple(sorted(scene.flags, key=lambda f: f.player)), tuple(ships[name] for name in sorted(ships)),
           footprint_reading)
    return _WORLDS.get(key, lambda: World(scene, ships, footprint_reading))


def forget_worlds() -> None:
    _WORLDS.clear()
    _grown.cache_clear()
    _GROWN.clear()
    firing_area.cache_clear()


@lru_cache(maxsize=64)
def _grown(area: Polygon) -> Polygon:
    return area.buffer(TOLERANCE)


_GROWN: KeptFor[Polygon] = KeptFor(1024)  # firing areas grown before, by shape (they are kept: firing_area)


def grown(shape: Polygon) -> Polygon:
    """``shape.buffer(TOLERANCE)``, made once per shape object."""
    return _GROWN.get(shape, lambda: shape.buffer(TOLERANCE))


def old_piece_limit(ship: Ship, footprint_reading: str) -> float:
    """The largest turn (degrees) at which the new piece does not overlap the old one:
    the new piece fills the half plane ahead of its stern edge near the old bow, the old
    piece the wedge behind the bow; they first share more than a point at 90 degrees
    less half the bow angle. As solids, the new piece leans forward away from its stern
    edge and the old one's raised edge lies well behind its tip, so they first meet on
    the table, where the faces they rest on meet: the bow angle is the resting face's."""
    return _old_piece_limit(ship.size, footprint_reading)


@lru_cache(maxsize=16)
def _old_piece_limit(size: str, footprint_reading: str) -> float:
    return 90.0 - TEMPLATES[(size, resting(footprint_reading))].bow_half_angle


def check_step(ship: Ship, heading: float, world: World, exclude: frozenset[str]) -> StepCheck:
    key = (ship, heading, exclude)
    known = world.steps.get(key)
    if known is None:
        known = world.steps[key] = _check_step(ship, heading, world, exclude)
    return known


def _check_step(ship: Ship, heading: float, world: World, exclude: frozenset[str]) -> StepCheck:
    limit = old_piece_limit(ship, world.reading)
    turn = abs(_rel(heading - ship.heading))
    old = Contact.APART if turn < limit - ANGLE_TOLERANCE else (
        Contact.TOUCHING if turn <= limit + ANGLE_TOLERANCE else Contact.OVERLAPPING)
    x, y = world.bow(ship)
    skip = exclude | {ship.name}
    # The footprint's corners, as ``footprint`` works them out at Pose(x, y, heading) (its
    # transform's sums, with no Pose or Rigid made): most headings of a fan meet nothing,
    # which the envelopes show without a shape made or measured.
    c, s = _cos_sin(heading)
    corners = [(px * c + py * s + x, -px * s + py * c + y) for px, py in TEMPLATES[(ship.size, world.reading)].points]
    candidates = world.boxed(corners, skip)
    if world.area.is_circle and (not candidates if candidates is not None else world.index.clear_of(corners,
                                                                                                    skip=skip)):
        return StepCheck(heading % 360.0, old, (), (), world.round_edge_contact(corners))
    shape = outline(corners)  # as footprint(ship, world.reading, pose) makes it, without keeping it
    overlapping, touching, met = world.contacts(shape, skip, (ship.size, Pose(x, y, heading)), corners, candidates)
    edge = world.round_edge_contact(corners) if world.area.is_circle else world.edge_contact(shape)
    return StepCheck(heading % 360.0, old, overlapping, touching, edge, met)


def _solve(a: float, c: float, offset: float) -> list[float]:
    """Angles t with a*cos(t - offset) = c (degrees)."""
    if a <= 1e-12 or abs(c) > a + 1e-12:
        return []
    w = math.degrees(math.acos(max(-1.0, min(1.0, c / a))))
    return [offset + w, offset - w]


def _edges(points: list[XY]) -> list[tuple[XY, XY]]:
    return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]


def _line(a: XY, b: XY, origin: XY) -> tuple[float, float] | None:
    """(normal bearing, offset) of the line through a and b, measured from ``origin``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-12:
        return None
    nx, ny = dy / length, -dx / length
    return _bearing(nx, ny), nx * (a[0] - origin[0]) + ny * (a[1] - origin[1])


def critical_headings(ship: Ship, world: World, names: list[str]) -> list[float]:
    """Compass headings of the new piece at which a corner meets an edge, for the named
    pieces and the area's edge."""
    key = (ship, tuple(names))
    if key not in world.critical:
        world.critical[key] = _critical_headings(ship, world, names)
    return list(world.critical[key])


def _critical_headings(ship: Ship, world: World, names: list[str]) -> list[float]:
    template = TEMPLATES[(ship.size, world.reading)]
    p = bow(ship, world.reading)
    local = list(template.points)
    corners = [(math.hypot(x, y), _bearing(x, y)) for x, y in local]
    sides = [line for line in (_line(a, b, (0.0, 0.0)) for a, b in _edges(local)) if line]
    found: list[float] = []

    def against(points: list[XY]) -> None:
        for qx, qy in points:  # their corner on our edge
            r, phi = math.hypot(qx - p[0], qy - p[1]), _bearing(qx - p[0], qy - p[1])
            for psi, c in sides:
                found.extend(_solve(r, c, phi - psi))
        for a, b in _edges(points):  # our corner on their edge
            line = _line(a, b, p)
            if line:
                for rv, psi_v in corners:
                    found.extend(_solve(rv, line[1], line[0] - psi_v))

    for name in names:
        shape = world.shapes[name]
        against(list(shape.exterior.coords)[:-1])
    if world.area.is_circle:
        (cx, cy), radius = world.area.centre, world.area.radius
        dx, dy = p[0] - cx, p[1] - cy
        dist, delta = math.hypot(dx, dy), _bearing(dx, dy)
        if dist + template.reach >= radius - 1e-3 and dist > 1e-12:
            for rv, psi_v in corners:
                found.extend(_solve(2 * rv * dist, radius * radius - dist * dist - rv * rv, delta - psi_v))
            for psi, c in sides:  # an edge of ours tangent to the circle
                cdist, cbear = math.hypot(cx - p[0], cy - p[1]), _bearing(cx - p[0], cy - p[1])
                for k in (c + radius, c - radius):
                    found.extend(_solve(cdist, k, cbear - psi))
    else:
        assert world.area_polygon is not None
        against(list(world.area_polygon.exterior.coords)[:-1])
    return found


def _cuts(ship: Ship, world: World, exclude: frozenset[str]) -> tuple[list[float], bool]:
    """The turns from the ship's heading that its fan tests (and the gaps between them), before
    any found between them where solids meet in the air; and whether solids may meet so (a
    ship or flag within a step's reach, under a reading of solids). Kept in the world."""
    key = (ship, exclude)
    known = world.cuts.get(key)
    if known is None:
        cuts, solids = _new_cuts(ship, world, exclude)
        known = world.cuts[key] = (tuple(cuts), solids)
    return list(known[0]), known[1]


def _new_cuts(ship: Ship, world: World, exclude: frozenset[str]) -> tuple[list[float], bool]:
    limit = old_piece_limit(ship, world.reading)
    p = bow(ship, world.reading)
    reach = TEMPLATES[(ship.size, world.reading)].reach
    names = [n for n in world.index.near(Point(p), tolerance=reach + 1e-3) if n not in exclude and n != ship.name]
    rel = {-limit, limit}
    for h in critical_headings(ship, world, names):
        d = _rel(h - ship.heading)
        if -limit < d < limit:
            rel.add(d)
    cuts = sorted(rel)
    merged = [cuts[0]]
    for c in cuts[1:]:
        if c - merged[-1] > ANGLE_TOLERANCE:
            merged.append(c)
    cuts = merged
    flags = world.flags
    if world.table is None or not any(n in world.ships or n in flags for n in names):
        return cuts, False
    for h in critical_headings(ship, world.table, [n for n in names if n in world.table.shapes]):
        d = _rel(h - ship.heading)
        if -limit < d < limit:
            cuts.append(d)  # where the faces on the table start or stop meeting
    return sorted(cuts), True


Pins = tuple[tuple[str, str], ...]  # reading points looked up, in the order first looked up, with their options
Fan = tuple[tuple[Interval, ...], tuple[StepCheck, ...]]


def _by_reading(kept: dict[Key, list[tuple[Pins, Made]]], key: Key, reading: Mapping[str, str],
                make: Callable[[Mapping[str, str]], Made]) -> Made:
    """``make(reading)``, kept under ``key`` with the options of the points it looked up in the
    reading, and given again under a reading that agrees on them. The points are looked up
    again in the order ``make`` first looked them up, as far as they agree: ``make`` looks up
    its first point whatever the options, and each next one by those before, so a reading
    that notes what is asked (``NotedReading``) notes what ``make`` itself would have."""
    for pins, made in kept.get(key, ()):
        if all(reading[point] == option for point, option in pins):
            return made
    noted = NotedReading(reading)
    made = make(noted)
    kept.setdefault(key, []).append((tuple((point, reading[point]) for point in noted.asked), made))
    return made


def fan(ship: Ship, world: World, reading: Mapping[str, str], exclude: frozenset[str] = frozenset(),
        passable: frozenset[str] = frozenset()) -> Fan:
    """The headings the ship's next step may take, as intervals, and the checks at the
    ends of the intervals where something touches (for the record). Kept in the world, by
    the options of the reading that it looked up."""
    return _by_reading(world.fans, (ship, exclude, passable), reading,
                       lambda noted: _fan(ship, world, noted, exclude, passable))


def _fan(ship: Ship, world: World, reading: Mapping[str, str], exclude: frozenset[str],
         passable: frozenset[str]) -> Fan:
    cuts, solids = _cuts(ship, world, exclude)

    def ok(d: float) -> tuple[bool, StepCheck]:
        check = check_step(ship, ship.heading + d, world, exclude)
        return check.allowed(reading, passable), check

    if solids:
        cuts = _solid_cuts(cuts, lambda d: ok(d)[0], lambda d: in_the_air(ship, world, exclude, d))

    points = [ok(c) for c in cuts]
    gaps = [ok((a + b) / 2)[0] for a, b in zip(cuts, cuts[1:])]
    # Points and the gaps between them in order: (lo, hi, is_point, allowed).
    elements = []
    for i, c in enumerate(cuts):
        elements.append((c, c, True, points[i][0]))
        if i < len(gaps):
            elements.append((c, cuts[i + 1], False, gaps[i]))
    spans: list[tuple[float, float, bool, bool]] = []
    run: list[tuple[float, float, bool, bool]] = []
    for element in elements + [(0.0, 0.0, True, False)]:
        if element[3]:
            run.append(element)
            continue
        if run:
            spans.append((run[0][0], run[-1][1], run[0][2], run[-1][2]))
        run = []
    intervals = tuple(Interval(round((ship.heading + lo) % 360.0, 9), round((ship.heading + lo) % 360.0, 9)
                               + (hi - lo), lc, hc) for lo, hi, lc, hc in spans)
    touches = tuple(check for allowed, check in points
                    if check.touching or check.edge is Contact.TOUCHING or check.old is Contact.TOUCHING)
    return intervals, touches


def has_step(ship: Ship, world: World, reading: Mapping[str, str], exclude: frozenset[str] = frozenset(),
             passable: frozenset[str] = frozenset()) -> bool:
    """Whether ``fan`` allows some heading (``_has_step``), kept in the world by the options of
    the reading that it looked up."""
    return _by_reading(world.has_steps, (ship, exclude, passable), reading,
                       lambda noted: _has_step(ship, world, noted, exclude, passable))


def _has_step(ship: Ship, world: World, reading: Mapping[str, str], exclude: frozenset[str],
              passable: frozenset[str]) -> bool:
    """Whether ``fan`` allows some heading: found sooner where one of the headings it tests
    before any others is allowed (its cuts, and the gaps between them that no meeting of
    solids in the air splits: each of them is tested by the fan as it is). What is asked of
    the reading on the way is a part of what the fan asks; it stops early only once it has
    asked for the contact reading, which the fan asks for (at its first cut, where the new
    piece touches the old one), so that a reading that notes what is asked notes the same."""
    cuts, solids = _cuts(ship, world, exclude)
    noted = NotedReading(reading)

    def allowed(d: float) -> bool:
        return check_step(ship, ship.heading + d, world, exclude).allowed(noted, passable)

    def settled(lo: float, hi: float) -> bool:
        return not solids or hi - lo <= ANGLE_TOLERANCE or not in_the_air(ship, world, exclude, (lo + hi) / 2)

    found = any(allowed(c) for c in cuts) or any(
        allowed((lo + hi) / 2) for lo, hi in zip(cuts, cuts[1:]) if settled(lo, hi))
    if found and CONTACT in noted.asked:
        return True
    return bool(fan(ship, world, reading, exclude, passable)[0])


def in_the_air(ship: Ship, world: World, exclude: frozenset[str], turn: float) -> bool:
    """Whether, turned by ``turn`` from the ship's heading, the new piece's outline meets some
    ship or flag that the face it rests on does not meet: only then may the solids meet
    otherwise than the outlines do. (Kept in the world, for every reading that shares it.)"""
    key = (ship, exclude, turn)
    known = world.airs.get(key)
    if known is None:
        known = world.airs[key] = _in_the_air(ship, world, exclude, turn)
    return known


def _in_the_air(ship: Ship, world: World, exclude: frozenset[str], turn: float) -> bool:
    # The step's check at this heading has found what the outline meets (a fan checks it anyway).
    flags = world.flags
    met = [n for n in check_step(ship, ship.heading + turn, world, exclude).met if n in world.ships or n in flags]
    if not met:
        return False
    x, y = world.bow(ship)
    pose = Pose(x, y, ship.heading + turn)
    table = world.table
    assert table is not None
    face = footprint(ship, resting(world.reading), pose)
    # ``overlapping(face, shape)`` of each, given the face's corners (its outline's own, which
    # ``overlapping`` would read back from the new shape)
    corners = footprint_corners(ship.size, resting(world.reading), pose)
    for name in met:
        shape = table.shapes[name]
        gap = float(face.distance(shape))
        if gap == 0 and (other := table.convex(name)) is not None and deep_overlap(corners, other, TOLERANCE):
            continue
        if contact_at(face, shape, gap) is not Contact.OVERLAPPING:
            return True
    return False


def _solid_cuts(cuts: list[float], allowed: Callable[[float], bool],
                in_the_air: Callable[[float], bool]) -> list[float]:
    """The critical headings of outlines and of resting faces do not catch where two solids
    start or stop meeting above the table (a raised edge passing over or into another piece).
    Between two cuts, where a piece meets the outline but not the resting face (the same all
    through the gap), headings are tested ``SOLID_SAMPLE`` apart and every change found is
    narrowed down by bisection."""
    found = list(cuts)
    for lo, hi in zip(cuts, cuts[1:]):
        if hi - lo <= ANGLE_TOLERANCE or not in_the_air((lo + hi) / 2):
            continue
        count = max(1, math.ceil((hi - lo) / SOLID_SAMPLE))
        probes = [lo + (hi - lo) * k / count for k in range(1, count)]
        states = [(d, allowed(d)) for d in probes]
        for (a, sa), (b, sb) in zip(states, states[1:]):
            if sa == sb:
                continue
            for _ in range(60):
                mid = (a + b) / 2
                if mid == a or mid == b:  # as near as floats go: every step left would change nothing
                    break
                if allowed(mid) == sa:
                    a = mid
                else:
                    b = mid
            found.append(b if not sb else a)  # the last heading of the blocked side, where they touch
    return sorted(set(found))


# --- firing -------------------------------------------------------------------------------


@lru_cache(maxsize=1024)  # the same shot is aimed under many readings, and its other placement looked at
def firing_area(ship: Ship, side: str, footprint_reading: str, placement: str) -> tuple[Polygon, XY]:
    """The area a large piece laid against ``side`` covers, and the middle of that side.
    The large lies with its resting edge on the table against the ship's side at table
    level; every long side of every size is longer than the large's base (1.04 in for a
    small under the upright reading, the shortest), so the whole base edge always fits."""
    template = TEMPLATES[(ship.size, resting(footprint_reading))]  # the side at table level
    large = TEMPLATES[("large", footprint_reading)]
    a, b = (ship.pose.apply(q) for q in template.side(side))
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    centroid = footprint(ship, resting(footprint_reading)).centroid
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    outward = _bearing(uy, -ux)
    if (mid[0] - centroid.x) * math.sin(math.radians(outward)) + (mid[1] - centroid.y) * math.cos(
            math.radians(outward)) < 0:
        outward += 180.0
    base = LARGE_BASE

    def laid(at: XY) -> Polygon:
        return outline(Pose(at[0], at[1], outward).transform.apply_all(large.points))

    if placement == "sliding":
        room = max(0.0, (length - base) / 2)
        ends = [laid((mid[0] + k * room * ux, mid[1] + k * room * uy)) for k in (-1, 1)]
        return ends[0].union(ends[1]).convex_hull, mid
    return laid(mid), mid


LARGE_BASE = 1.0  # the large's base width, which firing_area lays against the side
BEYOND = 1e-5  # how far past the reach of the firing area a target lies for beyond_reach: ten tolerances


def beyond_reach(ship: Ship, side: str, target: Ship, footprint_reading: str, placement: str) -> bool:
    """Whether the target lies well apart (``BEYOND``) from ``firing_area(ship, side, ...)``, shown
    without making it: the large laid at the middle of the side reaches no further from there
    than the large's reach, and the area of a sliding placement is the hull of the large laid at
    both ends of its slide, each at most half the slide from the middle. Where this is True the
    two are apart, and the area holds no part of the target under any target reading."""
    template = TEMPLATES[(ship.size, resting(footprint_reading))]  # the side at table level, as firing_area takes it
    (ax, ay), (bx, by) = (ship.pose.apply(q) for q in template.side(side))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    reach = TEMPLATES[("large", footprint_reading)].reach
    if placement == "sliding":
        reach += max(0.0, (math.dist((ax, ay), (bx, by)) - LARGE_BASE) / 2)
    corners = footprint_corners(target.size, footprint_reading, target.pose)
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    dx, dy = max(min(xs) - mx, mx - max(xs), 0.0), max(min(ys) - my, my - max(ys), 0.0)
    return math.hypot(dx, dy) > reach + BEYOND


def in_area(contact: Contact, whole: Callable[[], bool], reading: str) -> bool:
    """Whether the target lies in the area under the target reading, given how the two meet
    (``classify``) and (asked only where the reading needs it) whether the area, grown by the
    tolerance, holds all of the target."""
    if reading == "whole":
        return whole()
    if reading == "touch":
        return contact is not Contact.APART
    return contact is Contact.OVERLAPPING


def sight_line(mid: XY, area: Polygon, target: Polygon) -> LineString:
    """From the middle of the firing side to the nearest point of the target inside the area."""
    part = area.intersection(target)
    if part.is_empty:
        part = target
    near = nearest_points(Point(mid), part)[1]
    return LineString([mid, (near.x, near.y)])

