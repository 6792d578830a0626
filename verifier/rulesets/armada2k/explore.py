"""What the explorer needs (Capability.SEARCH, FINDINGS, EXHAUSTIVE), and the benchmark
suite (Capability.BENCHMARKS). ``Armada2kRuleset`` forwards to these functions by name.

The strategies put ships, reefs and the sea's edge close together on a half-inch
lattice with headings in steps of 30 degrees, so pieces often just touch: that is
where the readings part ways."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from verifier.kit.choices import Choices
from verifier.kit.choices import strategy as choices_strategy
from verifier.kit.geometry import Contact, overlapping
from verifier.ruleset import Outcome, Transform

from .model import (
    FEATURES,
    FOOTPRINTS,
    MAX_STEPS,
    SIZES,
    TEMPLATES,
    Action,
    Actions,
    Area,
    Flag,
    Obstacle,
    Scene,
    Ship,
    State,
    Variants,
    flag_shape,
    footprint,
    footprint_corners,
    obstacle_shape,
    pieces_contact,
)

SEA = 8.0  # the strategies' sea: a circle this wide, so the edge is never far


# --- Capability.SEARCH ---------------------------------------------------------------------


def _h(value: float) -> float:
    return round(value % 360.0, 2) % 360.0


def _span(lo: float, hi: float) -> tuple[float, float]:
    """An interval of headings with ``lo`` in [0, 360), rounded to hundredths of a degree."""
    shift = lo - _h(lo)
    return _h(lo), round(hi - shift, 2)


def outcome_key(outcome: Outcome) -> tuple:
    """Where every ship ends (to a thousandth of an inch, a hundredth of a degree), its
    damage, what happened, the fans and the winner."""
    state: State = outcome.after
    ships = tuple(sorted((s.name, round(s.at[0], 3) + 0.0, round(s.at[1], 3) + 0.0, _h(s.heading), s.damage,
                          s.sunk) for s in state.scene.ships))
    events = tuple(sorted((e.kind, e.pieces) for e in outcome.events))
    fans = tuple((n, tuple(sorted(_span(round(i.lo, 2), round(i.hi, 2)) for i in spans)))
                 for n, spans in sorted(state.fans))
    return ships, events, fans, state.winner


def _fits(ship: Ship, ships: list[Ship], area: Area, obstacles: list[Obstacle]) -> bool:
    for reading in FOOTPRINTS:
        corners = _corners(ship, reading)
        (cx, cy), r = area.centre, area.radius
        if any(math.hypot(x - cx, y - cy) > r - 1e-6 for x, y in corners):
            return False
        # Shapes whose boxes are apart are apart: only the others are measured (and the ship's
        # outline made only then).
        if any(_boxes_meet(corners, _corners(o, reading)) and overlapping(footprint(ship, reading),
                                                                          footprint(o, reading)) for o in ships):
            return False
        if any(_boxes_meet(corners, o.points) and overlapping(footprint(ship, reading), obstacle_shape(o))
               for o in obstacles):
            return False
    return True


def _corners(ship: Ship, reading: str) -> tuple[tuple[float, float], ...]:
    """The corners of ``footprint(ship, reading)``, as it works them out."""
    return footprint_corners(ship.size, reading, ship.pose)


def _boxes_meet(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Whether the boxes round two sets of corners meet (edges included)."""
    return not (max(x for x, _ in a) < min(x for x, _ in b) or max(x for x, _ in b) < min(x for x, _ in a)
                or max(y for _, y in a) < min(y for _, y in b) or max(y for _, y in b) < min(y for _, y in a))


def scene(choose: Choices, features: frozenset[str] | None = None) -> tuple[Scene, Actions]:
    """Two or three ships near the centre, now and then a reef or a flag, and one action of the first
    blue ship; only the variants in ``features`` (default: all of them)."""
    if features is None:
        features = frozenset(f.name for f in FEATURES)
    area = Area((0.0, 0.0), SEA / 2)
    obstacles: list[Obstacle] = []
    ships: list[Ship] = []
    third = choose.pick(("red", "blue"))  # a second blue ship makes friendly fire possible
    for name, player in (("a", "blue"), ("b", "red"), ("c", third)):
        if name == "c" and not choose.flag():
            break
        for _ in range(3):
            ship = Ship(name, player, choose.pick(SIZES),
                        (choose.integer(-5, 5) / 2, choose.integer(-5, 5) / 2), choose.integer(0, 11) * 30.0)
            if _fits(ship, ships, area, obstacles):
                ships.append(ship)
                break
        else:
            if name == "a":
                ships.append(Ship("a", "blue", "small", (0.0, 0.0), 0.0))
    if "obstructed" in features and choose.flag():
        x, y = choose.integer(-4, 4) / 2, choose.integer(-4, 4) / 2
        reef = Obstacle("reef", ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)))
        if all(not overlapping(obstacle_shape(reef), footprint(s, r))
               for s in ships for r in FOOTPRINTS):
            obstacles.append(reef)
    flags: list[Flag] = []
    if "capture-the-flag" in features and choose.flag():  # capture the flag: red's marker somewhere near
        flag = Flag("red", (choose.integer(-4, 4) / 2, choose.integer(-4, 4) / 2))
        shape = flag_shape(flag)
        if all(math.hypot(x, y) <= area.radius for x, y in shape.exterior.coords) and all(
                not overlapping(shape, footprint(s, r)) for s in ships for r in FOOTPRINTS) and all(
                not overlapping(shape, obstacle_shape(o)) for o in obstacles):
            flags.append(flag)
    rear = "rear-cannon" in features and choose.flag()
    names = [s.name for s in ships]
    scene = Scene(area, tuple(ships), ("blue", "red"), "blue", tuple(obstacles), tuple(flags),
                  (), Variants(obstructed=bool(obstacles), flag=bool(flags), rear_cannon=rear))
    actions: list[Action] = []
    blue = [s for s in ships if s.player == "blue"]
    if blue:
        actor = blue[0]
        kind = choose.pick(("move", "fan", "fire", "range"))
        others = [n for n in names if n != actor.name]
        if kind == "move":
            turns = [choose.pick((-60, -30, 0, 30, 60)) for _ in range(choose.integer(1, MAX_STEPS[actor.size]))]
            heading, steps = actor.heading, []
            for turn in turns:
                heading = (heading + turn) % 360.0
                steps.append(heading)
            actions.append(Action("move", actor.name, tuple(steps)))
        elif kind == "fire" and others:
            sides = ("port", "starboard") + (("stern",) if rear and actor.size == "large" else ())
            actions.append(Action("fire", actor.name, side=choose.pick(sides),
                                  target=choose.pick(others)))
        elif kind == "range":
            actions.append(Action("range", actor.name))
        else:
            actions.append(Action("fan", actor.name))
    return scene, tuple(actions)


def strategy(features: frozenset[str] | None = None) -> Any:
    """Scenes with only the variants in ``features`` (default: all of them)."""
    return choices_strategy(lambda choose: scene(choose, features))


_SWAP = {"port": "starboard", "starboard": "port", "stern": "stern"}


def _mirror_scene(scene: Scene) -> Scene:
    cx = scene.area.centre[0]
    area = Area((cx, scene.area.centre[1]), scene.area.radius) if scene.area.is_circle else Area(
        points=tuple((2 * cx - x, y) for x, y in reversed(scene.area.points)))
    ships = tuple(s.placed((2 * cx - s.at[0], s.at[1]), (360.0 - s.heading) % 360.0) for s in scene.ships)
    obstacles = tuple(Obstacle(o.name, tuple((2 * cx - x, y) for x, y in reversed(o.points))) for o in scene.obstacles)
    flags = tuple(replace(f, at=(2 * cx - f.at[0], f.at[1])) for f in scene.flags)
    return Scene(area, ships, scene.players, scene.turn, obstacles, flags, scene.flagships, scene.variants)


def _mirror_actions(actions: Actions) -> Actions:
    return tuple(replace(a, steps=tuple((360.0 - h) % 360.0 for h in a.steps), side=_SWAP.get(a.side, a.side))
                 for a in actions)


def transforms(scene: Scene, actions: Actions) -> list[Transform]:
    """Listing the ships the other way round changes nothing; mirroring the sea east-west
    (about the centre of a round sea) mirrors every position, heading and fan."""
    cx = scene.area.centre[0]

    def mirror_key(key: tuple) -> tuple:
        ships, events, fans, winner = key
        return (tuple(sorted((n, round(2 * cx - x, 3) + 0.0, y, _h(360.0 - h), d, s) for n, x, y, h, d, s in ships)),
                events,
                tuple((n, tuple(sorted(_span(360.0 - hi, 360.0 - lo) for lo, hi in spans))) for n, spans in fans),
                winner)

    reordered = Scene(scene.area, scene.ships[::-1], scene.players, scene.turn, scene.obstacles[::-1],
                      scene.flags[::-1], scene.flagships[::-1], scene.variants)
    found = [Transform("order", "reversed listing", reordered, actions, lambda key: key)]
    if scene.area.is_circle:
        found.append(Transform("symmetry", "mirror east-west", _mirror_scene(scene), _mirror_actions(actions),
                               mirror_key))
    return found


def invariant_breaches(scene: Scene, actions: Actions, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """What no reading may do: leave two afloat ships overlapping."""
    fp = outcome.reading.get("footprint", "slant")
    afloat = [s for s in outcome.after.scene.ships if not s.sunk]
    found: list[tuple[str, tuple[str, ...], str]] = []
    for i, a in enumerate(afloat):
        for b in afloat[i + 1:]:
            if pieces_contact(a, b, fp) is Contact.OVERLAPPING:
                found.append(("two ships end overlapping", (a.name, b.name), f"under footprint={fp}"))
    return found


def simpler(scene: Scene, actions: Actions) -> Iterator[tuple[Scene, Actions]]:
    """One ship fewer (with the actions that name it), one obstacle fewer, one action fewer."""
    used = {a.ship for a in actions} | {a.target for a in actions}
    for ship in scene.ships if len(scene.ships) > 1 else ():
        if ship.name in used and len(actions) <= 1 and actions and actions[0].ship == ship.name:
            continue
        rest = tuple(s for s in scene.ships if s is not ship)
        if {s.player for s in rest} >= {scene.turn} and not any(f[1] == ship.name for f in scene.flagships):
            yield (scene.with_ships(rest), tuple(a for a in actions if ship.name not in (a.ship, a.target)))
    for obstacle in scene.obstacles:
        yield (Scene(scene.area, scene.ships, scene.players, scene.turn,
                     tuple(o for o in scene.obstacles if o is not obstacle), scene.flags, scene.flagships,
                     scene.variants), actions)
    for i in range(len(actions)):
        yield scene, actions[:i] + actions[i + 1:]


# --- Capability.EXHAUSTIVE ------------------------------------------------------------------

EXHAUSTIVE_SPACES = {
    "blocker": "a medium ship at [0, 0] heading north asks which way its next step may go, with a small enemy "
               "ship at every half-inch point from [-2, 0] to [2, 3.5], heading every 45 degrees, where it fits; "
               "a round sea 20 inches across",
    "corner": "a small ship at [0, 0] heading north asks for its fan, with a small enemy ship at every whole-inch "
              "point from [-1, 0] to [1, 2], heading every 90 degrees, where it fits (a quick space for tests)",
    "shot": "a large ship at [0, 0] heading north fires its starboard cannon at a small ship at every quarter-inch "
            "point from [0.25, -0.5] to [2.5, 2.5], heading every 90 degrees, where it fits",
}


def exhaustive_space(name: str) -> tuple[int, Iterator[tuple[Scene, Actions]]]:
    if name not in EXHAUSTIVE_SPACES:
        raise KeyError(name)
    area = Area()
    if name == "blocker":
        actor = Ship("a", "blue", "medium", (0.0, 0.0), 0.0)
        places = [((x / 2, y / 2), h * 45.0) for x in range(-4, 5) for y in range(0, 8) for h in range(8)]
        size, action = "small", Action("fan", "a")
    elif name == "corner":
        actor = Ship("a", "blue", "small", (0.0, 0.0), 0.0)
        places = [((float(x), float(y)), h * 90.0) for x in range(-1, 2) for y in range(0, 3) for h in range(4)]
        size, action = "small", Action("fan", "a")
    else:
        actor = Ship("a", "blue", "large", (0.0, 0.0), 0.0)
        places = [((x / 4, y / 4), h * 90.0) for x in range(1, 11) for y in range(-2, 11) for h in range(4)]
        size, action = "small", Action("fire", "a", side="starboard", target="b")
    scenes = []
    for at, heading in places:
        other = Ship("b", "red", size, at, heading)
        if _fits(other, [actor], area, []):
            scenes.append((Scene(area, (actor, other), ("blue", "red"), "blue"), (action,)))
    return len(scenes), iter(scenes)


# --- Capability.REPORT_SECTIONS: what the footprint reading changes ----------------------------


def footprint_table() -> tuple[str, list[dict[str, Any]]]:
    """For each size and footprint: the piece's length, how far a step may turn (and, where
    pieces meet as solids, how far the top-view outlines alone would let it), and the length
    of the long side at table level, against which the large is laid to aim."""
    from .geometry import old_piece_limit
    from .model import SOLID_READINGS, resting
    rows: list[dict[str, Any]] = []
    lines = ["| size | footprint | length (in) | step may turn (deg) | outlines alone (deg) "
             "| side at table level (in) |", "|---|---|---|---|---|---|"]
    for size in SIZES:
        for reading in FOOTPRINTS:
            template = TEMPLATES[(size, reading)]
            side = math.dist(*TEMPLATES[(size, resting(reading))].port)
            limit = old_piece_limit(Ship("s", "p", size, (0.0, 0.0), 0.0), reading)
            outline = 90.0 - template.bow_half_angle
            row = {"size": size, "footprint": reading, "length": round(template.bow[1], 4),
                   "turn_limit": round(limit, 3), "outline_turn_limit": round(outline, 3),
                   "table_side": round(side, 4)}
            rows.append(row)
            alone = f"±{outline:.2f}" if reading in SOLID_READINGS else "same"
            lines.append(f"| {size} | {reading} | {row['length']:.3f} | ±{row['turn_limit']:.2f} | {alone} | "
                         f"{row['table_side']:.3f} |")
    text = ("The seed says only that a pyramid lies flat. Each footprint reading changes how far a step carries a "
            "ship and how far it may turn: the new piece must not overlap the old, so at most 90 degrees less half "
            "the bow angle, and turns some way short of the source's right angle are impossible too. Under the "
            "pentagon reading the pieces are solids whose raised base edge is in the air: they first meet on the "
            "table, so a step may turn as far as the face it rests on allows, further than the top-view outlines "
            "alone would say. Every side at table level is longer than the large's base (1 in), so the large laid "
            "to aim always fits:\n\n"
            + "\n".join(lines))
    return text, rows


def report_sections(cases: Any, out: Any = None) -> list[tuple[str, str, dict[str, Any]]]:
    text, rows = footprint_table()
    return [("Footprints compared", text, {"rows": rows})]
