"""Toy implementations of every ruleset (python:conformance_toys:<ruleset>_<kind>), each
the reference resolver behind a hello that declares something, for the conformance
tests of tests/test_adapter_parts.py:

- ``<key>_subset`` reports only the part every answer has (the positions, or the hit);
- ``<key>_lacking`` lacks one optional rule or variant, and refuses cases that need it;
- ``<key>_reading`` follows another option at a reading point that decides a part it
  does not report, and does not report that part.

Each answer leaves out the fields of the parts the toy does not report. With
VERIFIER_TOY_PLAIN=1 the hello declares nothing (as an adapter written before hellos
could declare parts and features would), to measure what an implementation saw then.
"""

import os

from verifier import registry
from verifier.adapters.reference import handle as reference

# The answer's fields of each part, as the protocol documents them (docs/protocol.md).
FIELDS = {
    "armada": {"pose": ["ships.*.at", "ships.*.heading"], "speed": ["ships.*.speed", "moves.*.speed"],
               "side": ["moves.*.side", "moves.*.switched", "moves.*.choice"], "tool": ["moves.*.tool"],
               "damage": ["ships.*.damage", "ships.*.destroyed"], "events": ["events"]},
    "armada2k": {"poses": ["ships.*.at", "ships.*.heading"], "damage": ["ships.*.damage", "ships.*.sunk"],
                 "events": ["events"], "fans": ["fans"], "winner": ["winner"]},
    "civ": {"ships": ["branches.*.ships"], "land": ["branches.*.land"], "removals": ["branches.*.removals"],
            "events": ["branches.*.events"]},
    "scatter": {"hit": ["result", "touching", "probability", "hits"],
                "landing": ["landing", "landing_exact", "moved", "clearance", "start_clearance"],
                "rolls": ["hit_rolls"]},
    "ypp": {"ships": ["ships"], "events": ["events"], "damage": ["damage"], "states": ["states"]},
}
SUBSET = {"armada": ["pose"], "armada2k": ["poses"], "civ": ["ships"], "scatter": ["hit"], "ypp": ["ships"]}
FEATURES = {"armada": ["squadrons", "obstacles", "own-tool"],
            "armada2k": ["obstructed", "point-purchase", "stashes", "capture-the-flag", "rear-cannon"],
            "civ": ["option-A", "option-B"]}
LACKING = {"armada": "squadrons", "armada2k": "rear-cannon", "civ": "option-A"}
READING = {
    "armada": ({"closest-tie": "second-measured"}, ["pose", "speed", "side", "tool"]),
    "armada2k": ({"target": "whole"}, ["poses", "fans", "winner"]),
    "civ": ({"metalworking": "replaced"}, ["ships", "land", "events"]),
    "scatter": ({"side": "counterclockwise"}, ["hit", "rolls"]),
    "ypp": ({"ram_unit": "medium"}, ["ships", "events"]),
}


def _toy(message, key, reports=None, follows=None, lacks=None):
    plain = os.environ.get("VERIFIER_TOY_PLAIN") == "1"
    if isinstance(message, dict) and message.get("type") == "hello":
        declared = {}
        if reports is not None:
            declared["reports"] = reports
        if follows is not None:  # the other points as the request names them
            points = [p.name for p in registry.get(key).reading_points]
            declared["follows"] = {**{p: "as-requested" for p in points}, **follows}
        if lacks is not None:
            declared["supports"] = [f for f in FEATURES[key] if f != lacks]
        answer = {**reference(message), "implementation": {"name": f"toy: {key}"}, "rulesets": [key]}
        return answer if plain or not declared else {**answer, "capabilities": {key: declared}}
    if isinstance(message, dict) and message.get("type") == "case":
        if lacks is not None and _needs(key, message["before"], lacks):
            return {"type": "skipped", "id": message["id"], "reason": f"no {lacks} here"}
        request = {**message, "readings": {**message.get("readings", {}), **(follows or {})}}
        answer = reference(request)
        if answer.get("type") == "outcome" and reports is not None:
            outcome = answer["outcome"]
            for part, fields in FIELDS[key].items():
                if part not in reports:
                    for field in fields:
                        outcome = _without(outcome, field.split("."))
            answer = {**answer, "outcome": outcome}
        return answer
    return reference(message)


def _needs(key, before, feature):
    """Whether the request's scene plays ``feature``, read from the request as the protocol documents it."""
    if key == "civ":
        return feature.removeprefix("option-") in before.get("options", [])
    if key == "armada":
        return bool(before.get(feature))
    return bool((before.get("variants") or {}).get(feature))


def _without(data, steps):
    head, rest = steps[0], steps[1:]
    if isinstance(data, dict):
        if not rest:
            return {k: v for k, v in data.items() if head not in ("*", k)}
        return {k: _without(v, rest) if head in ("*", k) else v for k, v in data.items()}
    if isinstance(data, list) and head == "*":
        return [_without(v, rest) for v in data]
    return data


def _make(key, kind):
    if kind == "subset":
        return lambda message: _toy(message, key, reports=SUBSET[key])
    if kind == "lacking":
        return lambda message: _toy(message, key, lacks=LACKING[key])
    follows, reports = READING[key]
    return lambda message: _toy(message, key, reports=reports, follows=follows)


for _key in SUBSET:
    for _kind in ("subset", "lacking", "reading"):
        if _kind != "lacking" or _key in LACKING:
            globals()[f"{_key}_{_kind}"] = _make(_key, _kind)
