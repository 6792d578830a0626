"""The armada parts of a case file: JSON Schemas, and parsing into value types with
one-line located errors for scenes and courses that cannot exist."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point, Polygon

from ...errors import CaseError, SceneError, did_you_mean
from ...kept import KeptByData
from ...kit.geometry import TOLERANCE, Contact, Pose, ShapeIndex, contact_at, distance
from ...ruleset import Outcome
from ...source import Located
from .model import (
    BASE_SIZES,
    MAX_CLICKS,
    OBSTACLE_KINDS,
    PLAY_AREA,
    SHIP_TYPES,
    SIDES,
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
from .tool import round_contact

XY = tuple[float, float]
_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
       "description": "[x, y] in mm: x east, y north, from the play area's south-west corner"}
_NAME = {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"}
_COLUMN = {"type": ["array", "string"], "items": {"type": "integer", "minimum": 0, "maximum": MAX_CLICKS},
           "minItems": 1, "description": "the most clicks at each joint: a list of 0, 1 or 2, or the chart's own "
                                         "marks as text, one a joint: '-', 'I' or 'II', as in '- I II'"}
# How many pieces each kind of event names: the ship, and for some the other piece.
EVENT_SIZES = {"switch": 1, "tool-both": 1, "overlap": 2, "closest": 2, "damage": 1, "destroyed": 1, "obstacle": 2,
               "squadron": 2, "yaw-back": 1, "open-side": 1, "still": 1}
EVENT_KINDS = ("switch", "tool-both", "overlap", "closest", "damage", "destroyed", "obstacle", "squadron", "yaw-back",
               "open-side", "still")

BEFORE_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["ships"],
    "properties": {
        "area": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 2, "maxItems": 2,
                 "description": "[width, height] of the play area in mm (default 914.4 square, 3 feet)"},
        "tool": {"type": "object", "additionalProperties": False,
                 "required": ["step", "lead", "width", "outside", "behind"],
                 "description": "the case's own maneuver tool; without it the 'tool' reading picks a model",
                 "properties": {
                     "step": {"type": "number", "exclusiveMinimum": 0, "description": "mm from joint to joint"},
                     "lead": {"type": "number", "exclusiveMinimum": 0,
                              "description": "mm from the starting guides to joint 1 (at most step)"},
                     "width": {"type": "number", "exclusiveMinimum": 0, "description": "the tool's width in mm"},
                     "outside": {"type": "number", "minimum": 0,
                                 "description": "mm from the base's side to the tool's centreline"},
                     "behind": {"type": "number", "minimum": 0,
                                "description": "mm from the base's front edge back to the starting guides"}}},
        "types": {"type": "object", "description": "ship types of the case's own: name -> size and speed chart",
                  "additionalProperties": {
                      "type": "object", "additionalProperties": False, "required": ["size", "chart"],
                      "properties": {"size": {"enum": list(BASE_SIZES)},
                                     "chart": {"type": "array", "items": _COLUMN, "minItems": 1, "maxItems": 4,
                                               "description": "one column a speed, from 1: the most clicks at "
                                                              "each joint"}}}},
        "ships": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["owner", "type", "at", "heading"],
            "properties": {
                "owner": {"type": "string", "minLength": 1},
                "type": {"type": "string", "description": "cr90, victory, nebulon-b or a type of 'types'"},
                "at": {**_XY, "description": "the centre of the base"},
                "heading": {"type": "number", "minimum": 0, "exclusiveMaximum": 360,
                            "description": "compass degrees the front faces: 0 north, 90 east"},
                "speed": {"type": "integer", "minimum": 0, "maximum": 4, "description": "the speed dial (0)"},
                "damage": {"type": "integer", "minimum": 0, "description": "facedown damage cards already held"},
            }}},
        "squadrons": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["owner", "at", "radius"],
            "properties": {"owner": {"type": "string", "minLength": 1}, "at": _XY,
                           "radius": {"type": "number", "exclusiveMinimum": 0,
                                      "description": "the round base's radius in mm"}}}},
        "obstacles": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["corners"],
            "properties": {"kind": {"enum": list(OBSTACLE_KINDS), "description": "what it is (default: obstacle)"},
                           "corners": {"type": "array", "items": _XY, "minItems": 3,
                                       "description": "the obstacle's corners, in order around it"}}}},
    },
}

ACTIONS_SCHEMA = {
    "type": "array", "minItems": 1, "description": "maneuvers, made one after another in this order",
    "items": {
        "type": "object", "additionalProperties": False, "required": ["ship", "course"],
        "properties": {
            "ship": {"type": "string"},
            "course": {"type": "array", "items": {"type": "integer", "minimum": -MAX_CLICKS, "maximum": MAX_CLICKS},
                       "maxItems": 4, "description": "clicks at joints 1..speed, + to starboard (clockwise), - to "
                                                    "port; [] is speed 0"},
            "side": {"enum": list(SIDES), "description": "the side of the ship the owner puts the tool on; leave "
                                                         "out (last maneuver only) to be given both choices"},
            "yaw": {"type": "integer", "minimum": -MAX_CLICKS, "maximum": MAX_CLICKS,
                    "description": "a 0-speed yaw (course []): clicks at the last joint, + starboard, - port"},
            "navigate": {"type": "boolean", "description": "a navigate command: speed may change by one, and one "
                                                           "joint may take one click more than the chart"},
            "additional": {"type": "boolean", "description": "an additional maneuver from an effect: the course "
                                                             "sets a temporary speed; the dial keeps its value"},
        }},
}

_POSE = {"type": "object", "additionalProperties": False, "required": ["at", "heading"],
         "properties": {"at": _XY, "heading": {"type": "number"}}}
_EVENT = {"type": "object", "required": ["kind", "pieces"],
          "properties": {"kind": {"enum": list(EVENT_KINDS)},
                         "pieces": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}}}

EXPECT_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["events"],
    "properties": {
        "ships": {"type": "object", "description": "how listed ships end; ships not listed must not move or change",
                  "additionalProperties": {
                      "type": "object", "additionalProperties": False,
                      "properties": {"at": {**_XY, "description": "centre, to 0.01 mm"},
                                     "heading": {"type": "number"},
                                     "speed": {"type": "integer", "minimum": 0},
                                     "damage": {"type": "integer", "minimum": 0},
                                     "destroyed": {"type": "boolean"}}}},
        "moves": {"type": "array", "description": "per maneuver, in order: the speed it finally moved at and the "
                                                  "side of the tool",
                  "items": {"type": "object", "additionalProperties": False,
                            "properties": {"speed": {"type": "integer", "minimum": 0},
                                           "side": {"enum": [*SIDES, "none"]},
                                           "switched": {"type": "boolean"},
                                           "tool": {"type": "array", "items": {
                                               "type": "array", "items": {"type": "number"}, "minItems": 3,
                                               "maxItems": 3},
                                               "description": "the tool's pose after every joint, [x, y, "
                                                              "heading]: the starting guides, each joint, the "
                                                              "guides the ship is set on"}}}},
        "choice": {"type": "object", "additionalProperties": False, "required": ["side", "at", "heading"],
                   "description": "where the last maneuver would end on the other side, when the owner's choice "
                                  "was left open (the ships above are for port)",
                   "properties": {"side": {"enum": list(SIDES)}, "at": _XY, "heading": {"type": "number"}}},
        "events": {"type": "array", "items": {**_EVENT, "additionalProperties": False}},
        "tolerance": {"type": "number", "exclusiveMinimum": 0, "description": "mm and degrees (default 0.01)"},
    },
}

DEFAULT_TOLERANCE = 0.01


@dataclass(frozen=True)
class ShipExpectation:
    name: str
    at: XY | None = None
    heading: float | None = None
    speed: int | None = None
    damage: int | None = None
    destroyed: bool | None = None


@dataclass(frozen=True)
class Expectation:
    ships: tuple[ShipExpectation, ...]
    moves: tuple[tuple[int | None, str | None, bool | None], ...]
    tools: tuple[tuple[tuple[float, float, float], ...] | None, ...]
    choice: tuple[str, XY, float] | None
    events: tuple[tuple[str, tuple[str, ...]], ...]
    tolerance: float = DEFAULT_TOLERANCE



def _column(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        return tuple({"-": 0, "I": 1, "II": 2}[mark] for mark in value.split())
    return tuple(int(v) for v in value)


def _types(doc: Located, path: tuple, data: dict) -> dict[str, ShipType]:
    types = dict(SHIP_TYPES)
    for name, spec in (data.get("types") or {}).items():
        where = path + ("types", name)
        chart = []
        for i, column in enumerate(spec["chart"]):
            marks = column.split() if isinstance(column, str) else []
            bad = [m for m in marks if m not in ("-", "I", "II")]
            if bad or (isinstance(column, str) and not marks):
                raise doc.error(where + ("chart", i), f"{(bad or [column])[0]!r} is not a chart mark; a joint shows "
                                                      f"'-', 'I' or 'II'", SceneError)
            values = _column(column)
            if len(values) != i + 1:
                raise doc.error(where + ("chart", i), f"the chart's column for speed {i + 1} needs {i + 1} joint(s), "
                                                      f"one mark each, not {len(values)}", SceneError)
            chart.append(values)
        types[name] = ShipType(name, spec["size"], tuple(chart))
    return types


def _inside(width: float, height: float, base: Polygon) -> bool:
    x0, y0, x1, y1 = base.bounds
    return x0 >= -1e-6 and y0 >= -1e-6 and x1 <= width + 1e-6 and y1 <= height + 1e-6


def _ship(doc: Located, where: tuple, name: Any, spec: dict, types: dict[str, ShipType], width: float,
          height: float) -> Ship:
    """One ship of the scene, refused if it names no type, shows a speed its type lacks or
    does not lie wholly inside the play area."""
    if not isinstance(name, str):
        raise doc.error(where, f"ship names must be text; quote {name!r}", SceneError, key=True)
    if spec["type"] not in types:
        raise doc.error(where + ("type",), f"there is no ship type {spec['type']!r}; "
                                           f"{did_you_mean(spec['type'], sorted(types))}", SceneError)
    kind = types[spec["type"]]
    speed = int(spec.get("speed", 0))
    if speed > kind.max_speed:
        raise doc.error(where + ("speed",), f"a {kind.name} goes no faster than speed {kind.max_speed}, so its "
                                            f"dial cannot show {speed}", SceneError)
    x, y = (float(v) for v in spec["at"])
    ship = Ship(name, spec["owner"], kind, Pose(x, y, float(spec["heading"])), speed, int(spec.get("damage", 0)))
    if not _inside(width, height, ship.base):
        raise doc.error(where + ("at",), f"the base of {name} ({kind.size}, {ship.size[0]:g} x {ship.size[1]:g} "
                                         f"mm) at [{x:g}, {y:g}] does not lie wholly inside the {width:g} x "
                                         f"{height:g} mm play area", SceneError)
    return ship


FEW_SHIPS = 8  # a scene of no more ships is checked pair by pair, not through a spatial index


def _overlapping(earlier: Polygon, base: Polygon) -> bool:
    """Whether two bases overlap, as ``ShapeIndex.contacts`` of ``base`` classifies ``earlier``
    (a member of the index): by the distance from it, then the contact at that distance."""
    gap = distance(earlier, base)
    return gap <= TOLERANCE and contact_at(earlier, base, gap) is Contact.OVERLAPPING


_PARSED: KeptByData[Scene] = KeptByData(512)


def parse_scene(doc: Located, path: tuple) -> Scene:
    """The scene at ``path``; one read before from the same data is given again, since fuzz
    reads each scene it sends more than once (the request, the expectation it restates)."""
    return _PARSED.get(doc.at(path), lambda: _parse_scene(doc, path))


def forget_scenes() -> None:
    _PARSED.clear()


def _parse_scene(doc: Located, path: tuple) -> Scene:
    data = doc.at(path)
    width, height = (float(v) for v in data.get("area", (PLAY_AREA, PLAY_AREA)))
    types = _types(doc, path, data)
    tool = None
    if "tool" in data:
        t = data["tool"]
        if t["lead"] > t["step"]:
            raise doc.error(path + ("tool", "lead"), f"the lead ({t['lead']} mm) cannot be longer than the step "
                                                     f"between joints ({t['step']} mm)", SceneError)
        tool = ToolModel("case", float(t["step"]), float(t["lead"]), float(t["width"]), float(t["outside"]),
                         float(t["behind"]))
    ships: list[Ship] = []
    pending: CaseError | None = None  # the first ship that cannot stand; earlier ships' overlaps come first
    for name, spec in data["ships"].items():
        try:
            ships.append(_ship(doc, path + ("ships", name), name, spec, types, width, height))
        except CaseError as error:
            pending = error
            break
    bases = {ship.name: ship.base for ship in ships}
    index = ShapeIndex(bases) if len(ships) > FEW_SHIPS else None
    order = {ship.name: i for i, ship in enumerate(ships)}
    for ship in ships:
        if index is None:
            earlier = [other.name for other in ships[:order[ship.name]] if _overlapping(other.base, ship.base)]
        else:
            earlier = sorted((other for other, contact in index.contacts(bases[ship.name],
                                                                         skip=frozenset((ship.name,))).items()
                              if contact is Contact.OVERLAPPING and order[other] < order[ship.name]),
                             key=order.__getitem__)
        if earlier:
            raise doc.error(path + ("ships", ship.name, "at"), f"the bases of {earlier[0]} and {ship.name} overlap "
                                                               "at the start; bases may touch but not overlap",
                            SceneError)
    if pending is not None:
        raise pending
    squadrons = []
    for name, spec in (data.get("squadrons") or {}).items():
        where = path + ("squadrons", name)
        squadron = Squadron(str(name), spec["owner"], (float(spec["at"][0]), float(spec["at"][1])),
                            float(spec["radius"]))
        (x, y), r = squadron.at, squadron.radius
        if min(x - r, y - r, width - x - r, height - y - r) < -1e-6:
            raise doc.error(where + ("at",), f"squadron {name} does not lie wholly inside the play area", SceneError)
        # (a squadron that overlaps a base is within its radius and TOLERANCE of it, so every
        # base it overlaps is among those within its radius and a millimetre)
        near = [s.name for s in ships] if index is None else \
            sorted(index.near(Point(squadron.at), tolerance=r + 1.0), key=order.__getitem__)
        for other in near:
            if round_contact(squadron.at, r, bases[other]) is Contact.OVERLAPPING:
                raise doc.error(where + ("at",), f"squadron {name} overlaps the base of {other} at the start",
                                SceneError)
        squadrons.append(squadron)
    obstacles = []
    for name, spec in (data.get("obstacles") or {}).items():
        where = path + ("obstacles", name)
        obstacle = Obstacle(str(name), tuple((float(p[0]), float(p[1])) for p in spec["corners"]),
                            spec.get("kind", "obstacle"))
        if not obstacle.shape.is_valid or obstacle.shape.area <= 0:
            raise doc.error(where, f"obstacle {name}'s corners do not make a simple polygon; list them in order "
                                   f"around it", SceneError)
        obstacles.append(obstacle)
    names = [s.name for s in ships] + [q.name for q in squadrons] + [o.name for o in obstacles]
    for name, count in Counter(names).items():
        if count > 1:
            raise doc.error(path, f"the name {name!r} is used twice; ships, squadrons and obstacles each need their "
                                  f"own", SceneError)
    return Scene(width, height, tuple(ships), tuple(squadrons), tuple(obstacles), tool)


def _known(doc: Located, path: tuple, name: Any, scene: Scene, what: str) -> str:
    names = [s.name for s in scene.ships]
    if name not in names:
        raise doc.error(path, f"{what} names {name!r}, which is not a ship of this scene; "
                              f"{did_you_mean(str(name), names)}", SceneError)
    return str(name)


def parse_maneuvers(doc: Located, path: tuple, scene: Scene) -> Maneuvers:
    data = doc.at(path)
    maneuvers = []
    for i, spec in enumerate(data):
        where = path + (i,)
        name = _known(doc, where + ("ship",), spec["ship"], scene, "the maneuver")
        course = tuple(int(c) for c in spec["course"])
        speed = len(course)
        navigate, additional = bool(spec.get("navigate", False)), bool(spec.get("additional", False))
        label = f"maneuver {i + 1} ({name})"
        if navigate and additional:
            raise doc.error(where + ("navigate",), f"{label} is an additional maneuver, whose speed the effect sets; "
                                                   f"a navigate command does not apply to it", SceneError)
        # A speed past the chart, a course that does not match the dial and clicks past the chart are
        # refused by the resolver (resolver.refusal), not rejected: the scene is possible.
        yaw = int(spec.get("yaw", 0))
        if "yaw" in spec and yaw == 0:
            raise doc.error(where + ("yaw",), f"{label}: a 0-speed yaw needs one or two clicks either way", SceneError)
        side = spec.get("side")
        if side is not None and speed == 0:
            raise doc.error(where + ("side",), f"{label}: at speed 0 the tool's side is not chosen"
                                               + (" (a yaw's direction sets it)" if yaw else ""), SceneError)
        if side is None and speed > 0 and i < len(data) - 1:
            raise doc.error(where, f"{label} leaves the side of the tool open, but later maneuvers start from where "
                                   f"it ends: name a side (port or starboard); only the last maneuver may leave it "
                                   f"open", SceneError)
        maneuvers.append(Maneuver(name, course, side, yaw, additional, navigate))
    return tuple(maneuvers)


def parse_expect(doc: Located, path: tuple, scene: Scene, maneuvers: Maneuvers) -> Expectation:
    data = doc.at(path)
    names = [s.name for s in scene.ships] + [q.name for q in scene.squadrons] + [o.name for o in scene.obstacles]
    ships = []
    for name, spec in (data.get("ships") or {}).items():
        _known(doc, path + ("ships", name), name, scene, "the expectation")
        at = (float(spec["at"][0]), float(spec["at"][1])) if "at" in spec else None
        ships.append(ShipExpectation(str(name), at, float(spec["heading"]) if "heading" in spec else None,
                                     spec.get("speed"), spec.get("damage"), spec.get("destroyed")))
    moves = tuple((m.get("speed"), m.get("side"), m.get("switched")) for m in data.get("moves") or ())
    tools = tuple(tuple((float(x), float(y), float(h)) for x, y, h in m["tool"]) if "tool" in m else None
                  for m in data.get("moves") or ())
    if len(moves) > len(maneuvers):
        raise doc.error(path + ("moves",), f"{len(moves)} moves are expected, but the case makes {len(maneuvers)} "
                                           f"maneuver(s)", SceneError)
    choice = None
    if "choice" in data:
        c = data["choice"]
        choice = (c["side"], (float(c["at"][0]), float(c["at"][1])), float(c["heading"]))
    events = []
    for i, item in enumerate(data["events"]):
        for j, piece in enumerate(item["pieces"]):
            if piece not in names:
                raise doc.error(path + ("events", i, "pieces", j), f"an event names {piece!r}, which is not a piece "
                                                                   f"of this scene; {did_you_mean(piece, names)}",
                                SceneError)
        events.append((item["kind"], tuple(item["pieces"])))
    return Expectation(tuple(ships), moves, tools, choice, tuple(events),
                       float(data.get("tolerance", DEFAULT_TOLERANCE)))


# --- the writer: scenes and outcomes as case data (Capability.FINDINGS) --------------------


def _n(value: float) -> float | int:
    """A number as a case file writes it: whole numbers without a point, others in full, so that
    a scene comes back exactly as it was."""
    return int(value) if float(value).is_integer() else float(value)


def case_data(scene: Scene, maneuvers: Maneuvers) -> tuple[dict, dict]:
    before: dict[str, Any] = {}
    if (scene.width, scene.height) != (PLAY_AREA, PLAY_AREA):
        before["area"] = [_n(scene.width), _n(scene.height)]
    if scene.tool is not None:
        t = scene.tool
        before["tool"] = {"step": _n(t.step), "lead": _n(t.lead), "width": _n(t.width), "outside": _n(t.outside),
                          "behind": _n(t.behind)}
    own = {s.type.name: s.type for s in scene.ships if SHIP_TYPES.get(s.type.name) != s.type}
    if own:
        before["types"] = {n: {"size": k.size, "chart": [list(c) for c in k.chart]} for n, k in own.items()}
    before["ships"] = {s.name: {"owner": s.owner, "type": s.type.name, "at": [_n(s.pose.x), _n(s.pose.y)],
                                "heading": _n(s.pose.heading), "speed": s.speed, "damage": s.damage}
                       for s in scene.ships}
    if scene.squadrons:
        before["squadrons"] = {q.name: {"owner": q.owner, "at": [_n(v) for v in q.at], "radius": _n(q.radius)}
                               for q in scene.squadrons}
    if scene.obstacles:
        before["obstacles"] = {o.name: {**({"kind": o.kind} if o.kind != "obstacle" else {}),
                                        "corners": [[_n(x), _n(y)] for x, y in o.points]} for o in scene.obstacles}
    actions = []
    for m in maneuvers:
        item: dict[str, Any] = {"ship": m.ship, "course": list(m.course)}
        if m.side is not None:
            item["side"] = m.side
        if m.yaw:
            item["yaw"] = m.yaw
        if m.navigate:
            item["navigate"] = True
        if m.additional:
            item["additional"] = True
        actions.append(item)
    return before, actions  # type: ignore[return-value]


def expect_data(scene: Scene, outcome: Outcome) -> dict:
    after: Result = outcome.after
    ships = {}
    for ship in after.ships:
        start = scene.ship(ship.name)
        if ship != start:
            ships[ship.name] = {"at": [_n(round(ship.pose.x, 2)), _n(round(ship.pose.y, 2))],
                                "heading": _n(round(ship.pose.heading, 2)), "speed": ship.speed,
                                "damage": ship.damage, "destroyed": ship.destroyed}
    data: dict[str, Any] = {}
    if ships:
        data["ships"] = ships
    data["moves"] = [{"speed": m.speed, "side": m.side or "none", "switched": m.switched} for m in after.moves]
    alternative = after.moves[-1].alternative if after.moves else None
    if alternative is not None and alternative.side is not None:
        data["choice"] = {"side": alternative.side, "at": [_n(round(alternative.end.x, 2)),
                                                           _n(round(alternative.end.y, 2))],
                          "heading": _n(round(alternative.end.heading, 2))}
    data["events"] = [{"kind": e.kind, "pieces": list(e.pieces)} for e in outcome.events]
    return data
