"""What an implementation declares in its hello, per ruleset: which parts of the
outcome it reports, and which option it follows at each reading point.

    "capabilities": {"ypp": {"reports": ["ships", "states"], "follows": {"bump": "motion-first"}}}

Without ``reports`` every part is compared. Without ``follows`` the implementation is
taken to resolve every case under the reading its request names (as before hellos
declared anything); with it, a point it leaves out is taken at the ruleset's default,
and ``as-requested`` says that it follows the request at that point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .. import registry
from ..errors import UnknownRulesetError, did_you_mean
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
            "follows": {"type": "object", "additionalProperties": {"type": "string"},
                        "description": "reading point -> the option it always follows, or 'as-requested'; a "
                                       "point left out is taken at the ruleset's default. Without 'follows' "
                                       "every point is as requested"},
        },
    },
}


def parts(ruleset: Ruleset) -> tuple[OutcomePart, ...]:
    """The parts of a ruleset's outcome an implementation may report separately."""
    found = tuple(ruleset.outcome_parts)
    if ruleset.supports(Capability.STATES):
        found += (OutcomePart(STATES, "the state after each round, phase or step, where the ruleset has them",
                              (STATES,), optional=True),)
    return found


def unreported_fields(ruleset: Ruleset, unreported: frozenset[str]) -> frozenset[str]:
    """The outcome fields of the parts named in ``unreported`` (``Outcome.unreported``):
    the fields a comparison leaves out."""
    return frozenset(f for part in parts(ruleset) if part.name in unreported for f in part.fields)


@dataclass(frozen=True)
class Declaration:
    """One ruleset's entry of the hello's ``capabilities`` (or the meaning of none)."""

    reports: frozenset[str] | None = None  # None: every part
    follows: Mapping[str, str] | None = None  # None: every point as requested

    def reported(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        return tuple(p for p in parts(ruleset) if self.reports is None or p.name in self.reports)

    def unreported(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        """The parts the hello says are not reported (optional parts are, besides, only
        compared in the answers that carry them: see ``absent``)."""
        return tuple(p for p in parts(ruleset) if self.reports is not None and p.name not in self.reports)

    def promised(self, ruleset: Ruleset) -> tuple[OutcomePart, ...]:
        """The optional parts the hello names in ``reports``: every answer must carry them."""
        return tuple(p for p in parts(ruleset) if p.optional and self.reports is not None and p.name in self.reports)

    def absent(self, ruleset: Ruleset, answer: Mapping[str, Any]) -> tuple[OutcomePart, ...]:
        """The optional parts this answer leaves out and the hello does not promise."""
        promised = self.promised(ruleset)
        return tuple(p for p in parts(ruleset) if p.optional and p not in promised and p not in
                     self.unreported(ruleset) and not any(f in answer for f in p.fields))

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
        declared[key] = Declaration(reports, follows)
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
    return f"{ruleset.key}: " + "; ".join(words) if words else ""
