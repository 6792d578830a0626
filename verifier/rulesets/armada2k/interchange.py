"""Armada 2000's outcome over the adapter protocol: the JSON Schema of an answer, and its
writer and reader (``outcome_json``, ``outcome_from_json``)."""

from __future__ import annotations

from typing import Any

from ...errors import ImplementationError
from ...kit.interchange import require_every_piece
from ...ruleset import Event, Outcome, OutcomePart, provenance_from_json, provenance_json
from .model import Interval, Scene, Ship, State
from .parse import EVENT_KINDS, PIECE_COUNTS

OUTCOME_PARTS = (
    OutcomePart("poses", "where every ship ends and where it heads", ("ships.*.at", "ships.*.heading"),
                required=True),
    OutcomePart("damage", "the damage each ship ends with, and whether it is sunk", ("ships.*.damage", "ships.*.sunk")),
    OutcomePart("events", "steps, shots, hits, obstructions, sinkings and the like", ("events",)),
    OutcomePart("fans", "the headings each ship's next step may take", ("fans",)),
    OutcomePart("winner", "the player who has won, if any", ("winner",)),
)

_INTERVAL_JSON = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
OUTCOME_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["ships", "events"],
    "properties": {
        "ships": {"type": "object", "description": "every ship: where it ends, its heading, damage and whether sunk",
                  "additionalProperties": {
                      "type": "object", "required": ["at", "heading", "damage", "sunk"],
                      "properties": {"at": {"type": "array", "items": {"type": "number"}, "minItems": 2,
                                            "maxItems": 2},
                                     "heading": {"type": "number"}, "damage": {"type": "integer"},
                                     "sunk": {"type": "boolean"}}}},
        "events": {"type": "array", "items": {
            "type": "object", "required": ["kind", "pieces"],
            "description": "each kind names as many pieces as its words need: a hit the shooter and the target, "
                           "an obstructed shot the shooter, the target and what is in the way, a win the player",
            "properties": {"kind": {"enum": list(EVENT_KINDS)},
                           "pieces": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
            "allOf": PIECE_COUNTS}},
        "fans": {"type": "object", "additionalProperties": {"type": "array", "items": _INTERVAL_JSON},
                 "description": "ship -> allowed headings of its next step, [from, to] clockwise"},
        "winner": {"type": ["string", "null"]},
        "provenance": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
}


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    state: State = outcome.after
    return {"ships": {s.name: {"at": [round(v, 6) for v in s.at], "heading": round(s.heading, 6),
                               "damage": s.damage, "sunk": s.sunk} for s in state.scene.ships},
            "events": [{"kind": e.kind, "pieces": list(e.pieces), "clause": e.clause, "detail": e.detail}
                       for e in outcome.events],
            "fans": {n: [[round(i.lo, 6), round(i.hi, 6)] for i in spans] for n, spans in state.fans},
            "winner": state.winner,
            "provenance": provenance_json(outcome.provenance)}


def outcome_from_json(before: Scene, data: dict[str, Any]) -> Outcome:
    names = {s.name for s in before.ships}
    require_every_piece(data["ships"], names)
    ships = []
    for ship in before.ships:
        d = data["ships"][ship.name]
        ships.append(Ship(ship.name, ship.player, ship.size, (float(d["at"][0]), float(d["at"][1])),
                          float(d["heading"]) % 360, int(d.get("damage", ship.damage)), bool(d.get("sunk", ship.sunk))))
    fans = tuple(sorted((n, tuple(Interval(float(lo), float(hi)) for lo, hi in spans))
                        for n, spans in (data.get("fans") or {}).items()))
    unknown = set(dict(fans)) - names
    if unknown:
        raise ImplementationError(f"the answer gives fans of ships the scene lacks: {sorted(unknown)}")
    winner = data.get("winner")
    if winner is not None and winner not in before.players:
        raise ImplementationError(f"the answer's winner {winner!r} is not a player of the scene")
    obstructers = {o.name for o in before.obstacles} | {f.name for f in before.flags}
    for e in data.get("events", ()):
        for i, piece in enumerate(e["pieces"]):
            # a win names a player, a set-up breach players or ships; what obstructs a shot is an obstacle,
            # a flag or a ship; what blocks a step is not drawn; every other piece is a ship
            if e["kind"] == "blocked" and i == 1:
                continue
            allowed, what = ((set(before.players), "player") if e["kind"] == "win" else
                             (names | set(before.players), "ship or player") if e["kind"] == "setup-breach" else
                             (names | obstructers, "ship, obstacle or flag") if e["kind"] == "obstructed" and i == 2
                             else (names, "ship"))
            if piece not in allowed:
                raise ImplementationError(f"the answer's {e['kind']} event names {piece!r}, which is not a {what} "
                                          "of the scene")
    events = tuple(Event(e["kind"], tuple(e["pieces"]), clause=e.get("clause", ""), detail=e.get("detail", ""))
                   for e in data.get("events", ()))  # absent where events are not reported
    provenance = provenance_from_json(data)
    return Outcome(State(before.with_ships(tuple(ships)), fans, winner), events, provenance)
