"""Value types of Star Wars: Armada ship movement (seed 003, facts.md armada).

Millimetres throughout. x grows east and y north from the play area's south-west
corner; headings are compass degrees (0 north, 90 east), as the geometry kit
measures them. A ship's local frame has +y forward and +x to starboard.

Clicks are signed: a positive click turns the tool (and the ship) clockwise, to
starboard; a negative one anticlockwise, to port. Every value is immutable, so
outcomes compare with ``==``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from types import MappingProxyType
from typing import Any

from shapely.geometry import Polygon

from ...kit.geometry import Pose, outline, rectangle
from ...ruleset import Feature

XY = tuple[float, float]

PLAY_AREA = 914.4  # 3 feet, the default play area's side
CLICK_DEGREES = 22.5
MAX_CLICKS = 2  # a joint shows "-", "I" or "II"
SIDES = ("port", "starboard")
OBSTACLE_KINDS = ("obstacle", "asteroids", "debris", "station")
SIDE_SIGN = {"port": -1, "starboard": 1}

# Base sizes, width across by length along the heading (facts.md, armada / Ships and the maneuver tool).
BASE_SIZES: Mapping[str, tuple[float, float]] = MappingProxyType({
    "small": (43.0, 71.0), "medium": (63.0, 102.0), "large": (77.5, 129.0)})


def _hash_once(value: Any) -> int:
    """A frozen dataclass's hash over its fields, as the dataclass's own, worked out once: the
    memos key on scenes, tools and their poses again and again, and each hash walks every part.
    (``_without_hash`` leaves it out of a pickle: another process hashes text with another seed.)"""
    known: int | None = value.__dict__.get("_hash")
    if known is None:
        known = hash(tuple(getattr(value, f.name) for f in fields(value)))
        object.__setattr__(value, "_hash", known)
    return known


def _without_hash(value: Any) -> dict[str, Any]:
    return {name: item for name, item in value.__dict__.items() if name != "_hash"}


def _named(pairs: tuple[tuple[str, float], ...], name: str, otherwise: float) -> float:
    """``dict(pairs).get(name, otherwise)`` without making the dict (the last pair of a name counts)."""
    for key, value in reversed(pairs):
        if key == name:
            return value
    return otherwise


@dataclass(frozen=True)
class ToolModel:
    """The maneuver tool as a chain of rigid pieces.

    ``lead`` runs from the guides the ship starts on to joint 1; every further joint is
    ``step`` on. The guides a ship is placed on at speed k sit ``step - lead`` past
    joint k. ``outside`` is how far the tool's centreline runs outside the side of the
    base, ``behind`` how far the starting guides sit behind the front edge. ``across``
    gives, for the base sizes it names, the distance from the ship's centreline to the
    tool's instead (a model measured from bases of its own); other sizes use ``outside``."""

    name: str
    step: float
    lead: float
    width: float
    outside: float
    behind: float
    joints: int = 4  # the tool's joints; the last one is the 0-speed yaw's
    across: tuple[tuple[str, float], ...] = ()  # base size -> mm from the ship's centreline to the tool's
    bases: tuple[tuple[str, float], ...] = ()  # base size -> the width of the model's own base, if not the real one

    def offset(self, size: str, width: float) -> float:
        """How far the tool's centreline runs from the centreline of a base of ``size``."""
        return _named(self.across, size, width / 2 + self.outside)

    def base_width(self, size: str, width: float) -> float:
        """The width of base the model keeps clear of its tool: its own, where it has one."""
        return _named(self.bases, size, width)

    @property
    def tail(self) -> float:
        return self.step - self.lead

    __hash__ = _hash_once
    __getstate__ = _without_hash


TOOL_MODELS: Mapping[str, ToolModel] = MappingProxyType({
    # Model A: 46.13 mm to the joint, then 22.27 mm to the next guides; centreline half the
    # tool's 15.25 mm width outside the base, guides at the front corner.
    "model-a": ToolModel("model-a", 68.4, 46.13, 15.25, 15.25 / 2, 0.0),
    # Model B: 66.71 mm between pivots; the first pivot 19.8 mm behind the front edge; the ship
    # is placed on the pivot itself. The model puts the pivot 8.1 mm outside its own bases,
    # which are narrower than the real ones (half widths 0.807, 1.201 and 1.496 in), so
    # measured from the centreline the pivot line sits 28.63, 38.63 and 46.13 mm out, and
    # the tool, half of 15.25 mm to either side of it, is kept clear of those bases
    # (facts.md, armada / The two models in detail).
    "model-b": ToolModel("model-b", 66.71, 66.71, 15.25, 8.1, 19.8,
                         across=(("small", 28.63), ("medium", 38.63), ("large", 46.13)),
                         bases=(("small", 2 * 0.807 * 25.4), ("medium", 2 * 1.201 * 25.4),
                                ("large", 2 * 1.496 * 25.4))),
})


@dataclass(frozen=True)
class ShipType:
    """A ship type: its base size and its speed chart. ``chart[s - 1]`` gives the most
    clicks at each joint 1..s at speed s; speed 0 needs no column."""

    name: str
    size: str
    chart: tuple[tuple[int, ...], ...]

    @property
    def max_speed(self) -> int:
        return len(self.chart)


SHIP_TYPES: Mapping[str, ShipType] = MappingProxyType({
    "cr90": ShipType("cr90", "small", ((2,), (1, 2), (0, 1, 2), (0, 1, 1, 2))),
    "victory": ShipType("victory", "medium", ((1,), (0, 1))),
    "nebulon-b": ShipType("nebulon-b", "small", ((1,), (1, 1), (0, 1, 2))),
})


@dataclass(frozen=True)
class Ship:
    name: str
    owner: str
    type: ShipType
    pose: Pose  # the centre of the base and its heading
    speed: int = 0  # the speed dial
    damage: int = 0  # facedown damage cards
    destroyed: bool = False

    @property
    def size(self) -> tuple[float, float]:
        return BASE_SIZES[self.type.size]

    @cached_property
    def base(self) -> Polygon:
        width, length = self.size
        return rectangle(self.pose, width, length)

    def at(self, pose: Pose) -> Ship:
        return Ship(self.name, self.owner, self.type, pose, self.speed, self.damage, self.destroyed)


@dataclass(frozen=True)
class Squadron:
    name: str
    owner: str
    at: XY
    radius: float


@dataclass(frozen=True)
class Obstacle:
    name: str
    points: tuple[XY, ...]
    kind: str = "obstacle"  # "station" for a station, whose effect waits until the maneuver is over

    @cached_property  # one outline per obstacle: every board of every reading indexes it again
    def shape(self) -> Polygon:
        return outline(self.points)


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    ships: tuple[Ship, ...]  # as the case lists them; the resolver never relies on this order
    squadrons: tuple[Squadron, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    tool: ToolModel | None = None  # the case's own tool; None: the 'tool' reading picks a model

    def ship(self, name: str) -> Ship:
        return next(s for s in self.ships if s.name == name)

    __hash__ = _hash_once
    __getstate__ = _without_hash


@dataclass(frozen=True)
class Maneuver:
    """One maneuver: the course (clicks at joints 1..speed; empty for speed 0), the side
    the owner puts the tool on (None: left to the owner), a 0-speed yaw's signed clicks,
    and whether an effect makes it an additional maneuver at its own speed."""

    ship: str
    course: tuple[int, ...]
    side: str | None = None
    yaw: int = 0
    additional: bool = False
    navigate: bool = False

    @property
    def speed(self) -> int:
        return len(self.course)


Maneuvers = tuple[Maneuver, ...]


@dataclass(frozen=True)
class Attempt:
    """One placement of the ship along the locked tool: at which speed, where it would
    end, and what its base would overlap there."""

    speed: int
    pose: Pose
    ships: tuple[str, ...] = ()  # other ships its base overlaps
    squadrons: tuple[str, ...] = ()
    tool: bool = False  # its base overlaps the tool


@dataclass(frozen=True)
class ToolPose:
    """The inserted tool: the side, the pose of the starting guides, then of every joint
    (after its clicks), then of the guides the ship is placed on."""

    side: str
    joints: tuple[Pose, ...]

    __hash__ = _hash_once
    __getstate__ = _without_hash


@dataclass(frozen=True)
class Move:
    """What one maneuver did."""

    ship: str
    start: Pose
    end: Pose
    speed: int  # the speed it finally moved at
    side: str | None  # the side of the tool (None for a 0-speed maneuver without yaw)
    tool: ToolPose | None
    attempts: tuple[Attempt, ...]  # in the order tried
    switched: bool = False  # the tool went to the other side
    damaged: tuple[str, ...] = ()  # ships dealt a facedown card
    closest: tuple[str, ...] = ()  # the overlapped ship(s) found closest
    distances: tuple[tuple[str, float], ...] = ()  # overlapped ship -> range from the final position
    obstacles: tuple[str, ...] = ()
    squadrons: tuple[str, ...] = ()  # squadrons its final base overlaps
    destroyed: bool = False
    yaw_back: bool = False  # a 0-speed yaw that had to return to where it was
    alternative: Move | None = None  # the other side, when the owner's choice was left open


@dataclass(frozen=True)
class Result:
    """The state after the maneuvers: every ship, and what each maneuver did."""

    ships: tuple[Ship, ...]  # in order of name
    moves: tuple[Move, ...]  # in the order the maneuvers were made

    def ship(self, name: str) -> Ship:
        return next(s for s in self.ships if s.name == name)


FEATURES = (
    Feature("squadrons", "squadrons, which a ship's move may overlap"),
    Feature("obstacles", "obstacles (asteroids, debris, stations), which a ship's move may overlap"),
    Feature("own-tool", "a case's own maneuver tool, given by its measurements instead of a model"),
)


def features_needed(scene: Scene, maneuvers: Maneuvers) -> frozenset[str]:
    """Squadrons, obstacles and a tool of the case's own, where the scene has them."""
    return frozenset(name for name, present in (("squadrons", scene.squadrons), ("obstacles", scene.obstacles),
                                                ("own-tool", scene.tool is not None)) if present)
