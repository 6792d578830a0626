"""The JSON Schemas of an Armada 2K case's parts, and the parser.

The schemas check shapes; the parser checks what a schema cannot: pieces that
overlap or leave the sea (under any footprint reading, so that every reading
starts from a possible scene), a sixth piece of one size from one stash, a move
longer than the ship's size allows, shots from a stern without the variant.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from shapely.geometry import Polygon

from verifier.errors import SceneError, did_you_mean
from verifier.kept import KeptByData
from verifier.kit.geometry import TOLERANCE, Contact, ShapeIndex
from verifier.ruleset import Outcome
from verifier.source import Located

from .model import (
    FOOTPRINTS,
    PIPS,
    SIDES,
    SIZES,
    XY,
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

_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
       "description": "[x, y] in inches: x east, y north"}
_HEADING = {"type": "number", "minimum": 0, "exclusiveMaximum": 360, "description": "compass degrees: 0 north, 90 east"}
_NAME = {"type": "string", "minLength": 1}
_POLYGON = {"type": "array", "items": _XY, "minItems": 3}

BEFORE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["ships"],
    "properties": {
        "area": {"type": "object", "additionalProperties": False,
                 "description": "the playing area: a circle (diameter, centre) or a polygon; default a circle 20 "
                                "inches across centred at [0, 0]",
                 "properties": {"circle": {"type": "number", "exclusiveMinimum": 0, "description": "diameter"},
                                "centre": _XY, "polygon": _POLYGON}},
        "players": {"type": "array", "items": _NAME, "minItems": 1, "uniqueItems": True,
                    "description": "turn order; default: the ships' players sorted by name"},
        "turn": {**_NAME, "description": "whose turn it is; default the first player"},
        "variants": {"type": "object", "additionalProperties": False, "properties": {
            "obstructed": {"type": "boolean"},
            "point-purchase": {"type": "object", "additionalProperties": False,
                               "required": ["small", "medium", "large", "total"],
                               "properties": {k: {"type": "integer", "minimum": 0}
                                              for k in ("small", "medium", "large", "total")}},
            "stashes": {"type": "integer", "minimum": 1, "description": "stashes per player"},
            "capture-the-flag": {"type": "object", "additionalProperties": False, "properties": {
                "flags": {"type": "object", "additionalProperties": _XY,
                          "description": "player -> where the player's flag marker stands"},
                "flagships": {"type": "object", "additionalProperties": _NAME,
                              "description": "player -> the ship that is the player's flag"}}},
            "rear-cannon": {"type": "boolean"},
        }},
        "obstacles": {"type": "object", "additionalProperties": _POLYGON,
                      "description": "reefs and islands (the obstructed variant): name -> polygon"},
        "ships": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["player", "size", "at", "heading"],
            "properties": {"player": _NAME, "size": {"enum": list(SIZES)},
                           "at": {**_XY, "description": "the centre of the stern (the pyramid's base edge)"},
                           "heading": _HEADING, "damage": {"type": "integer", "minimum": 0}}}},
    },
}
_ACTION_FORMS: list[dict[str, Any]] = [
    {"type": "object", "additionalProperties": False, "required": ["move", "steps"],
     "properties": {"move": _NAME, "steps": {"type": "array", "items": _HEADING, "minItems": 1,
                                             "description": "the heading of each step's new piece"}}},
    {"type": "object", "additionalProperties": False, "required": ["fire", "side", "target"],
     "properties": {"fire": _NAME, "side": {"enum": list(SIDES)}, "target": _NAME}},
    {"type": "object", "additionalProperties": False, "required": ["fan"], "properties": {"fan": _NAME},
     "description": "which headings the ship's next step may take"},
    {"type": "object", "additionalProperties": False, "required": ["range"], "properties": {"range": _NAME},
     "description": "which ships each of the ship's sides can hit"},
    {"type": "object", "additionalProperties": False, "required": ["setup"],
     "properties": {"setup": {"const": "check"}}},
    {"type": "object", "additionalProperties": False, "required": ["end"], "properties": {"end": {"const": "turn"}}},
]
# Each form is told by its first key; with "oneOf" a form with one wrong value matched no branch, and the
# error reported was the best-matching wrong branch's ("unknown field 'move'").
_ACTION_KEYS = [form["required"][0] for form in _ACTION_FORMS]
_ACTION = {"type": "object", "minProperties": 1,
           "allOf": [{"if": {"required": [key]}, "then": form} for key, form in zip(_ACTION_KEYS, _ACTION_FORMS)]
           + [{"if": {"not": {"anyOf": [{"required": [key]} for key in _ACTION_KEYS]}},
               "then": {"additionalProperties": False, "properties": {key: {} for key in _ACTION_KEYS}}}]}
ACTIONS_SCHEMA: dict[str, Any] = {"type": "array", "items": _ACTION,
                                  "description": "what happens, in order: moves, shots, queries, the end of a turn"}
EVENT_KINDS = ("move", "blocked", "stuck", "refused", "hit", "sunk", "no-shot", "obstructed", "in-range",
               "setup-breach", "win")
# How many pieces each kind of event names, fewest and most: a blocked step may name what
# blocks it; a set-up breach names the players or pieces at fault.
EVENT_SIZES = {"move": (1, 1), "blocked": (1, 2), "stuck": (1, 1), "refused": (1, 1), "hit": (2, 2),
               "sunk": (1, 1), "no-shot": (2, 2), "obstructed": (3, 3), "in-range": (2, 2), "win": (1, 1)}
PIECE_COUNTS = [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                 "then": {"properties": {"pieces": {"minItems": fewest, "maxItems": most}}}}
                for kind, (fewest, most) in EVENT_SIZES.items()]
_EVENT = {"type": "object", "required": ["kind", "pieces"],
          "properties": {"kind": {"enum": list(EVENT_KINDS)},
                         "pieces": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
          "allOf": PIECE_COUNTS}
_SHIP_END = {"type": "object", "additionalProperties": False,
             "properties": {"at": _XY, "heading": {"type": "number"}, "damage": {"type": "integer", "minimum": 0},
                            "sunk": {"type": "boolean"}}}
_INTERVALS = {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
              "description": "allowed headings [from, to], clockwise; 'to' may pass 360"}
EXPECT_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["events"],
    "properties": {
        "ships": {"type": "object", "additionalProperties": _SHIP_END,
                  "description": "how listed ships end; ships not listed must end as they started"},
        "events": {"type": "array", "items": {**_EVENT, "additionalProperties": False}},
        "fans": {"type": "object", "additionalProperties": _INTERVALS,
                 "description": "ship -> the headings its next step may take (its last fan query)"},
        "winner": {"type": ["string", "null"]},
    },
}


@dataclass(frozen=True)
class ShipEnd:
    at: XY | None = None
    heading: float | None = None
    damage: int | None = None
    sunk: bool | None = None


@dataclass(frozen=True)
class Expectation:
    ships: tuple[tuple[str, ShipEnd], ...]
    events: tuple[tuple[str, tuple[str, ...]], ...]
    fans: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] | None
    winner: str | None
    winner_given: bool



def _point(value: list) -> XY:
    return (float(value[0]), float(value[1]))


def _polygon(doc: Located, path: tuple, points: list) -> tuple[XY, ...]:
    pts = tuple(_point(p) for p in points)
    if not _proper(pts):
        raise doc.error(path, "the polygon's points must go round a proper area without crossing themselves",
                        SceneError)
    return pts


@lru_cache(maxsize=256)  # a scene's reefs are read again with it (fuzz reads each scene it sends more than once)
def _proper(points: tuple[XY, ...]) -> bool:
    """Whether the points go round a proper area without crossing themselves."""
    shape = Polygon(points)
    return bool(shape.is_valid) and not shape.area <= TOLERANCE


def _area(doc: Located, path: tuple, data: dict | None) -> Area:
    if not data:
        return Area()
    if "polygon" in data:
        if "circle" in data or "centre" in data:
            raise doc.error(path, "an area is a circle (circle, centre) or a polygon, not both", SceneError)
        return Area(points=_polygon(doc, path + ("polygon",), data["polygon"]))
    if "circle" not in data:
        raise doc.error(path, "an area needs 'circle' (its diameter) or 'polygon'", SceneError)
    return Area(_point(data.get("centre", [0, 0])), float(data["circle"]) / 2)


def _inside(area: Area, shape: Polygon | Callable[[], Polygon], corners: Sequence[XY] | None = None) -> bool:
    """Whether the shape lies on the area. ``corners``: its corners, where the caller has them
    (a circle is tested on them, without the shape); ``shape`` may be a function that makes it."""
    if area.is_circle:
        if corners is not None:
            return _on_circle(area.centre, area.radius, tuple(corners))
        return _on_circle(area.centre, area.radius, tuple(_made(shape).exterior.coords))
    return bool(Polygon(area.points).buffer(TOLERANCE).contains(_made(shape)))


# A ship's corners are read again with its scene (fuzz reads each scene it sends more than once,
# its boundaries read each scene they try) and kept (footprint_corners): their test is kept too.
@lru_cache(maxsize=4096)
def _on_circle(centre: XY, radius: float, points: tuple[XY, ...]) -> bool:
    (cx, cy), r = centre, radius
    return all(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= r + TOLERANCE for x, y in points)


def _made(shape: Polygon | Callable[[], Polygon]) -> Polygon:
    return shape if isinstance(shape, Polygon) else shape()


def _corners(ship: Ship, reading: str) -> tuple[XY, ...]:
    """The corners of ``footprint(ship, reading)``, as it works them out (the same numbers)."""
    return footprint_corners(ship.size, reading, ship.pose)


Box = tuple[float, float, float, float]


def _box(corners: Sequence[XY]) -> Box:
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_near(a: Box, b: Box) -> bool:
    """Whether box ``b`` meets box ``a`` grown by the tolerance, as ``ShapeIndex`` tests envelopes:
    shapes whose boxes do not are further apart than the tolerance."""
    lo_x, lo_y, hi_x, hi_y = a[0] - TOLERANCE, a[1] - TOLERANCE, a[2] + TOLERANCE, a[3] + TOLERANCE
    return not (lo_x > b[2] or hi_x < b[0] or lo_y > b[3] or hi_y < b[1])


def _variants(doc: Located, path: tuple, data: dict) -> Variants:
    points = data.get("point-purchase")
    return Variants(obstructed=bool(data.get("obstructed")),
                    points=tuple((z, int(points[z])) for z in SIZES) if points else (),
                    total=int(points["total"]) if points else None,
                    stashes=int(data.get("stashes", 1)), flag="capture-the-flag" in data,
                    rear_cannon=bool(data.get("rear-cannon")))


_PARSED: KeptByData[Scene] = KeptByData(512)
FEW_SHIPS = 8  # a scene of more ships finds the ships near each through a spatial index


def parse_scene(doc: Located, path: tuple) -> Scene:
    """The scene at ``path``; one read before from the same data is given again, since fuzz
    reads each scene it sends more than once (the request, the expectation it restates)."""
    return _PARSED.get(doc.at(path), lambda: _parse_scene(doc, path))


def forget_scenes() -> None:
    _PARSED.clear()
    _proper.cache_clear()
    _on_circle.cache_clear()


def _parse_scene(doc: Located, path: tuple) -> Scene:
    data = doc.at(path)
    area = _area(doc, path + ("area",), data.get("area"))
    variant_data = data.get("variants") or {}
    variants = _variants(doc, path + ("variants",), variant_data)
    for name in data["ships"]:
        if not isinstance(name, str):
            raise doc.error(path + ("ships", name), f"ship names must be text; quote {name!r}", SceneError, key=True)
    ships = [Ship(name, spec["player"], spec["size"], _point(spec["at"]), float(spec["heading"]),
                  int(spec.get("damage", 0))) for name, spec in data["ships"].items()]
    corners = {reading: {ship.name: _corners(ship, reading) for ship in ships} for reading in FOOTPRINTS}
    boxes = {reading: {name: _box(points) for name, points in corners[reading].items()} for reading in FOOTPRINTS}
    order = {ship.name: i for i, ship in enumerate(ships)}
    indexes: dict[str, ShapeIndex] = {}

    def index(reading: str) -> ShapeIndex:
        """The ships' outlines under ``reading`` in a spatial index, made when first asked for."""
        if reading not in indexes:
            indexes[reading] = ShapeIndex({ship.name: footprint(ship, reading) for ship in ships})
        return indexes[reading]

    def met_before(at: int, ship: Ship, reading: str) -> list[Ship]:
        """The ships listed before ``ship`` whose outlines come within the tolerance of its own,
        in their order: found by the index among many ships, else by their boxes first."""
        if len(ships) > FEW_SHIPS:
            names = sorted(index(reading).near(footprint(ship, reading)), key=order.__getitem__)
            return [ships[order[n]] for n in names if order[n] < at]
        box = boxes[reading][ship.name]
        return [other for other in ships[:at] if _boxes_near(box, boxes[reading][other.name])
                and footprint(other, reading).distance(footprint(ship, reading)) <= TOLERANCE]

    counts: dict[tuple[str, str], int] = {}
    for at, ship in enumerate(ships):
        name, where = ship.name, path + ("ships", ship.name)
        if ship.damage >= PIPS[ship.size]:
            raise doc.error(where + ("damage",), f"a {ship.size} ship with {ship.damage} damage would already be "
                                                 f"sunk (it sinks at {PIPS[ship.size]})", SceneError)
        key = (ship.player, ship.size)
        counts[key] = counts.get(key, 0) + 1
        stash = 5 * variants.stashes
        if counts[key] > stash:
            raise doc.error(where + ("size",), f"player {ship.player!r} has a piece too many: {variants.stashes} "
                                               f"stash(es) hold only {stash} {ship.size} pieces", SceneError)
        for reading in FOOTPRINTS:
            if not _inside(area, partial(footprint, ship, reading), corners[reading][name]):
                raise doc.error(where + ("at",), f"ship {name!r} does not lie wholly on the playing area (under the "
                                                 f"{reading} footprint)", SceneError)
            # the earlier ships whose outlines meet this one; pieces_contact decides (solids too)
            earlier = [other.name for other in met_before(at, ship, reading)
                       if pieces_contact(ship, other, reading) is Contact.OVERLAPPING]
            if earlier:
                raise doc.error(where + ("at",), f"ships {earlier[0]!r} and {name!r} overlap (under the "
                                                 f"{reading} footprint); pieces may touch but not overlap",
                                SceneError)
    owners = sorted({s.player for s in ships})
    players = tuple(data.get("players") or owners)
    for s in ships:
        if s.player not in players:
            raise doc.error(path + ("ships", s.name, "player"), f"{s.player!r} is not one of the players; "
                                                               f"{did_you_mean(s.player, list(players))}", SceneError)
    turn = data.get("turn", players[0])
    if turn not in players:
        raise doc.error(path + ("turn",), f"{turn!r} is not one of the players; {did_you_mean(turn, list(players))}",
                        SceneError)
    obstacles = []
    for name, points in (data.get("obstacles") or {}).items():
        where = path + ("obstacles", name)
        if not variants.obstructed:
            raise doc.error(where, "obstacles need the obstructed variant (variants: {obstructed: true})",
                            SceneError, key=True)
        obstacle = Obstacle(str(name), _polygon(doc, where, points))
        under = sorted((order[ship], r, ship, reading) for r, reading in enumerate(FOOTPRINTS)
                       for ship, contact in index(reading).contacts(obstacle_shape(obstacle)).items()
                       if contact is Contact.OVERLAPPING)
        if under:
            raise doc.error(where, f"obstacle {name!r} overlaps ship {under[0][2]!r} (under the {under[0][3]} "
                                   "footprint)", SceneError)
        obstacles.append(obstacle)
    flags, flagships = [], []
    ctf = variant_data.get("capture-the-flag") or {}
    names = [s.name for s in ships]
    for player, at in (ctf.get("flags") or {}).items():
        where = path + ("variants", "capture-the-flag", "flags", player)
        if player not in players:
            raise doc.error(where, f"{player!r} is not one of the players; {did_you_mean(player, list(players))}",
                            SceneError, key=True)
        flag = Flag(player, _point(at))
        shape = flag_shape(flag)
        if not _inside(area, shape) or any(contact is Contact.OVERLAPPING for r in FOOTPRINTS
                                           for contact in index(r).contacts(shape).values()):
            raise doc.error(where, f"the flag of {player!r} must lie on the area and under no ship", SceneError)
        flags.append(flag)
    for player, ship_name in (ctf.get("flagships") or {}).items():
        where = path + ("variants", "capture-the-flag", "flagships", player)
        if ship_name not in names:
            raise doc.error(where, f"{ship_name!r} is not a ship of this scene; {did_you_mean(ship_name, names)}",
                            SceneError)
        if next(s for s in ships if s.name == ship_name).player != player:
            raise doc.error(where, f"a flagship must be one of its player's ships; {ship_name!r} is not "
                                   f"{player!r}'s", SceneError)
        flagships.append((str(player), str(ship_name)))
    return Scene(area, tuple(ships), players, turn, tuple(obstacles), tuple(flags), tuple(flagships), variants)


def _known(doc: Located, path: tuple, name: Any, scene: Scene, what: str) -> str:
    names = [s.name for s in scene.ships]
    if name not in names:
        raise doc.error(path, f"{what} names {name!r}, which is not a ship of this scene; "
                              f"{did_you_mean(name, names)}", SceneError)
    return str(name)


def parse_actions(doc: Located, path: tuple, scene: Scene) -> Actions:
    actions: list[Action] = []
    for i, item in enumerate(doc.at(path)):
        where = path + (i,)
        if "move" in item:
            name = _known(doc, where + ("move",), item["move"], scene, "a move")
            steps = tuple(float(h) for h in item["steps"])
            actions.append(Action("move", name, steps))  # more steps than its size allows: the resolver refuses
        elif "fire" in item:
            name = _known(doc, where + ("fire",), item["fire"], scene, "a shot")
            target = _known(doc, where + ("target",), item["target"], scene, "a shot's target")
            # A shot at itself or off a stern without a rear cannon: the resolver refuses it.
            actions.append(Action("fire", name, side=item["side"], target=target))
        elif "fan" in item:
            actions.append(Action("fan", _known(doc, where + ("fan",), item["fan"], scene, "a fan query")))
        elif "range" in item:
            actions.append(Action("range", _known(doc, where + ("range",), item["range"], scene, "a range query")))
        elif "setup" in item:
            actions.append(Action("setup"))
        else:
            actions.append(Action("end"))
    return tuple(actions)


def parse_expect(doc: Located, path: tuple, scene: Scene) -> Expectation:
    data = doc.at(path)
    ships = []
    for name, spec in (data.get("ships") or {}).items():
        _known(doc, path + ("ships", name), name, scene, "the expectation")
        ships.append((str(name), ShipEnd(_point(spec["at"]) if "at" in spec else None,
                                         float(spec["heading"]) if "heading" in spec else None,
                                         spec.get("damage"), spec.get("sunk"))))
    events = []
    pieces = {s.name for s in scene.ships} | set(scene.players) | {o.name for o in scene.obstacles} | {
        f.name for f in scene.flags}
    for i, item in enumerate(data["events"]):
        for j, piece in enumerate(item["pieces"]):
            if piece not in pieces:
                raise doc.error(path + ("events", i, "pieces", j), f"an event names {piece!r}, which is not a ship, "
                                                                   f"player, obstacle or flag of this scene; "
                                                                   f"{did_you_mean(piece, sorted(pieces))}",
                                SceneError)
        events.append((str(item["kind"]), tuple(str(p) for p in item["pieces"])))
    fans = None
    if "fans" in data:
        fans = tuple((_known(doc, path + ("fans", n), n, scene, "a fan"),
                      tuple((float(lo), float(hi)) for lo, hi in spans)) for n, spans in data["fans"].items())
    winner = data.get("winner")
    if winner is not None and winner not in scene.players:
        raise doc.error(path + ("winner",), f"{winner!r} is not one of the players; "
                                            f"{did_you_mean(winner, list(scene.players))}", SceneError)
    return Expectation(tuple(ships), tuple(events), fans, winner, "winner" in data)


# --- the writer: scenes and outcomes as case data (Capability.FINDINGS) --------------------


def _n(value: float) -> float | int:
    value = round(float(value), 9)
    return int(value) if value.is_integer() else value


def _xy(point: tuple[float, float]) -> list:
    return [_n(point[0]), _n(point[1])]


def case_data(scene: Scene, actions: Actions) -> tuple[dict, list]:
    before: dict[str, Any] = {}
    if scene.area.is_circle:
        before["area"] = {"circle": _n(2 * scene.area.radius), "centre": _xy(scene.area.centre)}
    else:
        before["area"] = {"polygon": [_xy(p) for p in scene.area.points]}
    before["players"] = list(scene.players)
    before["turn"] = scene.turn
    v = scene.variants
    variants: dict[str, Any] = {}
    if v.obstructed:
        variants["obstructed"] = True
    if v.points:
        variants["point-purchase"] = {**dict(v.points), "total": v.total}
    if v.stashes > 1:
        variants["stashes"] = v.stashes
    if v.flag:
        variants["capture-the-flag"] = {"flags": {f.player: _xy(f.at) for f in scene.flags},
                                        "flagships": dict(scene.flagships)}
    if v.rear_cannon:
        variants["rear-cannon"] = True
    if variants:
        before["variants"] = variants
    if scene.obstacles:
        before["obstacles"] = {o.name: [_xy(p) for p in o.points] for o in scene.obstacles}
    before["ships"] = {s.name: {"player": s.player, "size": s.size, "at": _xy(s.at), "heading": _n(s.heading),
                                **({"damage": s.damage} if s.damage else {})} for s in scene.ships}
    out: list[dict[str, Any]] = []
    for a in actions:
        if a.kind == "move":
            out.append({"move": a.ship, "steps": [_n(h) for h in a.steps]})
        elif a.kind == "fire":
            out.append({"fire": a.ship, "side": a.side, "target": a.target})
        elif a.kind in ("fan", "range"):
            out.append({a.kind: a.ship})
        elif a.kind == "setup":
            out.append({"setup": "check"})
        else:
            out.append({"end": "turn"})
    return before, out


def expect_data(scene: Scene, outcome: Outcome) -> dict:
    state: State = outcome.after
    ships: dict[str, Any] = {}
    for s in state.scene.ships:
        start = scene.ship(s.name)
        entry: dict[str, Any] = {}
        if math.dist(s.at, start.at) > 1e-9 or abs(s.heading - start.heading) > 1e-9:
            entry.update(at=[_n(round(v, 4)) for v in s.at], heading=_n(round(s.heading, 4)))
        if s.damage != start.damage:
            entry["damage"] = s.damage
        if s.sunk:
            entry["sunk"] = True
        if entry:
            ships[s.name] = entry
    data: dict[str, Any] = {**({"ships": ships} if ships else {}),
                            "events": [{"kind": e.kind, "pieces": list(e.pieces)} for e in outcome.events]}
    if state.fans:
        data["fans"] = {n: [[_n(round(i.lo, 4)), _n(round(i.hi, 4))] for i in spans] for n, spans in state.fans}
    if state.winner:
        data["winner"] = state.winner
    return data
