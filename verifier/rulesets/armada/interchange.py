"""Armada's outcome over the adapter protocol: the JSON Schema of an answer, and its
writer and reader (``outcome_json``, ``outcome_from_json``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError
from ...kept import Kept
from ...kit.geometry import Pose
from ...kit.interchange import require_every_piece
from ...ruleset import Event, Outcome, OutcomePart, provenance_from_json, provenance_json
from .model import SIDES, Attempt, Move, Result, Scene, Ship, ToolPose
from .parse import EVENT_KINDS, EVENT_SIZES

OUTCOME_PARTS = (
    OutcomePart("pose", "where every ship ends and where it faces", ("ships.*.at", "ships.*.heading"), required=True),
    OutcomePart("speed", "the speed each ship ends at and each maneuver was made at",
                ("ships.*.speed", "moves.*.speed")),
    OutcomePart("side", "the side of the maneuver tool, whether it was switched, and the other side where the "
                        "owner's choice was open", ("moves.*.side", "moves.*.switched", "moves.*.choice", "choice")),
    OutcomePart("tool", "the tool's pose after every joint", ("moves.*.tool",)),
    OutcomePart("damage", "the damage each ship ends with, and whether it is destroyed",
                ("ships.*.damage", "ships.*.destroyed")),
    OutcomePart("events", "overlaps, bumps, obstacles and the like", ("events",)),
)

_POSE_JSON = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3,
              "description": "[x, y, heading] in mm and compass degrees"}
OUTCOME_SCHEMA = {
    "type": "object", "required": ["ships", "events"],
    "description": "An armada outcome: how every ship ends, what each maneuver did, and what happened. Fields "
                   "not named here are allowed and ignored.",
    "properties": {
        "ships": {"type": "object", "description": "every ship of the scene",
                  "additionalProperties": {
                      "type": "object", "required": ["at", "heading"],
                      "properties": {"at": {"type": "array", "items": {"type": "number"}, "minItems": 2,
                                            "maxItems": 2},
                                     "heading": {"type": "number"}, "speed": {"type": "integer"},
                                     "damage": {"type": "integer"}, "destroyed": {"type": "boolean"}}}},
        "moves": {"type": "array", "description": "per maneuver, in order",
                  "items": {"type": "object", "required": ["ship", "speed"],
                            "properties": {
                                "ship": {"type": "string"}, "speed": {"type": "integer"},
                                "side": {"enum": [*SIDES, None]}, "switched": {"type": "boolean"},
                                "end": _POSE_JSON,
                                "tool": {"type": "array", "items": _POSE_JSON,
                                         "description": "the tool's pose after every joint: starting guides, "
                                                        "joints, final guides"},
                                "attempts": {"type": "array", "items": {"type": "object"},
                                             "description": "the speeds tried before one fitted; informative, "
                                                            "not compared"},
                                "choice": {"type": "object", "description": "the other side, when the owner's "
                                                                            "choice was open"}}}},
        "events": {"type": "array", "items": {
            "type": "object", "required": ["kind", "pieces"],
            "properties": {"kind": {"enum": list(EVENT_KINDS)},
                           "pieces": {"type": "array", "items": {"type": "string"},
                                      "description": "the ship, then for an overlap, the closest ship, an obstacle "
                                                     "or a squadron the other piece"}},
            "allOf": [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                       "then": {"properties": {"pieces": {"minItems": size, "maxItems": size}}}}
                      for kind, size in EVENT_SIZES.items()]}},
        "provenance": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
}


def rounded(value: float) -> float:
    return round(value + 0.0, 2)


_ROUNDED: Kept[Pose, tuple[float, float, float]] = Kept(4096)


def _rounded_pose(pose: Pose) -> tuple[float, float, float]:
    """The pose's x, y and heading ``rounded``: kept, since every outcome of a scene (under each
    reading, read back from an answer) writes the same poses again."""
    return _ROUNDED.get(pose, lambda: (rounded(pose.x), rounded(pose.y), rounded(pose.heading)))


def _ship_json(ship: Ship) -> dict[str, Any]:
    x, y, heading = _rounded_pose(ship.pose)
    return {"at": [x, y], "heading": heading, "speed": ship.speed, "damage": ship.damage,
            "destroyed": ship.destroyed}


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    after: Result = outcome.after
    return {
        "ships": {s.name: _ship_json(s) for s in after.ships},
        "moves": [_move_json(m) for m in after.moves],
        "events": [{"kind": e.kind, "pieces": list(e.pieces), "clause": e.clause} for e in outcome.events],
        "provenance": provenance_json(outcome.provenance),
    }


def outcome_from_json(before: Scene, data: dict[str, Any]) -> Outcome:
    names = {s.name for s in before.ships}
    require_every_piece(data["ships"], names)
    pieces = names | {q.name for q in before.squadrons} | {o.name for o in before.obstacles}
    for event in data.get("events", ()):  # absent where events are not reported
        if not set(event["pieces"]) <= pieces:
            raise ImplementationError(f"the answer's event {event} names pieces the scene lacks")
    ships = []
    for ship in sorted(before.ships, key=lambda s: s.name):
        got = data["ships"][ship.name]
        pose = Pose(float(got["at"][0]), float(got["at"][1]), float(got["heading"]))
        ships.append(Ship(ship.name, ship.owner, ship.type, pose, int(got.get("speed", ship.speed)),
                          int(got.get("damage", ship.damage)), bool(got.get("destroyed", False))))
    starts = {s.name: s for s in reversed(before.ships)}  # the first of a name, as Scene.ship finds it
    moves = []
    for m in data.get("moves", ()):
        if m["ship"] not in names:
            raise ImplementationError(f"the answer's move names {m['ship']!r}, which is not a ship of the scene")
        moves.append(_move_from_json(m, starts))
    events = tuple(Event(e["kind"], tuple(e["pieces"]), clause=e.get("clause", "")) for e in data.get("events", ()))
    provenance = provenance_from_json(data)
    return Outcome(Result(tuple(ships), tuple(moves)), events, MappingProxyType(provenance))


def pose_json(pose: Pose) -> list[float]:
    return list(_rounded_pose(pose))


def _move_json(move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ship": move.ship, "speed": move.speed, "side": move.side, "switched": move.switched,
        "end": pose_json(move.end), "tool": [pose_json(j) for j in move.tool.joints] if move.tool else [],
        "attempts": [{"speed": a.speed, "at": pose_json(a.pose), "ships": list(a.ships),
                      "squadrons": list(a.squadrons), "tool": a.tool} for a in move.attempts],
        "damaged": list(move.damaged), "destroyed": move.destroyed}
    if move.alternative is not None:
        data["choice"] = _move_json(move.alternative)
    return data


def _move_from_json(data: dict[str, Any], starts: Mapping[str, Ship]) -> Move:
    x, y, h = data.get("end") or (0.0, 0.0, 0.0)
    end = Pose(float(x), float(y), float(h))
    ship = starts[data["ship"]]
    alternative = _move_from_json({**data["choice"], "ship": data["ship"]}, starts) if data.get("choice") else None
    tool = (ToolPose(data.get("side") or "starboard", tuple(Pose(float(x), float(y), float(h))
                                                            for x, y, h in data["tool"]))
            if data.get("tool") else None)
    attempts = tuple(Attempt(int(a["speed"]), Pose(float(a["at"][0]), float(a["at"][1]), float(a["at"][2])),
                             tuple(a.get("ships", ())), tuple(a.get("squadrons", ())), bool(a.get("tool", False)))
                     for a in data.get("attempts", ()) if "speed" in a and len(a.get("at") or ()) == 3)
    speed = int(data.get("speed", ship.speed))  # absent where speeds are not reported
    return Move(data["ship"], ship.pose, end, speed, data.get("side"), tool, attempts,
                bool(data.get("switched")), damaged=tuple(data.get("damaged", ())),
                destroyed=bool(data.get("destroyed", False)), alternative=alternative)
