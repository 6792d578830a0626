"""YPP outcomes as JSON, both ways: the schema of what ``outcome_json`` writes, and
reading such an answer (from another implementation, over the adapter protocol)
back into an Outcome that ``compare`` checks against a case's expectation."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError, did_you_mean
from ...ruleset import Event, Outcome, provenance_from_json
from .model import Heading, Scene
from .parse import EVENT_KINDS

_TILE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
         "description": "[x, y]: x counts east from 0, y counts south from 0 (may be off the board)"}

OUTCOME_SCHEMA = {
    "type": "object",
    "description": "A YPP outcome: where every ship ends, and what happened. Fields not named here are "
                   "allowed and ignored.",
    "required": ["ships", "events"],
    "properties": {
        "ships": {
            "type": "object",
            "description": "every ship of the scene (moved or not): where it ends and where it faces",
            "additionalProperties": {
                "type": "object", "required": ["at", "heading"],
                "properties": {"at": _TILE, "heading": {"enum": [h.name for h in Heading]}},
            },
        },
        "events": {
            "type": "array",
            "description": "collisions, bumps, pushes, rocks and edges, in any order. Bump and push name "
                           "the mover first; collision names the two ships in any order.",
            "items": {
                "type": "object", "required": ["kind", "ships"],
                "properties": {
                    "kind": {"enum": list(EVENT_KINDS)},
                    "ships": {"type": "array", "items": {"type": "string", "minLength": 1},
                              "minItems": 1, "maxItems": 2},
                    "round": {"type": "integer", "minimum": 1, "maximum": 4, "default": 1},
                    "phase": {"enum": ["move", "wind"], "description": "informative; not compared"},
                    "clause": {"type": "string", "description": "informative; not compared"},
                    "damage": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0},
                               "description": "optional: ram damage each ship of a collision or bump takes"},
                },
            },
        },
        "damage": {
            "type": "object",
            "additionalProperties": {"type": "number", "minimum": 0},
            "description": "optional and informative: total ram damage per ship over the turn, the sum of "
                           "the events' damage (which is what a case's expected damage is compared with)",
        },
        "provenance": {
            "type": "object",
            "description": "optional: for each ship, the clause ids that decided its fate (shown in reports, "
                           "not compared)",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
}


def outcome_from_json(before: Scene, data: dict[str, Any]) -> Outcome:
    """``data`` has passed OUTCOME_SCHEMA. Every ship of ``before`` must be listed once."""
    known = before.by_name
    ships = data["ships"]
    for name in ships:
        if name not in known:
            raise ImplementationError(f"the outcome lists ship {name!r}, which is not in the scene; "
                                      f"{did_you_mean(name, list(known))}")
    missing = [name for name in known if name not in ships]
    if missing:
        raise ImplementationError("the outcome does not say where " + ", ".join(repr(n) for n in missing)
                                  + " end" + ("s" if len(missing) == 1 else "")
                                  + "; list every ship, moved or not")
    after = Scene(before.board, tuple(known[name].moved((spec["at"][0], spec["at"][1]), Heading[spec["heading"]])
                                      for name, spec in sorted(ships.items())))
    events = []
    for i, item in enumerate(data["events"]):
        kind, names = item["kind"], tuple(item["ships"])
        if len(names) != EVENT_KINDS[kind]:
            raise ImplementationError(f"events[{i}]: a {kind} event names {EVENT_KINDS[kind]} ship"
                                      f"{'s' if EVENT_KINDS[kind] > 1 else ''}, not {len(names)}")
        for name in names:
            if name not in known:
                raise ImplementationError(f"events[{i}] names ship {name!r}, which is not in the scene; "
                                          f"{did_you_mean(name, list(known))}")
        damage = tuple(sorted((str(n), float(d)) for n, d in (item.get("damage") or {}).items()))
        for name, _ in damage:
            if name not in known:
                raise ImplementationError(f"events[{i}].damage names ship {name!r}, which is not in the scene; "
                                          f"{did_you_mean(name, list(known))}")
        events.append(Event(kind, names, item.get("round", 1), item.get("phase", "move"), item.get("clause", ""),
                            damage=damage))
    provenance = provenance_from_json(data)
    return Outcome(after, tuple(events), MappingProxyType(provenance))
