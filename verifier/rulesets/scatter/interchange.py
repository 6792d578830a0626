"""Scatter outcomes as JSON, both ways: the schema of what ``outcome_json`` writes,
and reading such an answer (from another implementation, over the adapter protocol)
back into an Outcome that ``compare`` checks against a case's expectation.

Two forms, told apart by whether ``probability`` is present:

- one roll: ``result``, ``landing`` (floats), ``moved``, ``clearance`` and
  ``start_clearance`` are required; ``landing_exact``, ``touching`` and ``roll``
  are optional;
- all 36 rolls: ``probability`` (an exact fraction), ``hit_rolls`` and
  ``start_clearance`` are required; ``hits`` is optional.

Floats are compared with the case's tolerance (default 0.005 inches), as for the
reference resolver; the probability and the hitting rolls exactly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ...errors import ImplementationError
from ...ruleset import Event, Outcome, OutcomePart, provenance_from_json, provenance_json
from .exact import PlanePoint, QSqrt3, fraction_text, number
from .model import ROLLS, Landing, Odds, Roll, Shot

PIECES = ("template", "target")

OUTCOME_PARTS = (
    OutcomePart("hit", "whether the template covers the base (one roll), or the chance of a hit (all rolls)",
                ("result", "touching", "probability", "hits"), required=True),
    OutcomePart("landing", "where the template lands, how far it moved, and the gaps before and after deviating",
                ("landing", "landing_exact", "moved", "clearance", "start_clearance")),
    OutcomePart("rolls", "all rolls: which of the 36 rolls hit", ("hit_rolls",)),
)

_NUMBER = {"type": "number"}
_DICE = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 2, "maxItems": 2,
         "description": "[distance die, direction die]"}
_EXACT = {"type": "string", "minLength": 1,
          "description": "an exact number a + b·√3 with a and b rational, such as \"-5/2\", \"√3\" or "
                         "\"-1/2 + 3/2·√3\" ('*' for '·' and 'sqrt(3)' for '√3' also do)"}

OUTCOME_SCHEMA = {
    "type": "object",
    "description": "A scatter outcome. For one roll: result, landing, moved, clearance and start_clearance. "
                   "For 'all' 36 rolls: probability, hit_rolls and start_clearance. Lengths are inches; "
                   "coordinates are from the target's centre, x to the attacker's right, y away from the "
                   "attacker. Fields not named here are allowed and ignored.",
    "properties": {
        "result": {"enum": ["hit", "miss"], "description": "one roll: whether the template covers the base"},
        "landing": {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2,
                    "description": "one roll: [x, y] of the template's centre after deviating; compared within "
                                   "the case's tolerance (default 0.005 in)"},
        "landing_exact": {"type": "array", "items": _EXACT, "minItems": 2, "maxItems": 2,
                          "description": "optional: the same point exactly; it must agree with 'landing' to "
                                         "1e-6 in, and is used to draw the answer"},
        "moved": {"type": "number", "minimum": 0, "description": "one roll: inches moved (the die, capped)"},
        "clearance": {"type": "number", "description": "one roll: inches between template and base after "
                                                       "deviating: positive a gap, negative an overlap"},
        "touching": {"type": "boolean", "description": "optional: the edges meet exactly (default: clearance "
                                                       "is 0)"},
        "roll": {**_DICE, "description": "optional: the roll, echoed; used to describe and draw the answer"},
        "start_clearance": {"type": "number", "description": "the same gap before deviating, where the shot "
                                                             "put the template"},
        "probability": {"type": "string", "pattern": r"^\s*\d+\s*/\s*\d+\s*$",
                        "description": "all rolls: the exact chance of a hit, \"n/36\" or reduced (\"1/9\")"},
        "hits": {"type": "integer", "minimum": 0, "maximum": 36,
                 "description": "optional: how many of the 36 rolls hit; must agree with probability"},
        "hit_rolls": {"type": "array", "items": _DICE, "uniqueItems": True, "maxItems": 36,
                      "description": "all rolls: every roll that hits, as [distance, direction], in any order"},
        "events": {"type": "array", "description": "optional: what happened (hit, miss, capped, odds); "
                                                   "informative, not compared",
                   "items": {"type": "object", "required": ["kind"],
                             "properties": {"kind": {"type": "string"}, "clause": {"type": "string"},
                                            "detail": {"type": "string"}}}},
        "provenance": {"type": "object", "description": "optional: per piece (template, target), the clause ids "
                                                        "that decided it; shown in reports, not compared",
                       "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
    "if": {"required": ["probability"]},
    "then": {"required": ["probability", "hit_rolls", "start_clearance"]},
    "else": {"required": ["result", "landing", "moved", "clearance", "start_clearance"]},
}

# How far 'landing_exact' may stray from 'landing' (outcome_json rounds to 6 places).
EXACT_AGREEMENT = 1e-6
# A gap reported as slightly less than minus the reach (a centre distance below 0) by rounding.
_SLACK = Fraction(1, 10 ** 6)


@dataclass(frozen=True)
class ReportedSpot:
    """One roll of a reported odds answer: only whether it hit is known."""

    roll: Roll
    hit: bool
    touching: bool = False


@dataclass(frozen=True)
class ReportedOdds:
    """The chance of a hit as another implementation reports it: the fraction, the
    hitting rolls and the gap before deviating, but no landing spots."""

    probability: Fraction
    hit_rolls: tuple[Roll, ...]  # sorted
    start_clearance: float

    @property
    def hits(self) -> int:
        return int(self.probability * 36)

    def landing(self, roll: Roll) -> ReportedSpot:
        return ReportedSpot(roll, roll in self.hit_rolls)

    @property
    def landings(self) -> tuple[ReportedSpot, ...]:
        return tuple(self.landing(roll) for roll in ROLLS)


_ROOT3 = r"(?:√3|sqrt\(3\)|sqrt3)"
_RATIONAL = r"\d+(?:\.\d+)?(?:/\d+)?"
_TERM = re.compile(rf"([+-])?\s*(?:({_RATIONAL})\s*[·*]?\s*)?({_ROOT3})?\s*(?:/\s*(\d+))?\s*")


def parse_exact(text: str) -> QSqrt3:
    """"-5/2", "√3", "3/2·√3", "-1/2 + 3/2·√3" (as ``str(QSqrt3)`` writes them) to a QSqrt3.
    ValueError if the text is not of that form."""
    return _exact_of_text(text) if type(text) is str else _parsed_exact(text)


@lru_cache(maxsize=1024)
def _exact_of_text(text: str) -> QSqrt3:
    """``parse_exact`` of a string, kept: answers write the same few spots again and again."""
    return _parsed_exact(text)


def _parsed_exact(text: str) -> QSqrt3:
    rest = text.strip()
    if not rest:
        raise ValueError("empty")
    total = QSqrt3()
    first = True
    while rest:
        match = _TERM.match(rest)
        if not match or not match.group(0).strip() or (not first and not match.group(1)) \
                or not (match.group(2) or match.group(3)):
            raise ValueError(f"cannot read {text!r} as a + b·√3")
        sign, coefficient, root, divisor = match.groups()
        value = Fraction(coefficient) if coefficient else Fraction(1)
        if divisor:
            value /= int(divisor)
        if sign == "-":
            value = -value
        total = total + (QSqrt3(Fraction(0), value) if root else QSqrt3.of(value))
        rest = rest[match.end():]
        first = False
    return total


def _number(value: Any) -> Fraction:
    """``number`` of an answer's value; a float's kept (its shortest decimal is parsed, slowly)."""
    return _float_number(value) if type(value) is float else number(value)


@lru_cache(maxsize=4096)
def _float_number(value: float) -> Fraction:
    return number(value)


def _gap_to_distance(gap: float, reach: Fraction, field: str) -> Fraction:
    """A reported gap (template edge to base edge) as a centre distance, which cannot be negative."""
    distance = _number(gap) + reach
    if distance < 0:
        if distance < -_SLACK:
            raise ImplementationError(f"{field} {gap} would put the template's centre closer than 0 to the "
                                      f"base's centre (the most a gap can be below 0 is minus the template and "
                                      f"base radius, {-float(reach):.4f} in)")
        distance = Fraction(0)
    return distance


def _events(data: dict[str, Any]) -> tuple[Event, ...]:
    return tuple(Event(str(item["kind"]), PIECES, clause=str(item.get("clause", "")),
                       detail=str(item.get("detail", ""))) for item in data.get("events") or ())


def _single(shot: Shot, data: dict[str, Any]) -> Landing:
    reach = shot.reach
    if "landing" not in data:
        # The landing part is not reported: only the hit is known, so the template is drawn as
        # not moving, touching the base, half over it on a hit, or an inch clear of it on a miss.
        gap = 0.0 if data.get("touching") else -float(reach) / 2 if data["result"] == "hit" else 1.0
        data = {**data, "landing": [0.0, -float(reach) - gap], "moved": 0.0, "clearance": gap,
                "start_clearance": gap}
    x, y = data["landing"]
    if not all(math.isfinite(v) for v in (x, y, data["moved"], data["clearance"], data["start_clearance"])):
        raise ImplementationError("landing, moved and the clearances must be finite numbers")
    if "landing_exact" in data:
        try:
            exact = PlanePoint(parse_exact(data["landing_exact"][0]), parse_exact(data["landing_exact"][1]))
        except ValueError as exc:
            raise ImplementationError(f"landing_exact: {exc}") from None
        ex, ey = exact.floats()
        if abs(ex - x) > EXACT_AGREEMENT or abs(ey - y) > EXACT_AGREEMENT:
            raise ImplementationError(f"landing_exact {data['landing_exact']} is [{ex:.6f}, {ey:.6f}], which is not "
                                      f"landing {[x, y]}; the two must agree to {EXACT_AGREEMENT:g} in")
        point = exact
    else:
        point = PlanePoint(QSqrt3.of(_number(x)), QSqrt3.of(_number(y)))
    clearance = data["clearance"]
    touching = data.get("touching", clearance == 0)
    if touching and abs(clearance) > EXACT_AGREEMENT:
        raise ImplementationError(f"touching is true, but clearance is {clearance}, not 0")
    distance = reach if touching else _gap_to_distance(clearance, reach, "clearance")
    separation = _gap_to_distance(data["start_clearance"], reach, "start_clearance")
    moved = _number(data["moved"])
    roll = Roll(*data["roll"]) if "roll" in data else None
    start = PlanePoint(QSqrt3(), QSqrt3.of(-separation))
    # The cap is not part of the answer: only that the die was cut down to 'moved', if it was.
    return Landing(roll, start, point, moved, moved, distance * distance, separation * separation, reach,
                   data["result"] == "hit", bool(touching))


def _odds(shot: Shot, data: dict[str, Any]) -> ReportedOdds:
    text = data["probability"]
    top, _, bottom = text.partition("/")
    if int(bottom) == 0:
        raise ImplementationError(f"probability {text!r} divides by zero")
    probability = Fraction(int(top), int(bottom))
    if probability > 1 or (probability * 36).denominator != 1:
        raise ImplementationError(f"probability {text.strip()} is not a number of 36ths between 0 and 1: "
                                  f"a chance over two dice is some of their 36 rolls")
    rolls = tuple(sorted(Roll(d, k) for d, k in data.get("hit_rolls", ())))  # absent where not reported
    if "hit_rolls" in data and len(rolls) != probability * 36:
        raise ImplementationError(f"probability {text.strip()} is {int(probability * 36)}/36, but hit_rolls lists "
                                  f"{len(rolls)} roll{'s' if len(rolls) != 1 else ''}; the two must agree")
    if "hits" in data and data["hits"] != probability * 36:
        raise ImplementationError(f"hits {data['hits']} is not probability {text.strip()} "
                                  f"({fraction_text(probability * 36)} of 36)")
    start_clearance = data.get("start_clearance", 0.0)  # absent where the landing part is not reported
    if not math.isfinite(start_clearance):
        raise ImplementationError("start_clearance must be a finite number")
    _gap_to_distance(start_clearance, shot.reach, "start_clearance")
    return ReportedOdds(probability, rolls, float(start_clearance))


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    after = outcome.after
    data: dict[str, Any] = {"events": [{"kind": e.kind, "clause": e.clause, "detail": e.detail}
                                       for e in outcome.events],
                            "provenance": provenance_json(outcome.provenance)}
    if isinstance(after, (Odds, ReportedOdds)):
        exact = after.probability
        data.update(probability=fraction_text(exact) if exact.denominator != 1 else f"{after.hits}/36",
                    hits=after.hits,
                    hit_rolls=[[r.distance, r.direction] for r in after.hit_rolls])
    else:
        data.update(result="hit" if after.hit else "miss", landing=[round(v, 6) for v in after.point.floats()],
                    landing_exact=[str(after.point.x), str(after.point.y)], moved=float(after.moved),
                    clearance=round(after.clearance, 6), touching=after.touching)
        if after.roll is not None:
            data["roll"] = [after.roll.distance, after.roll.direction]
    data["start_clearance"] = round(after.start_clearance, 6)
    return data


def outcome_from_json(before: Shot, data: dict[str, Any]) -> Outcome:
    """``data`` has passed OUTCOME_SCHEMA."""
    after = _odds(before, data) if "probability" in data else _single(before, data)
    provenance = provenance_from_json(data)
    return Outcome(after, _events(data), MappingProxyType(provenance))
