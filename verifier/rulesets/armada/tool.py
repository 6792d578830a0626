"""The maneuver tool as a rigid chain, and the shapes the resolver tests.

The ship keeps its pose relative to the guides it sits on: at the start it sits on
the first piece's guides, at speed k on the guides past joint k, so its final pose is
those guides' pose composed with the ship's offset from them (facts.md, armada /
The two models in detail)."""

from __future__ import annotations

import math
from collections.abc import Sequence
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
    """Forget the placements and the tool's pieces kept (for benchmarks that time work afresh)."""
    for kept in (_INSERTED, _PLACED, _YAWED, _PIECES):
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


def _base_corners(pose: Pose, width: float, length: float) -> list[XY]:
    """The corners of a base ``width`` by ``length`` centred on ``pose``, as kit.geometry.rectangle makes them."""
    w, back = width / 2, -length / 2
    return pose.transform.apply_all([(-w, back), (w, back), (w, back + length), (-w, back + length)])


_PIECES: Kept[tuple[ToolModel, ToolPose], tuple[tuple[list[XY], ...], tuple[XY, ...]] | None] = Kept(4096)


def _pieces(tool: ToolModel, pose: ToolPose) -> tuple[tuple[list[XY], ...], tuple[XY, ...]] | None:
    """The rectangle of each piece of the tool and the points of its centreline (None for a tool
    of one point: a disc, left to shapely)."""
    def made() -> tuple[tuple[list[XY], ...], tuple[XY, ...]] | None:
        points = centreline(pose)
        if len(points) < 2:
            return None
        half = tool.width / 2
        rectangles = []
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            along = math.hypot(x1 - x0, y1 - y0)
            nx, ny = (y0 - y1) / along * half, (x1 - x0) / along * half
            rectangles.append([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])
        return tuple(rectangles), tuple(points)
    return _PIECES.get((tool, pose), made)


def _apart(a: Sequence[XY], b: Sequence[XY], gap: float) -> bool:
    """Whether a line parts two rectangles (corners in order) with more than ``gap`` between them:
    the separating axes are the directions of their sides."""
    for (px, py), (qx, qy) in (a[0], a[1]), (a[1], a[2]), (b[0], b[1]), (b[1], b[2]):
        nx, ny = qx - px, qy - py
        length = math.hypot(nx, ny)
        if length == 0:
            continue
        nx, ny = nx / length, ny / length
        on_a = [x * nx + y * ny for x, y in a]
        on_b = [x * nx + y * ny for x, y in b]
        if min(on_b) - max(on_a) > gap or min(on_a) - max(on_b) > gap:
            return True
    return False


def _beyond(corners: Sequence[XY], point: XY, reach: float) -> bool:
    """Whether ``point`` lies more than ``reach`` from a convex polygon (corners in order either way)."""
    x, y = point
    if (x + reach < min(cx for cx, _ in corners) or x - reach > max(cx for cx, _ in corners)
            or y + reach < min(cy for _, cy in corners) or y - reach > max(cy for _, cy in corners)):
        return True
    sides = set()
    nearest = math.inf
    for (px, py), (qx, qy) in zip(corners, [*corners[1:], corners[0]]):
        ex, ey = qx - px, qy - py
        sides.add(ex * (y - py) - ey * (x - px) > 0)
        span = ex * ex + ey * ey
        t = 0.0 if span == 0 else min(1.0, max(0.0, ((x - px) * ex + (y - py) * ey) / span))
        nearest = min(nearest, math.hypot(x - px - t * ex, y - py - t * ey))
    return len(sides) > 1 and nearest > reach


def tool_overlaps(tool: ToolModel, pose: ToolPose, at: Pose, width: float, length: float) -> bool:
    """``overlaps`` of a base ``width`` by ``length`` at ``at`` and ``tool_shape(tool, pose)``:
    settled by the pieces' rectangles and discs where they are sure, else by the outline."""
    pieces = _pieces(tool, pose)
    if pieces is not None:
        rectangles, points = pieces
        # ``overlaps`` asks whether the shapes shrunk by TOLERANCE meet: not if the base shrunk
        # by a little less stays clear of every piece and disc; so where one deep inside a piece
        inner = _base_corners(at, width - 1.8 * TOLERANCE, length - 1.8 * TOLERANCE)
        corners: list[XY] | None = None
        clear = True
        for piece in rectangles:
            if not _apart(inner, piece, SURE):
                corners = corners or _base_corners(at, width, length)
                if deep_overlap(corners, piece):
                    return True
                clear = False
        reach = tool.width / 2 + SURE
        if clear and all(_beyond(inner, point, reach) for point in points):
            return False
    return overlaps(rectangle(at, width, length), tool_shape(tool, pose))


def tool_inside(tool: ToolModel, pose: ToolPose, width: float, height: float) -> bool:
    """Whether ``tool_shape(tool, pose)`` lies inside a play area ``width`` by ``height`` (to
    TOLERANCE), by its bounds: settled by the bounds of the rectangles (within the outline's)
    and of the rectangles and discs (round it) where they are sure, else by the outline."""
    pieces = _pieces(tool, pose)
    if pieces is not None:
        rectangles, points = pieces
        half = tool.width / 2
        xs = [x for piece in rectangles for x, _ in piece]
        ys = [y for piece in rectangles for _, y in piece]
        inner = (min(xs), min(ys), max(xs), max(ys))
        outer = (min(inner[0], *(x - half for x, _ in points)), min(inner[1], *(y - half for _, y in points)),
                 max(inner[2], *(x + half for x, _ in points)), max(inner[3], *(y + half for _, y in points)))
        low, high_x, high_y = -TOLERANCE, width + TOLERANCE, height + TOLERANCE
        if outer[0] >= low + SURE and outer[1] >= low + SURE and outer[2] <= high_x - SURE and (
                outer[3] <= high_y - SURE):
            return True
        if inner[0] < low - SURE or inner[1] < low - SURE or inner[2] > high_x + SURE or inner[3] > high_y + SURE:
            return False
    x0, y0, x1, y1 = tool_shape(tool, pose).bounds
    return x0 >= -TOLERANCE and y0 >= -TOLERANCE and x1 <= width + TOLERANCE and y1 <= height + TOLERANCE


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
