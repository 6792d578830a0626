"""What an implementation declares in its hello, per ruleset: which parts of the
outcome it reports, which option it follows at each reading point, and which of the
ruleset's optional rules, variants and case features it supports.

    "capabilities": {"ypp": {"reports": ["ships", "states"], "follows": {"bump": "motion-first"}},
                     "civ": {"supports": ["option-B"]}}

Without ``reports`` every part is compared; without ``supports`` every feature is
supported, and with it a case that needs a feature it does not list is skipped. Without
``follows`` the implementation is taken to resolve every case under the reading its
request names (as before hellos declared anything); with it, a point it leaves out is
taken at the ruleset's default, and ``as-requested`` says that it follows the request
at that point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .. import registry
from ..errors import UnknownRulesetError, did_you_mean
from ..kept import KeptFor
from ..ruleset import Capability, OutcomePart, Ruleset

STATES = "states"  # the part every ruleset with Capability.STATES offers: intermediate states
AS_REQUESTED = "as-requested"

CAPABILITIES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "optional, per ruleset: which parts of the outcome the implementation reports (reports) and "
                   "which option it follows at each reading point (follows); see docs/protocol.md",
    "additionalProperties": {
        "type": "object", "additionalProperties": False,
        "properties": {
            "reports": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minItems": 1,
                        "description": "the outcome parts it reports; only these are compared (default: all)"},
            "supports": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                         "description": "the ruleset's optional rules, variants and case features it supports; "
                                        "cases that need another are skipped (default: all)"},
            "follows": {"type": "object", "additionalProperties": {"type": "string"},
                        "description": "reading point -> the option it always follows, or 'as-requested'; a "
                                       "point left out is taken at the ruleset's default. Without 'follows' "
                                       "every point is as requested"},
        },
    },
}


_PARTS: KeptFor[tuple[OutcomePart, ...]] = KeptFor(64)  # by ruleset: every answer read asks


def parts(ruleset: Ruleset) -> tuple[OutcomePart, ...]:
    """The parts of a ruleset's outcome an implementation may report separately."""
    return _PARTS.get(ruleset, lambda: _parts(ruleset))


def _parts(ruleset: Ruleset) -> tuple[OutcomePart, ...]:
    found = tuple(ruleset.outcome_parts)
    if ruleset.supports(Capability.STATES):
        found += (OutcomePart(STATES, "the state after each round, phase or step, where the ruleset has them",
                              (STATES,), optional=True),)
    return found


def unreported_fields(ruleset: Ruleset, unreported: frozenset[str]) -> frozenset[str]:
    """The outcome fields of the parts named in ``unreported`` (``Outcome.unreported``):
    the fields a comparison leaves out, as ``OutcomePart.fields`` writes them (dotted
    paths, ``*`` for any key or index)."""
    return frozenset(f for part in parts(ruleset) if part.name in unreported for f in part.fields)


def _steps(field: str) -> tuple[str, ...]:
    return tuple(field.split("."))


def covers(field: str, path: tuple[Any, ...]) -> bool:
    """Whether ``path`` (a Mismatch path in the expectation, or a place in an answer) lies
    inside ``field`` (an OutcomePart field: a dotted path, ``*`` for any key or index)."""
    steps = _steps(field)
    return len(path) >= len(steps) and all(s == "*" or s == str(p) for s, p in zip(steps, path))


def left_out(path: tuple[Any, ...], fields: frozenset[str] | set[str]) -> bool:
    """Whether a mismatch at ``path`` belongs to one of ``fields`` (the unreported ones)."""
    return bool(path) and any(covers(f, path) for f in fields)


def carries(data: Any, field: str) -> bool:
    """Whether an answer's ``data`` has something at ``field`` (somewhere, for ``*``)."""
    return _found(data, _steps(field))


def _found(value: Any, steps: tuple[str, ...]) -> bool:
    if not steps:
        return True
    head, rest = steps[0], steps[1:]
    if isinstance(value, dict):
        return any(_found(v, rest) for k, v in value.items() if head in ("*", k))
    if isinstance(value, list) and head == "*":
        return any(_found(v, rest) for v in value)
    return False


def _without(data: Any, steps: tuple[str, ...]) -> Any:
    if not steps:
        return data
    head, rest = steps[0], steps[1:]
    if isinstance(data, dict):
        if not rest:
            return {k: v for k, v in data.items() if not (head == "*" or k == head)}
        return {k: _without(v, rest) if head in ("*", k) else v for k, v in data.items()}
    if isinstance(data, list) and head == "*":
        return [_without(v, rest) for v in data] if rest else []
    return data


def without_fields(data: Any, fields: frozenset[str] | set[str]) -> Any:
    """An answer's data less ``fields`` (OutcomePart fields), so that what the hello says is
    not reported is read as absent, whatever the answer carries there."""
    for field in sorted(fields):
        data = _without(data, _steps(field))
    return data


def _graft(theirs: Any, ours: Any, steps: tuple[str, ...]) -> Any:
    head, rest = steps[0], steps[1:]
    if isinstance(theirs, dict) and isinstance(ours, dict):
        out = dict(theirs)
        for key in (ours if head == "*" else [head] if head in ours else []):
            if not rest:
                out[key] = ours[key]
            elif key in theirs:
                out[key] = _graft(theirs[key], ours[key], rest)
        return out
    if isinstance(theirs, list) and isinstance(ours, list) and head == "*" and rest:
        return [_graft(t, o, rest) for t, o in zip(theirs, ours)] + theirs[len(ours):]
    return theirs


def with_fields_from(theirs: Any, ours: Any, fields: frozenset[str] | set[str]) -> Any:
    """``theirs`` with ``fields`` taken from ``ours`` where both have the place they sit in."""
    for field in sorted(fields):
        theirs = _graft(_without(theirs, _steps(field)), ours, _steps(field))
    return theirs


def _informative(schema: Any) -> bool:
    text = schema.get("description", "") if isinstance(schema, dict) else ""
    return "not compared" in text or "informative" in text


def described(data: Any, schema: Any) -> Any:
    """``data`` with only what ``schema`` describes and compares: fields it does not name
    (which the protocol says are allowed and ignored) and fields it calls informative or
    not compared are left out, at every depth."""
    if not isinstance(schema, dict):
        return data
    if isinstance(data, dict) and ("properties" in schema or "additionalProperties" in schema):
        named = schema.get("properties") or {}
        other = schema.get("additionalProperties")
        out = {}
        for key, value in data.items():
            inner = named.get(key, other if isinstance(other, dict) else None)
            if inner is not None and not _informative(inner):
                out[key] = described(value, inner)
        return out
    if isinstance(data, list) and isinstance(schema.get("items"), dict):
        return [described(item, schema["items"]) for item in data]
    return data


def _relaxed(schema: Any, steps: tuple[str, ...]) -> Any:
    """``schema`` with the field at ``steps`` no longer required, at that place (in every
    branch of ``if``/``then``/``else``, ``allOf``, ``anyOf`` and ``oneOf``)."""
    if not isinstance(schema, dict) or not steps:
        return schema
    head, rest = steps[0], steps[1:]
    out = dict(schema)
    for key in ("then", "else", "if"):
        if key in out and key != "if":
            out[key] = _relaxed(out[key], steps)
    for key in ("allOf", "anyOf", "oneOf"):
        if key in out:
            out[key] = [_relaxed(s, steps) for s in out[key]]
    if not rest:
        if "required" in out:
            out["required"] = [f for f in out["required"] if not (head == "*" or f == head)]
        return out
    if head == "*":
        for key in ("additionalProperties", "items"):
            if isinstance(out.get(key), dict):
                out[key] = _relaxed(out[key], rest)
        if isinstance(out.get("properties"), dict):
            out["properties"] = {k: _relaxed(v, rest) for k, v in out["properties"].items()}
    elif isinstance(out.get("properties"), dict) and head in out["properties"]:
        out["properties"] = {**out["properties"], head: _relaxed(out["properties"][head], rest)}
    elif isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _relaxed(out["additionalProperties"], rest)
    return out


def relaxed_schema(schema: Mapping[str, Any], fields: frozenset[str] | set[str]) -> dict[str, Any]:
    """An outcome schema in which ``fields`` (of parts not reported) may be absent."""
    out: Any = dict(schema)
    for field in sorted(fields):
        out = _relaxed(out, _steps(field))
    return dict(out)


@dataclass(frozen=True)
class Declaration:
    """One ruleset's entry of the hello's ``capabilities`` (or the meaning of none)."""

    reports: frozenset[str] | None = None  # None: every part
    follows: Mapping[str, str] | None = None  # None: every point as requested
    supports: frozenset[str] | None = None  # None: every feature

    def supported(self, ruleset: Ruleset) -> frozenset[str]:
        """The names of the ruleset's features the implementation supports."""
        names = frozenset(f.name for f in ruleset.features)
        return names if self.supports is None else names & self.supports

    def lacking(self, ruleset: Ruleset, before: Any, actions: Any) -> tuple[str, ...]:
        """The features the scene needs that the implementation does not support, in the
        ruleset's order."""
        needed = ruleset.features_needed(before, actions) - self.supported(ruleset)
        return tuple(f.name for f in ruleset.features if f.name in needed)

    def reported(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        return tuple(p for p in parts(ruleset) if self.reports is None or p.name in self.reports)

    def unreported(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        """The parts the hello says are not reported (optional parts are, besides, only
        compared in the answers that carry them: see ``absent``), with the parts that need them."""
        if self.reports is None:
            return ()
        out = {p.name for p in parts(ruleset) if p.name not in self.reports}
        out |= {p.name for p in parts(ruleset) if set(p.needs) & out}
        return tuple(p for p in parts(ruleset) if p.name in out)

    def promised(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        """The optional parts the hello names in ``reports``: every answer must carry them."""
        return tuple(p for p in parts(ruleset) if p.optional and self.reports is not None and p.name in self.reports)

    def absent(self, ruleset: Ruleset, answer: Mapping[str, Any]) -> tuple[OutcomePart, ...]:
        """The optional parts this answer leaves out and the hello does not promise."""
        promised = self.promised(ruleset)
        return tuple(p for p in parts(ruleset) if p.optional and p not in promised and p not in
                     self.unreported(ruleset) and not any(carries(answer, f) for f in p.fields))

    def reading(self, ruleset: Ruleset, requested: Mapping[str, str]) -> Mapping[str, str]:
        """The full reading the implementation resolves under, when asked for ``requested``."""
        if self.follows is None:
            return requested
        chosen = {}
        for point in ruleset.reading_points:
            option = self.follows.get(point.name, point.default)
            chosen[point.name] = requested[point.name] if option == AS_REQUESTED else option
        return MappingProxyType(chosen)


EVERYTHING = Declaration()


def read_capabilities(reply: Mapping[str, Any]) -> tuple[dict[str, Declaration], str | None]:
    """The declarations of a hello answer (already checked against the schema), and the
    first problem with them as a sentence naming the field, or None."""
    declared: dict[str, Declaration] = {}
    for key, entry in (reply.get("capabilities") or {}).items():
        where = f"capabilities.{key}"
        try:
            ruleset = registry.get(key)
        except UnknownRulesetError:
            return {}, f"{where}: there is no ruleset {key!r}; {did_you_mean(key, registry.names())}"
        reports = None
        if "reports" in entry:
            names = [p.name for p in parts(ruleset)]
            if not names:
                return {}, (f"{where}.reports: ruleset {key!r} names no parts of its outcome; its answers are "
                            "compared whole, so leave 'reports' out")
            for name in entry["reports"]:
                if name not in names:
                    return {}, f"{where}.reports: {key} has no outcome part {name!r}; {did_you_mean(name, names)}"
            missing = [p.name for p in parts(ruleset) if p.required and p.name not in entry["reports"]]
            if missing:
                return {}, f"{where}.reports: every {key} answer reports {', '.join(missing)}; list it"
            reports = frozenset(entry["reports"])
        follows = None
        if "follows" in entry:
            points = {p.name: p for p in ruleset.reading_points}
            for name, option in entry["follows"].items():
                if name not in points:
                    return {}, (f"{where}.follows: {key} has no reading point {name!r}; "
                                f"{did_you_mean(name, list(points))}")
                if option != AS_REQUESTED and option not in points[name].options:
                    return {}, (f"{where}.follows.{name}: no option {option!r}; "
                                f"{did_you_mean(option, [*points[name].options, AS_REQUESTED])}")
            follows = MappingProxyType(dict(entry["follows"]))
        supports = None
        if "supports" in entry:
            names = [f.name for f in ruleset.features]
            for name in entry["supports"]:
                if name not in names:
                    return {}, (f"{where}.supports: {key} has no optional rule, variant or case feature {name!r}; "
                                + (did_you_mean(name, names) if names else "it has none, so leave 'supports' out"))
            supports = frozenset(entry["supports"])
        declared[key] = Declaration(reports, follows, supports)
    return declared, None


def describe(ruleset: Ruleset, declaration: Declaration) -> str:
    """The declaration in words, for the line that introduces the implementation."""
    words = []
    if declaration.reports is not None:
        words.append("reports " + ", ".join(p.name for p in declaration.reported(ruleset)))
    if declaration.follows is not None:
        asked = [k for k, v in declaration.follows.items() if v == AS_REQUESTED]
        differs = {k: v for k, v in declaration.follows.items()
                   if v != AS_REQUESTED and v != ruleset.default_reading[k]}
        said = [", ".join(f"{k}={v}" for k, v in sorted(differs.items()))] if differs else []
        said += [", ".join(asked) + " as requested"] if asked else []
        words.append("follows " + ("; ".join(said) + " (other points: the defaults)" if said
                                   else "the default reading"))
    if declaration.supports is not None:
        lacks = [f.name for f in ruleset.features if f.name not in declaration.supports]
        words.append("lacks " + ", ".join(lacks) if lacks else "supports every optional rule")
    return f"{ruleset.key}: " + "; ".join(words) if words else ""


def feature_words(ruleset: Ruleset, names: tuple[str, ...]) -> str:
    """Features by name and summary, for a skip's reason."""
    summaries = {f.name: f.summary for f in ruleset.features}
    return ", ".join(f"{name} ({summaries[name]})" for name in names)
