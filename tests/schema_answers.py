"""Answers that fit a ruleset's outcome schema, made from the schema itself: every field
the schema allows may be there or not (where it is not required), every value anything
the schema allows, often near the reference's answer so that the names of the scene's
pieces come up and the reading gets past the first check. Used by the property tests of
tests/test_answers_property.py (a Hypothesis-drawn seed picks each answer)."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema

_NUMBERS = (0, 1, -1, 0.5, -0.5, 2, 3, 6, 36, 90, 180, 359.99, 360, 720, -360, 1e-9)
_FAR = (1e6, -1e6, 1e12)  # now and then: far off any table


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, list):
        return kind
    if isinstance(kind, str):
        return [kind]
    if "properties" in schema or "additionalProperties" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    return ["string", "number", "integer", "boolean", "null", "object", "array"]


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class AnswerMaker:
    def __init__(self, rng: random.Random, words: list[str]) -> None:
        self.rng = rng
        self.words = words or ["a"]
        # how far an answer strays from the reference's: now and then wildly, mostly a little
        self.wild = rng.choice((0.02, 0.05, 0.1, 0.3, 0.6))

    def stray(self) -> bool:
        return self.rng.random() < self.wild

    def make(self, schema: Any, like: Any = None, depth: int = 0) -> Any:
        rng = self.rng
        if not isinstance(schema, dict) or schema is True:
            return like if like is not None and rng.random() < 0.8 else rng.choice(self.words)
        if "if" in schema:
            branch = "then" if like is not None and jsonschema.Draft202012Validator(schema["if"]).is_valid(like) \
                else "else"
            if self.stray() and self.stray():
                branch = "else" if branch == "then" else "then"
            merged = {k: v for k, v in schema.items() if k not in ("if", "then", "else")}
            merged["required"] = sorted(set(merged.get("required", ())) | set(schema[branch].get("required", ())))
            return self.make(merged, like, depth)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            if like in schema["enum"] and not self.stray():
                return like
            return rng.choice(schema["enum"])
        types = _types(schema)
        kind = _kind_of(like) if like is not None and _kind_of(like) in types and not self.stray() else None
        if kind is None and "integer" in types and _kind_of(like) == "integer" and "number" not in types:
            kind = "integer"
        if kind is None:
            kind = rng.choice(types)
        if kind == "integer" and "number" in types and _kind_of(like) == "integer":
            kind = "integer"
        return getattr(self, f"_{kind}")(schema, like, depth)

    def _null(self, schema: dict[str, Any], like: Any, depth: int) -> None:
        return None

    def _boolean(self, schema: dict[str, Any], like: Any, depth: int) -> bool:
        if isinstance(like, bool) and not self.stray():
            return like
        return self.rng.random() < 0.5

    def _bounded(self, schema: dict[str, Any], value: float) -> float:
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum")
        if low is not None and (value < low or ("exclusiveMinimum" in schema and value <= low)):
            value = low + (1 if "exclusiveMinimum" in schema else 0) * (abs(value - low) + 0.5)
        if high is not None and value > high:
            value = high
        return value

    def _number(self, schema: dict[str, Any], like: Any, depth: int) -> float:
        rng = self.rng
        roll = rng.random()
        if isinstance(like, (int, float)) and not isinstance(like, bool) and not self.stray():
            value = float(like) + (0 if roll < 0.7 else rng.choice((0.001, -0.001, 0.5, -3, 10)))
        else:
            value = float(rng.choice(_FAR if rng.random() < 0.02 else _NUMBERS)) * rng.choice((1, -1))
        return float(self._bounded(schema, value))

    def _integer(self, schema: dict[str, Any], like: Any, depth: int) -> int:
        rng = self.rng
        if isinstance(like, int) and not isinstance(like, bool) and not self.stray():
            value = like + rng.choice((0, 0, 0, 0, 1, -1))
        else:
            value = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 36, 99, 10 ** 9, -1, -5))
        return int(self._bounded(schema, value))

    def _string(self, schema: dict[str, Any], like: Any, depth: int) -> str:
        rng = self.rng
        if "pattern" in schema:  # the one pattern of an outcome schema: a fraction
            return f"{rng.randint(0, 40)}/{rng.choice((36, 36, 9, 4, 1, 2, 72))}"
        if isinstance(like, str) and not self.stray():
            return like
        odd = ["", "x", "r1 move.1b", "reading bump=class-first", "√3", "1/2 + 3/2·√3"]
        text = rng.choice(odd) if rng.random() < 0.15 else rng.choice(self.words)
        return text if len(text) >= schema.get("minLength", 0) else text + "x" * schema["minLength"]

    def _array(self, schema: dict[str, Any], like: Any, depth: int) -> list[Any]:
        rng = self.rng
        items = schema.get("items", {})
        low, high = schema.get("minItems", 0), schema.get("maxItems", 4 if depth else 6)
        likes = like if isinstance(like, list) else []
        if likes and not self.stray():
            count = min(max(len(likes) + (rng.choice((1, -1)) if self.stray() else 0), low), max(high, low))
        else:
            count = rng.randint(low, max(low, min(high, 4)))
        out = []
        seen = set()
        for i in range(count * 3):
            if len(out) == count:
                break
            base = likes[i] if i < len(likes) else (rng.choice(likes) if likes else None)
            value = self.make(items, base, depth + 1)
            key = json.dumps(value, sort_keys=True)
            if schema.get("uniqueItems") and key in seen:
                continue
            seen.add(key)
            out.append(value)
        return out

    def _object(self, schema: dict[str, Any], like: Any, depth: int) -> dict[str, Any]:
        rng = self.rng
        likes = like if isinstance(like, dict) else {}
        named = schema.get("properties", {})
        required = set(schema.get("required", ()))
        out: dict[str, Any] = {}
        for key, sub in named.items():
            if key in required or (key in likes and not self.stray()) or (key not in likes and self.stray()):
                out[key] = self.make(sub, likes.get(key), depth + 1)
        other = schema.get("additionalProperties")
        if isinstance(other, dict):
            keys = [k for k in likes if k not in named]
            if keys and self.stray() and self.stray():
                keys.remove(rng.choice(keys))
            if (self.stray() and self.stray()) or not keys:
                keys.append(rng.choice(self.words))
            for key in keys:
                if key not in named:
                    out[key] = self.make(other, likes.get(key), depth + 1)
        elif other is not False and self.stray():
            out["extra"] = rng.choice(self.words)  # fields not named are allowed and ignored
        return out


def words_of(data: Any) -> list[str]:
    """The names of a request's pieces, areas and players: the keys of its mappings of
    records (``ships: {a: {...}}``), and the texts inside its records."""
    found: set[str] = set()

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, dict):
            if depth and value and all(isinstance(v, dict) for v in value.values()):
                found.update(str(k) for k in value)
            for item in value.values():
                if isinstance(item, str) and depth:
                    found.add(item)
                walk(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    found.add(item)
                walk(item, depth + 1)
    walk(data, 0)
    return sorted(found)


def schema_answer(schema: dict[str, Any], reference: Any, words: list[str], seed: int) -> Any:
    """One answer made from ``schema`` (near ``reference``, with names from ``words``)."""
    return AnswerMaker(random.Random(seed), words).make(schema, reference)
