"""YPP outcomes as JSON, both ways: the schema of what ``outcome_json`` writes, and
reading such an answer (from another implementation, over the adapter protocol)
back into an Outcome that ``compare`` checks against a case's expectation."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError, did_you_mean
from ...ruleset import Event, Outcome, OutcomePart, provenance_from_json, provenance_json
from .model import Heading, Scene, Ship
from .parse import EVENT_KINDS

# A heading's name, and the heading of a name, without Enum's descriptor and metaclass (an
# answer names one per ship and state).
_HEADING_NAME = {h: h.name for h in Heading}
_HEADING_OF = {h.name: h for h in Heading}

_TILE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
         "description": "[x, y]: x counts east from 0, y counts south from 0 (may be off the board)"}

_SHIPS = {
    "type": "object",
    "description": "every ship of the scene (moved or not): where it ends and where it faces",
    "additionalProperties": {
        "type": "object", "required": ["at", "heading"],
        "properties": {"at": _TILE, "heading": {"enum": [h.name for h in Heading]}},
    },
}

OUTCOME_PARTS = (
    OutcomePart("ships", "where every ship ends and where it faces", ("ships",), required=True),
    OutcomePart("events", "collisions, bumps, pushes, rocks and edges", ("events",)),
    OutcomePart("damage", "ram damage: each collision's and bump's on its event, and the totals per ship",
                ("damage",), optional=True, needs=("events",)),
)

OUTCOME_SCHEMA = {
    "type": "object",
    "description": "A YPP outcome: where every ship ends, and what happened. Fields not named here are "
                   "allowed and ignored.",
    "required": ["ships", "events"],
    "properties": {
        "ships": _SHIPS,
        "events": {
            "type": "array",
            "description": "collisions, bumps, pushes, rocks and edges, in any order. Bump and push name "
                           "the mover first; collision names the two ships in any order.",
            "items": {
                "type": "object", "required": ["kind", "ships"],
                "properties": {
                    "kind": {"enum": list(EVENT_KINDS)},
                    "ships": {"type": "array", "items": {"type": "string", "minLength": 1},
                              "minItems": 1, "maxItems": 2,
                              "description": "two for a collision, bump or push; one for a rock or an edge"},
                    "round": {"type": "integer", "minimum": 1, "maximum": 4, "default": 1},
                    "phase": {"enum": ["move", "wind"], "description": "informative; not compared"},
                    "clause": {"type": "string", "description": "informative; not compared"},
                    "damage": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0},
                               "description": "optional: ram damage each ship of a collision or bump takes"},
                },
                "allOf": [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                           "then": {"properties": {"ships": {"minItems": count, "maxItems": count}}}}
                          for kind, count in EVENT_KINDS.items()],
            },
        },
        "states": {
            "type": "array",
            "description": "optional, with the 'states' part declared: the ships after a round, a phase of a "
                           "round, or a step of a phase. Without 'phase' the entry is the end of the round; "
                           "'step' 0 (the default) is the end of the phase",
            "items": {
                "type": "object", "required": ["round", "ships"],
                "properties": {"round": {"type": "integer", "minimum": 1, "maximum": 4},
                               "phase": {"enum": ["move", "wind"]},
                               "step": {"type": "integer", "minimum": 0, "maximum": 2, "default": 0},
                               "ships": _SHIPS},
            },
        },
        "damage": {
            "type": "object",
            "additionalProperties": {"type": "number", "minimum": 0},
            "description": "optional: total ram damage per ship over the turn, which must be the sum of the "
                           "events' damage. Damage is compared (the events' sums against a case's expected "
                           "damage) only in answers that carry this field, or when the hello's reports name "
                           "'damage'",
        },
        "provenance": {
            "type": "object",
            "description": "optional: for each ship, the clause ids that decided its fate (shown in reports, "
                           "not compared)",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
}


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    events = []
    for e in outcome.events:
        item = {"kind": e.kind, "ships": list(e.pieces), "round": e.round, "phase": e.phase, "clause": e.clause}
        if e.damage:
            item["damage"] = dict(e.damage)
        events.append(item)
    return {
        "ships": {s.name: {"at": list(s.at), "heading": _HEADING_NAME[s.heading]} for s in outcome.after.ships},
        "events": events,
        "damage": dict(outcome.damage_totals()),
        "provenance": provenance_json(outcome.provenance),
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
    after = Scene(before.board, tuple([_ended(known[name], spec) for name, spec in sorted(ships.items())]))
    events = []
    for i, item in enumerate(data.get("events", ())):  # absent where the events are not reported
        kind, names = item["kind"], tuple(item["ships"])
        if len(names) != EVENT_KINDS[kind]:
            raise ImplementationError(f"events[{i}]: a {kind} event names {EVENT_KINDS[kind]} ship"
                                      f"{'s' if EVENT_KINDS[kind] > 1 else ''}, not {len(names)}")
        for name in names:
            if name not in known:
                raise ImplementationError(f"events[{i}] names ship {name!r}, which is not in the scene; "
                                          f"{did_you_mean(name, list(known))}")
        raw = item.get("damage")  # absent on edges, rocks and pushes
        damage = tuple(sorted([(str(n), float(d)) for n, d in raw.items()])) if raw else ()
        for name, _ in damage:
            if name not in known:
                raise ImplementationError(f"events[{i}].damage names ship {name!r}, which is not in the scene; "
                                          f"{did_you_mean(name, list(known))}")
        events.append(Event(kind, names, item.get("round", 1), item.get("phase", "move"), item.get("clause", ""),
                            damage=damage))
    provenance = provenance_from_json(data)
    outcome = Outcome(after, tuple(events), MappingProxyType(provenance))
    if "damage" in data:
        summed = outcome.damage_totals()
        given = {str(name): float(total) for name, total in data["damage"].items()}
        for name in sorted(set(given) | set(summed)):
            if name not in known:
                raise ImplementationError(f"damage names ship {name!r}, which is not in the scene; "
                                          f"{did_you_mean(name, list(known))}")
            if abs(given.get(name, 0.0) - summed.get(name, 0.0)) > 1e-6:
                raise ImplementationError(f"damage gives {name!r} {given.get(name, 0.0):g} in all, but its events' "
                                          f"damage sums to {summed.get(name, 0.0):g}: put each collision's and "
                                          "bump's damage on its event, and their sums in 'damage'")
    return outcome


def _ended(start: Ship, spec: Mapping[str, Any]) -> Ship:
    """The ship ``start`` where ``spec`` says it ends: ``start`` itself where that is where it
    began (in whole numbers: a schema's integer may be written 3.0, kept as given)."""
    x, y = spec["at"][0], spec["at"][1]
    heading = _HEADING_OF[spec["heading"]]
    at = start.at
    if heading is start.heading and x == at[0] and y == at[1] and type(x) is int and type(y) is int:
        return start
    return start.moved((x, y), heading)


def state_json(state: tuple[tuple[str, tuple[int, int], Heading], ...]) -> dict[str, Any]:
    """A frame's state (name, tile, heading per ship) as an answer's ``states`` entry carries it."""
    names = _HEADING_NAME
    return {"ships": {name: {"at": list(at), "heading": names[heading]} for name, at, heading in state}}


def state_from_json(data: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, int], Heading], ...]:
    """The inverse of ``state_json``."""
    return tuple(sorted((name, (spec["at"][0], spec["at"][1]), _HEADING_OF[spec["heading"]])
                        for name, spec in data["ships"].items()))
