"""What the explorer needs (Capability.SEARCH, FINDINGS, EXHAUSTIVE), and the benchmark
suite (Capability.BENCHMARKS). ``ArmadaRuleset`` forwards to these functions by name."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ...kept import Kept
from ...kit.choices import Choices
from ...kit.choices import strategy as choices_strategy
from ...kit.geometry import Pose
from ...ruleset import Outcome, Transform
from .model import (
    FEATURES,
    PLAY_AREA,
    SHIP_TYPES,
    TOOL_MODELS,
    Maneuver,
    Maneuvers,
    Obstacle,
    Result,
    Scene,
    Ship,
    ShipType,
    Squadron,
    ToolModel,
)
from .tool import bases_apart, inserted, overlaps, placed, round_contact

# --- Capability.SEARCH ---------------------------------------------------------------------

SHORT_TOOL = ToolModel("case", 40.0, 27.0, 15.25, 7.625, 0.0)
LARGE = ShipType("star-destroyer", "large", ((2,), (2, 2), (2, 2, 2)))


_POSE_KEYS: Kept[Pose, tuple[float, float, float]] = Kept(4096)  # the same poses end every reading's outcome


def _pose_key(pose: Pose) -> tuple[float, float, float]:
    return _POSE_KEYS.get(pose, lambda: (round(pose.x, 3) + 0.0, round(pose.y, 3) + 0.0, round(pose.heading, 3) % 360))


def outcome_key(outcome: Outcome) -> tuple:
    """Where every ship ends (to a thousandth of a mm), its dial, damage and fate, the other
    side's end where the owner's choice was open, and what happened."""
    after: Result = outcome.after
    ships = tuple((s.name, *_pose_key(s.pose), s.speed, s.damage, s.destroyed) for s in after.ships)
    choices = tuple((m.ship, m.alternative.side, *_pose_key(m.alternative.end)) for m in after.moves
                    if m.alternative is not None)
    return ships, choices, tuple(sorted((e.kind, e.pieces) for e in outcome.events))


def _legal_course(kind, speed: int, choose: Choices) -> tuple[int, ...]:
    if speed == 0:
        return ()
    return tuple(choose.integer(-limit, limit) for limit in kind.chart[speed - 1])


def _fits(scene_w: float, scene_h: float, ship: Ship, others: list[Ship]) -> bool:
    x0, y0, x1, y1 = ship.base.bounds
    if x0 < 0 or y0 < 0 or x1 > scene_w or y1 > scene_h:
        return False
    return not any(not bases_apart(ship, o) and overlaps(ship.base, o.base) for o in others)


def scene(choose: Choices, features: frozenset[str] | None = None) -> tuple[Scene, Maneuvers]:
    """A moving ship, with other ships, a squadron or an obstacle set near where its course
    would take it, often near an edge; headings and positions on a 5 mm and 22.5 degree
    lattice so that bases often just touch. Only the features in ``features`` (default: all of them)."""
    if features is None:
        features = frozenset(f.name for f in FEATURES)
    width = height = PLAY_AREA
    types = sorted(SHIP_TYPES)
    # now and then a case's own short tool and a large ship of a case's own type, whose base spans two joints
    own_tool = "own-tool" in features and choose.integer(0, 3) == 0
    kind = LARGE if own_tool and choose.flag() else SHIP_TYPES[choose.pick(types)]
    speed = choose.integer(0, kind.max_speed)
    near_edge = choose.flag()
    x = choose.integer(12, 170) * 5.0 if near_edge else choose.integer(50, 130) * 5.0
    y = choose.integer(12, 170) * 5.0 if near_edge else choose.integer(50, 130) * 5.0
    heading = choose.integer(0, 15) * 22.5
    mover = Ship("a", "red", kind, Pose(x, y, heading), speed)
    if not _fits(width, height, mover, []):
        mover = Ship("a", "red", kind, Pose(457.0, 457.0, heading), speed)
    # a pair of ships placed as mirror images across a straight course: every range to them ties
    mirrored = choose.integer(0, 3) == 0
    course = (0,) * speed if mirrored else _legal_course(kind, speed, choose)
    yaw = choose.pick((0, 1, -1, 2, -2)) if speed == 0 else 0
    side = choose.pick(("port", "starboard", None)) if speed else None
    tool = SHORT_TOOL if own_tool else TOOL_MODELS["model-a"]
    inserted_tool = inserted(mover, tool, side or "starboard", course)
    target = placed(mover, tool, inserted_tool, speed) if speed else mover.pose
    # the second ship may stand by a lower speed's placement, so the ship overlaps different ships on its way down
    lower = placed(mover, tool, inserted_tool, speed - 1) if speed > 1 else target
    ships = [mover]
    for name in "bc"[: choose.integer(0, 2)]:
        if name == "c" and mirrored and len(ships) == 2:
            b = ships[1]
            local = target.local((b.pose.x, b.pose.y))
            x, y = target.apply((-local[0], local[1]))
            other = Ship(name, "blue", b.type, Pose(x, y, 2 * target.heading - b.pose.heading), 0)
        else:
            other_kind = SHIP_TYPES[choose.pick(types)]
            anchor = lower if name == "c" and choose.flag() else target
            pose = Pose(round(anchor.x / 5) * 5 + choose.integer(-16, 16) * 5.0,
                        round(anchor.y / 5) * 5 + choose.integer(-16, 16) * 5.0, choose.integer(0, 7) * 45.0)
            other = Ship(name, "blue", other_kind, pose, 0)
        if _fits(width, height, other, ships):
            ships.append(other)
    squadrons = []
    if "squadrons" in features and choose.flag():
        at = (round(target.x) + choose.integer(-12, 12) * 5.0, round(target.y) + choose.integer(-12, 12) * 5.0)
        squadron = Squadron("s", "blue", at, 20.0)
        inside = 20 <= at[0] <= width - 20 and 20 <= at[1] <= height - 20
        if inside and not any(round_contact(at, 20.0, s.base).value == "overlapping" for s in ships):
            squadrons.append(squadron)
    obstacles = []
    if "obstacles" in features and choose.flag():
        ox, oy = round(target.x) + choose.integer(-10, 10) * 5.0, round(target.y) + choose.integer(-10, 10) * 5.0
        r = choose.integer(3, 8) * 5.0
        obstacle = choose.pick(("asteroids", "station"))
        obstacles.append(Obstacle("rock", ((ox - r, oy - r), (ox + r, oy - r), (ox + r, oy + r), (ox - r, oy + r)),
                                  obstacle))
    maneuvers: Maneuvers = (Maneuver("a", course, side, yaw),)
    if len(ships) > 1 and choose.flag():  # then another ship moves too, after a: into where a ended, or not
        other = ships[1]
        other_speed = choose.integer(1, other.type.max_speed)
        ships[1] = replace(other, speed=other_speed)
        maneuvers = (Maneuver("a", course, side or ("starboard" if speed else None), yaw),
                     Maneuver(other.name, _legal_course(other.type, other_speed, choose),
                              choose.pick(("port", "starboard"))))
    return (Scene(width, height, tuple(ships), tuple(squadrons), tuple(obstacles), SHORT_TOOL if own_tool else None),
            maneuvers)


def strategy(features: frozenset[str] | None = None) -> Any:
    """Scenes with only the features in ``features`` (default: all of them)."""
    return choices_strategy(lambda choose: scene(choose, features))


def _mirror_pose(pose: Pose, width: float) -> Pose:
    return Pose(width - pose.x, pose.y, (360 - pose.heading) % 360)


def transforms(scene: Scene, maneuvers: Maneuvers) -> list[Transform]:
    """Listing pieces the other way round changes nothing. Mirroring the play area east-west
    mirrors every end, with port and starboard and every click swapped (not offered where the
    owner's side was left open: the first of the two choices is port)."""
    w = scene.width
    reordered = replace(scene, ships=scene.ships[::-1], squadrons=scene.squadrons[::-1],
                        obstacles=scene.obstacles[::-1])
    found = [Transform("order", "reversed listing", reordered, maneuvers, lambda key: key)]
    if any(m.side is None and m.speed for m in maneuvers):
        return found
    mirrored = replace(
        scene, ships=tuple(s.at(_mirror_pose(s.pose, w)) for s in scene.ships),
        squadrons=tuple(Squadron(q.name, q.owner, (w - q.at[0], q.at[1]), q.radius) for q in scene.squadrons),
        obstacles=tuple(Obstacle(o.name, tuple((w - x, y) for x, y in o.points), o.kind) for o in scene.obstacles))
    flip = {"port": "starboard", "starboard": "port", None: None}
    moves = tuple(Maneuver(m.ship, tuple(-c for c in m.course), flip[m.side], -m.yaw, m.additional, m.navigate)
                  for m in maneuvers)

    def mirror_key(key: tuple) -> tuple:
        ships, choices, events = key
        return (tuple((n, round(w - x, 3) + 0.0, y, round((360 - h) % 360, 3) % 360, *rest)
                      for n, x, y, h, *rest in ships), choices, events)

    found.append(Transform("symmetry", "mirror east-west", mirrored, moves, mirror_key))
    return found


def invariant_breaches(scene: Scene, maneuvers: Maneuvers, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """What no reading may do: leave two ships overlapping."""
    after: Result = outcome.after
    live = [s for s in after.ships if not s.destroyed]
    return [("two ships end overlapping", (a.name, b.name), "") for a, b in itertools.combinations(live, 2)
            if overlaps(a.base, b.base)]


def simpler(scene: Scene, maneuvers: Maneuvers) -> Iterator[tuple[Scene, Maneuvers]]:
    """One ship fewer (with its maneuvers), one squadron or obstacle fewer, the last maneuver fewer."""
    for ship in scene.ships if len(scene.ships) > 1 else ():
        rest = tuple(m for m in maneuvers if m.ship != ship.name)
        if rest:
            yield replace(scene, ships=tuple(s for s in scene.ships if s is not ship)), rest
    for q in scene.squadrons:
        yield replace(scene, squadrons=tuple(x for x in scene.squadrons if x is not q)), maneuvers
    for o in scene.obstacles:
        yield replace(scene, obstacles=tuple(x for x in scene.obstacles if x is not o)), maneuvers
    if len(maneuvers) > 1 and maneuvers[-2].side is not None:
        yield scene, maneuvers[:-1]


# --- Capability.EXHAUSTIVE ---------------------------------------------------------------------

EXHAUSTIVE_SPACES = {
    "trio": "a CR90 at [300, 300] facing north at speed 2 goes straight, or 1 click either way at joint 2, with the "
            "tool on its starboard side; two Nebulon-Bs stand at every pair of points of a lattice ahead of it "
            "(x 240..360 every 30 mm, y 350..430 every 40 mm, facing north or east) where no two bases overlap",
    "pair": "a CR90 (small base) at [300, 300] facing north at speed 2 makes every course its chart allows at "
            "speed 2 (15 courses) with the tool on its starboard side, and a Nebulon-B stands at every point of a "
            "30 mm lattice ahead of it (x 210..420, y 330..540) facing north, north-east, east or south-east, "
            "wherever the two bases do not overlap at the start",
    "yaw": "a CR90 at [300, 300] facing north makes a 0-speed yaw of 1 or 2 clicks either way, and a Nebulon-B "
           "stands at every point of a 15 mm lattice around it (x 195..405, y 195..405), facing north or east",
}


def _pair() -> list[tuple[Scene, Maneuvers]]:
    mover = Ship("a", "red", SHIP_TYPES["cr90"], Pose(300.0, 300.0, 0.0), 2)
    courses = [(c1, c2) for c1 in (-1, 0, 1) for c2 in (-2, -1, 0, 1, 2)]
    scenes: list[tuple[Scene, Maneuvers]] = []
    for x, y, h in itertools.product(range(210, 421, 30), range(330, 541, 30), (0.0, 45.0, 90.0, 135.0)):
        other = Ship("b", "blue", SHIP_TYPES["nebulon-b"], Pose(float(x), float(y), h), 0)
        if overlaps(mover.base, other.base):
            continue
        scene = Scene(PLAY_AREA, PLAY_AREA, (mover, other))
        scenes += [(scene, (Maneuver("a", course, "starboard"),)) for course in courses]
    return scenes


def _trio() -> list[tuple[Scene, Maneuvers]]:
    mover = Ship("a", "red", SHIP_TYPES["cr90"], Pose(300.0, 300.0, 0.0), 2)
    spots = [Pose(float(x), float(y), h) for x, y, h in itertools.product(range(240, 361, 30), range(350, 431, 40),
                                                                            (0.0, 90.0))]
    scenes: list[tuple[Scene, Maneuvers]] = []
    for first, second in itertools.combinations(spots, 2):
        b = Ship("b", "blue", SHIP_TYPES["nebulon-b"], first, 0)
        c = Ship("c", "blue", SHIP_TYPES["nebulon-b"], second, 0)
        if overlaps(mover.base, b.base) or overlaps(mover.base, c.base) or overlaps(b.base, c.base):
            continue
        scene = Scene(PLAY_AREA, PLAY_AREA, (mover, b, c))
        scenes += [(scene, (Maneuver("a", course, "starboard"),)) for course in ((0, 0), (0, 1), (0, -1))]
    return scenes


def _yaw() -> list[tuple[Scene, Maneuvers]]:
    mover = Ship("a", "red", SHIP_TYPES["cr90"], Pose(300.0, 300.0, 0.0), 0)
    scenes: list[tuple[Scene, Maneuvers]] = []
    for x, y, h in itertools.product(range(195, 406, 15), range(195, 406, 15), (0.0, 90.0)):
        other = Ship("b", "blue", SHIP_TYPES["nebulon-b"], Pose(float(x), float(y), h), 0)
        if overlaps(mover.base, other.base):
            continue
        scene = Scene(PLAY_AREA, PLAY_AREA, (mover, other))
        scenes += [(scene, (Maneuver("a", (), None, yaw),)) for yaw in (-2, -1, 1, 2)]
    return scenes


def exhaustive_space(name: str) -> tuple[int, Iterator[tuple[Scene, Maneuvers]]]:
    if name not in EXHAUSTIVE_SPACES:
        raise KeyError(name)
    scenes = {"trio": _trio, "pair": _pair, "yaw": _yaw}[name]()
    return len(scenes), iter(scenes)
