"""The reference resolver: a pure function of (scene, maneuvers, reading).

Maneuvers are made one after another, in the order the case gives them (ships
activate in turn). Within a maneuver nothing depends on the order pieces are
listed in: candidates come from a spatial index and are taken in order of name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

from shapely.geometry.base import BaseGeometry

from ...kept import Kept, KeptFor
from ...kit import geometry
from ...kit.geometry import TOLERANCE, Contact, Pose, ShapeIndex, distance, rectangle
from ...kit.memo import ReadingMemo
from ...kit.words import count
from ...ruleset import Cause, Decision, Event, Frame, Outcome, Refusal, refused_outcome
from .model import (
    BASE_SIZES,
    SIDES,
    TOOL_MODELS,
    Attempt,
    Maneuver,
    Maneuvers,
    Move,
    Obstacle,
    Result,
    Scene,
    Ship,
    Squadron,
    ToolModel,
    ToolPose,
)
from .parse import forget_scenes
from .tool import (
    forget_placements,
    inserted,
    overlaps,
    placed,
    round_contact,
    tool_inside,
    tool_overlaps,
    tool_shape,
    yawed,
)

OTHER_SIDE = {"port": "starboard", "starboard": "port"}

_Named = TypeVar("_Named", Ship, Squadron, Obstacle)

_HALF_DIAGONAL = {size: math.hypot(width, length) / 2 for size, (width, length) in BASE_SIZES.items()}
_ROUND_OFF = 1e-6  # mm: far beyond the round-off of a base's corners (about 1e-13 across a table)


def tool_of(scene: Scene, reading: Mapping[str, str]) -> ToolModel:
    return scene.tool if scene.tool is not None else TOOL_MODELS[reading["tool"]]


def base_at(ship: Ship, pose: Pose) -> BaseGeometry:
    width, length = ship.size
    return rectangle(pose, width, length)


def inside_area(scene: Scene, ship: Ship, pose: Pose) -> bool:
    """Whether the ship's base at ``pose`` lies inside the play area (to TOLERANCE): surely where
    the circle round it does, with room to spare for round-off; else by the base's bounds."""
    reach = _HALF_DIAGONAL[ship.type.size] + _ROUND_OFF
    if reach <= pose.x <= scene.width - reach and reach <= pose.y <= scene.height - reach:
        return True
    x0, y0, x1, y1 = base_at(ship, pose).bounds
    return x0 >= -TOLERANCE and y0 >= -TOLERANCE and x1 <= scene.width + TOLERANCE and y1 <= scene.height + TOLERANCE


class _Layout:
    """Named shapes in a spatial index, with what was found near and under the shapes asked
    about, kept by shape. One scene is resolved under many readings and sent again in other
    orders: each resolution starts from the same pieces and asks the same questions of the
    same shapes (a base at one pose is made once: kit.geometry.rectangle)."""

    def __init__(self, shapes: Mapping[str, BaseGeometry]) -> None:
        self.index = ShapeIndex(shapes)
        self._near: KeptFor[tuple[str, ...]] = KeptFor(256)
        self._under: KeptFor[tuple[str, ...]] = KeptFor(256)

    def __len__(self) -> int:
        return len(self.index)

    def near(self, shape: BaseGeometry) -> tuple[str, ...]:
        """The names of the shapes that touch or overlap ``shape``, in order of name."""
        return self._near.get(shape, lambda: tuple(self.index.near(shape)))

    def under(self, shape: BaseGeometry, find: Callable[[], tuple[str, ...]],
              given: Hashable = None) -> tuple[str, ...]:
        """What ``find`` finds under ``shape`` (told ``given``), found once."""
        return self._under.get(shape, find, given)


_LAYOUTS: Kept[Hashable, _Layout] = Kept(256)  # by what the shapes are made from


def _layout(key: Hashable, shapes: Callable[[], Mapping[str, BaseGeometry]]) -> _Layout:
    return _LAYOUTS.get(key, lambda: _Layout(shapes()))


@dataclass
class _Board:
    """The ships as they stand between maneuvers (a working copy inside one resolution)."""

    scene: Scene
    ships: dict[str, Ship]
    tool: ToolModel
    index: _Layout = field(init=False)
    indexed: dict[str, Pose] = field(init=False)
    moved: dict[str, BaseGeometry] = field(init=False)
    squadrons: _Layout = field(init=False)
    obstacles: _Layout = field(init=False)
    squadron: dict[str, Squadron] = field(init=False)
    obstacle: dict[str, BaseGeometry] = field(init=False)
    obstacle_kind: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.reindex()
        # In order of name (a stable sort: a name listed twice keeps the last, as a dict of the listing
        # does), so that a scene listed in another order finds the same layout.
        squadrons = tuple(sorted(self.scene.squadrons, key=lambda q: q.name))
        obstacles = tuple(sorted(self.scene.obstacles, key=lambda o: o.name))
        self.squadrons = _layout(("squadrons", squadrons), lambda: {
            q.name: rectangle(Pose(*q.at), 2 * q.radius, 2 * q.radius) for q in squadrons})
        self.obstacles = _layout(("obstacles", obstacles), lambda: {o.name: o.shape for o in obstacles})
        self.squadron = {q.name: q for q in self.scene.squadrons}
        self.obstacle = {o.name: o.shape for o in self.scene.obstacles}
        self.obstacle_kind = {o.name: o.kind for o in self.scene.obstacles}

    def reindex(self) -> None:
        live = tuple((n, s) for n, s in sorted(self.ships.items()) if not s.destroyed)
        self.index = _layout(("ships", tuple((n, s.type.size, s.pose) for n, s in live)),
                             lambda: {n: s.base for n, s in live})
        self.indexed = {n: s.pose for n, s in self.ships.items() if not s.destroyed}
        self.moved = {}

    def move(self, ship: Ship) -> None:
        """Record a ship's new state; the index is rebuilt only once many have moved, so that a
        maneuver among many ships costs a lookup, not a rebuild."""
        self.ships[ship.name] = ship
        if self.indexed.get(ship.name) != ship.pose or ship.destroyed:
            self.moved[ship.name] = ship.base
        else:  # back where the index has it
            self.moved.pop(ship.name, None)
        if len(self.moved) > 8 + len(self.indexed) ** 0.5:
            self.reindex()

    def _live(self, name: str) -> bool:
        return not self.ships[name].destroyed

    def near(self, base: BaseGeometry) -> list[str]:
        """Ships whose bases touch or overlap ``base``, in order of name."""
        if not self.moved:  # the index alone, as it answered before
            return list(self.index.near(base))
        found = {n for n in self.index.near(base) if n not in self.moved}
        found |= {n for n, shape in self.moved.items()
                  if self._live(n) and shape.distance(base) <= TOLERANCE}
        return sorted(found)

    def out_of_reach(self, mover: str, pose: Pose, size: str) -> bool:
        """Whether every other ship stands too far from a base of ``size`` centred at ``pose`` to
        touch it: the circles round the two bases more than TOLERANCE apart, with room to spare
        for round-off. Then ``near`` finds no ship but the mover, without making a shape."""
        reach = _HALF_DIAGONAL[size] + TOLERANCE + _ROUND_OFF
        x, y = pose.x, pose.y
        for name, ship in self.ships.items():
            if name != mover and not ship.destroyed and math.hypot(ship.pose.x - x, ship.pose.y - y) <= (
                    reach + _HALF_DIAGONAL[ship.type.size]):
                return False
        return True

    def ships_under(self, mover: str, base: BaseGeometry) -> tuple[str, ...]:
        def found() -> tuple[str, ...]:
            return tuple(n for n in self.near(base) if n != mover and overlaps(base, self.ships[n].base))
        return found() if self.moved else self.index.under(base, found, mover)

    def squadrons_under(self, ship: Ship, pose: Pose) -> tuple[str, ...]:
        """The squadrons the ship's base overlaps at ``pose`` (the base is made only if there are any)."""
        if not len(self.squadrons):
            return ()
        base = base_at(ship, pose)

        def found() -> tuple[str, ...]:
            return tuple(name for name in self.squadrons.near(base)
                         if round_contact(self.squadron[name].at, self.squadron[name].radius, base)
                         is Contact.OVERLAPPING)
        return self.squadrons.under(base, found)

    def obstacles_under(self, ship: Ship, pose: Pose) -> tuple[str, ...]:
        """The obstacles the ship's base overlaps at ``pose`` (the base is made only if there are any)."""
        if not len(self.obstacles):
            return ()
        base = base_at(ship, pose)

        def found() -> tuple[str, ...]:
            return tuple(n for n in self.obstacles.near(base) if overlaps(base, self.obstacle[n]))
        return self.obstacles.under(base, found)


@lru_cache(maxsize=1024)  # a Cause is an immutable value: one is shared
def _applied(clause: str, step: int) -> Cause:
    return Cause.applied(clause, step)


@dataclass
class _Log:
    events: list[Event] = field(default_factory=list)
    causes: dict[str, list[Cause]] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    consulted: set[str] = field(default_factory=set)

    def cause(self, ship: str, clause: str, step: int) -> None:
        self.causes.setdefault(ship, []).append(_applied(clause, step))

    def followed(self, ship: str, point: str, option: str, step: int) -> None:
        self.causes.setdefault(ship, []).append(Cause.followed(point, option, step))
        self.consulted.add(point)

    def event(self, kind: str, pieces: tuple[str, ...], clause: str, step: int, detail: str = "",
              at: object = None) -> None:
        self.events.append(Event(kind, pieces, step, "move", clause, detail, at, step))


def _attempt(board: _Board, ship: Ship, pose: Pose, speed: int, tool: ToolPose | None,
             reading: Mapping[str, str]) -> Attempt:
    ships = () if board.out_of_reach(ship.name, pose, ship.type.size) else \
        board.ships_under(ship.name, base_at(ship, pose))
    return Attempt(speed, pose, ships, board.squadrons_under(ship, pose),
                   tool is not None and _in_the_way(board, ship, pose, speed, tool))


def _in_the_way(board: _Board, ship: Ship, pose: Pose, speed: int, tool: ToolPose) -> bool:
    """Whether the ship set down at ``pose`` overlaps the tool: only at the speed set, and as far
    as the model keeps the tool clear of its own base."""
    width, length = ship.size
    return speed > 0 and _tool_overlaps(board.tool, tool, pose, board.tool.base_width(ship.type.size, width), length)


_TOOL_OVERLAPS: Kept[tuple[ToolModel, ToolPose, Pose, float, float], bool] = Kept(4096)


def _tool_overlaps(tool: ToolModel, inserted: ToolPose, pose: Pose, width: float, length: float) -> bool:
    """Whether a base ``width`` by ``length`` at ``pose`` overlaps the inserted tool: kept, since
    every resolution of a scene that inserts the tool alike asks again."""
    return _TOOL_OVERLAPS.get((tool, inserted, pose, width, length),
                              lambda: tool_overlaps(tool, inserted, pose, width, length))


def _blocked(attempt: Attempt, reading: Mapping[str, str]) -> bool:
    return bool(attempt.ships) or (reading["squadron"] == "as-ship" and bool(attempt.squadrons))


def _closest(board: _Board, base: BaseGeometry, candidates: list[str], reading: Mapping[str, str],
             log: _Log, mover: str, step: int) -> tuple[tuple[str, ...], tuple[tuple[str, float], ...]]:
    """The overlapped ship(s) nearest the moving ship's final base, by the FAQ's measuring.
    ``candidates`` are in the order they would be measured."""
    ranges = [(name, distance(base, board.ships[name].base)) for name in candidates]
    least = min(r for _, r in ranges)
    tied = [name for name, r in ranges if r <= least + TOLERANCE]
    if len(tied) > 1:
        option = reading["closest-tie"]
        log.followed(mover, "closest-tie", option, step)
        log.decisions.append(Decision("closest-tie", ("faq.closest",), (option,), (mover, *tied), step,
                                      detail=f"{', '.join(tied)} are all {least:.2f} mm from {mover}"))
        chosen = tuple(tied) if option == "both" else (tied[-1],)
    else:
        chosen = (tied[0],)
    return chosen, tuple((n, round(r, 6)) for n, r in ranges)


def _damage(board: _Board, names: tuple[str, ...], log: _Log, clause: str, step: int) -> None:
    for name in names:
        ship = board.ships[name]
        board.ships[name] = Ship(ship.name, ship.owner, ship.type, ship.pose, ship.speed, ship.damage + 1,
                                 ship.destroyed)
        log.event("damage", (name,), clause, step, "one facedown damage card")
        log.cause(name, clause, step)


def _finish(board: _Board, ship: Ship, move: Move, log: _Log, step: int) -> Move:
    """What the final position does: the edge, obstacles and squadrons under the base."""
    destroyed = not inside_area(board.scene, ship, move.end)
    if destroyed:
        log.event("destroyed", (ship.name,), "edge.destroyed", step, "its base ends partly outside the play area")
        log.cause(ship.name, "edge.destroyed", step)
    if move.tool is not None and not tool_inside(board.tool, move.tool, board.scene.width, board.scene.height):
        log.cause(ship.name, "edge.tool-outside", step)
    obstacles = board.obstacles_under(ship, move.end)
    for name in obstacles:
        log.event("obstacle", (ship.name, name), "obstacle.final", step, "its base ends on the obstacle")
        log.cause(ship.name, "obstacle.final", step)
        if board.obstacle_kind[name] == "station":
            log.cause(ship.name, "faq.station", step)
    squadrons = board.squadrons_under(ship, move.end)
    for name in squadrons:
        log.event("squadron", (ship.name, name), "overlap.reduce", step,
                  "its base ends on the squadron, which its owner sets aside")
    if squadrons:
        log.followed(ship.name, "squadron", "aside", step)
        log.decisions.append(Decision("squadron", (), (), (ship.name, *squadrons), step, near=("move.through",
                                      "overlap.reduce"), detail=f"{ship.name} ends on {', '.join(squadrons)}"))
    return Move(move.ship, move.start, move.end, move.speed, move.side, move.tool, move.attempts, move.switched,
                move.damaged, move.closest, move.distances, obstacles, squadrons, destroyed, move.yaw_back,
                move.alternative)


def _sides(board: _Board, ship: Ship, tool: ToolModel, maneuver: Maneuver) -> dict[str, tuple[ToolPose, bool]]:
    """The tool inserted on either side, and whether the ship set down along it would overlap it."""
    found = {}
    for side in SIDES:
        pose = inserted(ship, tool, side, maneuver.course)
        found[side] = (pose, _in_the_way(board, ship, placed(ship, tool, pose, maneuver.speed), maneuver.speed, pose))
    return found


def _first_attempt(board: _Board, ship: Ship, tool: ToolModel, maneuver: Maneuver, pose: ToolPose,
                   reading: Mapping[str, str]) -> tuple[ToolPose, Attempt]:
    """The placement at the speed set along the tool inserted at ``pose``."""
    return pose, _attempt(board, ship, placed(ship, tool, pose, maneuver.speed), maneuver.speed, pose, reading)


def _choose_side(ship: Ship, maneuver: Maneuver, sides: dict, reading: Mapping[str, str], log: _Log,
                 step: int) -> tuple[str, bool, str | None]:
    """(side, switched, open alternative side) for a maneuver at speed > 0."""
    log.cause(ship.name, "move.same-side", step)
    clear = [s for s in SIDES if not sides[s][1]]
    first = maneuver.side or (clear[0] if clear else "port")
    if maneuver.side is None and len(clear) == 2:
        log.cause(ship.name, "move.choose-side", step)
        log.event("open-side", (ship.name,), "move.choose-side", step,
                  "the tool clears the base on either side: the owner chooses, and both are given")
        return "port", False, "starboard"
    if first in clear:
        if maneuver.side is None:  # only one side clears the tool: no choice to make
            log.cause(ship.name, "move.tool-overlap", step)
        return first, False, None
    log.cause(ship.name, "move.tool-overlap", step)
    second = OTHER_SIDE[first]
    if second in clear:
        log.event("switch", (ship.name,), "move.tool-overlap", step,
                  f"on the {first} side it would overlap the tool, so the tool goes to the {second} side")
        return second, True, None
    option = reading["both-sides"]
    log.followed(ship.name, "both-sides", option, step)
    log.decisions.append(Decision("both-sides", (), (), (ship.name,), step, near=("move.tool-overlap",),
                                  detail=f"{ship.name} would overlap the tool on both sides"))
    log.event("tool-both", (ship.name,), "move.tool-overlap", step,
              f"it would overlap the tool on the {first} side and on the {second} side too")
    if option == "first-side":
        return first, False, None
    if option == "stay":
        return first, False, "stay"
    return second, True, None


def _maneuver(board: _Board, maneuver: Maneuver, tool: ToolModel, reading: Mapping[str, str], log: _Log,
              step: int, model_known: bool) -> Move:
    ship = board.ships[maneuver.ship]
    log.cause(ship.name, "course.free", step)
    if maneuver.additional:
        log.cause(ship.name, "faq.additional", step)
    if maneuver.navigate:
        log.cause(ship.name, "course.navigate", step)
    if maneuver.speed == 0 and not maneuver.yaw:
        log.cause(ship.name, "zero.still", step)
        log.event("still", (ship.name,), "zero.still", step, "speed 0: it stays, and has made a maneuver")
        return _finish(board, ship, Move(ship.name, ship.pose, ship.pose, 0, None, None,
                                         (Attempt(0, ship.pose),)), log, step)
    if not model_known:
        log.followed(ship.name, "tool", reading["tool"], step)
        log.decisions.append(Decision("tool", (), (), (ship.name,), step, near=("tool.model",),
                                      detail="the tool's dimensions are not published"))
    log.cause(ship.name, "tool.model", step)
    if maneuver.speed == 0:
        return _zero_yaw(board, ship, maneuver, tool, reading, log, step)
    log.cause(ship.name, "course.clicks", step)
    log.cause(ship.name, "move.insert", step)
    log.cause(ship.name, "move.through", step)
    log.cause(ship.name, "faq.over", step)
    sides = _sides(board, ship, tool, maneuver)
    side, switched, alternative = _choose_side(ship, maneuver, sides, reading, log, step)
    if alternative == "stay":
        attempt = _first_attempt(board, ship, tool, maneuver, sides[side][0], reading)[1]
        move = Move(ship.name, ship.pose, ship.pose, 0, side, sides[side][0], (attempt,))
        return _finish(board, ship, move, log, step)
    # the other side, when the owner's choice is open, in a board of its own (its damage is its own)
    branch = _Board(board.scene, dict(board.ships), board.tool) if alternative is not None else None
    move = _along(board, ship, maneuver, tool, side, switched,
                  _first_attempt(board, ship, tool, maneuver, sides[side][0], reading), reading, log, step)
    if branch is not None and alternative is not None:
        found = _first_attempt(branch, ship, tool, maneuver, sides[alternative][0], reading)
        other = _along(branch, ship, maneuver, tool, alternative, False, found, reading, _Log(), step)
        move = replace(move, alternative=other)
    return move


def _along(board: _Board, ship: Ship, maneuver: Maneuver, tool: ToolModel, side: str, switched: bool,
           found: tuple[ToolPose, Attempt], reading: Mapping[str, str], log: _Log, step: int) -> Move:
    """Set the ship down at its speed on ``side``, dropping speed while it overlaps a ship."""
    pose, first = found
    attempts = [first]
    log.cause(ship.name, "course.locked", step)
    while _blocked(attempts[-1], reading):
        tried = attempts[-1]
        for other in tried.ships:
            log.event("overlap", (ship.name, other), "overlap.reduce", step,
                      f"at speed {tried.speed} it would overlap {other}", at=tried.speed)
        if tried.squadrons and reading["squadron"] == "as-ship":
            log.followed(ship.name, "squadron", "as-ship", step)
            log.decisions.append(Decision("squadron", (), (), (ship.name, *tried.squadrons), step,
                                          near=("move.through", "overlap.reduce"),
                                          detail=f"{ship.name} would end on {', '.join(tried.squadrons)}"))
            for name in tried.squadrons:
                log.event("overlap", (ship.name, name), "overlap.reduce", step,
                          f"at speed {tried.speed} it would overlap the squadron {name}", at=tried.speed)
        log.cause(ship.name, "overlap.reduce", step)
        speed = tried.speed - 1
        attempts.append(_attempt(board, ship, placed(ship, tool, pose, speed), speed, pose, reading))
    final = attempts[-1]
    if len(attempts) > 1 and final.tool:
        log.cause(ship.name, "overlap.tool-ok", step)
    if final.speed > 0 and _touches_any(board, ship, final.pose):  # touching a ship is no overlap
        log.cause(ship.name, "overlap.touch", step)
    move = Move(ship.name, ship.pose, final.pose, final.speed, side, pose, tuple(attempts), switched)
    hit = [a for a in attempts if a.ships]
    if hit:
        move = _overlap_damage(board, ship, move, hit, reading, log, step, "overlap.damage")
    return _finish(board, ship, move, log, step)


def _touches_any(board: _Board, ship: Ship, pose: Pose) -> bool:
    if board.out_of_reach(ship.name, pose, ship.type.size):
        return False
    base = base_at(ship, pose)
    return any(n != ship.name for n in board.near(base))


def _overlap_damage(board: _Board, ship: Ship, move: Move, hit: list[Attempt], reading: Mapping[str, str],
                    log: _Log, step: int, clause: str) -> Move:
    candidates: list[str] = []
    for attempt in hit:
        candidates += [n for n in attempt.ships if n not in candidates]
    first, last = list(hit[0].ships), list(hit[-1].ships)
    if len(hit) > 1 and not set(first) == set(last) == set(candidates):
        option = reading["damage-from"]
        log.followed(ship.name, "damage-from", option, step)
        log.decisions.append(Decision("damage-from", (), (), (ship.name, *candidates), step, near=(clause,),
                                      detail=f"{ship.name} overlapped {', '.join(candidates)} at different speeds"))
        if option == "last-attempt":
            candidates = last
        elif option == "first-attempt":
            candidates = first
    log.cause(ship.name, "overlap.measure", step)
    if len(candidates) > 1:
        log.cause(ship.name, "faq.closest", step)
    closest, ranges = _closest(board, base_at(ship, move.end), candidates, reading, log, ship.name, step)
    for name in closest:
        log.event("closest", (ship.name, name), "overlap.measure", step, f"{name} is the closest ship it overlapped")
    _damage(board, (ship.name, *closest), log, clause, step)
    return replace(move, damaged=(ship.name, *closest), closest=closest, distances=ranges)


def _zero_yaw(board: _Board, ship: Ship, maneuver: Maneuver, tool: ToolModel, reading: Mapping[str, str],
              log: _Log, step: int) -> Move:
    for clause in ("yaw.effect", "yaw.declare", "yaw.move"):
        log.cause(ship.name, clause, step)
    pose, toolpose = yawed(ship, tool, maneuver.yaw)
    attempt = _attempt(board, ship, pose, 0, None, reading)
    if not _blocked(attempt, reading):
        return _finish(board, ship, Move(ship.name, ship.pose, pose, 0, toolpose.side, toolpose, (attempt,)), log,
                       step)
    log.cause(ship.name, "yaw.overlap", step)
    for other in attempt.ships + (attempt.squadrons if reading["squadron"] == "as-ship" else ()):
        log.event("overlap", (ship.name, other), "yaw.overlap", step, f"the yaw would overlap {other}", at=0)
    if attempt.squadrons and reading["squadron"] == "as-ship":
        log.followed(ship.name, "squadron", "as-ship", step)
        log.decisions.append(Decision("squadron", (), (), (ship.name, *attempt.squadrons), step,
                                      near=("move.through", "overlap.reduce"),
                                      detail=f"{ship.name} would yaw onto {', '.join(attempt.squadrons)}"))
    log.event("yaw-back", (ship.name,), "yaw.overlap", step, "it returns to where it was, at speed 0 without yaw")
    back = Attempt(0, ship.pose)
    move = Move(ship.name, ship.pose, ship.pose, 0, toolpose.side, toolpose, (attempt, back), yaw_back=True)
    if len(attempt.ships) > 1:  # "both ships" names one other ship; the yaw overlapped several
        option = reading["yaw-damage"]
        log.followed(ship.name, "yaw-damage", option, step)
        log.decisions.append(Decision("yaw-damage", ("yaw.overlap", "overlap.damage"), ("each", "closest"),
                                      (ship.name, *attempt.ships), step,
                                      detail=f"the yaw of {ship.name} would overlap {', '.join(attempt.ships)}"))
        if option == "each":
            _damage(board, (ship.name, *attempt.ships), log, "yaw.overlap", step)
            return _finish(board, ship, replace(move, damaged=(ship.name, *attempt.ships)), log, step)
    if attempt.ships:
        move = _overlap_damage(board, ship, move, [attempt], reading, log, step, "yaw.overlap")
    return _finish(board, ship, move, log, step)


def _marks(count: int) -> str:
    return {0: "'-'", 1: "'I'", 2: "'II'"}.get(count, str(count))


def clear_caches() -> None:
    """Forget the outcomes, scenes read and shapes kept (for benchmarks that time a resolution afresh)."""
    _MEMO.clear()
    forget_scenes()
    tool_shape.cache_clear()
    forget_placements()
    _LAYOUTS.clear()
    _TOOL_OVERLAPS.clear()
    geometry.clear_caches()


def refusal(scene: Scene, maneuvers: Maneuvers) -> Refusal | None:
    """The first maneuver whose course the speed chart, the dial or a navigate command does not
    allow, as the refusal that cites the clause; None where every course may be set."""
    dial = {s.name: s.speed for s in scene.ships}
    for i, maneuver in enumerate(maneuvers, 1):
        ship, course, speed = scene.ship(maneuver.ship), maneuver.course, len(maneuver.course)
        label = f"maneuver {i} ({ship.name})"

        def refused(clause: str, words: str, name: str = ship.name, label: str = label) -> Refusal:
            return Refusal(clause, (name,), f"{label}: {words}")
        if speed > ship.type.max_speed:
            return refused("course.speed", f"a {ship.type.name} goes no faster than speed {ship.type.max_speed}, but "
                                           f"the course has {speed} joints")
        if not maneuver.additional and abs(speed - dial[ship.name]) > (1 if maneuver.navigate else 0):
            if maneuver.navigate:
                return refused("course.navigate", f"the speed dial shows {dial[ship.name]}; a navigate command "
                                                  f"changes it by one at most, not to {speed}")
            return refused("course.speed", f"the speed dial shows {dial[ship.name]}, so the course needs "
                                           f"{count(dial[ship.name], 'joint')}, not {speed}")
        if maneuver.yaw and speed != 0:
            return refused("yaw.effect", f"a yaw of the last joint is a 0-speed maneuver's, not one at speed {speed}")
        limits = ship.type.chart[speed - 1] if speed else ()
        extra = 1 if maneuver.navigate else 0
        over = [j for j, c in enumerate(course) if abs(c) > limits[j]]
        if len(over) > extra or any(abs(course[j]) > limits[j] + extra for j in over):
            j = over[0] if len(over) == 1 or extra == 0 else over[1]
            words = (f"joint {j + 1} is clicked {count(abs(course[j]), 'time')}, but the {ship.type.name} chart "
                     f"allows at most {limits[j]} ({_marks(limits[j])}) at joint {j + 1} at speed {speed}")
            if maneuver.navigate:
                return refused("course.navigate", words + " (a navigate command adds one click at one joint only)")
            return refused("course.clicks", words)
        if not maneuver.additional:
            dial[ship.name] = speed
    return None


def unchanged(scene: Scene) -> Result:
    """The result of maneuvers that are refused: every ship where it was, no move made."""
    return Result(tuple(sorted(scene.ships, key=lambda s: s.name)), ())


_MEMO = ReadingMemo()  # fuzz asks the reference again under the default reading, the explorer under one-point changes


def _named_in_order(pieces: tuple[_Named, ...]) -> tuple[_Named, ...] | None:
    """``pieces`` in order of name; None where two share a name (which one a dict by name
    keeps then depends on the listing)."""
    if all(a.name < b.name for a, b in zip(pieces, pieces[1:])):
        return pieces
    ordered = tuple(sorted(pieces, key=lambda p: p.name))
    return ordered if all(a.name < b.name for a, b in zip(ordered, ordered[1:])) else None


def listing_free(scene: Scene) -> Scene:
    """The scene with its ships, squadrons and obstacles each in order of name, where no two of
    a kind share a name; else the scene itself. ``carry_out`` takes every kind of piece in order
    of name (or by name), so the outcome is the same however the scene lists them: fuzz sends
    each scene again in another order, which then finds the outcomes kept for the first."""
    ships, squadrons = _named_in_order(scene.ships), _named_in_order(scene.squadrons)
    obstacles = _named_in_order(scene.obstacles)
    if ships is None or squadrons is None or obstacles is None or (
            ships is scene.ships and squadrons is scene.squadrons and obstacles is scene.obstacles):
        return scene
    return Scene(scene.width, scene.height, ships, squadrons, obstacles, scene.tool)


def resolve(scene: Scene, maneuvers: Maneuvers, reading: Mapping[str, str]) -> Outcome:
    refused = refusal(scene, maneuvers)
    if refused is not None:
        outcome = refused_outcome(refused, unchanged(scene))
        return replace(outcome, frames=(Frame(0, "start", 0, outcome.after),), reading=MappingProxyType(dict(reading)))
    return _MEMO.resolve((listing_free(scene), maneuvers), reading,
                         lambda reading: carry_out(scene, maneuvers, reading))


def carry_out(scene: Scene, maneuvers: Maneuvers, reading: Mapping[str, str]) -> Outcome:
    """What the maneuvers do, with no check that their courses are allowed (``refusal``): the
    resolver's work once nothing is refused. A toy implementation that ignores the prohibitions
    answers with it."""
    ships = {s.name: s for s in sorted(scene.ships, key=lambda s: s.name)}
    tool = tool_of(scene, reading)
    board = _Board(scene, dict(ships), tool)
    log = _Log()
    for name in ships:
        log.cause(name, "size.bases", 0)
        log.cause(name, "size.area", 0)
    moves: list[Move] = []
    start = Result(tuple(ships.values()), ())
    frames = [Frame(0, "start", 0, start)]
    for step, maneuver in enumerate(maneuvers, 1):
        ship = board.ships[maneuver.ship]
        if ship.destroyed:  # a destroyed ship makes no more maneuvers; the record keeps moves in step
            moves.append(Move(ship.name, ship.pose, ship.pose, 0, None, None, (), destroyed=True))
            continue
        move = _maneuver(board, maneuver, tool, reading, log, step, scene.tool is not None)
        speed = ship.speed if maneuver.additional else maneuver.speed
        if move.yaw_back:
            speed = 0
        moved = board.ships[ship.name]
        board.move(Ship(moved.name, moved.owner, moved.type, move.end, speed, moved.damage, move.destroyed))
        moves.append(move)
        frames.append(Frame(step, "move", 0, Result(tuple(board.ships[n] for n in ships), tuple(moves))))
    after = Result(tuple(board.ships[n] for n in ships), tuple(moves))
    events = tuple(log.events)
    provenance = {name: tuple(log.causes.get(name, ())) for name in ships}
    return Outcome(after, events, MappingProxyType(provenance), tuple(frames), MappingProxyType(dict(reading)),
                   tuple(log.decisions), frozenset(log.consulted))
