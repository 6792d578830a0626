"""Structural validation of loaded documents against a JSON Schema.

The schema that validates a case file is the same one published in
``docs/schema/``, so an editor and the loader agree on what is allowed.
jsonschema's messages are rewritten into one-line, located messages with a
"did you mean" hint for near-miss keys and enum values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import CaseError, did_you_mean
from .kept import KeptFor
from .quickschema import Check, compile_schema, fits
from .source import Located

if TYPE_CHECKING:  # jsonschema is imported when the first document is validated, not at start-up
    import jsonschema

_TYPE_NAMES = {
    "object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "nothing",
}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def _message(error: jsonschema.ValidationError) -> tuple[tuple[str | int, ...], str, bool]:
    """(path, message, points_at_key) for one jsonschema error."""
    path = tuple(error.absolute_path)
    kind = error.validator
    # A validator sets all of these on every error it yields; only a hand-made error leaves them unset.
    instance: Any = error.instance
    value: Any = error.validator_value
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extras = [k for k in instance if k not in schema.get("properties", {})]
        key = extras[0]
        patterns = schema.get("patternProperties")
        hint = did_you_mean(key, allowed) if allowed and not patterns else ""
        return path + (key,), f"unknown field {key!r}" + (f"; {hint}" if hint else ""), True
    if kind == "required":
        missing = [k for k in value if k not in instance]
        return path, f"missing required field {missing[0]!r}", False
    if kind == "enum":
        return path, f"{_describe(instance)} is not allowed; {did_you_mean(instance, value)}", False
    if kind == "const":
        return path, f"must be {value!r}, not {_describe(instance)}", False
    if kind == "type":
        wanted = [value] if isinstance(value, str) else value
        names = " or ".join(_TYPE_NAMES.get(w, w) for w in wanted)
        return path, f"expected {names}, got {_describe(instance)}", False
    if kind in ("minItems", "maxItems"):
        word = "at least" if kind == "minItems" else "at most"
        return path, f"needs {word} {value} item{'s' if value != 1 else ''}, got {len(instance)}", False
    if kind in ("minimum", "maximum", "exclusiveMinimum"):
        word = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than"}[kind]
        return path, f"must be {word} {value}, got {instance}", False
    if kind == "minLength":
        return path, "must not be empty", False
    if kind == "maxLength":
        return path, f"must be at most {value} characters long, got {len(instance)}", False
    if kind == "pattern":
        form = schema.get("description") or value
        return path, f"{instance!r} does not have the expected form ({form})", False
    if kind == "uniqueItems":
        return path, "items must not repeat", False
    if kind in ("oneOf", "anyOf"):
        from jsonschema.exceptions import best_match
        best = best_match(error.context) if error.context else None
        if best is not None:
            return _message(best)
    return path, error.message[:200], False


def _is_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 2.0 as an integer; a case file that writes 2.0 where a count or a
    # tile belongs is more likely a mistake, and the parsers rely on real ints.
    return isinstance(instance, int) and not isinstance(instance, bool)


# Validators by schema, each built once for a schema passed again and again (the schema is kept,
# so that its id stays its own); a caller that builds its schema afresh each time gets a fresh one.
_VALIDATORS: KeptFor[Any] = KeptFor(64)


def _validator(schema: Mapping[str, Any]) -> Any:
    return _VALIDATORS.get(schema, lambda: _new_validator(schema))


def _new_validator(schema: Mapping[str, Any]) -> Any:
    import jsonschema
    kind = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
    return kind(schema)


# Quick checks by schema, compiled once (see verifier.quickschema): a document they pass is
# valid without asking jsonschema, which is asked only for the words of what is wrong.
_QUICK: KeptFor[Check | None] = KeptFor(64)


def _quick(schema: Mapping[str, Any]) -> Check | None:
    return _QUICK.get(schema, lambda: compile_schema(schema, strict_integers=True))


def validate(doc: Located, schema: Mapping[str, Any], at: Iterable[Any] = ()) -> list[CaseError]:
    """All schema violations of ``doc.data`` (or of the sub-document at ``at``)."""
    at = tuple(at)
    instance = doc.at(at)
    if fits(_quick(schema), instance):
        return []
    validator = _validator(schema)
    found = []
    seen = set()
    for error in validator.iter_errors(instance):
        path, message, key = _message(error)
        path = at + path
        if (path, message) not in seen:
            seen.add((path, message))
            found.append((path, message, key))
    # A misspelt key shows up twice: as unknown, and its real name as missing. Keep the first.
    hinted = {(p[:-1], m.rsplit("'", 2)[-2]) for p, m, k in found if k and "did you mean" in m}
    problems = [doc.error(p, m, key=k) for p, m, k in found
                if not (m.startswith("missing required field") and (p, m.split("'")[1]) in hinted)]
    problems.sort(key=lambda e: (e.location.line or 0, e.location.column or 0))
    return problems
