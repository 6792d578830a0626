"""The adapter protocol's answer for civ (Capability.INTERCHANGE): one entry per branch,
with the decisions it took, every ship, the tokens on land, the removals in order and
the events."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError
from ...kept import KeptFor
from ...kit.interchange import require_distinct, require_every_piece
from ...ruleset import Event, Outcome, OutcomePart, provenance_from_json, provenance_json
from .model import Branch, Result, Scene, ShipState, State, label_text

_NAME = {"type": "string"}

# Each part's fields as the answer carries them (in every branch) and as a case expects them
# (at the top, or in every branch).
OUTCOME_PARTS = (
    OutcomePart("ships", "where every ship ends, the tokens aboard, blockades and sinkings",
                ("branches.*.ships", "ships"), required=True),
    OutcomePart("land", "every nation's tokens in each land area at the end, landings included",
                ("branches.*.land", "land")),
    OutcomePart("removals", "each conflict's removals in order, the pieces removed together as one step",
                ("branches.*.removals", "removals")),
    OutcomePart("events", "conflicts, landings, blockades, sinkings and the like", ("branches.*.events", "events")),
)
OUTCOME_SCHEMA = {
    "type": "object", "required": ["branches"],
    "properties": {
        "branches": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["when", "ships", "land", "removals", "events"],
            "properties": {
                "when": {"type": "object", "description": "decision kind -> key -> the answer this branch takes: "
                                                          "conflict and prevent by area, block by ship",
                         "additionalProperties": False,
                         "properties": {kind: {"type": "object", "additionalProperties": _NAME}
                                        for kind in ("conflict", "prevent", "block")}},
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


def _label(branch: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    return tuple(sorted((kind, key, str(value)) for kind, keys in branch["when"].items()
                        for key, value in keys.items()))


class _Names:
    """What an answer about a scene may name, worked out once per scene: fuzz reads several
    answers about one scene."""

    __slots__ = ("ships", "in_order", "nation_of", "areas", "nations", "pieces")

    def __init__(self, before: Scene) -> None:
        self.ships = {s.name for s in before.ships}
        self.in_order = sorted(self.ships)
        self.nation_of = {name: before.ship(name).nation for name in self.in_order}
        self.areas = set(before.map.names)
        self.nations = {n.name for n in before.nations}
        self.pieces = self.ships | {f"{n} token" for n in self.nations} | {f"{n} advantage" for n in self.nations}


_NAMES: KeptFor[_Names] = KeptFor(64)


def outcome_from_json(before: Scene, data: dict[str, Any]) -> Outcome:
    named = _NAMES.get(before, lambda: _Names(before))
    names, areas, nations = named.ships, named.areas, named.nations
    branches, events = [], []
    several = len(data["branches"]) > 1
    labels = [_label(item) for item in data["branches"]]
    require_distinct((label_text(label) or "no decisions" for label in labels), what="branches", field="branches")
    for number, item in enumerate(data["branches"], 1):
        require_every_piece(item["ships"], names, who="each branch")
        ships = []
        given = item["ships"]
        for name in named.in_order:
            spec = given[name]
            if spec["at"] not in areas:
                raise ImplementationError(f"ship {name!r} ends in {spec['at']!r}, which is not an area of the map")
            blocker = spec.get("blocked_by", "")
            if blocker and spec["blocked_by"] not in names:
                raise ImplementationError(f"ship {name!r} is blocked by {spec['blocked_by']!r}, which is not a ship of "
                                          "the scene")
            ships.append(ShipState(name, named.nation_of[name], spec["at"], int(spec["tokens"]),
                                   bool(spec.get("blockading", False)), blocker, bool(spec["sunk"])))
        land = []
        for area, counts in item.get("land", {}).items():  # absent where land is not reported
            for nation, count in counts.items():
                if area not in areas or nation not in nations:
                    raise ImplementationError(f"the answer puts tokens of {nation!r} in {area!r}, which the scene "
                                              "lacks")
                if count:
                    land.append((area, nation, int(count)))
        pieces = named.pieces
        for area, steps in item.get("removals", {}).items():
            for step in steps:
                for entry in step:
                    if area not in areas or entry not in pieces:
                        raise ImplementationError(
                            f"the answer removes {entry!r} in {area!r}: a removal is of a ship, a '<nation> token' or "
                            "a '<nation> advantage' of the scene, in an area of the map")
        removals = tuple((area, tuple(tuple(step) for step in steps))
                         for area, steps in sorted(item.get("removals", {}).items()))
        for kind, keys in item["when"].items():
            known = {"conflict": areas, "prevent": areas, "block": names}.get(kind)
            if known is None or not set(keys) <= known:
                raise ImplementationError(f"the answer's branch takes a decision {kind} {sorted(keys)} that the scene "
                                          "does not have: 'when' holds conflict and prevent by area, block by ship")
        label = labels[number - 1]
        state = State(tuple(ships), tuple(sorted(land)), (), removals)
        branches.append(Branch(label, state, state))
        round_, phase = (number, label_text(label)) if several else (1, "")
        events += [Event(e["kind"], tuple(e["pieces"]), round_, phase, e.get("clause", ""), e.get("detail", ""))
                   for e in item.get("events", ())]
    provenance = provenance_from_json(data)
    return Outcome(Result(tuple(branches)), tuple(events), provenance, reading=MappingProxyType({}))
