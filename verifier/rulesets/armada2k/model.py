"""Armada 2K value types and the geometry of a pyramid lying flat.

Lengths are in inches, x east and y north; headings in compass degrees (0 north,
90 east), as the kit's geometry measures them. A ship stands at the centre of its
stern (the middle of the pyramid's base edge) and points its bow (the tip) along
its heading. Every value is immutable, so outcomes compare with ``==``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from shapely.geometry import Polygon

from verifier.kit.geometry import (
    XYZ,
    Contact,
    Plane,
    Pose,
    _cos_sin,
    classify,
    classify_solids,
    outline,
    solid_planes,
    sure_solids_contact,
)
from verifier.kit.hashed import kept_hash, state_without_hash
from verifier.ruleset import Feature

XY = tuple[float, float]
ANGLE_TOLERANCE = 1e-7  # degrees: critical headings closer than this are one

SIZES = ("small", "medium", "large")
# facts.md (armada2k): base width and upright height, in inches.
BASE = {"small": 9 / 16, "medium": 25 / 32, "large": 1.0}
HEIGHT = {"small": 1.0, "medium": 1.375, "large": 1.75}
PIPS = {"small": 1, "medium": 2, "large": 3}  # shots a turn, and the damage that sinks it
MAX_STEPS = {"small": 4, "medium": 2, "large": 1}
FOOTPRINTS = ("slant", "pentagon", "upright")
# Readings under which pieces meet as the solids they are (facts.md, armada2k: a lying pyramid's
# raised base edge is in the air), and the footprint of the face each solid rests on.
SOLID_READINGS = {"pentagon": "slant"}
SIDES = ("port", "starboard", "stern")
AREA_DIAMETER = 20.0  # the default playing area: a circle 20 inches across
FLAG_SIDE = 0.5  # a stationary flag marker: a square chit this wide


def slant(size: str) -> float:
    """The slant height: the length of the face the pyramid lies on."""
    return math.hypot(HEIGHT[size], BASE[size] / 2)


@dataclass(frozen=True, slots=True)
class Template:
    """A footprint in the ship's own frame: the stern centre at the origin, the bow
    on +y. ``port`` and ``starboard`` are the long sides, from their rear end to the bow."""

    points: tuple[XY, ...]
    bow: XY
    port: tuple[XY, XY]
    starboard: tuple[XY, XY]
    stern: tuple[XY, XY]

    @property
    def reach(self) -> float:
        """How far the footprint reaches from the stern centre."""
        return _reach(self.points)

    def side(self, name: str) -> tuple[XY, XY]:
        return {"port": self.port, "starboard": self.starboard, "stern": self.stern}[name]

    @property
    def bow_half_angle(self) -> float:
        """Half the angle at the bow, in degrees."""
        (x0, y0), (bx, by) = self.port[0], self.bow
        return math.degrees(math.atan2(abs(x0 - bx), by - y0))


@lru_cache(maxsize=32)  # asked at every fan and every look: of a dozen templates
def _reach(points: tuple[XY, ...]) -> float:
    return max(math.hypot(x, y) for x, y in points)


def _template(size: str, footprint: str) -> Template:
    b, h = BASE[size], HEIGHT[size]
    s = slant(size)
    if footprint == "upright":
        length = h
    else:
        length = s
    left, right, bow = (-b / 2, 0.0), (b / 2, 0.0), (0.0, length)
    if footprint == "pentagon":
        # The raised base corners stand b*cos(t) ahead of the resting edge, where t is the
        # angle between face and base (cos t = (b/2)/s): b^2/(2s), level with the sides' ends.
        d = b * b / (2 * s)
        raised_left, raised_right = (-b / 2, d), (b / 2, d)
        return Template((left, right, raised_right, bow, raised_left), bow, (raised_left, bow), (raised_right, bow),
                        (right, left))
    return Template((left, right, bow), bow, (left, bow), (right, bow), (right, left))


TEMPLATES: Mapping[tuple[str, str], Template] = {(z, f): _template(z, f) for z in SIZES for f in FOOTPRINTS}


@dataclass(frozen=True)
class Ship:
    name: str
    player: str
    size: str
    at: XY  # the centre of the stern
    heading: float
    damage: int = 0
    sunk: bool = False

    # Ships and scenes are looked up by value at every step of a resolution (its checks, shapes
    # and looks are kept by ship): their hash is worked out once, and not pickled.
    __hash__ = kept_hash
    __getstate__ = state_without_hash

    @cached_property
    def pose(self) -> Pose:
        return Pose(self.at[0], self.at[1], self.heading)

    def placed(self, at: XY, heading: float) -> Ship:
        """The ship moved to ``at``, heading ``heading``: ``replace(self, at=at, heading=heading)``, made
        directly (a resolution moves ships at every step)."""
        return Ship(self.name, self.player, self.size, at, heading, self.damage, self.sunk)


@dataclass(frozen=True)
class Area:
    """The playing area: a circle (``centre``, ``radius``) or a polygon (``points``)."""

    centre: XY = (0.0, 0.0)
    radius: float = AREA_DIAMETER / 2
    points: tuple[XY, ...] = ()

    @property
    def is_circle(self) -> bool:
        return not self.points


@dataclass(frozen=True)
class Obstacle:
    name: str
    points: tuple[XY, ...]


@dataclass(frozen=True)
class Flag:
    """A stationary flag marker of one player (capture the flag), a square chit."""

    player: str
    at: XY

    @property
    def name(self) -> str:
        return f"flag:{self.player}"


@dataclass(frozen=True)
class Variants:
    obstructed: bool = False
    points: tuple[tuple[str, int], ...] = ()  # point-purchase: value per size
    total: int | None = None  # point-purchase: the fleet total
    stashes: int = 1  # stashes per player
    flag: bool = False  # capture the flag(ship)
    rear_cannon: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        on = [("obstructed", self.obstructed), ("point-purchase", bool(self.points)),
              ("stashes", self.stashes > 1), ("capture-the-flag", self.flag), ("rear-cannon", self.rear_cannon)]
        return tuple(n for n, v in on if v)


@dataclass(frozen=True)
class Scene:
    area: Area
    ships: tuple[Ship, ...]  # as the case lists them; the resolver never relies on this order
    players: tuple[str, ...]  # in turn order
    turn: str  # whose turn it is
    obstacles: tuple[Obstacle, ...] = ()
    flags: tuple[Flag, ...] = ()
    flagships: tuple[tuple[str, str], ...] = ()  # (player, ship)
    variants: Variants = Variants()

    __hash__ = kept_hash  # see Ship
    __getstate__ = state_without_hash

    def ship(self, name: str) -> Ship:
        return next(s for s in self.ships if s.name == name)

    def with_ships(self, ships: tuple[Ship, ...]) -> Scene:
        return Scene(self.area, ships, self.players, self.turn, self.obstacles, self.flags, self.flagships,
                     self.variants)


@dataclass(frozen=True)
class Action:
    """One entry of a case's action list. ``kind``: move, fire, fan (which headings a
    next step may take), range (what the cannons reach), setup (the set-up checks), end
    (the turn passes to the next player)."""

    kind: str
    ship: str = ""
    steps: tuple[float, ...] = ()
    side: str = ""
    target: str = ""


Actions = tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Interval:
    """Allowed headings from ``lo`` to ``hi`` (compass degrees, ``lo`` in [0, 360),
    ``hi`` >= ``lo``, possibly past 360), each end included or not."""

    lo: float
    hi: float
    lo_closed: bool = False
    hi_closed: bool = False

    def contains(self, heading: float) -> bool:
        h = (heading - self.lo) % 360.0 + self.lo
        return (self.lo < h < self.hi) or (self.lo_closed and abs(h - self.lo) <= ANGLE_TOLERANCE) or (
            self.hi_closed and abs(h - self.hi) <= ANGLE_TOLERANCE)

    @property
    def width(self) -> float:
        return self.hi - self.lo


@dataclass(frozen=True)
class State:
    """What a resolution leaves: the scene (sunk ships kept, marked), the last fan each
    ship was asked for, and the winner if the game is over."""

    scene: Scene
    fans: tuple[tuple[str, tuple[Interval, ...]], ...] = ()
    winner: str | None = None


# --- geometry -------------------------------------------------------------------------


def footprint(ship: Ship, reading: str, pose: Pose | None = None) -> Polygon:
    """The ship's footprint under the footprint reading, at its pose (or at ``pose``)."""
    return _footprint(ship.size, reading, pose or ship.pose)


# A resolution asks for the same outlines again and again (every reading of a scene, every
# step checked against every piece); shapely's polygons are immutable, so one may be shared.
@lru_cache(maxsize=2048)
def _footprint(size: str, reading: str, pose: Pose) -> Polygon:
    return outline(footprint_corners(size, reading, pose))


# The corners are asked for more often than the shapes: a scene read checks every ship under
# every footprint by its corners, and the explorer's scenes try each ship against the others.
@lru_cache(maxsize=4096)
def footprint_corners(size: str, reading: str, pose: Pose) -> tuple[XY, ...]:
    """The corners of ``footprint`` of a ship of this size at ``pose``: ``pose.transform.apply_all``
    of the template's points (its sums, with no Rigid made)."""
    c, s = _cos_sin(pose.heading)  # as Rigid(pose.heading, ...) turns (its rotation is the heading, normalised)
    dx, dy = pose.x, pose.y
    return tuple((x * c + y * s + dx, -x * s + y * c + dy) for x, y in TEMPLATES[(size, reading)].points)


def clear_shapes() -> None:
    """Forget the outlines and solids kept (for benchmarks that time work done afresh)."""
    for made in (_footprint, footprint_corners, solid, _planes, _body, obstacle_shape, flag_shape):
        made.cache_clear()


def resting(reading: str) -> str:
    """The footprint of the part of a piece that lies on the table: the face it rests on
    where the reading treats pieces as solids, else the footprint itself."""
    return SOLID_READINGS.get(reading, reading)


@lru_cache(maxsize=2048)
def solid(size: str, pose: Pose) -> tuple[XYZ, ...]:
    """The corners of a pyramid lying on one face (facts.md, armada2k): the resting edge and
    the tip on the table, and the two raised base corners b^2/(2s) ahead of the resting edge,
    b*h/s above the table."""
    b, h, s = BASE[size], HEIGHT[size], slant(size)
    ahead, up = b * b / (2 * s), b * h / s
    corners = ((-b / 2, 0.0, 0.0), (b / 2, 0.0, 0.0), (0.0, s, 0.0), (-b / 2, ahead, up), (b / 2, ahead, up))
    placed = pose.transform.apply_all([(x, y) for x, y, _ in corners])
    return tuple((x, y, z) for (x, y), (_, _, z) in zip(placed, corners))


@lru_cache(maxsize=2048)
def _planes(size: str, pose: Pose) -> tuple[Plane, ...]:
    """The face planes of ``solid(size, pose)``: those of the solid at the origin, turned and moved."""
    c, s = _cos_sin(pose.heading)  # as Rigid(pose.heading).apply_to turns each normal (it shifts by 0.0)
    planes = []
    for nx, ny, nz, offset in _LOCAL_PLANES[size]:
        wx, wy = nx * c + ny * s + 0.0, -nx * s + ny * c + 0.0
        planes.append((wx, wy, nz, offset + wx * pose.x + wy * pose.y))
    return tuple(planes)


_LOCAL_PLANES = {size: solid_planes(solid(size, Pose(0.0, 0.0))) for size in SIZES}


def solids_contact(a: tuple[str, Pose], b: tuple[str, Pose]) -> Contact:
    """``classify_solids`` of two pieces (size, pose) as the solids they are: settled by their
    face planes where they can (``sure_solids_contact``), which is most of the time. A deep
    common point is looked for above the faces they lie on, then above their outlines."""
    body_a, planes_a, face_a, outline_a = _body(*a)
    body_b, planes_b, face_b, outline_b = _body(*b)
    sure = sure_solids_contact(body_a, planes_a, body_b, planes_b, ((face_a, face_b), (outline_a, outline_b)))
    return classify_solids(body_a, body_b) if sure is None else sure


_OUTLINE = (0, 1, 4, 2, 3)  # the corners of ``solid`` round its outline: as the pentagon footprint's
Body = tuple[tuple[XYZ, ...], tuple[Plane, ...], tuple[XY, ...], tuple[XY, ...]]


@lru_cache(maxsize=2048)
def _body(size: str, pose: Pose) -> Body:
    """What ``solids_contact`` asks of a piece: ``solid`` and ``_planes``, and the corners (see
    ``solid``) of the face it lies on and of its outline, counter-clockwise."""
    body = solid(size, pose)
    face = tuple((x, y) for x, y, _ in body[:3])
    return body, _planes(size, pose), face, tuple((body[i][0], body[i][1]) for i in _OUTLINE)


def pieces_contact(a: Ship, b: Ship, reading: str, pose: Pose | None = None) -> Contact:
    """How two ships meet (``a`` at ``pose`` if given): by their footprints, and where the
    reading treats pieces as solids, by the solids wherever the footprints meet (outlines
    apart means solids apart, since each outline is its solid seen from above)."""
    contact = classify(footprint(a, reading, pose), footprint(b, reading))
    if reading not in SOLID_READINGS or contact is Contact.APART:
        return contact
    return solids_contact((a.size, pose or a.pose), (b.size, b.pose))


def bow(ship: Ship, reading: str) -> XY:
    return ship.pose.apply(TEMPLATES[(ship.size, reading)].bow)


@lru_cache(maxsize=256)
def obstacle_shape(obstacle: Obstacle) -> Polygon:
    return Polygon(obstacle.points)


@lru_cache(maxsize=256)
def flag_shape(flag: Flag) -> Polygon:
    x, y, r = flag.at[0], flag.at[1], FLAG_SIDE / 2
    return Polygon([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)])


@lru_cache(maxsize=32)
def area_shape(area: Area) -> Polygon:
    """The area as a polygon, for drawing and for polygon areas; circles are tested exactly elsewhere."""
    from verifier.kit.geometry import circle
    return circle(area.centre, area.radius, 256) if area.is_circle else Polygon(area.points)


FEATURES = (
    Feature("obstructed", "the obstructed variant: reefs and islands that block movement and shots"),
    Feature("point-purchase", "the point-purchase variant: fleets bought with points"),
    Feature("stashes", "more than one stash of pieces per player"),
    Feature("capture-the-flag", "the capture-the-flag variant: flag markers and flagships"),
    Feature("rear-cannon", "the rear-cannon variant: large ships fire from the stern"),
)


def features_needed(scene: Scene, actions: Actions) -> frozenset[str]:
    """The variants the scene plays."""
    return frozenset(scene.variants.names)
