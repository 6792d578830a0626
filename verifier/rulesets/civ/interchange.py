"""The adapter protocol's answer for civ (Capability.INTERCHANGE): one entry per branch,
with the decisions it took, every ship, the tokens on land, the removals in order and
the events."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError
from ...kit.interchange import require_every_piece
from ...ruleset import Event, Outcome, provenance_from_json, provenance_json
from .model import Branch, Result, Scene, ShipState, State, label_text

_NAME = {"type": "string"}
OUTCOME_SCHEMA = {
    "type": "object", "required": ["branches"],
    "properties": {
        "branches": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["when", "ships", "land", "removals", "events"],
            "properties": {
                "when": {"type": "object", "description": "decision kind -> key -> the answer this branch takes",
                         "additionalProperties": {"type": "object", "additionalProperties": _NAME}},
                "ships": {"type": "object", "description": "every ship of the scene", "additionalProperties": {
                    "type": "object", "required": ["at", "tokens", "sunk"],
                    "properties": {"at": _NAME, "tokens": {"type": "integer", "minimum": 0},
                                   "blockading": {"type": "boolean"}, "blocked_by": _NAME,
                                   "sunk": {"type": "boolean"}}}},
                "land": {"type": "object", "description": "area -> nation -> tokens, at the end",
                         "additionalProperties": {"type": "object",
                                                  "additionalProperties": {"type": "integer", "minimum": 0}}},
                "removals": {"type": "object", "description": "area -> steps, each the pieces removed together",
                             "additionalProperties": {"type": "array", "items": {"type": "array", "items": _NAME}}},
                "events": {"type": "array", "items": {
                    "type": "object", "required": ["kind", "pieces"],
                    "properties": {"kind": _NAME, "pieces": {"type": "array", "items": _NAME}}}},
            }}},
        "provenance": {"type": "object", "description": "piece -> causes, as Cause writes them (not compared)",
                       "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
}


def _when(label: tuple) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for kind, key, value in label:
        out.setdefault(kind, {})[key] = value
    return out


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    branches = []
    several = len(outcome.after.branches) > 1
    for number, branch in enumerate(outcome.after.branches, 1):
        state = branch.state
        land: dict[str, dict[str, int]] = {}
        for area, nation, count in state.land:
            land.setdefault(area, {})[nation] = count
        branches.append({
            "when": _when(branch.choices),
            "ships": {s.name: {"at": s.at, "tokens": s.aboard, "blockading": s.blockading,
                               **({"blocked_by": s.blocked_by} if s.blocked_by else {}), "sunk": s.sunk}
                      for s in state.ships},
            "land": land,
            "removals": {area: [list(step) for step in steps] for area, steps in state.removals},
            "events": [{"kind": e.kind, "pieces": list(e.pieces), "clause": e.clause, "detail": e.detail}
                       for e in outcome.events if e.round == (number if several else 1)],
        })
    return {"branches": branches,
            "provenance": provenance_json(outcome.provenance)}


def outcome_from_json(before: Scene, data: dict[str, Any]) -> Outcome:
    names = {s.name for s in before.ships}
    areas = set(before.map.names)
    nations = {n.name for n in before.nations}
    branches, events = [], []
    several = len(data["branches"]) > 1
    for number, item in enumerate(data["branches"], 1):
        require_every_piece(item["ships"], names, who="each branch")
        ships = []
        for name in sorted(names):
            spec = item["ships"][name]
            if spec["at"] not in areas:
                raise ImplementationError(f"ship {name!r} ends in {spec['at']!r}, which is not an area of the map")
            ships.append(ShipState(name, before.ship(name).nation, spec["at"], int(spec["tokens"]),
                                   bool(spec.get("blockading", False)), spec.get("blocked_by", ""),
                                   bool(spec["sunk"])))
        land = []
        for area, counts in item["land"].items():
            for nation, count in counts.items():
                if area not in areas or nation not in nations:
                    raise ImplementationError(f"the answer puts tokens of {nation!r} in {area!r}, which the scene "
                                              "lacks")
                if count:
                    land.append((area, nation, int(count)))
        removals = tuple((area, tuple(tuple(step) for step in steps))
                         for area, steps in sorted(item["removals"].items()))
        label = tuple(sorted((kind, key, str(value)) for kind, keys in item["when"].items()
                             for key, value in keys.items()))
        state = State(tuple(ships), tuple(sorted(land)), (), removals)
        branches.append(Branch(label, state, state))
        events += [Event(e["kind"], tuple(e["pieces"]), number if several else 1,
                         label_text(label) if several else "", e.get("clause", ""), e.get("detail", ""))
                   for e in item["events"]]
    provenance = provenance_from_json(data)
    return Outcome(Result(tuple(branches)), tuple(events), provenance, reading=MappingProxyType({}))
