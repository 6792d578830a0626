"""Armada's boundaries (Capability.BOUNDARIES): where the moving ship's planned placement
just touches another ship, an obstacle or the edge of the play area, and where two ships
it overlapped are exactly as far from where it finally stands.

Each is reached from a generated scene by moving one piece along a line and bisecting:
another ship or the obstacle slides towards the planned placement, the moving ship slides
towards the nearest edge, or (for the tie) a second overlapped ship set as the mirror
image of the first across the placement slides along the placement's heading until the
two ranges tie. Lengths are millimetres; "on" is the geometry kit's tolerance.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import Polygon

from ...kit.boundary import Boundary, Chooser, Path
from ...kit.geometry import TOLERANCE, Contact, Pose, _penetration, distance
from .clauses import READING_POINTS
from .model import SHIP_TYPES, TOOL_MODELS, Maneuvers, Obstacle, Scene, Ship
from .tool import bases_apart, inserted, overlaps, placed, round_contact, yawed

DEFAULT = {p.name: p.default for p in READING_POINTS}
SLIDE = 400.0  # mm: how far back a piece may start its slide


def planned(scene: Scene, maneuvers: Maneuvers) -> tuple[Ship, Pose] | None:
    """The first maneuver's ship and where it would be set down at its full speed (or
    yawed), on the side its owner gave (starboard where left open); None for a ship that
    stays put."""
    if not maneuvers:
        return None
    maneuver = maneuvers[0]
    ship = scene.ship(maneuver.ship)
    tool = scene.tool or TOOL_MODELS[DEFAULT["tool"]]
    if maneuver.speed:
        pose = inserted(ship, tool, maneuver.side or "starboard", maneuver.course)
        return ship, placed(ship, tool, pose, maneuver.speed)
    if maneuver.yaw:
        return ship, yawed(ship, tool, maneuver.yaw)[0]
    return None


def _inside(scene: Scene, shape: Polygon) -> bool:
    x0, y0, x1, y1 = shape.bounds
    return x0 >= -TOLERANCE and y0 >= -TOLERANCE and x1 <= scene.width + TOLERANCE and y1 <= scene.height + TOLERANCE


def valid(scene: Scene, maneuvers: Maneuvers) -> bool:
    """What the case reader accepts: bases inside the play area and not overlapping at the
    start (touching is fine), squadrons inside and clear of every base, obstacles simple."""
    ships = scene.ships
    if not all(_inside(scene, s.base) for s in ships):
        return False
    if any(not bases_apart(a, b) and overlaps(a.base, b.base) for i, a in enumerate(ships) for b in ships[i + 1:]):
        return False
    for q in scene.squadrons:
        (x, y), r = q.at, q.radius
        if min(x - r, y - r, scene.width - x - r, scene.height - y - r) < -1e-6:
            return False
        if any(round_contact(q.at, r, s.base) is Contact.OVERLAPPING for s in ships):
            return False
    return all(o.shape.is_valid and o.shape.area > 0 for o in scene.obstacles)


def _convex_gap(a: Polygon, b: Polygon) -> float:
    """``kit.geometry.signed_gap`` of two convex polygons, worked out as it works it out, without
    its check that they are convex: bases are rectangles, and obstacles are measured only where
    they pass ``obstacle_gap``'s stricter test (the check costs more than the gap of shapes apart)."""
    gap = float(a.distance(b))
    return min(math.inf, gap if gap > 0 else -max(0.0, _penetration(a, b)))


def _free_name(scene: Scene) -> str:
    taken = {s.name for s in scene.ships} | {q.name for q in scene.squadrons} | {o.name for o in scene.obstacles}
    return next(n for n in "bcdefghijk" if n not in taken)


def _with_other(scene: Scene, mover: Ship, pose: Pose) -> tuple[Scene, list[Ship]]:
    """The scene and the ships other than the mover; where there are none, one is added
    (a cr90 standing 150 mm to the side of the planned placement)."""
    others = [s for s in scene.ships if s.name != mover.name]
    if others:
        return scene, others
    added = Ship(_free_name(scene), "blue", SHIP_TYPES["cr90"], pose.compose(Pose(150.0, 0.0, 90.0)))
    return replace(scene, ships=scene.ships + (added,)), [added]


def _moved_ship(scene: Scene, name: str, pose: Pose) -> Scene:
    return replace(scene, ships=tuple(s.at(pose) if s.name == name else s for s in scene.ships))


def _toward(start: tuple[float, float], goal: tuple[float, float]) -> tuple[float, float, float]:
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length, length) if length > 1e-9 else (0.0, 1.0, 0.0)


# --- touching another ship --------------------------------------------------------------------


def ship_gap(scene: Scene, maneuvers: Maneuvers) -> float | None:
    """The least signed gap between the planned placement's base and any other ship's base."""
    found = planned(scene, maneuvers)
    if found is None:
        return None
    mover, pose = found
    others = [s for s in scene.ships if s.name != mover.name]
    if not others:
        return None
    base = mover.at(pose).base
    return min(_convex_gap(base, s.base) for s in others)


def ship_path(scene: Scene, maneuvers: Maneuvers, choose: Chooser) -> Path | None:
    """Another ship slides along the line from where it stands to the planned placement."""
    found = planned(scene, maneuvers)
    if found is None:
        return None
    scene, others = _with_other(scene, *found)
    other = others[choose.integer(0, len(others) - 1)]
    ux, uy, length = _toward((other.pose.x, other.pose.y), (found[1].x, found[1].y))

    def at(t: float) -> tuple[Scene, Maneuvers]:
        return _moved_ship(scene, other.name, other.pose.moved(ux * t, uy * t)), maneuvers

    return Path(at, -SLIDE, length, valid=valid)


# --- touching an obstacle -----------------------------------------------------------------------


def obstacle_gap(scene: Scene, maneuvers: Maneuvers) -> float | None:
    """The least signed gap between the planned placement's base and an obstacle (convex ones)."""
    found = planned(scene, maneuvers)
    convex = [o for o in scene.obstacles if abs(o.shape.convex_hull.area - o.shape.area) <= 1e-9]
    if found is None or not convex:
        return None
    base = found[0].at(found[1]).base
    return min(_convex_gap(base, o.shape) for o in convex)


def obstacle_path(scene: Scene, maneuvers: Maneuvers, choose: Chooser) -> Path | None:
    """An obstacle slides along the line from its centre to the planned placement."""
    found = planned(scene, maneuvers)
    if found is None:
        return None
    convex = [o for o in scene.obstacles if abs(o.shape.convex_hull.area - o.shape.area) <= 1e-9]
    if not convex:  # a 30 mm rock is added 150 mm to the side of the placement
        x, y = found[1].apply((150.0, 0.0))
        rock = Obstacle(_free_name(scene), ((x - 15, y - 15), (x + 15, y - 15), (x + 15, y + 15), (x - 15, y + 15)),
                        "asteroids")
        scene, convex = replace(scene, obstacles=scene.obstacles + (rock,)), [rock]
    obstacle = convex[choose.integer(0, len(convex) - 1)]
    centre = obstacle.shape.centroid
    ux, uy, length = _toward((centre.x, centre.y), (found[1].x, found[1].y))

    def at(t: float) -> tuple[Scene, Maneuvers]:
        moved = Obstacle(obstacle.name, tuple((x + ux * t, y + uy * t) for x, y in obstacle.points), obstacle.kind)
        return replace(scene, obstacles=tuple(moved if o is obstacle else o for o in scene.obstacles)), maneuvers

    return Path(at, -SLIDE, length, valid=valid)


# --- touching the edge -------------------------------------------------------------------------


def edge_gap(scene: Scene, maneuvers: Maneuvers) -> float | None:
    """How far the planned placement's base stays inside the play area (negative: past the edge)."""
    found = planned(scene, maneuvers)
    if found is None:
        return None
    x0, y0, x1, y1 = found[0].at(found[1]).base.bounds
    return min(x0, y0, scene.width - x1, scene.height - y1)


def edge_path(scene: Scene, maneuvers: Maneuvers, choose: Chooser) -> Path | None:
    """The moving ship (with its course, so its placement) slides towards the edge its
    placement is nearest to."""
    found = planned(scene, maneuvers)
    if found is None:
        return None
    mover, pose = found
    x0, y0, x1, y1 = mover.at(pose).base.bounds
    gaps = {(-1.0, 0.0): x0, (0.0, -1.0): y0, (1.0, 0.0): scene.width - x1, (0.0, 1.0): scene.height - y1}
    (ux, uy), gap = min(gaps.items(), key=lambda item: item[1])

    def at(t: float) -> tuple[Scene, Maneuvers]:
        return _moved_ship(scene, mover.name, mover.pose.moved(ux * t, uy * t)), maneuvers

    return Path(at, gap - 100.0, gap + 100.0, valid=valid)


# --- two overlapped ships at the same range -------------------------------------------------------


def range_tie(scene: Scene, maneuvers: Maneuvers) -> float | None:
    """Where the first maneuver ended overlapping two or more ships: the range to the
    nearer-named of the two nearest less the range to the other (0: a tie)."""
    from .resolver import resolve

    if not maneuvers or not valid(scene, maneuvers):  # the resolver takes possible scenes only
        return None
    move = resolve(scene, maneuvers, DEFAULT).after.moves[0]
    if len(move.distances) < 2:
        return None
    # The outcome's ranges are rounded for reports; measure again in full.
    base = scene.ship(move.ship).at(move.end).base
    nearest = sorted(sorted(move.distances, key=lambda d: d[1])[:2])
    range_a, range_b = (distance(base, scene.ship(name).base) for name, _ in nearest)
    return range_a - range_b


def tie_path(scene: Scene, maneuvers: Maneuvers, choose: Chooser) -> Path | None:
    """Two ships (the scene's others, or copies of one where it has fewer) stand side by side
    just ahead of the planned placement, each a few mm into it and mirror images of each
    other across its heading; the second slides along that heading until the two ranges from
    where the moving ship finally stands tie."""
    found = planned(scene, maneuvers)
    if found is None or len(maneuvers) != 1:
        return None
    mover, pose = found
    scene, others = _with_other(scene, mover, pose)
    first = others[0]
    second = others[1] if len(others) > 1 else replace(first, name=_free_name(scene))
    width, length = mover.size
    other_width, other_length = first.size
    depth = choose.integer(2, 20) * 1.0
    aside = other_width / 2 + choose.integer(0, 10) * 1.0
    ahead = length / 2 + other_length / 2 - depth
    left, right = pose.compose(Pose(aside, ahead, 0.0)), pose.compose(Pose(-aside, ahead, 0.0))
    forward = Pose(0.0, 0.0, pose.heading).forward(1.0)
    rest = tuple(s for s in scene.ships if s.name not in (first.name, second.name))

    def at(t: float) -> tuple[Scene, Maneuvers]:
        return replace(scene, ships=rest + (first.at(left), second.at(right.moved(forward.x * t, forward.y * t)))), \
            maneuvers

    return Path(at, -10.0, depth - 0.5, valid=valid)


BOUNDARIES = (
    Boundary("ship-touches-ship", ("overlap.touch", "overlap.reduce"),
             "the moving ship's planned placement against another ship's base: the signed gap between the bases",
             ship_gap, ship_path),
    Boundary("ship-touches-obstacle", ("obstacle.final",),
             "the planned placement against an obstacle: the signed gap between base and obstacle",
             obstacle_gap, obstacle_path),
    Boundary("ship-touches-edge", ("edge.destroyed",),
             "the planned placement against the edge of the play area: how far inside the base stays",
             edge_gap, edge_path),
    Boundary("closest-range-tie", ("overlap.measure", "faq.closest"),
             "two overlapped ships at the same range from where the moving ship stands: the difference of "
             "the two ranges", range_tie, tie_path),
)


