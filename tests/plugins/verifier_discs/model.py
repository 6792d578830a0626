"""The discs value types, the JSON Schemas of a case's parts, and the parser.

Lengths are in table units, x east and y north from the table's south-west
corner; headings in compass degrees (0 north, 90 east), as the kit's geometry
measures them. Every value is immutable, so outcomes compare with ``==``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from verifier.errors import SceneError, did_you_mean
from verifier.kit.geometry import TOLERANCE, Contact
from verifier.source import Located

XY = tuple[float, float]


@dataclass(frozen=True)
class Disc:
    name: str
    at: XY
    radius: float


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    discs: tuple[Disc, ...]  # as the case lists them; the resolver never relies on this order

    def disc(self, name: str) -> Disc:
        return next(d for d in self.discs if d.name == name)


@dataclass(frozen=True)
class Slide:
    heading: float
    distance: float


Slides = tuple[tuple[str, Slide], ...]  # (disc, slide) as the case lists them


@dataclass(frozen=True)
class Expectation:
    discs: tuple[tuple[str, XY], ...]  # where listed discs end; the others stay put
    events: tuple[tuple[str, tuple[str, ...]], ...]  # (kind, discs), in the case's order


def contact(a: Disc, b: Disc) -> Contact:
    """Apart, touching or overlapping, with the kit's one tolerance. Exact for circles:
    the kit's ``circle`` is a polygon, good for drawing and indexing, not for this."""
    gap = math.dist(a.at, b.at) - a.radius - b.radius
    return Contact.APART if gap > TOLERANCE else Contact.TOUCHING if gap >= -TOLERANCE else Contact.OVERLAPPING


# --- schemas ----------------------------------------------------------------------------

_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
       "description": "[x, y]: x east, y north, from the table's south-west corner"}
EVENT_SIZES = {"block": 2, "graze": 2, "edge": 1, "clash": 2}  # kind -> how many discs it names

BEFORE_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["table", "discs"],
    "properties": {
        "table": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 2,
                  "maxItems": 2, "description": "[width, height]"},
        "discs": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["at", "radius"],
            "properties": {"at": _XY, "radius": {"type": "number", "exclusiveMinimum": 0}}}},
    },
}
ACTIONS_SCHEMA = {
    "type": "object", "description": "disc name -> its slide; discs not listed stay put",
    "additionalProperties": {
        "type": "object", "additionalProperties": False, "required": ["heading", "distance"],
        "properties": {"heading": {"type": "number", "minimum": 0, "exclusiveMaximum": 360,
                                   "description": "compass degrees: 0 north, 90 east"},
                       "distance": {"type": "number", "minimum": 0}}},
}
_EVENT = {"type": "object", "required": ["kind", "discs"],
          "properties": {"kind": {"enum": list(EVENT_SIZES)},
                         "discs": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}}}
EXPECT_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["events"],
    "properties": {
        "discs": {"type": "object", "description": "where listed discs end; discs not listed must not move",
                  "additionalProperties": {"type": "object", "additionalProperties": False, "required": ["at"],
                                           "properties": {"at": _XY}}},
        "events": {"type": "array", "items": {**_EVENT, "additionalProperties": False}},
    },
}
# Capability.INTERCHANGE: what outcome_json writes, as another implementation answers.
OUTCOME_SCHEMA = {
    "type": "object", "required": ["discs", "events"],
    "properties": {
        "discs": {"type": "object", "description": "every disc: where it ends",
                  "additionalProperties": {"type": "object", "required": ["at"], "properties": {"at": _XY}}},
        "events": {"type": "array", "items": _EVENT, "description": "other fields (the clause) are ignored"},
        "provenance": {"type": "object", "description": "disc -> causes, as Cause writes them (not compared)",
                       "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
}


# --- parsing: the schema has checked the shapes; these are the checks it cannot make ----------



def _point(value: list) -> XY:
    return (float(value[0]), float(value[1]))


def _known(doc: Located, path: tuple, name: Any, scene: Scene, what: str) -> str:
    names = [d.name for d in scene.discs]
    if name not in names:
        raise doc.error(path, f"{what} names {name!r}, which is not a disc of this scene; "
                              f"{did_you_mean(name, names)}", SceneError)
    return name


def parse_scene(doc: Located, path: tuple) -> Scene:
    data = doc.at(path)
    width, height = (float(v) for v in data["table"])
    discs: list[Disc] = []
    for name, spec in data["discs"].items():
        where = path + ("discs", name)
        if not isinstance(name, str):
            raise doc.error(where, f"disc names must be text; quote {name!r}", SceneError, key=True)
        disc = Disc(name, _point(spec["at"]), float(spec["radius"]))
        (x, y), r = disc.at, disc.radius
        if min(x - r, y - r, width - x - r, height - y - r) < -TOLERANCE:
            raise doc.error(where + ("at",), f"disc {name!r} of radius {r:g} at [{x:g}, {y:g}] does not lie wholly "
                                             f"on the {width:g} by {height:g} table", SceneError)
        for other in discs:
            if contact(disc, other) is Contact.OVERLAPPING:
                raise doc.error(where + ("at",), f"discs {other.name!r} and {name!r} overlap; discs may touch "
                                                 "but not overlap", SceneError)
        discs.append(disc)
    return Scene(width, height, tuple(discs))


def parse_slides(doc: Located, path: tuple, scene: Scene) -> Slides:
    return tuple((_known(doc, path + (name,), name, scene, "a slide"),
                  Slide(float(spec["heading"]), float(spec["distance"]))) for name, spec in doc.at(path).items())


def parse_expect(doc: Located, path: tuple, scene: Scene) -> Expectation:
    data = doc.at(path)
    discs = tuple((_known(doc, path + ("discs", name), name, scene, "the expectation"), _point(spec["at"]))
                  for name, spec in (data.get("discs") or {}).items())
    events = []
    for i, item in enumerate(data["events"]):
        kind, names = item["kind"], tuple(item["discs"])
        if len(names) != EVENT_SIZES[kind]:
            raise doc.error(path + ("events", i, "discs"), f"a {kind} event names {EVENT_SIZES[kind]} disc(s), "
                                                           f"not {len(names)}", SceneError)
        for j, name in enumerate(names):
            _known(doc, path + ("events", i, "discs", j), name, scene, "an event")
        events.append((kind, names))
    return Expectation(discs, tuple(events))
