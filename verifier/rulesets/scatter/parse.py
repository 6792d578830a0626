"""The scatter parts of a case file: JSON Schemas, and parsing into value types with
precise errors for shots that cannot exist.

Lengths may be written as numbers (2.5) or as exact fractions in quotes ("785/254");
both are read exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...errors import SceneError
from ...kept import KeptByData
from ...ruleset import Outcome
from ...source import Located
from .exact import number
from .model import (
    ALL_ROLLS,
    AOE_SIZES,
    BASE_SIZES,
    DIE_FACES,
    SEED_DEFAULT_MAX,
    Actions,
    AllRolls,
    Landing,
    Odds,
    Roll,
    Shot,
)

MAX_INCHES = 144  # twelve feet: longer than any gaming table

_LENGTH = {
    "anyOf": [{"type": "number"},
              {"type": "string", "pattern": r"^\s*-?\d+(\.\d+)?(\s*/\s*\d+)?\s*$"}],
    "description": "inches: a number, or an exact fraction in quotes such as \"785/254\"",
}
_RESULT = {"enum": ["hit", "miss"]}
_FRACTION = {"type": "string", "pattern": r"^\s*\d+\s*/\s*\d+\s*$",
             "description": "an exact fraction such as \"4/36\""}
_DICE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
         "description": "[distance die, direction die]"}

BEFORE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["aoe", "base", "aim"],
    "properties": {
        "aoe": {"type": "number", "description": "template diameter in inches: 3, 4 or 5"},
        "base": {"type": "number", "description": "target base diameter in mm: 30, 40, 50 or 120"},
        "aim": {
            "type": "object",
            "additionalProperties": False,
            "required": ["from_attacker"],
            "properties": {
                "from_attacker": {**_LENGTH, "description": "inches from the attacker to where deviation "
                                                            "starts: the target's distance for a target in "
                                                            "range, the weapon's range for a shot that falls "
                                                            "short"},
                "short": {**_LENGTH, "description": "inches the shot fell short of the target; leave out for "
                                                    "a target in range. What it is measured to is the "
                                                    "'distance' reading"},
                "plus_base_radius": {"type": "boolean",
                                     "description": "the short distance is this figure plus the target's "
                                                    "base radius, as the blog post's tests write it"},
            },
        },
        "max_deviation": {**_LENGTH, "description": "the most the template may move under the "
                                                    "'cap: seed-max' reading (the blog post's max; default 6)"},
    },
}

ACTIONS_SCHEMA = {
    "description": "one roll of the deviation dice, or 'all' for every one of the 36 rolls",
    "anyOf": [
        {"const": "all"},
        {"type": "object", "additionalProperties": False, "required": ["distance", "direction"],
         "properties": {"distance": {"type": "integer", "description": "the distance die, 1 to 6"},
                        "direction": {"type": "integer", "description": "the direction die, 1 to 6"}}},
    ],
}

EXPECT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "result": {**_RESULT, "description": "hit or miss after the roll (one roll only)"},
        "landing": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
                    "description": "[x, y] of the template's centre after deviating, inches from the "
                                   "target's centre: x to the attacker's right, y away from the attacker"},
        "moved": {**_LENGTH, "description": "inches the template moved (the die, capped)"},
        "clearance": {"type": "number", "description": "inches between template and base after deviating: "
                                                       "positive a gap, negative an overlap"},
        "start_clearance": {"type": "number", "description": "the same before deviating"},
        "probability": {**_FRACTION, "description": "the exact chance of a hit over all 36 rolls ('all' "
                                                    "only), such as \"4/36\""},
        "hit_rolls": {"type": "array", "items": _DICE, "uniqueItems": True,
                      "description": "exactly the rolls that hit ('all' only)"},
        "tolerance": {"type": "number", "exclusiveMinimum": 0,
                      "description": "for landing, moved and the clearances (default 0.005 inches)"},
        "seed": {
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "description": "what the seed itself states about this example. Not checked by 'verifier "
                           "check'; 'verifier explore' reports under which readings each statement holds",
            "properties": {
                "assertion": {**_RESULT, "description": "what the test's code asserts"},
                "comment": {**_RESULT, "description": "what the test's comment says"},
                "diagram": {**_RESULT, "description": "what the seed's diagram shows"},
                "printed": {"type": "string", "description": "a probability as the seed prints it, such as "
                                                             "\"0.1111111\""},
                "claim": {**_FRACTION, "description": "a probability the prose states for this geometry"},
                "start": {**_RESULT, "description": "what the prose says of the template before it deviates"},
                "start_clearance": {"type": "number",
                                    "description": "the gap before deviating as the prose gives it, to its "
                                                   "printed precision"},
            },
        },
    },
}

DEFAULT_TOLERANCE = Fraction(1, 200)


@dataclass(frozen=True)
class SeedRecord:
    """What the seed states about one example; each field is None where it says nothing."""

    assertion: str | None = None
    comment: str | None = None
    diagram: str | None = None
    printed: str | None = None
    claim: Fraction | None = None
    claim_text: str | None = None
    start: str | None = None
    start_clearance: Fraction | None = None
    start_clearance_text: str | None = None

    @property
    def start_clearance_tolerance(self) -> Fraction:
        """Half a unit in the last digit the seed printed (0.02 -> 0.005)."""
        text = self.start_clearance_text or ""
        places = len(text.split(".", 1)[1]) if "." in text else 0
        return Fraction(1, 2 * 10 ** places)


@dataclass(frozen=True)
class Expectation:
    result: str | None = None
    landing: tuple[Fraction, Fraction] | None = None
    moved: Fraction | None = None
    clearance: Fraction | None = None
    start_clearance: Fraction | None = None
    probability: Fraction | None = None
    probability_text: str | None = None
    hit_rolls: tuple[Roll, ...] | None = None
    tolerance: Fraction = DEFAULT_TOLERANCE
    seed: SeedRecord | None = None



def _length(doc: Located, path: tuple, value: Any, what: str, *, zero_ok: bool = False) -> Fraction:
    try:
        result = number(value)
    except (ValueError, ZeroDivisionError):
        raise doc.error(path, f"{what}: {value!r} is not a number of inches", SceneError) from None
    if result < 0:
        raise doc.error(path, f"{what} cannot be negative, got {value}", SceneError)
    if result == 0 and not zero_ok:
        raise doc.error(path, f"{what} must be more than 0", SceneError)
    if result > MAX_INCHES:
        raise doc.error(path, f"{what} is {float(result):g} inches; a table is at most {MAX_INCHES} inches across, "
                              "so no shot reaches that far", SceneError)
    return result


def _die(doc: Located, path: tuple, value: int, which: str) -> int:
    if value not in DIE_FACES:
        raise doc.error(path, f"the {which} die shows 1 to 6, not {value}", SceneError)
    return value


# Fuzz reads each shot it sends more than once (the request, the expectation it restates).
_PARSED: KeptByData[Shot] = KeptByData(512)


def parse_before(doc: Located, path: tuple) -> Shot:
    """The shot at ``path``; one read before from the same data is given again (with what it
    has worked out already: its hash, its reach)."""
    return _PARSED.get(doc.at(path), lambda: _parse_before(doc, path))


def forget_shots() -> None:
    _PARSED.clear()


def _parse_before(doc: Located, path: tuple) -> Shot:
    data = doc.at(path)
    aoe = data["aoe"]
    if aoe not in AOE_SIZES or isinstance(aoe, bool):
        raise doc.error(path + ("aoe",), f"there is no {aoe}-inch AOE template; templates are 3, 4 or 5 inches "
                                         "across", SceneError)
    base = data["base"]
    if base not in BASE_SIZES or isinstance(base, bool):
        raise doc.error(path + ("base",), f"there is no {base} mm base; bases are 30, 40, 50 or 120 mm across",
                        SceneError)
    aim = data["aim"]
    apath = path + ("aim",)
    from_attacker = _length(doc, apath + ("from_attacker",), aim["from_attacker"],
                            "the distance from the attacker (from_attacker)")
    short = None
    if "short" in aim:
        short = _length(doc, apath + ("short",), aim["short"], "the short distance (leave 'short' out for a "
                                                               "target in range)")
    plus = aim.get("plus_base_radius", False)
    if plus and short is None:
        raise doc.error(apath + ("plus_base_radius",), "plus_base_radius adds the base radius to a short "
                                                       "distance, but this shot has no 'short'", SceneError)
    maximum = SEED_DEFAULT_MAX
    if "max_deviation" in data:
        maximum = _length(doc, path + ("max_deviation",), data["max_deviation"], "max_deviation")
    return Shot(int(aoe), int(base), from_attacker, short, bool(plus), maximum)


def parse_actions(doc: Located, path: tuple) -> Actions:
    data = doc.at(path)
    if data == "all":
        return ALL_ROLLS
    return Roll(_die(doc, path + ("distance",), data["distance"], "distance"),
                _die(doc, path + ("direction",), data["direction"], "direction"))


def _probability(doc: Located, path: tuple, text: str) -> Fraction:
    top, _, bottom = text.partition("/")
    if int(bottom) == 0:
        raise doc.error(path, f"{text!r} divides by zero", SceneError)
    value = Fraction(int(top), int(bottom))
    if value > 1:
        raise doc.error(path, f"a probability is at most 1, and {text.strip()} is more", SceneError)
    if (value * 36).denominator != 1:
        raise doc.error(path, f"{text.strip()} is no share of the 36 rolls; a chance over two dice is "
                              f"some number of 36ths", SceneError)
    return value


def _seed_record(doc: Located, path: tuple, data: dict) -> SeedRecord:
    claim = _probability(doc, path + ("claim",), data["claim"]) if "claim" in data else None
    gap = data.get("start_clearance")
    return SeedRecord(
        assertion=data.get("assertion"), comment=data.get("comment"), diagram=data.get("diagram"),
        printed=data.get("printed"), claim=claim, claim_text=data["claim"].strip() if "claim" in data else None,
        start=data.get("start"), start_clearance=number(gap) if gap is not None else None,
        start_clearance_text=repr(gap) if isinstance(gap, float) else (str(gap) if gap is not None else None))


def parse_expect(doc: Located, path: tuple, shot: Shot, actions: Actions) -> Expectation:
    data = doc.at(path)
    every = actions is ALL_ROLLS
    for key in ("result", "landing", "moved", "clearance"):
        if key in data and every:
            raise doc.error(path + (key,), f"'{key}' describes one roll, but the actions are 'all'; expect a "
                                           f"probability or hit_rolls instead", SceneError)
    for key in ("probability", "hit_rolls"):
        if key in data and not every:
            raise doc.error(path + (key,), f"'{key}' needs every roll: set the actions to 'all'", SceneError)
    if not (data.keys() - {"seed", "tolerance"}):
        raise doc.error(path, "expect nothing checkable: give result, landing, moved, clearance, "
                              "start_clearance, probability or hit_rolls", SceneError)
    hit_rolls = None
    if "hit_rolls" in data:
        rolls = []
        for i, (distance, direction) in enumerate(data["hit_rolls"]):
            where = path + ("hit_rolls", i)
            rolls.append(Roll(_die(doc, where + (0,), distance, "distance"),
                              _die(doc, where + (1,), direction, "direction")))
        hit_rolls = tuple(sorted(rolls))
    probability = _probability(doc, path + ("probability",), data["probability"]) if "probability" in data else None
    if probability is not None and hit_rolls is not None and probability != Fraction(len(hit_rolls), 36):
        raise doc.error(path + ("hit_rolls",), f"{len(hit_rolls)} hitting rolls make {len(hit_rolls)}/36, not "
                                               f"{data['probability'].strip()}", SceneError)
    landing = (number(data["landing"][0]), number(data["landing"][1])) if "landing" in data else None  # [x, y]
    seed = _seed_record(doc, path + ("seed",), data["seed"]) if "seed" in data else None
    return Expectation(
        result=data.get("result"), landing=landing,
        moved=_length(doc, path + ("moved",), data["moved"], "moved", zero_ok=True) if "moved" in data else None,
        clearance=number(data["clearance"]) if "clearance" in data else None,
        start_clearance=number(data["start_clearance"]) if "start_clearance" in data else None,
        probability=probability, probability_text=data["probability"].strip() if "probability" in data else None,
        hit_rolls=hit_rolls, tolerance=number(data.get("tolerance", DEFAULT_TOLERANCE)), seed=seed)


# --- the writer: scenes and outcomes as case data (Capability.FINDINGS) --------------------


def reference_roll(landing: Landing) -> Roll:
    """The roll of a landing the reference resolver made (only one read from JSON may lack it)."""
    roll = landing.roll
    assert roll is not None
    return roll


@lru_cache(maxsize=1024, typed=True)
def length_data(value: Fraction) -> Any:
    """A length as a case file writes it: 3, 2.5, or "785/254" where no short decimal is exact.
    Kept: every scene fuzz sends is written out, most with lengths written before."""
    if value.denominator == 1:
        return int(value)
    as_float = float(value)
    if Fraction(repr(as_float)) == value and len(repr(as_float)) <= 8:
        return as_float
    return f"{value.numerator}/{value.denominator}"


def case_data(shot: Shot, actions: Actions) -> tuple[dict, Any]:
    aim: dict[str, Any] = {"from_attacker": length_data(shot.from_attacker)}
    if shot.short is not None:
        aim["short"] = length_data(shot.short)
        if shot.short_plus_base_radius:
            aim["plus_base_radius"] = True
    before: dict[str, Any] = {"aoe": shot.aoe, "base": shot.base, "aim": aim}
    if shot.max_deviation != SEED_DEFAULT_MAX:
        before["max_deviation"] = length_data(shot.max_deviation)
    if isinstance(actions, AllRolls):
        return before, "all"
    return before, {"distance": actions.distance, "direction": actions.direction}


def expect_data(shot: Shot, outcome: Outcome) -> dict:
    after = outcome.after
    if isinstance(after, Odds):
        return {"probability": f"{after.hits}/36",
                "hit_rolls": [[reference_roll(r).distance, reference_roll(r).direction]
                              for r in after.landings if r.hit]}
    x, y = after.point.floats()
    return {"result": "hit" if after.hit else "miss", "landing": [round(x, 4), round(y, 4)],
            "moved": length_data(after.moved), "clearance": round(after.clearance, 4)}
