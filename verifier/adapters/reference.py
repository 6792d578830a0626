"""The reference resolver behind the adapter protocol: an example adapter, and the
proof that the protocol round-trips (every case passes through it as it does
in-process).

    verifier check --impl "python -m verifier.adapters.reference"     # a subprocess
    verifier check --impl python:verifier.adapters.reference:handle   # in-process

An adapter for another implementation has the same shape: read a JSON line, answer
one JSON line, flush, until stdin ends.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Mapping
from typing import Any

from .. import __version__, registry
from ..adapter import PROTOCOL, supports_protocol
from ..adapter.protocol import outcome_answer
from ..errors import UnknownReadingError, UnknownRulesetError, VerifierError
from ..ruleset import Ruleset
from ..schema import validate
from ..source import Located


def _rulesets() -> list[str]:
    found = []
    for key in registry.names():
        ruleset = registry.get(key)
        if supports_protocol(ruleset) and type(ruleset).outcome_json is not Ruleset.outcome_json:
            found.append(key)
    return found


def hello(message: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL,
            "implementation": {"name": "verifier reference resolver", "version": __version__,
                               "language": f"python {sys.version_info.major}.{sys.version_info.minor}"},
            "rulesets": _rulesets()}


_schemas: dict[str, dict[str, Any]] = {}


def _request_schema(ruleset: Ruleset) -> dict[str, Any]:
    """The schema of a request's scene, built once (so that validate's quick check is too)."""
    if ruleset.key not in _schemas:
        _schemas[ruleset.key] = {"type": "object",
                                 "properties": {"before": ruleset.before_schema, "actions": ruleset.actions_schema}}
    return _schemas[ruleset.key]


def resolve(message: Mapping[str, Any]) -> dict[str, Any]:
    case_id = message.get("id", "")
    try:
        ruleset = registry.get(message["ruleset"])
    except UnknownRulesetError as exc:
        return {"type": "skipped", "id": case_id, "reason": exc.message}
    doc = Located("<request>", {"before": message["before"], "actions": message["actions"]}, {}, {})
    problems = validate(doc, _request_schema(ruleset))
    if problems:
        return {"type": "errored", "id": case_id, "message": "; ".join(p.message for p in problems[:3])}
    try:
        reading = ruleset.reading(message.get("readings") or {})
    except UnknownReadingError as exc:
        return {"type": "skipped", "id": case_id, "reason": exc.message}
    try:
        before, actions, _ = ruleset.parse(doc, ("before",), ("actions",), None)
    except VerifierError as exc:
        return {"type": "errored", "id": case_id, "message": getattr(exc, "message", str(exc))}
    outcome = ruleset.resolve(before, actions, reading)
    if outcome.refusal is not None:
        return {"type": "refused", "id": case_id, "clause": outcome.refusal.clause, "reason": outcome.refusal.reason}
    return {"type": "outcome", "id": case_id, "outcome": outcome_answer(ruleset, outcome)}


def handle(message: Any) -> dict[str, Any]:
    """Answer one protocol message (hello or case); any JSON value may arrive."""
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "hello":
        return hello(message)
    if kind == "case":
        try:
            return resolve(message)
        except Exception as exc:
            return {"type": "errored", "id": message.get("id", ""), "message": f"{type(exc).__name__}: {exc}",
                    "detail": traceback.format_exc(limit=3)}
    return {"type": "errored", "message": f"unknown message type {kind!r}"}


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message: Any = json.loads(line)
        except ValueError as exc:
            answer = {"type": "errored", "message": f"not JSON: {exc}"}
        else:
            answer = handle(message)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
