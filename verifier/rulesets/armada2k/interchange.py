"""Armada 2000's outcome over the adapter protocol: the JSON Schema of an answer, and its
writer and reader (``outcome_json``, ``outcome_from_json``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...errors import ImplementationError
from ...kit.interchange import require_every_piece
from ...ruleset import Event, Outcome, provenance_from_json, provenance_json
from .model import Interval, Scene, State
from .parse import EVENT_KINDS

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
            "properties": {"kind": {"enum": list(EVENT_KINDS)},
                           "pieces": {"type": "array", "items": {"type": "string"}}}}},
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
        ships.append(replace(ship, at=(float(d["at"][0]), float(d["at"][1])), heading=float(d["heading"]) % 360,
                             damage=int(d["damage"]), sunk=bool(d["sunk"])))
    fans = tuple(sorted((n, tuple(Interval(float(lo), float(hi)) for lo, hi in spans))
                        for n, spans in (data.get("fans") or {}).items()))
    unknown = set(dict(fans)) - names
    if unknown:
        raise ImplementationError(f"the answer gives fans of ships the scene lacks: {sorted(unknown)}")
    winner = data.get("winner")
    if winner is not None and winner not in before.players:
        raise ImplementationError(f"the answer's winner {winner!r} is not a player of the scene")
    events = tuple(Event(e["kind"], tuple(e["pieces"]), clause=e.get("clause", ""), detail=e.get("detail", ""))
                   for e in data["events"])
    provenance = provenance_from_json(data)
    return Outcome(State(before.with_ships(tuple(ships)), fans, winner), events, provenance)
