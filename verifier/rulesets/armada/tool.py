"""The maneuver tool as a rigid chain, and the shapes the resolver tests.

The ship keeps its pose relative to the guides it sits on: at the start it sits on
the first piece's guides, at speed k on the guides past joint k, so its final pose is
those guides' pose composed with the ship's offset from them (facts.md, armada /
The two models in detail)."""

from __future__ import annotations

import math
from functools import lru_cache

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from ...kept import Kept
from ...kit.geometry import TOLERANCE, Contact, Pose, deep_overlap, overlapping, rectangle
from .model import CLICK_DEGREES, SIDE_SIGN, Ship, ToolModel, ToolPose

XY = tuple[float, float]


def guides_offset(ship: Ship, tool: ToolModel, side: str) -> Pose:
    """Where the tool's starting guides sit in the ship's frame, on ``side``."""
    width, length = ship.size
    return Pose(SIDE_SIGN[side] * tool.offset(ship.type.size, width), length / 2 - tool.behind, 0.0)


def ship_from_guides(ship: Ship, tool: ToolModel, side: str, guides: Pose) -> Pose:
    """The ship's pose when its notches sit on ``guides``."""
    offset = guides_offset(ship, tool, side)
    return guides.compose(Pose(-offset.x, -offset.y, 0.0))


# Where the tool and the ship go depends on the ship's pose and base size, the tool and the
# course alone. The scene's generator, its boundaries and the resolver under every reading
# (and the scene sent in another order) ask for the same placements again: kept.
_INSERTED: Kept[tuple[Pose, str, ToolModel, str, tuple[int, ...]], ToolPose] = Kept(4096)
_PLACED: Kept[tuple[str, ToolModel, ToolPose, int], Pose] = Kept(4096)
_YAWED: Kept[tuple[Pose, str, ToolModel, int], tuple[Pose, ToolPose]] = Kept(1024)


def inserted(ship: Ship, tool: ToolModel, side: str, course: tuple[int, ...]) -> ToolPose:
    """The tool inserted on ``side`` of the ship's front with the course clicked: the
    starting guides, every joint after its clicks, then the guides at the course's speed."""
    def made() -> ToolPose:
        start = ship.pose.compose(guides_offset(ship, tool, side))
        joints = [start]
        at = start
        for k, clicks in enumerate(course):
            pivot = at.forward(tool.lead if k == 0 else tool.step)
            at = pivot.turned(clicks * CLICK_DEGREES)
            joints.append(at)
        if course:
            joints.append(at.forward(tool.tail))
        return ToolPose(side, tuple(joints))
    return _INSERTED.get((ship.pose, ship.type.size, tool, side, course), made)


def placed(ship: Ship, tool: ToolModel, pose: ToolPose, speed: int) -> Pose:
    """The ship's pose when placed at the joint of ``speed`` along the locked tool."""
    if speed == 0:
        return ship.pose
    return _PLACED.get((ship.type.size, tool, pose, speed),
                       lambda: ship_from_guides(ship, tool, pose.side, pose.joints[speed].forward(tool.tail)))


def yawed(ship: Ship, tool: ToolModel, clicks: int) -> tuple[Pose, ToolPose]:
    """A 0-speed yaw: the last piece's guides in the notches on the side of the turn,
    the last joint clicked, the ship placed back on those guides. Returns the ship's
    pose and the tool's (the straight piece before the last joint, the joint, the guides)."""
    def made() -> tuple[Pose, ToolPose]:
        side = "starboard" if clicks > 0 else "port"
        guides = ship.pose.compose(guides_offset(ship, tool, side))
        joint = guides.forward(-tool.tail)
        before = joint.forward(-tool.step)
        turned = joint.turned(clicks * CLICK_DEGREES)
        after = turned.forward(tool.tail)
        return ship_from_guides(ship, tool, side, after), ToolPose(side, (before, turned, after))
    return _YAWED.get((ship.pose, ship.type.size, tool, clicks), made)


def forget_placements() -> None:
    """Forget the placements and the tool's bounds kept (for benchmarks that time work afresh)."""
    for kept in (_INSERTED, _PLACED, _YAWED, _BOUNDS):
        kept.clear()


def centreline(pose: ToolPose) -> list[tuple[float, float]]:
    points: list[tuple[float, float]] = []
    for joint in pose.joints:
        if not points or abs(points[-1][0] - joint.x) + abs(points[-1][1] - joint.y) > 1e-9:
            points.append((joint.x, joint.y))
    return points


@lru_cache(maxsize=1024)  # a maneuver's tool is outlined again under every reading that inserts it alike
def tool_shape(tool: ToolModel, pose: ToolPose) -> BaseGeometry:
    """The tool's outline: each piece as wide as the tool, round at the joints (the hinges)."""
    points = centreline(pose)
    if len(points) < 2:
        return Point(points[0]).buffer(tool.width / 2)
    return LineString(points).buffer(tool.width / 2, cap_style="flat", join_style="round")


# --- the tool's outline without making it ------------------------------------------------------
#
# The outline (``tool_shape``) is a buffer of the centreline: each piece a rectangle as wide as
# the tool, joined by arcs drawn as chords whose corners lie on the circle. So it holds every
# piece's rectangle, and lies within those rectangles and the discs as wide as the tool round
# each joint (the ends' too). Where a base lies deep inside one rectangle, or clear of all of
# them and of every disc, or the bounds of the two say the same, that settles what the outline
# would say, without making it (a buffer, and its shrinking, cost far more than the arithmetic).
# Anywhere near the line between, the outline is made and asked.

SURE = 1e-9  # mm: past any round-off of shapes a table across (about 1e-12), far short of TOLERANCE


def _clear_of_piece(p: XY, q: XY, half: float, a: float, b: float) -> bool:
    """Whether a line parts the box ``[-a, a] x [-b, b]`` from the piece of the tool along ``p``
    to ``q`` (a rectangle ``half`` either side of it) with more than SURE between them: the
    separating axes are the box's sides and the piece's."""
    (px, py), (qx, qy) = p, q
    along = math.hypot(qx - px, qy - py)
    dx, dy = (qx - px) / along, (qy - py) / along  # the piece's direction; (-dy, dx) its normal
    if min(px, qx) - half * abs(dy) - a > SURE or -a - max(px, qx) - half * abs(dy) > SURE:
        return True
    if min(py, qy) - half * abs(dx) - b > SURE or -b - max(py, qy) - half * abs(dx) > SURE:
        return True
    if abs(px * dy - py * dx) - half - (a * abs(dy) + b * abs(dx)) > SURE:
        return True
    reach = a * abs(dx) + b * abs(dy)
    start, end = px * dx + py * dy, qx * dx + qy * dy
    return min(start, end) - reach > SURE or -reach - max(start, end) > SURE


def tool_overlaps(tool: ToolModel, pose: ToolPose, at: Pose, width: float, length: float) -> bool:
    """``overlaps`` of a base ``width`` by ``length`` at ``at`` and ``tool_shape(tool, pose)``:
    settled by the pieces' rectangles and discs where they are sure, else by the outline.
    Worked out in the base's frame, where the base is the box ``[-width/2, width/2] x
    [-length/2, length/2]``."""
    points = centreline(pose)
    if len(points) >= 2:
        rad = math.radians(at.heading)
        c, s = math.cos(rad), math.sin(rad)
        local = [(c * (x - at.x) - s * (y - at.y), s * (x - at.x) + c * (y - at.y)) for x, y in points]
        half = tool.width / 2
        # ``overlaps`` asks whether the shapes shrunk by TOLERANCE meet: not if the base shrunk by a
        # little less stays clear of every piece and disc; so where one lies deep inside a piece
        a, b = width / 2 - 0.9 * TOLERANCE, length / 2 - 0.9 * TOLERANCE
        clear = all(math.hypot(max(abs(x) - a, 0.0), max(abs(y) - b, 0.0)) > half + SURE for x, y in local)
        box: list[XY] | None = None
        for p, q in zip(local, local[1:]):
            if not _clear_of_piece(p, q, half, a, b):
                clear = False
                half_width, half_length = width / 2, length / 2
                box = box or [(-half_width, -half_length), (half_width, -half_length), (half_width, half_length),
                              (-half_width, half_length)]
                along = math.hypot(q[0] - p[0], q[1] - p[1])
                nx, ny = (p[1] - q[1]) / along * half, (q[0] - p[0]) / along * half
                piece = [(p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny), (q[0] - nx, q[1] - ny), (p[0] - nx, p[1] - ny)]
                if deep_overlap(box, piece):
                    return True
        if clear:
            return False
    return overlaps(rectangle(at, width, length), tool_shape(tool, pose))


Bounds = tuple[float, float, float, float]
_BOUNDS: Kept[tuple[ToolModel, ToolPose], tuple[Bounds, Bounds] | None] = Kept(4096)


def _bounds(tool: ToolModel, pose: ToolPose) -> tuple[Bounds, Bounds] | None:
    """Bounds within the outline's (its pieces' rectangles') and round it (theirs and the discs'),
    as (x0, y0, x1, y1); None for a tool of one point (a disc, left to shapely)."""
    def made() -> tuple[Bounds, Bounds] | None:
        points = centreline(pose)
        if len(points) < 2:
            return None
        half = tool.width / 2
        xs, ys = [], []
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            along = math.hypot(x1 - x0, y1 - y0)
            nx, ny = (y0 - y1) / along * half, (x1 - x0) / along * half
            xs += [x0 + nx, x1 + nx, x1 - nx, x0 - nx]
            ys += [y0 + ny, y1 + ny, y1 - ny, y0 - ny]
        inner = (min(xs), min(ys), max(xs), max(ys))
        outer = (min(inner[0], *(x - half for x, _ in points)), min(inner[1], *(y - half for _, y in points)),
                 max(inner[2], *(x + half for x, _ in points)), max(inner[3], *(y + half for _, y in points)))
        return inner, outer
    return _BOUNDS.get((tool, pose), made)


def tool_inside(tool: ToolModel, pose: ToolPose, width: float, height: float) -> bool:
    """Whether ``tool_shape(tool, pose)`` lies inside a play area ``width`` by ``height`` (to
    TOLERANCE), by its bounds: settled by the bounds within the outline's and round it where
    they are sure, else by the outline."""
    bounds = _bounds(tool, pose)
    low, high_x, high_y = -TOLERANCE, width + TOLERANCE, height + TOLERANCE
    if bounds is not None:
        inner, outer = bounds
        if outer[0] >= low + SURE and outer[1] >= low + SURE and outer[2] <= high_x - SURE and (
                outer[3] <= high_y - SURE):
            return True
        if inner[0] < low - SURE or inner[1] < low - SURE or inner[2] > high_x + SURE or inner[3] > high_y + SURE:
            return False
    x0, y0, x1, y1 = tool_shape(tool, pose).bounds
    return x0 >= low and y0 >= low and x1 <= high_x and y1 <= high_y


def round_contact(centre: tuple[float, float], radius: float, shape: BaseGeometry) -> Contact:
    """A round base against a polygon, exact (the kit's circle is a polygon)."""
    gap = Point(centre).distance(shape) - radius
    if gap > TOLERANCE:
        return Contact.APART
    if gap >= -TOLERANCE and not shape.contains(Point(centre)):
        return Contact.TOUCHING
    return Contact.OVERLAPPING


def overlaps(a: BaseGeometry, b: BaseGeometry) -> bool:
    return overlapping(a, b)


def bases_apart(a: Ship, b: Ship) -> bool:
    """Whether the circles round two ships' bases lie apart, with room to spare for round-off
    (1e-6 mm, far beyond the round-off of corners): then the bases do not meet, so they do
    not overlap, and neither base need be made to say so."""
    reach = math.hypot(*a.size) / 2 + math.hypot(*b.size) / 2 + 1e-6
    return math.hypot(a.pose.x - b.pose.x, a.pose.y - b.pose.y) > reach
