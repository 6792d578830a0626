"""Structural validation of loaded documents against a JSON Schema.

The schema that validates a case file is the same one published in
``docs/schema/``, so an editor and the loader agree on what is allowed.
jsonschema's messages are rewritten into one-line, located messages with a
"did you mean" hint for near-miss keys and enum values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import CaseError, did_you_mean
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
_VALIDATORS: dict[int, tuple[Mapping[str, Any], Any]] = {}
_MOST_VALIDATORS = 64


def _validator(schema: Mapping[str, Any]) -> Any:
    known = _VALIDATORS.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    import jsonschema
    kind = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
    validator = kind(schema)
    if len(_VALIDATORS) >= _MOST_VALIDATORS:
        _VALIDATORS.clear()
    _VALIDATORS[id(schema)] = (schema, validator)
    return validator


# --- a quick verdict on the keywords the case schemas use ---------------------------------------
# Nearly every document read is valid, and jsonschema took a third of the time reading a case.
# ``_conforms`` gives jsonschema's verdict (draft 2020-12, integers as ``_is_integer`` has them)
# for the keywords below; a schema with any other keyword is left to jsonschema. Only a document
# found invalid goes through jsonschema, for its messages.

class _Unsure(Exception):
    """A keyword or value the quick verdict does not cover."""


_ANNOTATIONS = frozenset({"description", "title", "$schema", "$comment", "examples", "default"})


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    import numbers
    if isinstance(value, numbers.Number):
        raise _Unsure
    return False


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": _is_number, "boolean": lambda v: isinstance(v, bool), "null": lambda v: v is None,
}


def _equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema has it: true and 1 differ, 1 and 1.0 do not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return bool(a == b)


def _conforms(instance: Any, schema: Any) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        raise _Unsure
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in ("then", "else"):
            continue
        if not _KEYWORDS.get(key, _unknown)(instance, value, schema):
            return False
    return True


def _unknown(instance: Any, value: Any, schema: Any) -> bool:
    raise _Unsure


def _type(instance: Any, value: Any, schema: Any) -> bool:
    wanted = [value] if isinstance(value, str) else value
    for name in wanted:
        if name not in _TYPES:
            raise _Unsure
    return any(_TYPES[name](instance) for name in wanted)


def _properties(instance: Any, value: Any, schema: Any) -> bool:
    if not isinstance(instance, dict):
        return True
    return all(_conforms(instance[k], sub) for k, sub in value.items() if k in instance)


def _additional(instance: Any, value: Any, schema: Any) -> bool:
    if not isinstance(instance, dict):
        return True
    if "patternProperties" in schema:
        raise _Unsure
    known = schema.get("properties", {})
    return all(_conforms(v, value) for k, v in instance.items() if k not in known)


def _items(instance: Any, value: Any, schema: Any) -> bool:
    if "prefixItems" in schema or not isinstance(value, (dict, bool)):
        raise _Unsure
    return not isinstance(instance, list) or all(_conforms(item, value) for item in instance)


def _canonical(value: Any) -> Any:
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, dict):
        return ("o", frozenset((k, _canonical(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("a", tuple(_canonical(v) for v in value))
    if isinstance(value, (int, float)):
        return ("n", float(value))  # 1 and 1.0 are one value; ints that round together only make it unsure
    return ("s", value) if isinstance(value, str) else ("?", id(value))


def _unique(instance: Any, value: Any, schema: Any) -> bool:
    if not value or not isinstance(instance, list):
        return True
    if len({_canonical(item) for item in instance}) == len(instance):
        return True
    raise _Unsure  # some items repeat, or only look alike: jsonschema decides


def _number_bound(fails: Any) -> Any:
    return lambda instance, value, schema: not (_is_number(instance) and fails(instance, value))


def _if(instance: Any, value: Any, schema: Any) -> bool:
    branch = schema.get("then", True) if _conforms(instance, value) else schema.get("else", True)
    return _conforms(instance, branch)


_KEYWORDS: dict[str, Any] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": lambda i, v, s: not isinstance(i, dict) or all(k in i for k in v),
    "items": _items,
    "minItems": lambda i, v, s: not isinstance(i, list) or len(i) >= v,
    "maxItems": lambda i, v, s: not isinstance(i, list) or len(i) <= v,
    "uniqueItems": _unique,
    "minLength": lambda i, v, s: not isinstance(i, str) or len(i) >= v,
    "maxLength": lambda i, v, s: not isinstance(i, str) or len(i) <= v,
    "pattern": lambda i, v, s: not isinstance(i, str) or re.search(v, i) is not None,
    "minProperties": lambda i, v, s: not isinstance(i, dict) or len(i) >= v,
    "minimum": _number_bound(lambda i, v: i < v),
    "maximum": _number_bound(lambda i, v: i > v),
    "exclusiveMinimum": _number_bound(lambda i, v: i <= v),
    "exclusiveMaximum": _number_bound(lambda i, v: i >= v),
    "enum": lambda i, v, s: any(_equal(i, option) for option in v),
    "const": lambda i, v, s: _equal(i, v),
    "if": _if,
    "not": lambda i, v, s: not _conforms(i, v),
    "allOf": lambda i, v, s: all(_conforms(i, sub) for sub in v),
    "anyOf": lambda i, v, s: any(_conforms(i, sub) for sub in v),
}


def quickly_valid(instance: Any, schema: Mapping[str, Any]) -> bool | None:
    """jsonschema's verdict on ``instance``, where the schema's keywords are ones the quick
    verdict covers; else None."""
    try:
        return _conforms(instance, schema)
    except (_Unsure, RecursionError):
        return None
    except (TypeError, re.error):  # a comparison or a pattern jsonschema may judge otherwise
        return None


def validate(doc: Located, schema: Mapping[str, Any], at: Iterable[Any] = ()) -> list[CaseError]:
    """All schema violations of ``doc.data`` (or of the sub-document at ``at``)."""
    at = tuple(at)
    instance = doc.at(at)
    if quickly_valid(instance, schema):
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
