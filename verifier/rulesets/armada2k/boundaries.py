"""Armada 2K's boundaries (Capability.BOUNDARIES): a step's turn against the limit where the
new piece meets the old one, the last step's piece just touching another piece or the
sea's edge, the steps of a move against the size's maximum, and a target at the edge of
the area a large piece covers from the firing side.

Each is reached from a generated scene by turning, sliding or adding and bisecting: the
step turns until its limit, another ship or the reef slides towards the last step's piece,
the moving ship slides outward until its last step reaches the edge, the move gains or
loses steps, the target slides towards the firing area. Lengths are inches, within the
geometry kit's tolerance; turns are degrees, within the ruleset's own ``ANGLE_TOLERANCE``,
which its resolver decides the old piece's contact by. Every boundary is taken under the
default footprint.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import Point, Polygon

from ...kit.boundary import Boundary, Chooser, Path, readable
from ...kit.geometry import signed_gap
from .clauses import READING_POINTS
from .geometry import firing_area, old_piece_limit
from .model import ANGLE_TOLERANCE, MAX_STEPS, Action, Actions, Obstacle, Scene, Ship, bow, flag_shape, footprint

DEFAULT = {p.name: p.default for p in READING_POINTS}
FOOTPRINT = DEFAULT["footprint"]


def _rel(angle: float) -> float:
    a = (angle + 180.0) % 360.0 - 180.0
    return 180.0 if a == -180.0 else a


def _move(actions: Actions) -> tuple[int, Action] | None:
    """The first move of the scene, with its index."""
    return next(((i, a) for i, a in enumerate(actions) if a.kind == "move" and a.steps), None)


def _moving(scene: Scene, actions: Actions) -> tuple[Actions, tuple[int, Action]] | None:
    """The scene's first move; where it has none, a one-step straight move of the first
    ship of the player whose turn it is takes the place of its actions."""
    found = _move(actions)
    if found is not None:
        return actions, found
    actor = next((s for s in scene.ships if s.player == scene.turn and not s.sunk), None)
    if actor is None:
        return None
    move = Action("move", actor.name, (actor.heading,))
    return (move,), (0, move)


def _lengthened(scene: Scene, actions: Actions, found: tuple[int, Action],
                choose: Chooser) -> tuple[Actions, tuple[int, Action]]:
    """Now and then a one-step move carries on straight ahead for a second step, where the
    size allows, so that the last step of a move is often not its first."""
    index, action = found
    if len(action.steps) == 1 and MAX_STEPS[scene.ship(action.ship).size] > 1 and choose.flag():
        action = replace(action, steps=action.steps * 2)
        return _with_action(actions, index, action), (index, action)
    return actions, found


def _with_action(actions: Actions, index: int, action: Action) -> Actions:
    return actions[:index] + (action,) + actions[index + 1:]


def _pieces(ship: Ship, steps: tuple[float, ...]) -> list[Ship]:
    """The ship after each step, the start first."""
    pieces = [ship]
    for heading in steps:
        x, y = bow(pieces[-1], FOOTPRINT)
        pieces.append(pieces[-1].placed((x, y), heading % 360.0))
    return pieces


def _others(scene: Scene, name: str) -> dict[str, Polygon]:
    shapes = {s.name: footprint(s, FOOTPRINT) for s in scene.ships if s.name != name and not s.sunk}
    shapes |= {o.name: Polygon(o.points) for o in scene.obstacles}
    shapes |= {f.name: flag_shape(f) for f in scene.flags}
    return shapes


def valid(scene: Scene, actions: Actions) -> bool:
    """Whether the case reader accepts the scene (pieces in the sea and apart at the start
    under every footprint, moves no longer than the size allows, ...)."""
    from ... import registry
    return readable(registry.get("armada2k"))(scene, actions)


# --- a turn against the limit ---------------------------------------------------------------------


def turn_excess(scene: Scene, actions: Actions) -> float | None:
    """Of the first move's steps, the largest turn less the limit at which the new piece
    meets the old one (degrees; 0 exactly at the limit)."""
    found = _move(actions)
    if found is None:
        return None
    action = found[1]
    ship = scene.ship(action.ship)
    limit = old_piece_limit(ship, FOOTPRINT)
    headings = (ship.heading,) + action.steps
    return max(abs(_rel(b - a)) for a, b in zip(headings, headings[1:])) - limit


def turn_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """One step of the first move turns (the later steps turning with it) from straight on
    to all the way round, on the side it turned to or a side drawn where it went straight."""
    moving = _moving(scene, actions)
    if moving is None:
        return None
    actions, found = moving
    index, action = found
    ship = scene.ship(action.ship)
    k = choose.integer(0, len(action.steps) - 1)
    headings = (ship.heading,) + action.steps
    turn = _rel(headings[k + 1] - headings[k])
    sign = (1.0 if turn > 0 else -1.0) if turn else choose.pick((1.0, -1.0))

    def at(t: float) -> tuple[Scene, Actions]:
        delta = sign * t - turn
        steps = action.steps[:k] + tuple((h + delta) % 360.0 for h in action.steps[k:])
        return scene, _with_action(actions, index, replace(action, steps=steps))

    return Path(at, 0.0, 179.0, valid=valid)


# --- the last step touching a piece or the edge -------------------------------------------------------


def last_step_gap(scene: Scene, actions: Actions) -> float | None:
    """The signed gap between the first move's last new piece and the nearest other piece."""
    found = _move(actions)
    if found is None:
        return None
    action = found[1]
    ship = scene.ship(action.ship)
    last = footprint(_pieces(ship, action.steps)[-1], FOOTPRINT)
    others = _others(scene, ship.name)
    return min((signed_gap(last, shape) for shape in others.values()), default=None)


def _free_name(scene: Scene) -> str:
    taken = {s.name for s in scene.ships} | {o.name for o in scene.obstacles}
    return next(n for n in ("reef", "rock", "shoal", "skerry") if n not in taken)


def _radius(shape: Polygon) -> float:
    """The distance from the shape's centre to its furthest corner."""
    c = shape.centroid
    return max(math.hypot(x - c.x, y - c.y) for x, y in shape.exterior.coords)


def _room(scene: Scene, x: float, y: float, r: float) -> bool:
    """Whether a disc of radius ``r`` at (x, y) lies in the sea."""
    if scene.area.is_circle:
        return math.hypot(x - scene.area.centre[0], y - scene.area.centre[1]) + r <= scene.area.radius
    return bool(Polygon(scene.area.points).contains(Point(x, y).buffer(r)))


def piece_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """Another ship or an obstacle (a half-inch rock added where there is neither) comes
    from beyond the last step's piece, ahead of the move within 60 degrees either side
    where it would touch it inside the sea (from any side where there is no room ahead),
    and slides back towards it: from ahead it meets the last piece before the ship's start."""
    moving = _moving(scene, actions)
    if moving is None:
        return None
    actions, found = _lengthened(scene, *moving, choose)
    action = found[1]
    ship = scene.ship(action.ship)
    last = footprint(_pieces(ship, action.steps)[-1], FOOTPRINT).centroid
    start = footprint(ship, FOOTPRINT).centroid
    movable = [s.name for s in scene.ships if s.name != ship.name and not s.sunk] + [o.name for o in scene.obstacles]
    if not movable:
        x, y = last.x + 1.5, last.y
        rock = Obstacle(_free_name(scene), ((x, y), (x + 0.5, y), (x + 0.5, y + 0.5), (x, y + 0.5)))
        scene = replace(scene, obstacles=scene.obstacles + (rock,), variants=replace(scene.variants, obstructed=True))
        movable = [rock.name]
    name = movable[choose.integer(0, len(movable) - 1)]
    is_ship = any(s.name == name for s in scene.ships)
    shape = footprint(scene.ship(name), FOOTPRINT) if is_ship else Polygon(
        next(o for o in scene.obstacles if o.name == name).points)
    # Apart at a distance of the two pieces' radii; about touching at three quarters of it.
    reach = _radius(shape) + _radius(footprint(_pieces(ship, action.steps)[-1], FOOTPRINT))
    travel = math.degrees(math.atan2(last.y - start.y, last.x - start.x))
    turns = [15 * k for k in (0, 1, -1, 2, -2, 3, -3, 4, -4)]
    roomy = [a for a in (travel + k for k in turns + [k for k in range(75, 286, 15)])
             if _room(scene, last.x + 0.75 * reach * math.cos(math.radians(a)),
                      last.y + 0.75 * reach * math.sin(math.radians(a)), 0.75 * _radius(shape))]
    if not roomy:
        return None
    clear = 1.25 * _radius(footprint(ship, FOOTPRINT)) + _radius(shape)  # of the ship's start, under any footprint
    roomy = [a for a in roomy if math.hypot(last.x + 0.75 * reach * math.cos(math.radians(a)) - start.x,
                                            last.y + 0.75 * reach * math.sin(math.radians(a)) - start.y) > clear] \
        or roomy
    roomy = [a for a in roomy if abs(a - travel) <= 60] or roomy  # from ahead where there is room
    angle = math.radians(roomy[choose.integer(0, len(roomy) - 1)])
    ux, uy = math.cos(angle), math.sin(angle)
    # The shift that puts the piece's centre ``reach`` beyond the last piece's, less t back along the way.
    bx, by = last.x + ux * reach - shape.centroid.x, last.y + uy * reach - shape.centroid.y

    def at(t: float) -> tuple[Scene, Actions]:
        dx, dy = bx - ux * t, by - uy * t
        if is_ship:
            moved = scene.ship(name)
            ships = tuple(replace(s, at=(s.at[0] + dx, s.at[1] + dy)) if s is moved else s for s in scene.ships)
            return scene.with_ships(ships), actions
        obstacles = tuple(Obstacle(o.name, tuple((x + dx, y + dy) for x, y in o.points))
                          if o.name == name else o for o in scene.obstacles)
        return replace(scene, obstacles=obstacles), actions

    return Path(at, 0.0, reach, valid=valid)


# --- the last step touching the sea's edge ----------------------------------------------------------------


def edge_gap(scene: Scene, actions: Actions) -> float | None:
    """How far inside the sea's edge the first move's last new piece stays (negative: past it)."""
    found = _move(actions)
    if found is None or not scene.area.is_circle:
        return None
    ship = scene.ship(found[1].ship)
    last = footprint(_pieces(ship, found[1].steps)[-1], FOOTPRINT)
    (cx, cy), r = scene.area.centre, scene.area.radius
    return r - max(math.hypot(x - cx, y - cy) for x, y in last.exterior.coords)


def edge_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """The moving ship slides away from the sea's centre, along the line to its last step's piece."""
    moving = _moving(scene, actions)
    if moving is None or not scene.area.is_circle:
        return None
    actions, found = _lengthened(scene, *moving, choose)
    ship = scene.ship(found[1].ship)
    last = footprint(_pieces(ship, found[1].steps)[-1], FOOTPRINT).centroid
    (cx, cy) = scene.area.centre
    dx, dy = last.x - cx, last.y - cy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = (dx / length, dy / length) if math.hypot(dx, dy) else (0.0, 1.0)

    def at(t: float) -> tuple[Scene, Actions]:
        ships = tuple(replace(s, at=(s.at[0] + ux * t, s.at[1] + uy * t)) if s.name == ship.name else s
                      for s in scene.ships)
        return scene.with_ships(ships), actions

    return Path(at, -2.0, 2 * scene.area.radius, valid=valid)


# --- steps against the maximum ------------------------------------------------------------------------


def steps_over(scene: Scene, actions: Actions) -> float | None:
    """The first move's steps less the most its size may take."""
    found = _move(actions)
    if found is None:
        return None
    return float(len(found[1].steps) - MAX_STEPS[scene.ship(found[1].ship).size])


def steps_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """The first move cut short or carried on straight ahead, one whole step at a time."""
    moving = _moving(scene, actions)
    if moving is None:
        return None
    actions, found = moving
    index, action = found
    most = MAX_STEPS[scene.ship(action.ship).size]
    longest = action.steps + (action.steps[-1],) * (most + 1 - len(action.steps))

    def at(t: float) -> tuple[Scene, Actions]:
        return scene, _with_action(actions, index, replace(action, steps=longest[:int(t)]))

    return Path(at, 1, most + 1, integral=True, valid=valid)


# --- a target at the edge of the firing area ------------------------------------------------------------


def target_gap(scene: Scene, actions: Actions) -> float | None:
    """The signed gap between the first shot's target and the area the large piece covers."""
    shot = next((a for a in actions if a.kind == "fire" and a.target), None)
    if shot is None or not any(s.name == shot.target for s in scene.ships):
        return None
    area, _ = firing_area(scene.ship(shot.ship), shot.side, FOOTPRINT, DEFAULT["placement"])
    try:
        return signed_gap(area, footprint(scene.ship(shot.target), FOOTPRINT))
    except ValueError:  # an area that is not convex (none under the default placement)
        return None


def target_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """The target slides along the line from where it stands to the middle of the firing area."""
    shot = next((a for a in actions if a.kind == "fire" and a.target), None)
    if shot is None:  # the first ship of the player whose turn it is fires at another instead
        actor = next((s for s in scene.ships if s.player == scene.turn and not s.sunk), None)
        others = [s.name for s in scene.ships if actor is not None and s.name != actor.name and not s.sunk]
        if actor is None or not others:
            return None
        shot = Action("fire", actor.name, side=choose.pick(("port", "starboard")),
                      target=others[choose.integer(0, len(others) - 1)])
        actions = (shot,)
    if not any(s.name == shot.target for s in scene.ships):
        return None
    area, _ = firing_area(scene.ship(shot.ship), shot.side, FOOTPRINT, DEFAULT["placement"])
    target = scene.ship(shot.target)
    centre, here = area.centroid, footprint(target, FOOTPRINT).centroid
    dx, dy = centre.x - here.x, centre.y - here.y
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return None
    ux, uy = dx / length, dy / length

    def at(t: float) -> tuple[Scene, Actions]:
        ships = tuple(replace(s, at=(s.at[0] + ux * t, s.at[1] + uy * t)) if s.name == target.name else s
                      for s in scene.ships)
        return scene.with_ships(ships), actions

    return Path(at, -4.0, length, valid=valid)


BOUNDARIES = (
    Boundary("turn-limit", ("move.note", "move.2c"),
             "a step's turn against the largest turn at which the new piece clears the old one (degrees; the limit "
             "depends on the size and the footprint)", turn_excess, turn_path, tolerance=ANGLE_TOLERANCE),
    Boundary("last-step-touches-piece", ("move.5",),
             "the move's last new piece against another ship, reef or flag: the signed gap between them",
             last_step_gap, piece_path),
    Boundary("last-step-touches-edge", ("move.5",),
             "the move's last new piece against the sea's edge: how far inside it stays", edge_gap, edge_path),
    Boundary("steps-at-maximum", ("move.1a", "move.1b", "move.1c", "move.3"),
             "the steps of a move against the most the size may take", steps_over, steps_path, integral=True),
    Boundary("target-at-area-edge", ("fire.3",),
             "the target against the area the large piece covers from the firing side: the signed gap",
             target_gap, target_path),
)


