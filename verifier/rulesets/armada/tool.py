"""The maneuver tool as a rigid chain, and the shapes the resolver tests.

The ship keeps its pose relative to the guides it sits on: at the start it sits on
the first piece's guides, at speed k on the guides past joint k, so its final pose is
those guides' pose composed with the ship's offset from them (facts.md, armada /
The two models in detail)."""

from __future__ import annotations

from functools import lru_cache

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from ...kit.geometry import TOLERANCE, Contact, Pose, overlapping
from .model import CLICK_DEGREES, SIDE_SIGN, Ship, ToolModel, ToolPose


def guides_offset(ship: Ship, tool: ToolModel, side: str) -> Pose:
    """Where the tool's starting guides sit in the ship's frame, on ``side``."""
    width, length = ship.size
    return Pose(SIDE_SIGN[side] * tool.offset(ship.type.size, width), length / 2 - tool.behind, 0.0)


def ship_from_guides(ship: Ship, tool: ToolModel, side: str, guides: Pose) -> Pose:
    """The ship's pose when its notches sit on ``guides``."""
    offset = guides_offset(ship, tool, side)
    return guides.compose(Pose(-offset.x, -offset.y, 0.0))


def inserted(ship: Ship, tool: ToolModel, side: str, course: tuple[int, ...]) -> ToolPose:
    """The tool inserted on ``side`` of the ship's front with the course clicked: the
    starting guides, every joint after its clicks, then the guides at the course's speed."""
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


def placed(ship: Ship, tool: ToolModel, pose: ToolPose, speed: int) -> Pose:
    """The ship's pose when placed at the joint of ``speed`` along the locked tool."""
    if speed == 0:
        return ship.pose
    guides = pose.joints[speed].forward(tool.tail)
    return ship_from_guides(ship, tool, pose.side, guides)


def yawed(ship: Ship, tool: ToolModel, clicks: int) -> tuple[Pose, ToolPose]:
    """A 0-speed yaw: the last piece's guides in the notches on the side of the turn,
    the last joint clicked, the ship placed back on those guides. Returns the ship's
    pose and the tool's (the straight piece before the last joint, the joint, the guides)."""
    side = "starboard" if clicks > 0 else "port"
    guides = ship.pose.compose(guides_offset(ship, tool, side))
    joint = guides.forward(-tool.tail)
    before = joint.forward(-tool.step)
    turned = joint.turned(clicks * CLICK_DEGREES)
    after = turned.forward(tool.tail)
    return ship_from_guides(ship, tool, side, after), ToolPose(side, (before, turned, after))


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
